"""Seat codes kept over a restart (`hardware.phones.codes`): round trip, 0600, no token in a log, damage, a card
that will not take the file, a file that is not ours.

Issue 15: "Each seat gets an unguessable token per game (at least 128 bits
from `secrets`). The token lives only in its QR code and the URL, and it is
never in a log", and the tests cover "a reconnect after the server restarts".
"""

from __future__ import annotations

import json
import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.phones.codes import KIND, SeatCodes, check_codes, new_token, strong
from tests.core.test_store_weather import _fill, _mount
from tests.core.test_store_weather import card as card  # the small tmpfs fixture, shared (root only)

ANN, BO = "Ann", "Bo"


def seats() -> dict[str, str]:
    return {ANN: new_token(), BO: new_token()}


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.DEBUG, logger="hardware.phones.codes")
    yield caplog


def lines(caplog: pytest.LogCaptureFixture) -> str:
    return caplog.text + "\n".join(record.getMessage() for record in caplog.records)


def test_codes_come_back_after_a_restart_from_a_0600_file(tmp_path: Path) -> None:
    """The promise: a restart changes no seat's code, so a phone's page needs no new scan."""
    path = tmp_path / "data" / "phone-codes.json"  # the folder is made at the first save
    first, second = seats(), seats()
    codes = SeatCodes(path)
    codes.keep("7", first)
    codes.keep("9", second)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {"kind": KIND, "version": 1, "games": {"7": first, "9": second}}
    again = SeatCodes(path)
    assert again.codes_for("7") == first and again.codes_for("9") == second and again.codes_for("8") is None
    assert again.saving
    again.forget_all_but(["9"])
    assert SeatCodes(path).keys() == {"9"}
    again.forget("9")
    assert SeatCodes(path).keys() == set()
    assert [p.name for p in path.parent.iterdir()] == ["phone-codes.json"], "no temporary file left behind"


def test_an_existing_file_made_readable_to_others_is_0600_again_after_a_save(tmp_path: Path) -> None:
    path = tmp_path / "phone-codes.json"
    codes = SeatCodes(path)
    codes.keep("1", seats())
    path.chmod(0o644)
    codes.keep("2", seats())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_no_token_is_ever_in_a_log_line(tmp_path: Path, logged: pytest.LogCaptureFixture) -> None:
    """Issue 15: the token "is never in a log", whatever goes wrong with its file."""
    path = tmp_path / "phone-codes.json"
    kept = seats()
    SeatCodes(path).keep("1", kept)
    weak = {ANN: "short", BO: kept[BO]}
    shared = {ANN: kept[ANN], BO: kept[ANN]}
    text = json.dumps({"kind": KIND, "version": 1, "games": {"1": kept, "2": weak, "3": shared}})
    path.write_text(text)
    loaded = SeatCodes(path)
    assert loaded.keys() == {"1"}, "a weak or shared code is left out: those seats get fresh ones"
    path.write_text(text[:-9])  # cut short: not JSON any more
    SeatCodes(path).keep("5", kept)
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "phone-codes.json").mkdir()
    SeatCodes(folder / "phone-codes.json").keep("1", kept)
    with pytest.raises(ValueError) as refused:
        loaded.keep("4", weak)
    assert len(logged.records) >= 3, "each trouble was logged: the check below is not vacuous"
    said = lines(logged) + str(refused.value)
    assert [t for t in (*kept.values(), "short") if t in said] == []


def test_a_damaged_file_of_ours_starts_with_no_codes_and_is_replaced_at_the_next_save(
    tmp_path: Path, logged: pytest.LogCaptureFixture
) -> None:
    """Ours (our kind and version) but damaged inside: what cannot be trusted is left out, the next save mends it."""
    path = tmp_path / "phone-codes.json"
    good = seats()
    for games, left in (
        ([1, 2], set()),  # a wrong shape
        ({"1": good, "2": "Ann"}, {"1"}),  # one game's entry is not an object
        ({"1": good, "2": {ANN: good[ANN], BO: "0" * 21}}, {"1"}),  # a seat's code under 128 bits
    ):
        path.write_text(json.dumps({"kind": KIND, "version": 1, "games": games}))
        codes = SeatCodes(path)
        assert codes.keys() == left and codes.saving
        assert "damaged" in lines(logged)
        kept = seats()
        codes.keep("3", kept)
        assert SeatCodes(path).keys() == left | {"3"} and SeatCodes(path).codes_for("3") == kept


@pytest.mark.parametrize(
    "what",
    [
        "another program's JSON",
        "JSON of another kind",
        "a newer version's file",
        "a file of ours cut short",
        "a text file",
        "a folder",
    ],
)
def test_a_file_that_is_not_ours_is_left_byte_for_byte_and_the_codes_live_in_memory(
    tmp_path: Path, logged: pytest.LogCaptureFixture, what: str
) -> None:
    """House rule: "Never rename, truncate or replace a file the app did not create"; one that no longer reads as
    ours is left alone as well."""
    path = tmp_path / "phone-codes.json"
    contents = {
        "another program's JSON": b'{"Ann": "someone else\'s notes"}',
        "JSON of another kind": b'{"kind": "table-choices", "version": 1, "games": {}}',
        "a newer version's file": b'{"kind": "phone-codes", "version": 2, "games": {}, "seats": []}',
        "a file of ours cut short": b'{"kind": "phone-codes", "version": 1, "games": {"1": {"Ann": ',
        "a text file": b"phone codes: ask Ann\n",
    }
    if what == "a folder":
        path.mkdir()
        (path / "inside").write_bytes(b"x")
    else:
        path.write_bytes(contents[what])
        path.chmod(0o644)
    before = _picture(tmp_path)
    codes = SeatCodes(path)
    kept = seats()
    codes.keep("1", kept)
    codes.forget_all_but([])
    codes.keep("2", kept)
    assert codes.codes_for("2") == kept, "in memory, the phones go on working"
    assert not codes.saving
    assert _picture(tmp_path) == before, "nothing was written, renamed or left beside it"
    assert "left as it is" in lines(logged)


def test_a_file_put_there_after_the_start_is_not_replaced(tmp_path: Path, logged: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "phone-codes.json"
    codes = SeatCodes(path)
    path.write_bytes(b"the owner's own notes")
    codes.keep("1", seats())
    assert path.read_bytes() == b"the owner's own notes" and codes.codes_for("1") is not None
    assert "left as it is" in lines(logged)


def test_a_read_only_card_keeps_the_codes_in_memory_and_says_so_once(
    card: Path, logged: pytest.LogCaptureFixture
) -> None:
    """The card goes read-only mid-game (how a failing SD card ends): nothing raised, the codes stay in memory,
    one log line; once it can be written again, everything kept is saved."""
    path = card / "phone-codes.json"
    codes = SeatCodes(path)
    first = seats()
    codes.keep("1", first)
    _mount(card, "-o", "remount,ro")
    second = seats()
    codes.keep("2", second)
    codes.keep("3", seats())
    assert codes.codes_for("2") == second and not codes.saving
    assert SeatCodes(path).keys() == {"1"}, "the file on the card is as it was"
    troubles = [r for r in logged.records if "could not be saved" in r.getMessage()]
    assert len(troubles) == 1 and "Read-only" in troubles[0].getMessage()
    _mount(card, "-o", "remount,rw")
    codes.forget("3")
    assert codes.saving and SeatCodes(path).codes_for("2") == second


def test_a_full_card_keeps_the_codes_in_memory(card: Path, logged: pytest.LogCaptureFixture) -> None:
    path = card / "phone-codes.json"
    codes = SeatCodes(path)
    first = seats()
    codes.keep("1", first)
    filler = _fill(card)
    codes.keep("2", seats())
    assert not codes.saving and codes.codes_for("2") is not None
    assert SeatCodes(path).keys() == {"1"}, "the old file is whole: the new one was never put in its place"
    assert sorted(p.name for p in card.iterdir()) == ["phone-codes.json", "photos.bin"], "no partial file left"
    assert "No space left" in lines(logged)
    filler.unlink()
    codes.keep("3", seats())
    assert SeatCodes(path).keys() == {"1", "2", "3"}


def test_only_strong_distinct_codes_for_exactly_the_players_are_taken(tmp_path: Path) -> None:
    """Issue 15: "at least 128 bits": a damaged or hand-edited file must not give a seat a guessable code."""
    assert strong(new_token()) and len(new_token()) >= 22
    for weak in ("", "x" * 21, "a b" * 10, "é" * 30, "x" * 22 + "=", 12345678901234567890123, None, "x" * 129):
        assert not strong(weak), weak
    good = seats()
    check_codes([ANN, BO], good)
    for codes, players in (
        ({ANN: "x" * 21, BO: good[BO]}, [ANN, BO]),
        ({ANN: good[ANN], BO: good[ANN]}, [ANN, BO]),
        ({ANN: good[ANN]}, [ANN, BO]),
        (good, [ANN, BO, "Cy"]),
        (good, [ANN, ANN]),
    ):
        with pytest.raises(ValueError):
            check_codes(players, codes)
    codes = SeatCodes(tmp_path / "phone-codes.json")
    with pytest.raises(ValueError):
        codes.keep("1", {ANN: "short", BO: good[BO]})
    assert codes.codes_for("1") is None and not (tmp_path / "phone-codes.json").exists()


def test_in_memory_only_without_a_path() -> None:
    codes = SeatCodes(None)
    kept = seats()
    codes.keep("1", kept)
    assert codes.codes_for("1") == kept and not codes.saving


def _picture(folder: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every path under `folder`, with its mode and its bytes (None for a folder)."""
    return {
        str(p.relative_to(folder)): (os.lstat(p).st_mode, None if p.is_dir() else p.read_bytes())
        for p in sorted(folder.rglob("*"))
    }
