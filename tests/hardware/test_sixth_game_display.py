"""The sixth game (Pig with secret bets, tests/sixth_game) on real emulated player displays.

Nothing in hardware/ knows Pig: the hub asks the session for each player's
view and draws it with Pig's own `display.py`, found through the registry.
Each player places their secret bet with their display's keys; neither
display ever shows the other's bet.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.dice import RandomDice
from companion.game import Options
from companion.games import register, unregister
from companion.session import Session
from companion.store import Store
from hardware.display.hub import DisplayHub
from tests.support import QueuedDispatcher, wait_until
from tests.support.displays import DisplayPorts


@pytest.fixture
def pig(tmp_path: Path) -> Iterator[Session]:
    register("tests.sixth_game")
    store = Store.open(tmp_path / "games.db")
    try:
        yield Session.start(store, "pig", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(3))
    finally:
        store.close()
        unregister("pig")


def test_each_player_bets_on_their_own_display_and_sees_only_their_bet(
    hub: DisplayHub, table: DisplayPorts, pig: Session, dispatcher: QueuedDispatcher
) -> None:
    hub.attach(pig)
    ann = table.plug("emu-ann", "usb-a", cols=16, rows=8)
    bo = table.plug("emu-bo", "usb-b", cols=16, rows=8)
    for display, player in ((ann, "Ann"), (bo, "Bo")):
        assert display.core.wait_for(lambda core: core.pair_code is not None)
        assert hub.pair(display.core.pair_code or "", player)
        assert display.core.wait_for_text("bet on"), display.core.text()

    def on_ui(condition):
        return wait_until(lambda: dispatcher.run() >= 0 and condition())

    ann.press("down")  # Ann bets on Bo ...
    assert on_ui(lambda: ">Bo" in ann.core.screen())
    ann.press("ok")
    assert on_ui(lambda: len(pig.moves) == 1)
    bo.press("ok")  # ... and Bo on Ann
    assert on_ui(lambda: len(pig.moves) == 2)
    assert [move.action.on for move in pig.moves] == ["Bo", "Ann"]
    assert ann.core.wait_for_text("bet: Bo"), ann.core.text()
    assert bo.core.wait_for_text("bet: Ann"), bo.core.text()
    assert "bet: Ann" not in ann.core.text() and "bet: Bo" not in bo.core.text()
