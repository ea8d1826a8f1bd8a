"""The Quintet screen's presenter, without a window: what the screen shows, and the actions its taps send."""

from __future__ import annotations

from dataclasses import dataclass

from companion.game import Leave, Options
from companion.games.quintet.rules import (
    AllianceCapture,
    Capture,
    EndTurn,
    NoAllianceCaptures,
    Roll,
    Safety,
    SetCircle,
)
from companion.session import Session
from companion.store import Store
from ui.presenters import on_screen
from ui.presenters.quintet import (
    ButtonShown,
    Pick,
    QuintetPresenter,
    QuintetShown,
    StartOver,
    last_roll_note,
)


class ScriptedDice:
    """Dice that roll exactly the values a test lists."""

    def __init__(self) -> None:
        self.values: list[int] = []

    def roll(self, sides: int = 6) -> int:
        assert self.values, "the test rolled more dice than it scripted"
        return self.values.pop(0)


class Table:
    """A session of Quintet with scripted dice, and the presenter of its screen."""

    def __init__(self, *names: str) -> None:
        self.dice = ScriptedDice()
        self.session = Session.start(
            Store.in_memory(), "quintet", Options.for_names(*names), dice=self.dice, clock=lambda: 0.0
        )
        self.presenter = QuintetPresenter(self.session)

    def shown(self) -> QuintetShown:
        return self.presenter.show()

    def roll(self, a: int, b: int) -> None:
        self.dice.values += [a, b]
        self.session.act(self.presenter.roll())

    def press(self, text: str) -> None:
        """Tap the button with these words, and send what it sends."""
        action = self.presenter.tap(button(self.shown(), text).tap)
        if action is not None:
            self.session.act(action)


def button(shown: QuintetShown, text: str) -> ButtonShown:
    found = [b for b in shown.buttons() if b.text == text]
    assert found, f"no button {text!r} among {[b.text for b in shown.buttons()]}"
    return found[0]


def texts(shown: QuintetShown) -> list[list[str]]:
    return [[b.text for b in row] for row in shown.rows]


def opened(*names: str) -> Table:
    """The opening rolled: the first seat won it and sets the circle."""
    table = Table(*names)
    table.roll(6, 6)
    for _ in names[1:]:
        table.roll(1, 2)
    return table


def playing(*names: str, circle: tuple[str, ...] | None = None) -> Table:
    """In play: the first seat won the opening, the circle given (default: seat order), everyone rolled on."""
    table = opened(*names)
    table.session.act(SetCircle(circle or names))
    for _ in names:
        table.roll(1, 2)
    return table


# -- the opening roll --------------------------------------------------------------------------------------------


def test_before_the_first_roll_the_screen_says_who_rolls_and_how_the_opening_works():
    shown = Table("Ann", "Bo", "Cy").shown()
    assert shown.phase == "opening"
    assert (shown.roll_text, shown.can_roll) == ("Ann: opening roll", True)
    assert (shown.dice, shown.dice_text, shown.rolls) == (None, "", 0)
    assert shown.news == "Opening roll: Ann rolls first; the highest total plays first."
    assert shown.note.startswith("Opening roll, in seat order: the highest total plays first")
    assert "So far" not in shown.note
    assert shown.rows == ()
    assert (shown.circle, shown.circle_closed, shown.highlighted) == ((), False, "Ann")
    assert [(p.name, p.tokens, p.out) for p in shown.players] == [("Ann", 2, False), ("Bo", 2, False), ("Cy", 2, False)]


def test_the_big_button_sends_the_same_roll_a_gpio_button_would():
    table = Table("Ann", "Bo")
    assert table.presenter.roll() == Roll()  # no player: whoever is due rolls
    table.roll(3, 4)
    shown = table.shown()
    assert (shown.dice, shown.dice_text, shown.rolls) == ((3, 4), "3 + 4 = 7", 1)
    assert shown.roll_text == "Bo: opening roll"
    assert shown.note.endswith("So far: Ann 7")
    assert shown.news == "Ann rolled 3 and 4: 7. Bo rolls next."


# -- the capturing circle ------------------------------------------------------------------------------------------


def test_the_circle_is_tapped_player_by_player_and_the_last_one_is_added_for_you():
    table = opened("Ann", "Bo", "Cy", "Dee")
    shown = table.shown()
    assert (shown.roll_text, shown.can_roll) == ("Set the circle first", False)
    assert shown.note == "", "the order line says what to do"
    assert "Ann" in shown.news and "sets the capturing circle" in shown.news
    assert texts(shown) == [["Ann", "Bo", "Cy"], ["Dee", "Start over"]]
    assert shown.order_text == "Capturing order: tap who captures first; each captures the next."
    assert shown.dice == (1, 2)  # the last opening roll stays on show
    assert table.presenter.tap(Pick("Ann")) is None
    assert table.presenter.tap(Pick("Dee")) is None
    shown = table.shown()
    assert table.presenter.picked == ("Ann", "Dee")
    assert (shown.circle, shown.circle_closed) == (("Ann", "Dee"), False)
    assert texts(shown) == [["Ann: 1st", "Bo", "Cy"], ["Dee: 2nd", "Start over"]]
    assert shown.order_text == "Capturing order so far: Ann › Dee"
    assert table.presenter.tap(Pick("Dee")) is None  # tapped already: nothing changes
    assert table.presenter.picked == ("Ann", "Dee")
    action = table.presenter.tap(Pick("Cy"))
    assert action == SetCircle(("Ann", "Dee", "Cy", "Bo"))
    assert table.presenter.picked == ()
    assert table.session.refusal(action) is None
    table.session.act(action)
    shown = table.shown()
    assert (shown.circle, shown.circle_closed) == (("Ann", "Dee", "Cy", "Bo"), True)
    assert shown.news == on_screen("Capturing circle: Ann → Dee → Cy → Bo → Ann. Ann rolls on first.")
    assert "→" not in shown.news and "›" in shown.news


def test_start_over_forgets_the_players_tapped():
    table = opened("Ann", "Bo", "Cy")
    table.presenter.tap(Pick("Ann"))
    assert "Start over" in [b.text for b in table.shown().buttons()]
    table.press("Start over")
    assert table.presenter.picked == ()
    assert texts(table.shown()) == [["Ann", "Bo", "Cy"], ["Start over"]]
    assert not button(table.shown(), "Start over").enabled
    assert table.presenter.tap(StartOver()) is None


def test_two_players_need_one_tap():
    table = opened("Ann", "Bo")
    assert table.presenter.tap(Pick("Bo")) == SetCircle(("Bo", "Ann"))


def test_a_half_tapped_circle_is_forgotten_when_the_circle_is_no_longer_being_set():
    table = opened("Ann", "Bo", "Cy")
    table.presenter.tap(Pick("Bo"))
    table.session.undo()  # back to the opening roll
    assert table.shown().circle == ()
    assert table.presenter.picked == ()
    assert table.presenter.tap(Pick("Ann")) is None  # no circle to set now
    assert table.presenter.picked == ()


# -- rolling on and play -----------------------------------------------------------------------------------------


def test_rolling_on_lists_where_each_player_entered():
    table = opened("Ann", "Bo")
    table.session.act(SetCircle(("Ann", "Bo")))
    table.roll(4, 4)
    shown = table.shown()
    assert shown.roll_text == "Bo: roll on"
    assert shown.note.startswith("Rolling on: a token on each space the dice name")
    assert shown.note.endswith("Ann: 4 and 4")
    assert "a barricade" in shown.news
    assert shown.rows == ()


def test_after_a_roll_the_buttons_are_the_movers_legal_actions():
    table = playing("Ann", "Bo", "Cy", circle=("Ann", "Cy", "Bo"))
    assert table.shown().roll_text == "Roll for Ann"
    table.roll(6, 2)
    shown = table.shown()
    assert texts(shown) == [
        ["Ann captured Cy"],
        ["Bo captured Ann: Ann landed on Bo (rule 7)"],
        ["Token to Safety", "Turn done"],
    ]
    assert [b.tap for b in shown.buttons()] == [
        Capture("Ann", "Cy", "order"),
        Capture("Bo", "Ann", "rule7"),
        Safety("Ann", 1),
        EndTurn("Ann"),
    ]
    assert not any(b.accent for b in shown.buttons())
    for b in shown.buttons():
        assert table.session.refusal(table.presenter.tap(b.tap)) is None
    assert shown.roll_text == "Roll for Bo"  # a roll ends Ann's turn
    assert shown.news_tone == "text"
    table.press("Token to Safety")
    assert texts(table.shown()) == [["Ann captured Cy"], ["Bo captured Ann: Ann landed on Bo (rule 7)"], ["Turn done"]]


def test_double_sixes_offer_both_tokens_to_safety():
    table = playing("Ann", "Bo")
    table.roll(6, 6)
    assert texts(table.shown())[-1] == ["Token to Safety", "Both to Safety", "Turn done"]
    table.press("Both to Safety")
    assert texts(table.shown()) == [["Turn done"]]  # no token is left to land on anyone


def test_double_fives_say_roll_again_in_the_warning_colour():
    table = playing("Ann", "Bo")
    table.roll(5, 5)
    shown = table.shown()
    assert (shown.roll_text, shown.news_tone) == ("Ann: roll again", "warn")
    assert "roll again" in shown.news


def test_someone_out_asks_the_alliance_question_and_rolling_waits():
    table = playing("Ann", "Bo", "Cy", "Dee", "Eve")
    table.roll(1, 2)  # Ann
    table.roll(1, 2)  # Bo
    table.press("Bo captured Cy")
    table.press("Bo captured Cy")
    shown = table.shown()
    assert shown.out_note == "Out: Cy"
    assert [p.out for p in shown.players] == [False, False, True, False, False]
    assert shown.circle == ("Ann", "Bo", "Dee", "Eve")
    assert "New capturing circle: Ann › Bo › Dee › Eve › Ann" in shown.news
    # Plain words first, the rule's number beside (issue 21: "rule 8" alone is jargon a new group cannot read).
    assert "Bo and Dee were allies: now Bo may capture Dee (rule 8)" in shown.news
    assert (shown.roll_text, shown.can_roll) == ("Old allies first (rule 8)", False)
    assert texts(shown) == [["Bo captured Dee: old allies (rule 8)"], ["No old allies on one space"]]
    assert [b.accent for b in shown.buttons()] == [False, True]
    assert [b.tap for b in shown.buttons()] == [AllianceCapture("Bo", "Dee"), NoAllianceCaptures()]
    table.press("No old allies on one space")
    shown = table.shown()
    assert shown.can_roll
    assert texts(shown) == [["Turn done"]]  # both of Bo's tokens have landed this roll


def test_the_end_names_the_winner():
    table = playing("Ann", "Bo")
    table.roll(1, 2)
    table.press("Ann captured Bo")
    table.press("Ann captured Bo")
    shown = table.shown()
    assert shown.phase == "over"
    assert (shown.roll_text, shown.can_roll) == ("Game over", False)
    assert shown.news == "Ann is the last player standing and wins!"
    assert shown.note.startswith("Ann is the last player standing after")
    assert shown.highlighted == "Ann"
    assert shown.rows == ()
    assert shown.circle == ("Ann",)


def test_the_circle_buttons_keep_their_slots_after_each_tap():
    """Issue 21: "Quintet's capturing-circle buttons shift left after each tap (aiming at Bo gave Ann › Cy › Bo)."

    Every button keeps its row and place; a player tapped stays where they were, greyed and marked with
    their place in the order, and the order is shown apart.
    """
    table = opened("Ann", "Bo", "Cy", "Dee", "Eve")
    before = [[b.tap for b in row] for row in table.shown().rows]
    assert texts(table.shown()) == [["Ann", "Bo", "Cy"], ["Dee", "Eve", "Start over"]]
    table.press("Ann")
    table.press("Cy")
    shown = table.shown()
    assert [[b.tap for b in row] for row in shown.rows] == before  # nothing slid into another's place
    assert texts(shown) == [["Ann: 1st", "Bo", "Cy: 2nd"], ["Dee", "Eve", "Start over"]]
    assert [b.enabled for b in shown.buttons()] == [False, True, False, True, True, True]
    assert shown.order_text == "Capturing order so far: Ann › Cy"
    table.press("Bo")  # aimed at Bo, got Bo
    assert table.presenter.picked == ("Ann", "Cy", "Bo")


def test_a_player_who_left_before_the_circle_is_not_offered_for_it():
    table = opened("Ann", "Bo", "Cy")
    table.session.act(Leave("Cy"))
    assert texts(table.shown()) == [["Ann", "Bo", "Start over"]]
    assert table.presenter.tap(Pick("Ann")) == SetCircle(("Ann", "Bo"))


def test_the_dice_show_the_true_last_roll_after_a_player_leaves():
    """Issue 21: "After Bo left Quintet, the dice showed 5+1 although the last roll was 2+2"."""
    table = Table("Ann", "Bo", "Cy")
    for a, b in ((6, 6), (1, 2), (1, 2)):
        table.roll(a, b)
    table.session.act(SetCircle(("Ann", "Bo", "Cy")))
    for a, b in ((1, 3), (1, 4), (5, 1)):  # the rolls on: Ann, Bo, then Cy's 5 + 1
        table.roll(a, b)
    table.roll(2, 2)  # Ann's turn
    table.roll(2, 2)  # Bo's turn
    table.session.act(Leave("Bo"))
    shown = table.shown()
    assert (shown.dice, shown.dice_text) == ((2, 2), "2 + 2 = 4")
    table.press("No old allies on one space")
    assert table.shown().dice == (2, 2)  # Cy's turn: nothing rolled since Bo's 2 + 2


def test_a_game_ended_by_leaving_greys_every_action():
    """Issue 21: "'Roll for Cy' stays bright on a finished game": on a finished game every action is disabled."""
    table = playing("Ann", "Bo", "Cy")
    table.roll(5, 1)  # Ann
    table.roll(2, 2)  # Bo
    table.session.act(Leave("Bo"))
    table.session.act(Leave("Ann"))
    shown = table.shown()
    assert (shown.roll_text, shown.can_roll) == ("Game over", False)
    assert shown.rows == ()
    assert shown.highlighted == "Cy"
    assert shown.news == "Ann left the game. Cy is the only player left and wins!"
    assert shown.note == ""  # said once, not twice
    assert shown.out_note == "Left: Ann, Bo"
    assert [p.out for p in shown.players] == [True, True, False]
    assert shown.dice == (2, 2)


def test_a_refused_action_is_the_rules_sentence_not_the_presenters():
    table = playing("Ann", "Bo", "Cy")
    table.roll(1, 2)
    assert "(rule 4)" in (table.session.refusal(Capture("Ann", "Cy")) or "")


# -- the dice statistics popup --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredMove:
    events: tuple[dict, ...]
    at: float
    undone: bool = False


def test_the_last_roll_note_names_the_time_of_the_last_roll_still_in_the_game():
    assert last_roll_note([]) == ""
    moves = [
        StoredMove(({"type": "rolled", "dice": [1, 2]},), at=0.0),
        StoredMove(({"type": "captured", "by": "Ann", "of": "Bo"},), at=7200.0),
        StoredMove(({"type": "rolled", "dice": [3, 4]},), at=9999.0, undone=True),
    ]
    note = last_roll_note(moves)
    assert note.startswith("Last roll logged at ") and note.endswith(".")
    assert note == last_roll_note(moves[:1])
