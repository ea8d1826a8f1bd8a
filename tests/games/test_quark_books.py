"""Quark's books balance to the card: the End-turn hand count moves real cards, a player who left has no
score, and the game says it is over when it is (issue 29).

Each test quotes the reading of ``RULINGS.md`` (Quark, Corrections and the end of the game; Every game:
a player leaves) that it holds the code to. The random-game properties are at the end: every card and
every token of the game is somewhere after every action.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import RandomDice
from companion.engine import RegisteredGame
from companion.game import Event, Options, RuleError
from companion.games import game
from companion.games.quark.rules import HandCounted
from companion.games.quark.state import (
    CARDS_IN,
    DECKS,
    ENERGY_TOKENS,
    NEUTRON_TOKENS,
    PLAYER_COUNTERS,
    PROTON_TOKENS,
    RANKS,
    TABLE_COUNTERS,
    QuarkState,
)
from companion.session import Session
from companion.store import Store
from tests.support import ManualClock

GAME: RegisteredGame = game("quark")
DICE = RandomDice.seeded(0)
NAMES = ("Ann", "Bo", "Cy", "Dee")


def start(*names: str) -> QuarkState:
    state: QuarkState = GAME.setup(Options.for_names(*(names or NAMES[:3])))
    return state


def act(state: QuarkState, **action: Any) -> QuarkState:
    for event in GAME.decide(state, GAME.parse_action(action, state.names), DICE):
        state = GAME.evolve(state, event)
    return state


def seat(state: QuarkState, name: str) -> Any:
    return state.seats[state.seat_of(name)]


def cards(state: QuarkState) -> dict[str, int]:
    """Every card of each deck, wherever it is: the deck, the row, the hands, the decayed cards, the discard
    pile, the created particles and those out of the game."""
    return {name: state.cards_counted(name) for name in DECKS}


def tokens(state: QuarkState) -> tuple[int, int, int]:
    """Every token of the game: the bank's and the players'."""
    return (
        state.bank_energy + sum(s.energy for s in state.seats),
        state.bank_protons + sum(s.protons for s in state.seats),
        state.bank_neutrons + sum(s.neutrons for s in state.seats),
    )


# -- 1. the hand count given at End turn ---------------------------------------------------------


def test_an_end_turn_count_higher_than_ours_draws_the_difference_blind_from_the_quark_deck() -> None:
    """RULINGS: "The hand count given at End turn is the same correction: a higher count draws the difference
    blind from the quark deck, a lower one discards it." Issue 29: Ann says 7 where we count 5."""
    state = start()
    deck = state.deck("quark").deck
    after = act(state, type="end_turn", player="Ann", hand=7)
    assert seat(after, "Ann").hand == 7 and after.deck("quark").deck == deck - 2 and after.discard == 0
    assert cards(after) == CARDS_IN  # 121 quark cards, not 123


def test_an_end_turn_count_lower_than_ours_discards_the_difference() -> None:
    """RULINGS: "… a lower one discards it." Issue 29: Bo says 3 where we count 5."""
    state = act(start(), type="end_turn", player="Ann", hand=7)
    deck = state.deck("quark").deck
    after = act(state, type="end_turn", player="Bo", hand=3)
    assert seat(after, "Bo").hand == 3 and after.discard == 2 and after.deck("quark").deck == deck
    assert cards(after) == CARDS_IN


def test_an_end_turn_count_over_the_limit_draws_then_discards_down_to_seven() -> None:
    """Rules: "A player has a hand size limit of 7 cards at the end of their turn"; RULINGS: the count draws."""
    state = start()
    deck = state.deck("quark").deck
    after = act(state, type="end_turn", player="Ann", hand=9)
    assert seat(after, "Ann").hand == 7 and after.deck("quark").deck == deck - 4 and after.discard == 2
    assert cards(after) == CARDS_IN


def test_an_end_turn_count_the_quark_deck_cannot_give_is_refused_like_the_correction() -> None:
    """RULINGS: "A hand gains cards blind from the quark deck": no more than the deck holds."""
    state = act(act(start(), type="decay", player="Ann"), type="correct", counter="quark_deck", value=1)
    with pytest.raises(RuleError, match=re.escape("The quark deck has only 1 card: Ann's hand can be at most 5.")):
        act(state, type="end_turn", player="Ann", hand=7)


def test_an_end_turn_count_that_draws_the_last_card_triggers_the_end() -> None:
    """RULINGS: "… so does a hand correction that draws the quark deck's last card"."""
    state = act(act(start(), type="decay", player="Ann"), type="correct", counter="quark_deck", value=1)
    after = act(state, type="end_turn", player="Ann", hand=5)
    assert after.end is not None and after.end.cause == "deck" and after.end.deck == "quark"
    assert not after.over  # Bo and Cy still have their turns


def test_the_end_turn_count_is_logged_as_the_table_said_it() -> None:
    """The log keeps its words for the count ("Ann holds 7 cards."), and an older save's count moves cards too."""
    events = GAME.decide(start(), GAME.parse_action({"type": "end_turn", "player": "Ann", "hand": 7}, NAMES[:3]), DICE)
    assert events[0] == HandCounted("Ann", 5, 7)
    assert GAME.tell(events[0], start()) == "Ann holds 7 cards."


def test_the_golden_dry_bank_game_ends_with_every_card(tmp_path: Path) -> None:
    """Issue 29: "The golden script quark-3p-dry-bank also ends with 122 cards." Now 121, as the game has."""
    from tests.support.golden import play

    with Store.open(tmp_path / "games.db") as store:
        session = play(store, "quark-3p-dry-bank")
        assert session.outcome is not None and cards(session.state) == CARDS_IN


# -- 2. a player who left has no score ------------------------------------------------------------


def test_a_player_who_left_is_listed_as_left_and_never_scored() -> None:
    """RULINGS: "A player who leaves has no score: they are listed as "left", never with a total, and cannot be
    among the winners." Issue 29: Ann creates a meson worth 99, ends her turn, leaves; Bo decays; the quark
    deck is corrected to 0; Bo and Cy end their turns."""
    state = act(start(), type="correct", counter="hand", player="Ann", value=5)
    state = act(state, type="create", player="Ann", particle="meson", points=99)
    state = act(state, type="end_turn", player="Ann")
    state = act(state, type="leave", player="Ann")
    state = act(state, type="decay", player="Bo")  # an action of the turn, so the round runs on to Ann's seat
    state = act(state, type="correct", counter="quark_deck", value=0)
    state = act(act(state, type="end_turn", player="Bo"), type="end_turn", player="Cy")
    view = GAME.public_view(state)
    assert (
        view["over"]
        and view["outcome"]["detail"] == "Bo wins with 3 points."
        and "Ann" not in view["outcome"]["winners"]
    )
    [ann] = [entry for entry in view["scores"] if entry["player"] == "Ann"]
    assert ann["left"] and ann["total"] is None and ann["particle_points"] is None
    [ann_row] = [p for p in view["players"] if p["name"] == "Ann"]
    assert ann_row["gone"] and ann_row["particle_points"] == 0 and ann_row["score_now"] is None
    # "their particle cards leave the game": the meson is out of the game, still counted.
    assert state.deck("meson").out == 1 and cards(state) == CARDS_IN


def test_a_player_who_left_takes_hand_and_decayed_cards_out_of_the_game() -> None:
    """RULINGS: the leaver's "particle cards leave the game"; their hand and decayed cards go with them, and
    "Every card of the game stays counted"."""
    state = act(start(), type="decay", player="Ann")
    state = act(state, type="leave", player="Ann")
    assert state.deck("quark").out == 5 and seat(state, "Ann").hand == seat(state, "Ann").decayed == 0
    assert cards(state) == CARDS_IN and tokens(state) == (ENERGY_TOKENS, PROTON_TOKENS, NEUTRON_TOKENS)


# -- 3. a finished game says so ---------------------------------------------------------------------


def test_a_two_player_leave_ends_the_game_in_the_view_too() -> None:
    """RULINGS: "Two players: the other wins (outcome reason "left")." Issue 29: the outcome named the winner
    while the public view still said "over": false."""
    state = act(start("Ann", "Bo"), type="leave", player="Ann")
    view = GAME.public_view(state)
    assert view["over"] is True and view["outcome"]["winners"] == ["Bo"] and view["outcome"]["reason"] == "left"
    assert GAME.private_view(state, "Bo")["over"] is True


def test_a_trigger_before_any_action_of_the_start_players_turn_ends_the_game_at_once() -> None:
    """RULINGS: "A trigger that comes while play is at the start player's turn and no action of that turn has
    been taken (every player has had the same number of turns) ends the game at once.\""""
    state = start()
    for name in NAMES[:3]:
        state = act(state, type="end_turn", player=name)
    assert GAME.current_player(state) == "Ann" and not state.over
    after = act(state, type="correct", counter="baryon_deck", value=0)
    assert after.over and GAME.public_view(after)["over"] and GAME.outcome(after) is not None


def test_a_trigger_after_the_start_players_first_action_lets_the_round_finish() -> None:
    """Rules: "continue playing until the play returns to the start player": once Ann has acted, the round runs."""
    state = act(start(), type="decay", player="Ann")
    after = act(state, type="correct", counter="baryon_deck", value=0)
    assert after.end is not None and not after.over
    for name in NAMES[:3]:
        assert not after.over
        after = act(after, type="end_turn", player=name)
    assert after.over


def test_a_trigger_when_the_leaver_was_the_last_of_the_round_ends_at_the_start_player() -> None:
    """RULINGS: "the equal-turns rule counts only players still in": Cy, last of the round, leaves on his turn."""
    state = act(start(), type="decay", player="Ann")
    state = act(state, type="correct", counter="meson_deck", value=0)
    state = act(act(state, type="end_turn", player="Ann"), type="end_turn", player="Bo")
    assert not state.over and GAME.current_player(state) == "Cy"
    assert act(state, type="leave", player="Cy").over


# -- random games: every card and every token is somewhere ------------------------------------------


def _random_action(rng: random.Random, state: QuarkState) -> dict[str, Any]:
    """One action a table might send now: often legal, sometimes not, corrections and leaves included."""
    player = GAME.current_player(state) or rng.choice(state.names)
    anyone = rng.choice(state.names)
    roll = rng.random()
    if roll < 0.04:
        return {"type": "leave", "player": anyone}
    if roll < 0.14:
        counter = rng.choice(PLAYER_COUNTERS + TABLE_COUNTERS)
        value = rng.choice([0, 1, 2, 3, 5, 9, rng.randint(0, 120)])
        named = {"player": anyone} if counter in PLAYER_COUNTERS else {}
        return {"type": "correct", "counter": counter, "value": value, **named}
    if roll < 0.3:
        return {"type": "end_turn", "player": player, **({"hand": rng.randint(0, 12)} if rng.random() < 0.4 else {})}
    choices: list[dict[str, Any]] = [
        {"type": "draw", "player": player, "from": rng.choice(["blind", "row"])},
        {"type": "discard_draw", "player": player, "from": [rng.choice(["blind", "row"]) for _ in range(2)]},
        {"type": "decay", "player": player},
        {"type": "annihilate", "player": player, "rank": rng.choice(RANKS), "decayed": rng.randint(0, 2)},
        {"type": "create", "player": player, "particle": rng.choice(["proton", "neutron"])},
        {"type": "create", "player": player, "particle": rng.choice(["baryon", "meson"]), "points": rng.randint(0, 9)},
    ]
    return rng.choice(choices)


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32))
def test_every_card_and_every_token_is_somewhere_after_every_action(players: int, seed: int) -> None:
    """RULINGS: "Every card of the game stays counted: deck + rows + hands + decayed + discard + particles +
    out of the game is always the game's total" (per deck), and "Tokens … come from and go back to the bank,
    so every total holds"."""
    rng = random.Random(seed)
    state = start(*NAMES[:players])
    for _ in range(250):
        if GAME.outcome(state) is not None:
            break
        try:
            events: list[Event] = list(
                GAME.decide(state, GAME.parse_action(_random_action(rng, state), state.names), DICE)
            )
        except RuleError:
            continue
        for event in events:
            state = GAME.evolve(state, event)
        assert cards(state) == CARDS_IN
        assert tokens(state) == (ENERGY_TOKENS, PROTON_TOKENS, NEUTRON_TOKENS)
        for deck in state.decks:
            assert min(deck.deck, deck.row, deck.discard, deck.out) >= 0
        for s in state.seats:
            assert min(s.hand, s.decayed, s.baryons, s.mesons, s.energy, s.protons, s.neutrons) >= 0
            if s.gone:
                assert (s.hand, s.decayed, s.particle_points, s.particles) == (0, 0, 0, 0)


def test_a_whole_game_through_a_session_resumes_with_the_same_books(tmp_path: Path) -> None:
    """A stored game folds back to the very same books after a restart (the store is a real SQLite file)."""
    rng = random.Random(29)
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, "quark", Options.for_names(*NAMES), dice=DICE, clock=ManualClock())
        for _ in range(400):
            if session.outcome is not None:
                break
            try:
                session.act(_random_action(rng, session.state))
            except RuleError:
                continue
        game_id, live = session.game_id, session.state
    with Store.open(tmp_path / "games.db") as store:
        again = Session.load(store, game_id, clock=ManualClock())
        assert again.state == live and cards(again.state) == CARDS_IN
