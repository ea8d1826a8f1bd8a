"""The app's dispatcher: hand a function to Kivy's main loop from any thread."""

from __future__ import annotations

from collections.abc import Callable

from kivy.clock import Clock

from ui import resting


def clock_dispatcher(fn: Callable[[], None]) -> None:
    """Run `fn` on the UI thread before the next frame is drawn (Kivy's Clock is thread-safe for this).

    Before the next frame (-1), not on the next tick (0): a tap's move reaches its screen through here, and a
    frame's order is the clock, the touch, what waits for "before the next frame", then the drawing. On the next
    tick, the frame that answers the touch would draw the screen as it was, and the move a frame later.
    """
    Clock.schedule_once(lambda _dt: fn(), -1)
    resting.wake()  # a loop resting between frames runs it now, not at the end of the rest
