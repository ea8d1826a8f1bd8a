"""Which gpiozero pin factory drives the table: lgpio on a Pi, the mock elsewhere.

The factory is made once here and handed to every device (`pin_factory=`);
nothing sets gpiozero's global default behind anyone's back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from gpiozero import Factory
from gpiozero.pins.mock import MockFactory

PinFactory = Factory
"""What opens pins (mock or lgpio): the name ui/ uses for it, so that only hardware/ names gpiozero."""

log = logging.getLogger(__name__)

MODEL = Path("/proc/device-tree/model")
"""Where a Raspberry Pi names itself ("Raspberry Pi 4 Model B Rev 1.5"); `make` reads the same file."""


@dataclass(frozen=True)
class PinChoice:
    """The factory in use, whether it is simulated, and why (one sentence for the screen)."""

    factory: Factory
    simulated: bool
    reason: str


def is_raspberry_pi(model: Path = MODEL) -> bool:
    """Whether the device tree names this machine a Raspberry Pi. A laptop may have /dev/gpiochip* too (its
    chipset's), which are not the race buttons' pins: trying lgpio there would only end in an error."""
    try:
        return "raspberry pi" in model.read_bytes().decode(errors="replace").lower()
    except OSError:
        return False


def choose(mode: str = "auto", *, model: Path = MODEL) -> PinChoice:
    """The lgpio factory when `mode` is "auto" and `model` says this is a Pi; the mock otherwise."""
    if mode == "auto" and is_raspberry_pi(model):
        try:
            from gpiozero.pins.lgpio import LGPIOFactory

            return PinChoice(LGPIOFactory(), False, "Using the Raspberry Pi's GPIO pins.")
        except Exception as error:  # lgpio missing or the chip busy: play on, simulated
            log.warning("lgpio unavailable: %s", error)
            return PinChoice(
                MockFactory(), True, f"The GPIO pins could not be opened ({error}); running on simulated hardware."
            )
    reason = (
        "Running on simulated hardware, as the config file asks."
        if mode == "simulated"
        else "No GPIO chip found: running on simulated hardware (keys and the on-screen table panel)."
    )
    return PinChoice(MockFactory(), True, reason)
