"""The `companion` command as a script writer uses it (real processes, no Kivy needed)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from companion.store import NotSaved
from ui import cli

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "games" / "golden" / "quintet-three-tie.jsonl"


def companion(*args: str, home: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COMPANION_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True, input=stdin
    )


def test_play_with_a_seed_prints_the_same_output_twice(tmp_path):
    args = ("play", "quintet", "--players", "Ann,Bo,Cy", "--actions", str(GOLDEN), "--seed", "22")
    first = companion(*args, home=tmp_path)
    second = companion(*args, home=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    final = json.loads(first.stdout[first.stdout.index("\n{\n") + 1 :])
    assert final["outcome"]["winners"] == ["Cy"]
    assert "kivy" not in first.stderr.lower(), "the headless driver must not load Kivy"


def test_play_reports_refusals_and_bad_lines_and_goes_on(tmp_path):
    script = '{"type": "roll", "player": "Bo"}\nnot json\n[1, 2]\n{"type": "roll", "player": "Ann"}\n{"type": "undo"}\n'
    done = companion("play", "quintet", "--players", "Ann,Bo", "--actions", "-", "--seed", "1",
                     home=tmp_path, stdin=script)
    assert done.returncode == 0
    lines = [json.loads(line) for line in done.stdout.splitlines()[:5]]
    assert "refused" in lines[0] and "Ann" in lines[0]["refused"]
    assert lines[1]["refused"].startswith("This line is not JSON")
    assert "JSON object" in lines[2]["refused"]
    assert lines[3]["events"], "a legal roll after refusals is still accepted"
    assert lines[4] == {"line": 5, "undone": True}


def test_play_exits_2_when_the_input_cannot_be_read(tmp_path):
    missing = companion("play", "quintet", "--players", "Ann,Bo", "--actions", str(tmp_path / "nope"), home=tmp_path)
    assert missing.returncode == 2 and "nope" in missing.stderr
    lonely = companion("play", "quintet", "--players", "Ann", "--actions", str(GOLDEN), home=tmp_path)
    assert lonely.returncode == 2 and "2 to 5 players" in lonely.stderr


def test_play_private_prints_each_players_own_view(tmp_path):
    done = companion("play", "quintet", "--players", "Ann,Bo", "--actions", "-", "--private", home=tmp_path, stdin="")
    final = json.loads(done.stdout)
    assert set(final["private_views"]) == {"Ann", "Bo"}


def test_config_path_and_check(tmp_path):
    path = Path(companion("config", "--path", home=tmp_path).stdout.strip())
    assert path == tmp_path / "config" / "companion.toml"
    path.parent.mkdir(parents=True)
    path.write_text("[race]\nbuttons = [17, 99]\n")
    check = companion("config", "--check", home=tmp_path)
    assert check.returncode == 1 and "race.buttons[1]" in check.stdout


def test_help_documents_every_command(tmp_path):
    text = companion("--help", home=tmp_path).stdout
    for command in ("run", "play", "config", "history", "check", "display-emulator"):
        assert command in text


class _FullCard:
    """A session whose store takes no more writes (what `Session` raises when the card is full)."""

    rules = None

    def act(self, action=None):
        raise NotSaved("The SD card is full: this move was not saved.")

    undo = redo = act


def test_a_move_the_card_would_not_take_is_refused_like_any_other():
    for line in ('{"type": "place"}', '{"type": "undo"}', '{"type": "redo"}'):
        assert cli._apply(_FullCard(), line) == {"refused": "The SD card is full: this move was not saved."}


def test_stdin_lines_are_numbered_as_the_whole_text_would_be():
    text = '{"a": 1}\r\n# note\n\n  \n{"b": 2}\u2028{"c": 3}\n{"d": 4}'
    expected = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip() and not line.startswith("#")]
    assert list(cli._actions(cli._stdin_lines(io.StringIO(text, newline=None)))) == expected


def test_the_app_starts_whatever_its_games_file_is(tmp_path, monkeypatch):
    """`companion run` on a path that is not a games file: a notice on the home screen, never a crash loop."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    folder = tmp_path / "games.db"
    folder.mkdir()
    table = cli.build_table(db=folder, seed=1)
    try:
        assert any("folder" in notice for notice in table.notices), table.notices
        assert folder.is_dir() and not any(folder.iterdir())
    finally:
        table.store.close()


def test_config_check_says_when_settings_turned_the_phones_on_over_the_config_file(tmp_path):
    """Issue 15: phones turned on "in the config ... or in the home screen's settings": the check names the
    one that wins, so a maintainer reading `enabled = false` is not misled."""
    from companion.choices import PhonesChoice, TableChoices

    TableChoices.load(tmp_path / "data" / "table-choices.json").choose_phones(PhonesChoice(True, "wlan0"))
    check = companion("config", "--check", home=tmp_path)
    assert check.returncode == 0
    assert check.stdout.splitlines()[-1] == (
        "Phones are turned on for wlan0 in Settings on the home screen: that wins over [phones] enabled and interface."
    )
    (tmp_path / "data" / "table-choices.json").write_text("{}")
    check = companion("config", "--check", home=tmp_path)
    assert check.returncode == 1 and "is not the companion's table-choices file" in check.stdout


def test_play_seats_each_player_in_the_tables_colour_for_their_seat(tmp_path):
    """Issue 29: "`companion play` gives every seat the same colour … the table's seat colours (the same defaults
    the touchscreen uses) belong there too"."""
    from companion.game import SEAT_COLOURS

    done = companion("play", "quin", "--players", "Ann,Bo", "--actions", "-", home=tmp_path, stdin="")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout[done.stdout.index("{\n") :])
    assert [p["colour"] for p in final["public_view"]["players"]] == list(SEAT_COLOURS[:2])
