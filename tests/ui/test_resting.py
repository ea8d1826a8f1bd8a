"""The main loop rests while nobody touches the screen, and wakes at once (issue 26: calm when idle).

Issue 26: "home (with or without unfinished games) ≤ 1.0× the idle bare app", and "where this issue is silent, do
what a player waiting with a finger over the screen would expect": the loop paces itself down only when nobody
is touching, and a touch, a finger held still, a key or anything a thread hands the UI keeps or brings back
Kivy's own pace. `make bench` measures the CPU saved and how long a touch at rest waits to be read; these tests
check what the rest does, never how fast.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.support import xvfb_display
from ui import resting
from ui.resting import Rest

ROOT = Path(__file__).resolve().parents[2]


class Steps:
    """A clock for a `Rest`: moves only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _finger(uid: int, kind: str = "touch") -> Any:
    return SimpleNamespace(uid=uid, type_id=kind)


# -- the rest itself, plain Python --------------------------------------------------------------------


def test_awake_for_rest_after_seconds_from_the_last_touch_then_resting() -> None:
    clock = Steps()
    rest = Rest(rest_after=2.0, now=clock)
    assert not rest.resting  # start-up counts as a touch
    clock.now += 1.9
    assert not rest.resting
    clock.now += 0.2
    assert rest.resting
    rest.touched("begin", _finger(1))
    rest.touched("end", _finger(1))
    assert not rest.resting
    clock.now += 2.1
    assert rest.resting
    rest.stirred()  # a key
    assert not rest.resting


def test_a_finger_held_still_keeps_the_loop_awake_however_long() -> None:
    """A finger resting on the screen sends nothing after its first event (the finger chooser's fingers)."""
    clock = Steps()
    rest = Rest(rest_after=2.0, now=clock)
    rest.touched("begin", _finger(7))
    clock.now += 60
    assert not rest.resting
    rest.touched("end", _finger(7))
    assert not rest.resting
    clock.now += 2.1
    assert rest.resting


def test_a_mouse_hovering_stirs_the_loop_but_is_no_finger_held_down() -> None:
    """Kivy begins a "hover" event when the pointer enters the window and ends it only when it leaves."""
    clock = Steps()
    rest = Rest(rest_after=2.0, now=clock)
    clock.now += 5
    rest.touched("begin", _finger(1, "hover"))
    assert not rest.resting
    clock.now += 2.1
    assert rest.resting


def test_a_resting_frame_waits_out_the_rest_of_one_resting_frame_and_no_more() -> None:
    clock = Steps()
    rest = Rest(rest_after=2.0, rest_fps=50, now=clock)  # 20 ms frames: the real waits stay short
    rest.before_frame()
    assert rest.rests == 0  # awake: Kivy's own pace, no wait of ours
    clock.now += 3.0
    rest.before_frame()  # a frame that took longer than a resting frame waits for nothing
    assert rest.rests == 0
    clock.now += 0.005
    began = time.monotonic()
    rest.before_frame()
    waited = time.monotonic() - began
    assert rest.rests == 1 and rest.rests_cut_short == 0
    assert waited >= 0.014  # the 15 ms left of the frame (the clock stood still: all of it is left)


def test_no_rest_while_work_waits_for_the_next_frame() -> None:
    """The loading ahead and the screens made ahead go on a piece a frame: at rest they would take twice as long."""
    clock = Steps()
    waiting = [True]
    rest = Rest(rest_after=2.0, rest_fps=50, now=clock, work_waiting=lambda: waiting[0])
    clock.now += 3.0
    rest.before_frame()
    clock.now += 0.005
    rest.before_frame()
    assert rest.rests == 0
    waiting[0] = False
    clock.now += 0.005
    rest.before_frame()
    assert rest.rests == 1


def test_a_wake_from_another_thread_ends_a_rest_at_once() -> None:
    clock = Steps()
    rest = Rest(rest_after=2.0, rest_fps=0.1, now=clock)  # a rest of ten seconds, unless woken
    clock.now += 20.0
    rest.before_frame()  # the frame before, longer than a resting frame: no wait; the next rest counts from here
    assert rest.rests == 0
    threading.Timer(0.05, rest.wake).start()
    began = time.monotonic()
    rest.before_frame()
    assert rest.rests == 1 and rest.rests_cut_short == 1
    assert time.monotonic() - began < 5  # ended by the wake, not by its ten seconds


# -- in the running app -------------------------------------------------------------------------------


@pytest.fixture
def rest(ui: Any) -> Iterator[Rest]:
    """The loop resting after 1 s (the app the tests drive is made without a rest: their frames stay quick)."""
    ui.frames(2)
    started = resting.start(Rest(rest_after=1.0))
    try:
        yield started
    finally:
        resting.stop()


def _wait_for_rest(ui: Any, rest: Rest) -> None:
    assert ui.wait_until(lambda: rest.resting and rest.rests >= 3), "the loop never rested"


def test_the_running_app_rests_then_a_real_touch_brings_back_kivys_pace(ui: Any, rest: Rest) -> None:
    from kivy.tests.common import UnitTestTouch

    _wait_for_rest(ui, rest)
    touch = UnitTestTouch(5, 5)
    touch.touch_down()
    ui.frames(1)
    assert not rest.resting
    taken = rest.rests
    ui.frames(5)  # the finger is still down
    assert rest.rests == taken
    touch.touch_up()
    ui.frames(3)
    assert rest.rests == taken  # and for `rest_after` after it is lifted (three frames take far less)
    _wait_for_rest(ui, rest)


def test_a_hand_off_from_a_thread_is_run_without_waiting_out_the_rest(ui: Any) -> None:
    """A player's button, a phone or a display reaches the UI through the app's dispatcher: it ends a rest."""
    from ui.dispatch import clock_dispatcher

    clock = Steps()
    started = resting.start(Rest(rest_after=0.3, rest_fps=0.1, now=clock))  # ten-second frames, unless woken
    try:
        clock.now += 20  # resting, and the frame before long done
        started.before_frame()
        assert started.rests == 0
        ran = threading.Event()
        button = threading.Thread(target=clock_dispatcher, args=(ran.set,))  # as a gpiozero thread hands a press
        button.start()
        button.join()
        began = time.monotonic()
        started.before_frame()  # the rest Kivy's loop takes next (run here: the test holds the loop)
        assert started.rests == 1 and started.rests_cut_short == 1
        assert time.monotonic() - began < 5
    finally:
        resting.stop()
    assert ui.wait_until(ran.is_set)


def test_work_scheduled_a_piece_a_frame_runs_at_kivys_pace_and_the_rest_comes_after(ui: Any) -> None:
    """As the loading ahead schedules its next piece (`Clock.schedule_once(..., 0)`): no rest while it goes on."""
    from kivy.clock import Clock

    started = resting.start(Rest(rest_after=0.3, work_waiting=resting.next_frame_work))
    try:
        _wait_for_rest(ui, started)
        pieces = [20]
        taken: list[int] = []

        def piece(_dt: float) -> None:
            taken.append(started.rests)
            pieces[0] -= 1
            if pieces[0]:
                Clock.schedule_once(piece, 0)

        Clock.schedule_once(piece, 0)
        assert ui.wait_until(lambda: not pieces[0])
        assert taken[-1] == taken[0], taken  # twenty frames, not one rest among them
        _wait_for_rest(ui, started)  # and it rests again when the work is done
    finally:
        resting.stop()


def test_stop_brings_back_kivys_pace_and_lets_go_of_the_window(ui: Any) -> None:
    started = resting.start(Rest(rest_after=0.0))
    assert resting.start() is started  # once per app
    ui.frames(3)
    resting.stop()
    taken = started.rests
    ui.frames(5)
    assert started.rests == taken
    assert resting.start(Rest(rest_after=60)) is not started  # a new one may start after a stop
    resting.stop()


CLICKED = """
import json, sys, threading, time
from kivy.clock import Clock

from tests.support.x_input import XPointer
from ui import resting
from ui.cli import _parser, run

seen = {"touches": []}


def first_frame():
    from kivy.app import App
    from kivy.core.window import Window

    app = App.get_running_app()
    rest = resting.current()

    def touched(_window, etype, touch):
        if touch.type_id == "touch":
            seen["touches"].append(etype)

    def click(spot):
        with XPointer() as pointer:
            pointer.move_to(*spot)
            time.sleep(0.05)
            pointer.press()
            time.sleep(0.05)
            pointer.release()

    def rested(_dt):
        if not (rest.resting and rest.rests >= 3):
            return True
        seen["rested"] = rest.rests
        Window.bind(on_motion=touched)
        # Home's empty left panel, below its Unfinished games (none): nothing there to tap.
        spot = (int(Window.left) + 200, int(Window.top) + 400)
        threading.Thread(target=click, args=(spot,), daemon=True).start()
        Clock.schedule_interval(clicked, 0)
        return False

    def clicked(_dt):
        if "end" not in seen["touches"]:
            return True
        seen["resting_then"] = rest.resting
        seen["showing"] = app.screens.current
        app.stop()
        return False

    Clock.schedule_interval(rested, 0.1)


run(_parser().parse_args(["run", "--db", sys.argv[1]]), on_first_frame=first_frame)
print(json.dumps(seen))
"""


def test_companion_run_rests_and_a_click_through_x_itself_wakes_it(tmp_path: Path) -> None:
    """The real app as `companion run` makes it, and the real input path (X's pointer, SDL's events, Kivy's
    mouse provider), not a touch made in Python: what `make bench` times as "a touch read" at rest.

    On an X screen of its own: X's pointer is the whole screen's, and a screen shared with other tests' windows
    (or a developer's desktop, where DISPLAY names it) could have the click land in one of theirs."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KIVY_", "PYTEST_"))}
    env.update(COMPANION_HOME=str(tmp_path / "home"), KIVY_NO_CONSOLELOG="1")
    with xvfb_display(reuse=False) as own:
        done = subprocess.run(
            [sys.executable, "-c", CLICKED, str(tmp_path / "games.db")], cwd=ROOT, env={**env, "DISPLAY": own},
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["rested"] >= 3  # it rested, nobody touching
    assert seen["touches"][0] == "begin" and "end" in seen["touches"]
    assert seen["resting_then"] is False  # the click woke it
    assert seen["showing"] == "home"
