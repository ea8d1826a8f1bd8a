"""A stand-in for the UI thread: it holds what other threads hand over until the test runs it."""

from __future__ import annotations

import threading
from collections.abc import Callable


class QueuedDispatcher:
    """A `companion.dispatch.Dispatcher` that queues; `run()` plays the UI thread and says how much it ran.

    Hand it as ``call_soon=`` to a device adapter; hardware threads call it, and
    nothing they handed over runs until the test calls `run()` on its own thread.
    """

    def __init__(self) -> None:
        self.pending: list[Callable[[], None]] = []
        self.lock = threading.Lock()

    def __call__(self, fn: Callable[[], None]) -> None:
        with self.lock:
            self.pending.append(fn)

    def run(self) -> int:
        """Run what is queued now (not what that queues in turn); how many functions ran."""
        with self.lock:
            todo, self.pending = self.pending, []
        for fn in todo:
            fn()
        return len(todo)
