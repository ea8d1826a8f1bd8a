"""Someone leaves, without a window: who may, what the table is asked, and what a Yes sends.

RULINGS.md, "Every game: a player leaves":

- "`leave` takes a player out for good, at any moment, by their own wish."
- "Two players: the other wins (outcome reason "left")."
- "Whenever one player remains, that player wins."
"""

from __future__ import annotations

from pathlib import Path

from companion.dice import RandomDice
from companion.game import LEFT, Leave, Options, Player
from companion.session import Session
from companion.store import Store
from tests.support import ManualClock
from ui.presenters import leave as presenter

SEATS = (Player("Ann", "#e53935"), Player("Bo", "#1e88e5"), Player("Cy", "#8e24aa"), Player("Dee", "#fdd835"))


def test_two_players_the_question_says_the_other_wins() -> None:
    """RULINGS: "Two players: the other wins (outcome reason "left")": the table is told before Yes."""
    ann, bo = presenter.leavers(SEATS[:2], ("Ann", "Bo"), over=False)
    assert ann.question == "Ann leaves the game for good? Bo wins."
    assert bo.question == "Bo leaves the game for good? Ann wins."
    assert (ann.yes_text, presenter.NO_TEXT) == ("Yes, Ann leaves", "No, back")
    assert ann.action == Leave("Ann")
    assert presenter.hint(("Ann", "Bo")) == "Leaving is for good: the other player wins."


def test_with_more_players_play_goes_on_and_the_last_two_are_a_win() -> None:
    """RULINGS: "at any moment": with three or more play goes on; "Whenever one player remains, that player
    wins": once only two are in, leaving is a win for the other."""
    leavers = presenter.leavers(SEATS, ("Ann", "Bo", "Cy", "Dee"), over=False)
    assert leavers[1].question == "Bo leaves the game for good? Play goes on with Ann, Cy and Dee."
    assert presenter.hint(("Ann", "Bo", "Cy")) == "Leaving is for good: the game goes on without them."
    three = presenter.leavers(SEATS, ("Ann", "Cy", "Dee"), over=False)
    assert three[0].question == "Ann leaves the game for good? Play goes on with Cy and Dee."
    two = presenter.leavers(SEATS, ("Cy", "Ann"), over=False)
    assert [leaver.question for leaver in two] == [
        "Ann leaves the game for good? Cy wins.",
        "Cy leaves the game for good? Ann wins.",
    ]
    assert two[0].done_text == "Ann left the game. Cy wins. Undo takes it back."


def test_only_players_still_in_may_leave_in_seat_order_and_nobody_once_it_is_over() -> None:
    """RULINGS: "`leave` takes a player out for good": someone gone (or knocked out) is not offered again,
    and nobody leaves a finished game."""
    leavers = presenter.leavers(SEATS, ("Dee", "Bo", "Ann"), over=False)  # the circle's order, not the seats'
    assert [leaver.name for leaver in leavers] == ["Ann", "Bo", "Dee"]
    assert [leaver.colour for leaver in leavers] == ["#e53935", "#1e88e5", "#fdd835"]
    assert presenter.leavers(SEATS, ("Ann", "Bo"), over=True) == ()


def test_a_name_is_written_in_ink_on_a_light_colour_and_light_on_a_dark_one() -> None:
    """Each name keeps its player's colour and stays readable on it: the higher contrast of ink and light."""
    assert presenter.is_light("#fdd835") and presenter.is_light("#1e88e5")
    assert not presenter.is_light("#8e24aa") and not presenter.is_light("#000000")
    assert not presenter.is_light("not a colour")


def test_the_action_a_yes_sends_is_the_engines_leave(tmp_path: Path) -> None:
    """RULINGS: "Two players: the other wins (outcome reason "left")": the presenter's action, sent to a
    real session, ends the game that way; and the session says who is still in, as the picker asks it."""
    with Store.open(tmp_path / "games.db") as store:
        options = Options(SEATS[:2])
        session = Session.start(store, "quinque", options, dice=RandomDice.seeded(1), clock=ManualClock())
        assert session.players_in == ("Ann", "Bo")
        leavers = presenter.leavers(options.players, session.players_in, over=session.outcome is not None)
        session.act(leavers[1].action)
        outcome = session.outcome
        assert outcome is not None and outcome.winners == ("Ann",) and outcome.reason == LEFT
        assert session.players_in == ("Ann",)
        assert presenter.leavers(options.players, session.players_in, over=True) == ()
