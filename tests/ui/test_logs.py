"""The logs: Kivy's file log on and rotated, ours in the journal and a 0600 file, and what they tell.

Issue 13: "Kivy's file log on, in the app's own directory, rotated. The app's
own log (the pairing events, the damage sentences, the race results) goes to
the journal on the Pi and a file elsewhere."

Logging is set up once per process (Kivy's when it is imported), so each
start is a process of its own, the way `companion run` begins: `ui.boot`,
then `ui.logs`.
"""

from __future__ import annotations

import logging
import os
import random
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from companion.race import Race
from companion.store import Store
from ui import logs

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 60.0

START = """
import logging, os, sys
os.umask(int(sys.argv[1], 8))
from ui import boot, logs
logs.MAX_BYTES = int(sys.argv[2])
boot.prepare()
print(logs.start())
logging.getLogger("companion.test").info("one line of ours")
logging.getLogger("hardware.test").warning("a warning of ours")
logging.getLogger("kivy").info("Test: one line of Kivy's")
logging.getLogger("companion.test").debug("a debug line, not logged")
for n in range(int(sys.argv[3])):
    logging.getLogger("companion.test").info("line %d of a long evening", n)
"""


def start(home: Path, *, umask: int = 0o077, max_bytes: int = 1_000_000, lines: int = 0,
          stderr: int | None = subprocess.PIPE, **env: str) -> subprocess.CompletedProcess[str]:
    """Start logging the way `companion run` does, in a process of its own, and log a few lines."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KIVY_") and k != "PYTEST_CURRENT_TEST"}
    clean.pop("JOURNAL_STREAM", None)
    done = subprocess.run(
        [sys.executable, "-c", START, oct(umask), str(max_bytes), str(lines)],
        cwd=ROOT, env={**clean, "COMPANION_HOME": str(home), **env}, stdout=subprocess.PIPE, stderr=stderr,
        text=True, timeout=DEADLINE,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done


def kivy_logs(home: Path) -> list[Path]:
    return sorted((home / "config" / "kivy" / "logs").glob("*.txt"))


def test_kivy_keeps_a_file_log_in_our_directory_one_per_start_and_only_the_newest_twenty(tmp_path: Path) -> None:
    """Issue 13: "Kivy's file log on, in the app's own directory, rotated" (Kivy's log_maxfiles: 20 kept)."""
    home = tmp_path / "home"
    start(home)
    [first] = kivy_logs(home)
    assert "Test: one line of Kivy's" in first.read_text() and "[INFO   ] Kivy: v" in first.read_text()
    assert "one line of ours" not in first.read_text(), "ours go to our own file: no line in both"
    old = [first.with_name(f"kivy_00-01-01_{n}.txt") for n in range(30)]
    for path in old:
        path.write_text("an old start\n")
    start(home)
    kept = kivy_logs(home)
    assert len(kept) == 20, kept
    newest = max(kept, key=lambda path: path.stat().st_ctime)
    assert "Test: one line of Kivy's" in newest.read_text() and newest not in old
    assert all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in kept if path not in old)


def test_a_users_kivy_no_filelog_is_respected(tmp_path: Path) -> None:
    """Kivy turns its file log off when KIVY_NO_FILELOG exists at all: the app never sets it, a user may."""
    home = tmp_path / "home"
    start(home, KIVY_NO_FILELOG="1")
    assert kivy_logs(home) == []
    assert "one line of ours" in (home / "data" / "logs" / "companion.log").read_text()


def test_our_log_goes_to_stderr_and_a_file_once_each_at_info(tmp_path: Path) -> None:
    """Issue 13: the app's own log "goes to the journal on the Pi (stderr) and a file elsewhere"; Kivy's
    logger and ours never print a line twice; `companion run` logs at INFO."""
    home = tmp_path / "home"
    done = start(home)
    ours = home / "data" / "logs" / "companion.log"
    assert done.stdout.strip() == str(ours)
    text = ours.read_text()
    for stream in (text, done.stderr):
        assert stream.count("INFO companion.test: one line of ours") == 1, stream
        assert stream.count("WARNING hardware.test: a warning of ours") == 1, stream
        assert "a debug line" not in stream
    assert done.stderr.count("one line of Kivy's") == 1, "Kivy's console prints Kivy's line, once"
    assert "one line of Kivy's" not in text


def test_under_systemd_each_line_carries_its_priority_for_the_journal(tmp_path: Path) -> None:
    """systemd sets JOURNAL_STREAM to stderr's device:inode; journald reads a "<N>" prefix as the priority
    (`journalctl -p warning` then finds our warnings)."""
    home = tmp_path / "home"
    journal = tmp_path / "journal"
    with journal.open("w") as stream:
        found = os.fstat(stream.fileno())
        start(home, stderr=stream.fileno(), JOURNAL_STREAM=f"{found.st_dev}:{found.st_ino}")
    lines = journal.read_text().splitlines()
    assert "<6>companion.test: one line of ours" in lines
    assert "<4>hardware.test: a warning of ours" in lines


def test_our_file_is_for_the_owner_only_whatever_the_umask_and_rotates_by_size(tmp_path: Path) -> None:
    """README: every file the companion keeps is 0600; our log rotates (companion.log.1 ... .4), never
    filling the card."""
    home = tmp_path / "home"
    logs = home / "data" / "logs"
    logs.mkdir(parents=True)
    (logs / "companion.log").write_text("2026-01-02 20:15:00,000 INFO ui.logs: a line left by an older version\n")
    (logs / "companion.log").chmod(0o644)
    start(home, umask=0o022, max_bytes=2_000, lines=200)
    files = sorted(logs.iterdir())
    assert [path.name for path in files] == [f"companion.log{suffix}" for suffix in ("", ".1", ".2", ".3", ".4")]
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        assert 0 < path.stat().st_size <= 2_000 + 200, path
    assert "line 199 of a long evening" in (logs / "companion.log").read_text()


def _record(error: BaseException) -> logging.LogRecord:
    try:
        raise error
    except BaseException:
        return logging.LogRecord("hardware.display.hub", logging.ERROR, __file__, 1, "could not show %s's view",
                                 ("Ann",), sys.exc_info())


def test_an_error_in_our_log_keeps_where_and_what_kind_but_not_its_words() -> None:
    """DESIGN.md: "logs ... follow the same rule: nothing unrevealed leaves". An exception raised while a
    player's view is drawn may quote it; the card's and the ports' errors (OSError) keep their words."""
    for formatter in (logs.Formatter(logs.FORMAT), logs.JournalFormatter("%(name)s: %(message)s")):
        text = formatter.format(_record(KeyError("Ann's 3 is a Shadow")))
        assert "could not show Ann's view" in text and "KeyError" in text and "test_logs.py" in text
        assert "Shadow" not in text
        assert "/dev/ttyACM0" in formatter.format(_record(FileNotFoundError(2, "No such file", "/dev/ttyACM0")))
    cached = _record(ValueError("3 Shadow board"))
    logging.Formatter().format(cached)  # a handler with a plain formatter came first and kept the whole text
    assert "Shadow" not in logs.Formatter().format(cached)


# -- what the app's log tells --------------------------------------------------------------------------------


def test_a_race_result_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    """Issue 13: the race results are in the app's log."""
    race = Race.new(["Ann", "Bo"], countdown_from=0).start(random.Random(1), at=0.0).go(at=5.0)
    with caplog.at_level(logging.INFO, logger="companion.race"):
        race = race.press("Bo", 5.25).press("Ann", 5.5)
    assert [r.getMessage() for r in caplog.records] == [f"race between Ann and Bo decided (first): {race.notice}"]
    assert race.notice == "Bo finished first, 250 ms after GO (then Ann 500 ms)."


def test_a_damaged_games_file_is_logged_in_the_sentence_the_table_sees(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 13: the store's damage sentences are in the app's log (DESIGN.md: "real damage is salvaged row
    by row, the file kept aside, one sentence shown")."""
    db = tmp_path / "games.db"
    with Store.open(db) as store:
        store.new_game("quintet", {"players": [{"name": "Ann"}, {"name": "Bo"}], "settings": {}}, 0.0)
    data = bytearray(db.read_bytes())
    data[data.index(b'"settings": {}') + 3] ^= 0x01
    db.write_bytes(bytes(data))
    with caplog.at_level(logging.WARNING, logger="companion.store"), Store.open(db) as store:
        assert store.notice and "damaged" in store.notice
        assert f"games file {db}: {store.notice}" in [r.getMessage() for r in caplog.records]
