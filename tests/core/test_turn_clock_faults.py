"""A turn clock killed mid-game (issue 27: "the store's fault tests (SIGKILL, resume ...) include games of each
tool"): a companion in another process passes the clock round three players as fast as it can, each tap carrying
its second of play as the screen's would (`Session.elapsed`), now and then taking a turn back, and says each move
once `act` or `undo` has returned; it is killed with SIGKILL, and the clock comes back with every acknowledged
move, each player's times exactly as they were, and a game clock that goes on from its last saved second (the
next tap is never refused as going back in time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session import Session
from companion.store import Store
from tests.support.pulled_plug import acknowledged_then_killed

CHILD = r"""
import json, sys
from companion.game import Options
from companion.session import Session
from companion.store import Store

store = Store.open(sys.argv[1])
session = Session.start(store, "turn-clock", Options.for_names("Ann", "Bo", "Cy", time="total 1m +5s"))
session.act({"type": "start", "at": session.elapsed})
print("ready", flush=True)
n = 0
while True:
    n += 1
    if n % 5 == 0 and len(session.moves) > 1:
        session.undo()  # a turn ended by mistake, taken back: that player's clock runs on
    else:
        session.act({"type": "end_turn", "player": session.view().current, "at": session.elapsed})
    view = session.view()
    print(json.dumps({
        "moves": len(session.moves), "redo": len(session.redo_moves), "current": view.current,
        "times": [[p.used, p.turns, p.longest, p.out_of_time] for p in view.players],
    }), flush=True)
"""


def _times(session: Session) -> list[list[object]]:
    return [[p.used, p.turns, p.longest, p.out_of_time] for p in session.view().players]


@pytest.mark.parametrize("kill_after", [20, 75])
def test_sigkill_mid_game_loses_no_acknowledged_turn_and_the_clock_goes_on(tmp_path: Path, kill_after: int) -> None:
    path = tmp_path / "games.db"
    last = acknowledged_then_killed(CHILD, path, kill_after)[-1]
    with Store.open(path) as store:
        assert store.notice is None
        session = Session.resume(store)
        assert session is not None and session.game.name == "turn-clock"
        # The kill may land after a move was written and before it was said: one move more, never one fewer.
        shown = (len(session.moves), len(session.redo_moves))
        if shown == (last["moves"], last["redo"]):
            assert session.view().current == last["current"] and _times(session) == last["times"]
        else:
            assert len(session.moves) + len(session.redo_moves) >= last["moves"] + last["redo"], shown
        assert session.view().running, "the clock resumed running"
        # The game clock goes on from its last saved second: the next tap is at or after the last one saved.
        assert session.elapsed >= session.state.last_at
        player = session.view().current
        session.act({"type": "end_turn", "player": player, "at": session.elapsed})
        ended = _times(session)
        game_id = session.game_id
    with Store.open(path) as store:
        again = Session.load(store, game_id)
        assert _times(again) == ended and again.moves == session.moves, "the tap after the restart is kept"
