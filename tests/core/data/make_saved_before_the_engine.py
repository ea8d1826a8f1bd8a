"""Writes `saved-before-the-engine.db`: games saved by the app as it was before the engine's one shape.

Run it from a checkout of commit dd21d8c (the last commit whose games wrote
English sentences into their events), from that checkout's top folder:

    python /path/to/tests/core/data/make_saved_before_the_engine.py OUT.db

Every golden script is played twice with seeded dice: once to its end, and
once stopped three actions short with the last action undone, so the file
holds finished games, unfinished ones and undone moves waiting for redo.
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
from pathlib import Path

from companion.dice import RandomDice
from companion.game import Options, Player
from companion.session import Session
from companion.store import Store

GOLDEN = Path(__file__).resolve().parents[2] / "games" / "golden"


def actions(path: Path) -> tuple[list[str], dict[str, object], int, list[dict[str, object]]]:
    players, settings, seed, lines = [], {}, 0, []
    for line in path.read_text().splitlines():
        if line.startswith("# players:"):
            players = line.split(":", 1)[1].strip().split(",")
        elif line.startswith("# settings:"):
            settings = json.loads(line.split(":", 1)[1])
        elif line.startswith("# seed:"):
            seed = int(line.split(":", 1)[1])
        elif line.strip() and not line.startswith("#"):
            lines.append(json.loads(line))
    return players, settings, seed, lines


def play(store: Store, path: Path, stop_short: int) -> None:
    players, settings, seed, lines = actions(path)
    game = "quantum-link" if path.stem.startswith("quantum-link") else path.stem.split("-")[0]
    # Every player had the one colour `Player` gave then; today's `Options.for_names` gives each seat its own.
    options = Options(tuple(Player(name, "#4fc3f7") for name in players), settings)
    session = Session.start(store, game, options, dice=RandomDice(random.Random(seed)), clock=lambda: 0.0)
    for action in lines[: len(lines) - stop_short]:
        if action["type"] == "undo":
            session.undo()
        elif action["type"] == "redo":
            session.redo()
        else:
            with contextlib.suppress(ValueError):  # the scripts' deliberate refusals
                session.act(action)
    if stop_short:
        session.undo()


def main() -> None:
    with Store.open(Path(sys.argv[1])) as store:
        for path in sorted(GOLDEN.glob("*.jsonl")):
            play(store, path, 0)
            play(store, path, 3)


if __name__ == "__main__":
    main()
