"""A games file holding thousands of ended games, written in one go (rows exactly as the store writes them).

For the wins chart and the past games with 2,000 games: playing that many through a `Session` would take
minutes of fsyncs. Each game gets one move, so the file passes every check at opening. The file is made
without a wins tally, as a file from before it would be: the store counts it once when first read.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.game import ABANDONED, LEFT, TIE, Options
from companion.store.files import create_file
from companion.store.rows import GAME_COLUMNS, MOVE_COLUMNS, normal_row, row_checksum

KINDS = ("quintet", "quin", "quark", "quantum-link", "quinque")
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


@dataclass(frozen=True)
class Ended:
    """One game as written: its kind, its players, and its outcome (None: still unfinished)."""

    id: int
    game: str
    players: tuple[str, ...]
    outcome: dict[str, Any] | None
    finished_at: float | None


def ended_games(count: int, *, seed: int = 14, start: float = 1_760_000_000.0) -> list[Ended]:
    """`count` games of every kind: won, won because the others left, shared, tied, abandoned, a few unfinished."""
    rng = random.Random(seed)
    out = []
    for gid in range(1, count + 1):
        game = KINDS[gid % len(KINDS)]
        players = tuple(rng.sample(NAMES, 3 if game in ("quintet", "quark") else 2))
        roll = rng.random()
        if roll < 0.6:
            outcome: dict[str, Any] | None = {"winners": [rng.choice(players)], "reason": "won", "detail": ""}
        elif roll < 0.7:
            outcome = {"winners": [players[0]], "reason": LEFT, "detail": f"{players[0]} is the only player left."}
        elif roll < 0.75:
            outcome = {"winners": list(players[:2]), "reason": "shared", "detail": ""}
        elif roll < 0.85:
            outcome = {"winners": [], "reason": TIE, "detail": ""}
        elif roll < 0.97:
            outcome = {"winners": [], "reason": ABANDONED, "detail": ""}
        else:
            outcome = None
        finished = start + 600.0 * gid if outcome is not None else None
        out.append(Ended(gid, game, players, outcome, finished))
    return out


def write_file(path: Path, games: list[Ended]) -> None:
    """The games file at `path` holding `games` (each with one move), as the store writes rows."""
    game_rows, move_rows = [], []
    for g in games:
        options = json.dumps(Options.for_names(*g.players).to_json())
        started = (g.finished_at or 1_760_000_000.0 + 600.0 * g.id) - 300.0
        outcome = json.dumps(g.outcome) if g.outcome is not None else None
        values = normal_row(GAME_COLUMNS, (g.id, g.game, options, started, 300.0, g.finished_at, outcome, "[]", 1, 2))
        game_rows.append((*values, row_checksum("games", values)))
        action = json.dumps({"type": "choose_first", "player": g.players[0], "chosen_by": g.players[0], "how": "table"})
        values = normal_row(MOVE_COLUMNS, (g.id, 0, action, "[]", "[]", started + 1.0, 0, 1))
        move_rows.append((*values, row_checksum("moves", values)))
    create_file(path, game_rows, move_rows)


def by_hand(games: list[Ended]) -> dict[str, dict[str, int]]:
    """Wins per game per player, counted the plain way: ties and abandoned games count for nobody."""
    wins: dict[str, dict[str, int]] = {}
    for g in games:
        if g.outcome is None or g.outcome["reason"] == ABANDONED:
            continue
        for name in g.outcome["winners"]:
            per_game = wins.setdefault(g.game, {})
            per_game[name] = per_game.get(name, 0) + 1
    return wins
