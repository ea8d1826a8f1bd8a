"""What the table chose on the touchscreen, kept in a file of the app's own (issue 15: phones turned on "in
the home screen's settings"), and the promises every such file keeps: whole or not at all, 0600, and never a
file the app did not write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import app_files
from companion.choices import PhonesChoice, TableChoices
from companion.config import PhonesConfig
from tests.core.test_store_weather import _fill, _mount, card  # noqa: F401  (card: the real small tmpfs)


def test_a_choice_is_kept_for_the_next_start_in_a_file_only_its_owner_reads(tmp_path: Path) -> None:
    path = tmp_path / "data" / "table-choices.json"
    choices = TableChoices.load(path)
    assert choices.phones is None and choices.problem is None, "no file yet: the config file's say"
    assert choices.choose_phones(PhonesChoice(True, "wlan0")) is None
    assert path.stat().st_mode & 0o777 == 0o600
    again = TableChoices.load(path)
    assert again.phones == PhonesChoice(True, "wlan0") and again.problem is None
    assert json.loads(path.read_text()) == {
        "kind": "table-choices",
        "version": 1,
        "phones": {"on": True, "listen": "wlan0"},
    }
    assert [p.name for p in path.parent.iterdir()] == ["table-choices.json"], "no temporary file left behind"


def test_the_choice_wins_over_the_config_files_enabled_and_interface_but_keeps_its_port_and_certificate() -> None:
    config = PhonesConfig(enabled=False, interface="127.0.0.1", port=9000, tls=(Path("c"), Path("k")))
    assert PhonesChoice(True, "wlan0").applied_to(config, "192.168.1.20") == PhonesConfig(
        True, "192.168.1.20", 9000, (Path("c"), Path("k"))
    )
    assert not PhonesChoice(False).applied_to(PhonesConfig(enabled=True), None).enabled
    assert not PhonesChoice(True, "wlan0").applied_to(config, None).enabled, "no address now: not on yet"


@pytest.mark.parametrize(
    ("contents", "words"),
    [
        ('{"theme": "dark"}\n', "is not the companion's table-choices file"),
        ("not json at all", "is not a file the companion can read"),
        ('{"kind": "table-choices", "version": 7}', "of another version of the companion"),
        (b"\xff\xfe\x00bytes", "cannot be read"),
    ],
)
def test_a_file_the_app_cannot_read_as_its_own_is_left_byte_for_byte(
    tmp_path: Path, contents: str | bytes, words: str
) -> None:
    """ "Never rename, truncate or replace a file the app did not create": one sentence, the file untouched,
    and a choice made meanwhile lasts until the app stops."""
    path = tmp_path / "table-choices.json"
    if isinstance(contents, bytes):
        path.write_bytes(contents)
    else:
        path.write_text(contents)
    before = path.read_bytes()
    choices = TableChoices.load(path)
    assert choices.phones is None and choices.problem is not None and words in choices.problem
    assert str(path) in choices.problem and choices.problem.endswith("it is left as it is.")
    kept = choices.choose_phones(PhonesChoice(True, "lo"))
    assert kept is not None and kept.startswith("This choice lasts until the app stops: ")
    assert choices.phones == PhonesChoice(True, "lo")
    assert path.read_bytes() == before


def test_a_directory_at_the_path_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "table-choices.json"
    path.mkdir()
    choices = TableChoices.load(path)
    assert choices.problem is not None and choices.choose_phones(PhonesChoice(False)) is not None
    assert path.is_dir() and not any(path.iterdir())


def test_a_full_card_and_a_read_only_card_keep_the_choice_for_this_run_and_the_old_file_whole(card: Path) -> None:  # noqa: F811
    """Nothing lost when the SD card fills up or turns read-only: the old choice stays whole on the card,
    the new one holds until the app stops, one sentence says so."""
    path = card / "table-choices.json"
    choices = TableChoices.load(path)
    assert choices.choose_phones(PhonesChoice(True, "wlan0")) is None
    before = path.read_bytes()
    filler = _fill(card)
    kept = choices.choose_phones(PhonesChoice(False))
    assert kept is not None and "could not be saved" in kept and choices.phones == PhonesChoice(False)
    assert path.read_bytes() == before and TableChoices.load(path).phones == PhonesChoice(True, "wlan0")
    filler.unlink()
    _mount(card, "-o", "remount,ro")
    kept = choices.choose_phones(PhonesChoice(True, "eth0"))
    assert kept is not None and "could not be saved" in kept
    assert path.read_bytes() == before
    _mount(card, "-o", "remount,rw")
    assert choices.choose_phones(PhonesChoice(True, "eth0")) is None, "saved again once it can"
    assert TableChoices.load(path).phones == PhonesChoice(True, "eth0")
    assert sorted(p.name for p in card.iterdir()) == ["table-choices.json"], "no temporary file left behind"


def test_write_refuses_nothing_it_was_not_asked_and_read_sees_no_file_as_none(tmp_path: Path) -> None:
    assert app_files.read(tmp_path / "none.json", "k", 1) is None
    app_files.write(tmp_path / "a.json", "k", 1, {"x": [1, 2]})
    assert app_files.read(tmp_path / "a.json", "k", 1) == {"kind": "k", "version": 1, "x": [1, 2]}
    with pytest.raises(app_files.NotOurs):
        app_files.read(tmp_path / "a.json", "other", 1)
