"""The phone server's limits as docs/phones.md states them: per address, per seat, and the codes file's writes.

A phone on IPv6 picks a new private address at will inside its network's /64: counted per address, a guest could
try codes without end. So an IPv6 address counts as its /64, an IPv4-mapped one as the IPv4 it is, and a guest
cycling addresses cannot grow the server's memory without end either.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.phones.codes import SeatCodes, new_token
from hardware.phones.server import AttemptLimit, TapLimit, source_of


@pytest.mark.parametrize(
    ("address", "source"),
    [
        ("192.168.1.20", "192.168.1.20"),
        ("::ffff:192.168.1.20", "192.168.1.20"),  # the same phone through a dual-stack socket
        ("2001:db8:1:2:a:b:c:d", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),  # a new private address: the same guest
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),  # another network: another guest
        ("a-unix-socket", "a-unix-socket"),  # not an IP address: counted as what it is
    ],
)
def test_a_phone_counts_as_its_ipv4_address_or_its_ipv6_network(address: str, source: str) -> None:
    assert source_of(address) == source


def test_a_guest_cycling_addresses_cannot_grow_the_failure_book_without_end() -> None:
    """Past 1,024 addresses, those whose wrong codes are older than the window are forgotten."""
    now = [0.0]
    limit = AttemptLimit(allowed=5, window=60.0, block=600.0, clock=lambda: now[0])
    for n in range(1100):
        limit.failed(f"10.0.{n // 256}.{n % 256}")
    now[0] = 61.0
    limit.failed("10.9.9.9")
    assert len(limit._failures) == 1  # only the newest remains
    for _ in range(4):
        assert not limit.failed("10.9.9.8")
    assert limit.failed("10.9.9.8") and limit.blocked("10.9.9.8")  # the limit itself still holds


def test_a_seat_flooding_taps_is_held_to_its_burst_then_its_rate() -> None:
    """server.py: "a minute of flooding stores at most burst + 60 * rate" steps; other seats are not slowed."""
    now = [0.0]
    taps = TapLimit(rate=2.0, burst=5, clock=lambda: now[0])
    assert [taps.allow("Ann") for _ in range(7)] == [True] * 5 + [False] * 2
    assert taps.allow("Bo")
    now[0] = 1.0
    assert [taps.allow("Ann") for _ in range(3)] == [True, True, False]
    stored = 0
    for step in range(600):  # a minute more of tapping, ten times a second
        now[0] = 1.0 + step / 10
        stored += taps.allow("Ann")
    assert stored <= 5 + 60 * 2


def test_seat_codes_are_written_only_when_they_change(tmp_path: Path) -> None:
    """The codes file is small but on an SD card: keeping the same codes, forgetting a game it never had, or
    keeping every game it has writes nothing."""
    path = tmp_path / "seat-codes.json"
    codes = SeatCodes(path)
    seats = {"Ann": new_token(), "Bo": new_token()}
    codes.keep("game-1", seats)
    written = path.stat()
    codes.keep("game-1", dict(seats))
    codes.forget("game-unknown")
    codes.forget_all_but(["game-1", "game-2"])
    now = path.stat()  # a save replaces the file whole: a new inode
    assert (now.st_ino, now.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    assert codes.codes_for("game-1") == seats
