"""A game ended without a result leaves a trace in Past games and can be taken back (issue 21, finding 1).

"Menu → End without a result ends the game at once … The game then appears neither in Unfinished games nor
in Past games: no trace, no way back." Every test here uses a real SQLite file, closed and opened again as
after a power cut.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.game import ABANDONED
from companion.session import Session
from companion.store import NotSaved, Store, tally
from tests.support import golden

SCRIPT = "quintet-two-players"


def _part_played(store: Store) -> Session:
    """A game part of the way through, with its last two moves undone (so it has a redo list)."""
    lines = golden.read(golden.FOLDER / f"{SCRIPT}.jsonl").lines
    clock = iter(range(1_750_000_000, 1_750_100_000, 60))
    session = golden.play(store, SCRIPT, upto=max(4, len(lines) // 3), clock=lambda: float(next(clock)))
    assert session.outcome is None
    session.undo()
    session.undo()
    assert session.redo_moves, "two moves wait to be redone"
    return session


def test_a_game_ended_without_a_result_is_listed_in_past_games_and_counts_for_nobody(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = _part_played(store)
        session.abandon()
        gid = session.game_id
    with Store.open(path) as store:
        assert store.unfinished_games() == []
        past = store.past()
        assert [g.id for g in past] == [gid] and (past[0].outcome or {})["reason"] == ABANDONED
        assert store.past_count() == 1
        assert store.finished() == [] and store.finished_count() == 0, "still no result: not among the finished"
        assert store.win_counts() == {} and store.wins_by_game() == {}


def test_taking_it_back_makes_it_unfinished_and_resumable_exactly_undone_moves_and_all(tmp_path: Path) -> None:
    """'can be taken back into Unfinished games … resumable exactly, undone moves and all'"""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = _part_played(store)
        before = (session.state, session.moves, session.redo_moves, session.pending_draws)
        session.abandon()
        gid = session.game_id
    with Store.open(path) as store:
        kept = store.game(gid)
        assert kept is not None
        store.take_back(gid)
        store.take_back(gid)  # a second tap changes nothing
    with Store.open(path) as store:
        assert [u.record.id for u in store.unfinished_games()] == [gid]
        assert store.past() == [] and store.past_count() == 0
        again = Session.load(store, gid)
        assert (again.state, again.moves, again.redo_moves, again.pending_draws) == before
        assert again.elapsed == pytest.approx(kept.elapsed, abs=1.0) and again.options.to_json() == kept.options
        assert again.redo(), "the undone move is there to be redone"
        assert store.win_counts() == {}


def test_a_game_with_its_result_is_not_taken_back(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = golden.play(store, SCRIPT)
        assert session.outcome is not None
        wins = store.win_counts()
        with pytest.raises(NotSaved, match="without a result"):
            store.take_back(session.game_id)
        assert store.unfinished_games() == [] and store.win_counts() == wins and wins


def test_the_wins_tally_is_kept_up_to_date_through_abandon_and_take_back(tmp_path: Path) -> None:
    """The wins tally is kept in the same transaction as the take-back: it is never left to be counted again."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        won = golden.play(store, SCRIPT)
        session = _part_played(store)
        session.abandon()
        store.take_back(session.game_id)
        db = store._db
        game = won.game.name
        assert tally.current_wins(db, game, tally.wins_stamp(db, game)) == store.wins_by_game()[game]


def test_a_game_with_its_result_is_not_ended_without_one_and_a_second_end_changes_nothing(tmp_path: Path) -> None:
    """Round 1's note: `Store.abandon` must not overwrite a game that already has a result (a late tap on End
    without a result, a Discard on a row the other screen finished). A game ended without a result, ended
    again, keeps its first ending."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        won = golden.play(store, SCRIPT)
        session = _part_played(store)
        session.abandon()
    with Store.open(path) as store:
        before = {g.id: (g.outcome, g.finished_at) for g in store.past()}
        wins = (store.win_counts(), store.wins_by_game())
        assert wins[0], "the finished game has its winner"
        with pytest.raises(NotSaved, match="ended with its result"):
            store.abandon(won.game_id, 1_800_000_000.0)
        store.abandon(session.game_id, 1_800_000_000.0)  # ended again: nothing changes
    with Store.open(path) as store:
        assert {g.id: (g.outcome, g.finished_at) for g in store.past()} == before
        assert (store.win_counts(), store.wins_by_game()) == wins
        assert store.unfinished_games() == []
