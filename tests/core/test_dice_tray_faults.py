"""A dice tray killed mid-roll (issue 27: "the store's fault tests (SIGKILL, resume ...) include games of each
tool"): a companion in another process rolls, holds and undoes as fast as it can and says each move once `act`
has returned; it is killed with SIGKILL, and the tray comes back with every acknowledged move, exactly, without
rolling a die, and an undone roll still comes back on the next roll ("undo never re-rolls")."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.dice import RandomDice
from companion.session import Session
from companion.store import Store
from tests.support.pulled_plug import acknowledged_then_killed

CHILD = r"""
import json, sys
from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from companion.store import Store

store = Store.open(sys.argv[1])
session = Session.start(store, "dice-tray", Options.for_names("Ann", "Bo", dice=["d6"] * 5), dice=RandomDice.seeded(3))
print("ready", flush=True)
n = 0
while True:
    n += 1
    if n % 4 == 0 and session.can_undo:
        session.undo()
    elif n % 7 == 0 and not session.view().dice[n % 5].held and session.view().dice[n % 5].face:
        session.act({"type": "hold", "die": 1 + n % 5})
    elif n % 9 == 0 and session.view().held:
        session.act({"type": "release_all"})
    else:
        session.act({"type": "roll"})
    faces = [d.face for d in session.view().dice]
    print(json.dumps({"moves": len(session.moves), "redo": len(session.redo_moves), "faces": faces}), flush=True)
"""


class NoDice:
    def roll(self, sides: int = 6) -> int:
        raise AssertionError("a resume rolled a die")


@pytest.mark.parametrize("kill_after", [25, 60, 101])
def test_sigkill_mid_roll_loses_no_acknowledged_move_and_resumes_exactly(tmp_path: Path, kill_after: int) -> None:
    path = tmp_path / "games.db"
    last = acknowledged_then_killed(CHILD, path, kill_after)[-1]
    with Store.open(path) as store:
        session = Session.resume(store, dice=NoDice())
        assert session is not None and session.game.name == "dice-tray"
        # The kill may land after a move was written and before it was said: one move more, never one fewer.
        shown = (len(session.moves), len(session.redo_moves))
        if shown == (last["moves"], last["redo"]):
            assert [d.face for d in session.view().dice] == last["faces"]
        else:
            assert len(session.moves) + len(session.redo_moves) >= last["moves"]
        if session.redo_moves and session.redo_moves[0].action.type == "roll":
            undone = session.redo_moves[0].events[0].faces  # type: ignore[attr-defined]
            again = Session.load(store, session.game_id, dice=RandomDice.seeded(99))  # dice that would differ
            rolled = again.act({"type": "roll"})[0]
            assert rolled.faces[: len(undone)] == undone[: len(rolled.faces)]  # type: ignore[attr-defined]
