"""The race buttons' fixtures, shared by tests/hardware (its conftest imports them): real gpiozero devices on
gpiozero's MockFactory, with the mock pins' clock moved by the test."""

from __future__ import annotations

from collections.abc import Iterator

import gpiozero.pins.mock as gpiozero_mock
import pytest
from gpiozero.pins.mock import MockFactory

from hardware.race_buttons import RaceButtons
from tests.support.clocks import ManualClock

PINS = {"buttons": [17, 27], "leds": [22, 23], "buzzer": 24}


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> ManualClock:
    """The mock pins' clock, moved by the test: ``clock.advance(ms)``."""
    fake = ManualClock(unit=0.001)
    monkeypatch.setattr(gpiozero_mock, "monotonic", fake)
    return fake


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    made = MockFactory()
    yield made
    made.close()


@pytest.fixture
def buttons(clock: ManualClock, factory: MockFactory) -> Iterator[RaceButtons]:
    with RaceButtons(PINS, pin_factory=factory) as made:
        yield made
