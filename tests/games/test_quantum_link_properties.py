"""Quantum Link properties over random legal games: scores recount, covers last, refusals change nothing."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.dice import RandomDice
from companion.game import Action, Options, RuleError
from companion.games import game
from companion.games.quantum_link.rules import CELLS, Pass, Place, QuantumLinkState
from companion.session import Session
from companion.store import Store
from tests.support.depth import examples

RULES = game("quantum-link")
DICE = RandomDice.seeded(0)
PROPERTY = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def recount(board: dict[tuple[int, int], tuple[str, int, bool]]) -> dict[str, int]:
    """Scores from scratch: a plain map of dice, neighbours found by cube distance, nothing from the module."""
    totals: dict[str, int] = {}
    for (q, r), (owner, face, covered) in board.items():
        totals.setdefault(owner, 0)
        near = sum(
            1
            for (a, b), (other, _, _) in board.items()
            if other == owner and max(abs(a - q), abs(b - r), abs(a + b - q - r)) == 1
        )
        if near == face and not covered:
            totals[owner] += face
    return totals


def board_of(view: dict[str, Any]) -> dict[tuple[int, int], tuple[str, int, bool]]:
    return {
        (c["cell"][0], c["cell"][1]): (c["die"]["player"], c["die"]["face"], c["die"]["covered"])
        for c in view["cells"]
        if c["die"] is not None
    }


def sealed_and_wrong(board: dict[tuple[int, int], tuple[str, int, bool]]) -> set[tuple[int, int]]:
    """Uncovered dice with every side closed (die or edge) and the wrong count: the rules cover these."""
    found = set()
    for (q, r), (owner, face, covered) in board.items():
        sides = [(q + dq, r + dr) for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))]
        on = [s for s in sides if max(abs(s[0]), abs(s[1]), abs(s[0] + s[1])) <= 4]
        closed = all(s in board for s in on)
        if closed and not covered and sum(1 for s in on if board[s][0] == owner) != face:
            found.add((q, r))
    return found


@st.composite
def legal_action(draw: st.DrawFn, state: QuantumLinkState) -> Action:
    """A legal action for whoever is to play: mostly placements, sometimes a pass.

    Drawn from the board itself, then checked against the rules' own list of what may be done.
    """
    player = RULES.current_player(state)
    assert player is not None
    empty = [c for c, d in zip(CELLS, state.board, strict=True) if d is None]
    left = 30 - sum(1 for d in state.board if d is not None and d.player == player)
    action: Action
    if not empty or left == 0 or draw(st.integers(0, 24)) == 0:
        action = Pass(player)
    else:
        action = Place(player, draw(st.sampled_from(empty)), draw(st.integers(1, 6)))
    assert action in RULES.legal_actions(state, player)
    return action


def junk_action(names: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    """Actions of every kind, mostly illegal: wrong turns, bad cells and faces, strangers, odd types."""
    player = st.sampled_from([*names, "Cy", 3, None])
    cell = st.one_of(
        st.lists(st.integers(-6, 6), min_size=2, max_size=2),
        st.sampled_from([None, "E5", [0], [0, 0, 0], [1.5, 0], [True, 0]]),
    )
    face = st.one_of(st.integers(-1, 8), st.sampled_from([None, "3", 2.0, True]))
    return st.one_of(
        st.fixed_dictionaries({"type": st.just("place"), "player": player, "cell": cell, "face": face}),
        st.fixed_dictionaries({"type": st.just("pass"), "player": player}),
        st.fixed_dictionaries(
            {
                "type": st.just("choose_first"),
                "player": player,
                "chosen_by": player,
                "how": st.sampled_from(["race", "loser", "table", "coin"]),
            }
        ),
        st.fixed_dictionaries({"type": st.sampled_from(["roll", "", "PLACE"]), "player": player}),
        st.just({"player": "Ann"}),
    )


@PROPERTY
@given(st.data())
def test_live_score_equals_a_recount_and_covered_dice_stay_covered(data: st.DataObject) -> None:
    state: QuantumLinkState = RULES.setup(Options.for_names("Ann", "Bo"))
    covered: dict[tuple[int, int], tuple[str, int, bool]] = {}
    for _ in range(140):
        if RULES.outcome(state) is not None:
            break
        action = data.draw(legal_action(state))
        for event in RULES.decide(state, action, DICE):
            state = RULES.evolve(state, event)
        view = RULES.public_view(state)
        board = board_of(view)
        assert view["scores"] == {"Ann": 0, "Bo": 0} | recount(board)
        assert [p["score"] for p in view["players"]] == [view["scores"]["Ann"], view["scores"]["Bo"]]
        for cell, die in covered.items():  # a covered die never uncovers, never changes
            assert board[cell] == die
        covered = {cell: die for cell, die in board.items() if die[2]}
        assert sealed_and_wrong(board) == set()  # the covering rule was applied after this action
        for cell, (_, face, is_covered) in board.items():
            entry = next(c["die"] for c in view["cells"] if tuple(c["cell"]) == cell)
            if is_covered:
                assert entry["dead"]
            elif entry["scoring"]:
                assert not entry["dead"]  # a die that scores now can still score
            if not is_covered and entry["friends"] > face:
                assert entry["dead"]
    if RULES.outcome(state) is not None:
        view = RULES.public_view(state)
        for c in view["cells"]:  # at the end every die either scores or is covered
            if c["die"] is not None:
                assert c["die"]["covered"] != c["die"]["scoring"]


def play_to_end(state: QuantumLinkState, data: st.DataObject) -> QuantumLinkState:
    while RULES.outcome(state) is None:
        action = data.draw(legal_action(state))
        for event in RULES.decide(state, action, DICE):
            state = RULES.evolve(state, event)
    return state


@PROPERTY
@given(st.data())
def test_the_result_follows_the_final_recount(data: st.DataObject) -> None:
    state = play_to_end(RULES.setup(Options.for_names("Ann", "Bo")), data)
    totals = {"Ann": 0, "Bo": 0} | recount(board_of(RULES.public_view(state)))
    outcome = RULES.outcome(state)
    assert outcome is not None
    if totals["Ann"] == totals["Bo"]:
        assert outcome.is_tie and outcome.winners == ()
    else:
        assert outcome.winners == (max(totals, key=lambda p: totals[p]),)


@PROPERTY
@given(st.data())
def test_an_illegal_action_changes_nothing(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder) / "games.db") as store:
        session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), dice=DICE, clock=lambda: 0.0)
        for _ in range(data.draw(st.integers(0, 70))):
            if session.outcome is not None:
                break
            session.act(data.draw(legal_action(session.state)))
        for _ in range(5):
            action = data.draw(junk_action(("Ann", "Bo")))
            before = session.state
            moves = len(store.moves(session.game_id))
            try:
                session.act(action)
            except RuleError as refusal:
                assert str(refusal)  # a sentence, not an empty error
                assert session.state == before
                assert len(store.moves(session.game_id)) == moves
                assert Session.load(store, session.game_id).state == before


@PROPERTY
@given(st.data())
def test_replay_of_the_stored_events_equals_the_live_state(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder) / "games.db") as store:
        session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), dice=DICE, clock=lambda: 0.0)
        if data.draw(st.booleans()):
            session.act({"type": "choose_first", "player": "Bo", "chosen_by": "Ann", "how": "race"})
        for _ in range(data.draw(st.integers(0, 140))):
            if session.outcome is not None:
                break
            step = data.draw(st.integers(0, 9))
            if step == 0:
                session.undo()
            elif step == 1:
                session.redo()
            else:
                session.act(data.draw(legal_action(session.state)))
        replayed = Session.load(store, session.game_id)
        assert replayed.state == session.state
        assert replayed.public_view() == session.public_view()
        assert replayed.outcome == session.outcome
