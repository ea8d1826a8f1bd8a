"""Quinque: two players hang parachutes on a formation of skydiver tiles.

The formation is a set of square tiles on a grid, touching edge to edge, each
tile carrying a 2×2 block of skydivers. Positions:

- a tile sits at ``(col, row)`` (rows grow downwards, as on the screen; any
  integers, negative ones too: the formation has no fixed edge);
- its skydivers are named by corner, ``"nw"``, ``"ne"``, ``"sw"``, ``"se"``;
  in skydiver coordinates the corner ``nw`` of tile ``(c, r)`` is ``(2c, 2r)``
  and ``se`` is ``(2c + 1, 2r + 1)``. Lines of five are counted in skydiver
  coordinates, so a line may run across two or three tiles.

A turn is one mark (on a placed tile, or on a tile added to the formation),
then one optional tile move or a skip. Parachutes carry their player's
colour; tiles belong to nobody once placed (each player adds from a supply
of their own). See the README section for the action vocabulary.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.dice import Dice
from companion.game import (
    Action,
    Event,
    Options,
    Outcome,
    Reason,
    RuleError,
    SetupError,
    View,
    action_type,
    first_player_chosen,
    require,
)

Pos = tuple[int, int]

CORNERS: tuple[str, ...] = ("nw", "ne", "sw", "se")
"""A tile's skydivers in order; corner ``i`` sits at offset ``(i % 2, i // 2)`` in the tile."""

DEFAULT_TILES = 16
DEFAULT_PARACHUTES = 18
LINE = 5

_ORTHOGONAL: tuple[Pos, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL: tuple[Pos, ...] = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_LINE_DIRECTIONS: tuple[Pos, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))  # row, column, both diagonals
_COUNT_WORDS = ("no", "one", "two", "three", "four")


# -- the state ------------------------------------------------------------------------


@dataclass(frozen=True)
class Tile:
    """One placed tile: a number (placement order), where it sits, whose parachute each skydiver wears."""

    id: int
    at: Pos
    marks: tuple[str | None, str | None, str | None, str | None] = (None, None, None, None)

    @property
    def parachutes(self) -> int:
        return sum(1 for m in self.marks if m is not None)


@dataclass(frozen=True)
class QuinqueState:
    """The whole game: the formation, both supplies, whose turn and which step of it."""

    players: tuple[str, str]
    advanced: bool
    tiles: tuple[Tile, ...]
    tiles_left: tuple[int, int]
    parachutes_left: tuple[int, int]
    turn: int = 0  # index into players
    step: str = "mark"  # "mark": the mandatory action is due; "move": the optional move or a skip
    marked_tile: int | None = None  # id of the tile marked this turn
    started: bool = False  # a tile has been added (who goes first is settled)
    winner: str | None = None
    line: tuple[Pos, ...] = ()
    both_lined_up: bool = False
    tied: bool = False

    @property
    def over(self) -> bool:
        return self.winner is not None or self.tied

    @property
    def active(self) -> str:
        return self.players[self.turn]

    def tile_at(self, at: Pos) -> Tile | None:
        for tile in self.tiles:
            if tile.at == at:
                return tile
        return None

    @property
    def occupied(self) -> frozenset[Pos]:
        return frozenset(t.at for t in self.tiles)


# -- geometry ---------------------------------------------------------------------------


def skydiver_at(tile_at: Pos, corner: str) -> Pos:
    """Skydiver coordinates of one corner of the tile at `tile_at`."""
    i = CORNERS.index(corner)
    return (2 * tile_at[0] + i % 2, 2 * tile_at[1] + i // 2)


def skydivers(state: QuinqueState) -> dict[Pos, str]:
    """Every marked skydiver, by skydiver coordinates, with the player whose parachute it wears."""
    found: dict[Pos, str] = {}
    for tile in state.tiles:
        for corner, mark in zip(CORNERS, tile.marks, strict=True):
            if mark is not None:
                found[skydiver_at(tile.at, corner)] = mark
    return found


def line_of_five(state: QuinqueState, player: str) -> tuple[Pos, ...]:
    """Five of `player`'s skydivers in a row, column or diagonal (skydiver coordinates), or ``()``."""
    marks = skydivers(state)
    for x, y in sorted(p for p, who in marks.items() if who == player):
        for dx, dy in _LINE_DIRECTIONS:
            if marks.get((x - dx, y - dy)) == player:
                continue  # not the start of this run
            run = [(x + k * dx, y + k * dy) for k in range(LINE)]
            if all(marks.get(p) == player for p in run):
                return tuple(run)
    return ()


def _neighbours(at: Pos) -> Iterator[Pos]:
    for dc, dr in _ORTHOGONAL:
        yield (at[0] + dc, at[1] + dr)


def _pieces(cells: Iterable[Pos]) -> list[frozenset[Pos]]:
    """The edge-connected pieces of a set of tile positions."""
    left = set(cells)
    pieces: list[frozenset[Pos]] = []
    while left:
        start = left.pop()
        piece = {start}
        todo = [start]
        while todo:
            for n in _neighbours(todo.pop()):
                if n in left:
                    left.remove(n)
                    piece.add(n)
                    todo.append(n)
        pieces.append(frozenset(piece))
    return pieces


def is_one_piece(cells: Iterable[Pos]) -> bool:
    """True when the tile positions form a single formation (edge to edge)."""
    return len(_pieces(cells)) <= 1


def _surrounded(state: QuinqueState, at: Pos) -> bool:
    occupied = state.occupied
    return all(n in occupied for n in _neighbours(at))


def open_spaces(state: QuinqueState) -> tuple[Pos, ...]:
    """Where a new tile may go: any free space touching the formation (the first tile goes at ``(0, 0)``)."""
    occupied = state.occupied
    if not occupied:
        return ((0, 0),)
    return tuple(sorted({n for at in occupied for n in _neighbours(at) if n not in occupied}, key=_row_major))


def _row_major(at: Pos) -> tuple[int, int]:
    return (at[1], at[0])


# -- tile moves -----------------------------------------------------------------------


def _why_tile_stays(state: QuinqueState, tile: Tile) -> str | None:
    """Why `tile` may not move at all this step, or None."""
    if tile.id == state.marked_tile:
        return "That tile was marked this turn, so it stays where it is."
    if _surrounded(state, tile.at):
        return "That tile touches other tiles on all four edges, so it cannot move."
    if len(state.tiles) == 1:
        return "A lone tile has nowhere to go: the formation is that one tile."
    if state.advanced and tile.parachutes == 0:
        return "Under the advanced rules a tile without parachutes does not move."
    return None


def _why_not_this_way(state: QuinqueState, tile: Tile, to: Pos) -> str | None:
    """Why the step from `tile` to `to` breaks the direction/distance rule, or None."""
    dc, dr = to[0] - tile.at[0], to[1] - tile.at[1]
    straight = dc == 0 or dr == 0
    diagonal = abs(dc) == abs(dr)
    if not state.advanced:
        if straight or diagonal:
            return None
        return "A tile moves along its row, its column or a diagonal; that space is on none of them."
    count = tile.parachutes
    words = f"A tile with {_COUNT_WORDS[min(count, 4)]} parachute{'' if count == 1 else 's'}"
    if count == 1:
        return None if abs(dc) + abs(dr) == 1 else f"{words} moves one space along its row or column."
    if count == 2:
        return None if straight else f"{words} moves along its row or column."
    if count == 3:
        return None if diagonal else f"{words} moves along a diagonal."
    return None if straight or diagonal else f"{words} moves along its row, its column or a diagonal."


def _touches_every_piece(to: Pos, pieces: Sequence[frozenset[Pos]]) -> bool:
    around = set(_neighbours(to))
    return all(around & piece for piece in pieces)


def _remaining_pieces(state: QuinqueState, tile: Tile) -> list[frozenset[Pos]]:
    return _pieces(state.occupied - {tile.at})


def destinations(state: QuinqueState, at: Pos) -> tuple[Pos, ...]:
    """Where the tile at `at` may legally move now (empty if none, or if no move is due)."""
    tile = state.tile_at(at)
    if tile is None or state.over or state.step != "move" or _why_tile_stays(state, tile) is not None:
        return ()
    pieces = _remaining_pieces(state, tile)
    occupied = state.occupied
    # Only spaces touching the rest of the formation can keep it one piece, so
    # the search never needs to leave the formation's box plus one row around it.
    rest = occupied - {tile.at}
    cols = [c for c, _ in rest]
    rows = [r for _, r in rest]
    found = [
        (c, r)
        for r in range(min(rows) - 1, max(rows) + 2)
        for c in range(min(cols) - 1, max(cols) + 2)
        if (c, r) not in occupied
        and _why_not_this_way(state, tile, (c, r)) is None
        and _touches_every_piece((c, r), pieces)
    ]
    return tuple(found)


def _why_no_move(state: QuinqueState, tile: Tile) -> str:
    why = _why_tile_stays(state, tile)
    return why or "No free space along that tile's row, column or diagonals keeps the formation in one piece."


def why_tile_stays(state: QuinqueState, at: Pos) -> str | None:
    """Why the tile at `at` cannot move now (a sentence), or None when it has somewhere to go."""
    tile = state.tile_at(at)
    if tile is None:
        return f"There is no tile at {_where(at)}."
    if state.over:
        return "The game is over."
    if state.step != "move":
        return "Tiles move after the mark, in the second part of a turn."
    return None if destinations(state, at) else _why_no_move(state, tile)


def movable_tiles(state: QuinqueState) -> tuple[Pos, ...]:
    """Positions of the tiles that have at least one legal destination now."""
    return tuple(t.at for t in state.tiles if destinations(state, t.at))


# -- reading actions --------------------------------------------------------------------


def _player(state: QuinqueState, action: Action, key: str = "player") -> str:
    name = action.get(key)
    require(isinstance(name, str) and name in state.players, f'"{key}" must be one of {_both(state.players)}.')
    assert isinstance(name, str)
    return name


def _position(action: Action, key: str) -> Pos:
    value = action.get(key)
    ok = (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )
    require(ok, f'"{key}" must be a tile position: two whole numbers [column, row], for example [0, 1].')
    assert isinstance(value, list | tuple)
    return (value[0], value[1])


def _corner(action: Action) -> str:
    corner = action.get("skydiver")
    require(
        isinstance(corner, str) and corner in CORNERS,
        '"skydiver" must name a corner of the tile: "nw", "ne", "sw" or "se".',
    )
    assert isinstance(corner, str)
    return corner


def _both(names: Sequence[str]) -> str:
    return " or ".join(names)


def _where(at: Pos) -> str:
    return f"[{at[0]}, {at[1]}]"


def _on_turn(state: QuinqueState, action: Action) -> str:
    require(not state.over, "The game is over; undo to go back, or start a new game.")
    player = _player(state, action)
    require(player == state.active, f"It is {state.active}'s turn, not {player}'s.")
    return player


# -- the rules object ---------------------------------------------------------------------


class QuinqueRules:
    """The rules of Quinque, as the `companion.game.Rules` contract asks."""

    name = "quinque"
    title = "Quinque"
    min_players = 2
    max_players = 2

    def setup(self, options: Options) -> QuinqueState:
        names = options.names
        if len(names) != 2:
            raise SetupError(f"Quinque is for exactly 2 players; {len(names)} are seated.")
        settings = options.settings
        advanced = settings.get("advanced", False)
        if not isinstance(advanced, bool):
            raise SetupError('The setting "advanced" must be true or false.')
        tiles = _count_setting(settings, "tiles", DEFAULT_TILES)
        parachutes = _count_setting(settings, "parachutes", DEFAULT_PARACHUTES)
        if parachutes > 2 * tiles:
            # With more parachutes than twice the tiles, a player could be left with
            # a parachute, no tile to add and no free skydiver to mark.
            raise SetupError(
                f'The setting "parachutes" ({parachutes}) may be at most twice "tiles" ({tiles}), '
                "so that every parachute always has a skydiver to go to."
            )
        return QuinqueState(
            players=(names[0], names[1]),
            advanced=advanced,
            tiles=(),
            tiles_left=(tiles, tiles),
            parachutes_left=(parachutes, parachutes),
        )

    # -- deciding ---------------------------------------------------------------------

    def decide(self, state: QuinqueState, action: Action, dice: Dice) -> list[Event]:
        kind = action_type(action)
        handler = {
            "choose_first": self._choose_first,
            "mark": self._mark,
            "add": self._add,
            "move": self._move,
            "skip": self._skip,
        }.get(kind)
        if handler is None:
            raise RuleError(f'Quinque has no action "{kind}"; the actions are mark, add, move and skip.')
        return handler(state, action)

    def _choose_first(self, state: QuinqueState, action: Action) -> list[Event]:
        require(not state.started, "Who goes first can only be chosen before the first tile is placed.")
        return [first_player_chosen(action, state.players)]

    def _mark(self, state: QuinqueState, action: Action) -> list[Event]:
        player = _on_turn(state, action)
        self._mark_is_due(state, player)
        at = _position(action, "tile")
        corner = _corner(action)
        tile = state.tile_at(at)
        if tile is None:
            hint = " To put a new tile there, use add." if at in open_spaces(state) else ""
            raise RuleError(f"There is no tile at {_where(at)}.{hint}")
        owner = tile.marks[CORNERS.index(corner)]
        require(owner is None, f"That skydiver already wears {owner}'s parachute.")
        marked = {"type": "skydiver_marked", "player": player, "tile": list(at), "skydiver": corner}
        return [marked, *self._after_mark(state, marked)]

    def _add(self, state: QuinqueState, action: Action) -> list[Event]:
        player = _on_turn(state, action)
        self._mark_is_due(state, player)
        at = _position(action, "tile")
        corner = _corner(action)
        seat = state.players.index(player)
        require(state.tiles_left[seat] > 0, f"{player} has no tiles left to add; mark a skydiver on the formation.")
        require(state.tile_at(at) is None, f"There is already a tile at {_where(at)}; to mark it, use mark.")
        require(
            at in open_spaces(state),
            "The first tile goes at [0, 0]."
            if not state.tiles
            else f"A new tile must touch the formation edge to edge; {_where(at)} does not.",
        )
        added = {"type": "tile_added", "player": player, "tile": list(at)}
        marked = {"type": "skydiver_marked", "player": player, "tile": list(at), "skydiver": corner}
        return [added, marked, *self._after_mark(self.evolve(state, added), marked)]

    @staticmethod
    def _mark_is_due(state: QuinqueState, player: str) -> None:
        require(
            state.step == "mark",
            f"{player} has marked a skydiver this turn already; move a tile or skip.",
        )
        seat = state.players.index(player)
        # Turns alternate and each uses one parachute, so this only shows with odd settings.
        require(state.parachutes_left[seat] > 0, f"{player} has no parachutes left.")

    def _after_mark(self, state: QuinqueState, marked: Event) -> list[Event]:
        after = self.evolve(state, marked)
        return self._lines(after, state.active)

    def _move(self, state: QuinqueState, action: Action) -> list[Event]:
        player = _on_turn(state, action)
        require(state.step == "move", f"{player} must first mark a skydiver (or add a tile); a move comes after.")
        start = _position(action, "from")
        to = _position(action, "to")
        tile = state.tile_at(start)
        require(tile is not None, f"There is no tile at {_where(start)} to move.")
        assert tile is not None
        why = _why_tile_stays(state, tile)
        require(why is None, why or "")
        require(to != start, "The tile is already there; choose another space, or skip.")
        require(state.tile_at(to) is None, f"{_where(to)} is taken by another tile.")
        why = _why_not_this_way(state, tile, to)
        require(why is None, why or "")
        require(
            _touches_every_piece(to, _remaining_pieces(state, tile)),
            "After that move the formation would fall apart; every tile must stay joined edge to edge.",
        )
        moved = {"type": "tile_moved", "player": player, "from": list(start), "to": list(to)}
        after = self.evolve(state, moved)
        won = self._lines(after, player)
        return [moved, *(won or self._end_turn(after, player))]

    def _skip(self, state: QuinqueState, action: Action) -> list[Event]:
        player = _on_turn(state, action)
        require(state.step == "move", f"{player} must mark a skydiver (or add a tile) before the turn can end.")
        skipped = {"type": "move_skipped", "player": player}
        return [skipped, *self._end_turn(state, player)]

    @staticmethod
    def _lines(state: QuinqueState, active: str) -> list[Event]:
        """The win, if a line of five stands after an action; the active player first."""
        other = state.players[1 - state.players.index(active)]
        mine, theirs = line_of_five(state, active), line_of_five(state, other)
        if mine:
            return [{"type": "lined_up", "player": active, "line": [list(p) for p in mine], "both": bool(theirs)}]
        if theirs:
            return [{"type": "lined_up", "player": other, "line": [list(p) for p in theirs], "both": False}]
        return []

    @staticmethod
    def _end_turn(state: QuinqueState, player: str) -> list[Event]:
        if not any(state.parachutes_left):
            return [{"type": "parachutes_exhausted"}]
        nxt = state.players[1 - state.players.index(player)]
        return [{"type": "turn_ended", "player": player, "next": nxt}]

    # -- evolving ---------------------------------------------------------------------

    def evolve(self, state: QuinqueState, event: Event) -> QuinqueState:
        kind = event["type"]
        if kind == "first_player_chosen":
            return replace(state, turn=state.players.index(event["player"]))
        if kind == "tile_added":
            seat = state.players.index(event["player"])
            tile = Tile(id=len(state.tiles), at=_pos(event["tile"]))
            return replace(
                state, tiles=(*state.tiles, tile), tiles_left=_minus_one(state.tiles_left, seat), started=True
            )
        if kind == "skydiver_marked":
            seat = state.players.index(event["player"])
            at = _pos(event["tile"])
            i = CORNERS.index(event["skydiver"])
            tiles = []
            marked_id = None
            for tile in state.tiles:
                if tile.at == at:
                    marks = list(tile.marks)
                    marks[i] = event["player"]
                    tile = replace(tile, marks=(marks[0], marks[1], marks[2], marks[3]))
                    marked_id = tile.id
                tiles.append(tile)
            return replace(
                state,
                tiles=tuple(tiles),
                parachutes_left=_minus_one(state.parachutes_left, seat),
                step="move",
                marked_tile=marked_id,
                started=True,
            )
        if kind == "tile_moved":
            start, to = _pos(event["from"]), _pos(event["to"])
            return replace(state, tiles=tuple(replace(t, at=to) if t.at == start else t for t in state.tiles))
        if kind == "turn_ended":
            return replace(state, turn=state.players.index(event["next"]), step="mark", marked_tile=None)
        if kind == "lined_up":
            return replace(
                state,
                winner=event["player"],
                line=tuple(_pos(p) for p in event["line"]),
                both_lined_up=bool(event.get("both", False)),
            )
        if kind == "parachutes_exhausted":
            return replace(state, tied=True, marked_tile=None)
        return state  # move_skipped and anything unknown change nothing

    # -- views ------------------------------------------------------------------------

    def public_view(self, state: QuinqueState) -> View:
        moving = state.step == "move" and not state.over
        reach = {t.at: destinations(state, t.at) for t in state.tiles} if moving else {}
        return {
            "players": [
                {"name": name, "parachutes_left": state.parachutes_left[i], "tiles_left": state.tiles_left[i]}
                for i, name in enumerate(state.players)
            ],
            "advanced": state.advanced,
            "current": self.current_player(state),
            "step": "over" if state.over else state.step,
            "tiles": [
                {
                    "id": t.id,
                    "at": list(t.at),
                    "skydivers": dict(zip(CORNERS, t.marks, strict=True)),
                    "parachutes": t.parachutes,
                    "marked_this_turn": t.id == state.marked_tile,
                    # During the move step: why this tile cannot move (None if it can).
                    "stays": _why_no_move(state, t) if moving and not reach[t.at] else None,
                }
                for t in state.tiles
            ],
            "open_spaces": [list(p) for p in open_spaces(state)] if self._may_add(state) else [],
            "moves": [{"from": list(at), "to": [list(p) for p in to]} for at, to in reach.items() if to],
            "line": [list(p) for p in state.line],
            "winner": state.winner,
            "both_lined_up": state.both_lined_up,
            "tied": state.tied,
        }

    @staticmethod
    def _may_add(state: QuinqueState) -> bool:
        seat = state.turn
        return (
            not state.over and state.step == "mark" and state.tiles_left[seat] > 0 and state.parachutes_left[seat] > 0
        )

    def private_view(self, state: QuinqueState, player: str) -> View:
        # Quinque has no secrets: everything lies open on the table.
        return self.public_view(state)

    def outcome(self, state: QuinqueState) -> Outcome | None:
        if state.winner is not None:
            detail = f"{state.winner} lined up five skydivers."
            if state.both_lined_up:
                detail = f"Both players lined up five at once; {state.winner}, whose turn it was, wins."
            return Outcome((state.winner,), Reason.FIVE_IN_A_ROW, detail)
        if state.tied:
            return Outcome((), Reason.TIE, "Both players are out of parachutes and nobody has five in a line.")
        return None

    def current_player(self, state: QuinqueState) -> str | None:
        return None if state.over else state.active


def legal_actions(state: QuinqueState) -> list[dict[str, Any]]:
    """Every action the player to act may take now (``choose_first`` left out)."""
    if state.over:
        return []
    player = state.active
    seat = state.turn
    if state.step == "move":
        moves: list[dict[str, Any]] = [{"type": "skip", "player": player}]
        for tile in state.tiles:
            for to in destinations(state, tile.at):
                moves.append({"type": "move", "player": player, "from": list(tile.at), "to": list(to)})
        return moves
    if state.parachutes_left[seat] == 0:
        return []
    marks: list[dict[str, Any]] = [
        {"type": "mark", "player": player, "tile": list(tile.at), "skydiver": corner}
        for tile in state.tiles
        for corner, mark in zip(CORNERS, tile.marks, strict=True)
        if mark is None
    ]
    if state.tiles_left[seat] > 0:
        marks += [
            {"type": "add", "player": player, "tile": list(at), "skydiver": corner}
            for at in open_spaces(state)
            for corner in CORNERS
        ]
    return marks


def _count_setting(settings: Mapping[str, Any], key: str, default: int) -> int:
    value = settings.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SetupError(f'The setting "{key}" must be a whole number of at least 1 (the default is {default}).')
    return value


def _pos(value: Sequence[int]) -> Pos:
    return (int(value[0]), int(value[1]))


def _minus_one(counts: tuple[int, int], seat: int) -> tuple[int, int]:
    return (counts[0] - 1, counts[1]) if seat == 0 else (counts[0], counts[1] - 1)


RULES = QuinqueRules()
