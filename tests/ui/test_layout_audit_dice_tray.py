"""The layout audit's shard of the dice tray (issue 27): its golden scripts on the real screen at 800×480, and
the tray's own states: ten dice (named faces among them), dice held, a put-away tray, and each of its popups
(the set picker with the table's own sets, adding and taking out dice, the statistics of many kinds of die, the
questions before putting the dice away and before forgetting a set). The audit itself: `test_layout_audit.py`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games.dice_tray.saved import SavedSets
from tests.ui.test_layout_audit import GOLDEN_SHARDS, LONG_NAMES, Auditor, golden_states, run_audit

pytestmark = pytest.mark.ui

TEN = ["d4", "d6", "d8", "d10", "d12", "d20", "d100", ["Sun", "Moon", "Star"], ["Heads", "Tails"], ["-1", "0", "1"]]
"""Ten dice, every kind the tray knows: the most it holds, each still a finger wide."""


def tray_states(auditor: Auditor, tmp_path: Path) -> None:
    """The tray's own states and popups, each looked at; every tap a real one, checked for what moved."""
    ui = auditor.ui
    saved = SavedSets.load()
    for name in [s.name for s in saved.sets]:
        saved.forget(name)
    saved.save("Wilhelmina's big", ("d6", "d6", ("Sunshine", "Moonlight", "Starlight"), "d20"))
    for count, names in ((1, ("Table",)), (8, (*LONG_NAMES, "Ann", "Bo", "Cy"))):
        for dice in (["d6"], ["d6"] * 5, TEN):
            where = f"dice tray, {count} players, {len(dice)} dice"
            screen = auditor.start("dice-tray", names, dice=dice)
            auditor.look(f"{where}, not rolled")
            roll = ui.find(screen, "roll_button")
            auditor.tap(roll, f"{where}: Roll")
            auditor.look(f"{where}, rolled")
            for tile in screen.tiles[: len(screen.tiles) - 1]:
                auditor.tap(tile, f"{where}: hold die {tile.number}")
            auditor.look(f"{where}, all but one held")
            auditor.tap(roll, f"{where}: Roll the last")
            auditor.look(f"{where}, the last rolled")
            if count == 1:
                continue
            for button_id, opens in (
                ("sets_button", "Dice sets"),
                ("dice_button", "Add or remove"),
                ("stats_button", "Statistics"),
            ):
                auditor.tap(ui.find(screen, button_id), f"{where}: {opens}")
                auditor.look(f"{where}: {opens}")
                auditor.close_popups()
            auditor.tap(ui.find(screen, "release_button"), f"{where}: Release all")
            auditor.look(f"{where}, all released")
    screen = ui.screen
    # The set picker scrolled to the table's own set, and the question before forgetting it.
    auditor.tap(ui.find(screen, "sets_button"), "dice tray: Dice sets")
    picker = auditor.top_popup()
    last = list(reversed(picker.ids.rows.children))[-1]
    picker.ids.rows.parent.scroll_to(last, animate=False)
    ui.frames(3)
    auditor.look("dice tray: Dice sets, scrolled to the table's own")
    auditor.tap(last.ids.forget_button, "dice tray: Forget")
    auditor.look("dice tray: Forget a set?")
    auditor.close_popups()
    # Adding dice one by one in the popup: its buttons stay where they are; a refusal is said in it.
    auditor.tap(ui.find(screen, "dice_button"), "dice tray: Add or remove")
    popup = auditor.top_popup()
    for number in range(len(screen.tiles), 0, -1):
        auditor.tap(ui.find_text(popup.ids.remove_grid, f"{number}: {screen.tiles[number - 1].kind}"), "take out")
    auditor.look("dice tray: Add or remove, the tray empty")
    for _ in range(11):
        auditor.tap(ui.find_text(popup.ids.common, "d12"), "dice tray: add a d12")
    auditor.look("dice tray: Add or remove, the eleventh refused")
    auditor.close_popups()
    auditor.tap(ui.find(screen, "put_away_button"), "dice tray: Put away")
    auditor.look("dice tray: Put the dice away?")
    auditor.tap(auditor.top_popup().ids.yes_button, "dice tray: Yes, put away")
    auditor.look("dice tray, put away")
    auditor.tap(ui.find(screen, "stats_button"), "dice tray, put away: Statistics")
    auditor.look("dice tray, put away: Statistics")
    auditor.close_popups()
    for name in [s.name for s in SavedSets.load().sets]:
        SavedSets.load().forget(name)


@pytest.mark.timeout(600)
def test_layout_audit_of_the_dice_tray(ui: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21's audit, for the tray (issue 27: "The layout audit and screenshots at 800×480 for each tool")."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))  # the saved sets of this test alone
    run_audit(ui, tmp_path, "dice-tray", (golden_states(*GOLDEN_SHARDS["dice-tray"]), tray_states))
