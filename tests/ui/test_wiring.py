"""One place wires the hardware (`ui.wiring`); screens receive what they use and never open a device.

Issue 25: "Two places wire hardware. `ui/screens/race.py` builds `RaceButtons` and picks a pin factory
itself, besides `ui/cli.py`". The screens are read as text, as `tests/hardware/test_knows_no_game.py`
reads the hardware: no screen imports a device module when it runs, and none calls a device's maker.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import Config
from companion.store import Store
from hardware.race_buttons import RaceButtons
from ui import wiring
from ui.table import Table

ROOT = Path(__file__).resolve().parents[2]
SCREENS = sorted((ROOT / "ui" / "screens").glob("*.py"))

DEVICE_LIBRARIES = ("gpiozero", "serial", "lgpio")
"""What talks to pins and ports: gpiozero (and lgpio under it), pyserial."""
MAY_IMPORT_FROM_HARDWARE = {"hardware.race_control"}
"""A race's control runs on buttons it is handed and opens none; every other hardware module is a device's."""
DEVICE_MAKERS = {
    "RaceButtons", "RaceButton", "DisplayHub", "DisplayLink", "PhoneServer", "PortScanner",
    "MockFactory", "LGPIOFactory", "LED", "Buzzer",
}  # fmt: skip
"""Names whose call opens a device or makes a pin factory (`hardware.pins.choose` is caught by the imports)."""


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def run_time_imports(tree: ast.Module) -> list[str]:
    """Every module a file imports when it runs, at the top or inside a function (not under TYPE_CHECKING)."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return  # names for annotations only: they build nothing
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.extend([node.module, *(f"{node.module}.{alias.name}" for alias in node.names)])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def calls(tree: ast.Module) -> set[str]:
    """The names called in a file: ``RaceButtons(...)`` and ``pins.choose(...)`` alike."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            names.add(func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else "")
    return names


def test_there_are_screens_to_read() -> None:
    assert ROOT / "ui" / "screens" / "race.py" in SCREENS and ROOT / "ui" / "screens" / "base.py" in SCREENS


@pytest.mark.parametrize("path", SCREENS, ids=lambda path: path.name)
def test_no_screen_imports_a_device_module(path: Path) -> None:
    """Issue 25: "`ui/screens/race.py` builds `RaceButtons` and picks a pin factory itself"."""
    imported = run_time_imports(ast.parse(path.read_text(encoding="utf-8")))
    devices = [
        name
        for name in imported
        if name.split(".")[0] in DEVICE_LIBRARIES
        or (name.split(".")[0] == "hardware" and not any(name.startswith(ok) for ok in MAY_IMPORT_FROM_HARDWARE))
    ]
    assert devices == [], f"{path.name} imports {devices}: a screen is handed its hardware (see ui/wiring.py)"


@pytest.mark.parametrize("path", SCREENS, ids=lambda path: path.name)
def test_no_screen_opens_a_device(path: Path) -> None:
    """Issue 25: "Two places wire hardware": the screens are not one of them."""
    opened = sorted(calls(ast.parse(path.read_text(encoding="utf-8"))) & DEVICE_MAKERS)
    assert opened == [], f"{path.name} calls {opened}: only ui/wiring.py opens devices"


@pytest.fixture
def table(tmp_path: Path) -> Any:
    store = Store.open(tmp_path / "games.db")
    yield Table(store=store, config=Config())
    store.close()


def test_the_tables_own_race_buttons_are_handed_over_and_stay_the_tables(table: Table) -> None:
    """Issue 25: "screens receive what they use". Buttons wired at start stay open when a race screen closes."""
    with RaceButtons(table.config.race, pin_factory=MockFactory()) as wired:
        table.race = wired
        buttons, owned = wiring.race_buttons(table)
        assert buttons is wired and not owned


def test_a_table_without_race_buttons_gets_simulated_ones_on_its_own_pin_factory(table: Table) -> None:
    """A test's table, or a laptop before the first frame: simulated buttons, the caller's to close."""
    buttons, owned = wiring.race_buttons(table)
    try:
        assert owned and buttons.simulated and buttons.count == len(table.config.race.buttons)
    finally:
        buttons.close()
    table.pin_factory = factory = MockFactory()
    buttons, owned = wiring.race_buttons(table)
    with buttons:
        assert owned and buttons.pin_factory is factory


@pytest.mark.ui
def test_the_race_screen_races_on_the_tables_buttons_and_leaves_them_open(ui: Any) -> None:
    """Issue 25: "One place wires the hardware ... screens receive what they use"."""
    from ui.screens.race import open_race

    with RaceButtons(ui.table.config.race, pin_factory=MockFactory()) as wired:
        ui.table.race = wired
        try:
            game_screen = ui.start_game("quantum-link", ["Ann", "Bo"])
            screen = open_race(game_screen, rng=random.Random(3), timing={"count_interval": 0.05})
            ui.frames(3)
            assert screen.buttons is wired and screen.simulated and screen.panel is not None
            screen.back()
            ui.frames(2)
            assert not wired.closed, "the table's buttons are the table's: the screen does not close them"
        finally:
            ui.table.race = None
