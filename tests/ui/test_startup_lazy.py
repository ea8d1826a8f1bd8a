"""Start-up loads only what home draws; what a tap needs is loaded after the first frame, in small slices.

Issue 26: "Start-up ≤ 1.25× a bare Kivy app, in the same run: nothing on the
path to the first frame that the home screen does not draw (the phone server,
aiohttp, segno, the game screens and their kv files, salvage) — load them
when first needed, and measure that first use too."

Each check runs in a fresh interpreter (what one process has imported is the
question), through the same path as ``companion run``. The timing itself is
`make bench`'s ("start-up to first frame of home", "first game screen after
start-up"), never asserted here.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 120.0  # seconds for a child to finish on a loaded machine: a limit, never a measurement

GAME_SCREENS = ("ui.screens.quantum_link", "ui.screens.quark", "ui.screens.quin", "ui.screens.quinque")
GAME_SCREENS += ("ui.screens.quintet",)
NOT_FOR_HOME = (
    "aiohttp",  # the phones' server
    "segno",  # the phones' QR codes
    "hardware.phones.server",
    "hardware.display.hub",  # the player displays: opened after the first frame
    "companion.store.salvage",  # mending a damaged file: only when it is damaged
    "companion.store.pages",  # reading a file's pages and WAL raw: only when the WAL has frames to check
    "companion.session",  # a game in play
    "companion.small_display",  # a seat's own display or phone: drawn once one is paired
    "ui.screens.base",  # every game screen's base, and its rules file
    "ui.screens.home_popups",  # home's popups (a game's names, discard, wins, past games): opened by a tap
    "tomllib",  # the config file's reader: this table has none (the defaults need none)
    "ui.screens.log",
    "ui.screens.race",
    "ui.widgets.settings",
    *GAME_SCREENS,
)
KV_FILES = ("ui/screens/base.kv", "ui/screens/home_popups.kv")
KV_FILES += tuple(f"{name.replace('.', '/')}.kv" for name in GAME_SCREENS)


def _env(home: Path, display: str | None) -> dict[str, str]:
    # As `companion run` from a terminal: none of Kivy's settings, none of pytest's.
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KIVY_", "DISPLAY"))}
    env.pop("PYTEST_CURRENT_TEST", None)
    env.update(COMPANION_HOME=str(home), KIVY_NO_CONSOLELOG="1", **({"DISPLAY": display} if display else {}))
    return env


def _run(code: str, home: Path, *args: str, display: str | None = None) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=_env(home, display), capture_output=True, text=True,
        timeout=DEADLINE,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


IMPORT_APP = """
import json, sys
import ui.app
print(json.dumps({"modules": sorted(sys.modules)}))
"""


def test_importing_the_app_loads_no_game_screen_no_session_and_no_phone_server(tmp_path: Path) -> None:
    """Issue 26: "nothing on the path to the first frame that the home screen does not draw (the phone server,
    aiohttp, segno, the game screens and their kv files, salvage)". `import ui.app` loads home's screen alone."""
    modules = set(_run(IMPORT_APP, tmp_path)["modules"])  # type: ignore[arg-type]
    assert "ui.screens.home" in modules  # the check sees what it should: home is there
    assert not modules & set(NOT_FOR_HOME), sorted(modules & set(NOT_FOR_HOME))
    assert not {name for name in modules if name.startswith(("aiohttp", "segno", "hardware.phones"))}


START = """
import gc, json, sys
from kivy.clock import Clock

import ui.screens
from ui import kv
from ui.cli import _parser, run

seen = {}
frames = []
pieces = ui.screens.warm_ups


def counted():
    for piece in pieces():
        def one(piece=piece):
            frames.append(Clock.frames)
            return piece()
        yield one


ui.screens.warm_ups = counted


def loaded_kv():
    return sorted(str(path) for path in kv._loaded)


def first_frame():
    from kivy.app import App

    app = App.get_running_app()
    seen["at_first_frame"] = sorted(sys.modules)
    seen["collecting_at_first_frame"] = gc.isenabled()
    seen["kv_at_first_frame"] = loaded_kv()
    from kivy.cache import Cache

    # Kivy's theme images (its buttons' and fields' looks) in one atlas: loaded on the first image of it shown.
    seen["theme_atlas_at_first_frame"] = Cache.get("kv.atlas", "data/images/defaulttheme") is not None
    if sys.argv[2] == "tap":  # a table that taps a game at once, before anything is loaded ahead
        seen["tapped"] = type(app.start_game("quark", app.home.options())).__name__

    def done(_dt):
        from kivy.cache import Cache

        if app.warming is not None:
            return True
        seen["after_warm_up"] = sorted(sys.modules)
        seen["collecting_after"] = gc.isenabled()
        seen["kv_after_warm_up"] = loaded_kv()
        seen["theme_atlas_after_warm_up"] = Cache.get("kv.atlas", "data/images/defaulttheme") is not None
        seen["frames"] = frames
        seen["showing"] = app.screens.current
        from ui import resting

        seen["rest_started"] = resting.current() is not None
        app.stop()
        return False

    Clock.schedule_interval(done, 0.05)


run(_parser().parse_args(["run", "--db", sys.argv[1]]), on_first_frame=first_frame)
print(json.dumps(seen))
"""


def _start(tmp_path: Path, xvfb: str, tap: bool = False) -> dict[str, object]:
    return _run(START, tmp_path / "home", str(tmp_path / "games.db"), "tap" if tap else "wait", display=xvfb)


def test_start_up_draws_home_without_the_games_then_loads_them_in_slices(xvfb: str, tmp_path: Path) -> None:
    """Issue 26: nothing the home screen does not draw on the way to its first frame; "after the first frame,
    warm what a tap will need in the background in small slices on the main loop (Clock.schedule_once
    chunks, so a tap is never blocked for long)"."""
    _start(tmp_path, xvfb)  # the first start makes the games file; the second opens it as every start does
    seen = _start(tmp_path, xvfb)
    at_first = set(seen["at_first_frame"])  # type: ignore[arg-type]
    assert "ui.screens.home" in at_first
    assert not at_first & set(NOT_FOR_HOME), sorted(at_first & set(NOT_FOR_HOME))
    kv_first = "\n".join(seen["kv_at_first_frame"])  # type: ignore[arg-type]
    assert "home.kv" in kv_first and not any(name in kv_first for name in KV_FILES)
    # Home draws no image of Kivy's theme: its seats' name fields are flat (`NameField`), its buttons plain.
    assert seen["theme_atlas_at_first_frame"] is False
    # Nor does Kivy load PIL's image reader beside SDL2's (15 ms): `boot` leaves it SDL2's alone.
    assert not {name for name in at_first if name.split(".")[0] == "PIL"}
    # Python collects no garbage on the way (~12 ms), and does again once the first frame is drawn.
    assert seen["collecting_at_first_frame"] is False and seen["collecting_after"] is True

    # Then each game's screen, its rules file and the session are loaded, ready for the first tap...
    after = set(seen["after_warm_up"])  # type: ignore[arg-type]
    assert {*GAME_SCREENS, "companion.session", "ui.screens.base", "ui.screens.log", "ui.widgets.settings"} <= after
    assert "ui.screens.home_popups" in after
    kv_after = "\n".join(seen["kv_after_warm_up"])  # type: ignore[arg-type]
    assert all(name in kv_after for name in KV_FILES), kv_after
    # And Kivy's theme atlas, which every game screen shows and the first one opened used to load on its tap.
    assert seen["theme_atlas_after_warm_up"] is True
    # ...in slices over several frames, never all at once.
    frames: list[int] = seen["frames"]  # type: ignore[assignment]
    assert len(frames) >= 2 * len(GAME_SCREENS) and len(set(frames)) >= 3, frames
    # The phones are off: their server, aiohttp and segno are never loaded ahead.
    assert not {name for name in after if name.startswith(("aiohttp", "segno", "hardware.phones.server"))}
    assert seen["showing"] == "home"
    # And the loop rests between frames once nobody touches the screen (ui.resting; tests/ui/test_resting.py).
    assert seen["rest_started"] is True


def test_a_game_tapped_at_the_first_frame_opens_and_the_loading_ahead_still_finishes(xvfb: str, tmp_path: Path) -> None:
    """Issue 26: "A player must not then wait on their first tap": a game tapped before anything was loaded
    ahead loads what it needs itself and opens; what is left to load ahead is loaded after it."""
    seen = _start(tmp_path, xvfb, tap=True)
    assert seen["tapped"] == "QuarkScreen"
    assert seen["showing"] != "home"  # the game stays on screen while the rest loads behind it
    assert set(GAME_SCREENS) <= set(seen["after_warm_up"])  # type: ignore[arg-type]


HARDWARE = """
import json, sys, threading
from kivy.clock import Clock

import ui.cli
from ui.cli import _parser, run

seen = {"load": {}, "start": {}}
load, start = ui.cli.load_hardware, ui.cli.start_hardware


def loading(table):
    from ui.screens import AFTER_THE_GAMES

    ahead_done = all(module in sys.modules for module in AFTER_THE_GAMES)  # the last of the loading ahead
    seen["load"].update(thread=threading.current_thread().name, first_frame=Clock.frames, ahead_done=ahead_done)
    load(table)
    seen["load"].update(frames=Clock.frames - seen["load"]["first_frame"])


def starting(table):
    seen["start"].update(thread=threading.current_thread().name, modules=sorted(sys.modules))
    notices = start(table)

    def done(_dt):
        seen["phones"] = table.phones is not None and table.phone_switch.url is not None
        from kivy.app import App

        App.get_running_app().stop()

    Clock.schedule_once(done, 0)
    return notices


ui.cli.load_hardware, ui.cli.start_hardware = loading, starting
run(_parser().parse_args(["run", "--db", sys.argv[1]]))
print(json.dumps(seen))
"""


def test_the_hardware_loads_on_a_thread_while_home_draws_and_opens_on_the_ui_thread(xvfb: str, tmp_path: Path) -> None:
    """Issue 26: "Every tap answered quickly", the first one after start-up too: the modules the hardware is opened
    with (gpiozero, the display hub and, with the phones on, aiohttp: 0.1–0.4 s) load on a thread of their own
    while home goes on drawing, once start-up's loading ahead is done (beside it, or beside a tap on the first
    frame, they took the interpreter from the UI thread in turns: that tap took 50 ms longer); the devices and
    the phones' server then open on the UI thread, as before."""
    config = tmp_path / "home" / "config" / "companion.toml"
    config.parent.mkdir(parents=True)
    with socket.socket() as probe:  # a port free now (the config file takes none of the "any" kind)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config.write_text(f'[phones]\nenabled = true\ninterface = "127.0.0.1"\nport = {port}\n')
    seen = _run(HARDWARE, tmp_path / "home", str(tmp_path / "games.db"), display=xvfb)
    load: dict[str, object] = seen["load"]  # type: ignore[assignment]
    start: dict[str, object] = seen["start"]  # type: ignore[assignment]
    assert load["thread"] == "hardware-load" and start["thread"] == "MainThread"
    assert load["ahead_done"], "the hardware loads once the loading ahead is done"
    assert load["frames"] >= 1, "home drew on while the hardware's modules loaded"  # type: ignore[operator]
    loaded = set(start["modules"])  # type: ignore[arg-type]
    assert {"hardware.display.hub", "hardware.race_buttons", "hardware.phones.server", "aiohttp"} <= loaded
    assert seen["phones"], "the phones came on as the config file says"


RESUMED_CLOCK = """
import json, sys, time
from kivy.clock import Clock

from companion.game import Options
from companion.session import Session
from companion.store import Store
from ui.cli import _parser, run

with Store.open(sys.argv[1]) as store:  # a turn clock left running when the power went
    Session.start(store, "turn-clock", Options.for_names("Ann", "Bo"))
seen = {}


def first_frame():
    from kivy.app import App

    app = App.get_running_app()

    def opened(_dt):
        screen = app.screens.current_screen
        if app.table.race is None or getattr(screen, "buttons", None) is None:
            return True
        seen["screen"] = type(screen).__name__
        seen["running_before"] = screen.session.view().running
        app.table.race.simulate(1, True)  # Bo's button on the table's own pins: before the start, any starts the clock
        app.table.race.simulate(1, False)
        deadline = time.monotonic() + 5.0  # a limit on a loaded machine, never a measurement
        Clock.schedule_interval(lambda _dt: done(deadline), 0.05)
        return False

    def done(deadline):
        seen["running"] = app.screens.current_screen.session.view().running
        if seen["running"] or time.monotonic() > deadline:
            app.stop()
            return False
        return True

    Clock.schedule_interval(opened, 0.05)


run(_parser().parse_args(["run", "--appliance", "--db", sys.argv[1]]), on_first_frame=first_frame)
print(json.dumps(seen))
"""


def test_a_turn_clock_resumed_at_start_hears_the_tables_own_buttons(xvfb: str, tmp_path: Path) -> None:
    """A power cut in a turn clock: the appliance comes back on the clock, and a press on the table's own button
    (as `companion run` opened them, a moment after the first frame) moves it on, not a stand-in opened before."""
    seen = _run(RESUMED_CLOCK, tmp_path / "home", str(tmp_path / "games.db"), display=xvfb)
    assert seen["screen"] == "TurnClockScreen" and seen["running_before"] is False
    assert seen["running"] is True, "a press on the table's button started the clock"


TOUCH_AT_ONCE = """
import json, sys
from kivy.clock import Clock
from kivy.core.window import Window

import ui.screens
from ui.cli import _parser, run

order = []
pieces = ui.screens.warm_ups


def counted():
    for piece in pieces():
        def one(piece=piece):
            order.append("piece")
            return piece()
        yield one


ui.screens.warm_ups = counted


def first_frame():
    from kivy.app import App
    from kivy.tests.common import UnitTestTouch

    app = App.get_running_app()

    def flipped(*_):
        if app.screens.current.startswith("game:") and "shown" not in order:
            order.append("shown")

    def touch(_dt):
        choice = next(c for c in app.home.ids.games.children if c.game == "quark")
        button = choice.children[-1]  # the game's own button (Kivy lists children last first)
        Window.bind(on_flip=flipped)
        order.append("touch")
        finger = UnitTestTouch(*button.to_window(*button.center))
        finger.touch_down()
        finger.touch_up()

    def done(_dt):
        if app.warming is not None or "shown" not in order:
            return True
        app.stop()
        return False

    Clock.schedule_once(touch, 0)
    Clock.schedule_interval(done, 0.05)


run(_parser().parse_args(["run", "--db", sys.argv[1]]), on_first_frame=first_frame)
print(json.dumps({"order": order}))
"""


def test_the_loading_ahead_waits_while_a_touch_at_the_first_frame_is_answered(xvfb: str, tmp_path: Path) -> None:
    """Issue 26: "A player must not then wait on their first tap". A touch on Quark at the first frame, before
    anything is loaded ahead: no piece of the loading ahead runs between the touch and the frame that shows
    Quark (each took a frame's slice from the tap: 112-117 ms against 128-130), and all of it runs after."""
    order: list[str] = _run(TOUCH_AT_ONCE, tmp_path / "home", str(tmp_path / "games.db"), display=xvfb)["order"]  # type: ignore[assignment]
    touched, shown = order.index("touch"), order.index("shown")
    assert touched < shown and "piece" not in order[touched:shown], order
    assert order[shown + 1 :].count("piece") > 10, "the loading ahead goes on once the tap is answered"
