"""Quark's numbers: setup, the actions, the bank, the decks and the turns."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.engine import RegisteredGame, told_first
from companion.game import Event, FirstPlayerChosen, Leave, Options, PlayerLeft, RuleError, SetupError, UnknownEvent
from companion.games import game
from companion.games.quark import rules, views
from companion.games.quark.rules import (
    Annihilate,
    Create,
    Created,
    Decay,
    Decayed,
    DiscardDraw,
    Draw,
    Drew,
    EndTriggered,
    EndTurn,
    Transform,
    preview,
    transformation_cost,
)
from companion.games.quark.state import ANNIHILATION_ENERGY, RANKS, QuarkState
from companion.session import Session
from companion.store import Store

NAMES = ("Ann", "Bo", "Cy", "Dee")
DICE = RandomDice.seeded(0)
GAME: RegisteredGame = game("quark")


def start(players: int = 4, **settings: Any) -> QuarkState:
    state: QuarkState = GAME.setup(Options.for_names(*NAMES[:players], **settings))
    return state


def decide(state: QuarkState, action: dict[str, Any]) -> list[Event]:
    """The events of `action` (a JSON object, as a script or a screen sends it), through the engine."""
    return list(GAME.decide(state, GAME.parse_action(action, state.names), DICE))


def act(state: QuarkState, **action: Any) -> QuarkState:
    for event in decide(state, action):
        state = GAME.evolve(state, event)
    return state


def events(state: QuarkState, **action: Any) -> list[dict[str, Any]]:
    return [GAME.to_json(e) for e in decide(state, action)]


def refused(state: QuarkState, **action: Any) -> str:
    with pytest.raises(RuleError) as error:
        decide(state, action)
    return str(error.value)


def notice(state: QuarkState) -> str:
    return str(GAME.public_view(state)["notice"])


def seat(state: QuarkState, name: str) -> Any:
    return state.seats[state.seat_of(name)]


def with_seat(state: QuarkState, name: str, **changes: int) -> QuarkState:
    """A test position: one player's counts changed, the bank paying for (or taking back) energy and tokens."""
    index = state.seat_of(name)
    old = state.seats[index]
    seats = list(state.seats)
    seats[index] = replace(old, **changes)
    new = seats[index]
    return replace(
        state,
        seats=tuple(seats),
        bank_energy=state.bank_energy - (new.energy - old.energy),
        bank_protons=state.bank_protons - (new.protons - old.protons),
        bank_neutrons=state.bank_neutrons - (new.neutrons - old.neutrons),
    )


def with_deck(state: QuarkState, name: str, **changes: int) -> QuarkState:
    decks = tuple(replace(d, **changes) if d.name == name else d for d in state.decks)
    return replace(state, decks=decks)


def energy(state: QuarkState) -> dict[str, int]:
    return {s.name: s.energy for s in state.seats}


def end_turn(state: QuarkState) -> QuarkState:
    return act(state, type="end_turn", player=state.names[state.current])


# -- setup ------------------------------------------------------------------------


def test_registered_under_its_name() -> None:
    assert game("quark").title == "Quark"
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert GAME.chooses_first


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_counts(players: int) -> None:
    state = start(players)
    assert [s.energy for s in state.seats] == [2] * players
    assert [s.hand for s in state.seats] == [5] * players
    assert state.bank_energy == 80 - 2 * players
    assert (state.bank_protons, state.bank_neutrons) == (16, 20)
    view = GAME.public_view(state)
    assert view["decks"] == {
        "quark": {"deck": 88 + 33 - 5 * players - 3, "row": 3, "discard": 0, "out": 0},
        "baryon": {"deck": 24 - 3, "row": 3, "discard": 0, "out": 0},
        "meson": {"deck": 23 - 3, "row": 3, "discard": 0, "out": 0},
    }
    assert view["current"] == "Ann" and view["actions_left"] == 2


@pytest.mark.parametrize("players", [1, 5])
def test_setup_refuses_other_table_sizes(players: int) -> None:
    with pytest.raises(SetupError, match="2 to 4 players"):
        GAME.setup(Options.for_names(*[f"P{i}" for i in range(players)]))


def test_choose_first_sets_start_player_and_is_refused_after_a_move() -> None:
    state = act(start(3), type="choose_first", player="Cy", chosen_by="Ann", how="table")
    assert GAME.current_player(state) == "Cy"
    assert GAME.public_view(state)["start_player"] == "Cy"
    assert '"how"' in refused(start(3), type="choose_first", player="Bo", chosen_by="Ann", how="coin")
    # Whether play has begun is the session's to know (from its log): choosing again is fine until a move.
    session = Session.start(Store.in_memory(), "quark", Options.for_names(*NAMES[:3]))
    session.act({"type": "choose_first", "player": "Cy", "chosen_by": "Ann", "how": "table"})
    session.act({"type": "choose_first", "player": "Bo", "chosen_by": "Ann", "how": "race"})
    session.act({"type": "decay", "player": "Bo"})
    again = session.parse({"type": "choose_first", "player": "Cy", "chosen_by": "Ann", "how": "race"})
    assert session.refusal(again) == "Who starts can be chosen only before play begins."


# -- turns --------------------------------------------------------------------------


def test_two_actions_then_end_turn() -> None:
    state = act(start(), type="decay", player="Ann")
    state = act(state, type="decay", player="Ann")
    assert "both actions" in refused(state, type="decay", player="Ann")
    state = end_turn(state)
    assert GAME.current_player(state) == "Bo"
    assert state.actions_left == 2
    assert seat(state, "Ann").turns == 1


def test_only_the_current_player_acts() -> None:
    assert refused(start(), type="decay", player="Bo") == "It is Ann's turn, not Bo's."
    assert '"player" must name a player at the table' in refused(start(), type="decay", player="Zed")
    assert '"player"' in refused(start(), type="decay")
    assert "no action" in refused(start(), type="roll", player="Ann")
    assert '"type"' in refused(start(), player="Ann")


def test_play_passes_clockwise_in_seat_order() -> None:
    state = start(4)
    order = []
    for _ in range(8):
        order.append(GAME.current_player(state))
        state = end_turn(state)
    assert order == ["Ann", "Bo", "Cy", "Dee"] * 2


# -- draw, discard one to draw two, decay ---------------------------------------------------


def test_draw_blind_and_face_up() -> None:
    state = start(2)
    deck = state.deck("quark").deck
    blind = act(state, type="draw", player="Ann", **{"from": "blind"})
    assert (blind.deck("quark").deck, blind.deck("quark").row, seat(blind, "Ann").hand) == (deck - 1, 3, 6)
    row = act(state, type="draw", player="Ann", **{"from": "row"})
    # The face-up slot is refilled from the deck at once.
    assert (row.deck("quark").deck, row.deck("quark").row, seat(row, "Ann").hand) == (deck - 1, 3, 6)
    assert '"from"' in refused(state, type="draw", player="Ann", **{"from": "pile"})


def test_draw_when_the_quark_deck_is_empty() -> None:
    state = with_deck(start(2), "quark", deck=0)
    assert "quark deck is empty" in refused(state, type="draw", player="Ann", **{"from": "blind"})
    state = act(state, type="draw", player="Ann", **{"from": "row"})
    assert state.deck("quark").row == 2 and "not refilled" in notice(state)
    state = with_deck(state, "quark", row=0)
    assert "nothing to draw" in refused(state, type="draw", player="Ann", **{"from": "row"})


def test_discard_one_draw_two() -> None:
    state = start(2)
    deck = state.deck("quark").deck
    after = act(state, type="discard_draw", player="Ann", **{"from": ["row", "blind"]})
    assert seat(after, "Ann").hand == 6
    assert after.discard == 1
    assert after.deck("quark").deck == deck - 2 and after.deck("quark").row == 3
    assert after.actions_left == 1
    assert '"from" must be a list of 2' in refused(state, type="discard_draw", player="Ann", **{"from": ["row"]})
    empty_handed = with_seat(state, "Ann", hand=0)
    assert "nothing to discard" in refused(empty_handed, type="discard_draw", player="Ann")


def test_decay_gives_one_energy_and_moves_a_card_out_of_the_hand() -> None:
    state = start(3)
    after = act(state, type="decay", player="Ann")
    assert (seat(after, "Ann").energy, seat(after, "Ann").hand, seat(after, "Ann").decayed) == (3, 4, 1)
    assert after.bank_energy == state.bank_energy - 1


def test_decay_with_an_empty_bank_pays_nothing_and_says_so() -> None:
    state = with_seat(start(2), "Ann", energy=2 + start(2).bank_energy)
    assert state.bank_energy == 0
    after = act(state, type="decay", player="Ann")
    assert seat(after, "Ann").energy == seat(state, "Ann").energy
    assert "energy bank is empty" in GAME.public_view(after)["notice"]
    assert GAME.public_view(after)["bank_empty"] is True


# -- annihilation ---------------------------------------------------------------------------------


def test_annihilation_energy_table() -> None:
    assert dict(ANNIHILATION_ENERGY) == {"up": 2, "down": 3, "strange": 4, "charmed": 5, "bottom": 6, "top": 8}


EXPECTED_SHARE = {
    # players -> (who annihilates, who gets the neighbours' share)
    2: {"Ann": ["Bo"], "Bo": ["Ann"]},
    3: {"Ann": ["Bo", "Cy"], "Bo": ["Cy", "Ann"], "Cy": ["Ann", "Bo"]},
    4: {"Ann": ["Bo", "Dee"], "Bo": ["Cy", "Ann"], "Cy": ["Dee", "Bo"], "Dee": ["Ann", "Cy"]},
}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rank", RANKS)
def test_annihilation_pays_the_player_and_the_neighbours(players: int, rank: str) -> None:
    gains = {"up": 2, "down": 3, "strange": 4, "charmed": 5, "bottom": 6, "top": 8}[rank]
    for actor, sharers in EXPECTED_SHARE[players].items():
        state = start(players)
        while GAME.current_player(state) != actor:
            state = end_turn(state)
        before = energy(state)
        after = act(state, type="annihilate", player=actor, rank=rank)
        expected = dict(before)
        expected[actor] += gains
        for name in sharers:
            expected[name] += 1
        assert energy(after) == expected, (actor, rank)
        assert after.bank_energy == state.bank_energy - gains - len(sharers)
        # The pair goes to the discard pile and one card is drawn blind.
        assert seat(after, actor).hand == seat(state, actor).hand - 1
        assert after.discard == state.discard + 2
        assert after.deck("quark").deck == state.deck("quark").deck - 1


def test_annihilation_ranks_are_named_and_checked() -> None:
    state = start()
    assert "rank" in refused(state, type="annihilate", player="Ann")
    assert "rank" in refused(state, type="annihilate", player="Ann", rank="beauty")
    assert events(state, type="annihilate", player="Ann", rank="TOP")[0]["rank"] == "top"
    assert events(state, type="annihilate", player="Ann", rank="charm")[0]["rank"] == "charmed"


def test_annihilation_may_use_decayed_cards() -> None:
    state = act(start(), type="decay", player="Ann")
    after = act(state, type="annihilate", player="Ann", rank="down", decayed=1)
    assert (seat(after, "Ann").hand, seat(after, "Ann").decayed) == (4, 0)
    assert "decayed card" in refused(state, type="annihilate", player="Ann", rank="down", decayed=2)


def test_annihilation_needs_two_cards_by_the_count() -> None:
    state = with_seat(start(), "Ann", hand=1)
    assert "holds 1 card" in refused(state, type="annihilate", player="Ann", rank="up")


@pytest.mark.parametrize(
    ("bank", "paid"),
    [
        (10, {"Ann": 8, "Bo": 1, "Dee": 1}),
        (9, {"Ann": 8, "Bo": 1, "Dee": 0}),
        (8, {"Ann": 8, "Bo": 0, "Dee": 0}),
        (3, {"Ann": 3, "Bo": 0, "Dee": 0}),
        (0, {"Ann": 0, "Bo": 0, "Dee": 0}),
    ],
)
def test_annihilation_when_the_bank_runs_dry(bank: int, paid: dict[str, int]) -> None:
    full = start(4)
    state = with_seat(full, "Cy", energy=2 + full.bank_energy - bank)
    assert state.bank_energy == bank
    [event] = events(state, type="annihilate", player="Ann", rank="top")
    assert event["paid"] == paid
    assert event["short"] == 10 - bank
    after = act(state, type="annihilate", player="Ann", rank="top")
    assert after.bank_energy == 0
    for name, amount in paid.items():
        assert seat(after, name).energy == seat(state, name).energy + amount
    view = GAME.public_view(after)
    if bank < 10:
        assert "ran dry" in view["notice"]
    assert view["bank_empty"] is True


def test_annihilation_with_an_empty_quark_deck_draws_nothing() -> None:
    state = with_deck(start(2), "quark", deck=0)
    after = act(state, type="annihilate", player="Ann", rank="up")
    assert seat(after, "Ann").hand == 3
    assert "draws no card" in notice(after)


# -- creation and transformation ---------------------------------------------------------------------


def test_transformation_costs_one_energy_per_step_up() -> None:
    for low, source in enumerate(RANKS):
        for high, target in enumerate(RANKS):
            if high > low:
                assert transformation_cost(source, target) == high - low
            else:
                with pytest.raises(RuleError, match="up the ladder only"):
                    transformation_cost(source, target)
    # The rules' own examples.
    assert transformation_cost("up", "down") == 1
    assert transformation_cost("down", "charmed") == 2


def test_a_proton_from_three_ups_paying_one_energy() -> None:
    state = start(2)
    after = act(state, type="create", player="Ann", particle="proton", transform={"from": "up", "to": "down"})
    ann = seat(after, "Ann")
    assert (ann.protons, ann.energy, ann.hand) == (1, 1, 2)
    assert after.bank_protons == 15
    assert after.bank_energy == state.bank_energy + 1
    assert after.discard == 3


def test_transformation_cost_is_paid_to_the_bank_for_any_particle() -> None:
    state = with_seat(start(2), "Ann", energy=5)
    after = act(
        state, type="create", player="Ann", particle="baryon", points=7, transform={"from": "down", "to": "charmed"}
    )
    assert seat(after, "Ann").energy == 3
    assert seat(after, "Ann").particle_points == 7
    assert after.bank_energy == state.bank_energy + 2


def test_transformation_refused_when_the_player_cannot_pay() -> None:
    state = with_seat(start(2), "Ann", energy=1)
    sentence = refused(
        state, type="create", player="Ann", particle="meson", points=3, transform={"from": "up", "to": "strange"}
    )
    assert sentence == "Ann has 1 energy; turning UP into STRANGE costs 2 (2 steps up): 1 more energy needed."
    poor = with_seat(start(2), "Ann", energy=0)
    sentence = refused(poor, type="create", player="Ann", particle="neutron", transform={"from": "up", "to": "down"})
    assert "0 energy" in sentence and "1 more energy needed" in sentence


def test_transformation_refused_downward_or_out_of_place() -> None:
    state = start(2)
    down = refused(
        state, type="create", player="Ann", particle="meson", points=2, transform={"from": "top", "to": "up"}
    )
    assert "up the ladder only" in down
    alien = refused(state, type="create", player="Ann", particle="proton", transform={"from": "up", "to": "top"})
    assert "does not belong" in alien
    assert "transform" in refused(state, type="create", player="Ann", particle="proton", transform=["up", "down"])


def test_preview_shows_the_cost_before_confirming() -> None:
    action = {
        "type": "create",
        "player": "Ann",
        "particle": "meson",
        "points": 4,
        "transform": {"from": "up", "to": "top"},
    }
    typed = GAME.parse_action(action, NAMES[:2])
    rich = with_seat(start(2), "Ann", energy=5)
    [created] = preview(rich, typed)
    assert views.describe(created) == "Ann creates a meson worth 4 points, turning UP into TOP for 5 energy."
    poor = with_seat(start(2), "Ann", energy=4)
    with pytest.raises(RuleError, match=r"4 energy; turning UP into TOP costs 5 \(5 steps up\): 1 more energy needed"):
        preview(poor, typed)


def test_baryon_and_meson_come_from_the_row_and_are_refilled() -> None:
    state = start(3)
    after = act(state, type="create", player="Ann", particle="baryon", points=12)
    assert seat(after, "Ann").particle_points == 12 and seat(after, "Ann").particles == 1
    assert after.deck("baryon").deck == 20 and after.deck("baryon").row == 3
    after = act(after, type="create", player="Ann", particle="meson", points=5)
    assert seat(after, "Ann").particle_points == 17
    assert after.deck("meson").deck == 19
    assert seat(after, "Ann").hand == 0  # 3 + 2 cards used
    assert '"points"' in refused(state, type="create", player="Ann", particle="meson")
    assert '"points"' in refused(state, type="create", player="Ann", particle="meson", points=-1)
    assert "no points" in refused(state, type="create", player="Ann", particle="proton", points=3)
    assert "particle" in refused(state, type="create", player="Ann", particle="atom")


def test_no_face_up_particle_left() -> None:
    state = with_deck(with_deck(start(2), "meson", deck=0, row=0), "baryon", deck=0)
    assert "no face-up meson" in refused(state, type="create", player="Ann", particle="meson", points=1)
    after = act(state, type="create", player="Ann", particle="baryon", points=1)
    assert after.deck("baryon").row == 2 and "not refilled" in notice(after)


@pytest.mark.parametrize(("particle", "supply"), [("proton", 16), ("neutron", 20)])
def test_supply_exhaustion(particle: str, supply: int) -> None:
    state = start(2)
    for made in range(1, supply + 1):
        player = state.names[state.current]
        state = act(state, type="count_hand", player=player, cards=3)
        state = act(state, type="create", player=player, particle=particle)
        assert getattr(state, f"bank_{particle}s") == supply - made
        state = end_turn(state)
    assert state.end is None  # protons alone (or neutrons alone) build no atom
    assert sum(getattr(s, f"{particle}s") for s in state.seats) == supply
    player = state.names[state.current]
    state = act(state, type="count_hand", player=player, cards=3)
    assert refused(state, type="create", player=player, particle=particle) == (
        f"The {particle} supply is empty: all {supply} {particle}s have been created."
    )


def test_creation_needs_the_cards_by_the_count() -> None:
    state = with_seat(start(2), "Ann", hand=2)
    assert "needs 3 from the hand" in refused(state, type="create", player="Ann", particle="proton")
    state = act(state, type="decay", player="Ann")  # hand 1, decayed 1
    assert "needs 2 from the hand" in refused(state, type="create", player="Ann", particle="meson", points=1)
    after = act(state, type="create", player="Ann", particle="meson", points=1, decayed=1)
    assert (seat(after, "Ann").hand, seat(after, "Ann").decayed) == (0, 0)


# -- hand limit -----------------------------------------------------------------------------------------


def test_hand_limit_reminder_and_discard_at_the_end_of_the_turn() -> None:
    state = act(start(2), type="discard_draw", player="Ann")
    state = act(state, type="discard_draw", player="Ann")
    assert seat(state, "Ann").hand == 7
    assert GAME.public_view(state)["reminder"] == ""
    state = act(state, type="count_hand", player="Ann", cards=9)
    assert GAME.public_view(state)["reminder"] == "Ann holds 9 cards: discard 2 down to 7 at the end of the turn."
    [event] = events(state, type="end_turn", player="Ann")
    assert event["discarded"] == 2
    after = act(state, type="end_turn", player="Ann")
    assert seat(after, "Ann").hand == 7
    assert after.discard == state.discard + 2
    assert "discarded 2 down to 7" in notice(after)


def test_end_turn_takes_the_hand_count_the_player_gives() -> None:
    state = start(2)
    after = act(state, type="end_turn", player="Ann", hand=8)
    assert seat(after, "Ann").hand == 7 and after.discard == 1
    same = act(state, type="end_turn", player="Ann", hand=4)
    assert seat(same, "Ann").hand == 4
    assert '"hand"' in refused(state, type="end_turn", player="Ann", hand="six")


# -- the end ---------------------------------------------------------------------------------------------


def play_until_over(state: QuarkState) -> list[str]:
    """End turns until the game is over; return whose turns those were."""
    played = []
    for _ in range(20):
        if state.over:
            return played
        played.append(state.names[state.current])
        state = end_turn(state)
    raise AssertionError("the game did not end")


def trigger_by_deck(state: QuarkState) -> QuarkState:
    state = with_deck(state, "quark", deck=1)
    return act(state, type="draw", player=state.names[state.current])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_equal_turns_from_every_seat_and_every_start_player(players: int) -> None:
    for first in range(players):
        for trigger in range(players):
            state = start(players)
            state = act(state, type="choose_first", player=NAMES[first], chosen_by="Ann", how="table")
            # One full round, then on to the trigger seat.
            for _ in range(players):
                state = end_turn(state)
            while state.names[state.current] != NAMES[trigger]:
                state = end_turn(state)
            state = trigger_by_deck(state)
            assert state.end is not None and not state.over
            left = GAME.public_view(state)["end"]["turns_left"]
            assert left[0] == NAMES[trigger]
            played = [*play_until_over(state)]
            assert played == left
            # Everyone has had the same number of turns, and play stopped before the start player.
            final = state
            for _ in played:
                final = end_turn(final)
            assert final.over
            assert len({s.turns for s in final.seats}) == 1, (first, trigger)
            assert final.current == first
            assert GAME.current_player(final) is None


def test_the_trigger_in_the_last_seat_ends_at_the_end_of_that_turn() -> None:
    state = start(3)
    state = end_turn(end_turn(state))
    state = trigger_by_deck(state)
    view = GAME.public_view(state)
    assert view["end"]["turns_left"] == ["Cy"]
    assert "last turn" in view["end"]["sentence"]
    state = act(state, type="decay", player="Cy")  # the turn goes on after the trigger
    assert not state.over
    state = end_turn(state)
    assert state.over and GAME.outcome(state) is not None
    assert "over" in refused(state, type="decay", player="Ann")


def test_the_last_card_of_any_deck_triggers_the_end() -> None:
    state = with_deck(start(2), "quark", deck=1)
    [_, trigger] = events(state, type="draw", player="Ann", **{"from": "row"})
    assert trigger["cause"] == "deck" and trigger["deck"] == "quark"
    [_, trigger] = events(state, type="annihilate", player="Ann", rank="up")
    assert trigger["deck"] == "quark"
    for deck in ("baryon", "meson"):
        state = with_deck(start(2), deck, deck=1)
        [_, trigger] = events(state, type="create", player="Ann", particle=deck, points=3)
        assert trigger == {"type": "end_triggered", "by": "Ann", "cause": "deck", "deck": deck}
        # The event carries the facts; the table's sentence is made from them.
        sentence = views.describe(GAME.event_from_json(trigger))
        assert sentence == f"The last card of the {deck} deck was drawn: the end is triggered."
    # Discard one, draw two: the second draw takes the last card.
    state = with_deck(start(2), "quark", deck=2)
    assert events(state, type="discard_draw", player="Ann")[-1]["type"] == "end_triggered"
    assert len(events(with_deck(start(2), "quark", deck=3), type="discard_draw", player="Ann")) == 1


@pytest.mark.parametrize(
    ("players", "atom", "protons", "neutrons", "electrons"),
    [(2, "Beryllium", 4, 5, 4), (3, "Beryllium", 4, 5, 4), (4, "Lithium", 3, 4, 3)],
)
def test_creating_the_end_atom_triggers_the_end(
    players: int, atom: str, protons: int, neutrons: int, electrons: int
) -> None:
    state = with_seat(start(players), "Ann", protons=protons, neutrons=neutrons - 1, energy=electrons)
    [created, trigger] = events(state, type="create", player="Ann", particle="neutron")
    assert created["type"] == "created"
    assert trigger["cause"] == "atom" and trigger["atom"] == atom
    # Short of an electron: no trigger until the energy is there.
    poor = with_seat(state, "Ann", energy=electrons - 1)
    assert len(events(poor, type="create", player="Ann", particle="neutron")) == 1
    after = act(poor, type="create", player="Ann", particle="neutron")
    [_, trigger] = events(after, type="decay", player="Ann")
    assert trigger["atom"] == atom


def test_lithium_does_not_end_a_smaller_game() -> None:
    state = with_seat(start(3), "Ann", protons=3, neutrons=3, energy=3)
    assert len(events(state, type="create", player="Ann", particle="neutron")) == 1


def test_the_end_atom_is_noticed_at_the_end_of_the_turn() -> None:
    # Energy from a neighbour's annihilation completes it; the player's own turn end triggers the end.
    state = with_seat(start(4), "Bo", protons=3, neutrons=4, energy=2)
    state = act(state, type="annihilate", player="Ann", rank="up")
    assert state.end is None and seat(state, "Bo").energy == 3
    state = end_turn(state)
    evs = events(state, type="end_turn", player="Bo")
    assert [e["type"] for e in evs] == ["end_triggered", "turn_ended"]
    state = act(state, type="end_turn", player="Bo")
    assert GAME.public_view(state)["end"]["turns_left"] == ["Cy", "Dee"]


def test_a_second_trigger_changes_nothing() -> None:
    state = trigger_by_deck(start(2))
    state = with_deck(state, "meson", deck=1)
    assert [e["type"] for e in events(state, type="create", player="Ann", particle="meson", points=1)] == ["created"]


def test_count_hand_is_free_and_for_anyone() -> None:
    state = act(start(2), type="count_hand", player="Bo", cards=6)
    assert seat(state, "Bo").hand == 6 and state.actions_left == 2
    assert '"cards"' in refused(state, type="count_hand", player="Bo", cards=-1)
    assert '"cards"' in refused(state, type="count_hand", player="Bo", cards=True)


# -- what can be done now -----------------------------------------------------------------------------


def test_legal_actions_spell_out_the_current_players_choices() -> None:
    state = start(2)
    legal = GAME.legal_actions(state, "Ann")
    assert Draw("Ann", "blind") in legal and Draw("Ann", "row") in legal
    assert [a for a in legal if isinstance(a, DiscardDraw)] == [
        DiscardDraw("Ann", pair) for pair in (("blind", "blind"), ("blind", "row"), ("row", "blind"), ("row", "row"))
    ]
    assert Decay("Ann") in legal
    assert [a for a in legal if isinstance(a, Annihilate)] == [Annihilate("Ann", rank) for rank in RANKS]
    # Protons and neutrons are listed (with the one upward turn that fits them); a baryon's or
    # meson's printed points are typed in, so those are asked with `refusal`, not listed.
    creations = [a for a in legal if isinstance(a, Create)]
    assert Create("Ann", "proton") in creations
    assert Create("Ann", "neutron", transform=Transform("up", "down")) in creations
    assert {a.particle for a in creations} == {"proton", "neutron"}
    assert legal[-1] == EndTurn("Ann")
    assert all(GAME.refusal(state, action) is None for action in legal)
    assert GAME.legal_actions(state, "Bo") == []


def test_legal_actions_follow_the_cards_the_bank_and_the_turn() -> None:
    state = act(start(2), type="decay", player="Ann")
    legal = GAME.legal_actions(state, "Ann")
    assert Annihilate("Ann", "top", decayed=1) in legal and Annihilate("Ann", "top", decayed=2) not in legal
    empty = with_deck(start(2), "quark", deck=0)
    assert Draw("Ann", "blind") not in GAME.legal_actions(empty, "Ann")
    assert Draw("Ann", "row") in GAME.legal_actions(empty, "Ann")
    poor = with_seat(start(2), "Ann", energy=0)
    assert Create("Ann", "proton", transform=Transform("up", "down")) not in GAME.legal_actions(poor, "Ann")
    both = act(state, type="decay", player="Ann")
    assert GAME.legal_actions(both, "Ann") == [EndTurn("Ann")]
    assert GAME.legal_actions(replace(state, over=True), "Ann") == []


def test_the_notice_is_made_from_the_facts_of_the_last_action() -> None:
    full = start(3)
    state = with_seat(full, "Cy", energy=2 + full.bank_energy - 9)
    after = act(state, type="annihilate", player="Ann", rank="top")
    assert (
        notice(after)
        == "The energy bank ran dry: payments stopped at what was left (Ann 8 of 8, Bo 1 of 1, Cy 0 of 1)."
    )
    assert after.last is not None
    assert GAME.to_json(after.last) == {
        "type": "annihilated",
        "player": "Ann",
        "rank": "top",
        "decayed": 0,
        "paid": {"Ann": 8, "Bo": 1, "Cy": 0},
        "short": 1,
        "drew": True,
    }
    # A hand count changes no notice; the next action replaces it.
    assert notice(act(after, type="count_hand", player="Bo", cards=4)) == notice(after)
    assert (
        notice(act(after, type="decay", player="Ann"))
        == "The energy bank is empty: Ann's decay releases no energy token."
    )


def test_every_event_reads_as_a_sentence() -> None:
    state = with_seat(start(4), "Ann", protons=3, neutrons=3, energy=3)
    created, trigger = decide(state, {"type": "create", "player": "Ann", "particle": "neutron"})
    assert views.describe(created) == "Ann creates a neutron."
    assert isinstance(trigger, EndTriggered)
    assert views.describe(trigger, state.atoms) == (
        "Ann created Lithium (3 protons, 4 neutrons, 3 energy as electrons): the end is triggered."
    )
    [ended] = decide(state, {"type": "end_turn", "player": "Ann"})
    assert views.describe(ended) == "Ann ends the turn with 5 cards; Bo is next."
    [drew] = decide(state, {"type": "discard_draw", "player": "Ann", "from": ["row", "blind"]})
    assert views.describe(drew) == "Ann discards one card and draws two (row and blind)."


# -- evolve never fails on a stored event, and the table reads every event ------------------------


class Stray(Event):
    """An event no game makes: what a programming error would hand a game."""

    type = "stray"


def test_a_stored_event_the_counts_cannot_carry_out_changes_only_what_it_can() -> None:
    """RULINGS: "Every card of the game stays counted"; evolve "never fails on an event decide made;
    amounts never go below zero", even where a file's counts and its events disagree."""
    state = with_seat(start(2), "Ann", hand=0)
    decayed = GAME.evolve(state, Decayed("Ann", energy=1))
    assert (seat(decayed, "Ann").hand, seat(decayed, "Ann").decayed) == (0, 0)  # no card to decay
    assert seat(decayed, "Ann").energy == seat(state, "Ann").energy + 1  # the bank's token was still paid
    emptied = with_deck(state, "quark", deck=0)
    assert seat(GAME.evolve(emptied, Drew("Ann", "blind")), "Ann").hand == 0  # no card to draw
    no_row = with_deck(state, "baryon", row=0)
    created = GAME.evolve(no_row, Created("Ann", "baryon", points=3, decayed=0, transform=None))
    assert (seat(created, "Ann").baryons, seat(created, "Ann").particle_points) == (0, 0)  # no card to take
    no_protons = replace(state, bank_protons=0)
    proton = GAME.evolve(no_protons, Created("Ann", "proton", points=0, decayed=0, transform=None))
    assert (seat(proton, "Ann").protons, proton.bank_protons) == (0, 0)  # no token to take


def test_the_only_player_left_is_told_they_win() -> None:
    """RULINGS: "Whenever one player remains, that player wins"; the log says so when the last but one leaves."""
    state = act(start(3), type="leave", player="Ann")
    state = GAME.evolve(state, PlayerLeft("Bo"))
    told = GAME.tell(PlayerLeft("Bo"), state)
    assert told.endswith(" Cy is the only player left and wins!")


def test_who_starts_is_told_how_they_were_chosen_in_the_log_and_in_a_preview() -> None:
    """The words every game uses for ChooseFirst, in the log (tell) and on the screen's preview (describe)."""
    chosen = FirstPlayerChosen("Cy", "Ann", "table")
    assert views.describe(chosen) == views.tell(chosen, start(3)) == told_first(chosen)


def test_an_end_atom_the_table_does_not_know_is_named_without_numbers() -> None:
    """ "A player creates Lithium": read with another table's atoms, the end names the atom as created."""
    trigger = EndTriggered("Ann", "atom", atom="Carbon")
    assert views.end_sentence(trigger) == "Ann created Carbon"


def test_the_rules_module_named_directly_refuses_what_the_engine_keeps_from_it() -> None:
    """The engine answers `leave` and `player_left` itself; the rules module handed them says it has none,
    and the table reads nothing for an event Quark never makes."""
    with pytest.raises(RuleError, match=r"^Quark has no action 'leave'\.$"):
        rules.decide(start(2), Leave("Ann"), DICE)
    with pytest.raises(UnknownEvent, match=r"^Quark does not know the event PlayerLeft"):
        rules.evolve(start(2), PlayerLeft("Ann"))
    assert views.describe(Stray()) == ""
