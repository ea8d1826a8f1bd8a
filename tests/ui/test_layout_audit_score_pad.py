"""The layout audit's shard of the score pad (issue 27: "The layout audit and screenshots at 800×480 for each
tool"): its golden scripts, and its own states: naming the game with the
names played before, the number pad, End's question, 20 rounds of five long names, and eight players.

The audit itself and its checks: `test_layout_audit.py` and `tests/support/layout_audit.py`; this file only
drives the app through more states with the same `Auditor` and reports them as the shard "score-pad".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.test_layout_audit import GOLDEN_SHARDS, LONG_NAMES, SHORT_NAMES, Auditor, golden_states, run_audit

pytestmark = pytest.mark.ui

LONG_TITLES = ("Twilight Imperium 4th Ed", "Carcassonne", "Ticket to Ride Europe", "Hearts", "Wingspan", "Azul")
"""Names of games played before: the longest a game's name may be (24 characters) among everyday ones."""
EIGHT = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def score_pad_states(auditor: Auditor, tmp_path: Path) -> None:
    """The score pad's faces and popups, with long names and many rounds."""
    ui = auditor.ui
    # Names played before: six games ended on the pad, so the naming face offers six buttons.
    for title in LONG_TITLES:
        screen = auditor.start("score-pad", SHORT_NAMES[:2])
        session = screen.session
        session.act({"type": "name", "title": title})
        session.act({"type": "score", "player": SHORT_NAMES[0], "round": 1, "points": 3})
        session.act({"type": "end"})
    for count in (2, 5):
        names = LONG_NAMES[:count]
        where = f"score pad, {count} long names"
        screen = auditor.start("score-pad", names)
        auditor.look(f"{where}: naming, six names played before")
        auditor.tap(screen.naming.ids.lowest_button, f"{where}: Lowest total wins")
        auditor.tap(screen.naming.ids.past.children[-1], f"{where}: a name played before")
        auditor.tap(screen.naming.ids.start_button, f"{where}: Start scoring")
        auditor.look(f"{where}: an empty pad")
        auditor.tap(screen._rows[0].cells[0], f"{where}: a cell")
        pad = auditor.top_popup()
        auditor.look(f"{where}: the number pad")
        for key in ("−", "1", "2", "3", "4", "5", "6"):
            auditor.tap(next(w for w in pad.ids.pad_keys.children if w.text == key), f"{where}: key {key}")
        auditor.look(f"{where}: the number pad, six digits and a minus")
        auditor.tap(pad.ids.ok_button, f"{where}: OK")
        session = screen.session
        for number in range(1, 21):
            for seat, name in enumerate(names):
                session.act({"type": "score", "player": name, "round": number, "points": 7 * number - seat})
        ui.frames(3)
        auditor.look(f"{where}: 20 rounds")
        screen.board.ids.scroll.scroll_y = 0  # the table scrolls down to the last round
        ui.frames(3)
        auditor.look(f"{where}: 20 rounds, scrolled to the last")
        auditor.tap(screen._rows[19].cells[-1], f"{where}: a cell of round 20")
        assert auditor.top_popup() is not None, "a tap on round 20's cell opens its number pad"
        auditor.look(f"{where}: round 20's number pad")
        auditor.close_popups()
        if count > 2:  # a tie of three long names: the longest question End asks
            for name in names[:3]:
                session.act({"type": "score", "player": name, "round": 21, "points": 10_000})
            for name in names[3:]:
                session.act({"type": "score", "player": name, "round": 21, "points": 99_999})
        auditor.tap(screen.board.ids.end_button, f"{where}: End")
        auditor.look(f"{where}: End asks")
        auditor.tap(auditor.top_popup().ids.end_confirm_button, f"{where}: End, confirmed")
        auditor.look(f"{where}: over")
        auditor.menu_states(screen, where)
    screen = auditor.start("score-pad", EIGHT)
    screen.session.act({"type": "name", "title": LONG_TITLES[0], "wins": "lowest"})
    for seat, name in enumerate(EIGHT):
        screen.session.act({"type": "score", "player": name, "round": 1, "points": -999_999 + seat})
    auditor.look("score pad, eight players, six-digit points")
    ui.app.go_home()
    ui.app.home.refresh()
    auditor.tap(ui.find(ui.app.home, "wins_button"), "home: Wins, after score pads")
    auditor.look("home: Wins per game, with games scored on the pad")
    auditor.close_popups()


@pytest.mark.timeout(600)
def test_layout_audit_of_the_tools(ui: Any, tmp_path: Path) -> None:
    """Issue 27: "The layout audit and screenshots at 800×480 for each tool, looked at": every tool's golden
    scripts (each state of the shortest, with its Menu), and the score pad's own states."""
    run_audit(ui, tmp_path, "score-pad", (golden_states(*GOLDEN_SHARDS["score-pad"]), score_pad_states))
