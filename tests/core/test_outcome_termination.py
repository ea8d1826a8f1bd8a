"""The engine owns turns and outcomes (issue 25).

"`Outcome` with a termination enum (win, tie, left, abandoned, and each game's own kinds declared by the
game), stored and queried as such." and "One `TurnEnded` ... in the engine that every game uses". The store
is a real SQLite file, closed and opened again; a game saved before terminations were stored (its outcome
says 'abandoned' only in its reason) is still found.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import codec
from companion.game import ABANDONED, LEFT, TIE, Options, Outcome, Termination, TurnEnded
from companion.games import game, names
from companion.store import Store


def _ended(store: Store, outcome: dict[str, object] | None, now: float) -> int:
    """A Quinque game of one move whose stored outcome is `outcome`, exactly as given (old JSON included)."""
    gid = store.new_game("quinque", Options.for_names("Ann", "Bo").to_json(), now)
    store.record(
        gid, 0, {"type": "mark", "player": "Ann"}, [], [], now=now + 1, elapsed=1.0, outcome=outcome, pending_draws=[]
    )
    return gid


def test_the_stored_outcome_carries_its_termination(tmp_path: Path) -> None:
    """"stored ... as such": the termination is in the stored JSON, beside the reason players read."""
    won = Outcome(("Ann",), "five in a row", "Ann has five.")
    assert won.termination is Termination.WIN
    assert won.to_stored() == {**won.to_json(), "termination": "win"}
    assert won.to_json() == {"winners": ["Ann"], "reason": "five in a row", "detail": "Ann has five."}
    assert Outcome((), TIE).termination is Termination.TIE and Outcome((), TIE).is_tie
    assert Outcome(("Bo",), LEFT).termination is Termination.LEFT
    assert Outcome((), ABANDONED).abandoned
    with Store.open(tmp_path / "games.db") as store:
        gid = _ended(store, won.to_stored(), 1_750_000_000.0)
    with Store.open(tmp_path / "games.db") as store:
        record = store.game(gid)
        assert record is not None and record.outcome is not None
        assert record.outcome["termination"] == "win"
        assert Outcome.from_json(record.outcome) == won


def test_an_abandoned_game_is_found_by_its_termination(tmp_path: Path) -> None:
    """"The store finds abandoned games today by the string 'abandoned' ... make the query use [the termination]":
    an outcome whose reason is the table's own words but whose termination is abandoned is no finished game."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        won = _ended(store, Outcome(("Ann",), "five in a row").to_stored(), 1_750_000_000.0)
        gone = Outcome((), "the table went home", termination=Termination.ABANDONED)
        _ended(store, gone.to_stored(), 1_750_000_100.0)
    with Store.open(path) as store:
        assert [g.id for g in store.finished()] == [won]
        assert store.finished_count() == 1
        assert store.past_count() == 2


def test_a_game_saved_before_terminations_were_stored_is_still_found_abandoned(tmp_path: Path) -> None:
    """"keeping old saved games readable": an old outcome says 'abandoned' only by its reason, and is left out."""
    path = tmp_path / "games.db"
    old_abandoned = {"winners": [], "reason": "abandoned", "detail": ""}
    old_tie = {"winners": [], "reason": "tie", "detail": "Both players are out of parachutes."}
    with Store.open(path) as store:
        _ended(store, old_abandoned, 1_750_000_000.0)
        tie = _ended(store, old_tie, 1_750_000_100.0)
    with Store.open(path) as store:
        assert [g.id for g in store.finished()] == [tie]
        assert store.finished_count() == 1
        record = store.game(tie)
        assert record is not None and record.outcome == old_tie, "an old outcome is read as it was written"
    assert Outcome.from_json(old_abandoned).termination is Termination.ABANDONED
    assert Outcome.from_json(old_tie) == Outcome((), TIE, "Both players are out of parachutes.")
    assert Outcome.from_json({"winners": ["Bo"], "reason": "left"}).termination is Termination.LEFT
    assert Outcome.from_json({"winners": ["Bo"], "reason": "five in a row"}).termination is Termination.WIN


@pytest.mark.parametrize("name", names())
def test_each_game_declares_its_own_endings_and_reads_them_back(name: str) -> None:
    """"each game's own kinds declared by the game": its rules' `Ending` enum, read back as members."""
    entry = game(name)
    own = entry.rules.Ending  # type: ignore[attr-defined]
    assert list(own), f"{entry.title} declares no ending of its own"
    for ending in own:
        stored = json.loads(json.dumps(Outcome(("Ann",), ending).to_stored()))
        read = entry.read_outcome(stored)
        assert read.reason is ending and read.termination is Termination.WIN
    assert set(Termination) - {Termination.WIN} <= set(entry.endings)


def test_every_game_with_turns_ends_them_with_the_engines_turn_ended() -> None:
    """"One `TurnEnded` event ... in the engine, which every game uses" (four games declared their own)."""
    with_turns = {"quintet", "quinque", "quark", "quin"}
    for name in names():
        entry = game(name)
        own = [cls for cls in entry.rules.EVENTS if cls.type == "turn_ended"]
        if name in with_turns:
            assert len(own) == 1 and issubclass(own[0], TurnEnded), f"{entry.title}'s turn_ended is not the engine's"
    quinque, quin = game("quinque"), game("quin")
    assert TurnEnded in quinque.rules.EVENTS and TurnEnded in quin.rules.EVENTS, "identical: the engine's own"


def test_turn_ended_json_is_as_each_game_always_wrote_it() -> None:
    """The stored and printed JSON stays the same, key order included (Quark's hand count before "next")."""
    from companion.games.quark.rules import TurnEnded as QuarkTurnEnded
    from companion.games.quintet.rules import TurnEnded as QuintetTurnEnded

    quark = QuarkTurnEnded("Ann", hand=9, discarded=1, next_player="Bo")
    assert json.dumps(codec.to_json(quark)) == (
        '{"type": "turn_ended", "player": "Ann", "hand": 9, "discarded": 1, "next": "Bo"}'
    )
    assert game("quark").event_from_json(json.loads(json.dumps(codec.to_json(quark)))) == quark
    quintet = QuintetTurnEnded("Ann", "Bo", extra=True)
    assert json.dumps(codec.to_json(quintet)) == '{"type": "turn_ended", "player": "Ann", "next": "Bo", "extra": true}'
    assert json.dumps(codec.to_json(TurnEnded("Ann", "Bo"))) == '{"type": "turn_ended", "player": "Ann", "next": "Bo"}'
