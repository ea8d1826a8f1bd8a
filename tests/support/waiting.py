"""Waiting on a condition with a deadline, never a fixed sleep that hopes."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_until(
    condition: Callable[[], Any],
    timeout: float = 5.0,
    *,
    interval: float = 0.005,
    between: Callable[[], object] | None = None,
) -> bool:
    """Look at `condition` until it is true or `timeout` seconds have passed; whether it came true.

    Between two looks it sleeps `interval` seconds, or runs `between` instead
    (for example a few Kivy frames, so that the UI thread's work gets done).
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        if between is None:
            time.sleep(interval)
        else:
            between()
    return bool(condition())
