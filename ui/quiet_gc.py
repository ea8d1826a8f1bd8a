"""Python's full garbage collections at quiet moments, never under a finger (issue 26: taps that wait).

CPython looks through every object it tracks (a few hundred thousand in the
running app: Kivy, the screens, their rules) in a full collection, which it
starts by itself once enough objects were made, that is, in the middle of
whatever made them: a tap building a popup. Under Xvfb on a shared machine
one took 0.15-0.3 s of CPU, the longest part of many a tap. Here Python's
own full collections are off; one is done instead when nobody has touched
the screen for `QUIET_SECONDS` (or, on a busy table that never pauses, after
`MOST_PENDING` younger collections, as Python would, later; but never in
the `ANSWER_SECONDS` after a touch, nor before a frame has been drawn since it,
while its answer is made and drawn; a touch that changed nothing has nothing to draw). The first one
freezes what survives it (`gc.freeze`): what start-up made lives as long as
the app, and later collections no longer look through it. The younger
generations are collected as before: they are quick.

While the app starts, until its first frame is drawn, Python starts no collection of its own (`hold`), and
what is loaded is frozen (`loaded`), last just before Kivy's window is made, which collects in full once: start-up
makes most of what the app keeps, and the collections on the way took 23 ms of the 0.4 s to home's first frame,
and now 5 (issue 26).
"""

from __future__ import annotations

import gc
import time
from typing import Any

QUIET_SECONDS = 0.5
"""No touch for this long: a full collection now keeps nobody waiting (a tap's answer is on screen by then, and
the next tap is rarely so quick: a player reads what it opened)."""
ANSWER_SECONDS = 0.3
"""Never sooner after a touch than this, however overdue: the tap's answer is being drawn."""
CHECK_SECONDS = 0.25
"""How often the need for one is looked at (the app draws frames anyway: this wakes nothing)."""
QUIET_PENDING = 2
"""Younger collections since the last full one before a quiet moment is used (a screen whose clock ticks makes
a few objects a second: it is not collected in full every second for them)."""
MOST_PENDING = 40
"""Younger (generation 1) collections since the last full one, after which one is done even on a busy
table (Python's own default is 10)."""
NEVER = 1_000_000
"""Python's own threshold for a full collection: in effect, never."""

_state = {"touched": 0.0, "touched_frame": 0, "drawn": True, "frozen": False, "started": False, "held": False}
_window: list[Any] = []  # Kivy's window, once started: whether it still owes a frame


def hold() -> None:
    """No collection started by Python until the app's first frame is drawn (`start` then lets them run again).

    Imports no Kivy: called before Kivy's environment is set, so that its loading is held too."""
    if gc.isenabled():
        gc.disable()
        _state["held"] = True
    loaded()


def loaded() -> None:
    """While start-up is held: what is loaded by now lives as long as the app, and is frozen (`gc.freeze`).

    Kivy's window, as it is made, collects in full all the same: it need not look through these."""
    if _state["held"]:
        gc.freeze()


def start() -> None:
    """From now on, full collections only when the screen is quiet (once per app: safe to call again)."""
    if _state["started"]:
        return
    _state["started"] = True
    from kivy.clock import Clock
    from kivy.core.window import Window

    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, NEVER)
    _state["drawn"] = False  # nor before the first frame: start-up is a tap's answer too
    _window.append(Window)
    Window.bind(on_motion=_touched, on_flip=_drawn)
    Clock.schedule_interval(_check, CHECK_SECONDS)


def _check(_dt: float) -> None:
    collect_if_quiet()  # its False must not reach Kivy's clock, which would take it for "stop calling me"


def _touched(*_args: Any) -> None:
    from kivy.clock import Clock

    _state["touched"] = time.monotonic()  # returns None: the touch goes on to the widgets
    _state["touched_frame"] = Clock.frames
    _state["drawn"] = False


def _drawn(*_args: Any) -> None:
    _state["drawn"] = True
    if _state["held"]:  # the first frame is on the screen: what start-up made is collected from now on
        _state["held"] = False
        gc.enable()


def collect_if_quiet(now: float | None = None) -> bool:
    """A full collection if one is due and nobody touched the screen lately (or it is long overdue); whether."""
    pending = gc.get_count()[2]
    if pending < QUIET_PENDING:
        return False  # little made since the last one: an idle screen costs nothing here
    now = time.monotonic() if now is None else now
    since = now - float(_state["touched"])
    if since < ANSWER_SECONDS or (pending < MOST_PENDING and since < QUIET_SECONDS):
        return False
    if not answered():
        return False  # a tap that took longer than ANSWER_SECONDS: its answer is not on the screen yet
    gc.collect()
    if not _state["frozen"]:
        _state["frozen"] = True
        gc.freeze()
    return True


def answered() -> bool:
    """Whether the last touch's answer is on the screen: a frame drawn since, or frames gone by with nothing to
    draw (a touch on nothing changes nothing: waiting for a draw then would put off every full collection).
    The loading ahead (`ui.app`) and Quinque's spaces made ahead wait for it as the full collections do."""
    from kivy.clock import Clock

    if _state["drawn"]:
        return True
    frame_since = Clock.frames > int(_state["touched_frame"])
    return frame_since and bool(_window) and not _window[0].canvas.needs_redraw
