"""Someone leaves, with real taps: Menu → "Someone leaves…" → a name → "Yes, Ann leaves"; and Undo.

RULINGS.md, "Every game: a player leaves":

- "`leave` takes a player out for good, at any moment, by their own wish."
- "Two players: the other wins (outcome reason "left")."
- "Quintet: the circle closes over the gap as on an elimination."
- "Whenever one player remains, that player wins."

Issue 14: "Undo takes a leave back like any action."
"""

from __future__ import annotations

from typing import Any

from companion.game import LEFT
from companion.games.quintet.rules import PLAY


def _popup(ui: Any, kind: str) -> Any:
    ui.settle()
    popups = [view for view in ui.window.children if type(view).__name__ == kind]
    assert len(popups) == 1, [type(view).__name__ for view in ui.window.children]
    return popups[0]


def _no_popup(ui: Any) -> bool:
    from kivy.uix.modalview import ModalView

    ui.settle()
    return not any(isinstance(view, ModalView) for view in ui.window.children)


def open_picker(ui: Any, screen: Any) -> Any:
    ui.tap(ui.find(screen, "menu_button"))
    leave_button = ui.find(_popup(ui, "GameMenu"), "leave_button")
    assert leave_button.text == "Someone leaves…" and not leave_button.disabled
    ui.tap(leave_button)
    return _popup(ui, "LeavePicker")


def names_offered(picker: Any) -> list[str]:
    return [button.text for button in reversed(picker.ids.names.children)]


def pick(ui: Any, picker: Any, name: str) -> Any:
    ui.tap(next(button for button in picker.ids.names.children if button.text == name))
    return _popup(ui, "LeaveConfirm")


def quintet_of_three_in_play(ui: Any) -> Any:
    """Quintet for Ann, Bo and Cy through the opening roll, the circle and rolling on (the session does the
    setting up; the leaving below is all taps)."""
    screen = ui.start_game("quintet", ["Ann", "Bo", "Cy"])
    session = screen.session
    while session.state.phase != PLAY:
        state = session.state
        if state.phase == "circle":
            session.act({"type": "set_circle", "by": state.first, "order": ["Ann", "Bo", "Cy"]})
        else:
            session.act({"type": "roll"})
    ui.frames(4)
    return screen


def test_in_a_quintet_of_three_one_leaves_the_circle_closes_and_play_goes_on(ui: Any) -> None:
    """RULINGS: "Quintet: the circle closes over the gap as on an elimination." With three, Bo leaving
    leaves Ann and Cy playing; Undo brings Bo back into the circle."""
    screen = quintet_of_three_in_play(ui)
    session = screen.session
    before = session.public_view()
    assert before["circle"] == ["Ann", "Bo", "Cy"]

    picker = open_picker(ui, screen)
    assert names_offered(picker) == ["Ann", "Bo", "Cy"]
    ui.screenshot("leave-picker-three.png")
    confirm = pick(ui, picker, "Bo")
    assert confirm.ids.question_label.text == "Bo leaves the game for good? Play goes on with Ann and Cy."
    assert (confirm.ids.yes_button.text, confirm.ids.no_button.text) == ("Yes, Bo leaves", "No, back")
    ui.tap(confirm.ids.yes_button)
    assert _no_popup(ui)

    assert session.players_in == ("Ann", "Cy")
    view = session.public_view()
    assert view["circle"] == ["Ann", "Cy"] and view["gone"] == ["Bo"]
    assert session.outcome is None and session.current_player in ("Ann", "Cy")
    assert screen.turn_text == f"{session.current_player} to play"
    assert screen.banner == "Bo left the game. Play goes on with Ann and Cy. Undo takes it back."
    ui.screenshot("leave-quintet.png")
    assert not screen.banner_is_error

    # The next time, Bo is not offered, and Ann leaving now would be a win for Cy.
    picker = open_picker(ui, screen)
    assert names_offered(picker) == ["Ann", "Cy"]
    confirm = pick(ui, picker, "Ann")
    assert confirm.ids.question_label.text == "Ann leaves the game for good? Cy wins."
    ui.tap(confirm.ids.no_button)  # "No, back": nothing is sent
    assert _no_popup(ui)
    assert session.players_in == ("Ann", "Cy") and len(session.moves) > 0

    # Undo takes the leave back: Bo is in the circle again.
    ui.tap(ui.find(screen, "undo_button"))
    assert session.players_in == ("Ann", "Bo", "Cy")
    assert session.public_view() == before


def test_in_a_two_player_game_the_other_wins_with_reason_left_and_undo_brings_them_back(ui: Any) -> None:
    """RULINGS: "Two players: the other wins (outcome reason "left")." The screen says Game over; the
    Menu then offers nobody to leave; Undo takes the leave back and the game is on again."""
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    session = screen.session
    picker = open_picker(ui, screen)
    assert names_offered(picker) == ["Ann", "Bo"]
    assert picker.hint == "Leaving is for good: the other player wins."
    ui.screenshot("leave-picker.png")
    confirm = pick(ui, picker, "Ann")
    assert confirm.ids.question_label.text == "Ann leaves the game for good? Bo wins."
    ui.screenshot("leave-confirm.png")
    ui.tap(confirm.ids.yes_button)
    assert _no_popup(ui)

    outcome = session.outcome
    assert outcome is not None and outcome.winners == ("Bo",) and outcome.reason == LEFT
    assert screen.turn_text == "Game over"
    assert screen.banner == "Ann left the game. Bo wins. Undo takes it back."
    record = ui.store.game(session.game_id)
    assert record is not None and record.outcome is not None and record.outcome["reason"] == "left"
    ui.screenshot("leave-over.png")

    ui.tap(ui.find(screen, "menu_button"))
    menu = _popup(ui, "GameMenu")
    assert ui.find(menu, "leave_button").disabled  # the game is over: nobody is left to leave it
    # nor a clock to pause, a result to throw away or a game to keep for later
    assert ui.find(menu, "clock_button").disabled and ui.find(menu, "end_button").disabled
    assert ui.find(menu, "home_button").text == "Home"
    ui.screenshot("menu-game-over.png")
    ui.tap(ui.find(menu, "back_button"))
    assert _no_popup(ui)
    screen.open_leave()  # reached anyway (a second finger on the Menu as it greyed out): one sentence, no picker
    assert _no_popup(ui)
    assert screen.banner_is_error and screen.banner == "The game is over: nobody can leave it now."

    ui.tap(ui.find(screen, "undo_button"))
    assert session.outcome is None and session.players_in == ("Ann", "Bo")
    assert screen.turn_text == "Ann to play"
    record = ui.store.game(session.game_id)
    assert record is not None and record.outcome is None


def test_quantum_link_a_refused_leave_shows_in_the_banner(ui: Any) -> None:
    """RULINGS: "`leave` takes a player out for good": if the game ended between the picker and the Yes (a
    display's key, a second finger), the engine refuses and the banner says why; nothing else changes."""
    screen = ui.start_game("quantum-link", ["Ann", "Bo"])
    session = screen.session
    confirm = pick(ui, open_picker(ui, screen), "Bo")
    session.act({"type": "leave", "player": "Ann"})  # the game ends under the open question
    ui.frames(3)
    ui.tap(confirm.ids.yes_button)
    assert _no_popup(ui)
    assert screen.banner_is_error and screen.banner == "The game is over; start a new one to play again."
    outcome = session.outcome
    assert outcome is not None and outcome.winners == ("Bo",) and len(session.moves) == 1


def test_five_names_fit_the_screen_in_their_colours(ui: Any) -> None:
    """Quintet seats five: every name is a big button on the 800×480 screen, none cut short, each in its
    player's colour."""
    screen = ui.start_game("quintet", ["Ann", "Bo", "Cy", "Dee", "Eve"])
    picker = open_picker(ui, screen)
    assert names_offered(picker) == ["Ann", "Bo", "Cy", "Dee", "Eve"]
    assert picker.y >= 0 and picker.top <= ui.window.height
    colours = {seat.name: seat.colour for seat in screen.session.options.players}
    for button in picker.ids.names.children:
        assert button.height >= 56 and button.texture_size[0] <= button.width
        assert button.leaver.colour == colours[button.text]
        assert list(button.background_color) == list(button.colour)
    ui.screenshot("leave-picker-five.png")


def _look(picker: Any) -> tuple[Any, ...]:
    """What a player sees of the picker: its title, hint and each widget's kind, words, colour and place."""

    def place(w: Any) -> tuple[int, ...]:
        return tuple(round(v) for v in (*w.to_window(*w.pos), *w.size))

    widgets = [
        (type(w).__name__, getattr(w, "text", None), list(getattr(w, "colour", [])), place(w))
        for w in picker.walk(restrict=True)
    ]
    return picker.title, picker.hint, widgets


def test_the_screen_keeps_its_picker_and_it_offers_who_may_leave_now_as_a_new_one_would(ui: Any) -> None:
    """Issue 26: "Every tap answered quickly" (the picker was built at each tap). A game screen makes its picker
    while the table looks at the board, and Menu → "Someone leaves…" opens it, set for who may leave now
    (RULINGS: "`leave` takes a player out for good"): after Bo has left, Bo is not offered; after Undo, Bo is
    again. At each opening it is, widget for widget, a picker made new then."""
    from ui.screens.base import AHEAD_SECONDS
    from ui.widgets.fitted_popup import KeptPopups

    screen = quintet_of_three_in_play(ui)
    ui.wait(AHEAD_SECONDS)
    assert ui.wait_until(lambda: "leave" in screen._kept._popups, timeout=5), "made while the table looks"
    made = screen._kept.get("leave", lambda: None)

    def compared(names: list[str]) -> Any:
        kept = open_picker(ui, screen)
        assert kept is made and names_offered(kept) == names
        look = _look(kept)
        kept.dismiss()
        assert _no_popup(ui)
        keeping, screen._kept = screen._kept, KeptPopups()  # forgotten for one opening: a new picker
        new = open_picker(ui, screen)
        assert new is not made and _look(new) == look
        new.dismiss()
        assert _no_popup(ui)
        screen._kept = keeping
        return kept

    picker = compared(["Ann", "Bo", "Cy"])
    assert picker.hint == "Leaving is for good: the game goes on without them."
    ui.tap(pick(ui, open_picker(ui, screen), "Bo").ids.yes_button)
    assert _no_popup(ui) and screen.session.players_in == ("Ann", "Cy")
    assert compared(["Ann", "Cy"]) is picker
    assert picker.hint == "Leaving is for good: the other player wins."
    ui.tap(ui.find(screen, "undo_button"))
    assert compared(["Ann", "Bo", "Cy"]) is picker
