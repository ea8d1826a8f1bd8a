"""The layout audit's shard of the finger chooser (issue 27): its golden scripts on the real screen at 800×480,
and the glass with fingers on it: 2, 5 and 10 fingers counting, chosen, in teams, put away; and a game's "Who
goes first?" by fingers, with the longest names, before and after the choice. The audit itself:
`test_layout_audit.py`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.test_finger_chooser_screen import Glass
from tests.ui.test_layout_audit import GOLDEN_SHARDS, LONG_NAMES, Auditor, golden_states, run_audit

pytestmark = pytest.mark.ui


def glass_states(auditor: Auditor, tmp_path: Path) -> None:
    """The tool with fingers down, each way of choosing, and put away; every tap a real one, checked for moves."""
    ui = auditor.ui
    for names in (("Ann",), LONG_NAMES):
        for count in (2, 5, 10):
            where = f"finger chooser, {len(names)} players, {count} fingers"
            screen = auditor.start("finger-chooser", names)
            glass = Glass(ui, screen.chooser)
            glass.put(count)
            glass.wait(1.0)
            auditor.look(f"{where}, counting")
            glass.wait(1.1)
            ui.wait(0.5)
            auditor.look(f"{where}, chosen")
            glass.lift_all()
            auditor.look(f"{where}, lifted")
            for teams in (2, 4):
                auditor.tap(screen.way_buttons[teams], f"{where}: {teams} teams")
                glass.put(count)
                glass.wait(2.1)
                auditor.look(f"{where}, {teams} teams")
                glass.lift_all()
            auditor.tap(screen.way_buttons[1], f"{where}: One finger")
            auditor.tap(ui.find(screen, "put_away_button"), f"{where}: Put away")
            auditor.look(f"{where}, put away")
            auditor.menu_states(screen, where)


def who_goes_first(auditor: Auditor, tmp_path: Path) -> None:
    """A game's "Who goes first?": the race, then Choose by fingers, counting, chosen, and Again."""
    from ui.screens.race import open_race

    ui = auditor.ui
    for game, names in (("quark", LONG_NAMES[:4]), ("quantum-link", ("Ann", "Bo"))):
        where = f"{game}, who goes first"
        game_screen = auditor.start(game, names)
        race = open_race(game_screen)
        ui.frames(4)
        auditor.look(f"{where}: race")
        auditor.tap(race.ids.fingers_button, f"{where}: Choose by fingers")
        auditor.look(f"{where}: fingers")
        glass = Glass(ui, race.glass)
        glass.put(len(names))
        glass.wait(1.0)
        auditor.look(f"{where}: fingers counting")
        glass.wait(1.1)
        ui.wait(0.5)
        auditor.look(f"{where}: finger chosen")
        glass.lift_all()
        auditor.tap(race.action_buttons["fingers_again"], f"{where}: Again")
        auditor.look(f"{where}: fingers again")
        race.back()
        ui.frames(3)


@pytest.mark.timeout(600)
def test_layout_audit_of_the_finger_chooser(ui: Any, tmp_path: Path) -> None:
    """Issue 21's audit, issue 27's tool: its golden scripts and the glass with 2 to 10 fingers on it, the teams, the
    tool put away, and a game's "Who goes first?" by fingers."""
    run_audit(
        ui, tmp_path, "finger-chooser", (golden_states(*GOLDEN_SHARDS["finger-chooser"]), glass_states, who_goes_first)
    )
