"""Another program writing the games file behind the store's back: what it wrote is read, never overwritten with
what the store remembers, and a write that would clash is refused in a sentence with nothing changed.
Real files under tmp_path, the other program a plain SQLite connection."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from companion.store import NotSaved, Store
from companion.store.rows import GAME_COLUMNS, GAME_NAMES, update_game, valid_row


def _tiny(store: Store) -> Session:
    return Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9), dice=RandomDice.seeded(1))


def _roll(session: Session) -> None:
    session.act({"type": "roll", "player": session.current_player})


def _sidecars(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if "damaged" in p.name)


def test_a_move_number_already_taken_is_refused_and_the_first_move_kept(tmp_path: Path, tiny: object) -> None:
    """ "A move that was not undone is never overwritten: that would be a second writer, and is refused." """
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = _tiny(store)
        _roll(session)
        first = store.moves(session.game_id)
        with pytest.raises(NotSaved) as refused:
            store.record(
                session.game_id, 0, {"type": "roll", "player": "Bo"}, [], [],
                now=1.0, elapsed=1.0, outcome=None, pending_draws=[],
            )  # fmt: skip
        assert str(refused.value) == (
            "The games file was changed by another program: this move was not saved. Restart the companion."
        )
        assert store.moves(session.game_id) == first
        assert store.problem is None, "not weather: moves are still saved"
    assert not _sidecars(tmp_path)


def test_undoing_a_move_the_file_does_not_have_changes_nothing(tmp_path: Path, tiny: object) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = _tiny(store)
        _roll(session)
        before = (store.game(session.game_id), store.moves(session.game_id))
        with pytest.raises(NotSaved, match=r"That move could not be found in the games file: nothing was changed\."):
            store.set_undone(session.game_id, 7, True, now=2.0, elapsed=2.0, outcome=None, pending_draws=[])
        assert (store.game(session.game_id), store.moves(session.game_id)) == before


def test_a_record_another_program_rewrote_is_read_again_not_overwritten(tmp_path: Path, tiny: object) -> None:
    """The row the store wrote last is trusted only while the file still holds exactly it."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = _tiny(store)
        _roll(session)
        with closing(sqlite3.connect(path, isolation_level=None)) as other:  # another program keeps its clock
            row = other.execute(f"SELECT {GAME_NAMES}, checksum FROM games").fetchone()
            game = valid_row("games", GAME_COLUMNS, row)
            assert game is not None
            update_game(other, game, elapsed=4321.0, version=game[9] + 1)
        store.abandon(session.game_id, now=99.0)
        record = store.game(session.game_id)
        assert record is not None and record.elapsed == 4321.0 and record.finished_at == 99.0
        assert store.notice is None


def test_a_record_damaged_under_the_store_refuses_the_write_in_a_sentence(tmp_path: Path, tiny: object) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = _tiny(store)
        _roll(session)
        with closing(sqlite3.connect(path, isolation_level=None)) as other:
            other.execute("UPDATE games SET checksum = checksum + 1")
        with pytest.raises(NotSaved) as refused:
            store.save_clock(session.game_id, 12.0)
        assert str(refused.value) == (
            "This game's record in the games file is damaged: the move was not saved. "
            "Restart the companion to repair it."
        )
        assert store.problem is None
    assert not _sidecars(tmp_path), "refused at the table, moved nowhere"
    with Store.open(path) as again:  # the restart repairs it, the damaged file kept aside as it was
        assert again.notice is not None and "kept aside" in again.notice
    assert len(_sidecars(tmp_path)) == 1


def test_a_wal_deleted_while_the_store_has_it_open_loses_nothing(tmp_path: Path, tiny: object) -> None:
    """Someone deletes ``games.db-wal`` while a game is played: the next move writes everything home and a new
    WAL is started, so that closing and opening again finds every move."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = _tiny(store)
        for _ in range(5):
            _roll(session)
        (tmp_path / "games.db-wal").unlink()
        for _ in range(5):
            _roll(session)
        assert (tmp_path / "games.db-wal").exists()
    with Store.open(path) as again:
        assert again.notice is None
        assert len(again.moves(session.game_id)) == 10
