"""The formation's geometry: tiles on a square grid, skydivers on a grid twice as fine.

A tile sits at ``(col, row)`` (rows grow downwards, as on the screen; any
integers, negative ones too: the formation has no fixed edge). Its four
skydivers are named by corner, ``"nw"``, ``"ne"``, ``"sw"``, ``"se"``; in
skydiver coordinates corner ``nw`` of tile ``(c, r)`` is ``(2c, 2r)`` and
``se`` is ``(2c + 1, 2r + 1)``. Lines of five are counted in skydiver
coordinates, so a line may run across two or three tiles.

Nothing here knows whose turn it is: these are the facts of the table that
the rules (`companion.games.quinque.rules`) ask about.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

Pos = tuple[int, int]
"""A tile's place ``(col, row)``, or a skydiver's in skydiver coordinates."""

Corner = Literal["nw", "ne", "sw", "se"]
"""One of a tile's four skydivers."""

CORNERS: tuple[Corner, ...] = ("nw", "ne", "sw", "se")
"""A tile's skydivers in order; corner ``i`` sits at offset ``(i % 2, i // 2)`` in the tile."""

LINE = 5
"""Skydivers in a row that win."""

Marks = tuple[str | None, str | None, str | None, str | None]
"""Whose parachute each skydiver of a tile wears, in `CORNERS` order (None: free)."""

_ORTHOGONAL: tuple[Pos, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
_LINE_DIRECTIONS: tuple[Pos, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))  # row, column, both diagonals


@dataclass(frozen=True)
class Tile:
    """One placed tile: a number (placement order), where it sits, whose parachute each skydiver wears."""

    id: int
    at: Pos
    marks: Marks = (None, None, None, None)

    @property
    def parachutes(self) -> int:
        """How many of its skydivers wear a parachute, whoever's."""
        return sum(1 for m in self.marks if m is not None)

    def wearing(self, corner: Corner, player: str) -> Tile:
        """This tile with `player`'s parachute on the skydiver at `corner`."""
        marks = list(self.marks)
        marks[CORNERS.index(corner)] = player
        return Tile(self.id, self.at, (marks[0], marks[1], marks[2], marks[3]))


def skydiver_at(tile_at: Pos, corner: Corner) -> Pos:
    """Skydiver coordinates of one corner of the tile at `tile_at`."""
    i = CORNERS.index(corner)
    return (2 * tile_at[0] + i % 2, 2 * tile_at[1] + i // 2)


def skydivers(tiles: Iterable[Tile]) -> dict[Pos, str]:
    """Every marked skydiver, by skydiver coordinates, with the player whose parachute it wears."""
    found: dict[Pos, str] = {}
    for tile in tiles:
        for corner, mark in zip(CORNERS, tile.marks, strict=True):
            if mark is not None:
                found[skydiver_at(tile.at, corner)] = mark
    return found


def line_of_five(tiles: Iterable[Tile], player: str) -> tuple[Pos, ...]:
    """Five of `player`'s skydivers in a row, column or diagonal (skydiver coordinates), or ``()``."""
    marks = skydivers(tiles)
    for x, y in sorted(p for p, who in marks.items() if who == player):
        for dx, dy in _LINE_DIRECTIONS:
            if marks.get((x - dx, y - dy)) == player:
                continue  # not the start of this run
            run = [(x + k * dx, y + k * dy) for k in range(LINE)]
            if all(marks.get(p) == player for p in run):
                return tuple(run)
    return ()


def neighbours(at: Pos) -> Iterator[Pos]:
    """The four spaces that share an edge with `at`."""
    for dc, dr in _ORTHOGONAL:
        yield (at[0] + dc, at[1] + dr)


def pieces(cells: Iterable[Pos]) -> list[frozenset[Pos]]:
    """The edge-connected pieces of a set of tile positions."""
    left = set(cells)
    found: list[frozenset[Pos]] = []
    while left:
        start = left.pop()
        piece = {start}
        todo = [start]
        while todo:
            for n in neighbours(todo.pop()):
                if n in left:
                    left.remove(n)
                    piece.add(n)
                    todo.append(n)
        found.append(frozenset(piece))
    return found


def is_one_piece(cells: Iterable[Pos]) -> bool:
    """True when the tile positions form a single formation (edge to edge)."""
    return len(pieces(cells)) <= 1


def touches_every_piece(to: Pos, parts: Iterable[frozenset[Pos]]) -> bool:
    """True when a tile at `to` would share an edge with each of `parts` (joining them into one)."""
    around = set(neighbours(to))
    return all(around & part for part in parts)


def open_spaces(occupied: frozenset[Pos]) -> tuple[Pos, ...]:
    """Every free space touching the formation edge to edge, row by row (``(0, 0)`` while it is empty)."""
    if not occupied:
        return ((0, 0),)
    return tuple(sorted({n for at in occupied for n in neighbours(at) if n not in occupied}, key=row_major))


def row_major(at: Pos) -> tuple[int, int]:
    """A sort key reading the grid as a page: top row first, left to right."""
    return (at[1], at[0])


def where(at: Pos) -> str:
    """A position as a player types it in an action: ``[0, 1]``."""
    return f"[{at[0]}, {at[1]}]"
