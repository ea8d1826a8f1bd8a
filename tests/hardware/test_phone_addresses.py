"""Which connections the phone server counts as one guest: docs/phones.md's limits, by address.

A phone on IPv6 picks a new private address at will inside its network's /64: counted per address, a guest could
try codes without end. So an IPv6 address counts as its /64, an IPv4-mapped one as the IPv4 it is, and a guest
cycling addresses cannot grow the server's memory without end either.
"""

from __future__ import annotations

import pytest

from hardware.phones.server import AttemptLimit, source_of


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
