"""Everything one running app works with, built once at start (or by a test).

This is the composition root's product: the store, the config, the dice,
the pin factory and the dispatcher that brings other threads' news to the UI
thread. Screens receive it; nothing reaches for globals. The hardware on it
(pins, race buttons, displays, phones) is put there by `ui.wiring` alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from companion.choices import TableChoices
from companion.config import Config
from companion.dice import Dice, RandomDice
from companion.dispatch import Dispatcher, immediate
from companion.store import Store, StoreInUse, StoreRefused

if TYPE_CHECKING:  # the devices' modules load gpiozero, pyserial and Kivy: a Table is made before any of them
    from hardware.display.hub import DisplayHub
    from hardware.pins import PinFactory
    from hardware.race_buttons import RaceButtons
    from ui.phone_switch import PhoneSwitch
    from ui.phones import PhoneTable


@dataclass
class Table:
    store: Store
    config: Config = field(default_factory=Config)
    dice: Dice = field(default_factory=RandomDice)
    dispatch: Dispatcher = immediate
    clock: Callable[[], float] = time.time
    notices: list[str] = field(default_factory=list)
    pin_factory: PinFactory | None = None  # mock or lgpio, chosen by `hardware.pins` when the hardware is wired
    simulated: bool = True
    race: RaceButtons | None = None  # once wired (None: not yet, or the pins could not be opened)
    displays: DisplayHub | None = None  # the player displays, once wired
    phones: PhoneTable | None = None  # the phones' side of the table while the phones are on
    choices: TableChoices | None = None  # what Settings chose, kept across restarts (None: the config's alone)
    phone_switch: PhoneSwitch | None = None  # turns the phones on and off, made on first use


def open_store(path: Path) -> tuple[Store, list[str]]:
    """The games file for the app, and a sentence for each thing the table should know about it.

    Whatever is wrong with the file, the table gets a screen: another companion
    writing it gives a read-only look at it, a path that is not our file gives
    a store in memory (play, but nothing is saved), and the path is left as it is.
    """
    try:
        store = Store.open(path)
    except StoreInUse as in_use:
        try:
            return Store.read(path), [str(in_use)]
        except StoreRefused:
            return Store.in_memory(problem=str(in_use)), [str(in_use)]
    except StoreRefused as refused:
        sentence = f"{refused} Games are played but not saved."
        return Store.in_memory(problem=sentence), [sentence]
    notices = [text for text in (store.notice, store.problem) if text]
    return store, notices
