"""Each player's thinking time in a game's story (`companion.record.thinking_of`), the Log and the export.

Issue 27: "**In the five games too:** the engine already knows whose turn it is, so each game's Log and export
show each player's thinking time (total and longest turn), with no setting needed."

Every game here is played by a real `Session` into a real SQLite games file, on a clock the test moves.
"""

from __future__ import annotations

import contextlib
import json
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import record
from companion.dice import RandomDice
from companion.engine import Facts, RegisteredGame
from companion.game import Options, Refusal
from companion.games import facts as declared
from companion.games import names, register, unregister
from companion.record import ThinkingTime, story, thinking_words
from companion.session import MOVE_CLOCK, Session
from companion.store import Store
from tests.support import tinygame
from tests.support.clocks import ManualClock
from tests.support.golden import read, scripts
from ui.cli import main
from ui.presenters.log import LiveStory, present_log

QUANTUM_LINK_TIE = scripts("quantum-link")[0].parent / "quantum-link-tie.jsonl"


def _lines(path: Path) -> list[dict]:
    return read(path).lines


def test_known_moves_at_known_times_give_known_totals_and_longest_turns(tmp_path):
    """"each player's thinking time (total and longest turn)": a turn runs from the moment it became that
    player's turn to the move that passed it on, on the game clock. A pause, the time the companion was off,
    the time before who starts was chosen and an undone move are nobody's thinking."""
    path = tmp_path / "games.db"
    clock = ManualClock(1_800_000_000.0)
    choose, bo1, ann1, bo2, ann2, bo_pass, ann_pass = _lines(QUANTUM_LINK_TIE)
    with Store.open(path) as store:
        session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), clock=clock)
        game_id = session.game_id
        clock.advance(30)  # the table looks for the race buttons: nobody's turn yet
        session.act(choose)  # Bo starts: his turn begins now
        clock.advance(10)
        session.act(bo1)  # Bo 10 s
        clock.advance(25)
        session.act(ann1)  # Ann 25 s
        clock.advance(2)
        session.pause_clock()
        clock.advance(600)  # paused: not counted
        session.resume_clock()
        clock.advance(3)
        session.act(bo2)  # Bo 5 s
        clock.advance(12)
    clock.advance(3600)  # the companion is off for an hour
    with Store.open(path) as store:
        session = Session.load(store, game_id, clock=clock)
        clock.advance(40)
        session.act(ann2)  # Ann 40 s: the 12 s before the power went were never saved, so never counted
        clock.advance(3)
        session.act({"type": "place", "player": "Bo", "cell": [1, -1], "face": 1})
        clock.advance(100)
        assert session.undo()  # Bo takes it back: his turn goes on
        clock.advance(4)
        session.act(bo_pass)  # Bo 107 s
        clock.advance(2)
        session.act(ann_pass)  # Ann 2 s: the game ends with her turn
        assert session.outcome is not None
        told = story(store, game_id)
    assert told.thinking == (ThinkingTime("Ann", 67.0, 40.0, 3), ThinkingTime("Bo", 122.0, 107.0, 3))
    assert thinking_words(told) == "Thinking time: Ann 1:07 (longest turn 0:40), Bo 2:02 (longest turn 1:47)."


def test_an_undone_move_is_no_turn(tmp_path):
    """"Undone moves do not count": a move taken back neither ends a turn nor starts one; its time belongs to
    the turn it was made in, which goes on until the move that stands."""
    clock = ManualClock(1_800_000_000.0)
    choose, bo1, ann1, *_ = _lines(QUANTUM_LINK_TIE)
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), clock=clock)
        session.act(choose)
        clock.advance(5)
        session.act(bo1)  # Bo 5 s
        clock.advance(7)
        session.act({"type": "place", "player": "Ann", "cell": [2, 0], "face": 1})
        clock.advance(20)
        session.undo()
        clock.advance(1)
        session.act(ann1)  # Ann 28 s: one turn, not a turn of 7 s and one of 21 s
        clock.advance(9)
        session.act({"type": "place", "player": "Bo", "cell": [1, 0], "face": 1})  # Bo 9 s ...
        clock.advance(50)
        session.undo()  # ... taken back: it stays Bo's turn, and no turn of his has ended a second time
        told = story(store, session.game_id)
    assert told.thinking == (ThinkingTime("Ann", 28.0, 28.0, 1), ThinkingTime("Bo", 5.0, 5.0, 1))


def test_a_redone_move_keeps_the_time_it_was_made(tmp_path):
    """An undo then a redo puts the very move back: the turn ends when the move was first made."""
    clock = ManualClock(1_800_000_000.0)
    choose, bo1, ann1, *_ = _lines(QUANTUM_LINK_TIE)
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), clock=clock)
        session.act(choose)
        clock.advance(6)
        session.act(bo1)
        clock.advance(60)
        session.undo()
        clock.advance(60)
        session.redo()
        clock.advance(8)
        session.act(ann1)  # Ann's turn began when Bo's move was first made: 128 s
        told = story(store, session.game_id)
    assert told.thinking == (ThinkingTime("Ann", 128.0, 128.0, 1), ThinkingTime("Bo", 6.0, 6.0, 1))


def test_each_move_keeps_its_game_clock_in_the_games_file(tmp_path):
    """The game clock at each move is stored with it (beside its action, under a key no action field has), so
    a resumed session and the story read it back; a resumed game is the very same game."""
    clock = ManualClock(1_800_000_000.0)
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), clock=clock)
        for action in _lines(QUANTUM_LINK_TIE)[:3]:
            clock.advance(2.5)
            session.act(action)
        stored = store.moves(session.game_id)
        resumed = Session.load(store, session.game_id, clock=clock)
    assert [m.action[MOVE_CLOCK] for m in stored] == [2.5, 5.0, 7.5]
    assert [m.clock for m in resumed.moves] == [2.5, 5.0, 7.5]
    assert resumed.moves == session.moves and resumed.state == session.state


def test_a_game_stored_before_the_clock_was_kept_says_so(tmp_path):
    """"says what it can": moves stored without their game clock (an older version) time no turn, and the Log
    and the text export say that the thinking time was not kept, rather than a wrong one."""
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), clock=ManualClock())
        for action in _lines(QUANTUM_LINK_TIE):
            session.act(action)  # played as this version plays it, then stored as an older one stored it:
        moves = store.moves(1)
    with Store.open(tmp_path / "older.db") as store:
        store.new_game("quantum-link", Options.for_names("Ann", "Bo").to_json(), 1_800_000_000.0)
        for seq, move in enumerate(moves):
            action = {k: v for k, v in move.action.items() if k != MOVE_CLOCK}
            last = seq == len(moves) - 1
            outcome = session.outcome.to_stored() if last and session.outcome else None
            store.record(1, seq, action, move.events, move.draws, now=1_800_000_000.0 + seq, elapsed=seq,
                         outcome=outcome, pending_draws=())  # fmt: skip
        told = story(store, 1)
    assert told.finished
    assert [t.player for t in told.thinking] == ["Ann", "Bo"] and not any(t.turns for t in told.thinking)
    assert thinking_words(told) == record.NOT_KEPT
    assert present_log(told).status.endswith(f".\n{record.NOT_KEPT}")


@contextlib.contextmanager
def turnless_game() -> Iterator[RegisteredGame]:
    """Tiny Dice played as a tally without turns: anyone rolls at any moment (its current player is None)."""
    rules = types.ModuleType("turnless")
    rules.__dict__.update(vars(tinygame))
    rules.current_player = lambda state: None  # type: ignore[attr-defined]
    facts = Facts(name="tiny-tally", title="Tiny Tally", min_players=2, max_players=5)
    entry = register(RegisteredGame(facts, rules, rules, rules))  # type: ignore[arg-type]
    try:
        yield entry
    finally:
        unregister(facts.name)


def test_a_game_without_turns_says_nothing_of_thinking(tmp_path):
    """"the engine already knows whose turn it is": a game where nobody has a turn (a tool for any board game)
    has no thinking times; its Log and export say nothing of them rather than zeros."""
    clock = ManualClock(1_800_000_000.0)
    with turnless_game(), Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, "tiny-tally", Options.for_names("Ann", "Bo"), clock=clock)
        for player in ("Bo", "Bo", "Ann"):
            clock.advance(5)
            session.act({"type": "pass", "player": player})  # anyone, at any moment: Bo twice
        told = story(store, session.game_id)
    assert told.thinking == ()
    assert thinking_words(told) == ""
    assert present_log(told).status == "In play: 3 moves so far, 0:15 of play."
    assert record.to_json(told)["thinking"] == []


# The tools for any board game where nobody has a turn: anyone scores, rolls or lays a finger at any moment, so
# their games have no thinking time at all (the turn clock has turns: its thinking times are told like the five's).
TURNLESS = frozenset({"score-pad", "dice-tray", "finger-chooser"})


def test_the_turnless_tools_are_tools_and_every_other_game_is_timed_by_a_golden_game():
    """The list above is no stale guess: each is a registered tool, and every game not on it (the five and the
    turn clock) has a golden script below that proves its thinking times."""
    assert set(names()) >= TURNLESS and all(declared(name).tool for name in TURNLESS)
    assert set(names()) - TURNLESS <= {read(path).game for path in scripts()}
    assert "turn-clock" in names() and "turn-clock" not in TURNLESS


@pytest.mark.parametrize("script", scripts(), ids=lambda p: p.stem)
def test_every_golden_game_has_thinking_times_for_exactly_its_players(tmp_path, script):
    """"each game's Log and export show each player's thinking time (total and longest turn)": every golden
    game with turns (the five and the turn clock), played into a games file, has one thinking time per player,
    in seat order; its turns together are the game clock from the start of play to the last turn's end, and the
    longest is one of them. A game of a tool without turns has none, and its Log and export say nothing of it."""
    golden = read(script)
    clock = ManualClock(1_800_000_000.0)
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(
            store, golden.game, Options.for_names(*golden.players, **golden.settings),
            dice=RandomDice.seeded(golden.seed or 0), clock=clock,
        )  # fmt: skip
        live = LiveStory(session, story(store, session.game_id), clock)
        for number, action in enumerate(golden.lines, start=1):
            clock.advance(number % 7 + 1)  # a few seconds, differing from move to move
            if action["type"] in ("undo", "redo"):
                getattr(session, action["type"])()
            else:
                with contextlib.suppress(Refusal):
                    session.act(action)
            live.update()
            afresh = story(store, session.game_id)
            assert live.story.thinking == afresh.thinking, number  # the Log kept up with the game says the same
        told = story(store, session.game_id)
    assert told.steps, "the script made moves"
    if golden.game in TURNLESS:
        assert all(s.turn is None for s in told.steps), "nobody's turn, at any step"
        assert told.thinking == () and thinking_words(told) == ""
        assert "Thinking" not in present_log(told).status and record.to_json(told)["thinking"] == []
        return
    assert [t.player for t in told.thinking] == list(golden.players)
    passed = [s for s in told.steps if s.in_play and s.passes and s.turn is not None]
    assert passed, "every game with turns passes some"
    first = next(i for i, s in enumerate(told.steps) if s.in_play)
    began = told.steps[first - 1].clock if first else 0.0
    assert sum(t.total for t in told.thinking) == pytest.approx(passed[-1].clock - began)
    assert sum(t.turns for t in told.thinking) == len(passed)
    for t in told.thinking:
        assert t.longest <= t.total and (t.turns > 0 or t.total == 0)
    words = thinking_words(told)
    assert words.startswith("Thinking time: ") and all(name in words for name in golden.players)
    assert words in present_log(told).status


def test_the_export_carries_each_players_thinking_time_and_each_moves_clock(tmp_path, capsys):
    """"each game's ... export show[s] each player's thinking time (total and longest turn)": the JSON has
    ``thinking`` (seconds) and each move's ``clock``; its version went up with them (issue 25: "stays the same
    (or its version goes up, with a note)"); the text ends with the Log's sentence."""
    path = tmp_path / "games.db"
    clock = ManualClock(1_800_000_000.0)
    with Store.open(path) as store:
        session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), clock=clock)
        for seconds, action in zip((1, 4, 9, 2, 3, 5, 6), _lines(QUANTUM_LINK_TIE), strict=True):
            clock.advance(seconds)
            session.act(action)
    assert main(["export", str(session.game_id), "--db", str(path)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["version"] == 2
    assert [m["clock"] for m in exported["moves"]] == [1.0, 5.0, 14.0, 16.0, 19.0, 24.0, 30.0]
    assert exported["thinking"] == [
        {"player": "Ann", "total": 18.0, "longest": 9.0, "turns": 3},
        {"player": "Bo", "total": 11.0, "longest": 5.0, "turns": 3},
    ]
    assert main(["export", str(session.game_id), "--db", str(path), "--format", "text"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[-1] == "Thinking time: Ann 0:18 (longest turn 0:09), Bo 0:11 (longest turn 0:05)."


def test_quintets_extra_turn_is_a_turn_of_its_own(tmp_path):
    """"the engine already knows whose turn it is": a `TurnEnded` passes the turn even to the same player (Cy's
    double fives in the five-player golden game, step 25), so Cy's turn before it and the extra turn are two
    turns, not one turn of both together."""
    golden = read(scripts("quintet")[0].parent / "quintet-five-players.jsonl")
    clock = ManualClock(1_800_000_000.0)
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(
            store, golden.game, Options.for_names(*golden.players, **golden.settings),
            dice=RandomDice.seeded(golden.seed or 0), clock=clock,
        )  # fmt: skip
        for action in golden.lines:
            clock.advance({24: 100, 25: 50}.get(len(session.moves), 1))  # before step 25, then before step 26
            if action["type"] in ("undo", "redo"):
                getattr(session, action["type"])()
            else:
                with contextlib.suppress(Refusal):
                    session.act(action)
        told = story(store, session.game_id)
    extra = told.steps[24]
    assert extra.turn == "Cy" and extra.passes
    assert any(e["type"] == "turn_ended" and e["next"] == "Cy" for e in extra.events)
    cy = next(t for t in told.thinking if t.player == "Cy")
    assert 100 <= cy.longest < 150  # the turn that ended with the double fives; the extra one is its own
