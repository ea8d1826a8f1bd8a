"""The display pairings file as an owner's card leaves it: old, damaged, not ours, or impossible to write.

pairings.py: "A file that is not ours ... is left as it is: the pairings made this run last until the app stops,
and `problem` says so. A file of ours with a damaged entry starts with none and is written again at the next
pairing." A pairing holds a key: the file is the owner's alone (0600).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from hardware.display import protocol as p
from hardware.display.pairings import Pairing, Pairings

KEY = bytes(range(p.KEY_SIZE))


def test_a_pairing_is_kept_whole_with_its_key_for_the_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "pairings.json"
    Pairings(path).bind("pico-a", "Ann", KEY)
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert json.loads(path.read_text()) == {"version": 2, "displays": {"pico-a": {"player": "Ann", "key": KEY.hex()}}}
    assert Pairings(path).get("pico-a") == Pairing("Ann", KEY)


def test_a_version_1_pairing_has_no_key_and_must_be_paired_again(tmp_path: Path) -> None:
    """Version 1 files (identity → player, no keys) are read as pairings without a key."""
    path = tmp_path / "pairings.json"
    path.write_text(json.dumps({"version": 1, "displays": {"pico-a": "Ann"}}))
    pairings = Pairings(path)
    assert pairings.get("pico-a") == Pairing("Ann", None) and pairings.problem is None


@pytest.mark.parametrize(
    "entry",
    [{"player": "Ann", "key": "abc"}, {"player": 7}, ["Ann"]],
    ids=["short key", "player not a name", "not an object"],
)
def test_a_damaged_entry_starts_with_none_and_the_next_pairing_writes_the_file_again(
    tmp_path: Path, entry: object, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "pairings.json"
    path.write_text(json.dumps({"version": 2, "displays": {"pico-a": entry, "pico-b": "Bo"}}))
    with caplog.at_level(logging.WARNING):
        pairings = Pairings(path)
    assert pairings.as_dict() == {} and pairings.problem == (
        "The display pairings were damaged: each player display is paired again."
    )
    assert "damaged" in caplog.text
    pairings.bind("pico-b", "Bo", KEY)
    assert Pairings(path).as_dict() == {"pico-b": "Bo"}


@pytest.mark.parametrize("content", ['["pico-a", "Ann"]', '{"displays": "Ann"}', "not json"])
def test_a_file_that_is_not_ours_is_never_written_over(tmp_path: Path, content: str) -> None:
    """Pairings made this run hold until the app stops; the file stays byte for byte what it was."""
    path = tmp_path / "pairings.json"
    path.write_text(content)
    pairings = Pairings(path)
    assert pairings.problem is not None and "not the companion's pairings" in pairings.problem
    pairings.bind("pico-a", "Ann", KEY)
    assert pairings.player_of("pico-a") == "Ann" and path.read_text() == content


def test_a_pairing_that_cannot_be_saved_holds_until_the_app_stops(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A full or read-only card: the pairing still holds for this game, and the log says why."""
    card = tmp_path / "card"
    pairings = Pairings(card / "pairings.json")
    card.write_text("the card's folder went: a file stands where it was")
    with caplog.at_level(logging.WARNING):
        assert pairings.bind("pico-a", "Ann", KEY) == []
    assert pairings.player_of("pico-a") == "Ann"
    assert "could not be saved" in caplog.text


def test_unpairing_a_display_nobody_paired_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "pairings.json"
    pairings = Pairings(path)
    pairings.unbind("pico-nobody")
    assert not path.exists()
    pairings.bind("pico-a", "Ann", KEY)
    pairings.unbind("pico-a")
    assert Pairings(path).as_dict() == {}
