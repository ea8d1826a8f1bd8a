"""Quark's invariants under any sequence of actions, legal or not.

Energy and tokens are conserved (bank + players = the start totals), no count
goes negative, a refused action changes nothing, and folding the stored
events again gives the live state.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import RandomDice
from companion.engine import RegisteredGame
from companion.game import Event, Options, RuleError
from companion.games import game
from companion.games.quark.state import (
    CARDS_IN,
    DECKS,
    ENERGY_TOKENS,
    NEUTRON_TOKENS,
    PLAYER_COUNTERS,
    PROTON_TOKENS,
    RANKS,
    ROW,
    TABLE_COUNTERS,
    QuarkState,
)
from companion.session import Session
from companion.store import Store

NAMES = ("Ann", "Bo", "Cy", "Dee")
DICE = RandomDice.seeded(0)
GAME: RegisteredGame = game("quark")


def decide(state: QuarkState, action: Any) -> list[Event]:
    """`action` as a screen or script sends it (any JSON at all): read at the edge, then decided by the engine."""
    return list(GAME.decide(state, GAME.parse_action(action, state.names), DICE))


junk = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 200), st.text(max_size=4), st.lists(st.integers(), max_size=3)
)
who = st.one_of(st.sampled_from(NAMES), st.sampled_from(["Zed", ""]), junk)
rank = st.one_of(st.sampled_from(RANKS), junk)
source = st.one_of(st.sampled_from(["blind", "row"]), junk)


def _drop_none(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


actions = st.one_of(
    st.builds(lambda p, s: _drop_none(type="draw", player=p, **{"from": s}), who, st.one_of(st.none(), source)),
    st.builds(
        lambda p, s: _drop_none(type="discard_draw", player=p, **{"from": s}),
        who,
        st.one_of(st.none(), st.lists(source, min_size=0, max_size=3)),
    ),
    st.builds(lambda p: {"type": "decay", "player": p}, who),
    st.builds(
        lambda p, r, d: _drop_none(type="annihilate", player=p, rank=r, decayed=d),
        who,
        rank,
        st.one_of(st.none(), st.integers(-1, 3)),
    ),
    st.builds(
        lambda p, kind, points, t, d: _drop_none(
            type="create", player=p, particle=kind, points=points, transform=t, decayed=d
        ),
        who,
        st.one_of(st.sampled_from(["baryon", "meson", "proton", "neutron"]), junk),
        st.one_of(st.none(), st.integers(-2, 120), junk),
        st.one_of(st.none(), st.fixed_dictionaries({"from": rank, "to": rank}), junk),
        st.one_of(st.none(), st.integers(-1, 4)),
    ),
    st.builds(
        lambda p, h: _drop_none(type="end_turn", player=p, hand=h), who, st.one_of(st.none(), st.integers(-1, 12))
    ),
    st.builds(lambda p, c: {"type": "count_hand", "player": p, "cards": c}, who, st.one_of(st.integers(-1, 12), junk)),
    st.builds(
        lambda c, v, p: _drop_none(type="correct", counter=c, value=v, player=p),
        st.one_of(st.sampled_from(PLAYER_COUNTERS + TABLE_COUNTERS), junk),
        st.one_of(st.integers(-1, 130), junk),
        st.one_of(st.none(), who),
    ),
    st.builds(
        lambda p, b, h: {"type": "choose_first", "player": p, "chosen_by": b, "how": h},
        who,
        who,
        st.sampled_from(["race", "loser", "table", "coin"]),
    ),
    st.builds(lambda p: {"type": "leave", "player": p}, who),
    st.dictionaries(st.sampled_from(["type", "player", "rank"]), junk, max_size=3),
)


@st.composite
def positions(draw: st.DrawFn) -> QuarkState:
    """A fresh game, maybe with energy and tokens already moved from the bank to players (so it can run dry)."""
    players = draw(st.integers(2, 4))
    state: QuarkState = GAME.setup(Options.for_names(*NAMES[:players]))
    seats = list(state.seats)
    bank = {"energy": state.bank_energy, "protons": state.bank_protons, "neutrons": state.bank_neutrons}
    for kind in bank:
        for i in range(players):
            given_out = draw(st.integers(0, bank[kind]))
            seats[i] = replace(seats[i], **{kind: getattr(seats[i], kind) + given_out})
            bank[kind] -= given_out
    # Cards off a deck went somewhere on the table: onto its discard pile (every card stays counted).
    kept = [draw(st.integers(0, d.deck)) for d in state.decks]
    decks = tuple(replace(d, deck=k, discard=d.deck - k) for d, k in zip(state.decks, kept, strict=True))
    return replace(
        state,
        seats=tuple(seats),
        decks=decks,
        bank_energy=bank["energy"],
        bank_protons=bank["protons"],
        bank_neutrons=bank["neutrons"],
    )


def check_counts(state: QuarkState) -> None:
    assert state.bank_energy + sum(s.energy for s in state.seats) == ENERGY_TOKENS
    assert state.bank_protons + sum(s.protons for s in state.seats) == PROTON_TOKENS
    assert state.bank_neutrons + sum(s.neutrons for s in state.seats) == NEUTRON_TOKENS
    assert min(state.bank_energy, state.bank_protons, state.bank_neutrons, state.discard) >= 0
    for seat in state.seats:
        assert min(seat.energy, seat.protons, seat.neutrons, seat.hand, seat.decayed, seat.particle_points) >= 0
    for deck in state.decks:
        assert deck.deck >= 0 and 0 <= deck.row <= ROW
    assert 0 <= state.actions_left <= 2
    # RULINGS: "deck + rows + hands + decayed + discard + particles + out of the game is always the game's total".
    assert {name: state.cards_counted(name) for name in DECKS} == CARDS_IN
    for deck in state.decks:
        assert min(deck.discard, deck.out) >= 0


@settings(max_examples=150, deadline=None)
@given(positions(), st.lists(actions, max_size=60))
def test_energy_and_tokens_are_conserved_and_nothing_goes_negative(state: QuarkState, script: list[Any]) -> None:
    check_counts(state)
    for action in script:
        before = state
        try:
            events = decide(state, action)
        except RuleError as refusal:
            assert str(refusal)  # a sentence, never empty
            assert state == before  # refused: nothing changed
            continue
        for event in events:
            state = GAME.evolve(state, event)
            check_counts(state)
        json.dumps(GAME.public_view(state))  # views stay JSON


def legal_moves(state: QuarkState) -> list[dict[str, Any]]:
    """A handful of actions the current player could try (some will still be refused)."""
    player = GAME.current_player(state)
    if player is None:
        return []
    return [
        {"type": "draw", "player": player, "from": "blind"},
        {"type": "draw", "player": player, "from": "row"},
        {"type": "discard_draw", "player": player, "from": ["row", "blind"]},
        {"type": "decay", "player": player},
        {"type": "annihilate", "player": player, "rank": "top"},
        {"type": "annihilate", "player": player, "rank": "up", "decayed": 1},
        {"type": "create", "player": player, "particle": "proton", "transform": {"from": "up", "to": "down"}},
        {"type": "create", "player": player, "particle": "neutron"},
        {"type": "create", "player": player, "particle": "baryon", "points": 9},
        {
            "type": "create",
            "player": player,
            "particle": "meson",
            "points": 4,
            "transform": {"from": "up", "to": "top"},
        },
        {"type": "end_turn", "player": player},
        {"type": "end_turn", "player": player, "hand": 9},
        {"type": "count_hand", "player": player, "cards": 6},
        {"type": "correct", "player": player, "counter": "energy", "value": 4},
        {"type": "correct", "counter": "quark_deck", "value": 20},
    ]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.lists(st.tuples(st.integers(0, 14), st.booleans()), max_size=80))
def test_replay_of_the_stored_events_equals_the_live_state(players: int, script: list[tuple[int, bool]]) -> None:
    store = Store.in_memory()
    session = Session.start(store, "quark", Options.for_names(*NAMES[:players]), dice=RandomDice.seeded(1))
    for choice, take_back in script:
        moves = legal_moves(session.state)
        if not moves:
            break
        try:
            session.act(moves[choice % len(moves)])
        except RuleError:
            continue
        if take_back and choice % 5 == 0:
            session.undo()
        check_counts(session.state)
    again = Session.load(store, session.game_id)
    assert again.state == session.state
    assert again.public_view() == session.public_view()


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4), st.lists(st.integers(0, 12), min_size=1, max_size=400))
def test_games_end_with_equal_turns(players: int, choices: list[int]) -> None:
    """Whatever is played, once the game is over every player has had the same number of turns."""
    state: QuarkState = GAME.setup(Options.for_names(*NAMES[:players]))
    state = replace(state, decks=tuple(replace(d, deck=min(d.deck, 12)) for d in state.decks))
    for choice in choices * 10:
        moves = legal_moves(state)
        if not moves:
            break
        try:
            events = decide(state, moves[choice % len(moves)])
        except RuleError:
            events = decide(state, {"type": "end_turn", "player": GAME.current_player(state)})
        for event in events:
            state = GAME.evolve(state, event)
    if state.over:
        assert len({s.turns for s in state.seats}) == 1
        assert GAME.outcome(state) is not None
