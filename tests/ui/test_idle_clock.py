"""The game clock costs an idle screen one small redraw a second, and nothing while paused.

Issue 14: "Idle CPU on the home screen and on every game screen (the clock running) is measured ...
Redraw only what changed; the clock label ticks once a second without re-layout."
(`make bench` measures the CPU; these tests check the structure that keeps it low.)
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.clocks import ManualClock

GAMES = ("quantum-link", "quark", "quin", "quinque", "quintet")


def _game(ui: Any, game: str = "quinque") -> tuple[Any, ManualClock]:
    clock = ManualClock()
    ui.table.clock = clock
    screen = ui.start_game(game, ["Ann", "Bo"])
    return screen, clock


def test_the_clock_wakes_once_a_second_just_after_the_shown_second_changes(ui: Any) -> None:
    """Issue 14: "the clock label ticks once a second": from any moment, the next wake is at most a
    second away, and lands in the next shown second (never the same one, never skipping one)."""
    from ui.presenters import format_clock
    from ui.screens.base import next_tick

    for elapsed in (0.0, 0.25, 0.999, 59.5, 599.99, 3599.0, 7322.7):
        wait = next_tick(elapsed)
        assert 0 < wait <= 1.05, (elapsed, wait)
        assert format_clock(elapsed + wait) == format_clock(int(elapsed) + 1), elapsed


@pytest.mark.parametrize("game", GAMES)
def test_a_running_clock_has_one_wake_planned_and_a_paused_one_none(ui: Any, game: str) -> None:
    """Issue 14: "a quiet idle": while the clock runs, the screen plans one wake, for when the shown
    second changes; while it is paused nothing wakes the screen for the clock at all."""
    from ui.screens.base import next_tick

    screen, clock = _game(ui, game)
    clock.advance(12.4)
    screen._tick()
    assert screen.clock_text == "0:12"
    assert screen._ticker is not None
    assert screen._ticker.timeout == pytest.approx(next_tick(12.4))

    screen.toggle_clock()  # Menu, "Pause the clock"
    ui.frames(2)
    assert screen.session.paused
    assert screen._ticker is None
    clock.advance(30)
    ui.frames(2)
    assert screen.clock_text == "0:12"

    screen.toggle_clock()
    ui.frames(2)
    assert screen._ticker is not None


def test_a_tick_redraws_the_clock_without_laying_out_the_top_bar(ui: Any) -> None:
    """Issue 14: "the clock label ticks once a second without re-layout": from 0:01 to 9:59 every tick
    changes the clock's text, and no widget of the top bar moves or changes size."""
    screen, clock = _game(ui)
    ui.frames(3)
    label = ui.find(screen, "clock_label")
    bar = label.parent
    changes: list[tuple[str, str]] = []
    for widget in bar.children:
        for name in ("pos", "size"):
            widget.fbind(name, lambda *_a, w=widget, n=name: changes.append((type(w).__name__, n)))
    texts = []
    for step in (1, 1, 5, 13, 40, 100, 438):  # 0:01 ... 9:59, through digits of every width
        clock.advance(step)
        screen._tick()
        ui.frames(3)
        texts.append(label.text)
    assert texts == ["0:01", "0:02", "0:07", "0:20", "1:00", "2:40", "9:58"], texts
    assert changes == []


def test_the_clock_keeps_its_width_per_pattern(ui: Any) -> None:
    """Issue 14: "without re-layout": every time of one pattern gets one width, whatever its digits."""
    from ui.screens.base import clock_room

    widths = {clock_room(f"{m}:{s:02d}", 20.0, "Roboto", False) for m in range(10) for s in range(0, 60, 7)}
    assert len(widths) == 1
    assert clock_room("1:00:00", 20.0, "Roboto", False) > widths.pop()
