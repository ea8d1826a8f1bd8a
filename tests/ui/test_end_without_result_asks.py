"""Issue 21: "Menu → End without a result ends the game at once, with no question, beside Home (keep this game)."

It asks first, saying what follows: "End this game without a result? It will count for nobody." The question's
buttons do not lie where the Menu's End button was, so a double tap cannot confirm.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.layout_audit import overlaps, window_rect

pytestmark = pytest.mark.ui

QUESTION = "End this game without a result? It will count for nobody."


def _views(ui: Any, name: str) -> list[Any]:
    return [view for view in ui.window.children if type(view).__name__ == name]


def test_end_without_a_result_asks_first_and_no_keeps_the_game(ui: Any) -> None:
    """Issue 21: "End without a result ends the game at once, with no question"."""
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    game_id = screen.session.game_id
    ui.tap(ui.find(screen, "menu_button"))
    ui.tap(_views(ui, "GameMenu")[0].ids.end_button)
    ui.settle()
    assert ui.screen is screen, "nothing ended before the question is answered"
    [confirm] = _views(ui, "AbandonConfirm")
    assert confirm.ids.question_label.text == QUESTION
    ui.screenshot("end-without-result-asks.png")
    ui.tap(confirm.ids.no_button)
    ui.settle()
    assert not _views(ui, "AbandonConfirm") and ui.screen is screen
    assert ui.store.unfinished() is not None and ui.store.unfinished().id == game_id, "the game goes on"

    ui.tap(ui.find(screen, "menu_button"))
    ui.tap(_views(ui, "GameMenu")[0].ids.end_button)
    ui.tap(_views(ui, "AbandonConfirm")[0].ids.yes_button)
    ui.settle()
    assert ui.screen is not screen and ui.screen.name == "home"
    assert ui.store.unfinished() is None, "ended: no longer offered to carry on"
    # Home opens on the new games: its Unfinished page no longer has the game, and would greet the table empty.
    assert ui.screen.tab == "games"


def test_a_double_tap_on_end_only_asks(ui: Any) -> None:
    """Issue 21: "The confirm's buttons must not sit where the Menu's End button was, so a double tap cannot
    confirm." Neither of the question's buttons overlaps the End button's place at 800×480, and a double tap
    there leaves the game in play with the question showing, once."""
    screen = ui.start_game("quintet", ["Ann", "Bo", "Cy"])
    ui.tap(ui.find(screen, "menu_button"))
    end = _views(ui, "GameMenu")[0].ids.end_button
    ui.settle()
    end_box = window_rect(end)
    ui.double_tap(end)
    assert ui.screen is screen and ui.store.unfinished() is not None
    confirms = _views(ui, "AbandonConfirm")
    assert len(confirms) == 1, "one question, however many taps"
    [confirm] = confirms
    assert not _views(ui, "GameMenu")
    for button in (confirm.ids.no_button, confirm.ids.yes_button):
        assert not overlaps(window_rect(button), end_box, slack=0), (button.text, window_rect(button), end_box)
        assert button.texture_size[0] <= button.width, f"{button.text!r} is cut short"
    assert confirm.y >= 0 and confirm.top <= ui.window.height
    ui.screenshot("end-without-result-double-tap.png")
    confirm.dismiss()
    ui.settle()
