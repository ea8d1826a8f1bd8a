"""The real app under Xvfb, driven by simulated touches.

One Kivy window per test process (Kivy allows no more), so the app is
session-wide and each test gets it back on a fresh home screen with a fresh
database through the `ui` fixture:

    def test_something(ui):
        screen = ui.start_game("quinque", ["Ann", "Bo"])
        ui.tap(ui.find(screen, "undo_button"))
        ui.screenshot("quinque-start.png")     # -> build/screenshots/ (git-ignored)

`ui.tap` sends a real touch down/up through Kivy's event loop at the
widget's centre, exactly as the touchscreen would.

The app runs the way Kivy's own test fixture (``kivy.tests.fixtures.kivy_app``)
runs it: through the public ``App.async_run()`` on an asyncio loop. That loop
runs only while the test waits for frames (`Ui.frames`), so a test stays a
plain function: between two waits nothing moves, and the test reads and
touches widgets on the thread that runs Kivy, as the app itself does.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.game import SEAT_COLOURS, Options, Player
from companion.store import Store
from tests.support import XvfbMissing, wait_until, xvfb_display

# Written where git does not look, so that a clean checkout stays clean after `make test`;
# `make screenshots` copies the ones the README and docs/ show into docs/screenshots/.
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
PALETTE = SEAT_COLOURS


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.ui)


@pytest.fixture(scope="session")
def xvfb() -> Iterator[str]:
    """A virtual X screen for this test process (or the one DISPLAY already names)."""
    with contextlib.ExitStack() as stack:
        try:
            display = stack.enter_context(xvfb_display(reuse=not os.environ.get("COMPANION_TEST_OWN_XVFB")))
        except XvfbMissing as missing:
            pytest.fail(str(missing))
        yield display


class RunningApp:
    """An app started with Kivy's public ``App.async_run()`` on an asyncio loop that `frames` runs.

    An exception in a frame (a clock callback, a kv handler) does not end
    the app's main loop: Kivy's `ExceptionManager` hands it here, and
    `frames` raises it in the test that was waiting.
    """

    def __init__(self, app: Any) -> None:
        from kivy.base import ExceptionManager

        self.app = app
        self.errors: list[Exception] = []
        self.loop = asyncio.new_event_loop()
        ExceptionManager.add_handler(self)
        self.main = self.loop.create_task(app.async_run(async_lib="asyncio"))

    def handle_exception(self, error: BaseException) -> int:
        """Kivy's `ExceptionHandler` hook: keep an error for the test, let an interrupt end the loop."""
        from kivy.base import ExceptionManager

        if not isinstance(error, Exception):
            return ExceptionManager.RAISE
        self.errors.append(error)
        return ExceptionManager.PASS

    def frames(self, count: int) -> None:
        """Run the app until Kivy has done `count` more whole frames (clock, input, layout, drawing)."""
        from kivy.clock import Clock

        target = Clock.frames + count
        reached = self.loop.create_future()

        def count_frame(_dt: float) -> bool:
            # Called by Kivy's clock once a frame (a wake-up of the test's own would cost CPU while it waits).
            if Clock.frames >= target and not reached.done():
                reached.set_result(None)
            return not reached.done()

        async def done() -> None:
            event = Clock.schedule_interval(count_frame, 0)
            try:
                await asyncio.wait({reached, self.main}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                event.cancel()

        self.loop.run_until_complete(done())
        if self.errors:
            error, self.errors = self.errors[0], []
            raise error
        if self.main.done():
            self.main.result()  # the main loop's own error, if it had one
            raise RuntimeError("the app's main loop has ended")

    def stop(self) -> None:
        """Leave the main loop the way Kivy's fixture does, and let `async_run` finish (`on_stop`)."""
        from kivy.base import ExceptionManager, stopTouchApp

        stopTouchApp()
        try:
            self.loop.run_until_complete(self.main)
        finally:
            ExceptionManager.remove_handler(self)
            self.loop.close()


def _inside_scrollview(widget: Any) -> bool:
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            return True
        parent = parent.parent
    return False


class Ui:
    """Drives the running app: start games, tap widgets, take screenshots."""

    def __init__(self, running: RunningApp, tmp_path: Path) -> None:
        from companion.config import Config
        from ui.table import Table

        self.running = running
        self.app = app = running.app
        self.store = Store.open(tmp_path / "games.db")
        self.table = Table(store=self.store, config=Config(), dice=RandomDice.seeded(2026))
        app.reset(self.table)
        self.resize(800, 480)

    @property
    def window(self) -> Any:
        from kivy.core.window import Window

        return Window

    @property
    def screen(self) -> Any:
        return self.app.screens.current_screen

    def reopen(self, path: Path) -> None:
        """As after a power cut: the store closed, a new store, table and home screen on the games file `path`."""
        from companion.config import Config
        from ui.table import Table

        self.store.close()
        self.store = Store.open(path)
        self.table = Table(store=self.store, config=Config(), dice=RandomDice.seeded(7))
        self.app.reset(self.table)
        self.frames(3)

    def resize(self, width: int, height: int) -> None:
        from kivy.graphics.opengl import GL_VIEWPORT, glGetIntegerv

        if tuple(self.window.size) == (width, height) and tuple(glGetIntegerv(GL_VIEWPORT))[2:] == (width, height):
            self.frames(2)  # already that size and drawn at it (the most common case, each test's start)
            return
        self.window.size = (width, height)
        self.wait(0.5)  # Xvfb needs a moment before a grown window draws cleanly
        # On a loaded machine the window's resize can arrive later still: a screenshot taken before GL draws
        # at the new size shows the old size's corner and noise around it. Wait for it, then draw afresh.
        self.wait_until(lambda: tuple(glGetIntegerv(GL_VIEWPORT))[2:] == (width, height), timeout=10.0)
        self.window.canvas.ask_update()
        self.frames(2)

    def frames(self, count: int = 3) -> None:
        """Let Kivy run `count` frames (layout, clock callbacks, drawing)."""
        self.running.frames(count)

    def start_game(self, game: str, players: Sequence[str], **settings: Any) -> Any:
        seats = tuple(Player(name, PALETTE[i % len(PALETTE)]) for i, name in enumerate(players))
        screen = self.app.start_game(game, Options(seats, settings))
        self.frames(4)
        return screen

    def tap(self, widget: Any) -> None:
        """A real touch at the widget's centre: down, then up."""
        from kivy.tests.common import UnitTestTouch

        self.settle()
        assert widget.get_root_window() is not None, f"{widget!r} is not on screen"
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.frames(1)
        touch.touch_up()
        self.frames(3)
        if _inside_scrollview(widget):
            # A ScrollView holds a touch back until it knows it is not a scroll,
            # then replays it to the child on the clock (its touch up 0.2 s after ours): give it that time.
            self.wait(0.21)
            self.frames(3)

    def touch_in_a_frame(self, widget: Any) -> None:
        """A touch, down and up, dispatched inside a frame after its clock has ticked, as Kivy's input providers
        dispatch one: what it changes is drawn in that frame only if it is drawn before the next frame (`tap`
        dispatches between frames, where an answer on the next tick is drawn in the next frame all the same)."""
        from kivy.clock import Clock
        from kivy.tests.common import UnitTestTouch

        self.settle()
        touch = UnitTestTouch(*widget.to_window(*widget.center))
        Clock.schedule_once(lambda _dt: (touch.touch_down(), touch.touch_up()), 0)
        self.frames(3)
        self.settle()

    def double_tap(self, widget: Any) -> None:
        """Two quick touches at the widget's centre, the second a frame after the first: a hurried finger."""
        from kivy.tests.common import UnitTestTouch

        self.settle()
        x, y = widget.to_window(*widget.center)
        for _ in range(2):
            touch = UnitTestTouch(x, y)
            touch.touch_down()
            self.frames(1)
            touch.touch_up()
            self.frames(1)
        self.settle()

    def settle(self, timeout: float = 5.0) -> None:
        """Run frames until layouts are done and popups have finished opening or closing (on a loaded machine
        a fade of a fraction of a second can take seconds of frames: it returns as soon as they are done)."""
        from kivy.animation import Animation
        from kivy.uix.modalview import ModalView

        from ui.widgets.fitted_popup import SteadyOpening

        self.frames(2)
        for view in self.window.children:
            if isinstance(view, SteadyOpening) and view.appearing:
                # A player who waits for the popup: its fade in is over at once. Watching each one's quarter of
                # a second drawn frame by frame was a third of the suite's time; test_fitted_popup.py and the
                # double-tap tests (`double_tap` settles only before and after) see the real fade.
                Animation.cancel_all(view, "opacity")
                view.opacity = 1.0
                view.appearing = False
        end = time.monotonic() + timeout
        # A popup at rest is fully opaque; one fading in or out still takes every touch. Our steady popups say
        # so in public (`appearing`); a plain Kivy popup's own fade (in, and out on dismiss) is told only by
        # ModalView's private `_anim_alpha`: Kivy 2.3 has no public property for it, so it is read here.
        while time.monotonic() < end and any(
            isinstance(w, ModalView) and (getattr(w, "appearing", False) or w._anim_alpha < 1)
            for w in self.window.children
        ):
            self.frames(1)

    def wait(self, seconds: float) -> None:
        """Let Kivy run frames for `seconds` of real time (clock-scheduled work)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.frames(1)

    def draws(self, frames: int) -> int:
        """How many times the window is drawn over the next `frames` frames."""
        count = [0]
        uid = self.window.fbind("on_flip", lambda *_: count.__setitem__(0, count[0] + 1))
        try:
            self.frames(frames)
        finally:
            self.window.unbind_uid("on_flip", uid)
        return count[0]

    def wait_still(self, timeout: float = 10.0) -> bool:
        """Run frames until ten in a row draw nothing (a notice going, a popup fading: a fade draws every frame
        until it is over; on a loaded machine it takes longer than its nominal time). Some work begins only after
        a pause (popups made ahead, half a second after their screen shows): a second goes by first."""
        self.wait(1.0)
        return self.wait_until(lambda: self.draws(10) == 0, timeout)

    def wait_until(self, condition: Callable[[], Any], timeout: float = 5.0) -> bool:
        """Run frames until `condition` holds (work handed to the UI thread is done in them); whether it did."""
        return wait_until(condition, timeout, between=lambda: self.frames(1))

    def find(self, root: Any, widget_id: str) -> Any:
        """The widget with kv id `widget_id` anywhere under `root` (LookupError if none)."""
        for widget in [root, *root.walk(restrict=True)]:
            ids = getattr(widget, "ids", {})
            if widget_id in ids:
                return ids[widget_id]
        raise LookupError(f"no widget with id {widget_id!r} under {root!r}")

    def find_text(self, root: Any, text: str) -> Any:
        """The first widget under `root` whose text is exactly `text`."""
        for widget in root.walk(restrict=True):
            if getattr(widget, "text", None) == text:
                return widget
        raise LookupError(f"no widget with text {text!r} under {root!r}")

    def screenshot(self, name: str) -> Path:
        """Save what the window shows as build/screenshots/`name` and return the path."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.frames(3)
        self.window.canvas.ask_update()  # a frame drawn now, at the window's size, is the one read back
        self.frames(1)
        target = SCREENSHOTS / name
        stem = str(target.with_suffix(""))
        made = Path(self.window.screenshot(name=f"{stem}.png"))
        made.replace(target)
        return target


@pytest.fixture(scope="session")
def kivy_app(xvfb: str) -> Iterator[RunningApp]:
    """The app, running for the whole test process (one Kivy window per process)."""
    from ui import boot

    boot.prepare(width=800, height=480)
    from kivy.config import Config

    for option, _ in Config.items("input"):  # as Kivy's fixture does: no input device but the tests' touches
        Config.remove_option("input", option)
    # Without multisampling each frame costs about a quarter less under software GL, most of the suite's time
    # (only the edges of round shapes differ). `make screenshots` keeps Kivy's own 2 for the pictures the
    # README and docs show; the app itself, and every app `make bench` and the start-up tests run, keep it too.
    Config.set("graphics", "multisamples", os.environ.get("COMPANION_TEST_MULTISAMPLES", "0"))
    from ui.app import CompanionApp
    from ui.table import Table

    running = RunningApp(CompanionApp(Table(store=Store.in_memory())))
    running.frames(5)
    yield running
    running.stop()


@pytest.fixture
def ui(kivy_app: RunningApp, tmp_path: Path) -> Iterator[Ui]:
    driver = Ui(kivy_app, tmp_path)
    yield driver
    from kivy.uix.modalview import ModalView

    for view in list(driver.window.children):
        if isinstance(view, ModalView):  # a popup a test left open would swallow the next test's taps
            view.dismiss(animation=False)
    driver.frames(2)
    kivy_app.app.go_home()
    driver.store.close()


@pytest.fixture
def hub(ui: Ui, tmp_path: Path) -> Iterator[Any]:
    """A real display hub watching a folder of emulated displays' ports, wired to the table as the app does."""
    from hardware.display.hub import DisplayHub
    from ui.dispatch import clock_dispatcher

    (tmp_path / "ports").mkdir()
    with DisplayHub(
        tmp_path / "pairings.json", ports=[str(tmp_path / "ports" / "*")], call_soon=clock_dispatcher
    ) as started:
        ui.table.displays = started
        try:
            yield started
        finally:
            ui.app.go_home()
            ui.table.displays = None
