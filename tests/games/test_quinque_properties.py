"""Quinque properties over random games: one formation, parachutes that add up, safe refusals, exact replay."""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.game import Options, RuleError
from companion.games.quinque.board import CORNERS, is_one_piece
from companion.games.quinque.rules import Add, Mark, QuinqueState, destinations, legal_actions
from companion.session import Session
from companion.store import Store
from tests.support.quinque import ANN, BO, GAME, act, move

QUICK = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def game_settings(draw: st.DrawFn) -> dict[str, Any]:
    """Sometimes the published supplies, often small ones so games reach their end quickly."""
    advanced = draw(st.booleans())
    if draw(st.booleans()):
        return {"advanced": advanced}
    tiles = draw(st.integers(1, 6))
    parachutes = draw(st.integers(1, min(2 * tiles, 8)))
    return {"advanced": advanced, "tiles": tiles, "parachutes": parachutes}


def random_game(
    data: st.DataObject, options: dict[str, Any], steps: int, *, marks_first: bool = False
) -> list[QuinqueState]:
    """The states of a game of up to `steps` random legal actions (`marks_first`: a mark whenever one is open)."""
    state = GAME.setup(Options.for_names(ANN, BO, **options))
    states = [state]
    for _ in range(steps):
        actions = legal_actions(state, state.active)
        if not actions:
            break
        if marks_first:
            actions = [a for a in actions if isinstance(a, Mark | Add)] or actions
        action = actions[data.draw(st.integers(0, len(actions) - 1), label="action")]
        state, _ = act(state, action)
        states.append(state)
    return states


def check_invariants(state: QuinqueState, options: dict[str, Any]) -> None:
    tiles = options.get("tiles", 16)
    parachutes = options.get("parachutes", 18)
    # The formation is one piece, tiles never share a space, ids are the placement order.
    assert is_one_piece(state.occupied)
    assert len(state.occupied) == len(state.tiles)
    assert [t.id for t in state.tiles] == list(range(len(state.tiles)))
    # Every parachute is either in a supply or on a skydiver; every tile in a supply or placed.
    for seat, name in enumerate(state.players):
        worn = sum(t.marks.count(name) for t in state.tiles)
        assert state.parachutes_left[seat] + worn == parachutes
        assert 0 <= state.parachutes_left[seat] <= parachutes
        assert 0 <= state.tiles_left[seat] <= tiles
    assert sum(state.tiles_left) + len(state.tiles) == 2 * tiles
    # Every placed tile carries at least the parachute it came with.
    assert all(t.parachutes >= 1 for t in state.tiles)
    # The game ends exactly when someone has a line or both are out (after the last turn's move).
    if GAME.outcome(state) is None:
        assert GAME.current_player(state) in state.players
        # Never stuck: the player on turn always has something to do (a skip at worst).
        assert legal_actions(state, state.active)


@QUICK
@given(data=st.data(), options=game_settings())
def test_after_any_legal_actions_the_formation_is_one_piece_and_parachutes_add_up(data, options):
    states = random_game(data, options, steps=80)
    for state in states:
        check_invariants(state, options)
    # Shown with --hypothesis-show-statistics: the walks do reach big formations and endings.
    event(f"{len(states[-1].tiles) // 5 * 5}+ tiles")
    outcome = GAME.outcome(states[-1])
    event("tie" if outcome and outcome.is_tie else "won" if outcome else "unfinished")


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_small_supplies_always_end_the_game_when_every_turn_marks(data):
    """Move-then-move turns may go on as long as the table likes; turns that mark spend the parachutes."""
    options = {"tiles": 2, "parachutes": 3, "advanced": data.draw(st.booleans())}
    states = random_game(data, options, steps=40, marks_first=True)
    assert GAME.outcome(states[-1]) is not None
    assert legal_actions(states[-1], ANN) == legal_actions(states[-1], BO) == []


positions = st.one_of(
    st.lists(st.integers(-3, 4), min_size=2, max_size=2),
    st.lists(st.integers(-2, 2), max_size=3),
    st.tuples(st.booleans(), st.integers(0, 1)).map(list),
    st.none(),
    st.text(max_size=3),
    st.floats(allow_nan=False, allow_infinity=False),
)
fuzzed_actions = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["mark", "add", "move", "skip", "choose_first", "fly", 3]),
        "player": st.sampled_from([ANN, BO, "Cy", None, 7]),
        "tile": positions,
        "skydiver": st.sampled_from([*CORNERS, "north", None, 0]),
        "from": positions,
        "to": positions,
        "chosen_by": st.sampled_from([ANN, BO, "Cy", None]),
        "how": st.sampled_from(["race", "loser", "table", "dice", None]),
    },
)


@QUICK
@given(data=st.data(), options=game_settings(), action=fuzzed_actions)
def test_an_illegal_action_changes_nothing(data, options, action):
    states = random_game(data, options, steps=data.draw(st.integers(0, 40), label="steps"))
    state = states[-1]
    before = copy.deepcopy(state)
    try:
        after, _ = act(state, action)  # parsed by the codec, then decided by the engine and the rules
    except RuleError as refusal:
        assert str(refusal)  # a sentence, never an empty refusal
        assert state == before
        return
    assert state == before
    check_invariants(after, options)


@QUICK
@given(data=st.data(), options=game_settings())
def test_the_destinations_shown_are_exactly_the_moves_accepted(data, options):
    states = [s for s in random_game(data, options, steps=60) if not s.over and s.tiles]  # either step may move
    if not states:
        return
    state = states[data.draw(st.integers(0, len(states) - 1), label="state")]
    tile = state.tiles[data.draw(st.integers(0, len(state.tiles) - 1), label="tile")]
    shown = set(destinations(state, tile.at))
    cols = [c for c, _ in state.occupied]
    rows = [r for _, r in state.occupied]
    for c in range(min(cols) - 2, max(cols) + 3):
        for r in range(min(rows) - 2, max(rows) + 3):
            try:
                act(state, move(state.active, tile.at, (c, r)))
            except RuleError:
                assert (c, r) not in shown
            else:
                assert (c, r) in shown


@settings(max_examples=25, deadline=None)
@given(data=st.data(), options=game_settings())
def test_replay_from_the_store_equals_the_live_game(data, options):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.db"
        store = Store.open(path)
        session = Session.start(store, "quinque", Options.for_names(ANN, BO, **options), clock=lambda: 0.0)
        for _ in range(data.draw(st.integers(0, 50), label="steps")):
            choice = data.draw(st.sampled_from(["act", "act", "act", "act", "undo", "redo"]), label="what")
            if choice == "undo":
                session.undo()
            elif choice == "redo":
                session.redo()
            else:
                actions = session.legal_actions(session.current_player or ANN)
                if not actions:
                    break
                session.act(actions[data.draw(st.integers(0, len(actions) - 1), label="action")])
        live = session.state
        store.close()
        with Store.open(path) as reopened:
            replayed = Session.load(reopened, session.game_id, clock=lambda: 0.0)
            assert replayed.state == live
            assert replayed.public_view() == GAME.public_view(live)
            assert replayed.can_redo == session.can_redo
