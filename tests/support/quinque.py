"""Helpers for the Quinque tests: formations drawn as text, actions played in a row.

`board()` reads a picture in skydiver coordinates: each tile is a 2×2 block of
characters (``.`` a free skydiver, ``A`` Ann's parachute, ``B`` Bo's), and a
2×2 block of spaces is a space without a tile. Tile ``(c, r)`` covers columns
``2c, 2c+1`` of lines ``2r, 2r+1``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.dice import RandomDice
from companion.game import Action, Event, Options
from companion.games import game
from companion.games.quinque.board import CORNERS, Corner, Tile
from companion.games.quinque.rules import Add, Mark, Move, QuinqueState, Skip
from companion.games.quinque.settings import DEFAULT_PARACHUTES, DEFAULT_TILES

ANN, BO = "Ann", "Bo"
LETTERS = {"A": ANN, "B": BO}
DICE = RandomDice.seeded(0)  # Quinque rolls nothing; the contract still hands dice over
GAME = game("quinque")  # the engine's entry: its checks (turn, game over, who starts) come with it


def new_game(**settings: Any) -> QuinqueState:
    return GAME.setup(Options.for_names(ANN, BO, **settings))


def board(
    *lines: str,
    turn: str = ANN,
    step: str = "move",
    marked: tuple[int, int] | None = None,
    advanced: bool = False,
    parachutes_left: tuple[int, int] | None = None,
    tiles_left: tuple[int, int] | None = None,
) -> QuinqueState:
    """A state mid-game with the formation drawn in `lines` (see the module docstring)."""
    assert len(lines) % 2 == 0, "each row of tiles is two lines"
    width = max(len(line) for line in lines)
    rows = [line.ljust(width + width % 2) for line in lines]
    tiles: list[Tile] = []
    for r in range(len(rows) // 2):
        for c in range(len(rows[0]) // 2):
            block = [rows[2 * r + i // 2][2 * c + i % 2] for i in range(4)]
            if all(ch == " " for ch in block):
                continue
            assert " " not in block, f"tile ({c}, {r}) is only partly drawn"
            marks = tuple(LETTERS.get(ch) for ch in block)
            tiles.append(Tile(len(tiles), (c, r), (marks[0], marks[1], marks[2], marks[3])))
    used = {p: sum(t.marks.count(p) for t in tiles) for p in (ANN, BO)}
    if parachutes_left is None:
        parachutes_left = (DEFAULT_PARACHUTES - used[ANN], DEFAULT_PARACHUTES - used[BO])
    if tiles_left is None:
        tiles_left = (DEFAULT_TILES - (len(tiles) + 1) // 2, DEFAULT_TILES - len(tiles) // 2)
    marked_id = None
    if marked is not None:
        found = [t.id for t in tiles if t.at == marked]
        assert found, f"no tile at {marked} to be the one marked this turn"
        marked_id = found[0]
    return QuinqueState(
        players=(ANN, BO),
        advanced=advanced,
        tiles=tuple(tiles),
        tiles_left=tiles_left,
        parachutes_left=parachutes_left,
        turn=(ANN, BO).index(turn),
        step=step,
        marked_tile=marked_id,
    )


def act(state: QuinqueState, action: Action | Mapping[str, Any]) -> tuple[QuinqueState, list[Event]]:
    """Decide and fold one action (typed, or its JSON object); returns the new state and its events.

    Play has begun once a tile lies on the table (every first action adds one).
    """
    if isinstance(action, Mapping):
        action = GAME.parse_action(action, state.players)
    events = list(GAME.decide(state, action, DICE, begun=bool(state.tiles)))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def play(state: QuinqueState, actions: Iterable[Action | Mapping[str, Any]]) -> QuinqueState:
    for action in actions:
        state, _ = act(state, action)
    return state


def mark(player: str, tile: tuple[int, int], skydiver: Corner) -> Mark:
    return Mark(player, tile, skydiver)


def add(player: str, tile: tuple[int, int], skydiver: Corner) -> Add:
    return Add(player, tile, skydiver)


def move(player: str, start: tuple[int, int], to: tuple[int, int]) -> Move:
    return Move(player=player, start=start, to=to)


def skip(player: str) -> Skip:
    return Skip(player)


def corner_of(x: int, y: int) -> tuple[tuple[int, int], str]:
    """The tile and corner holding skydiver ``(x, y)``."""
    return (x // 2, y // 2), CORNERS[(y % 2) * 2 + x % 2]
