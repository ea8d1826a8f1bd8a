"""The game's Menu has room for its title at 800×480.

Issue 14: "The Menu popup's first button covers its title." ... "Fix the Menu title."
"""

from __future__ import annotations

import itertools
from typing import Any

from tests.support.layout_audit import window_rect


def _menu(ui: Any) -> Any:
    menus = [view for view in ui.window.children if type(view).__name__ == "GameMenu"]
    assert len(menus) == 1, ui.window.children
    return menus[0]


def _title(menu: Any) -> Any:
    from kivy.uix.label import Label

    labels = [w for w in menu.walk(restrict=True) if isinstance(w, Label) and w.text == menu.title]
    assert len(labels) == 1, labels
    return labels[0]


def test_the_menus_first_button_is_below_its_title_at_800x480(ui: Any) -> None:
    """Issue 14: "The Menu popup's first button covers its title": at the official screen's 800×480 the Menu
    is on the screen, every button is below the title, inside the popup, and none covers another (the buttons
    now stand in two columns, so that the Menu's seven fit 480 pixels)."""
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    ui.tap(ui.find(screen, "menu_button"))
    ui.settle()
    menu = _menu(ui)
    ui.screenshot("menu.png")

    assert menu.y >= 0 and menu.top <= ui.window.height, (menu.y, menu.top)
    title = _title(menu)
    assert title.texture_size[1] > 0 and title.top <= menu.top
    title_bottom = title.to_window(title.x, title.y)[1]
    buttons = [w for w in menu.content.walk(restrict=True) if type(w).__name__ == "BigButton"]
    assert len(buttons) >= 7, [b.text for b in buttons]
    frame = menu.children[0]
    frame_left, frame_bottom, frame_right, _ = window_rect(frame)
    for button in buttons:
        left, bottom, right, top = window_rect(button)
        assert top <= title_bottom, (button.text, top, title_bottom)
        assert bottom >= frame_bottom and left >= frame_left and right <= frame_right, button.text
        assert button.texture_size[0] <= button.width, f"{button.text!r} is cut short"
    for one, other in itertools.combinations(buttons, 2):
        a, b = window_rect(one), window_rect(other)
        apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
        assert apart, (one.text, other.text)
    rows = sorted({round(window_rect(button)[3]) for button in buttons}, reverse=True)
    assert len(rows) == 4, rows  # four rows of two: "Back to the game" last, beside the slot for Phones (issue 21)
    back = min(buttons, key=lambda button: (window_rect(button)[1], -window_rect(button)[0]))
    assert back.text == "Back to the game"
