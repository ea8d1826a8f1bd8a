"""Taps that wait: from a touch to the frame that shows what it opened, against a bare Kivy popup (issue 26).

A player at the table taps and waits with a finger over the glass. Each
figure is the time from a real touch (a MotionEvent, down then up, at the
widget's centre, dispatched as Kivy's own input providers dispatch one) to
the end of the first frame drawn after the screen or popup it opens is in
place (the window's ``on_flip``), at 800×480 under Xvfb, through the same
path as ``companion run``: every screen and popup a table opens (each game's
start and resume, the Menu, the Game log from a game and from Past games,
the replay, Quark's Create, Annihilate and Correct, the leave picker, the
phones panel, Settings, the race), and a tap on a half-built Quinque formation
that changes it (the whole formation is drawn again).

The baseline, in the same process and just before each tap, over the same
screen: a bare Kivy `Popup` of the size of what the tap opened (the whole
window for a screen), opened by the same kind of touch on a plain `Button`.
Goal: each at most 2× its baseline and under 250 ms, the median of `ROUNDS`
rounds. Before the rounds, one round more opens everything once after
start-up has settled: its figures are shown as "first" (what the first
opening of each after a start costs). And in children of their own, the very
first tap after the first frame: starting Quark at once.

``BENCH_TAPS_PIXELS=1`` times each to its pixels drawn instead (`TO_PIXELS`).

``python -m bench.bench_taps`` runs it alone; ``BENCH_TAPS_PROFILE="<tap>|<tap>"``
prints a cProfile of those taps' rounds (in the child) instead of the table (`FIRST_TAP`'s name profiles the
very first tap, in the first child).
Beside each figure, the CPU time the process took meanwhile (every thread,
Mesa's software rasterizer too): on a machine shared with other work, the
wall time grows with the load, the CPU time much less. And the app thread's
CPU alone, ours against the baseline's: the tap's own work (widgets, words,
drawing calls) without the software rasterizer, which draws in threads of
its own and which a Pi's GPU replaces (`Driver.work`).
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.report import line

HERE = Path(__file__).parent
ROUNDS = int(os.environ.get("BENCH_TAPS_ROUNDS", "5"))
"""Rounds; each tap's figure is its median over them. Five, as the score pad's and the idle figures: with three,
the tap on Quinque's formation read 1.80× and 2.03× in two whole runs of the same code, its baseline (a bare
popup) 4–7 ms from round to round (2026-11-29)."""
FIRSTS = int(os.environ.get("BENCH_TAPS_FIRSTS", "3"))
"""Children that only start Quark at the first frame (the very first tap after start-up)."""
SETTLE = float(os.environ.get("BENCH_TAPS_SETTLE", "2.0"))
"""Seconds after the first frame before the rounds: start-up's loading in the background is done."""
RATIO_GOAL = 2.0
MS_GOAL = 250.0
GAMES = tuple(os.environ.get("BENCH_TAPS_GAMES", "quantum-link,quark,quin,quinque,quintet").split(","))
"""The games whose taps are timed (``BENCH_TAPS_GAMES=quin`` times one game's while working on it)."""
TITLES = {"quantum-link": "Quantum Link", "quark": "Quark", "quin": "Quin", "quinque": "Quinque", "quintet": "Quintet"}
FINISHED_SCRIPT = "quark-3p-dry-bank"
"""The past game whose Log and replay are opened: the longest golden game."""
PAUSE = 0.7
"""Seconds without a touch before each timed tap: a player looks at the screen before the next tap."""
TIMEOUT = 10.0
PROFILE_LINES = int(os.environ.get("BENCH_TAPS_PROFILE_LINES", "40"))
TO_PIXELS = bool(os.environ.get("BENCH_TAPS_PIXELS"))
"""Time each tap (and its baseline) to its frame's pixels drawn (``glFinish`` at ``on_flip``), not only to its
frame's drawing calls made. Under Xvfb, Mesa's software rasterizer draws the pixels after the calls (where a Pi's
GPU would), most of it in the buffer swap; but a call that needs pixels not yet drawn (a texture written that the
last frame drew from) waits for them inside the frame. So the usual figure can move by the rasterizer's 10-20 ms
with no change in what is drawn; this one cannot, and both sides pay the rasterizer."""
WHEN = " (its pixels drawn)" if TO_PIXELS else ""


# -- the child: the app, driven by touches ----------------------------------------------------------------------


@dataclass
class Tap:
    """Touch `widget` (or, if it is a callable, the widget it gives then); done when `done()` gives the
    widget that shows the result (its size is the baseline popup's)."""

    name: str
    widget: Any
    done: Callable[[], Any]


@dataclass
class Wait:
    seconds: float


Step = Tap | Wait
_RUNNING: list[Driver] = []


class Driver:
    """Runs a script (a generator of `Step`s) on Kivy's clock; a `Tap` is sent back its seconds and size."""

    def __init__(self, script: Generator[Step, Any, None]) -> None:
        self.script = script
        self._tap: Tap | None = None
        self._t0 = 0.0
        self._deadline = 0.0
        self._cpu0 = 0.0
        self.cpu = 0.0
        """The CPU seconds (every thread of the process, the rasterizer's too) the last tap took."""
        self._work0 = 0.0
        self.work = 0.0
        """The CPU seconds of the app's own thread alone, from the touch to its frame's drawing calls made: what a
        GPU leaves to the CPU (the software rasterizer draws in threads of its own, which this thread may wait for,
        without CPU)."""

    def start(self) -> None:
        _RUNNING.append(self)  # Kivy holds a bound method weakly: the driver must outlive this call
        self._next(None)

    def _next(self, value: Any) -> None:
        from kivy.app import App
        from kivy.clock import Clock

        try:
            step = self.script.send(value)
        except StopIteration:
            App.get_running_app().stop()
            return
        except BaseException:
            import traceback

            traceback.print_exc()
            sys.stdout.flush()
            os._exit(3)
        if isinstance(step, Wait):
            Clock.schedule_once(lambda _dt: self._next(None), step.seconds)
        else:
            Clock.schedule_once(lambda _dt: self._touch(step), 0)

    def _late(self) -> None:
        if self._tap is not None and time.perf_counter() > self._deadline:
            from kivy.app import App

            app = App.get_running_app()
            shown = f"{app.screens.current}, {_window().children}"
            print(f"TIMEOUT {self._tap.name}: the home screen says {app.home.notice!r}; shown: {shown}", flush=True)
            os._exit(4)

    def _touch(self, tap: Tap) -> None:
        from kivy.clock import Clock
        from kivy.core.window import Window
        from kivy.tests.common import UnitTestTouch

        widget = tap.widget() if callable(tap.widget) else tap.widget
        if widget is None or widget.get_root_window() is None:
            raise RuntimeError(f"{tap.name}: {widget!r} is not on screen")
        if getattr(widget, "disabled", False):
            raise RuntimeError(f"{tap.name}: {widget!r} is disabled")
        x, y = widget.to_window(*widget.center)
        self._tap = tap
        Window.bind(on_flip=self._flipped)
        self._watch = Clock.schedule_interval(lambda _dt: self._late(), 1.0)
        touch = UnitTestTouch(x, y)
        self._cpu0 = time.process_time()
        self._work0 = time.thread_time()
        self._t0 = time.perf_counter()
        self._deadline = self._t0 + TIMEOUT
        touch.touch_down()
        touch.touch_up()

    def _flipped(self, *_args: Any) -> None:
        from kivy.clock import Clock
        from kivy.core.window import Window

        tap = self._tap
        assert tap is not None
        shown = tap.done()
        if shown is None:
            return
        self.work = time.thread_time() - self._work0
        if TO_PIXELS:
            from kivy.graphics.opengl import glFinish

            glFinish()
        now = time.perf_counter()
        Window.unbind(on_flip=self._flipped)
        self._watch.cancel()
        self._tap = None
        self.cpu = time.process_time() - self._cpu0
        result = (now - self._t0, tuple(int(v) for v in shown.size))
        Clock.schedule_once(lambda _dt: self._next(result), 0)


def _window() -> Any:
    from kivy.core.window import Window

    return Window


def _on_window(cls: str) -> Callable[[], Any]:
    """Done when a popup of class `cls` is on the window."""

    def found() -> Any:
        return next((w for w in _window().children if type(w).__name__ == cls), None)

    return found


def _screen_is(app: Any, cls: str) -> Callable[[], Any]:
    """Done when the screen shown is of class `cls`."""

    def found() -> Any:
        screen = app.screens.current_screen
        return screen if type(screen).__name__ == cls else None

    return found


def _game_shown(app: Any, game: str) -> Callable[[], Any]:
    """Done when the screen shown is game `game`'s, its board drawn: a screen whose board waits to be drawn
    on a later frame (Quinque's formation, drawn once the layout has settled) shows the result only then."""

    def found() -> Any:
        screen = app.screens.current_screen
        session = getattr(screen, "session", None)
        if screen.name == "home" or session is None or session.game.name != game:
            return None
        redraw = getattr(screen, "_redraw", None)
        return None if redraw is not None and redraw.is_triggered else screen

    return found


def _popups() -> list[Any]:
    from kivy.uix.modalview import ModalView

    return [w for w in _window().children if isinstance(w, ModalView)]


def _close_popups() -> None:
    for view in _popups():
        view.dismiss(animation=False)


def _settled() -> Iterator[Step]:
    """Let the screen come to rest: popups faded in or gone, the layout done, home's screens made ahead (a tap
    meanwhile waits for one step of that: `ui.kept_screens`), a few frames drawn."""
    from kivy.app import App

    yield Wait(0.05)
    for _ in range(40):
        if not any(getattr(w, "appearing", False) or w._anim_alpha not in (0, 1) for w in _popups()):
            break
        yield Wait(0.03)
    for _ in range(100):
        if not App.get_running_app().kept.busy:
            break
        yield Wait(0.05)
    yield Wait(0.15)


class Bare:
    """The baseline: a plain Button on the window, whose release opens a bare Kivy Popup of a given size."""

    def __init__(self) -> None:
        from kivy.uix.button import Button

        self.size = (400, 300)
        self.button = Button(text="bare", size_hint=(None, None), size=(120, 60), pos=(0, 0))
        self.button.bind(on_release=lambda _b: self._open())
        self.popup: Any = None
        self.work = 0.0
        """The app thread's CPU seconds of the last opening (`Driver.work`)."""

    def _open(self) -> None:
        from kivy.uix.label import Label
        from kivy.uix.popup import Popup

        self.popup = Popup(
            title="A bare popup",
            content=Label(text="Nothing but a label."),
            size_hint=(None, None),
            size=self.size,
        )
        self.popup.open()

    def tap(self, size: tuple[int, int]) -> Generator[Step, Any, float]:
        """Open it at `size` with a touch on its button; the seconds it took."""
        self.size = size
        _window().add_widget(self.button)
        yield Wait(0.05)
        taken, _ = yield Tap(
            "bare popup", self.button, lambda: self.popup if self.popup in _window().children else None
        )
        self.work = _RUNNING[-1].work
        self.popup.dismiss(animation=False)
        self.popup = None
        _window().remove_widget(self.button)
        yield from _settled()
        return float(taken)


class Rounds:
    """The taps, each after the bare popup of its size, over the same screen; one line per tap and round."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.bare = Bare()
        self.sizes: dict[str, tuple[int, int]] = {}
        self.round = 0
        self.profile = [name for name in os.environ.get("BENCH_TAPS_PROFILE", "").split("|") if name]
        self.profilers: dict[str, Any] = {}

    def measure(self, tap: Tap) -> Generator[Step, Any, Any]:
        yield from _settled()
        base = yield from self.bare.tap(self.sizes.get(tap.name, tuple(_window().size)))
        yield Wait(PAUSE)  # a player reads, then taps: the app's quiet moments come before the tap, as they would
        profiler = None
        if tap.name in self.profile and self.round > 0:
            import cProfile

            profiler = self.profilers.setdefault(tap.name, cProfile.Profile())
            profiler.enable()
        taken, size = yield tap
        cpu, work = _RUNNING[-1].cpu, _RUNNING[-1].work
        if profiler is not None:
            profiler.disable()
        self.sizes[tap.name] = size
        print(
            f"TAP {self.round} {taken:.6f} {base:.6f} {cpu:.6f} {work:.6f} {self.bare.work:.6f} {size[0]} {size[1]}"
            f" {tap.name}",
            flush=True,
        )
        return tap.done()

    def home(self) -> Any:
        return self.app.home

    def go_home(self) -> Generator[Step, Any, None]:
        _close_popups()
        screen = self.app.screens.current_screen
        if type(screen).__name__ == "RaceScreen":
            screen.back()
            yield Wait(0.05)
            screen = self.app.screens.current_screen
        if hasattr(screen, "go_home"):
            screen.go_home()
        yield from _settled()

    def game_button(self, game: str) -> Callable[[], Any]:
        def find() -> Any:
            choice = next(c for c in self.home().ids.games.children if c.game == game)
            return choice.children[-1]  # its first child: the game's own button (the variant's is beside it)

        return find

    def resume_button(self, game: str) -> Callable[[], Any]:
        def find() -> Any:
            home = self.home()
            row = next(r for r in home.unfinished_rows if self._game_of(r.game_id) == game)
            return row.ids.resume_button

        return find

    def _game_of(self, game_id: int) -> str:
        record = self.app.table.store.game(game_id)
        return str(record.game) if record else ""

    def menu_tap(self, name: str, button: str, done: Callable[[], Any]) -> Generator[Step, Any, Any]:
        """Open the Menu (not timed), then time the tap on its `button`."""
        self.app.screens.current_screen.open_menu()
        yield from _settled()
        menu = _on_window("GameMenu")()
        return (yield from self.measure(Tap(name, menu.ids[button], done)))

    def one(self) -> Generator[Step, Any, None]:
        app, home = self.app, self.home()
        # New games: each started from home; the race from a fresh Quinque; then each ended without a result.
        for game in GAMES:
            home.show_tab("games")
            yield from self.measure(Tap(f"start {TITLES[game]}", self.game_button(game), _game_shown(app, game)))
            if game == "quinque":
                yield from self.menu_tap("the race (Who goes first?)", "race_button", _screen_is(app, "RaceScreen"))
                yield from self.go_home_from_race()
            app.session.abandon()
            app.go_home()
            yield from _settled()
        # Unfinished games, resumed; a game's own popups over it.
        for game in GAMES:
            home.show_tab("unfinished")
            yield from self.measure(Tap(f"resume {TITLES[game]}", self.resume_button(game), _game_shown(app, game)))
            screen = app.screens.current_screen
            if game == "quark":
                actions, table = screen.actions.ids, screen.body.ids  # the action bar under the board; Correct on it
                for name, button, cls in (
                    ("Create", actions.create_button, "QuarkCreatePopup"),
                    ("Annihilate", actions.annihilate_button, "QuarkAnnihilatePopup"),
                    ("Correct", table.correct_button, "QuarkCorrectPopup"),
                ):
                    yield from self.measure(Tap(f"Quark: {name} popup", button, _on_window(cls)))
                    _close_popups()
                yield from self.menu_tap("Game log, from a game's Menu", "log_button", _on_window("LogView"))
                _on_window("LogView")().close()
            if game == "quinque":
                screen.board.ids.scroller.scroll_to(_formation_tap(screen).widget(), padding=0, animate=False)
                yield from self.measure(_formation_tap(screen))
            if game == "quin":
                yield from self.measure(Tap("the Menu", screen.ids.menu_button, _on_window("GameMenu")))
                _close_popups()
                yield from self.menu_tap("the leave picker", "leave_button", _on_window("LeavePicker"))
                _close_popups()
                yield from self.menu_tap("the phones panel", "phones_button", _on_window("PhonesPanel"))
                _close_popups()
            yield from self.go_home()
        # Home's own popups, and a past game's Log and replay.
        home.show_tab("games")
        yield from self.measure(Tap("Settings", home.ids.settings_button, _on_window("SettingsPopup")))
        _close_popups()
        yield from self.measure(Tap("Past games", home.ids.history_button, _on_window("PastGamesPopup")))
        past = _on_window("PastGamesPopup")()
        row = next(r for r in past.game_rows if self._game_of(r.game_id) == "quark" and not r.abandoned)
        yield from self.measure(Tap("Game log, from Past games", row, _on_window("LogView")))
        log = _on_window("LogView")()
        yield from self.measure(Tap("the replay", log.ids.mode_button, lambda: _replay_shown(log)))
        log.close()
        _close_popups()
        yield from _settled()

    def go_home_from_race(self) -> Generator[Step, Any, None]:
        race = self.app.screens.current_screen
        race.back()
        yield from _settled()

    def script(self) -> Generator[Step, Any, None]:
        yield Wait(SETTLE)
        for self.round in range(ROUNDS + 1):  # round 0: the first opening of each
            yield from self.one()
        for name, profiler in self.profilers.items():
            import pstats

            print(f"PROFILE of {name!r}:")
            pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(PROFILE_LINES)


def _formation_tap(screen: Any) -> Tap:
    """A tap on Quinque's half-built formation that changes it: the first skydiver whose tap is a move (it is
    marked, or its tile added), else the first whose tap chooses its tile to move. Done when the whole formation
    has been drawn again."""
    before = screen.shown

    def spot() -> Any:
        taps = {key: before.tap_skydiver(*key) for key in screen.spots}
        moves = [key for key, tap in taps.items() if tap.action is not None and not tap.error]
        chooses = [key for key, tap in taps.items() if tap.chosen is not None and not tap.error]
        return screen.spots[(moves or chooses)[0]]

    def drawn() -> Any:
        return screen if screen.shown is not before and not screen._redraw.is_triggered else None

    return Tap("Quinque: a tap on the formation", spot, drawn)


def _replay_shown(log: Any) -> Any:
    return log.replay_screen if log.mode == "replay" and log.replay_screen is not None else None


FIRST_TAP = "start Quark, first tap after start-up"


def first_tap(app: Any) -> Generator[Step, Any, None]:
    """At the first frame: start Quark at once (a table that knows what it wants to play)."""
    rounds = Rounds(app)
    profiler = None
    if FIRST_TAP in os.environ.get("BENCH_TAPS_PROFILE", "").split("|"):
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    taken, size = yield Tap("start Quark", rounds.game_button("quark"), _game_shown(app, "quark"))
    if profiler is not None:
        import pstats

        profiler.disable()
        print(f"PROFILE of {FIRST_TAP!r}:")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(PROFILE_LINES)
    print(f"FIRST {taken:.6f} {size[0]} {size[1]}", flush=True)
    yield Wait(0.2)


def child(db: str, mode: str) -> None:
    from ui.cli import _parser, run

    def first_frame() -> None:
        from kivy.app import App

        app = App.get_running_app()
        script = first_tap(app) if mode == "first" else Rounds(app).script()
        Driver(script).start()

    run(_parser().parse_args(["run", "--db", db]), on_first_frame=first_frame)


# -- the parent ----------------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _games_file(db: Path) -> None:
    """One unfinished game of each (half played; Quark at the start of a turn), and a finished Quark."""
    from companion.store import Store
    from tests.support import golden
    from ui.presenters import quark

    with Store.open(db) as store:
        past = golden.FOLDER / f"{FINISHED_SCRIPT}.jsonl"
        later = time.time() + 3600  # its end is the newest: it stays on Past games' first page
        assert golden.play(store, past, clock=lambda: later).outcome is not None
        # Quantum Link (two players) last: home seats the newest unfinished game's players, and every game takes two.
        for game in sorted(GAMES, key=lambda g: g == "quantum-link"):
            script = max(golden.scripts(game), key=lambda p: len(p.read_text()))
            count = len(golden.read(script).lines)
            for upto in range(count // 2, 0, -1):
                if game != "quark":
                    break
                with Store.in_memory() as scratch:
                    session = golden.play(scratch, script, upto=upto)
                    if quark.present(session.view(), {}).actions_left == 2:
                        break
            golden.play(store, script, upto=upto if game == "quark" else count // 2)


def _child(mode: str, home: Path) -> list[str]:
    kivy_home = home / "config" / "kivy"
    kivy_home.mkdir(parents=True, exist_ok=True)
    db = Path(tempfile.mkdtemp(prefix="taps-", dir=home)) / "games.db"
    _games_file(db)
    env = {
        **os.environ,
        "COMPANION_HOME": str(home),
        "KIVY_HOME": str(kivy_home),
        "KIVY_NO_CONSOLELOG": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bench.bench_taps", "child", str(db), mode],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=HERE.parent,
        timeout=600,
    )
    if done.returncode != 0 or "Traceback" in done.stdout:
        raise RuntimeError(f"taps {mode} failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return done.stdout.splitlines()


def measure() -> tuple[list[str], list[float]]:
    """The child's lines (the rounds), and the very first taps' seconds."""
    from tests.support import xvfb_display

    home = Path(tempfile.mkdtemp(prefix="bench-taps-"))
    try:
        config = home / "config"
        config.mkdir(parents=True, exist_ok=True)
        # Phones on (the phones panel), on this machine only.
        (config / "companion.toml").write_text(
            f'[phones]\nenabled = true\ninterface = "127.0.0.1"\nport = {_free_port()}\n', encoding="utf-8"
        )
        with xvfb_display():
            firsts, said = [], []
            for _ in range(FIRSTS):
                lines = _child("first", home)
                found = [row.split() for row in lines if row.startswith("FIRST ")]
                firsts.append(float(found[-1][1]))
                said += [row for row in lines if not row.startswith("FIRST ")]  # a profile, when one is asked
            rows = said + _child("rounds", home)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return rows, firsts


def app_thread(works: list[tuple[float, float]]) -> str:
    """The app thread's CPU, ours and the baseline's (medians), and their ratio: the tap without the software
    rasterizer, which a Pi's GPU takes off the CPU."""
    ours, bare = statistics.median(w for w, _ in works) * 1000, statistics.median(b for _, b in works) * 1000
    return f"app thread {ours:.0f} vs {bare:.0f} ms ({ours / max(bare, 0.1):.2f}×)"


def run() -> list[str]:
    rows, firsts = measure()
    if os.environ.get("BENCH_TAPS_PROFILE"):
        return [row for row in rows if not row.startswith("TAP ")]
    ours: dict[str, list[float]] = {}
    bare: dict[str, list[float]] = {}
    first: dict[str, float] = {}
    cpus: dict[str, list[float]] = {}
    works: dict[str, list[tuple[float, float]]] = {}
    sizes: dict[str, str] = {}
    for row in rows:
        if not row.startswith("TAP "):
            continue
        _, number, taken, base, cpu, work, bare_work, width, height, name = row.split(" ", 9)
        if number == "0":
            first[name] = float(taken)
            continue
        cpus.setdefault(name, []).append(float(cpu))
        works.setdefault(name, []).append((float(work), float(bare_work)))
        ours.setdefault(name, []).append(float(taken))
        bare.setdefault(name, []).append(float(base))
        sizes[name] = f"{width}×{height}"
    lines = [
        f"touch → first frame showing the result{WHEN}, 800×480, median of {ROUNDS} rounds;"
        f" baseline: a bare Kivy popup of the same size opened by a touch, just before; 'first': the first time"
    ]
    medians = {name: (statistics.median(ours[name]), statistics.median(bare[name])) for name in ours}
    for name, (t, b) in medians.items():
        text = line(
            f"tap: {name}",
            f"{t * 1000:.0f} ms",
            f"{b * 1000:.0f} ms",
            t / b,
            f"≤ {RATIO_GOAL:g}× and < {MS_GOAL:.0f} ms",
        )
        met = t / b <= RATIO_GOAL and t * 1000 < MS_GOAL
        cpu = statistics.median(cpus[name]) * 1000
        lines.append(
            f"{text}   {'met' if met else 'NOT MET'}   first {first.get(name, 0) * 1000:.0f} ms"
            f"   CPU {cpu:.0f} ms   {sizes[name]}   {app_thread(works[name])}"
        )
    if firsts:  # none with BENCH_TAPS_FIRSTS=0
        very_first = statistics.median(firsts)
        base_full = statistics.median(b for name, (_, b) in medians.items() if name.startswith("start "))
        lines.append(
            line(
                f"tap: {FIRST_TAP}",
                f"{very_first * 1000:.0f} ms",
                f"{base_full * 1000:.0f} ms",
                very_first / base_full,
            )
            + f"   (median of {len(firsts)} starts; baseline: the settled starts')"
        )
    slowest = sorted(medians.items(), key=lambda item: item[1][0], reverse=True)[:5]
    lines.append("slowest five: " + ", ".join(f"{name} {t * 1000:.0f} ms ({t / b:.2f}×)" for name, (t, b) in slowest))
    return lines


if __name__ == "__main__":
    if sys.argv[1:2] == ["child"]:
        child(sys.argv[2], sys.argv[3])
    else:
        for text in run():
            print(text, flush=True)
