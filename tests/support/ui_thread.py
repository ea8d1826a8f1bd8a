"""A stand-in for the app's UI thread: one thread running, in order, what is handed to it."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

T = TypeVar("T")
WAIT = 20.0  # seconds: generous, a loaded machine still passes


class UiThread:
    """The UI thread's stand-in: the session lives here; a server hands its work over with `__call__`, a test
    runs its own with `run`; `thread` is the thread itself (to check what ran on it)."""

    def __init__(self) -> None:
        self._work: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="ui-standin", daemon=True)
        self.thread.start()

    def __call__(self, fn: Callable[[], None]) -> None:
        self._work.put(fn)

    def run(self, fn: Callable[[], T]) -> T:
        """Run `fn` here, as the touchscreen would, and wait for its answer."""
        done: Future[T] = Future()

        def job() -> None:
            try:
                done.set_result(fn())
            except BaseException as error:  # handed back to the caller
                done.set_exception(error)

        self(job)
        return done.result(timeout=WAIT)

    def _run(self) -> None:
        while (fn := self._work.get()) is not None:
            fn()

    def stop(self) -> None:
        self._work.put(None)
        self.thread.join(5)
