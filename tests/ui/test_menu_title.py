"""The game's Menu has room for its title at 800×480.

Issue 14: "The Menu popup's first button covers its title." ... "Fix the Menu title."
"""

from __future__ import annotations

import itertools
from typing import Any


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
    is on the screen, every button is below the title, inside the popup, and none covers another."""
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    ui.tap(ui.find(screen, "menu_button"))
    ui.settle()
    menu = _menu(ui)
    ui.screenshot("menu.png")

    assert menu.y >= 0 and menu.top <= ui.window.height, (menu.y, menu.top)
    title = _title(menu)
    assert title.texture_size[1] > 0 and title.top <= menu.top
    title_bottom = title.to_window(title.x, title.y)[1]
    buttons = sorted(
        (w for w in menu.content.walk(restrict=True) if type(w).__name__ == "BigButton"),
        key=lambda button: -button.to_window(*button.pos)[1],
    )
    assert len(buttons) >= 5, buttons
    first_top = buttons[0].to_window(buttons[0].x, buttons[0].top)[1]
    assert first_top <= title_bottom, (first_top, title_bottom)
    menu_bottom = menu.children[0].to_window(*menu.children[0].pos)[1]
    for upper, lower in itertools.pairwise(buttons):
        assert lower.to_window(lower.x, lower.top)[1] <= upper.to_window(*upper.pos)[1], (upper.text, lower.text)
    assert buttons[-1].to_window(*buttons[-1].pos)[1] >= menu_bottom, buttons[-1].text
