"""Exact resume, for every game.

A restart must give back the game exactly as the table left it: not only the
board, but the undone moves in the order redo will bring them back, and the
dice that undone moves already rolled. The next roll after a restart gets the
same dice it would have got without one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import Dice, RandomDice
from companion.game import Action, Options, RuleError
from companion.games import names
from companion.session import Session
from companion.store import Store
from tests.support.golden import Golden, read, scripts
from tests.support.tinygame import Roll, Rolled

# -- the bug this file was written for, on the tiny game ------------------------------------------------


def roll(player: str) -> Action:
    return Roll(player)


def roll_three_and_undo_two(path: Path) -> tuple[int, list[Rolled]]:
    """Ann, Bo and Ann roll; the last two rolls are undone; the store is closed (the plug is pulled)."""
    with Store.open(path) as store:
        session = Session.start(
            store, "tiny", Options.for_names("Ann", "Bo", target=100), dice=RandomDice.seeded(5), clock=lambda: 0.0
        )
        rolls = [session.act(roll(name))[0] for name in ("Ann", "Bo", "Ann")]
        assert session.undo() and session.undo()
        assert [move.events for move in session.redo_moves] == [(rolls[1],), (rolls[2],)]
        return session.game_id, rolls


def test_a_restart_keeps_the_undone_moves_in_redo_order(tiny, tmp_path):
    game_id, (_, second, third) = roll_three_and_undo_two(tmp_path / "games.db")
    assert second.value != third.value, "the seed must make the two undone rolls tell apart"
    with Store.open(tmp_path / "games.db") as store:
        resumed = Session.load(store, game_id, dice=RandomDice.seeded(1))
        assert [move.action for move in resumed.redo_moves] == [roll("Bo"), roll("Ann")]
        assert [move.events for move in resumed.redo_moves] == [(second,), (third,)]
        assert [move.draws for move in resumed.redo_moves] == [((6, second.value),), ((6, third.value),)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_after_a_restart_the_next_roll_gets_the_first_undone_roll_s_dice(tiny, tmp_path, seed):
    game_id, (_, second, _) = roll_three_and_undo_two(tmp_path / "games.db")
    fresh = RandomDice.seeded(seed).roll(6)
    assert fresh != second.value, "only the tape, not these new dice, may give the right value"
    with Store.open(tmp_path / "games.db") as store:
        resumed = Session.load(store, game_id, dice=RandomDice.seeded(seed))
        assert resumed.current_player == "Bo"
        assert list(resumed.act(roll("Bo"))) == [second]
        assert resumed.moves[-1].draws == ((6, second.value),)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_after_a_restart_redo_puts_back_the_first_undone_roll(tiny, tmp_path, seed):
    game_id, (first, second, third) = roll_three_and_undo_two(tmp_path / "games.db")
    with Store.open(tmp_path / "games.db") as store:
        resumed = Session.load(store, game_id, dice=RandomDice.seeded(seed))
        assert resumed.redo()
        assert resumed.moves[-1].action == roll("Bo")
        assert resumed.moves[-1].events == (second,)
        assert resumed.state.scores == (first.value, second.value)
        assert [move.events for move in resumed.redo_moves] == [(third,)]


# -- every game: a game interrupted anywhere resumes exactly ----------------------------------------------


class SwappableDice:
    """The table's dice, which a test can swap for fresh ones between two actions."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice

    def roll(self, sides: int = 6) -> int:
        return self.dice.roll(sides)


Ops = list[tuple[str, int]]  # ("play" | "undo" | "redo", how many times)


def plays_of(golden: Golden) -> list[Action]:
    """The script's actions without its own undo/redo lines (this test makes its own)."""
    return [action for action in golden.lines if action["type"] not in ("undo", "redo")]


def play(store: Store, game: str, golden: Golden, ops: Ops, dice: Dice) -> tuple[Session, int]:
    """Start `golden`'s game and drive it through `ops`; return it and the index of the next script line.

    "play" takes the script's next line (a refused one changes nothing and is
    passed over); after an undo the next line is the undone one again, played
    anew (so it takes the undone move's dice back from the tape).
    """
    lines = plays_of(golden)
    options = Options.for_names(*golden.players, **golden.settings)
    session = Session.start(store, game, options, dice=dice, clock=lambda: 0.0)
    cursor, live, undone = 0, [], []  # `live`/`undone`: the script line of each move / each redo move
    for op, times in ops:
        for _ in range(times):
            if op == "play" and cursor < len(lines):
                before = session.state, session.moves
                try:
                    session.act(lines[cursor])
                except RuleError:
                    assert (session.state, session.moves) == before
                else:
                    live.append(cursor)
                    undone.clear()
                cursor += 1
            elif op == "undo" and session.undo():
                cursor = live.pop()
                undone.insert(0, cursor)
            elif op == "redo" and session.redo():
                live.append(undone.pop(0))
                cursor = live[-1] + 1
    assert len(live) == len(session.moves) and len(undone) == len(session.redo_moves)
    return session, cursor


def picture(session: Session) -> dict[str, Any]:
    """Everything the table (and the next action) can tell about a session."""
    return {
        "state": session.state,
        "moves": session.moves,  # actions, events and draws
        "redo_moves": session.redo_moves,  # all of them, in redo order
        "pending_draws": session.pending_draws,
        "can_undo": session.can_undo,
        "can_redo": session.can_redo,
        "outcome": session.outcome,
        "current_player": session.current_player,
        "public_view": session.public_view(),
        "private_views": {name: session.private_view(name) for name in session.options.names},
    }


def next_step(session: Session, lines: list[Action], cursor: int, redo: bool) -> tuple[Any, ...]:
    """Redo (if asked and possible) or play the script's next line; what came of it."""
    if redo and session.can_redo:
        assert session.redo()
        return ("redone", session.moves[-1])
    if cursor < len(lines):
        try:
            return ("played", tuple(session.act(lines[cursor])), session.moves[-1])
        except RuleError as refusal:
            return ("refused", str(refusal))
    return ("nothing left to play",)


def assert_same(resumed: dict[str, Any], live: dict[str, Any], where: str) -> None:
    assert resumed.keys() == live.keys()
    for key in live:
        assert resumed[key] == live[key], f"{where}: {key} differs after a restart"


GAMES = names()
OPS = st.one_of(
    st.tuples(st.just("undo"), st.integers(1, 6)),
    st.tuples(st.just("redo"), st.integers(1, 4)),
    st.tuples(st.just("play"), st.integers(1, 3)),  # short: a replay that stops half-way leaves dice pending
)


def test_every_game_has_golden_scripts():
    assert GAMES and all(scripts(game) for game in GAMES)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_restart_anywhere_resumes_exactly(game, data, tmp_path_factory):
    path = data.draw(st.sampled_from(scripts(game)), label="script")
    golden = read(path)
    lines = plays_of(golden)
    prefix = data.draw(st.integers(0, len(lines)), label="prefix")
    then = data.draw(st.lists(OPS, max_size=8), label="then")
    # Undo some, play fewer again, undo again: often both dice pending and moves to redo at the restart.
    ending = data.draw(st.tuples(st.integers(0, 6), st.integers(0, 3), st.integers(0, 5)), label="ending")
    ops: Ops = [("play", prefix), *then, *zip(("undo", "play", "undo"), ending, strict=True)]
    fresh_seed = data.draw(st.integers(0, 2**16), label="fresh dice seed")
    redo_next = data.draw(st.booleans(), label="redo next")
    where = f"{game}, script {path.name}, {ops}"
    seed = golden.seed if golden.seed is not None else 0

    # The game, played and then interrupted: the store is closed and opened again.
    db = tmp_path_factory.mktemp("resume") / "games.db"
    with Store.open(db) as store:
        interrupted, cursor = play(store, game, golden, ops, RandomDice.seeded(seed))
        before = picture(interrupted)
    with Store.open(db) as store:
        resumed = Session.load(store, interrupted.game_id, dice=RandomDice.seeded(fresh_seed), clock=lambda: 0.0)
        assert_same(picture(resumed), before, where)

        # The same game played the same way without a restart; then both get the same
        # fresh dice and take the same next step: they must get the very same result.
        dice = SwappableDice(RandomDice.seeded(seed))
        with Store.in_memory() as other:
            live, live_cursor = play(other, game, golden, ops, dice)
            assert (picture(live), live_cursor) == (before, cursor), f"{where}: the drive is not deterministic"
            dice.dice = RandomDice.seeded(fresh_seed)
            step = next_step(live, lines, cursor, redo_next)
            assert next_step(resumed, lines, cursor, redo_next) == step, f"{where}: the next step differs"
            assert_same(picture(resumed), picture(live), f"{where}, after {step[0]}")
