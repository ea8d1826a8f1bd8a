"""A tap that opens a screen draws that screen alone in its answer's frame (issue 26: taps that wait).

Kivy's `NoTransition` left the screen going out on the window until the next clock tick: the frame that showed
a resumed score pad drew the whole of home under it, 13 ms of a 3 ms answer under software GL, and the screen
manager refused touches meanwhile. `ui.widgets.switch.Instant` takes it off in the same call.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


def _heard(screen: Any, events: list[tuple[str, str]]) -> None:
    for event in ("on_pre_enter", "on_enter", "on_pre_leave", "on_leave"):
        screen.fbind(event, lambda *_args, event=event: events.append((screen.name, event)))


def test_a_game_started_or_left_is_the_only_screen_on_the_window_before_the_next_frame(ui: Any) -> None:
    """Start a game from home, then go home: each time, before any frame is drawn, the window holds the new screen
    alone, the manager takes touches at once, and both screens have heard that they entered and left."""
    home, manager = ui.app.home, ui.app.screens
    events: list[tuple[str, str]] = []
    _heard(home, events)
    screen = ui.app.start_game("quintet", home.options())
    _heard(screen, events)  # after its making: a screen made ahead hears only the switch
    assert manager.children == [screen] and home.get_parent_window() is None
    assert not manager.transition.is_active, "a touch on the new screen is taken at once"
    assert ("home", "on_leave") in events and home.parent is None

    events.clear()
    ui.app.go_home()
    assert manager.children == [home] and screen.get_parent_window() is None
    assert events == [
        ("home", "on_pre_enter"),
        (screen.name, "on_pre_leave"),
        ("home", "on_enter"),
        (screen.name, "on_leave"),
    ]
    ui.frames(2)
    assert manager.current_screen is home and manager.children == [home]


def test_resuming_a_game_draws_one_screen_in_its_frame(ui: Any) -> None:
    """A game resumed from home's Unfinished page by a real touch: the frame that shows it is the first after the
    touch, and home is not drawn in it."""
    ui.start_game("quinque", ["Ann", "Bo"])
    ui.app.go_home()
    ui.settle()
    home = ui.app.home
    home.show_tab("unfinished")
    ui.settle()
    ui.wait_until(lambda: not ui.app.kept.busy, timeout=10)
    drawn: list[list[Any]] = []
    uid = ui.window.fbind("on_flip", lambda *_args: drawn.append(list(ui.app.screens.children)))
    try:
        ui.touch_in_a_frame(home.unfinished_rows[0].ids.resume_button)
    finally:
        ui.window.unbind_uid("on_flip", uid)
    shown = ui.app.screens.current_screen
    assert shown is not home and shown.session.game.name == "quinque"
    assert drawn and drawn[0] == [shown], drawn  # the touch's own frame: the game, and nothing under it
