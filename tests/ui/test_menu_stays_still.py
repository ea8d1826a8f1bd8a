"""Issue 21: "The game Menu's buttons sit 33 px higher when it has a Phones button." Every Menu button keeps one
position whether or not Phones is offered: Phones has a slot of its own, empty when it is not offered."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.config import PhonesConfig

pytestmark = pytest.mark.ui

IDS = ("clock_button", "race_button", "log_button", "leave_button", "home_button", "end_button", "back_button")


def _menu(ui: Any) -> Any:
    menus = [view for view in ui.window.children if type(view).__name__ == "GameMenu"]
    assert len(menus) == 1, ui.window.children
    return menus[0]


def _on_menu(menu: Any, name: str) -> bool:
    """Whether the Menu shows button `name` (a button taken off it may already be gone: ids are weak)."""
    try:
        return menu.ids[name].parent is not None
    except ReferenceError:
        return False


def _places(ui: Any, game: str) -> tuple[dict[str, tuple[int, ...]], Any]:
    screen = ui.start_game(game, ["Ann", "Bo"])
    ui.tap(ui.find(screen, "menu_button"))
    ui.settle()
    menu = _menu(ui)
    places = {}
    for name in IDS:
        button = menu.ids[name]
        left, bottom = button.to_window(button.x, button.y)
        places[name] = (round(left), round(bottom), round(button.width), round(button.height))
    return places, menu


def test_every_menu_button_keeps_its_place_with_or_without_phones(ui: Any) -> None:
    """Issue 21: "The game Menu's buttons sit 33 px higher when it has a Phones button." Quin with the phones
    on offers Phones; with them off (and in a game without private views) it does not; every other button
    stands at the same pixels in all three."""
    without, menu = _places(ui, "quin")
    assert not _on_menu(menu, "phones_button"), "no Phones button while the phones are off"
    ui.screenshot("menu-without-phones.png")
    menu.dismiss()
    ui.settle()
    ui.app.go_home()
    ui.frames(2)

    ui.table.config = replace(ui.table.config, phones=PhonesConfig(enabled=True))
    try:
        with_phones, menu = _places(ui, "quin")
        phones = menu.ids.phones_button
        assert phones.parent is not None and phones.get_root_window() is not None, "Phones is offered"
        ui.screenshot("menu-with-phones.png")
        # Phones stands in its own slot: beside "Back to the game", over no other button.
        left, bottom = phones.to_window(phones.x, phones.y)
        back = with_phones["back_button"]
        assert round(bottom) == back[1] and round(left) + round(phones.width) <= back[0]
        menu.dismiss()
        ui.settle()
    finally:
        ui.table.config = replace(ui.table.config, phones=PhonesConfig(enabled=False))
    ui.app.go_home()
    ui.frames(2)
    other, _menu_again = _places(ui, "quinque")  # a game without private views never offers Phones

    assert with_phones == without, {k: (without[k], with_phones[k]) for k in IDS if without[k] != with_phones[k]}
    assert other == without
