"""The one place the table's hardware is wired: the pin factory, the race buttons, the player displays, the phones.

`start_hardware` opens them once the first screen is up (``companion run``
hands it to the app, with `load_hardware`, which loads their modules off the
UI thread first) and puts them on the `Table`; screens and widgets
receive them from there and never open a device themselves. The one
exception is made here too: `race_buttons` gives a race screen simulated
buttons when the table has none wired (a test's table, a laptop before the
first frame, pins that were busy at start), for the screen to close.

The phones' server is turned on and off from Settings while the app runs,
so `ui.phone_switch` builds it; `start_hardware` starts it as Settings (or
the config file) want.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from companion import paths

if TYPE_CHECKING:
    from hardware.pins import PinFactory
    from hardware.race_buttons import RaceButtons
    from hardware.table_buttons import TableButtons
    from ui.table import Table


def load_hardware(table: Table) -> None:
    """Import what `start_hardware` opens the devices with, opening nothing: gpiozero (and its lgpio pins on a
    Pi), the display hub, and the phones' server if Settings or the config file want it (aiohttp, and the SSL
    context it makes as it loads).

    0.1–0.4 s that touches no device and no widget, so the app does it on a
    thread of its own: a tap on the first frame does not wait behind it.
    """
    from hardware import pins
    from ui.phone_switch import PhoneSwitch

    modules = ["hardware.race_buttons", "hardware.display.hub"]
    if PhoneSwitch(table).wanted.on:  # a switch of its own to ask: the table's is the UI thread's to make
        modules.append("hardware.phones.server")
    if table.config.mode == "auto" and pins.is_raspberry_pi():
        modules.append("gpiozero.pins.lgpio")  # last: without lgpio this fails, and `pins.choose` says so
    for module in modules:
        importlib.import_module(module)


def start_hardware(table: Table) -> list[str]:
    """Open the pins (lgpio on a Pi, mock elsewhere), the race buttons, the displays and the phones.

    Done after the first frame so that the table sees the app at once; the
    notices it returns (simulated hardware, a busy chip) appear on the home screen.
    """
    from hardware import pins
    from hardware.display.hub import DisplayHub
    from hardware.race_buttons import RaceButtons

    choice = pins.choose(table.config.mode)
    table.pin_factory = choice.factory
    table.simulated = choice.simulated
    notices = [choice.reason] if choice.simulated else []
    try:
        table.race = RaceButtons(table.config.race, pin_factory=choice.factory)
    except Exception as error:  # a pin already in use, a missing chip: the table can still choose by hand
        notices.append(f"The race buttons could not be opened ({error}).")
    ports = list(table.config.displays.ports)
    if choice.simulated:  # emulated displays (`companion display-emulator`) name their ports here
        ports.append(str(paths.emulated_displays_dir() / "*"))
    table.displays = DisplayHub(
        paths.pairings_path(),
        call_soon=table.dispatch,
        ports=ports,
        baudrate=table.config.displays.baud,
        scan_interval=1.0,  # a display plugged in is found within a second; the idle appliance looks less often
    ).start()
    if table.displays.pairings.problem:
        notices.append(table.displays.pairings.problem)
    from ui.phone_switch import start_phones

    notices.extend(start_phones(table))  # if Settings or the config file turned them on
    return notices


def race_buttons(table: Table) -> tuple[RaceButtons, bool]:
    """The race buttons for a race screen, and whether the screen must close them when it closes.

    The table's own (wired at start) stay open: they are the table's. A table
    without them gets buttons opened now on its pin factory, or on gpiozero's
    mock pins if no factory was chosen yet (simulated buttons, pressed on the
    screen); those are the screen's. Raises what gpiozero raises (a pin in use).
    """
    if table.race is not None:
        return table.race, False
    from hardware.race_buttons import RaceButtons

    return RaceButtons(table.config.race, pin_factory=_pin_factory(table)), True


def _pin_factory(table: Table) -> PinFactory:
    if table.pin_factory is not None:
        return table.pin_factory
    from hardware.pins import choose  # no hardware opened yet: simulated buttons

    return choose("simulated").factory


def table_buttons(table: Table) -> TableButtons:
    """The table's buttons and lights for a screen that gives a press its own meaning.

    Over the race buttons, which own the pins: the table's own, or simulated ones opened now as `race_buttons`
    opens them, which the returned layer closes with itself. Presses reach the screen through the table's
    dispatcher. Raises what gpiozero raises (a pin in use).
    """
    from hardware.table_buttons import TableButtons

    buttons, owned = race_buttons(table)
    return TableButtons(buttons, call_soon=table.dispatch, owns=owned)
