"""The home screen's notices.

Issue 14: "Nothing on the home screen moves while a finger is on its way." Issue 21: "A notice ('Quin is for
exactly 2 players; 3 are seated.') covers Wins, Past games and Settings, comes back on every return home, and
the first tap on Settings only dismisses it." Home's notices go by themselves after a few seconds and never
cover a button; a notice about a game's player count shows when that game is tapped, not on every return home.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.button import Button

from tests.support.layout_audit import area, overlaps, reach_rect, window_rect
from tests.ui.test_home_unfinished import _game_buttons, _positions
from ui.screens import home as home_module


def test_a_notice_moves_nothing_covers_no_button_and_goes_by_itself(ui: Any, monkeypatch: Any) -> None:
    """A notice that appears as a finger is on its way (a sixth player refused, the card gone read-only)
    has its own line: every game button and player row stays where it was, and no button is under it."""
    monkeypatch.setattr(home_module, "NOTICE_SECONDS", 1.0)
    home = ui.screen
    ui.settle()
    rows = [window_rect(r) for r in home.rows]
    before = _positions(ui)
    for _ in range(4):
        ui.tap(home.ids.add_player)
    assert "At most 5" in home.notice and home.ids.notice.text == home.notice
    ui.settle()
    assert _positions(ui) == before, "the game buttons stayed put"
    assert [window_rect(r) for r in home.rows[:2]] == rows
    notice = home.ids.notice.__self__  # ids are weak proxies
    buttons = [w for w in home.walk(restrict=True) if isinstance(w, Button) and w is not notice]
    # a game row scrolled below the games list's edge (the tools under "Any game") is out of reach there
    covering = [b.text for b in buttons if overlaps(reach_rect(b, ui.window.size), window_rect(notice), slack=0)]
    assert buttons and not covering, "it covers no button"
    ui.screenshot("home-notice.png")
    ui.wait(1.4)
    assert home.notice == "" and notice.text == "", "it went by itself"


def test_a_player_count_notice_shows_on_its_tap_only_and_never_swallows_the_next_tap(ui: Any) -> None:
    """'comes back on every return home, and the first tap on Settings only dismisses it'"""
    home = ui.screen
    for _ in range(1):
        ui.tap(home.ids.add_player)
    assert len(home.rows) == 3
    quin = next(b for b in _game_buttons(home) if "Quin" in b.text and "Quint" not in b.text and "Quinq" not in b.text)
    ui.tap(quin)
    assert ui.screen is home and home.notice == "Quin is for exactly 2 players; 3 are seated."
    ui.tap(home.ids.settings_button)  # the first tap on Settings opens Settings
    settings = ui.window.children[0]
    assert settings.__class__.__name__ == "SettingsPopup"
    settings.dismiss(animation=False)
    ui.settle()
    ui.tap(home.rows[2].ids.remove_button)
    ui.tap(quin)
    assert ui.screen.name == "game:quin"
    ui.app.go_home()
    ui.frames(3)
    assert ui.screen is home and home.notice == "" and home.ids.notice.text == "", "not again on a return home"


def test_the_notice_line_is_a_target_8px_from_every_other(ui: Any) -> None:
    """A tap aimed at Wins, Past games or Settings never lands on the notice line instead."""
    home = ui.screen
    home.notice = "Quin is for exactly 2 players; 3 are seated."
    ui.settle()
    notice = home.ids.notice.__self__
    _x, bottom, _r, top = window_rect(notice)
    assert top - bottom >= 48
    for widget in home.walk(restrict=True):
        if isinstance(widget, Button) and widget is not notice and widget.get_root_window() is not None:
            reach = reach_rect(widget, ui.window.size)  # where a tap can land on it: not where its list clips it
            if area(reach) <= 0:
                continue
            _wx, wy, _wr, wt = reach
            assert wy >= top + 8 or wt <= bottom - 8, f"{widget.text!r} is 8 px from the notice line"
    ui.tap(home.ids.history_button)
    popup = ui.window.children[0]
    assert popup.__class__.__name__ == "PastGamesPopup", "the first tap on Past games opens it"
    popup.dismiss(animation=False)


def test_a_notice_from_the_start_goes_by_itself_too(ui: Any, monkeypatch: Any) -> None:
    """The table's notices at the start (a damaged file salvaged, a display missing) also go by themselves."""
    monkeypatch.setattr(home_module, "NOTICE_SECONDS", 1.0)
    ui.table.notices.append("The player display on /dev/ttyACM0 did not answer.")
    ui.app.reset(ui.table)
    ui.frames(3)
    home = ui.screen
    assert home.notice == "The player display on /dev/ttyACM0 did not answer."
    ui.wait(1.4)
    assert home.notice == ""
