"""The app's dispatcher: hand a function to Kivy's main loop from any thread."""

from __future__ import annotations

from collections.abc import Callable

from kivy.clock import Clock


def clock_dispatcher(fn: Callable[[], None]) -> None:
    """Run `fn` on the UI thread at the next frame (Kivy's Clock is thread-safe for this)."""
    Clock.schedule_once(lambda _dt: fn(), 0)
