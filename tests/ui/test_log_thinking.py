"""The Game log shows each player's thinking time, on the real screen at 800×480.

Issue 27: "**In the five games too:** the engine already knows whose turn it is, so each game's Log and export
show each player's thinking time (total and longest turn), with no setting needed."
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.game import SEAT_COLOURS
from companion.record import story, thinking_words
from tests.support import golden
from tests.support.clocks import TickingClock
from tests.support.layout_audit import Scene, audit, seats_of

pytestmark = pytest.mark.ui

SMALL = (800, 480)  # the official 7-inch display


@pytest.mark.parametrize("script", ["quintet-five-players", "quark-4p-lithium"])
def test_the_log_heading_shows_each_players_thinking_time_whole_and_the_lines_stay_tappable(
    ui: Any, script: str
) -> None:
    """"each game's Log ... show[s] each player's thinking time (total and longest turn)": under the result, in
    the heading that already wraps whole, for the largest tables; the layout audit finds nothing (no text cut,
    the lines and buttons a finger high and apart), and the screenshot is looked at."""
    from ui.screens import screen_class
    from ui.screens.log import open_past_game

    session = golden.play(ui.store, script, clock=TickingClock(step=7.3))
    assert session.outcome is not None
    told = story(ui.store, session.game_id)
    view = open_past_game(ui.store, session.game_id, screen_class, on_close=lambda: None)
    ui.settle()
    ui.frames(3)
    words = thinking_words(told)
    assert words.startswith("Thinking time: ") and view.status_text.endswith(f".\n{words}")
    assert all(f"{name} " in words for name in told.players)
    players = [(name, SEAT_COLOURS[i % len(SEAT_COLOURS)]) for i, name in enumerate(told.players)]
    assert audit(Scene.measure("log", "thinking times", [view], SMALL), seats_of(players)) == []
    status = view.ids.status
    assert status.texture_size[1] <= status.height + 1  # the whole status shows, nothing cut
    assert view.ids.scroller.height >= 2 * 48  # the lines still have room: two of them at least
    ui.screenshot(f"log-thinking-{script}.png")
    ui.tap(view.ids.close_button)
    ui.settle()
