"""The one door between threads and the screen.

Hardware callbacks (gpiozero, serial readers) run on their own threads. They
never touch the session's observers or a widget directly: they hand a
function to a `Dispatcher`, which runs it on the UI thread (Kivy's Clock in
the app) or at once (tests and the headless driver).
"""

from __future__ import annotations

from collections.abc import Callable

Dispatcher = Callable[[Callable[[], None]], None]


def immediate(fn: Callable[[], None]) -> None:
    """Run `fn` now, on the calling thread: for tests and scripts."""
    fn()
