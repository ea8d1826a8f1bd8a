"""Child process for the store's fault tests: a companion that holds its games file open and takes orders.

It reads one order a line on stdin and answers one line on stdout, so the
parent always knows what was acknowledged before it breaks something:

    act N          -> N moves appended; answers the total number of moves
    delete-wal     -> the ``-wal`` file removed behind the store's back; answers "ok"

Started with `spawn` (``python -m tests.support.store_writer PATH`` from the
checkout's root); it prints "ready" once the store is open.
``spawn(PATH, "--forever")`` takes no orders: it appends moves until it
is killed, printing each move's number once `act` has returned (the crash test).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from companion.store import Store
from tests.support.tinygame import registered

ROOT = Path(__file__).resolve().parents[2]


def spawn(path: Path | str, *flags: str, **popen: Any) -> subprocess.Popen[str]:
    """Start a writer on the games file `path` in a child process (text pipes; `popen` as for `subprocess.Popen`)."""
    command = [sys.executable, "-m", "tests.support.store_writer", str(path), *flags]
    return subprocess.Popen(command, cwd=ROOT, text=True, **popen)


def main(path: str, forever: bool = False) -> None:
    registered()
    store = Store.open(path)
    session = Session.resume(store, dice=RandomDice.seeded(1)) or Session.start(
        store, "tiny", Options.for_names("Ann", "Bo", target=10**9), dice=RandomDice.seeded(1)
    )
    print("ready", flush=True)
    while forever:
        session.act({"type": "roll", "player": session.current_player, "note": "x" * 2000})
        print(len(session.moves), flush=True)
    for line in sys.stdin:
        order, _, argument = line.strip().partition(" ")
        if order == "act":
            for _ in range(int(argument)):
                session.act({"type": "roll", "player": session.current_player, "note": "x" * 500})
            print(len(session.moves), flush=True)
        elif order == "delete-wal":
            os.unlink(path + "-wal")
            print("ok", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], forever="--forever" in sys.argv[2:])
