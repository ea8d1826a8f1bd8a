"""Child process for the start-up benchmark: print seconds (and CPU seconds) to the first frame and peak memory.

``python -m bench.first_frame hello``   a bare Kivy "hello" app (the baseline)
``python -m bench.first_frame companion --db PATH``   our app, through the same path as `companion run`
``python -m bench.first_frame first-use --db PATH [--at-once]``   our app; then each game's screen opened by a
    touch on its button on home, the first time after start-up and again, each timed from the touch to the
    frame that shows it (``OPEN first|again GAME SECONDS`` lines), each screen made on its tap (home makes none
    ahead here: what loading costs the first time). After `SETTLE` seconds, as a table taps once
    the app has settled (and what it loads ahead after its first frame is loaded: ``READY SECONDS``, counted
    from the first frame); with ``--at-once``, Quark alone, tapped at the first frame (before anything loaded
    ahead could help).
"""

from __future__ import annotations

import os
import resource
import sys
import time
from collections.abc import Iterator
from typing import Any

SETTLE = 2.0
"""Seconds after the first frame before the first tap (as `bench_idle` and `bench_taps` let start-up settle)."""
GAMES = ("quantum-link", "quark", "quin", "quinque", "quintet")
TIMEOUT = 20.0


def _report_and_stop() -> None:
    from kivy.app import App

    started = float(os.environ["BENCH_T0"])
    used = resource.getrusage(resource.RUSAGE_SELF)  # this process's CPU so far: a shared machine's load adds none
    print(f"{time.time() - started:.4f} {used.ru_utime + used.ru_stime:.4f} ", end="", flush=True)

    def stop(_dt: float) -> None:
        App.get_running_app().stop()

    from kivy.clock import Clock

    Clock.schedule_once(stop, 0)


def hello() -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.uix.label import Label

    class Hello(App):
        def build(self) -> Label:
            return Label(text="hello")

        def on_start(self) -> None:
            Clock.schedule_once(lambda _dt: _report_and_stop(), 0)

    Hello().run()


def companion(db: str) -> None:
    from ui.cli import _parser, run

    args = _parser().parse_args(["run", "--db", db])
    run(args, on_first_frame=_report_and_stop)


# -- first use: each game's screen opened from home by a touch --------------------------------------------------


class FirstUse:
    """Touch each game's button on home in turn (twice over), timing each to the frame that shows its screen."""

    def __init__(self, at_once: bool) -> None:
        self.at_once = at_once
        self.steps: Iterator[float | str] = iter(())
        self.t0 = 0.0
        self.game = ""
        self.round = ""
        self.first_frame = 0.0
        self.loaded_ahead: float | None = None

    def start(self) -> None:
        from kivy.app import App
        from kivy.clock import Clock

        # Each screen made on its tap, the first time and again: what loading it the first time costs. (With home
        # making the games' screens ahead, a start shows one made before its tap: `bench_taps` times those.)
        app = App.get_running_app()
        app.making_ahead = False
        app.kept.drop_all()  # nothing made yet: home waits half a second before its first
        self.first_frame = time.perf_counter()
        # The app starts loading ahead in this same frame, after this: watched from the next frame on.
        Clock.schedule_interval(self._watch_loading_ahead, 0.01)
        self.steps = self._script()
        self._next()

    def _script(self) -> Iterator[float | str]:
        games = ("quark",) if self.at_once else GAMES
        if not self.at_once:
            yield SETTLE
            yield "ready"
        for self.round in ("first", "again"):
            for game in games:
                yield game
                yield 0.3  # the screen drawn a few times, then home again, settled
                self._home()
                yield 0.3

    def _next(self) -> None:
        from kivy.app import App
        from kivy.clock import Clock

        step = next(self.steps, None)
        if step is None:
            App.get_running_app().stop()
        elif isinstance(step, float):
            Clock.schedule_once(lambda _dt: self._next(), step)
        elif step == "ready":
            Clock.schedule_once(self._ready, 0)
        else:
            Clock.schedule_once(lambda _dt: self._touch(step), 0)

    def _ready(self, _dt: float) -> None:
        """Wait until what the app loads ahead after its first frame is loaded (at once if it loads nothing)."""
        from kivy.clock import Clock

        if self.loaded_ahead is None:
            Clock.schedule_once(self._ready, 0.02)
            return
        if self.loaded_ahead:  # an app that loads nothing ahead says nothing
            print(f"\nREADY {self.loaded_ahead:.6f}", flush=True)
        self._next()

    def _watch_loading_ahead(self, _dt: float) -> bool:
        """From the first frame: note when the app's loading ahead is done (None until then)."""
        from kivy.app import App

        app = App.get_running_app()
        if getattr(app, "warming", None) is not None:
            return True
        self.loaded_ahead = time.perf_counter() - self.first_frame if hasattr(app, "warming") else 0.0
        return False

    def _touch(self, game: str) -> None:
        from kivy.app import App
        from kivy.core.window import Window
        from kivy.tests.common import UnitTestTouch

        home = App.get_running_app().home
        choice = next(c for c in home.ids.games.children if c.game == game)
        button = choice.children[-1]  # the game's own button, left of its variant's (Kivy lists children last first)
        x, y = button.to_window(*button.center)
        self.game = game
        Window.bind(on_flip=self._flipped)
        touch = UnitTestTouch(x, y)
        self.t0 = time.perf_counter()
        touch.touch_down()
        touch.touch_up()
        Window.canvas.ask_update()  # a frame drawn even if the touch changed nothing: the check below runs

    @staticmethod
    def _give_up(game: str) -> None:
        from kivy.app import App

        app = App.get_running_app()
        print(f"TIMEOUT {game}: showing {app.screens.current}; home says {app.home.notice!r}", flush=True)
        os._exit(4)

    def _flipped(self, *_args: Any) -> None:
        from kivy.app import App
        from kivy.core.window import Window

        now = time.perf_counter()
        session = getattr(App.get_running_app().screens.current_screen, "session", None)
        if session is None or session.game.name != self.game:
            if now - self.t0 > TIMEOUT:
                self._give_up(self.game)
            Window.canvas.ask_update()
            return
        Window.unbind(on_flip=self._flipped)
        print(f"\nOPEN {self.round} {self.game} {now - self.t0:.6f}", flush=True)
        self._next()

    @staticmethod
    def _home() -> None:
        from kivy.app import App

        app = App.get_running_app()
        if app.session is not None:
            app.session.abandon()  # nothing waits on home's Unfinished page: each opening starts alike
        app.go_home()
        app.home.show_tab("games")  # laid out again before the next touch (the script waits)


def first_use(db: str, *, at_once: bool = False) -> None:
    from ui.cli import _parser, run

    driver = FirstUse(at_once)
    run(_parser().parse_args(["run", "--db", db]), on_first_frame=driver.start)


def _main(argv: list[str]) -> None:
    if argv[0] == "hello":
        hello()
    elif argv[0] == "first-use":
        first_use(argv[2], at_once="--at-once" in argv)
    else:
        companion(argv[2])


if __name__ == "__main__":
    _main(sys.argv[1:])
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)  # KiB
