"""Quintet under random play: invariants, illegal actions, undo and replay never break it."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.dice import RandomDice
from companion.game import Action, Options, RuleError
from companion.games import game
from companion.games.quintet.rules import CIRCLE, OPENING, OVER, PHASES, QuintetState
from companion.session import Session
from companion.store import Store

NAMES = ("Ann", "Bo", "Cy", "Dee", "Eve")
STRANGERS = ("Zed", "", 7, None)
QUINTET = game("quintet")


def check_invariants(state: QuintetState) -> None:
    """What must hold after any sequence of actions, legal or not."""
    assert state.phase in PHASES
    assert all(0 <= n <= 2 for n in state.tokens), state.tokens
    still_in = {p for p, n in zip(state.seats, state.tokens, strict=True) if n > 0}
    if state.phase in (OPENING, CIRCLE):
        assert state.circle == ()
        assert set(state.tokens) == {2}
    else:
        # The circle holds exactly the players still in, each once.
        assert len(state.circle) == len(set(state.circle))
        assert set(state.circle) == still_in
    current = QUINTET.current_player(state)
    if state.phase == OVER:
        assert current is None
        assert len(still_in) == 1
        assert QUINTET.outcome(state).winners == (state.winner,)
        assert state.winner in still_in
    else:
        # Exactly one current player, who is still in.
        assert isinstance(current, str)
        assert current in still_in
        assert QUINTET.outcome(state) is None
        assert len(still_in) >= 2
    assert set(state.out) == set(state.seats) - still_in
    for pair in state.alliances:
        assert pair.left > 0
        assert state.prey_of(pair.by) == pair.of


def check_legal_actions(session: Session) -> None:
    """Every action listed as legal for anyone is one the rules take."""
    for player in session.options.names:
        for action in session.legal_actions(player):
            assert session.refusal(action) is None, f"{action} is listed for {player} but refused"


def sensible_actions(session: Session) -> list[dict[str, Any] | Action]:
    """Actions a table would likely take now (most are legal)."""
    view = session.public_view()
    state: QuintetState = session.state
    actions: list[dict[str, Any] | Action] = [{"type": "roll"}]
    actions.extend(a for p in state.seats for a in session.legal_actions(p))
    if state.phase == CIRCLE:
        actions.append({"type": "set_circle", "order": list(reversed(state.seats))})
    actions.extend(dict(c) for c in view["captures"])
    if state.alliances:
        actions.append({"type": "no_alliance_captures"})
    if state.dice is not None:
        actions.append({"type": "end_turn"})
        if state.safety_offer:
            actions.append({"type": "safety", "tokens": state.safety_offer})
    return actions


players = st.sampled_from(NAMES + STRANGERS)
wild_actions = st.one_of(
    st.builds(lambda p: {"type": "roll", "player": p}, players),
    st.builds(lambda o: {"type": "set_circle", "order": o}, st.lists(players, max_size=6)),
    st.builds(
        lambda b, o, r: {"type": "capture", "by": b, "of": o, "rule": r},
        players,
        players,
        st.sampled_from(["order", "rule7", "rule8", None, "x"]),
    ),
    st.builds(lambda b, o: {"type": "alliance_capture", "by": b, "of": o}, players, players),
    st.builds(lambda p, t: {"type": "safety", "player": p, "tokens": t}, players, st.sampled_from([0, 1, 2, 3, "2"])),
    st.builds(lambda p: {"type": "end_turn", "player": p}, players),
    st.just({"type": "no_alliance_captures"}),
    st.just({"type": "dance"}),
    st.just({}),
    st.just({"type": None}),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
    data=st.data(),
)
def test_any_sequence_of_actions_keeps_the_invariants(seats, seed, data):
    store = Store.in_memory()
    session = Session.start(store, "quintet", Options.for_names(*NAMES[:seats]), dice=RandomDice.seeded(seed))
    check_invariants(session.state)
    for _ in range(data.draw(st.integers(min_value=10, max_value=160), label="length")):
        choice = data.draw(st.sampled_from(["sensible"] * 6 + ["wild", "undo", "redo"]), label="kind")
        if choice == "undo":
            session.undo()
        elif choice == "redo":
            session.redo()
        else:
            if choice == "sensible":
                action = data.draw(st.sampled_from(sensible_actions(session)), label="action")
            else:
                action = data.draw(wild_actions, label="action")
            before = session.state
            moves = len(session.moves)
            try:
                session.act(action)
            except RuleError as refusal:
                # An illegal action changes nothing and says why in words.
                assert session.state == before
                assert len(session.moves) == moves
                assert str(refusal).strip()
        check_invariants(session.state)
        check_legal_actions(session)
    event(f"players out: {len(session.state.out)}; phase: {session.state.phase}")
    # Folding the stored events again gives the very state we played to.
    assert Session.load(store, session.game_id).state == session.state


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000), data=st.data())
def test_undo_never_rerolls(seed, data):
    store = Store.in_memory()
    session = Session.start(store, "quintet", Options.for_names(*NAMES[:3]), dice=RandomDice.seeded(seed))
    for _ in range(data.draw(st.integers(min_value=1, max_value=20))):
        with contextlib.suppress(RuleError):
            session.act(data.draw(st.sampled_from(sensible_actions(session))))
    state: QuintetState = session.state
    if state.phase == OVER:
        return
    if state.phase == CIRCLE:
        session.act({"type": "set_circle", "order": list(state.seats)})
    if state.alliances:
        session.act({"type": "no_alliance_captures"})
    session.act({"type": "roll"})
    rolled = [e.dice for e in session.moves[-1].events if hasattr(e, "dice")]
    assert rolled
    session.undo()
    session.act({"type": "roll"})
    assert [e.dice for e in session.moves[-1].events if hasattr(e, "dice")] == rolled
    session.undo()
    session.redo()
    assert [e.dice for e in session.moves[-1].events if hasattr(e, "dice")] == rolled


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_random_whole_games_end_with_one_player_standing(seats):
    # A table that only ever records the captures the circle allows always finishes the game.
    store = Store.in_memory()
    session = Session.start(store, "quintet", Options.for_names(*NAMES[:seats]), dice=RandomDice.seeded(seats))
    for step in range(2000):
        if session.outcome is not None:
            break
        view = session.public_view()
        state: QuintetState = session.state
        if state.phase == CIRCLE:
            session.act({"type": "set_circle", "order": list(state.seats)})
        elif view["captures"] and step % 3:
            session.act(view["captures"][step % len(view["captures"])])
        elif state.alliances:
            session.act({"type": "no_alliance_captures"})
        else:
            session.act({"type": "roll"})
        check_invariants(session.state)
        check_legal_actions(session)
    outcome = session.outcome
    assert outcome is not None
    assert len(session.state.out) == seats - 1
    assert store.game(session.game_id).outcome == outcome.to_stored()
