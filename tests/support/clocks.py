"""Clocks for tests: time is passed in (a callable giving seconds), so a test decides what it says."""

from __future__ import annotations


class ManualClock:
    """Time that moves only when the test moves it.

    Call it for the time (seconds). Move it with ``clock.now += seconds`` or
    `advance`, which counts in `unit` seconds (``unit=0.001``: milliseconds).
    Never moved, it is a stopped clock, like ``lambda: 1000.0``.
    """

    def __init__(self, now: float = 1000.0, *, unit: float = 1.0) -> None:
        self.now = now
        self.unit = unit

    def __call__(self) -> float:
        return self.now

    def advance(self, amount: float) -> None:
        """Move on `amount` units (seconds unless the clock was made with another `unit`)."""
        self.now += amount * self.unit


class TickingClock:
    """A clock that moves on `step` seconds at every look, so that every time stored is the same on every run."""

    def __init__(self, start: float = 1_750_000_000.0, step: float = 1.25) -> None:
        self.now = start
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now
