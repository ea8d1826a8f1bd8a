"""Quin's screen with real touches: private hand-off setup, a flash by two taps, the last move, powers."""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.games.quin.examples import example_setup
from ui import theme

pytestmark = pytest.mark.ui

KINDS = ("Light", "Artificial Light", "Shadow", "Time", "Reflector", "Memory", "Peripheral", "Void")
WORDS = {
    kind: re.compile(rf"(?<!Artificial )(?<!Artificial\n){kind}|{short}")
    for kind, short in [(k, re.escape(k)) for k in KINDS]
    + [
        ("Artificial Light", r"Artificial\sLight|Art\. Light|\bAL\b"),
        ("Peripheral", r"Periph\."),
        ("Reflector", r"Refl\."),
    ]
}


def screen_words(screen: Any) -> str:
    """Every text the screen shows right now, but the action buttons' fixed names ("Time", "Swap")."""
    buttons = set(screen.play_actions.children)
    return "\n".join(str(w.text) for w in screen.walk(restrict=True) if getattr(w, "text", "") and w not in buttons)


def kinds_shown(text: str) -> set[str]:
    return {kind for kind, pattern in WORDS.items() if pattern.search(text)}


def piece(screen: Any, owner: str, label: str) -> Any:
    return screen.pieces[(owner, label)]


def set_up_both(screen: Any) -> None:
    screen.session.act(example_setup("Ann"))
    screen.session.act(example_setup("Bo"))


def test_private_setup_hand_off_never_leaves_a_secret_on_the_shared_screen(ui: Any) -> None:
    screen = ui.start_game("quin", ["Ann", "Bo"])
    assert screen.session.public_view()["phase"] == "setup"
    assert kinds_shown(screen_words(screen)) == set()
    ui.screenshot("quin-setup-table.png")

    ui.tap(ui.find(screen, "setup0"))  # "Ann: set up in private"
    assert screen.mode == "cover"
    words = screen_words(screen)
    assert "Bo, please look away" in words and kinds_shown(words) == set()
    ui.screenshot("quin-look-away.png")

    ui.tap(ui.find(screen, "cover_go"))
    assert screen.mode == "private"
    panel = screen.setup_panel
    # A refusal stays inside the private panel (never in the shared banner).
    ui.tap(next(w for w in panel.ids.clone.children if w.text == "Peripheral"))
    ui.tap(next(w for w in panel.ids.clone.children if w.text == "Time"))
    assert screen.session.private_view("Ann")["setup"]["clone"] == "Time"
    ui.tap(next(w for w in panel.ids.kinds.children if w.text.startswith("Artificial\nLight")))
    ui.tap(ui.find(panel, "board_chip"))
    ui.tap(panel.ids.pieces.children[-1])  # label 1 as an Artificial Light on a starting point: refused
    assert panel.message_is_error and "start on your Zero-G card" in panel.message
    assert screen.banner == ""
    ui.tap(ui.find(panel, "zero_g_chip"))
    ui.tap(panel.ids.pieces.children[-1])
    assert screen.session.private_view("Ann")["pieces"][0]["identity"] == "Artificial Light"
    ui.tap(ui.find(panel, "deal_button"))
    assert screen.session.private_view("Ann")["setup"]["unassigned"] == []
    ui.frames(2)
    ui.screenshot("quin-private-setup.png")

    ui.tap(ui.find(panel, "done_button"))
    assert screen.mode == "hidden" and screen.setup_panel is None
    words = screen_words(screen)
    assert "Ann's setup is done and hidden" in words and kinds_shown(words) == set()
    ui.tap(ui.find(screen, "cover_go"))
    assert screen.mode == "table"
    ui.frames(2)
    assert "Ann: setup done" in screen_words(screen)
    assert kinds_shown(screen_words(screen)) == set()


def test_a_private_setup_blanks_when_hidden_or_when_the_screen_is_left(ui: Any) -> None:
    screen = ui.start_game("quin", ["Ann", "Bo"])
    ui.tap(ui.find(screen, "setup1"))
    ui.tap(ui.find(screen, "cover_go"))
    assert screen.mode == "private" and screen.private_player == "Bo"
    ui.tap(ui.find(screen.setup_panel, "hide_button"))
    assert screen.mode == "hidden" and "not finished" in screen_words(screen)
    assert kinds_shown(screen_words(screen)) == set()
    ui.tap(ui.find(screen, "cover_go"))
    ui.tap(ui.find(screen, "setup1"))
    ui.tap(ui.find(screen, "cover_go"))
    assert screen._idle.is_triggered and screen._idle.timeout == 90  # the idle countdown runs
    screen.hide_private()  # what the idle countdown calls
    assert screen.mode == "hidden" and not screen._idle.is_triggered
    ui.tap(ui.find(screen, "cover_go"))
    ui.tap(ui.find(screen, "setup1"))
    ui.tap(ui.find(screen, "cover_go"))
    screen.dispatch("on_leave")
    assert screen.mode == "table" and screen.setup_panel is None


def test_a_flash_by_two_taps_shows_the_result_sentence(ui: Any) -> None:
    screen = ui.start_game("quin", ["Ann", "Bo"])
    set_up_both(screen)
    ui.frames(2)
    assert kinds_shown(screen_words(screen)) == set()  # nothing revealed yet: no identity anywhere

    defender = piece(screen, "Bo", "2")
    ui.tap(piece(screen, "Ann", "8"))  # the attacker ...
    assert screen.selection.pieces == (("Ann", "8"),)
    ui.tap(piece(screen, "Bo", "2"))  # ... and the defender
    view = screen.session.public_view()
    sentence = "Ann's 8 (Peripheral) captures Bo's 2 (Shadow)."
    assert view["last_flash"]["sentence"] == sentence
    ui.frames(2)
    assert screen.table_view.ids.result_label.text == sentence
    assert "Shadow" in piece(screen, "Bo", "2").text and "Peripheral" in piece(screen, "Ann", "8").text
    assert piece(screen, "Bo", "2") is defender and defender.crossed  # made once, updated since
    assert len(screen.table_view.ids.side1.ids.pieces.children) == 17
    assert "face up Bo's 2 (Shadow, captured)" in screen.table_view.ids.side0.card
    # Only what was revealed shows.
    assert kinds_shown(screen_words(screen)) == {"Peripheral", "Shadow"}
    ui.screenshot("quin-flash-result.png")

    # Another of Bo's pieces may flash Ann's 8; then the last move is one tap away.
    ui.tap(piece(screen, "Bo", "10"))
    ui.tap(piece(screen, "Ann", "8"))
    assert screen.session.public_view()["players"][0]["pieces"][7]["where"] == "captured"
    ui.tap(ui.find(screen, "last_move_button"))
    ui.frames(2)
    assert screen.table_view.ids.result_label.text == "Last move (Bo): Bo's 10 (Void) captures Ann's 8 (Peripheral)."


def test_refusals_and_powers_by_touch(ui: Any) -> None:
    screen = ui.start_game("quin", ["Ann", "Bo"])
    set_up_both(screen)
    screen.session.act({"type": "flash", "player": "Ann", "attacker": "8", "defender": "4"})  # they swap
    ui.frames(2)
    ui.tap(piece(screen, "Bo", "4"))
    ui.tap(piece(screen, "Ann", "8"))
    assert screen.banner_is_error and "may not flash back" in screen.banner
    # A Memory swap: select the Memory, then the other piece, then Swap. The turn goes on.
    ui.tap(piece(screen, "Bo", "6"))
    ui.tap(piece(screen, "Bo", "3"))
    ui.tap(ui.find(screen, "swap_button"))
    assert screen.session.public_view()["this_turn"] == ["Bo made a Memory swap: 3 and 6 swapped places."]
    # Two Artificial Lights come in at once.
    ui.tap(piece(screen, "Bo", "11"))
    ui.tap(piece(screen, "Bo", "12"))
    ui.tap(ui.find(screen, "bring_in_button"))
    assert screen.session.current_player == "Ann"
    # A bluff on First Sight is refused without a word about what the piece is.
    ui.tap(piece(screen, "Ann", "3"))
    ui.tap(ui.find(screen, "first_sight_button"))
    assert "claim is refused" in screen.banner and kinds_shown(screen.banner) == set()
    ui.tap(ui.find(screen, "pass_button"))
    assert screen.session.current_player == "Bo"
    ui.tap(ui.find(screen, "last_move_button"))
    ui.frames(2)
    assert screen.table_view.ids.result_label.text == "Last move (Ann): Ann passed."
    ui.screenshot("quin-last-move.png")
    ui.resize(1280, 720)
    ui.screenshot("quin-last-move-1280.png")


class FakeHub:
    """Stands in for the player-display hub: two players, one display on, one unplugged."""

    def __init__(self) -> None:
        from hardware.display.hub import DisplayState, DisplayStatus

        self.statuses = [DisplayStatus("Ann", DisplayState.CONNECTED), DisplayStatus("Bo", DisplayState.UNPLUGGED)]

    def status(self, _players: Any = None) -> list[Any]:
        return list(self.statuses)

    def subscribe(self, _listener: Any) -> Any:
        return lambda: None

    def attach(self, _session: Any) -> None: ...

    def detach(self) -> None: ...


def test_the_display_strip_sits_in_its_spot(ui: Any) -> None:
    ui.table.displays = FakeHub()
    screen = ui.start_game("quin", ["Ann", "Bo"])
    set_up_both(screen)
    ui.frames(3)
    words = screen_words(screen)
    assert "Ann: display on" in words and "Bo: display unplugged" in words
    assert kinds_shown(words) == set()
    ui.screenshot("quin-with-displays.png")
    ui.table.displays = None


def test_who_goes_first_is_one_tap_from_the_setup_and_the_race_choice_lands_in_the_game(ui):
    screen = ui.start_game("quin", ["Ann", "Bo"])
    button = ui.find(screen, "race_button")
    assert button.text == "Who goes first? The water race" and not button.disabled
    ui.tap(button)
    race = ui.screen
    assert race.name != screen.name, "the race screen opens"
    ui.screenshot("quin-race-from-setup.png")
    # the table may skip the race and choose by hand: the choice is the game's first event
    ui.app.go_home()
    ui.app.resume_game()
    ui.screen.session.act({"type": "choose_first", "player": "Bo", "chosen_by": "Ann", "how": "table"})
    ui.frames(3)
    button = ui.find(ui.screen, "race_button")
    assert button.text == "Bo goes first" and button.disabled


def test_a_tap_on_a_piece_or_a_play_button_is_drawn_in_the_frame_that_answers_it(ui: Any, monkeypatch: Any) -> None:
    """Issue 26: "Every tap answered quickly [...] the time from the touch event to the frame that shows the
    result". The attacker chosen, the flash, Swap: each is drawn before the next frame, in the frame that answers
    the touch; no frame shows the table as it was while the tap's answer waits to be drawn."""
    from kivy.core.window import Window

    from ui.dispatch import clock_dispatcher

    monkeypatch.setattr(ui.table, "dispatch", clock_dispatcher)  # the moves reach the screen as in the app
    screen = ui.start_game("quin", ["Ann", "Bo"])
    set_up_both(screen)
    ui.frames(3)
    stale: list[str] = []

    def on_flip(*_: Any) -> None:
        if screen._redraw.is_triggered:
            stale.append(screen.table_view.ids.result_label.text or "(no result yet)")

    Window.bind(on_flip=on_flip)
    try:
        ui.touch_in_a_frame(piece(screen, "Ann", "8"))  # the attacker ...
        assert screen.selection.pieces == (("Ann", "8"),) and piece(screen, "Ann", "8").edge == list(theme.TEXT)
        ui.touch_in_a_frame(piece(screen, "Bo", "2"))  # ... and the defender
        assert screen.table_view.ids.result_label.text == "Ann's 8 (Peripheral) captures Bo's 2 (Shadow)."
        ui.touch_in_a_frame(piece(screen, "Bo", "6"))
        ui.touch_in_a_frame(piece(screen, "Bo", "3"))
        ui.touch_in_a_frame(ui.find(screen, "swap_button"))
    finally:
        Window.unbind(on_flip=on_flip)
    assert not stale, f"frames drawn while a tap's answer waited: {stale}"


def lines_on(canvas: Any) -> list[tuple[tuple[float, ...], list[float]]]:
    """Each `Line` on `canvas` with the colour it is drawn in: (rgba, its points)."""
    from kivy.graphics import Line

    from tests.support.canvas import drawn

    return [(colour, list(line.points)) for line, colour in drawn(canvas) if isinstance(line, Line)]


def test_a_pieces_edge_and_cross_are_drawn_only_while_they_show_and_follow_the_piece(ui: Any) -> None:
    """Issue 26 (every tap answered quickly): no clear outline is built at every place the layout passes through.
    What a player sees stays: the attacker's edge, the selected piece's, and a captured piece crossed out."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    set_up_both(screen)
    ui.frames(2)
    assert all(not lines_on(p.canvas.before) and not lines_on(p.canvas.after) for p in screen.pieces.values())

    attacker, defender = piece(screen, "Ann", "8"), piece(screen, "Bo", "2")
    ui.tap(attacker)
    ui.frames(1)
    [(colour, points)] = lines_on(attacker.canvas.before)
    assert colour == tuple(theme.TEXT) and points, "the attacker's edge, in the text's colour"
    xs, ys = points[0::2], points[1::2]
    assert attacker.x < min(xs) and max(xs) < attacker.right and attacker.y < min(ys) and max(ys) < attacker.top
    assert [p for p in screen.pieces.values() if lines_on(p.canvas.before)] == [attacker]

    ui.tap(defender)  # the flash: Bo's 2 is captured
    ui.frames(2)
    assert not lines_on(attacker.canvas.before), "no edge once nothing is selected"
    [(colour, points)] = lines_on(defender.canvas.after)
    assert colour[3] > 0 and points == crossing(defender)

    ui.resize(1280, 800)  # the piece moves and grows: its cross goes with it
    [(_colour, points)] = lines_on(defender.canvas.after)
    assert points == crossing(defender)


def crossing(widget: Any) -> list[float]:
    """A captured piece's cross: corner to corner, 8 px in."""
    from kivy.metrics import dp

    return [widget.x + dp(8), widget.y + dp(8), widget.right - dp(8), widget.top - dp(8)]
