"""The main loop rests while nobody touches the screen (issue 26: calm when idle).

Kivy's loop wakes `maxfps` (60) times a second whether or not anything
changes: it ticks the clock and reads the input, and an idle bare Kivy app
spends most of its CPU there (measured: about 23 ms a second at 60 frames,
16 at 30, 12 at 20 under Xvfb). An appliance left on all evening on a
fanless Pi waits far more than it is touched. So, `REST_AFTER` seconds after
the last touch, key or held finger, the loop paces itself to `REST_FPS`
frames a second; the first touch it reads brings back Kivy's full pace at
once, for the tap's answer and whatever moves after it.

What it could cost is how long a touch at rest waits to be read. The rest
is taken just after the input is read and before the frame is drawn and SDL
polled (a "before the next frame" callback): a touch that comes during it is
polled when it ends and read at the next frame's start. (Kivy's own wait
between frames comes before the input is read, so a touch SDL polled after
it waits a frame more.) `make bench` clicks through X itself: a touch at rest
is read as soon as on a bare Kivy app, about 18 ms. On the Pi, Kivy reads the
touchscreen on a thread of its own (mtdev): a touch there waits at most one
resting frame (`1 / REST_FPS`, 33 ms), where Kivy's pace reads it within 17.
Anything a thread hands the UI (a player's button, a phone, a display;
`ui.dispatch`) ends a rest at once (`wake`): it waits for nothing.

Kivy has no public way to change `maxfps` once its clock is made; a rest is
the loop simply waiting here, as Kivy's own clock waits between frames.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

REST_AFTER = 2.0
"""Seconds without a touch before the loop rests: taps in a run come quicker than this, and a flicked list has
stopped by then."""
REST_FPS = 30
"""Frames a second at rest: a touch is read within 1/30 s (Kivy's own pace reads it within 1/60 s)."""


class Rest:
    """Paces Kivy's loop to `rest_fps` while the screen has not been touched for `rest_after` seconds.

    `now` is the clock it reads (a test's may stand still); `work_waiting` says whether work is waiting for the
    next frame (in the app: anything scheduled on Kivy's clock for the next frame, as the loading ahead and the
    screens made ahead go on, a piece a frame): no rest is taken then, so that work is not slowed by half.
    """

    def __init__(
        self,
        *,
        rest_after: float = REST_AFTER,
        rest_fps: float = REST_FPS,
        now: Callable[[], float] = time.monotonic,
        work_waiting: Callable[[], bool] = lambda: False,
    ) -> None:
        self.rest_after = rest_after
        self._work_waiting = work_waiting
        self.frame_seconds = 1.0 / rest_fps
        self._now = now
        self._woken = threading.Event()
        self._stirred = now()  # start-up counts as a touch: what it sets going runs at full pace
        self._fingers: set[Any] = set()  # touches down: a finger held still sends nothing, but is there
        self._last_frame = now()
        self.rests = 0
        """Rests taken so far (each one frame's wait)."""
        self.rests_cut_short = 0
        """Rests ended early by `wake` (a thread's hand-off)."""

    # -- what keeps the loop awake ---------------------------------------------------------------

    def touched(self, etype: str, touch: Any) -> None:
        """A motion event (Kivy's window `on_motion`): awake now, and while a finger stays down.

        A mouse hovering over the window sends motion events too (Kivy's "hover", begun when the pointer
        enters): they stir the loop, but only a touch is a finger held down."""
        self._stirred = self._now()
        if getattr(touch, "type_id", "touch") != "touch":
            return
        if etype == "begin":
            self._fingers.add(touch.uid)
        elif etype == "end":
            self._fingers.discard(touch.uid)

    def stirred(self) -> None:
        """A key, or anything else a person did: awake for `rest_after` from now."""
        self._stirred = self._now()

    def wake(self) -> None:
        """End a rest in progress now (safe from any thread): something was handed to the UI."""
        self._woken.set()

    @property
    def resting(self) -> bool:
        """Whether the loop rests between frames now."""
        return not self._fingers and self._now() - self._stirred >= self.rest_after

    # -- the rest itself, once a frame ----------------------------------------------------------

    def before_frame(self) -> None:
        """Called once a frame after the input is read: wait out the rest of a resting frame, if resting."""
        if self.resting and not self._work_waiting():
            left = self._last_frame + self.frame_seconds - self._now()
            if left > 0:
                self.rests += 1
                if self._woken.wait(left):
                    self.rests_cut_short += 1
        self._woken.clear()
        self._last_frame = self._now()


_rest: list[Rest] = []  # the app's, once started
_stops: list[Callable[[], None]] = []


def start(rest: Rest | None = None) -> Rest:
    """Let Kivy's loop rest from now on (once per app: the first call's `Rest` is kept and returned)."""
    if _rest:
        return _rest[0]
    from kivy.clock import Clock
    from kivy.core.window import Window

    rest = rest or Rest(work_waiting=next_frame_work)
    _rest.append(rest)

    def on_motion(_window: Any, etype: str, touch: Any) -> None:
        rest.touched(etype, touch)  # returns None: the touch goes on to the widgets

    def on_key(*_args: Any) -> None:
        rest.stirred()

    Window.bind(on_motion=on_motion, on_key_down=on_key)
    # Each tick asks for the rest "before the next frame": after the input is read (a touch in this frame
    # cancels it), before the frame is drawn and SDL is next polled.
    before = Clock.create_trigger(lambda _dt: rest.before_frame(), -1)
    each_frame = Clock.schedule_interval(lambda _dt: before(), 0)

    def stopped() -> None:
        Window.unbind(on_motion=on_motion, on_key_down=on_key)
        each_frame.cancel()
        before.cancel()

    _stops.append(stopped)
    return rest


def next_frame_work() -> bool:
    """Whether anything is scheduled once for the next frame (Kivy's `schedule_once(..., 0)`): the app's pieces
    of work a frame (the loading ahead, the screens and spaces made ahead) each schedule the next that way."""
    from kivy.clock import Clock

    return any(not event.loop and event.timeout == 0 for event in Clock.get_events())


def stop() -> None:
    """Kivy's own pace again, from the next frame (tests that start a `Rest` of their own end with it)."""
    while _stops:
        _stops.pop()()
    _rest.clear()


def current() -> Rest | None:
    """The app's `Rest`, once started (None: Kivy's own pace)."""
    return _rest[0] if _rest else None


def wake() -> None:
    """End a rest in progress, from any thread (the app's dispatcher calls it): nothing handed to the UI waits."""
    if _rest:
        _rest[0].wake()
