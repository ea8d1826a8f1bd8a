"""Child process for the crash test: append moves through a real Session forever.

After each `act` returns it prints the move's number, so the parent knows
exactly which appends were acknowledged before it sends SIGKILL.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from tinygame import registered

from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from companion.store import Store


def main(path: str) -> None:
    registered()
    store = Store.open(path)
    session = Session.resume(store, dice=RandomDice.seeded(1)) or Session.start(
        store, "tiny", Options.for_names("Ann", "Bo", target=10**9), dice=RandomDice.seeded(1)
    )
    print("ready", flush=True)
    while True:
        player = session.current_player
        session.act({"type": "roll", "player": player, "padding": "x" * 2000})
        print(len(session.moves), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
