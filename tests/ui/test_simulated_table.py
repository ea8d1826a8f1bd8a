"""`companion run` on a laptop: the hardware it opens is simulated, and an emulated display just works.

This drives the composition root's real `start_hardware`: gpiozero's mock pins
for the race buttons, and the display hub scanning the folder where
`companion display-emulator` names its pseudo-terminal.
"""

from __future__ import annotations

import time

import pytest

from companion import paths
from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from hardware.display.emulator import DisplayCore, PtyDisplay
from ui.cli import build_table, start_hardware


def wait_until(condition, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


@pytest.fixture
def table(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    table = build_table(db=tmp_path / "games.db", seed=1, simulated=True)
    notices = start_hardware(table)
    yield table, notices
    table.displays.close()
    table.race.close()
    table.store.close()


def test_simulated_hardware_is_said_once_and_the_race_buttons_are_mock_pins(table):
    table, notices = table
    assert table.simulated and len(notices) == 1 and "simulated hardware" in notices[0]
    assert table.race.simulated and table.race.count == 2


def test_an_emulated_display_is_found_paired_and_shown_its_players_view(table):
    table, _ = table
    core = DisplayCore("emu-laptop", 21, 8)
    with PtyDisplay(core, link=paths.emulated_displays_dir() / core.identity):
        hub = table.displays
        assert wait_until(lambda: hub.pending_codes()), "the hub should find the emulator and offer a pairing code"
        [code] = hub.pending_codes()
        assert core.wait_for(lambda c: code.replace(" ", "") in "".join(c.screen()).replace(" ", ""))
        assert hub.pair(code, "Ann")
        session = Session.start(
            table.store, "quin", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(1), clock=lambda: 0.0
        )
        hub.attach(session)
        assert core.wait_for(lambda c: c.screen()[0].startswith("Ann")), core.screen()
