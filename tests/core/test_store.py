"""The log survives SIGKILL; bad files are moved aside, never deleted, and what can be read is kept."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from companion.store import SCHEMA_VERSION, Store

WRITER = Path(__file__).with_name("crash_writer.py")


def test_wal_and_full_sync_are_in_force(tmp_path):
    with Store.open(tmp_path / "g.db") as store:
        db = store._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@pytest.mark.slow
def test_sigkill_never_loses_an_acknowledged_move(tmp_path, tiny):
    """Kill a writer at random moments, 50 times; every acknowledged move must be there, in order."""
    path = tmp_path / "games.db"
    rng = random.Random(2026)
    acknowledged = 0
    for _ in range(50):
        child = subprocess.Popen(
            [sys.executable, str(WRITER), str(path)], stdout=subprocess.PIPE, text=True, env=os.environ.copy()
        )
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + rng.uniform(0.0, 0.08)
        while time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            acknowledged = max(acknowledged, int(line))
        child.send_signal(signal.SIGKILL)
        # moves the child printed before dying count as acknowledged too
        for line in child.stdout.read().split():
            acknowledged = max(acknowledged, int(line))
        child.wait()

        with Store.open(path) as store:
            assert store.notice is None
            record = store.unfinished()
            assert record is not None
            moves = store.moves(record.id)
            assert [m.seq for m in moves] == list(range(len(moves))), "moves are in order, none missing"
            assert len(moves) >= acknowledged, f"lost acknowledged moves: {len(moves)} < {acknowledged}"
            for move in moves:
                assert move.action["type"] == "roll" and len(move.action["padding"]) == 2000
                assert 1 <= move.events[0]["value"] <= 6
            # and the session folds them without complaint
            resumed = Session.load(store, record.id)
            assert len(resumed.moves) == len(moves)
    assert acknowledged > 50, "the writer should have made real progress"


def _a_finished_and_an_open_game(path: Path, tiny) -> None:
    with Store.open(path) as store:
        done = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=1), dice=RandomDice.seeded(1))
        done.act({"type": "roll", "player": "Ann"})
        live = Session.start(store, "tiny", Options.for_names("Cy", "Di"), dice=RandomDice.seeded(1))
        for _ in range(30):
            live.act({"type": "pass", "player": live.current_player})


def test_garbage_file_is_moved_aside_and_a_fresh_one_used(tmp_path):
    path = tmp_path / "games.db"
    path.write_bytes(b"this is not a database at all" * 100)
    with Store.open(path) as store:
        assert store.notice is not None and "moved aside" in store.notice
        assert store.unfinished() is None
    asides = list(tmp_path.glob("games.db.damaged-*"))
    assert len(asides) == 1 and asides[0].read_bytes().startswith(b"this is not")


def test_truncated_file_keeps_what_can_be_read(tmp_path, tiny):
    path = tmp_path / "games.db"
    _a_finished_and_an_open_game(path, tiny)
    size = path.stat().st_size
    with open(path, "r+b") as handle:
        handle.truncate(size // 2)
    with Store.open(path) as store:
        assert store.notice is not None
        assert "moved aside" in store.notice and "could be kept" in store.notice
    assert list(tmp_path.glob("games.db.damaged-*"))


def test_damaged_page_keeps_the_readable_rows(tmp_path, tiny):
    path = tmp_path / "games.db"
    _a_finished_and_an_open_game(path, tiny)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 3 * page
    data[-page : -page + 16] = b"\xff" * 16  # the last page's header: no longer a b-tree page
    path.write_bytes(bytes(data))
    with Store.open(path) as store:
        assert store.notice is not None and "is damaged" in store.notice
        kept = int(store.notice.split(" and ")[-1].split()[0])
        assert kept > 0
        assert store.win_counts() == {"Ann": 1}, "the finished game's row was on an intact page"


def test_newer_schema_is_moved_aside_with_its_rows_kept(tmp_path, tiny):
    path = tmp_path / "games.db"
    _a_finished_and_an_open_game(path, tiny)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with Store.open(path) as store:
        assert store.notice is not None and "newer version" in store.notice
        assert store.win_counts() == {"Ann": 1}
        record = store.unfinished()
        assert record is not None and len(store.moves(record.id)) == 30
    assert list(tmp_path.glob("games.db.newer-*"))


def test_locked_file_does_not_stop_the_app(tmp_path, tiny):
    path = tmp_path / "games.db"
    _a_finished_and_an_open_game(path, tiny)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with Store.open(path, busy_timeout=0.2) as store:
            assert store.notice is not None and "locked" in store.notice
            store.new_game("tiny", Options.for_names("A", "B").to_json(), 0.0)  # and it can be written
    finally:
        holder.close()
    assert list(tmp_path.glob("games.db.locked-*"))


def test_a_foreign_sqlite_file_is_not_taken_for_ours(tmp_path):
    path = tmp_path / "games.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (name TEXT)")
    db.execute("INSERT INTO games VALUES ('chess')")
    db.commit()
    db.close()
    with Store.open(path) as store:
        assert store.notice is not None and "not a Tabletop Companion" in store.notice
    assert list(tmp_path.glob("games.db.foreign-*"))


def test_rows_are_plain_json(tmp_path, tiny):
    """The file is meant to be readable by other tools: actions and events are JSON text."""
    path = tmp_path / "games.db"
    _a_finished_and_an_open_game(path, tiny)
    db = sqlite3.connect(path)
    for action, events in db.execute("SELECT action, events FROM moves"):
        assert isinstance(json.loads(action), dict) and isinstance(json.loads(events), list)
