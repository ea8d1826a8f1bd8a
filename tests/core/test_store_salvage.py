"""`companion check` and salvage: one sentence per problem, what a repair would keep, and what backups bring back;
nothing on disk changed by looking. Real files under tmp_path."""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

import pytest

from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from companion.store import SCHEMA_VERSION, Store, check
from companion.store.files import backups
from companion.store.rows import APPLICATION_ID


def _play(store: Store, rolls: int, target: int = 10**9) -> Session:
    session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=target), dice=RandomDice.seeded(5))
    for _ in range(rolls):
        session.act({"type": "roll", "player": session.current_player})
    return session


def _other(path: Path) -> closing[sqlite3.Connection]:
    """Another program's connection to the games file."""
    return closing(sqlite3.connect(path, isolation_level=None))


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_check_of_a_file_that_is_not_there_says_so(tmp_path: Path) -> None:
    report = check(tmp_path / "games.db")
    assert report.status == 2
    assert report.lines() == [f"There is no games file at {tmp_path / 'games.db'}."]
    assert list(tmp_path.iterdir()) == []


def test_check_of_a_file_whose_wal_cannot_be_read_says_so(tmp_path: Path, tiny: object) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _play(store, 2)
    (tmp_path / "games.db-wal").mkdir()  # something that is not a file, under the -wal's name
    report = check(path)
    assert report.status == 2
    assert report.lines() == [f"{path} cannot be read (Is a directory)."]


def test_check_of_a_stamped_file_with_nothing_readable_in_it(tmp_path: Path) -> None:
    """Our stamp, and nothing else that SQLite or salvage can read: said in two sentences, changed in nothing."""
    path = tmp_path / "games.db"
    body = bytearray(os.urandom(8192))
    body[68:72] = APPLICATION_ID.to_bytes(4, "big")
    path.write_bytes(bytes(body))
    report = check(path)
    assert report.status == 2 and report.lines()[-1] == "No game can be read from it.", report.lines()
    assert report.lines()[0].startswith("SQLite cannot read it (")
    assert path.read_bytes() == bytes(body)


def test_check_names_a_newer_apps_file_and_a_schema_1_file_is_healthy(tmp_path: Path, tiny: object) -> None:
    newer = tmp_path / "newer.db"
    with Store.open(newer) as store:
        _play(store, 1)
    with _other(newer) as db:
        db.execute("CREATE TABLE seats (game_id INTEGER, seat INTEGER)")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    report = check(newer)
    assert report.problems == (
        f"It was written by a newer version of Tabletop Companion (schema {SCHEMA_VERSION + 1}).",
    )
    assert report.status == 1

    old = tmp_path / "old.db"
    with _other(old) as db:
        db.executescript(
            """
            CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
                started_at REAL NOT NULL, elapsed REAL NOT NULL DEFAULT 0, finished_at REAL, outcome TEXT,
                pending_draws TEXT NOT NULL DEFAULT '[]');
            CREATE TABLE moves (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, action TEXT NOT NULL,
                events TEXT NOT NULL, draws TEXT NOT NULL, at REAL NOT NULL, undone INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (game_id, seq));
            INSERT INTO games (game, options, started_at) VALUES ('tiny', '{"players": []}', 1);
            PRAGMA user_version = 1;
            """
        )
    before = old.read_bytes()
    assert check(old).status == 0, "an older file is checked as the companion will convert it"
    assert old.read_bytes() == before


def test_a_file_made_before_the_tallies_is_healthy_and_gets_them_when_opened(tmp_path: Path, tiny: object) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _play(store, 1, target=1)
    with _other(path) as db:
        db.execute("DROP TABLE dice_tally")
        db.execute("DROP TABLE wins_tally")
    assert check(path).status == 0
    with Store.open(path) as store:
        assert store.notice is None
        assert store.win_counts() == {"Ann": 1}
    with _other(path) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert {"dice_tally", "wins_tally"} <= tables


def test_what_salvage_would_keep_names_three_games_and_counts_the_rest(tmp_path: Path, tiny: object) -> None:
    """Before, a game that lost one move "lost its last 1 move"."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        for _ in range(5):
            _play(store, 3)
    with _other(path) as db:
        db.execute("UPDATE moves SET checksum = checksum + 1 WHERE seq = 2")
    before = _files(tmp_path)
    report = check(path)
    assert report.status == 1
    assert report.salvage == (
        "Salvage would keep 5 games with 10 moves, 5 lost (Tiny with Ann and Bo lost its last move; "
        "Tiny with Ann and Bo lost its last move; Tiny with Ann and Bo lost its last move; 2 more games lost moves)."
    )
    assert _files(tmp_path) == before


def test_a_missing_file_whose_backups_hold_no_game_starts_empty_and_keeps_them(tmp_path: Path, tiny: object) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        store.backup()  # a backup of a file with no game yet
    (kept,) = backups(path)
    path.unlink()
    with Store.open(path) as store:
        assert store.notice is None and store.counts() == (0, 0)
        _play(store, 1)
    assert kept.exists()


def test_a_backup_this_user_may_not_read_is_passed_over(tiny: object) -> None:
    """Salvage reads every backup it can: one it may not read (made by root, looked at by the Pi's own user) is
    passed over, and the others still bring their games back."""
    if os.geteuid() != 0:
        pytest.skip("becoming another user needs root (CI runs as root)")
    folder = Path(tempfile.mkdtemp(prefix="store-nobody-"))
    try:
        path = folder / "games.db"
        with Store.open(path) as store:
            _play(store, 1, target=1)
            _play(store, 1, target=1)  # each finished game is backed up: the newest holds both
        older, newest = sorted(backups(path), key=lambda p: p.stat().st_mtime_ns)
        with _other(path) as db:
            db.execute("UPDATE games SET checksum = checksum + 1 WHERE id = 2")
        for item, mode in ((folder, 0o755), (folder / "backups", 0o755), (path, 0o644), (newest, 0o644)):
            item.chmod(mode)
        older.chmod(0o600)
        os.seteuid(65534)
        try:
            report = check(path)
        finally:
            os.seteuid(0)
        assert report.problems == ("Game 2 is damaged.",)
        assert "1 game came back from a backup" in report.salvage, report.salvage
    finally:
        os.seteuid(0)
        shutil.rmtree(folder, ignore_errors=True)


def test_history_of_a_file_whose_wal_is_damaged_salvages_in_memory_and_touches_nothing(
    tmp_path: Path, tiny: object
) -> None:
    """A pulled plug and a flipped bit in the -wal, looked at with no companion running: SQLite would drop what
    follows the bad frame; the history reads every move that checks out, and the files stay as they are."""
    live = tmp_path / "live"
    live.mkdir()
    with Store.open(live / "games.db") as store:
        session = _play(store, 12)
        found = tmp_path / "found"
        found.mkdir()
        for name in ("games.db", "games.db-wal"):  # what the card holds when the plug is pulled
            shutil.copy(live / name, found / name)
    wal = bytearray((found / "games.db-wal").read_bytes())
    wal[32 + 24 + 3 * (24 + 4096) + 200] ^= 0x10  # a page of the fourth frame
    (found / "games.db-wal").write_bytes(bytes(wal))
    before = _files(found)
    with Store.read(found / "games.db") as looking:
        assert looking.notice is not None and "left as it is" in looking.notice
        assert len(looking.moves(session.game_id)) == 12
    assert _files(found) == before
