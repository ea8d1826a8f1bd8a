"""The shared game screen's top bar, the Log and the race screen, as the layout audit measures them (issue 21).

Issue 21: "every tappable at least 48x48 px at 800x480 and at least 8 px from the next tappable", "nothing
cut (text fits its box; a label that shortens on purpose must show the whole text on a tap)" and "one tap
apart, every tappable still there keeps its position and size".
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.game import RuleError
from tests.support import golden

pytestmark = pytest.mark.ui

GAP = 8
TARGET = 48
LONG = ["Wilhelmina Mayer", "Maximilian Worth", "Bartholomew Kemp", "Gwendolyn Hawkes", "Montgomery Quinn"]


def box(widget: Any) -> tuple[float, float, float, float]:
    x, y = widget.to_window(*widget.pos)
    return (round(x, 1), round(y, 1), round(widget.width, 1), round(widget.height, 1))


def gap(a: Any, b: Any) -> float:
    """The distance between two widgets' boxes (0 if they touch or overlap)."""
    ax, ay, aw, ah = box(a)
    bx, by, bw, bh = box(b)
    dx = max(bx - (ax + aw), ax - (bx + bw), 0.0)
    dy = max(by - (ay + ah), ay - (by + bh), 0.0)
    return max(dx, dy)


def whole(label: Any) -> None:
    """The label shows all its text: not shortened, every line inside its box."""
    label.texture_update()
    assert not label.shorten, label.text
    width, height = label.texture_size
    assert width <= label.width + 1 and height <= label.height + 1, (label.text, label.texture_size, label.size)


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_the_top_bar_targets_are_8_px_apart_and_the_banner_keeps_its_box(ui: Any, size: tuple[int, int]) -> None:
    """Issue 21 audit: "Undo is 6 px from Redo; Menu is 6 px from the banner; the Banner (a tappable: tap puts
    it away) changes width one tap apart (x 104..542 -> 104..458) when the clock's slot widens at the game's
    end / on pause." """
    ui.resize(*size)
    try:
        screen = ui.start_game("quintet", ["Ann", "Bo"])
        screen.say("Undone. Redo puts it back exactly as it was.")
        ui.settle()
        ids = screen.ids
        assert gap(ids.undo_button, ids.redo_button) >= GAP
        assert gap(ids.menu_button, ids.banner) >= GAP
        assert gap(ids.banner, ids.undo_button) >= GAP
        banner, undo = box(ids.banner), box(ids.undo_button)
        screen.toggle_clock()  # as the Menu's "Pause the clock" does
        ui.settle()
        assert screen.paused and "paused" in ids.clock_label.text
        assert (box(ids.banner), box(ids.undo_button)) == (banner, undo)
        ui.screenshot(f"top-bar-paused-{size[0]}x{size[1]}.png")
        ids.clock_label.texture_update()
        assert ids.clock_label.texture_size[0] <= ids.clock_label.width
        assert ids.clock_label.texture_size[1] <= ids.top_bar.height
        screen.toggle_clock()
        screen.clock_text = "1:02:03"  # a game of more than an hour: the widest clock
        ui.settle()
        assert (box(ids.banner), box(ids.undo_button)) == (banner, undo)
        # Whose turn, however long, wraps and fits the bar (the clock's wider slot left it less room)
        screen.turn_text = "Wilhelmina Mayer: both actions taken, end the turn"
        screen.put_away_banner()
        ui.settle()
        ui.screenshot(f"top-bar-long-turn-{size[0]}x{size[1]}.png")
        whole(ids.turn_label)
        assert ids.turn_label.texture_size[1] <= ids.top_bar.height
    finally:
        ui.resize(800, 480)


def _played(ui: Any, names: list[str]) -> Any:
    """A Quintet game of `names` with a dozen moves of the two-player golden script, its Log open."""
    from ui.screens.log import LogView

    path = next(p for p in golden.scripts("quintet") if p.stem == "quintet-two-players")
    script = golden.read(path)
    renamed = dict(zip(script.players, names, strict=False))
    ui.table.dice = RandomDice.seeded(script.seed or 1)  # the script's own rolls: its moves are accepted
    screen = ui.start_game("quintet", names)
    for _, action in script.actions[:12]:
        text = json.dumps(action)
        for old, new in renamed.items():
            text = text.replace(json.dumps(old), json.dumps(new))
        try:
            screen.session.act(json.loads(text))
        except RuleError:  # the script's deliberate refusals
            continue
    ui.frames(2)
    screen.open_log()
    ui.settle()
    views = [w for w in ui.window.children if isinstance(w, LogView)]
    assert len(views) == 1
    return views[0]


def test_the_log_heading_and_status_show_whole_with_the_longest_names(ui: Any) -> None:
    """Issue 21 audit: "LogView: `heading` ("Quintet, game 28: Wilhelmina Mayer, …") and `status` ("Won by
    Bo (last player standing), 26 moves in 0:03. Bo is th…") are shortened with nothing that shows the whole
    text: wrap them or show the whole on a tap." """
    view = _played(ui, LONG[:2])
    ui.screenshot("log-long-names.png")
    heading, status = view.ids.heading, view.ids.status
    assert "Wilhelmina Mayer" in heading.text and "Maximilian Worth" in heading.text
    whole(heading)
    whole(status)
    assert status.y >= view.ids.mode_button.parent.parent.y - 1, "the status stays in the heading's row"
    view.close()


def test_log_lines_are_a_finger_high_and_8_px_apart(ui: Any) -> None:
    """Issue 21 audit: "LogLine rows are 38 px high and 0 px apart (they are tappable: a line of a finished game
    opens the replay at that step): make them at least 48 px high and 8 px apart [...] Replay/Close/first line
    6 px apart." """
    view = _played(ui, ["Ann", "Bo"])
    view.ids.scroller.scroll_y = 1
    ui.settle()
    lines = list(reversed(view.ids.lines.children))
    assert len(lines) >= 5
    for line in lines:
        assert line.height >= TARGET
    for upper, lower in itertools.pairwise(lines):
        assert upper.y - lower.top >= GAP
    mode, close = view.ids.mode_button, view.ids.close_button
    assert gap(mode, close) >= GAP
    assert box(view.ids.scroller)[1] + box(view.ids.scroller)[3] <= box(close)[1] - GAP
    assert close.height >= TARGET and close.width >= TARGET
    view.close()


def shown_names(ui: Any, screen: Any, names: list[str], shot: str) -> None:
    """Every widget of the race screen with a player's name in it shows its whole text; buttons a finger big."""
    ui.settle()
    ui.screenshot(shot)
    texts = [w for w in screen.walk(restrict=True) if hasattr(w, "texture_size") and getattr(w, "text", "")]
    for name in names:
        shown = [w for w in texts if name in w.text]
        assert shown, name
        for widget in shown:
            whole(widget)
    for button in [*screen.action_buttons.values(), *(screen.panel.sim_buttons if screen.panel else [])]:
        assert button.height >= TARGET and button.width >= TARGET


@pytest.mark.parametrize("count", [2, 3, 5])
def test_the_race_shows_the_longest_names_whole(ui: Any, count: int) -> None:
    """Issue 21 audit: "Race screen: with long (16-character) names the card name, "Bartholomew Kemp goes
    first" and the SimulatedButton "Wilhelmina Mayer's button [A / left Shift]" are shortened: let them wrap
    or fit." """
    from ui.screens.race import open_race

    names = LONG[:count]
    game_screen = ui.start_game("quintet", names)
    screen = open_race(game_screen, rng=random.Random(11))
    ui.settle()
    try:
        shown_names(ui, screen, names, f"race-long-names-{count}.png")  # the test mode, with the simulated buttons
        screen._no_race("No buttons: tap who goes first.")  # a row of "<name> goes first" buttons
        shown_names(ui, screen, names, f"race-long-names-{count}-choice.png")
    finally:
        screen.back()
