"""Quintet's rules: opening roll, capturing circle, rolling on, turns, captures, survival."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from companion.codec import to_json
from companion.game import SEAT_COLOURS, Action, Event, Options, RuleError, SetupError
from companion.games import game
from companion.games.quintet import rules, views
from companion.games.quintet.rules import (
    CIRCLE,
    LAST_STANDING,
    OPENING,
    OVER,
    PLAY,
    ROLLING_ON,
    AllianceCapture,
    Capture,
    Captured,
    EndTurn,
    GameWon,
    NoAllianceCaptures,
    OpeningRolled,
    OpeningWon,
    PlayerOut,
    QuintetState,
    Roll,
    RolledOn,
    Safety,
    TurnEnded,
)

QUINTET = game("quintet")


class ScriptedDice:
    """Dice that roll exactly the values a test lists, and complain when they run out."""

    def __init__(self, values: Iterable[int] = ()) -> None:
        self.values = list(values)

    def roll(self, sides: int = 6) -> int:
        assert self.values, "the test rolled more dice than it scripted"
        return self.values.pop(0)


class Game:
    """One game driven straight through the engine's entry (the session has its own tests).

    Actions are given as a script would write them (JSON objects) or typed; events come back typed.
    """

    def __init__(self, *names: str) -> None:
        self.names = names
        self.state: QuintetState = QUINTET.setup(Options.for_names(*names))
        self.dice = ScriptedDice()
        self.events: list[Event] = []
        self.news = views.news(None, self.state)

    def parse(self, action: dict[str, Any] | Action) -> Action:
        return action if isinstance(action, Action) else QUINTET.parse_action(action, self.names)

    def act(self, action: dict[str, Any] | Action, *dice: int) -> list[Event]:
        self.dice.values.extend(dice)
        events = list(QUINTET.decide(self.state, self.parse(action), self.dice))
        assert not self.dice.values, "the action rolled fewer dice than scripted"
        for event in events:
            self.state = QUINTET.evolve(self.state, event)
        self.events.extend(events)
        self.news = views.news(events[-1], self.state)
        return events

    def refused(self, action: dict[str, Any] | Action, match: str) -> None:
        before = self.state
        with pytest.raises(RuleError, match=match):
            QUINTET.decide(self.state, self.parse(action), ScriptedDice([3] * 10))
        assert self.state == before

    @property
    def view(self) -> dict[str, Any]:
        return QUINTET.public_view(self.state)

    def roll(self, a: int, b: int, player: str | None = None) -> list[Event]:
        return self.act(Roll(player), a, b)

    def capture(self, by: str, of: str, rule: str | None = None) -> list[Event]:
        action = {"type": "capture", "by": by, "of": of}
        if rule:
            action["rule"] = rule
        return self.act(action)


def playing(*names: str, circle: Sequence[str] | None = None) -> Game:
    """A game in play: the first seat won the opening, the circle given (default: seat order)."""
    game = Game(*names)
    game.roll(6, 6)
    for _ in names[1:]:
        game.roll(1, 2)
    game.act({"type": "set_circle", "order": list(circle or names)})
    for _ in names:
        game.roll(1, 2)
    assert game.state.phase == PLAY
    return game


def knock_out(game: Game, player: str, *, settle: bool = True) -> None:
    """Have `player`'s predator capture `player`'s tokens, turn by turn, until `player` is out."""
    while player in game.state.circle:
        predator = game.state.predator_of(player)
        while game.state.current != predator or game.state.dice is None or game.state.landings == 0:
            if game.state.alliances:
                game.act({"type": "no_alliance_captures"})
            else:
                game.roll(1, 2)
        game.capture(predator, player)
    if settle and game.state.alliances:
        game.act({"type": "no_alliance_captures"})


# -- setup -------------------------------------------------------------------


def test_the_registry_finds_quintet():
    assert QUINTET.rules is rules and QUINTET.views is views
    assert (QUINTET.min_players, QUINTET.max_players) == (2, 5)
    assert not QUINTET.chooses_first  # the opening roll decides who plays first


def test_setup_refuses_what_it_cannot_play():
    with pytest.raises(SetupError, match="2 to 5"):
        QUINTET.setup(Options.for_names("Ann"))
    with pytest.raises(SetupError, match="2 to 5"):
        QUINTET.setup(Options.for_names(*"ABCDEF"))
    with pytest.raises(SetupError, match="'tokens'"):
        QUINTET.setup(Options.for_names("Ann", "Bo", tokens=3))


def test_every_player_starts_with_two_tokens_on_the_board():
    game = Game("Ann", "Bo", "Cy")
    assert game.state.tokens == (2, 2, 2)
    assert game.state.phase == OPENING
    assert QUINTET.current_player(game.state) == "Ann"


# -- the opening roll ----------------------------------------------------------


def test_opening_highest_total_plays_first_and_sets_the_circle():
    game = Game("Ann", "Bo", "Cy")
    game.roll(3, 4)
    game.roll(4, 5)
    events = game.roll(2, 6)
    assert events[-1] == OpeningWon("Bo", 9, tied=())
    assert to_json(events[-1]) == {"type": "opening_won", "player": "Bo", "total": 9, "tied": []}
    assert game.state.phase == CIRCLE
    assert QUINTET.current_player(game.state) == "Bo"


@pytest.mark.parametrize(
    ("rolls", "winner", "tied"),
    [
        ([(5, 5), (6, 4), (1, 1)], "Ann", ["Bo"]),  # Ann rolled 10 first
        ([(1, 1), (6, 4), (5, 5)], "Bo", ["Cy"]),  # Bo rolled 10 before Cy
        ([(6, 6), (1, 2), (6, 6)], "Ann", ["Cy"]),
        ([(2, 2), (3, 3), (6, 6)], "Cy", []),  # a lower tie does not matter
    ],
)
def test_opening_tie_goes_to_whoever_rolled_the_highest_first(rolls, winner, tied):
    game = Game("Ann", "Bo", "Cy")
    for a, b in rolls:
        game.roll(a, b)
    won = game.events[-1]
    assert isinstance(won, OpeningWon)
    assert (won.player, list(won.tied)) == (winner, tied)
    assert game.state.first == winner
    assert len([e for e in game.events if isinstance(e, OpeningRolled)]) == 3  # nobody rolled again


def test_opening_rolls_go_in_seat_order():
    game = Game("Ann", "Bo", "Cy")
    game.refused({"type": "roll", "player": "Bo"}, "Ann's opening roll, not Bo's")
    game.roll(1, 1, player="Ann")
    assert game.events[-1] == OpeningRolled("Ann", (1, 1), 2)
    assert to_json(game.events[-1]) == {"type": "opening_rolled", "player": "Ann", "dice": [1, 1], "total": 2}
    assert QUINTET.current_player(game.state) == "Bo"


def test_nothing_but_rolling_during_the_opening():
    game = Game("Ann", "Bo")
    game.refused({"type": "set_circle", "order": ["Ann", "Bo"]}, "once, after the opening roll")
    game.refused({"type": "capture", "by": "Ann", "of": "Bo"}, "after everyone has rolled on")
    game.refused({"type": "end_turn"}, "after everyone has rolled on")


# -- the capturing circle --------------------------------------------------------


def opened(*names: str) -> Game:
    game = Game(*names)
    game.roll(6, 6)
    for _ in names[1:]:
        game.roll(1, 1)
    return game


def test_the_opening_winner_sets_the_circle_in_any_order():
    game = opened("Ann", "Bo", "Cy", "Dee")
    game.refused({"type": "roll"}, "Ann won the opening roll and first sets the capturing circle")
    game.refused({"type": "set_circle", "order": ["Ann", "Bo", "Cy", "Dee"], "by": "Bo"}, "Ann sets the circle")
    game.act({"type": "set_circle", "order": ["Ann", "Cy", "Bo", "Dee"], "by": "Ann"})
    assert game.state.circle == ("Ann", "Cy", "Bo", "Dee")
    assert game.view["arrows"] == [["Ann", "Cy"], ["Cy", "Bo"], ["Bo", "Dee"], ["Dee", "Ann"]]
    assert game.view["circle_text"] == "Ann → Cy → Bo → Dee → Ann"
    assert game.state.phase == ROLLING_ON


@pytest.mark.parametrize(
    ("order", "match"),
    [
        (["Ann", "Bo"], "needs every player; Cy missing"),
        (["Ann", "Bo", "Bo", "Cy"], "appears once"),
        (["Ann", "Bo", "Zed"], '"order" must name a player at the table'),
        ("Ann,Bo,Cy", '"order" must be a list'),
        ([1, 2, 3], '"order" must be text'),
        (None, '"order" must be a list'),
    ],
)
def test_a_circle_must_hold_every_player_once(order, match):
    game = opened("Ann", "Bo", "Cy")
    game.refused({"type": "set_circle", "order": order}, match)


# -- rolling on --------------------------------------------------------------


def test_rolling_on_starts_with_the_first_player_and_goes_round_the_seats():
    game = Game("Ann", "Bo", "Cy")
    game.roll(1, 1)
    game.roll(6, 6)  # Bo plays first
    game.roll(1, 2)
    game.act({"type": "set_circle", "order": ["Bo", "Ann", "Cy"]})
    assert QUINTET.current_player(game.state) == "Bo"
    game.refused({"type": "roll", "player": "Ann"}, "Bo's turn to roll on")
    assert game.roll(3, 4)[0] == RolledOn("Bo", (3, 4), spaces=(3, 4), barricade=False)
    assert to_json(game.events[-1]) == {
        "type": "rolled_on",
        "player": "Bo",
        "dice": [3, 4],
        "spaces": [3, 4],
        "barricade": False,
    }
    assert QUINTET.current_player(game.state) == "Cy"
    assert game.roll(5, 5)[0] == RolledOn("Cy", (5, 5), spaces=(5,), barricade=True)
    assert "barricade" in game.news
    assert QUINTET.current_player(game.state) == "Ann"
    game.roll(2, 6)
    assert game.state.phase == PLAY
    assert QUINTET.current_player(game.state) == "Bo"  # the first player rolls again to start play
    assert game.state.dice is None


# -- turns ------------------------------------------------------------------------


def test_turns_follow_the_seats_not_the_circle():
    game = playing("Ann", "Bo", "Cy", circle=["Ann", "Cy", "Bo"])
    seen = []
    for _ in range(6):
        game.roll(1, 2)
        seen.append(game.state.current)
    assert seen == ["Ann", "Bo", "Cy", "Ann", "Bo", "Cy"]


def test_a_roll_ends_the_previous_turn_and_names_whose_roll_it_is():
    game = playing("Ann", "Bo", "Cy")
    game.roll(1, 2)
    game.refused({"type": "roll", "player": "Ann"}, "Ann has rolled this turn; the next roll is Bo's")
    events = game.roll(3, 4, player="Bo")
    assert [e.type for e in events] == ["turn_ended", "rolled"]
    assert events[0] == TurnEnded("Ann", "Bo", extra=False)
    assert to_json(events[0]) == {"type": "turn_ended", "player": "Ann", "next": "Bo", "extra": False}


def test_end_turn_passes_to_the_next_seat():
    game = playing("Ann", "Bo")
    game.refused({"type": "end_turn"}, "Ann has not rolled yet")
    game.roll(1, 2)
    game.refused({"type": "end_turn", "player": "Bo"}, "Ann's turn, not Bo's")
    game.act({"type": "end_turn", "player": "Ann"})
    assert QUINTET.current_player(game.state) == "Bo"
    assert game.state.dice is None


def test_turns_skip_players_who_are_out():
    game = playing("Ann", "Bo", "Cy", "Dee")
    knock_out(game, "Cy")
    seen = []
    for _ in range(6):
        game.roll(1, 2)
        seen.append(game.state.current)
    assert "Cy" not in seen
    start = ["Ann", "Bo", "Dee"].index(seen[0])
    assert seen == (["Ann", "Bo", "Dee"] * 3)[start : start + 6]


def test_double_fives_give_an_extra_turn():
    game = playing("Ann", "Bo", "Cy")
    events = game.roll(5, 5)
    assert events[-1].double_fives is True
    assert game.view["extra_turn"] is True
    assert "roll again" in game.news
    assert game.view["due_to_roll"] == "Ann"
    game.refused({"type": "roll", "player": "Bo"}, "Ann rolled double fives and rolls again")
    events = game.roll(2, 3)
    assert events[0] == TurnEnded("Ann", "Ann", extra=True)
    assert game.state.current == "Ann"
    assert game.state.extra_turn is False
    game.roll(1, 1)
    assert game.state.current == "Bo"


@pytest.mark.parametrize("dice", [(5, 4), (6, 6), (1, 1), (4, 5)])
def test_only_double_fives_give_an_extra_turn(dice):
    game = playing("Ann", "Bo")
    game.roll(*dice)
    assert game.state.extra_turn is False
    game.act({"type": "end_turn"})
    assert game.state.current == "Bo"


def test_end_turn_after_double_fives_gives_the_same_player_the_extra_turn():
    game = playing("Ann", "Bo")
    game.roll(5, 5)
    events = game.act({"type": "end_turn"})
    assert events == [TurnEnded("Ann", "Ann", extra=True)]
    assert game.state.current == "Ann"
    assert game.state.dice is None


# -- safety ----------------------------------------------------------------------------


def test_a_six_offers_one_token_safety():
    game = playing("Ann", "Bo")
    assert game.roll(6, 2)[-1].safety == 1
    game.refused({"type": "safety", "tokens": 2}, "Only double sixes")
    game.refused({"type": "safety", "player": "Bo", "tokens": 1}, "Only Ann")
    game.act({"type": "safety", "player": "Ann", "tokens": 1})
    assert game.view["safety_taken"] == 1
    game.refused({"type": "safety", "tokens": 1}, "already took Safety")


def test_double_sixes_offer_safety_for_both_tokens_only_with_both_tokens():
    game = playing("Ann", "Bo")
    assert game.roll(6, 6)[-1].safety == 2
    game.act({"type": "safety", "tokens": 2})
    assert game.state.landings == 0  # both tokens are in Safety: neither lands on anyone
    game.refused({"type": "capture", "by": "Ann", "of": "Bo"}, "finished moving")
    knock = playing("Ann", "Bo")
    knock.roll(1, 2)
    knock.capture("Ann", "Bo")
    knock.roll(6, 6)  # Bo, one token left
    assert knock.events[-1].safety == 1
    knock.refused({"type": "safety", "tokens": 2}, "only one token left")


def test_no_six_no_safety():
    game = playing("Ann", "Bo")
    game.roll(5, 2)
    game.refused({"type": "safety", "tokens": 1}, "no six")
    game.refused({"type": "safety", "tokens": 3}, "1 or 2")
    game.refused({"type": "safety", "tokens": True}, "1 or 2")
    game.refused({"type": "safety", "tokens": "1"}, "1 or 2")


# -- captures -----------------------------------------------------------------------


def test_the_mover_captures_its_prey():
    game = playing("Ann", "Bo", "Cy", circle=["Ann", "Cy", "Bo"])
    game.roll(1, 2)
    events = game.capture("Ann", "Cy")
    assert events == [Captured("Ann", "Cy", "order", left=1)]
    assert to_json(events[0]) == {"type": "captured", "by": "Ann", "of": "Cy", "rule": "order", "left": 1}
    assert game.state.tokens_of("Cy") == 1
    assert "Ann captured a token of Cy" in game.news


def test_a_capture_against_the_order_names_rule_4():
    game = playing("Ann", "Bo", "Cy", circle=["Ann", "Cy", "Bo"])
    game.roll(1, 2)
    game.refused(
        {"type": "capture", "by": "Ann", "of": "Bo"},
        r"Ann cannot capture Bo: in the capturing circle Ann captures only Cy \(rule 4\)",
    )


def test_landing_on_your_predator_is_a_capture_by_it_rule_7():
    game = playing("Ann", "Bo", "Cy", circle=["Ann", "Cy", "Bo"])  # Bo preys on Ann
    game.roll(1, 2)
    events = game.capture("Bo", "Ann", rule="rule7")
    assert events[0].rule == "rule7"
    assert game.state.tokens_of("Ann") == 1
    assert "rule 7" in game.news


def test_rule_7_only_for_the_movers_own_predator():
    game = playing("Ann", "Bo", "Cy", circle=["Ann", "Cy", "Bo"])
    game.roll(1, 2)
    game.refused(
        {"type": "capture", "by": "Cy", "of": "Ann"},
        r"Cy cannot capture Ann: only Ann's predator, Bo, captures Ann when Ann lands on its token \(rule 7\)",
    )


def test_a_capture_not_involving_the_mover_names_both_rules():
    game = playing("Ann", "Bo", "Cy", circle=["Ann", "Cy", "Bo"])
    game.roll(1, 2)
    game.refused({"type": "capture", "by": "Cy", "of": "Bo"}, r"Only Ann's moves capture now.*rule 4.*rule 7")


def test_the_rule_named_must_fit_the_capture():
    game = playing("Ann", "Bo", "Cy")
    game.roll(1, 2)
    game.refused({"type": "capture", "by": "Ann", "of": "Bo", "rule": "rule7"}, r"capturing order \(rule 4\)")
    game.refused({"type": "capture", "by": "Cy", "of": "Ann", "rule": "order"}, "that is rule 7")
    game.refused({"type": "capture", "by": "Ann", "of": "Bo", "rule": "rule8"}, "alliance_capture")
    game.refused({"type": "capture", "by": "Ann", "of": "Bo", "rule": "luck"}, '"order"')


def test_two_players_prey_on_each_other():
    game = playing("Ann", "Bo")
    game.roll(1, 2)
    assert game.capture("Ann", "Bo")[0].rule == "order"
    assert game.capture("Bo", "Ann")[0].rule == "rule7"


def test_no_capture_before_the_roll():
    game = playing("Ann", "Bo", "Cy")
    game.refused({"type": "capture", "by": "Ann", "of": "Bo"}, "Ann has not rolled yet")


def test_each_moving_token_lands_once_per_roll():
    game = playing("Ann", "Bo", "Cy", "Dee")
    game.roll(1, 2)
    game.capture("Ann", "Bo")
    game.capture("Dee", "Ann")  # Ann's other token landed on Dee
    game.refused({"type": "capture", "by": "Ann", "of": "Bo"}, "finished moving this roll")
    game.roll(3, 4)  # Bo's turn: the count starts again
    game.capture("Bo", "Cy")


def test_a_player_with_one_token_lands_once():
    game = playing("Ann", "Bo", "Cy")
    game.roll(1, 2)
    game.capture("Ann", "Bo")
    game.roll(1, 2)  # Bo, one token left
    game.capture("Bo", "Cy")
    game.refused({"type": "capture", "by": "Bo", "of": "Cy"}, "finished moving")


def test_a_capture_needs_known_players_still_in():
    game = playing("Ann", "Bo", "Cy")
    game.roll(1, 2)
    game.refused({"type": "capture", "by": "Ann"}, '"of"')
    game.refused({"type": "capture", "by": "Ann", "of": "Zed"}, '"of" must name a player at the table')
    game.refused({"type": "capture", "by": "Ann", "of": 3}, '"of" must be text')
    game.refused({"type": "capture", "by": "Ann", "of": "Ann"}, "their own token")
    knock_out(game, "Bo")
    if game.state.dice is None:
        game.roll(1, 2)
    game.refused({"type": "capture", "by": "Bo", "of": "Cy"}, "Bo is out of the game")


# -- elimination and the circle closing --------------------------------------------------------


@pytest.mark.parametrize(("size", "victim_index"), [(size, index) for size in (5, 4, 3, 2) for index in range(size)])
def test_losing_both_tokens_closes_the_circle_over_the_gap(size, victim_index):
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"][:size]
    circle = names[1:] + names[:1]  # not the seating, to tell the two apart
    victim = circle[victim_index]
    game = playing(*names, circle=circle)
    predator = game.state.predator_of(victim)
    prey = game.state.prey_of(victim)
    knock_out(game, victim, settle=False)
    expected = [p for p in circle if p != victim]
    assert PlayerOut(victim, predator, tuple(expected)) in game.events
    assert game.state.circle == tuple(expected)
    assert game.state.tokens_of(victim) == 0
    assert game.view["out"] == [victim]
    if size > 2:
        assert game.state.prey_of(predator) == prey  # the gap closed: the predator now hunts the victim's prey
        assert f"New capturing circle: {' → '.join([*expected, expected[0]])}" in game.news
        assert QUINTET.outcome(game.state) is None
        assert game.view["alliances"] == [{"by": predator, "of": prey, "left": 2}]
    else:
        assert game.events[-1] == GameWon(predator)
        assert game.state.phase == OVER


def test_the_circle_closes_step_by_step_from_five_to_one():
    game = playing("Ann", "Bo", "Cy", "Dee", "Eve", circle=["Ann", "Cy", "Eve", "Bo", "Dee"])
    expected = ["Ann", "Cy", "Eve", "Bo", "Dee"]
    for victim in ["Eve", "Ann", "Dee", "Cy"]:
        knock_out(game, victim)
        expected.remove(victim)
        assert list(game.state.circle) == expected
        assert set(game.state.still_in) == set(expected)
        assert [a for a, _ in game.view["arrows"]] == (expected if len(expected) > 1 else [])
    assert game.state.phase == OVER
    outcome = QUINTET.outcome(game.state)
    assert outcome is not None
    assert outcome.winners == ("Bo",)
    assert outcome.reason == LAST_STANDING == "last player standing"
    assert game.state.out == ("Eve", "Ann", "Dee", "Cy")
    assert QUINTET.current_player(game.state) is None
    game.refused({"type": "roll"}, "The game is over; start a new one")  # the engine's sentence, as in every game


def test_when_the_mover_is_knocked_out_the_turn_passes_on():
    game = playing("Ann", "Bo", "Cy", circle=["Ann", "Bo", "Cy"])  # Cy preys on Ann
    game.roll(1, 2)
    game.capture("Cy", "Ann", rule="rule7")
    game.capture("Cy", "Ann", rule="rule7")  # both of Ann's tokens landed on Cy
    assert "Ann" not in game.state.circle
    assert game.state.current == "Bo"
    assert game.state.dice is None
    assert QUINTET.current_player(game.state) == "Bo"


# -- rule 8: alliances after the circle closes ------------------------------------------------------


def five_with_cy_out() -> Game:
    """Ann → Bo → Cy → Dee → Eve → Ann; Bo has just captured Cy's last token."""
    game = playing("Ann", "Bo", "Cy", "Dee", "Eve")
    game.roll(1, 2)  # Ann
    game.roll(1, 2)  # Bo
    game.capture("Bo", "Cy")
    game.capture("Bo", "Cy")
    return game


def test_the_closing_circle_asks_about_the_newly_joined_pair():
    game = five_with_cy_out()
    assert game.state.circle == ("Ann", "Bo", "Dee", "Eve")
    assert game.view["alliances"] == [{"by": "Bo", "of": "Dee", "left": 2}]
    assert "Bo and Dee were allies: now Bo may capture Dee (rule 8)" in game.news
    assert game.view["captures"] == [{"type": "alliance_capture", "by": "Bo", "of": "Dee"}]
    game.refused({"type": "roll"}, r"First settle the new circle's alliances \(rule 8\)")
    game.refused({"type": "capture", "by": "Bo", "of": "Dee"}, r"rule 8")
    game.refused({"type": "end_turn"}, r"rule 8")


def test_an_alliance_turned_capture_is_recorded():
    game = five_with_cy_out()
    events = game.act({"type": "alliance_capture", "by": "Bo", "of": "Dee"})
    assert events == [Captured("Bo", "Dee", "rule8", left=1)]
    assert game.state.tokens_of("Dee") == 1
    assert game.view["alliances"] == [{"by": "Bo", "of": "Dee", "left": 1}]
    game.act({"type": "no_alliance_captures"})
    assert game.view["alliances"] == []
    assert game.state.current == "Bo"  # Bo's turn goes on
    game.roll(1, 2)
    assert game.state.current == "Dee"


def test_only_the_new_pair_can_break_an_alliance():
    game = five_with_cy_out()
    game.refused(
        {"type": "alliance_capture", "by": "Dee", "of": "Eve"},
        r"Dee and Eve did not just become predator and prey.*only turn Bo capturing Dee into a capture \(rule 8\)",
    )
    game.refused({"type": "alliance_capture", "by": "Dee", "of": "Bo"}, r"rule 8")


def test_no_alliance_question_without_a_closing_circle():
    game = playing("Ann", "Bo", "Cy")
    game.roll(1, 2)
    game.refused({"type": "alliance_capture", "by": "Ann", "of": "Cy"}, r"only right after a player is out")
    game.refused({"type": "no_alliance_captures"}, "no open question")


def test_an_alliance_capture_can_knock_out_and_close_the_circle_again():
    game = five_with_cy_out()
    game.act({"type": "alliance_capture", "by": "Bo", "of": "Dee"})
    events = game.act({"type": "alliance_capture", "by": "Bo", "of": "Dee"})
    assert [e.type for e in events] == ["captured", "player_out"]
    assert game.state.circle == ("Ann", "Bo", "Eve")
    assert game.view["alliances"] == [{"by": "Bo", "of": "Eve", "left": 2}]  # the next gap's pair
    game.act({"type": "alliance_capture", "by": "Bo", "of": "Eve"})
    game.act({"type": "no_alliance_captures"})
    assert game.state.tokens_of("Eve") == 1


def test_the_alliance_question_closes_itself_when_nothing_is_left_to_ask():
    game = playing("Ann", "Bo", "Cy", "Dee")
    game.roll(1, 2)
    game.roll(1, 2)  # Bo
    game.capture("Bo", "Cy")
    game.roll(1, 2)  # Cy, with one token
    game.capture("Cy", "Dee")
    game.roll(1, 2)  # Dee
    game.roll(1, 2)  # Ann
    game.roll(1, 2)  # Bo
    game.capture("Bo", "Cy")  # Cy is out; Bo (2 tokens) now preys on Dee (1 token): one alliance at most
    assert game.view["alliances"] == [{"by": "Bo", "of": "Dee", "left": 1}]
    events = game.act({"type": "alliance_capture", "by": "Bo", "of": "Dee"})
    assert [e.type for e in events] == ["captured", "player_out"]
    assert game.state.circle == ("Ann", "Bo")
    assert game.view["alliances"] == [{"by": "Bo", "of": "Ann", "left": 2}]


def test_an_alliance_capture_can_end_the_game():
    game = playing("Ann", "Bo", "Cy")
    game.roll(1, 2)
    game.capture("Ann", "Bo")
    game.capture("Ann", "Bo")  # Bo out: Ann now preys on Cy
    assert game.view["alliances"] == [{"by": "Ann", "of": "Cy", "left": 2}]
    game.act({"type": "alliance_capture", "by": "Ann", "of": "Cy"})
    events = game.act({"type": "alliance_capture", "by": "Ann", "of": "Cy"})
    assert events[-1] == GameWon("Ann")
    assert QUINTET.outcome(game.state).winners == ("Ann",)


# -- actions that make no sense --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "match"),
    [
        ({}, '"type"'),
        ({"type": 3}, '"type"'),
        ({"type": "jump"}, 'no action "jump"'),
        ({"type": "roll", "player": 7}, '"player" must be text'),
        ({"type": "roll", "player": "Zed"}, '"player" must name a player at the table'),
        ({"type": "capture"}, '"by"'),
        ({"type": "alliance_capture", "by": "Ann"}, '"of"'),
        ({"type": "alliance_capture", "by": "Ann", "of": "Bo"}, "only right after"),
        ({"type": "roll", "dice": [6, 6]}, '"dice"'),
    ],
)
def test_malformed_actions_are_refused_with_a_sentence(action, match):
    game = playing("Ann", "Bo", "Cy")
    game.roll(1, 2)
    game.refused(action, match)


def test_a_non_object_action_is_refused():
    game = Game("Ann", "Bo")
    game.refused(["roll"], '"type"')  # type: ignore[arg-type]


# -- views -------------------------------------------------------------------------------------------------


def test_the_public_view_shows_the_roll_and_what_may_be_captured():
    game = playing("Ann", "Bo", "Cy", circle=["Ann", "Cy", "Bo"])
    game.roll(6, 3)
    view = game.view
    assert view["dice"] == [6, 3]
    assert view["safety_offer"] == 1
    assert view["captures"] == [
        {"type": "capture", "by": "Ann", "of": "Cy", "rule": "order"},
        {"type": "capture", "by": "Bo", "of": "Ann", "rule": "rule7"},
    ]
    assert view["players"][0] == {
        "name": "Ann",
        "colour": SEAT_COLOURS[0],
        "tokens": 2,
        "out": False,
        "prey": "Cy",
        "predator": "Bo",
    }
    assert view["due_to_roll"] == "Bo"


def test_a_players_own_view_holds_nothing_the_table_cannot_see():
    game = playing("Ann", "Bo")
    game.roll(1, 2)
    mine = QUINTET.private_view(game.state, "Bo")
    assert mine.pop("you") == "Bo"
    assert mine == game.view


# -- what may be done now -------------------------------------------------------------------------------------------


def legal(game: Game, player: str) -> list[Action]:
    actions = list(QUINTET.legal_actions(game.state, player))
    for action in actions:
        assert QUINTET.refusal(game.state, action) is None, f"{action} is listed but refused"
    return actions


def test_the_roll_is_listed_for_whoever_it_is_due_to():
    game = Game("Ann", "Bo", "Cy")
    assert legal(game, "Ann") == [Roll("Ann")]
    assert legal(game, "Bo") == []
    game.roll(6, 6)
    assert legal(game, "Bo") == [Roll("Bo")]
    game.roll(1, 1)
    game.roll(1, 2)
    # Any order of the players may be the circle: it is asked about, not listed.
    assert [legal(game, p) for p in game.names] == [[], [], []]
    game.act({"type": "set_circle", "order": ["Ann", "Cy", "Bo"]})
    assert legal(game, "Ann") == [Roll("Ann")]


def test_a_turns_actions_are_the_movers_and_the_view_lists_the_same_captures():
    game = playing("Ann", "Bo", "Cy", circle=["Ann", "Cy", "Bo"])
    assert legal(game, "Ann") == [Roll("Ann")]
    game.roll(6, 6)
    assert legal(game, "Ann") == [
        Capture("Ann", "Cy", "order"),
        Capture("Bo", "Ann", "rule7"),
        Safety("Ann", 1),
        Safety("Ann", 2),
        EndTurn("Ann"),
    ]
    assert legal(game, "Bo") == [Roll("Bo")]  # rolling ends Ann's turn
    assert legal(game, "Cy") == []
    assert game.view["captures"] == [to_json(a) for a in legal(game, "Ann") if isinstance(a, Capture)]
    game.act(Safety("Ann", 2))
    assert legal(game, "Ann") == [EndTurn("Ann")]  # both tokens are in Safety: nothing lands
    game.act(EndTurn("Ann"))
    game.roll(5, 5)  # Bo: double fives, no six
    assert legal(game, "Bo") == [Roll("Bo"), Capture("Bo", "Ann", "order"), Capture("Cy", "Bo", "rule7"), EndTurn("Bo")]


def test_the_rule_8_question_is_all_there_is_to_do():
    game = five_with_cy_out()
    assert legal(game, "Bo") == [AllianceCapture("Bo", "Dee"), NoAllianceCaptures()]
    assert game.view["captures"] == [{"type": "alliance_capture", "by": "Bo", "of": "Dee"}]
    assert [legal(game, p) for p in ("Ann", "Dee", "Eve")] == [[], [], []]
    assert game.view["due_to_roll"] is None


def test_nothing_is_listed_once_the_game_is_over():
    game = playing("Ann", "Bo")
    knock_out(game, "Bo")
    assert game.state.phase == OVER
    assert [legal(game, p) for p in game.names] == [[], []]


# -- what the table reads --------------------------------------------------------------------------------------------


def test_the_news_is_made_from_the_events_facts():
    game = Game("Ann", "Bo", "Cy")
    assert game.news == "Opening roll: Ann rolls first; the highest total plays first."
    game.roll(3, 4)
    assert game.news == "Ann rolled 3 and 4: 7. Bo rolls next."
    game.roll(4, 3)
    game.roll(1, 1)
    assert game.news == (
        "Ann rolled the highest, 7, plays first and sets the capturing circle. (Bo also rolled 7, but later.)"
    )
    game.act({"type": "set_circle", "order": ["Ann", "Cy", "Bo"]})
    assert game.news == "Capturing circle: Ann → Cy → Bo → Ann. Ann rolls on first."
    game.roll(2, 2)
    assert game.news == "Ann rolled 2 and 2 and enters both tokens on space 2: a barricade. Bo rolls on next."
    game.roll(1, 2)
    game.roll(3, 6)
    assert game.news == "Cy rolled 3 and 6 and enters tokens on spaces 3 and 6. Everyone is on the board: Ann rolls."
    game.roll(6, 1)
    assert game.news == "Ann rolled 6 and 1. A six: a token may enter the nearest Safety space."
    game.act(Safety("Ann", 1))
    assert game.news == "Ann: a token enters Safety."
    game.capture("Bo", "Ann")
    assert game.news == "Bo captured a token of Ann (Ann landed on its predator, rule 7); Ann has 1 left."
    game.act(EndTurn())
    assert game.news == "Bo's turn."


def test_the_news_of_a_mover_knocked_out_says_whose_turn_it_is():
    game = playing("Ann", "Bo", "Cy", circle=["Ann", "Bo", "Cy"])  # Cy preys on Ann
    game.roll(1, 2)
    game.capture("Cy", "Ann", rule="rule7")
    game.capture("Cy", "Ann", rule="rule7")
    assert game.news == (
        "Ann is out. New capturing circle: Bo → Cy → Bo. Cy and Bo were allies: now Cy may capture Bo (rule 8). "
        "Does a space hold them both? Bo's turn."
    )
    game.act(NoAllianceCaptures())
    assert game.news == "No old allies shared a space. Bo rolls."
    knock_out(game, "Bo")
    assert game.news == "Cy is the last player standing and wins!"


def test_every_event_reads_back_from_its_json_as_it_was():
    game = five_with_cy_out()
    game.act({"type": "alliance_capture", "by": "Bo", "of": "Dee"})
    game.act({"type": "no_alliance_captures"})
    for event in game.events:
        assert QUINTET.event_from_json(to_json(event)) == event


# -- leaving while rolling on or in play; the rules module named directly ---------------------------


def test_the_last_to_roll_on_leaves_and_play_begins_with_the_first_player():
    """Rolling on: "Play continues until all players have 'rolled on'"; RULINGS: "at any moment", so a leaver
    who was the last to roll on ends the rolling on, and the first player rolls to start play."""
    game = opened("Ann", "Bo", "Cy")
    game.act({"type": "set_circle", "order": ["Ann", "Bo", "Cy"]})
    game.roll(3, 4)  # Ann
    game.roll(1, 2)  # Bo
    assert game.state.current == "Cy"
    game.act({"type": "leave", "player": "Cy"})
    assert (game.state.phase, game.state.current, game.state.circle) == (PLAY, "Ann", ("Ann", "Bo"))
    assert (
        game.news == "Cy left the game. New capturing circle: Ann → Bo → Ann. Bo and Ann were allies: "
        "now Bo may capture Ann (rule 8). Does a space hold them both? Ann's turn."
    )


def test_when_the_last_but_one_leaves_the_table_is_told_who_wins():
    """RULINGS: "Two players: the other wins (outcome reason "left")"; the table is told so."""
    game = playing("Ann", "Bo")
    game.act({"type": "leave", "player": "Ann"})
    assert game.news == "Ann left the game. Bo is the only player left and wins!"
    assert QUINTET.outcome(game.state).winners == ("Bo",)


def test_the_next_seat_among_nobody_is_the_player_again():
    """Turn order follows the seats among those named; with nobody named, the turn does not move."""
    state = playing("Ann", "Bo", "Cy").state
    assert state.next_seat("Ann", ("Cy",)) == "Cy"
    assert state.next_seat("Ann", ()) == "Ann"


def test_the_rules_module_named_directly_refuses_what_the_engine_keeps_from_it():
    """The engine answers `leave` and `player_left` itself; the rules module handed them says it has none."""
    from companion.game import Leave, PlayerLeft, UnknownEvent

    class Stray(Event):
        type = "stray"

    state = playing("Ann", "Bo").state
    with pytest.raises(RuleError, match=r"^Quintet has no action 'leave'\.$"):
        rules.decide(state, Leave("Ann"), ScriptedDice())
    with pytest.raises(UnknownEvent, match=r"^Quintet does not know the event PlayerLeft"):
        rules.evolve(state, PlayerLeft("Ann"))
    with pytest.raises(UnknownEvent, match=r"^Quintet does not know the event .*Stray"):
        views.tell(Stray(), state)


def test_the_last_to_roll_in_the_opening_leaves_and_the_highest_so_far_sets_the_circle():
    """RULINGS: "a tie goes to the first to roll the highest total"; a leave "at any moment": the opening
    is decided among those who rolled."""
    game = Game("Ann", "Bo", "Cy")
    game.roll(2, 3)  # Ann
    game.roll(4, 4)  # Bo
    game.act({"type": "leave", "player": "Cy"})
    assert (game.state.phase, game.state.first, game.state.current) == (CIRCLE, "Bo", "Bo")


def test_a_leaver_whose_turn_it_was_to_roll_on_passes_it_to_the_next_still_to_roll():
    """Rolling on goes round the seats "until all players have 'rolled on'"; the leaver's turn passes on."""
    game = opened("Ann", "Bo", "Cy")
    game.act({"type": "set_circle", "order": ["Ann", "Bo", "Cy"]})
    game.roll(3, 4)  # Ann
    game.act({"type": "leave", "player": "Bo"})
    assert (game.state.phase, game.state.current) == (ROLLING_ON, "Cy")
