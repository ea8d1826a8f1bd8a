"""The layout audit's shard of the turn clock (issue 27): its golden scripts on the real screen at 800×480, and
the clock's own states with 2, 3 and 5 players, short names and 16-letter ones: waiting for the first tap,
running, 10 s left, out of time, paused, the End question, stopped. The audit itself: `test_layout_audit.py`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support import ManualClock
from tests.ui.test_layout_audit import GOLDEN_SHARDS, LONG_NAMES, SHORT_NAMES, Auditor, golden_states, run_audit

pytestmark = pytest.mark.ui


def clock_states(auditor: Auditor, tmp_path: Path) -> None:
    """Every state of the clock a table sees, each tap a real one (what a finger aims at must not move)."""
    ui = auditor.ui
    for count in (2, 3, 5):
        for names in (SHORT_NAMES[:count], LONG_NAMES[:count]):
            clock = ManualClock()
            ui.table.clock = clock
            where = f"turn clock, {count} players, {'long' if names is LONG_NAMES[:count] else 'short'} names"
            screen = auditor.start("turn-clock", names, time="total 1m")
            board = screen.board
            auditor.look(f"{where}: waiting for the first tap")
            auditor.tap(board.ids.big, f"{where}: start")
            clock.advance(12)
            auditor.tap(board.ids.big, f"{where}: a turn ended")
            auditor.look(f"{where}: running")
            clock.advance(51)
            screen.render(screen.session.view())
            auditor.look(f"{where}: 9 s left")
            clock.advance(15)
            screen.render(screen.session.view())
            auditor.look(f"{where}: out of time")
            auditor.tap(board.ids.pause_button, f"{where}: Pause")
            auditor.look(f"{where}: paused")
            auditor.tap(board.ids.pause_button, f"{where}: Resume")
            auditor.tap(board.ids.stop_button, f"{where}: End")
            auditor.look(f"{where}: stop the clock?")
            ask = auditor.top_popup()
            assert ask is not None
            auditor.tap(ask.ids.yes_button, f"{where}: stopped")
            auditor.look(f"{where}: stopped")
    ui.app.go_home()


@pytest.mark.timeout(600)
def test_layout_audit_of_the_turn_clock(ui: Any, tmp_path: Path) -> None:
    """Issue 27: "The layout audit and screenshots at 800×480 for each tool": the turn clock's golden scripts
    (the shortest with its Menu and popups, and with the longest names) and its own states."""
    run_audit(ui, tmp_path, "turn-clock", (golden_states(*GOLDEN_SHARDS["turn-clock"]), clock_states))
