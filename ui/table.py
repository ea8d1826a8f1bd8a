"""Everything one running app works with, built once at start (or by a test).

This is the composition root's product: the store, the config, the dice,
the pin factory and the dispatcher that brings other threads' news to the UI
thread. Screens receive it; nothing reaches for globals.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.config import Config
from companion.dice import Dice, RandomDice
from companion.dispatch import Dispatcher, immediate
from companion.store import Store


@dataclass
class Table:
    store: Store
    config: Config = field(default_factory=Config)
    dice: Dice = field(default_factory=RandomDice)
    dispatch: Dispatcher = immediate
    clock: Callable[[], float] = time.time
    notices: list[str] = field(default_factory=list)
    pin_factory: Any = None  # a gpiozero Factory (mock or lgpio), made by hardware.pins
    simulated: bool = True
    race: Any = None  # hardware race buttons, once wired
    displays: Any = None  # the player-display hub, once wired
