"""The checks at every opening and at every read: a stamp, a schema, a row or a count that is not what this app
wrote is damage, salvaged with the damaged file kept aside (or, only looking, left as it is); an older file is
converted. Real files under tmp_path; another program is a plain SQLite connection."""

from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from companion.store import APPLICATION_ID, SCHEMA_VERSION, Store, check
from companion.store.rows import describe


def _play(path: Path, games: int = 2, rolls: int = 3) -> None:
    with Store.open(path) as store:
        for _ in range(games):
            session = Session.start(
                store, "tiny", Options.for_names("Ann", "Bo", target=10**9), dice=RandomDice.seeded(2)
            )
            for _ in range(rolls):
                session.act({"type": "roll", "player": session.current_player})


def _other(path: Path) -> closing[sqlite3.Connection]:
    """Another program's connection to the games file."""
    return closing(sqlite3.connect(path, isolation_level=None))


def _aside(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if ".damaged-" in p.name)


def _opens_repaired(path: Path, games: int) -> str:
    """Opening repairs the file: the damaged one kept aside, the games that could be read kept; the sentence."""
    with Store.open(path) as store:
        assert store.notice is not None and "kept aside" in store.notice, store.notice
        assert store.counts()[0] == games, store.notice
        assert store.saving and store.problem is None
        notice = store.notice
    assert len(_aside(path.parent)) == 1
    assert check(path).status == 0
    return notice


def test_a_stamp_another_program_wiped_is_damage_repaired_at_opening(tmp_path: Path, tiny: object) -> None:
    path = tmp_path / "games.db"
    _play(path)
    with _other(path) as db:
        db.execute("PRAGMA application_id = 0")
    assert "stamp" in " ".join(check(path).problems)
    _opens_repaired(path, games=2)


def test_moves_whose_game_another_program_deleted_are_damage_said_at_opening(tmp_path: Path, tiny: object) -> None:
    path = tmp_path / "games.db"
    _play(path)
    with _other(path) as db:
        db.execute("DELETE FROM games WHERE id = 2")
    notice = _opens_repaired(path, games=1)
    assert "1 game with 3 moves were kept" in notice


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("DROP TABLE moves", "the table moves is missing"),
        ("CREATE TABLE notes (text TEXT)", "it holds 'notes', which this app never makes"),
    ],
)
def test_a_schema_another_program_changed_is_named_by_check_and_repaired(
    tmp_path: Path, tiny: object, change: str, said: str
) -> None:
    path = tmp_path / "games.db"
    _play(path)
    with _other(path) as db:
        db.execute(change)
    report = check(path)
    assert report.status == 1 and f"Its schema (the tables' own definitions) is damaged: {said}." in report.problems
    with Store.open(path) as store:
        assert store.notice is not None and "kept aside" in store.notice
    assert check(path).status == 0


def test_a_file_whose_making_an_older_app_cut_short_is_made_whole(tmp_path: Path, tiny: object) -> None:
    """Stamped as ours but with no tables and no schema version yet: converted to an empty games file."""
    path = tmp_path / "games.db"
    with _other(path) as db:
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("VACUUM")  # the header written out
    with Store.open(path) as store:
        assert store.notice is None and store.counts() == (0, 0)
        Session.start(store, "tiny", Options.for_names("Ann", "Bo"))
    with _other(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert not _aside(tmp_path)


def test_a_schema_version_no_app_ever_wrote_is_damage(tmp_path: Path, tiny: object) -> None:
    """Version 0 on a file with our tables (a flipped bit in the header): neither older nor newer, damage;
    history reads it from its pages and leaves it, the app repairs it."""
    path = tmp_path / "games.db"
    _play(path)
    with _other(path) as db:
        db.execute("PRAGMA user_version = 0")
    before = path.read_bytes()
    with Store.read(path) as looking:
        assert looking.notice is not None and "left as it is" in looking.notice
        assert looking.counts() == (2, 6)
    assert path.read_bytes() == before
    _opens_repaired(path, games=2)


def test_a_schema_1_file_with_a_row_that_cannot_be_converted_is_kept_aside_whole(tmp_path: Path) -> None:
    """The conversion is one transaction: a row it cannot convert leaves no half-converted file behind; the
    file is kept aside as it was."""
    path = tmp_path / "games.db"
    with _other(path) as db:
        db.executescript(
            """
            CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
                started_at REAL NOT NULL, elapsed REAL NOT NULL DEFAULT 0, finished_at REAL, outcome TEXT,
                pending_draws TEXT NOT NULL DEFAULT '[]');
            CREATE TABLE moves (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, action TEXT NOT NULL,
                events TEXT NOT NULL, draws TEXT NOT NULL, at REAL NOT NULL, undone INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (game_id, seq));
            PRAGMA user_version = 1;
            """
        )
        db.execute("INSERT INTO games (game, options, started_at) VALUES ('quintet', '{}', 'yesterday')")
    with Store.open(path) as store:
        assert store.notice is not None and "kept aside" in store.notice
    (aside,) = _aside(tmp_path)
    with _other(aside) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
        assert db.execute("SELECT started_at FROM games").fetchall() == [("yesterday",)]


def test_a_move_another_program_deleted_is_noticed_at_the_first_read(tmp_path: Path, tiny: object) -> None:
    """The game's record counts its moves: one missing from the middle is damage, never a shorter game."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
        for _ in range(4):
            session.act({"type": "roll", "player": session.current_player})
        before = store.moves(session.game_id)
        with _other(path) as db:
            db.execute("DELETE FROM moves WHERE seq = 3")
        after = store.moves(session.game_id)
        assert store.notice is not None and "kept aside" in store.notice
        assert after == before[: len(after)], "the game is its own first moves, nothing else"


def test_text_that_is_not_utf8_is_damage_repaired_not_a_traceback(tmp_path: Path, tiny: object) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
        session.act({"type": "roll", "player": "Ann"})
        with _other(path) as db:
            db.execute("UPDATE games SET game = CAST(x'74ff6e79' AS TEXT)")
        assert store.game(session.game_id) is None or store.notice is not None
        assert store.notice is not None and "kept aside" in store.notice


def test_a_games_sentence_names_its_players_or_only_the_game() -> None:
    assert describe("quantum-link", json.dumps({"players": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}]})) == (
        "Quantum Link with Ann, Bo and Cy"
    )
    assert describe("quin", json.dumps({"players": [{"name": "Ann"}]})) == "Quin with Ann"
    assert describe("quin", json.dumps({"players": []})) == "Quin"
    assert describe("quin", "not json") == describe("quin", "{}") == describe("quin", "[1]") == "Quin"


def test_a_reason_for_not_saving_is_logged_once_not_at_every_move(
    tmp_path: Path, tiny: object, caplog: pytest.LogCaptureFixture
) -> None:
    """Moves refused for the same reason, one after another: one line in the log, not one per move."""
    path = tmp_path / "games.db"
    _play(path, games=1)
    with Store.open(path, busy_timeout=0.05) as store, _other(path) as holder:
        session = Session.resume(store)
        assert session is not None
        holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        caplog.set_level(logging.WARNING, logger="companion.store.base")
        for _ in range(3):
            with pytest.raises(Exception, match="locked by another program"):
                session.act({"type": "roll", "player": session.current_player})
        assert sum("locked by another program" in r.getMessage() for r in caplog.records) == 1
        holder.execute("ROLLBACK")
