"""What one clock tick draws on a game screen, and that home, with or without unfinished games, draws nothing.

Issue 26, "The ruling on idle": "A screen that shows a running clock must redraw once a second; under Xvfb every
redraw of the 800×480 window is drawn by the CPU ... Goals: game screens ≤ 1.2× the ticking bare app; home
(with or without unfinished games) ≤ 1.0× the idle bare app." (`make bench` measures the CPU; these tests check
the structure that keeps it low, counting what is drawn, never timing it.)

A tick draws the window again: everything outside the still layers' buffers is drawn each time. So that outside
holds the two buffers' pictures (the top bar's and the board's) and the clock's label, and nothing else that
covers the window: Kivy's stencil around the screens (for sliding transitions, which ours never use) cost two
more passes over the whole window.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.clocks import ManualClock

GAMES = ("quantum-link", "quark", "quin", "quinque", "quintet")


def _drawn_each_frame(canvas: Any) -> Iterator[Any]:
    """Every instruction the window runs when it draws, but those inside a buffer (`Fbo`) not drawn again."""
    from kivy.graphics import Fbo

    for instruction in getattr(canvas, "children", None) or []:  # a group's: its before, its own, its after
        yield instruction
        if not isinstance(instruction, Fbo):
            yield from _drawn_each_frame(instruction)


def _game(ui: Any, game: str) -> tuple[Any, ManualClock]:
    clock = ManualClock()
    ui.table.clock = clock
    return ui.start_game(game, ["Ann", "Bo"]), clock


@pytest.mark.parametrize("game", GAMES)
def test_a_tick_draws_the_still_picture_and_the_clock_and_nothing_else_over_the_window(ui: Any, game: str) -> None:
    """Issue 26: "game screens ≤ 1.2× the ticking bare app (a bare Kivy app whose label ticks once a second)":
    what the window draws at a tick is the still layers' pictures (the top bar's, the board's, and Quark's
    action bar's) and the clock's label; no stencil
    passes over the whole window (Kivy's ScreenManager clips its screens for sliding transitions, and ours
    never slide)."""
    from kivy.graphics import Rectangle, StencilPop, StencilPush, StencilUnUse, StencilUse

    screen, clock = _game(ui, game)
    clock.advance(7)
    screen._tick()
    ui.frames(3)
    drawn = list(_drawn_each_frame(ui.window.canvas))
    stencils = [i for i in drawn if isinstance(i, StencilPush | StencilUse | StencilUnUse | StencilPop)]
    assert stencils == []
    pictures = [i for i in drawn if isinstance(i, Rectangle)]
    bar, board, label = screen.ids.bar_layer, screen.ids.still, ui.find(screen, "clock_label")
    foot = [screen.foot_layer.fbo.texture] if screen.foot_layer is not None else []
    shown = [bar.fbo.texture, board.fbo.texture, *foot, label.texture]
    assert bool(foot) == (game == "quark")
    assert [p.texture for p in pictures] == shown, [tuple(p.size) for p in pictures]
    assert label.text == "0:07"


def test_screens_still_change_without_the_stencil(ui: Any) -> None:
    """Issue 26: "Keep what a player sees identical": with nothing clipping the screens, a game and home
    still replace each other whole: the window shows only the screen that is current."""
    screen, _clock = _game(ui, "quinque")
    manager = ui.app.screens
    assert manager.current_screen is screen
    assert [c for c in manager.children] == [screen]
    ui.app.go_home()
    ui.frames(3)
    assert [c.name for c in manager.children] == ["home"]


def _settled_home(ui: Any) -> Any:
    home = ui.screen
    home.clear_notice()  # a notice goes by itself after NOTICE_SECONDS: a draw the table sees, then stillness
    assert ui.wait_still()  # what is measured is that it stays still, not how soon it gets there
    return home


def test_home_draws_nothing_while_idle(ui: Any) -> None:
    """Issue 26: "home ... ≤ 1.0× the idle bare app": home sitting still draws the window not once."""
    home = _settled_home(ui)
    assert home.name == "home"
    assert ui.draws(40) == 0


def test_home_with_unfinished_games_draws_nothing_while_idle(ui: Any, tmp_path: Any) -> None:
    """Issue 26: "home (with or without unfinished games) ≤ 1.0× the idle bare app": three unfinished games
    listed (their "moves · when" written once, not ticking as times go by), on either page of home, draw the
    window not once while the table waits."""
    from pathlib import Path

    from companion.game import Options
    from companion.session import Session

    for game in ("quinque", "quark", "quintet"):
        Session.start(ui.store, game, Options.for_names("Ann", "Bo"))
    ui.reopen(Path(ui.store.path))
    home = _settled_home(ui)
    assert home.has_unfinished
    assert ui.draws(40) == 0
    ui.tap(home.ids.unfinished_tab)
    assert len(home.unfinished_rows) == 3
    _settled_home(ui)
    assert ui.draws(40) == 0
