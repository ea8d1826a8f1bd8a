"""`companion run` on a laptop: the hardware it opens is simulated, and an emulated display just works.

This drives the composition root's real `start_hardware`: gpiozero's mock pins
for the race buttons, and the display hub scanning the folder where
`companion display-emulator` names its pseudo-terminal.
"""

from __future__ import annotations

import pytest

from companion import paths
from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from hardware.display.emulator import DisplayCore, PtyDisplay
from tests.support import wait_until
from ui.cli import build_table, start_hardware


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
    with PtyDisplay(core, link=paths.emulated_displays_dir() / core.identity) as display:
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
        # Quin's setup menu is up, and its keys play Ann's choices (through the table's dispatcher).
        assert core.wait_for(lambda c: c.screen()[0].endswith("Setup 0/17")), core.screen()
        for key in ("ok", "ok", "ok"):  # the Clone: the first face it may replace, the first it may become
            display.press(key)
        assert wait_until(lambda: len(session.moves) == 1), core.screen()
        assert session.state.side("Ann").clone == ("Artificial Light", "Time")
        clone_shown = [" Clone: Art.Light", "   > Time", "> 1 ?             off"]
        # Still plugged in: the screen after the move is on its way when the move is made.
        assert core.wait_for(lambda c: c.screen()[1:4] == clone_shown), core.screen()
