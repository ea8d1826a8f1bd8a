"""Corrections in Quark: any counter set to what the table says, the totals kept, undo takes it back.

Issue 14: "A 'correct' action sets any counter of any player: energy, protons,
neutrons, particle points, hand, and the deck counts and rows. It draws from
and returns to the bank, so the totals stay conserved; where that is
impossible it refuses with a sentence."
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import RandomDice
from companion.engine import RegisteredGame
from companion.game import Event, Options, RuleError
from companion.games import game
from companion.games.quark import views
from companion.games.quark.rules import Correct, Corrected, CountHand
from companion.games.quark.state import (
    BARYON_CARDS,
    ENERGY_TOKENS,
    MESON_CARDS,
    NEUTRON_TOKENS,
    PLAYER_COUNTERS,
    PROTON_TOKENS,
    QUARK_CARDS,
    ROW,
    TABLE_COUNTERS,
    QuarkState,
)
from companion.session import Session
from companion.store import Store
from tests.support import ManualClock

NAMES = ("Ann", "Bo", "Cy", "Dee")
DICE = RandomDice.seeded(0)
GAME: RegisteredGame = game("quark")


def start(players: int = 3) -> QuarkState:
    state: QuarkState = GAME.setup(Options.for_names(*NAMES[:players]))
    return state


def decide(state: QuarkState, action: dict[str, Any]) -> list[Event]:
    return list(GAME.decide(state, GAME.parse_action(action, state.names), DICE))


def correct(state: QuarkState, counter: str, value: Any, player: str | None = None) -> QuarkState:
    for event in decide(state, _action(counter, value, player)):
        state = GAME.evolve(state, event)
    return state


def refused(state: QuarkState, counter: str, value: Any, player: str | None = None) -> str:
    with pytest.raises(RuleError) as error:
        decide(state, _action(counter, value, player))
    return str(error.value)


def _action(counter: str, value: Any, player: str | None) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "correct", "counter": counter, "value": value}
    if player is not None:
        action["player"] = player
    return action


def seat(state: QuarkState, name: str) -> Any:
    return state.seats[state.seat_of(name)]


def quark_cards(state: QuarkState) -> int:
    """Every quark card the companion counts: the deck, its row, the hands, the decayed cards, the discard pile."""
    quark = state.deck("quark")
    return quark.deck + quark.row + state.discard + quark.out + sum(s.hand + s.decayed for s in state.seats)


def check_totals(state: QuarkState) -> None:
    """The game's totals: the rules' "80 Energy Tokens", "16 Proton Tokens", "20 Neutron Tokens", and the cards
    (RULINGS: "deck + rows + hands + decayed + discard + particles + out of the game is always the game's total")."""
    assert state.bank_energy + sum(s.energy for s in state.seats) == ENERGY_TOKENS
    assert state.bank_protons + sum(s.protons for s in state.seats) == PROTON_TOKENS
    assert state.bank_neutrons + sum(s.neutrons for s in state.seats) == NEUTRON_TOKENS
    assert quark_cards(state) == QUARK_CARDS
    baryon, meson = state.deck("baryon"), state.deck("meson")
    assert baryon.deck + baryon.row + baryon.discard + baryon.out + sum(s.baryons for s in state.seats) == BARYON_CARDS
    assert meson.deck + meson.row + meson.discard + meson.out + sum(s.mesons for s in state.seats) == MESON_CARDS
    for deck in state.decks:
        assert min(deck.deck, deck.discard, deck.out) >= 0 and 0 <= deck.row <= ROW
    for s in state.seats:
        assert min(s.energy, s.protons, s.neutrons, s.particle_points, s.hand) >= 0


# -- each counter, up and down ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counter", "bank"), [("energy", "bank_energy"), ("protons", "bank_protons"), ("neutrons", "bank_neutrons")]
)
def test_tokens_come_from_the_bank_and_go_back_to_it(counter: str, bank: str) -> None:
    """Issue 14: "It draws from and returns to the bank, so the totals stay conserved"."""
    state = start()
    before = getattr(state, bank)
    up = correct(state, counter, 7, "Bo")
    was = getattr(seat(state, "Bo"), counter)
    assert getattr(seat(up, "Bo"), counter) == 7 and getattr(up, bank) == before - (7 - was)
    check_totals(up)
    down = correct(up, counter, 1, "Bo")
    assert getattr(seat(down, "Bo"), counter) == 1 and getattr(down, bank) == before - (1 - was)
    check_totals(down)


def test_particle_points_up_and_down() -> None:
    """Issue 14: "sets any counter of any player: ... particle points"; the points are printed on the cards,
    so no bank pays them."""
    state = correct(start(), "particle_points", 12, "Cy")
    assert seat(state, "Cy").particle_points == 12
    state = correct(state, "particle_points", 4, "Cy")
    assert seat(state, "Cy").particle_points == 4 and state.bank_energy == start().bank_energy


def test_a_hand_draws_from_the_quark_deck_and_discards_to_the_pile() -> None:
    """Rules: "Shuffle all of the Quark cards ... to form the quark deck": a card a hand gains comes from it,
    and one it loses goes to "the quark discard pile", so every quark card stays counted."""
    state = start()
    deck = state.deck("quark").deck
    up = correct(state, "hand", 8, "Ann")
    assert seat(up, "Ann").hand == 8 and up.deck("quark").deck == deck - 3
    down = correct(up, "hand", 2, "Ann")
    assert seat(down, "Ann").hand == 2 and down.discard == 6 and down.deck("quark").deck == deck - 3
    assert quark_cards(state) == quark_cards(up) == quark_cards(down) == QUARK_CARDS


@pytest.mark.parametrize("counter", TABLE_COUNTERS)
def test_deck_counts_and_rows_up_and_down(counter: str) -> None:
    """Issue 14: "and the deck counts and rows"; they are the table's, so the action names no player.
    RULINGS: "Lowering a deck or a row puts the difference on the discard pile … raising one takes it from the
    discard pile"."""
    name, part = counter.split("_")
    state = correct(played(start()), counter, 1)
    was = getattr(played(start()).deck(name), part)
    assert getattr(state.deck(name), part) == 1 and state.deck(name).discard == was - 1
    back = correct(state, counter, 2)
    assert getattr(back.deck(name), part) == 2 and back.deck(name).discard == was - 2
    check_totals(back)


def played(state: QuarkState) -> QuarkState:
    """`state` once Ann has taken an action: a deck corrected to 0 then triggers the end but does not end the game."""
    for event in decide(state, {"type": "decay", "player": "Ann"}):
        state = GAME.evolve(state, event)
    return state


def test_the_old_hand_count_is_a_correction_of_the_hand() -> None:
    """One way to correct: ``count_hand`` (kept so old scripts read) is the hand's correction."""
    state = start()
    assert decide(state, {"type": "count_hand", "player": "Bo", "cards": 7}) == decide(
        state, {"type": "correct", "player": "Bo", "counter": "hand", "value": 7}
    )
    assert GAME.parse_action({"type": "count_hand", "player": "Bo", "cards": 7}, state.names) == CountHand("Bo", 7)


# -- refusals ---------------------------------------------------------------------------------------


def test_the_bank_cannot_cover_it() -> None:
    """Issue 14: "where that is impossible it refuses with a sentence"; RULINGS: "Energy to the bank is finite"."""
    state = correct(correct(start(), "protons", 11, "Bo"), "protons", 2, "Cy")  # the bank keeps 3
    assert refused(state, "protons", 6, "Ann") == "The bank has only 3 protons: Ann's protons can be at most 3."
    state = correct(state, "protons", 2, "Ann")
    assert refused(state, "protons", 4, "Ann") == "The bank has only 1 proton: Ann's protons can be at most 3."
    state = correct(state, "protons", 3, "Ann")
    assert refused(state, "protons", 4, "Ann") == "The bank has no protons: Ann's protons can be at most 3."
    energy = correct(start(), "energy", 2 + start().bank_energy, "Ann")
    assert refused(energy, "energy", 5, "Bo") == "The bank has no energy: Bo's energy can be at most 2."
    neutrons = correct(start(), "neutrons", 19, "Ann")
    assert refused(neutrons, "neutrons", 4, "Bo") == "The bank has only 1 neutron: Bo's neutrons can be at most 1."


def test_a_hand_cannot_draw_more_than_the_quark_deck_has() -> None:
    """Rules: "When the last card from any of the three draw decks are drawn" there are no more to draw."""
    state = correct(played(start()), "quark_deck", 2)
    assert refused(state, "hand", 9, "Ann") == "The quark deck has only 2 cards: Ann's hand can be at most 6."
    state = correct(state, "quark_deck", 0)
    assert refused(state, "hand", 6, "Ann") == "The quark deck has no cards: Ann's hand can be at most 4."


def test_a_deck_or_row_is_raised_only_from_its_discard_pile() -> None:
    """RULINGS: "raising one takes it from the discard pile, and is refused beyond what the discard pile holds";
    "a row holds at most 3"."""
    state = played(start())
    assert refused(state, "quark_row", 4) == "A face-up row holds 3 cards: there can be at most 3 face-up quark cards."
    assert refused(state, "baryon_deck", 22) == (
        "The baryon deck can be at most 21: more cards come from the pile of baryon cards set aside, "
        "which holds 0 cards."
    )
    assert refused(state, "quark_deck", 104) == (
        "The quark deck can be at most 103: more cards come from the quark discard pile, which holds 0 cards."
    )
    lowered = correct(correct(state, "baryon_deck", 15), "baryon_row", 1)  # 6 + 2 cards set aside
    assert lowered.deck("baryon").discard == 8
    assert correct(lowered, "baryon_row", 3).deck("baryon").discard == 6  # back to the row from the pile
    assert correct(lowered, "baryon_deck", 23).deck("baryon").discard == 0
    assert refused(lowered, "baryon_deck", 24) == (
        "The baryon deck can be at most 23: more cards come from the pile of baryon cards set aside, "
        "which holds 8 cards."
    )
    check_totals(correct(lowered, "baryon_deck", 23))


def test_negative_values_are_refused() -> None:
    """A count is never below zero (the rules count tokens and cards)."""
    state = start()
    assert refused(state, "energy", -1, "Ann") == "A count cannot be below 0: Ann's energy can be 0 or more."
    assert refused(state, "meson_deck", -2) == "A count cannot be below 0: the meson deck can be 0 or more."
    assert refused(state, "hand", -1, "Ann") == "A count cannot be below 0: Ann's hand can be 0 or more."


def test_a_player_counter_names_the_player_and_a_table_counter_names_none() -> None:
    state = start()
    assert refused(state, "energy", 3) == "A correction of energy names the player it is for."
    assert refused(state, "quark_deck", 3, "Ann") == (
        "A correction of the quark deck names no player (decks and rows are the table's)."
    )
    assert refused(state, "score", 3, "Ann").startswith('"counter" must be "energy", "protons"')
    assert refused(state, "energy", True, "Ann") == '"value" must be a whole number; it is True.'


def test_a_player_who_left_cannot_be_corrected() -> None:
    """RULINGS: "the leaver's energy, protons and neutrons go back to the bank ... they are not scored"."""
    state = start(3)
    for event in decide(state, {"type": "leave", "player": "Bo"}):
        state = GAME.evolve(state, event)
    assert refused(state, "energy", 3, "Bo") == "Bo left the game; their counts can no longer be corrected."


# -- not a turn -------------------------------------------------------------------------------------


def test_a_correction_is_not_a_turn() -> None:
    """Rules: "each player gets two actions on their turn": a correction is none of them, and anyone's."""
    state = start()
    for _ in range(2):
        for event in decide(state, {"type": "decay", "player": "Ann"}):
            state = GAME.evolve(state, event)
    assert state.actions_left == 0
    after = correct(state, "energy", 9, "Cy")  # not Cy's turn, and Ann's actions are spent
    assert after.actions_left == 0 and GAME.current_player(after) == "Ann"
    assert after.last == state.last  # the table's notice is still about the last action


def test_a_deck_corrected_to_empty_triggers_the_end() -> None:
    """Rules: the end is triggered "When the last card from any of the three draw decks are drawn"."""
    [corrected, triggered] = decide(played(start()), {"type": "correct", "counter": "meson_deck", "value": 0})
    assert isinstance(corrected, Corrected)
    assert GAME.to_json(triggered) == {"type": "end_triggered", "by": "Ann", "cause": "deck", "deck": "meson"}


# -- the log ------------------------------------------------------------------------------------------


def test_the_correction_reads_as_a_correction() -> None:
    """Issue 14: "It is visible in the log as a correction ('Correction: Ann's energy 7 → 5')"."""
    assert views.describe(Corrected("energy", 7, 5, "Ann")) == "Correction: Ann's energy 7 → 5."
    assert views.describe(Corrected("particle_points", 3, 8, "Bo")) == "Correction: Bo's particle points 3 → 8."
    assert views.describe(Corrected("hand", 5, 6, "Cy")) == "Correction: Cy's hand 5 → 6."
    assert views.describe(Corrected("quark_deck", 40, 38)) == "Correction: the quark deck 40 → 38."
    assert views.describe(Corrected("baryon_row", 3, 2)) == "Correction: the face-up baryons 3 → 2."
    assert GAME.to_json(Corrected("energy", 7, 5, "Ann")) == {
        "type": "corrected",
        "counter": "energy",
        "was": 7,
        "value": 5,
        "player": "Ann",
    }


# -- undo, through a session on a real store file -------------------------------------------------------


def test_undo_takes_a_correction_back_and_it_survives_a_restart(tmp_path: Path) -> None:
    """Issue 14: "and undo takes it back"."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "quark", Options.for_names("Ann", "Bo"), clock=ManualClock())
        fresh = session.state
        session.act(Correct("energy", 5, "Bo"))
        session.act({"type": "correct", "counter": "quark_deck", "value": 90})
        assert session.state.deck("quark").deck == 90 and seat(session.state, "Bo").energy == 5
        assert session.undo()
        assert session.state.deck("quark").deck == fresh.deck("quark").deck
        game_id, live = session.game_id, session.state
    with Store.open(path) as store:
        again = Session.load(store, game_id, clock=ManualClock())
        assert again.state == live and seat(again.state, "Bo").energy == 5
        assert again.undo()
        assert again.state == fresh
        assert again.redo() and seat(again.state, "Bo").energy == 5


# -- conservation, whatever is corrected -------------------------------------------------------------------

corrections = st.one_of(
    st.builds(
        lambda c, v, p: {"type": "correct", "counter": c, "value": v, "player": p},
        st.sampled_from(PLAYER_COUNTERS),
        st.integers(-2, 130),
        st.sampled_from(NAMES),
    ),
    st.builds(
        lambda c, v: {"type": "correct", "counter": c, "value": v},
        st.sampled_from(TABLE_COUNTERS),
        st.integers(-2, 130),
    ),
    st.sampled_from(
        [
            {"type": "draw", "player": "Ann"},
            {"type": "decay", "player": "Ann"},
            {"type": "annihilate", "player": "Ann", "rank": "top"},
            {"type": "create", "player": "Ann", "particle": "proton"},
            {"type": "create", "player": "Ann", "particle": "baryon", "points": 6},
            {"type": "end_turn", "player": "Ann"},
            {"type": "leave", "player": "Dee"},
        ]
    ),
)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 4), st.lists(corrections, max_size=40))
def test_random_corrections_keep_the_totals_or_change_nothing(players: int, script: list[dict[str, Any]]) -> None:
    """Issue 14: "so the totals stay conserved; where that is impossible it refuses with a sentence"."""
    state = start(players)
    for action in script:
        before = state
        try:
            events = decide(state, action)
        except RuleError as refusal:
            assert str(refusal).endswith(".")
            assert state == before
            continue
        for event in events:
            state = GAME.evolve(state, event)
            if isinstance(event, Corrected):
                assert _value(state, event) == event.value  # taken in full, or refused: never half
        check_totals(state)


def _value(state: QuarkState, event: Corrected) -> int:
    if event.player is not None:
        return int(getattr(seat(state, event.player), event.counter))
    name, part = event.counter.split("_")
    return int(getattr(state.deck(name), part))


def test_an_older_games_hand_count_still_reads_and_folds() -> None:
    """Saved games hold ``count_hand`` actions and ``hand_counted`` events: they load as they were."""
    state = start()
    action = GAME.parse_action({"type": "count_hand", "player": "Bo", "cards": 3}, state.names, stored=True)
    assert action == CountHand("Bo", 3)
    event = GAME.event_from_json({"type": "hand_counted", "player": "Bo", "was": 5, "cards": 3})
    after = GAME.evolve(state, event)
    assert seat(after, "Bo").hand == 3 and after.discard == 2  # today's reading: the two cards are discarded
    check_totals(after)
