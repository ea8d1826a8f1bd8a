"""The running tallies (dice and wins) hold nothing the games do not: a tally row that is missing, behind, or
not a tally at all (another program, an older app, a bug) is dropped and counted again from the games, never
trusted, never a refused move. Real files under tmp_path; the other program a plain SQLite connection."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from companion.dice import RandomDice
from companion.dicestats import DiceStats
from companion.game import Options
from companion.session import Session
from companion.store import NotSaved, Store, tally
from companion.store.base import is_abandoned, is_abandoned_record
from companion.store.rows import GAME_COLUMNS, GAME_NAMES, row_checksum, update_game, valid_row


def _play(store: Store, rolls: int, target: int = 10**9) -> Session:
    session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=target), dice=RandomDice.seeded(3))
    for _ in range(rolls):
        session.act({"type": "roll", "player": session.current_player})
    return session


def _roll(session: Session) -> None:
    session.act({"type": "roll", "player": session.current_player})


def _counted(store: Store) -> DiceStats:
    """The dice statistics counted from the moves alone, as a tally must always agree with."""
    return DiceStats.of_tally(tally.recount(e for move in store.all_moves("tiny") for e in move.events))


def _other(path: Path) -> closing[sqlite3.Connection]:
    """Another program's connection to the games file."""
    return closing(sqlite3.connect(path, isolation_level=None))


def _put_tally(db: sqlite3.Connection, values: tuple[str, str, int]) -> None:
    """A dice tally row as another program writes it: its checksum good, whatever it holds."""
    db.execute("INSERT OR REPLACE INTO dice_tally VALUES (?, ?, ?, ?)", (*values, row_checksum("dice_tally", values)))


def _tally_row(path: Path) -> tuple[str, int] | None:
    with _other(path) as db:
        return db.execute("SELECT pairs, stamp FROM dice_tally WHERE game = 'tiny'").fetchone()


def test_a_tally_left_behind_by_an_older_app_is_dropped_at_the_next_move_and_counted_again(
    tmp_path: Path, tiny: object
) -> None:
    """ "A write that did not keep the tally (an older app …) leaves the stamp behind, and the tally is counted
    again from the moves." """
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = _play(store, 4)
    with _other(path) as db:  # an older app keeps the game's clock and knows nothing of tallies
        game = valid_row("games", GAME_COLUMNS, db.execute(f"SELECT {GAME_NAMES}, checksum FROM games").fetchone())
        assert game is not None
        update_game(db, game, elapsed=60.0, version=game[9] + 1)
    with Store.open(path) as store:
        resumed = Session.resume(store, dice=RandomDice.seeded(4))
        assert resumed is not None
        _roll(resumed)
        assert _tally_row(path) is None, "a tally that was behind is dropped, not added to"
        assert store.dice_stats("tiny") == _counted(store)
        assert _tally_row(path) is not None, "counted again once, and kept"
    assert session.game_id == resumed.game_id


@pytest.mark.parametrize("pairs", ["[1, 2]", "not a tally", json.dumps([-1] * 36)])
def test_a_tally_row_that_is_not_a_tally_is_never_trusted(tmp_path: Path, tiny: object, pairs: str) -> None:
    """A tally row with a good checksum and a current stamp but no 36 counts in it (another program wrote it)."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _play(store, 3)
    with _other(path) as db:
        stamp = tally.stamp(db, "tiny")
        values = ("tiny", pairs, stamp)
        db.execute(
            "INSERT OR REPLACE INTO dice_tally VALUES (?, ?, ?, ?)", (*values, row_checksum("dice_tally", values))
        )
    with Store.open(path) as store:
        resumed = Session.resume(store, dice=RandomDice.seeded(4))
        assert resumed is not None
        _roll(resumed)  # the next move drops it
        assert _tally_row(path) is None
        assert store.dice_stats("tiny") == _counted(store)
        assert store.problem is None and store.notice is None
    with _other(path) as db:
        db.execute(
            "INSERT OR REPLACE INTO dice_tally VALUES (?, ?, ?, ?)", (*values, row_checksum("dice_tally", values))
        )
    with Store.open(path) as store:
        assert store.dice_stats("tiny") == _counted(store), "read: counted from the moves"


@pytest.mark.parametrize("table", ["dice_tally", "wins_tally"])
def test_a_tally_table_another_program_dropped_is_damage_repaired_with_nothing_lost(
    tmp_path: Path, tiny: object, table: str
) -> None:
    """Not weather, and no move lost: the file is repaired, the tallies counted again from the games."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _play(store, 1, target=1)  # Ann wins at once
        session = _play(store, 2)
        with _other(path) as db:
            db.execute(f"DROP TABLE {table}")
        with pytest.raises(NotSaved) as refused:
            _roll(session)
            store.abandon(session.game_id, now=5.0)  # an outcome: the wins tally is read
        assert "SD card" not in str(refused.value) and "0 lost" in str(refused.value), refused.value
        assert store.problem is None
        assert len(store.moves(session.game_id)) in (2, 3)
        assert store.dice_stats("tiny") == _counted(store)
        assert store.win_counts() == {"Ann": 1}


@pytest.mark.parametrize("table", ["dice_tally", "wins_tally"])
def test_a_tally_whose_columns_another_program_renamed_is_damage_repaired_not_weather(
    tmp_path: Path, tiny: object, table: str
) -> None:
    """The first move after opening finds the tally's table changed under it: damage, repaired, never weather."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _play(store, 1, target=20)
    with Store.open(path) as store:
        session = Session.resume(store, dice=RandomDice.seeded(4))
        assert session is not None
        with _other(path) as db:
            db.execute(f"ALTER TABLE {table} RENAME COLUMN game TO gamf")
        with pytest.raises(NotSaved) as refused:
            for _ in range(40):  # the wins tally is read only once the game has its result
                _roll(session)
        assert "SD card" not in str(refused.value) and "damaged" in str(refused.value)
        assert store.problem is None


def test_wins_behind_or_taken_back_beyond_what_was_counted_are_counted_again(tmp_path: Path, tiny: object) -> None:
    """A wins tally that is behind is dropped when the next result changes it; one that would go below nothing
    (a win taken back that it never counted) too. The chart always agrees with the finished games."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _play(store, 1, target=1)
        _play(store, 1, target=1)
        assert store.win_counts() == {"Ann": 2}
        with _other(path) as db:  # a tally that counted Bo's wins instead, its stamp current
            stamp = tally.wins_stamp(db, "tiny")
            tally.write_wins(db, "tiny", {"Bo": 2}, stamp - 1)  # and behind
        third = _play(store, 1, target=1)
        assert store.win_counts() == {"Ann": 3}
        with _other(path) as db:
            tally.write_wins(db, "tiny", {"Bo": 3}, tally.wins_stamp(db, "tiny"))
        session = Session.load(store, third.game_id, dice=RandomDice.seeded(3))
        session.undo()  # takes back a win for Ann that the tally never counted
        assert store.win_counts() == {"Ann": 2}


def test_outcomes_that_are_not_outcomes_count_for_nobody() -> None:
    """Stored outcomes another program (or an older app) wrote that cannot be read are no win and no abandon."""
    for text in ("not json", '"a string"', "[1, 2]", '{"winners": "Ann"}', None):
        assert tally.winners(text) == []
        assert not is_abandoned(text)
    assert not is_abandoned_record({"winners": 3, "reason": []})
    assert tally.count_wins(["not json", '{"winners": ["Ann", 7]}']) == {"Ann": 1}


@pytest.mark.parametrize("wins", ["not json", '["Ann"]', '{"Ann": 0}', '{"Ann": "many"}'])
def test_a_wins_row_that_is_not_wins_is_counted_again(tmp_path: Path, tiny: object, wins: str) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _play(store, 1, target=1)
        with _other(path) as db:
            values = ("tiny", wins, tally.wins_stamp(db, "tiny"))
            db.execute(
                "INSERT OR REPLACE INTO wins_tally VALUES (?, ?, ?, ?)", (*values, row_checksum("wins_tally", values))
            )
        assert store.win_counts() == {"Ann": 1}
        _play(store, 1, target=1)
        assert store.win_counts() == {"Ann": 2}


def test_damage_found_while_counting_again_is_repaired_and_nothing_stale_is_kept(tmp_path: Path, tiny: object) -> None:
    """Counting a tally again reads the games; damage found there is repaired first (every record's version
    goes up), and a tally counted before the repair is not written with the old stamp."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _play(store, 1, target=1)
        keep = _play(store, 3)
        _play(store, 1, target=1)
        with _other(path) as db:
            db.execute("DELETE FROM wins_tally")
            db.execute("DELETE FROM dice_tally")
            db.execute("UPDATE moves SET checksum = checksum + 1 WHERE game_id = ? AND seq = 2", (keep.game_id,))
        assert store.dice_stats("tiny") == _counted(store)
        assert store.notice is not None and "kept aside" in store.notice
        assert len(store.moves(keep.game_id)) == 3, "the move's good copy in the WAL is kept"
        with _other(path) as db:
            db.execute("DELETE FROM wins_tally")
            db.execute("UPDATE games SET checksum = checksum + 1 WHERE id = 3")
        wins = store.win_counts()
        assert wins == {"Ann": 2} or wins == {"Ann": 1}, wins
        assert store.win_counts() == wins, "the same count when read again"


def test_tally_tables_gone_behind_an_open_store_are_counted_from_the_games(tmp_path: Path, tiny: object) -> None:
    """The chart and the dice statistics read while another program has dropped the tallies: counted from the
    games, and the file repaired (the tables made again) when the count is kept."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _play(store, 1, target=1)
        _play(store, 3)
        with _other(path) as db:
            db.execute("DROP TABLE dice_tally")
        assert store.dice_stats("tiny") == _counted(store)
        with _other(path) as db:
            db.execute("DROP TABLE wins_tally")
        assert store.win_counts() == {"Ann": 1}
        assert store.problem is None
    with Store.open(path) as again:
        assert again.win_counts() == {"Ann": 1}


def test_a_missing_wins_row_stays_missing_until_counted(tmp_path: Path, tiny: object) -> None:
    """A result after the wins row was deleted: nothing to add it to, so the count waits for the next reading."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _play(store, 1, target=1)
        with _other(path) as db:
            db.execute("DELETE FROM wins_tally")
        _play(store, 1, target=1)
        with _other(path) as db:
            assert db.execute("SELECT COUNT(*) FROM wins_tally").fetchone()[0] == 0
        assert store.win_counts() == {"Ann": 2}


def test_history_counts_a_tally_that_is_behind_without_writing(tmp_path: Path, tiny: object) -> None:
    """Looking only: a tally behind the games is counted in memory, and the file is not touched."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _play(store, 3)
    with _other(path) as db:
        game = valid_row("games", GAME_COLUMNS, db.execute(f"SELECT {GAME_NAMES}, checksum FROM games").fetchone())
        assert game is not None
        update_game(db, game, elapsed=60.0, version=game[9] + 1)
    before = path.read_bytes()
    with Store.read(path) as looking:
        assert looking.dice_stats("tiny") == _counted(looking)
    assert path.read_bytes() == before
