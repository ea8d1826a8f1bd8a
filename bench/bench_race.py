"""How long the race path takes: a mock pin edge to the result at the UI's dispatcher.

Our path is pin → gpiozero → `RaceButton` (edge ticks) → `EdgeFilter`
(debounce) → `RaceController` → `Race.press` (decide) → ``call_soon``. It is
measured from the ``drive_low()`` of the deciding press (the second racer's)
to the moment the snapshot holding the result is handed to ``call_soon``,
over 10,000 races, beside a bare gpiozero ``Button.when_pressed`` callback
on the same mock pin. Goal: our path adds under 1 ms at the 99th percentile.

The mock pins' clock is virtual here (``gpiozero.pins.mock.monotonic`` is
replaced for the run) so that the 20 ms debounce between races costs no real
time; the latencies themselves are measured with ``time.perf_counter_ns``.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import gpiozero.pins.mock as gpiozero_mock
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from hardware.race_buttons import RaceButtons
from hardware.race_control import RaceController
from tests.support import ManualClock

RACES = 10_000
WARM_UP = 200
GOAL_NS = 1_000_000
PINS = {"buttons": [17, 27], "leds": [22, 23], "buzzer": 24}


@contextmanager
def _virtual_clock() -> Iterator[ManualClock]:
    clock = ManualClock()
    real = gpiozero_mock.monotonic
    gpiozero_mock.monotonic = clock
    try:
        yield clock
    finally:
        gpiozero_mock.monotonic = real


def _bare(factory: MockFactory, clock: ManualClock, races: int) -> list[int]:
    """A plain gpiozero Button: drive_low() to its when_pressed callback."""
    fired = [0]

    def pressed() -> None:
        fired[0] = time.perf_counter_ns()

    latencies: list[int] = []
    with Button(PINS["buttons"][1], pin_factory=factory) as button:
        button.when_pressed = pressed
        pin = button.pin
        for i in range(races + WARM_UP):
            clock.advance(0.5)
            start = time.perf_counter_ns()
            pin.drive_low()
            if i >= WARM_UP:
                latencies.append(fired[0] - start)
            clock.advance(0.1)
            pin.drive_high()
    return latencies


def _ours(factory: MockFactory, clock: ManualClock, races: int) -> list[int]:
    """The whole race path: drive_low() of the deciding press to the result at call_soon."""
    handed = [0]

    def call_soon(fn: Callable[[], None]) -> None:
        handed[0] = time.perf_counter_ns()

    latencies: list[int] = []
    with RaceButtons(PINS, pin_factory=factory) as buttons:
        race = RaceController(
            buttons, ["Ann", "Bo"], call_soon=call_soon, on_change=lambda _s: None, rng=random.Random(1)
        )
        first, second = (b.pin for b in buttons.buttons)
        for pin in (first, second):  # test mode: each button seen working
            pin.drive_low()
            clock.advance(0.1)
            pin.drive_high()
            clock.advance(0.1)
        for i in range(races + WARM_UP):
            race.again()
            problems = race.start(run=False)
            assert not problems, problems
            clock.advance(3.0)
            race.go()
            clock.advance(0.4)
            first.drive_low()
            clock.advance(0.05)
            start = time.perf_counter_ns()
            second.drive_low()
            if i >= WARM_UP:
                assert race.race.result is not None and race.race.result.winner == "Ann"
                latencies.append(handed[0] - start)
            clock.advance(0.1)
            first.drive_high()
            second.drive_high()
            clock.advance(0.1)
        race.close()
    return latencies


def _p99(values: list[int]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def _us(ns: float) -> str:
    return f"{ns / 1000:.1f} µs"


def run(races: int = RACES) -> list[str]:
    """Measure both paths; one line each, then the ratio and the verdict."""
    with _virtual_clock() as clock:
        factory = MockFactory()
        try:
            gc.collect()
            bare = _bare(factory, clock, races)
            gc.collect()
            ours = _ours(factory, clock, races)
        finally:
            factory.close()
    bare_median, bare_p99 = statistics.median(bare), _p99(bare)
    our_median, our_p99 = statistics.median(ours), _p99(ours)
    added = our_p99 - bare_p99
    verdict = "met" if added < GOAL_NS else "MISSED"
    return [
        f"race: mock pin edge -> result at the UI dispatcher, {races} races: "
        f"median {_us(our_median)}, p99 {_us(our_p99)}",
        f"race: bare gpiozero when_pressed on the same mock pin: median {_us(bare_median)}, p99 {_us(bare_p99)}",
        f"race: ratio (race / bare): median {our_median / bare_median:.1f}x, p99 {our_p99 / bare_p99:.1f}x; "
        f"the race path adds {_us(added)} at p99 (goal < 1 ms: {verdict})",
    ]


if __name__ == "__main__":
    print("\n".join(run()))
