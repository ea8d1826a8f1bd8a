"""A stand-in for the UI thread in hardware tests: it holds what other threads hand over until the test runs it."""

from __future__ import annotations

import threading
from collections.abc import Callable


class Dispatcher:
    """A `companion.dispatch.Dispatcher` that queues; `run()` plays the UI thread and says how much it ran."""

    def __init__(self) -> None:
        self.pending: list[Callable[[], None]] = []
        self.lock = threading.Lock()

    def __call__(self, fn: Callable[[], None]) -> None:
        with self.lock:
            self.pending.append(fn)

    def run(self) -> int:
        with self.lock:
            todo, self.pending = self.pending, []
        for fn in todo:
            fn()
        return len(todo)
