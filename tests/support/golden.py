"""Golden playthroughs: `companion play` action scripts with what must come out.

One format for every game. A script is a ``.jsonl`` file in ``tests/games/golden/``
named after its game (``quin-key-light-captured.jsonl`` is a game of Quin,
``quantum-link-tie.jsonl`` one of Quantum Link): one JSON action per line,
which `companion play` runs as it is, and comment lines it skips that carry
the rest:

    # players: Ann,Bo
    # settings: {"advanced": true}          (optional)
    # seed: 22                              (optional: the dice's seed)
    # expect: {"winners": ["Bo"], ...}      (what the game must end with)
    # expect-refused: {"7": "sentence"}     (optional: lines the rules refuse)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parents[1] / "games" / "golden"


@dataclass(frozen=True)
class Golden:
    path: Path
    players: list[str]
    expect: dict[str, Any]
    settings: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    refused: dict[int, str] = field(default_factory=dict)  # line number -> the refusal's sentence
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (line number, action)

    @property
    def lines(self) -> list[dict[str, Any]]:
        """The actions alone, in order."""
        return [action for _, action in self.actions]

    @property
    def game(self) -> str:
        """The registry name of the game this script plays."""
        return game_of(self.path)


def scripts(game: str | None = None) -> list[Path]:
    """The scripts of `game` (every script if None), in name order."""
    return sorted(FOLDER.glob(f"{game}-*.jsonl" if game else "*.jsonl"))


def game_of(path: Path) -> str:
    """The game a script plays: the longest registered game name its file name starts with, then ``-``."""
    from companion.games import names

    stem = path.stem
    for name in sorted(names(), key=len, reverse=True):
        if stem.startswith(name + "-"):
            return name
    raise LookupError(f"{path.name} is not named after a game ({', '.join(sorted(names()))})")


def read(path: Path) -> Golden:
    header: dict[str, Any] = {}
    actions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("#"):
            key, sep, value = line[1:].strip().partition(":")
            if sep and key in ("players", "settings", "seed", "expect", "expect-refused"):
                header[key] = value.strip().split(",") if key == "players" else json.loads(value)
        elif line.strip():
            actions.append((number, json.loads(line)))
    assert "players" in header and "expect" in header, f"{path.name} needs '# players:' and '# expect:' lines"
    return Golden(
        path,
        header["players"],
        header["expect"],
        header.get("settings", {}),
        header.get("seed"),
        {int(k): v for k, v in header.get("expect-refused", {}).items()},
        actions,
    )


def play(store: Any, script: str | Path, *, upto: int | None = None, clock: Any = None) -> Any:
    """Start `script`'s game in `store` and play its first `upto` lines (all if None) as a table would: its
    undo and redo lines undo and redo, and the lines the rules refuse change nothing. The `Session`.

    `script` is a path or a script's name (``"quinque-row-win"``); the dice roll from its seed (1 if none).
    """
    import contextlib
    import time

    from companion.dice import RandomDice
    from companion.game import Options, RuleError
    from companion.session import Session

    golden = read(script if isinstance(script, Path) else FOLDER / f"{script}.jsonl")
    session = Session.start(
        store,
        golden.game,
        Options.for_names(*golden.players, **golden.settings),
        dice=RandomDice.seeded(golden.seed or 1),
        clock=clock or time.time,
    )
    for action in golden.lines[:upto]:
        if action.get("type") in ("undo", "redo"):
            getattr(session, action["type"])()
        else:
            with contextlib.suppress(RuleError):  # the script's refused lines are refused here too
                session.act(action)
    return session
