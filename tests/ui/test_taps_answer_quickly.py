"""Issue 26: "Every tap answered quickly": what kept a tap waiting, each taken out of its way.

`make bench` times the taps themselves (bench/bench_taps.py); these tests hold the causes it found, without
timing anything: Python's full garbage collections landing inside a tap, Kivy's ScrollView holding back a tap
on a list that has nothing to scroll, and every line of a Log wrapped twice as it opened.
"""

from __future__ import annotations

import gc
import time
from typing import Any

import pytest

from companion.game import Options
from companion.session import Session
from tests.support import golden

pytestmark = pytest.mark.ui


def test_full_collections_wait_for_a_moment_nobody_touches_the_screen(ui: Any) -> None:
    """Issue 26: "Every tap answered quickly" (a full collection took 0.15-0.3 s of CPU inside a tap)."""
    from kivy.tests.common import UnitTestTouch

    from ui import quiet_gc

    assert gc.get_threshold()[2] == quiet_gc.NEVER, "Python's own full collections are off while the app runs"
    gc.collect(1)
    gc.collect(1)  # two younger collections since the last full one: one is due
    touch = UnitTestTouch(5, 5)
    touch.touch_down()
    touch.touch_up()
    touched = time.monotonic()
    late = touched + quiet_gc.QUIET_SECONDS + 0.1
    assert not quiet_gc.collect_if_quiet(late), "not before a frame shows the tap's answer, however long it took"
    ui.frames(1)
    assert not quiet_gc.collect_if_quiet(touched + quiet_gc.QUIET_SECONDS / 2), "not with a finger just lifted"
    assert gc.get_count()[2] >= quiet_gc.QUIET_PENDING
    assert quiet_gc.collect_if_quiet(touched + quiet_gc.QUIET_SECONDS + 0.1), "but once the screen is quiet"
    assert gc.get_count()[2] == 0
    assert not quiet_gc.collect_if_quiet(touched + 60), "and not again with nothing made since"
    for _ in range(quiet_gc.MOST_PENDING):
        gc.collect(1)
    assert not quiet_gc.collect_if_quiet(touched), "never while a tap is being answered"
    assert quiet_gc.collect_if_quiet(touched + quiet_gc.ANSWER_SECONDS), "a busy table is collected all the same"


def test_a_touch_that_changes_nothing_does_not_put_off_full_collections(ui: Any) -> None:
    """Issue 26: full collections wait until "a frame shows the tap's answer". A touch on nothing answers with
    nothing to draw: once frames have gone by with nothing owed, the quiet moment is used all the same (it waited
    for a draw that never came, and on a still home screen put off every full collection for good)."""
    from kivy.tests.common import UnitTestTouch

    from ui import quiet_gc

    ui.screen.clear_notice()
    assert ui.wait_still()
    touch = UnitTestTouch(5, 5)  # home's corner: nothing there changes under a finger
    touch.touch_down()
    touch.touch_up()
    touched = time.monotonic()
    gc.collect(1)
    gc.collect(1)  # a full collection is due
    assert ui.draws(3) == 0, "the touch had nothing to draw"
    assert quiet_gc.collect_if_quiet(touched + quiet_gc.QUIET_SECONDS + 0.1)


def _touch_now(widget: Any) -> None:
    """A quick tap, down and up at once: the finger is gone before any frame."""
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    touch.touch_up()


def test_a_tap_on_resume_is_answered_as_the_finger_lifts(ui: Any) -> None:
    """Issue 26: "Every tap answered quickly": in a list that fits, Kivy's ScrollView held a quick tap back and
    gave it to Resume 0.2 s after the finger lifted. A list with nothing to scroll holds back nothing."""
    for game in ("quinque", "quark", "quintet"):
        Session.start(ui.store, game, Options.for_names("Ann", "Bo"))
    home = ui.app.home
    home.refresh()
    home.show_tab("unfinished")
    ui.settle()
    scroller = home.unfinished_view.ids.unfinished.parent
    assert not scroller.do_scroll_y, "three games fit: nothing to scroll"
    row = home.unfinished_rows[0]
    _touch_now(row.ids.resume_button)
    assert ui.app.screens.current != "home", "resumed on the touch's release, not a while later"


def test_a_list_longer_than_its_room_still_scrolls(ui: Any) -> None:
    """The same lists scroll as before when their rows do not fit (issue 21's bar shows it)."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button

    from ui.widgets.lists import FitScroll

    scroller = FitScroll(size_hint=(None, None), size=(300, 200))
    rows = BoxLayout(orientation="vertical", size_hint_y=None, height=150)
    scroller.add_widget(rows)
    assert not scroller.do_scroll_y
    rows.add_widget(Button())
    rows.height = 450
    assert scroller.do_scroll_y
    rows.height = 120
    assert not scroller.do_scroll_y


def test_a_games_start_button_answers_as_the_finger_lifts(ui: Any) -> None:
    """Issue 26: "Every tap answered quickly": starting a game from home's list of games, likewise."""
    home = ui.app.home
    home.show_tab("games")
    ui.settle()
    choice = next(c for c in home.ids.games.children if c.game == "quintet")
    _touch_now(choice.children[-1])
    assert ui.app.screens.current == "game:quintet"


def test_each_line_of_a_log_is_made_at_its_own_width(ui: Any) -> None:
    """Issue 26: "a Game log from Past games 1.4 s": every line was made 100 px wide, wrapped word by word, then
    wrapped again at its width. Each is made at the width the Log then gives it."""
    from companion.record import story
    from ui.screens import screen_class
    from ui.screens.log import LogView

    game_id = golden.play(ui.store, "quark-3p-dry-bank").game_id
    view = LogView(ui.store, story(ui.store, game_id), screen_class)
    lines = list(view.ids.lines.children)
    made = {line.width for line in lines}
    view.open(animation=False)
    ui.settle()
    view.finish_lines()
    lines = list(view.ids.lines.children)
    assert len(made) == 1 and made == {line.width for line in lines}, "as wide as the Log lays them out"
    view.close()


def test_a_long_log_opens_on_its_newest_lines_and_makes_the_older_ones_next(ui: Any) -> None:
    """Issue 26: "Every tap answered quickly": a long game's Log made a widget for each of its 150 lines before
    its first frame. It opens at its newest lines, so it makes about two pages of those, and the older ones over
    the next frames, each above the ones before: in the end every line, oldest at the top, none moved."""
    from companion.record import story
    from ui.presenters.log import present_log
    from ui.screens import screen_class
    from ui.screens.log import LogView

    game_id = golden.play(ui.store, "quark-3p-dry-bank").game_id
    told = story(ui.store, game_id)
    expected = [line.label for line in present_log(told).lines]
    view = LogView(ui.store, told, screen_class)
    at_once = len(view.ids.lines.children)
    assert at_once < len(expected) / 3, "a long Log makes only its newest lines before it shows"
    assert [w.text for w in reversed(view.ids.lines.children)] == expected[-at_once:]
    view.open(animation=False)
    ui.frames(2)
    newest = view.ids.lines.children[0]
    bottom = newest.to_window(*newest.pos)
    for _ in range(60):
        if len(view.ids.lines.children) == len(expected):
            break
        ui.frames(1)
    ui.settle()
    assert [w.text for w in reversed(view.ids.lines.children)] == expected, "every line, in order"
    assert [w.odd for w in reversed(view.ids.lines.children)] == [bool(i % 2) for i in range(len(expected))]
    assert view.ids.scroller.scroll_y == 0 and newest.to_window(*newest.pos) == bottom, "the newest line stays put"
    view.close()


def test_quantum_links_board_is_painted_once_a_frame_however_often_the_layout_moves_it(ui: Any) -> None:
    """Issue 26: "Every tap answered quickly": starting or resuming Quantum Link painted all 61 hexes each time
    the layout moved or sized the board (four times as the screen opened, then once more to show the game).
    Once when shown, and once when laid out, is enough."""
    from ui.screens.quantum_link import HexCell

    painted: list[Any] = []
    paint = HexCell.paint
    HexCell.paint = lambda cell, shown: (painted.append(cell), paint(cell, shown))[1]  # type: ignore[method-assign]
    try:
        screen = ui.start_game("quantum-link", ["Ann", "Bo"])
        ui.settle()
    finally:
        HexCell.paint = paint  # type: ignore[method-assign]
    cells = len(screen.board.cells)
    assert cells == 61 and len(painted) <= 2 * cells, f"{len(painted) / cells:g} times each"


def test_a_past_games_replay_is_ready_before_replay_is_tapped(ui: Any) -> None:
    """Issue 26: "Every tap answered quickly": the tap on Replay built the board (the game read again into
    memory, the game's own screen). It is built while the table reads the Log; the tap only shows it."""
    from ui.screens import screen_class
    from ui.screens.log import open_past_game

    game_id = golden.play(ui.store, "quinque-diagonal-win").game_id
    before = (ui.store.game(game_id), ui.store.moves(game_id))
    view = open_past_game(ui.store, game_id, screen_class)
    ui.settle()
    ui.wait_until(lambda: view.replay_screen is not None)  # a few frames after the Log shows (PREPARE_SECONDS)
    ready = view.replay_screen
    assert ready is not None and view.mode == "log", "built ahead, the Log still shown"
    ui.tap(view.ids.mode_button)
    assert view.mode == "replay" and view.replay_screen is ready and view.position == view.count
    ui.tap(view.ids.close_button)
    ui.settle()
    assert view.parent is None and view.replay_screen is None
    assert (ui.store.game(game_id), ui.store.moves(game_id)) == before, "the replay never writes to the games file"


def test_a_move_reaches_its_screen_in_the_frame_that_answers_the_tap(ui: Any, monkeypatch: Any) -> None:
    """Issue 26: "the time from the touch event to the frame that shows the result". A game's screen hears of a
    move through the table's dispatcher (`ui.dispatch.clock_dispatcher`, as `companion run` wires it; another
    thread's news comes the same way). It runs what it is handed before the next frame is drawn: a tap's move
    (OK on the score pad's number pad) shows in the frame that answers the touch; no frame is drawn while the
    screen's refresh waits (on the next tick it did: that frame drew the old totals)."""
    from kivy.core.window import Window

    from ui.dispatch import clock_dispatcher

    monkeypatch.setattr(ui.table, "dispatch", clock_dispatcher)
    screen = ui.start_game("score-pad", ["Ann", "Bo"])
    screen.session.act({"type": "name", "title": "Carcassonne"})
    ui.frames(4)
    cell = screen._rows[0].cells[0]
    ui.touch_in_a_frame(cell)
    pad = ui.window.children[0]
    assert pad.__class__.__name__ == "NumberPadPopup"
    for char in "42":
        ui.tap(next(w for w in pad.ids.pad_keys.children if w.text == char))
    waiting: list[int] = []
    heard = screen.refresh

    def refresh() -> None:
        waiting.remove(1)
        heard()

    def on_flip(*_: Any) -> None:
        assert not waiting, "a frame was drawn while the move waited to reach its screen"

    monkeypatch.setattr(screen, "refresh", refresh)
    screen.session.subscribe(lambda _s: waiting.append(1))  # before the screen's own refresh is run
    Window.bind(on_flip=on_flip)
    try:
        ui.touch_in_a_frame(pad.ids.ok_button)
    finally:
        Window.unbind(on_flip=on_flip)
    assert cell.text == "42" and not waiting


def circles_drawn(canvas: Any) -> list[tuple[str, int]]:
    """Every circle on `canvas` and the canvases within it: (its kind, its segments)."""
    from kivy.graphics import Ellipse, Line

    from tests.support.canvas import drawn

    found = []
    for instruction, _colour in drawn(canvas):
        if isinstance(instruction, Ellipse):
            found.append(("Ellipse", instruction.segments))
        elif isinstance(instruction, Line) and instruction.circle is not None:
            found.append(("circle Line", len(instruction.points) // 2 - 1))
    return found


@pytest.mark.parametrize(
    "script", ["quinque-advanced-full-game", "quintet-five-players", "quantum-link-full-board", "finger-chooser"]
)
def test_every_circle_on_a_game_screen_is_drawn_with_the_themes_segments(ui: Any, script: str) -> None:
    """Issue 26: "Every tap answered quickly". Kivy's default circle has about 180 segments (a circle line a
    round joint at each too): under software GL Quinque's formation frame took 33 ms with them, 21 ms with
    `theme.CIRCLE_SEGMENTS`. Mid-game (the chooser: two fingers on it), every circle each of these screens
    draws is drawn with the theme's."""
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    from ui import theme

    fingers = []
    if script == "finger-chooser":
        chooser = ui.start_game(script, ["Ann", "Bo", "Cy"]).chooser
        spots = [chooser.to_window(chooser.x + chooser.width * k, chooser.center_y) for k in (0.3, 0.7)]
        fingers = [UnitTestTouch(*spot) for spot in spots]
        for finger in fingers:
            finger.touch_down()
    else:
        lines = golden.read(golden.FOLDER / f"{script}.jsonl").lines
        session = golden.play(ui.store, script, upto=len(lines) * 2 // 3)
        ui.app.resume_game(session.game_id)
    ui.frames(3)
    circles = circles_drawn(Window.canvas)
    for finger in fingers:
        finger.touch_up()
    assert circles, "the screen draws circles"
    assert {segments for _kind, segments in circles} == {theme.CIRCLE_SEGMENTS}, sorted(set(circles))


@pytest.mark.parametrize(
    "script, part",
    [
        ("quinque-advanced-full-game", 2 / 3),
        ("quin-key-light-captured", 1),  # pieces taken: crossed out
        ("quantum-link-full-board", 2 / 3),
        ("dice-tray-hold-and-reroll", 2 / 3),
    ],
)
def test_every_wide_line_on_a_game_screen_is_opaque(ui: Any, script: str, part: float) -> None:
    """Issue 26: "Every tap answered quickly". Kivy draws a line wider than a pixel in a colour that is not opaque
    (a clear one too) through a stencil of its own: a stencil pass for each, and inside a ScrollView stray pixels
    past its edge. Mid-game, every wide line these screens draw is opaque; a clear one is one pixel wide."""
    from kivy.core.window import Window

    from tests.ui.test_quinque_screen import thick_lines

    lines = golden.read(golden.FOLDER / f"{script}.jsonl").lines
    session = golden.play(ui.store, script, upto=int(len(lines) * part))
    ui.app.resume_game(session.game_id)
    ui.frames(3)
    wide = thick_lines(Window.canvas)
    assert wide, "the screen draws wide lines"
    assert [(width, colour) for width, colour in wide if colour[3] != 1.0] == []


@pytest.mark.parametrize(
    "script, part",
    [
        ("quinque-advanced-full-game", 2 / 3),
        ("quantum-link-full-board", 2 / 3),
        ("quintet-five-players", 2 / 3),
        ("dice-tray-hold-and-reroll", 2 / 3),
    ],
)
def test_every_wide_line_that_turns_on_a_game_screen_is_mitred(ui: Any, script: str, part: float) -> None:
    """Issue 26: "Every tap answered quickly". Kivy joins the pieces of a line wider than a pixel with round
    joints, about ten triangles each, and a circle has 48 pieces: under software GL Quantum Link's board took
    9.5 ms to draw and 6.3 ms mitred, Quinque's skydivers' rings a third of its formation. Mid-game, every wide
    line of more than one piece these screens draw (the top bar's too) is mitred (`ui.widgets.shapes.outline`)."""
    from kivy.core.window import Window
    from kivy.graphics import Line

    from tests.support.canvas import drawn

    lines = golden.read(golden.FOLDER / f"{script}.jsonl").lines
    session = golden.play(ui.store, script, upto=int(len(lines) * part))
    ui.app.resume_game(session.game_id)
    ui.frames(3)
    wide = [line for line, _colour in drawn(Window.canvas) if isinstance(line, Line) and line.width > 1]
    turning = [line for line in wide if len(line.points) > 4]
    assert turning, "the screen draws wide lines that turn"
    assert sorted({(line.joint, round(line.width, 1)) for line in turning if line.joint == "round"}) == []
