"""Issue 21, "Popups that stack": no popup opens over another of the same kind; the leave picker, the log, the
phones panel and the race each open once per tap, however hurried the finger."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.config import PhonesConfig

pytestmark = pytest.mark.ui


def _views(ui: Any, name: str) -> list[Any]:
    return [view for view in ui.window.children if type(view).__name__ == name]


def _from_menu(ui: Any, screen: Any, button_id: str) -> None:
    ui.tap(ui.find(screen, "menu_button"))
    [menu] = _views(ui, "GameMenu")
    ui.double_tap(menu.ids[button_id])
    assert not _views(ui, "GameMenu")


@pytest.mark.parametrize(("button_id", "kind"), [("leave_button", "LeavePicker"), ("log_button", "LogView")])
def test_a_double_tap_on_a_menu_button_opens_its_popup_once(ui: Any, button_id: str, kind: str) -> None:
    """Issue 21: "Popups that stack": the leave picker and the log each open once per tap."""
    screen = ui.start_game("quintet", ["Ann", "Bo", "Cy"])
    _from_menu(ui, screen, button_id)
    assert len(_views(ui, kind)) == 1, ui.window.children
    if kind == "LeavePicker":
        assert not _views(ui, "LeaveConfirm"), "the second tap chose nobody"
    # Asked for again while it shows (a second finger on the Menu as it went): still one.
    (screen.open_leave if kind == "LeavePicker" else screen.open_log)()
    ui.settle()
    assert len(_views(ui, kind)) == 1


def test_the_leave_question_is_not_opened_over_by_a_second_picker(ui: Any) -> None:
    """Issue 21: "no popup opens over another of the same kind": the picker hands over to its question."""
    screen = ui.start_game("quintet", ["Ann", "Bo", "Cy"])
    _from_menu(ui, screen, "leave_button")
    [picker] = _views(ui, "LeavePicker")
    ui.tap(ui.find_text(picker, "Bo"))
    ui.settle()
    assert len(_views(ui, "LeaveConfirm")) == 1
    screen.open_leave()
    ui.settle()
    assert not _views(ui, "LeavePicker") and len(_views(ui, "LeaveConfirm")) == 1
    ui.tap(_views(ui, "LeaveConfirm")[0].ids.no_button)
    ui.settle()
    assert not _views(ui, "LeaveConfirm")
    screen.open_leave()  # and once it is answered, the Menu opens the picker again
    ui.settle()
    assert len(_views(ui, "LeavePicker")) == 1


def test_the_race_opens_once_per_tap(ui: Any) -> None:
    """Issue 21: "the race" opens once per tap: a double tap on "Who goes first?" shows one race, not begun twice."""
    from ui.screens.race import RaceScreen

    screen = ui.start_game("quin", ["Ann", "Bo"])
    assert screen.can_race
    _from_menu(ui, screen, "race_button")
    races = [s for s in ui.app.screens.screens if isinstance(s, RaceScreen)]
    assert len(races) == 1 and ui.screen is races[0]
    screen.open_race()
    ui.frames(2)
    assert [s for s in ui.app.screens.screens if isinstance(s, RaceScreen)] == races


def test_the_phones_panel_opens_once(ui: Any) -> None:
    """Issue 21: "the phones panel" opens once per tap, from the board's Phones button or the Menu's."""
    ui.table.config = replace(ui.table.config, phones=PhonesConfig(enabled=True))
    try:
        screen = ui.start_game("quin", ["Ann", "Bo"])
        board_button = next(
            w for w in screen.walk(restrict=True) if getattr(w, "text", None) == "Phones" and w.parent is not None
        )
        ui.double_tap(board_button)
        assert len(_views(ui, "PhonesPanel")) == 1
        screen.open_phones()  # the Menu's Phones, reached by a second finger
        ui.settle()
        assert len(_views(ui, "PhonesPanel")) == 1
        ui.tap(_views(ui, "PhonesPanel")[0].ids.close_button)
        ui.settle()
        assert not _views(ui, "PhonesPanel")
        _from_menu(ui, screen, "phones_button")
        assert len(_views(ui, "PhonesPanel")) == 1
    finally:
        ui.table.config = replace(ui.table.config, phones=PhonesConfig(enabled=False))
