"""Home's cue that the tools for any game wait below the games (issue 27), with real taps at 800×480.

The five games fill the games list at 800×480, so "Any game" and its four tools lie below the fold, where only
the scroll bar said they were there. While no notice is shown, the notice line says so ("More below, under
Any game: Dice tray, ..."), in a place of its own that moves nothing; a tap on it shows the tools; a notice
takes the line back.
"""

from __future__ import annotations

from typing import Any

from tests.support.layout_audit import area, reach_rect, window_rect
from tests.ui.test_home_unfinished import _positions

TOOLS = ("Dice tray", "Finger chooser", "Score pad", "Turn clock")  # as the list has them, by their names


def _in_sight(ui: Any, widget: Any) -> bool:
    """Wholly inside the games list's view: a tap anywhere on it reaches it."""
    whole = window_rect(widget)
    return area(reach_rect(widget, ui.window.size)) >= area(whole) - 1


def _tools(home: Any) -> list[Any]:
    return [w for w in home.ids.tools.walk(restrict=True) if w.__class__.__name__ == "Button" and "[b]" in w.text]


def test_the_notice_line_says_the_tools_are_below_and_a_tap_on_it_shows_them(ui: Any) -> None:
    home = ui.screen
    ui.settle()
    heading = home.ids.any_game_heading
    assert not _in_sight(ui, heading), "at 800×480 the five games fill the list: the tools lie below it"
    hint = home.ids.tools_hint
    assert home.tools_hint == "More below, under Any game: " + ", ".join(TOOLS)
    assert hint.text.startswith(home.tools_hint) and home.ids.notice.text == "", "a cue, not a notice"
    assert window_rect(hint) == window_rect(home.ids.notice), "on the notice line's own place: it moves nothing"
    ui.screenshot("home-any-game-cue.png")

    home.notice = "At most 5 players fit around the table."  # a notice takes the line
    ui.settle()
    assert hint.text == "" and home.ids.notice.text == home.notice
    home.clear_notice()
    ui.settle()
    assert hint.text.startswith(home.tools_hint), "and gives it back when it goes"

    before = _positions(ui)
    ui.tap(home.ids.notice)
    ui.settle()
    assert _in_sight(ui, heading) and all(_in_sight(ui, tool) for tool in _tools(home)), "every tool in sight"
    assert [t.text.split("[/b]")[0].removeprefix("[b]") for t in _tools(home)] == list(TOOLS)
    assert home.tools_hint == "" and hint.text == "", "in sight: no cue"
    ui.screenshot("home-any-game-shown.png")
    home.games_view.scroll_y = 1
    ui.settle()
    assert _positions(ui) == before and hint.text.startswith(home.tools_hint), "scrolled back: the cue again"

    ui.tap(home.ids.unfinished_tab)
    ui.settle()
    assert home.tools_hint == "" and hint.text == "", "no cue over the unfinished games"
    ui.tap(home.ids.games_tab)
    ui.settle()
    assert hint.text.startswith("More below"), "the games page again: the cue again"
