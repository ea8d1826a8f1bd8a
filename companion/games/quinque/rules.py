"""Quinque's rules: what a player may do, what it causes, and how the game ends.

A turn is a mandatory first action, a mark (a free skydiver on a placed tile,
or on a tile added to the formation: `Mark`, `Add`) or a tile move (`Move`),
then one optional tile move or a `Skip`: "First action (mandatory): you must
either mark a skydiver or move a tile." Parachutes carry their player's colour; tiles belong to nobody once
placed (each player adds from a supply of their own). Lines are checked after
every mark and every move; the game is tied when both players are out of
parachutes at the end of a turn. The geometry lives in `board`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Literal

from companion.codec import key
from companion.dice import Dice
from companion.game import (
    LEFT,
    TIE,
    Action,
    Event,
    FirstPlayerChosen,
    Options,
    Outcome,
    RuleError,
    Seat,
    TurnEnded,
    UnknownEvent,
    require,
)
from companion.games.quinque import board
from companion.games.quinque.board import CORNERS, Corner, Pos, Tile, where
from companion.games.quinque.settings import QuinqueSettings


class Ending(StrEnum):
    """Quinque's own word for a win (`Outcome.reason`; a tie is `companion.game.TIE`)."""

    FIVE_IN_A_ROW = "five in a row"


FIVE_IN_A_ROW = Ending.FIVE_IN_A_ROW
"""The `Outcome.reason` of a win (a tie is `companion.game.TIE`)."""

Step = Literal["mark", "move"]
"""The part of a turn: the mandatory first action (a mark or a move) is due, or the optional move (or a skip)."""

_COUNT_WORDS = ("no", "one", "two", "three", "four")


# -- the state ------------------------------------------------------------------------


@dataclass(frozen=True)
class QuinqueState:
    """The whole game: the formation, both supplies, whose turn and which part of it."""

    players: tuple[str, str]
    advanced: bool
    tiles: tuple[Tile, ...]
    tiles_left: tuple[int, int]
    parachutes_left: tuple[int, int]
    turn: int = 0  # index into players
    step: Step = "mark"
    marked_tile: int | None = None  # id of the tile marked this turn
    winner: str | None = None
    line: tuple[Pos, ...] = ()
    both_lined_up: bool = False
    tied: bool = False
    gone: str | None = None  # the player who left (the other wins)

    @property
    def over(self) -> bool:
        return self.winner is not None or self.tied

    @property
    def active(self) -> str:
        """The player whose turn it is (also once the game is over: whose turn it was)."""
        return self.players[self.turn]

    def tile_at(self, at: Pos) -> Tile | None:
        for tile in self.tiles:
            if tile.at == at:
                return tile
        return None

    @property
    def occupied(self) -> frozenset[Pos]:
        return frozenset(t.at for t in self.tiles)

    def other(self, player: str) -> str:
        """The player who is not `player`."""
        return self.players[1 - self.players.index(player)]


# -- the vocabulary: actions ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mark(Action):
    """Put the player's parachute on a free skydiver of a placed tile."""

    type = "mark"
    whose_turn = True
    player: Seat
    tile: Pos
    skydiver: Corner


@dataclass(frozen=True, slots=True)
class Add(Action):
    """Add a tile from the player's supply, edge to edge with the formation, and mark one of its skydivers."""

    type = "add"
    whose_turn = True
    player: Seat
    tile: Pos
    skydiver: Corner


# Named at every call: "from" is Python's word, so the field is `start`.
@dataclass(frozen=True, kw_only=True, slots=True)
class Move(Action):
    """Move the tile at `start` to the free space `to`: a turn's first action (instead of a mark) or its second."""

    type = "move"
    whose_turn = True
    player: Seat
    start: Pos = key("from")
    to: Pos


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """End the turn without moving a tile."""

    type = "skip"
    whose_turn = True
    player: Seat


# -- the vocabulary: events ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TileAdded(Event):
    """A tile from `player`'s supply now lies at `tile` (its skydiver is marked by the next event)."""

    type = "tile_added"
    player: str
    tile: Pos


@dataclass(frozen=True, slots=True)
class SkydiverMarked(Event):
    """A skydiver wears `player`'s parachute."""

    type = "skydiver_marked"
    player: str
    tile: Pos
    skydiver: Corner


@dataclass(frozen=True, kw_only=True, slots=True)  # as `Move`
class TileMoved(Event):
    """The tile at `start` (its parachutes with it) now lies at `to`."""

    type = "tile_moved"
    player: str
    start: Pos = key("from")
    to: Pos


@dataclass(frozen=True, slots=True)
class MoveSkipped(Event):
    """`player` ended the turn without a move."""

    type = "move_skipped"
    player: str


@dataclass(frozen=True, slots=True)
class LinedUp(Event):
    """`player` has five skydivers in a line (`both`: so had the rival, and `player` was the one on turn)."""

    type = "lined_up"
    player: str
    line: tuple[Pos, ...]
    both: bool


@dataclass(frozen=True, slots=True)
class ParachutesExhausted(Event):
    """Both players are out of parachutes at the end of a turn, and nobody lined up five: a tie."""

    type = "parachutes_exhausted"


ACTIONS: tuple[type[Action], ...] = (Mark, Add, Move, Skip)
EVENTS: tuple[type[Event], ...] = (
    TileAdded,
    SkydiverMarked,
    TileMoved,
    MoveSkipped,
    TurnEnded,
    LinedUp,
    ParachutesExhausted,
)


# -- starting ------------------------------------------------------------------------------


def setup(options: Options, settings: QuinqueSettings) -> QuinqueState:
    """An empty table: no tiles yet, both supplies full, the first seated player to mark."""
    names = options.names
    return QuinqueState(
        players=(names[0], names[1]),
        advanced=settings.advanced,
        tiles=(),
        tiles_left=(settings.tiles, settings.tiles),
        parachutes_left=(settings.parachutes, settings.parachutes),
    )


# -- deciding ------------------------------------------------------------------------------


def decide(state: QuinqueState, action: Action, dice: Dice) -> list[Event]:
    """The events `action` causes; `RuleError` with the reason if the rules do not allow it."""
    match action:
        case Mark():
            return _mark(state, action)
        case Add():
            return _add(state, action)
        case Move():
            return _move(state, action)
        case Skip():
            return _skip(state, action)
    raise RuleError(f"Quinque has no action {action.type!r}.")


def _mark(state: QuinqueState, mark: Mark) -> list[Event]:
    _mark_is_due(state, mark.player)
    tile = state.tile_at(mark.tile)
    if tile is None:
        hint = " To put a new tile there, use add." if mark.tile in board.open_spaces(state.occupied) else ""
        raise RuleError(f"There is no tile at {where(mark.tile)}.{hint}")
    owner = tile.marks[CORNERS.index(mark.skydiver)]
    require(owner is None, f"That skydiver already wears {owner}'s parachute.")
    marked = SkydiverMarked(mark.player, mark.tile, mark.skydiver)
    return [marked, *_lines(evolve(state, marked), mark.player)]


def _add(state: QuinqueState, add: Add) -> list[Event]:
    player, at = add.player, add.tile
    _mark_is_due(state, player)
    seat = state.players.index(player)
    require(state.tiles_left[seat] > 0, f"{player} has no tiles left to add; mark a skydiver on the formation.")
    require(state.tile_at(at) is None, f"There is already a tile at {where(at)}; to mark it, use mark.")
    require(
        at in board.open_spaces(state.occupied),
        "The first tile goes at [0, 0]."
        if not state.tiles
        else f"A new tile must touch the formation edge to edge; {where(at)} does not.",
    )
    added = TileAdded(player, at)
    marked = SkydiverMarked(player, at, add.skydiver)
    return [added, marked, *_lines(evolve(evolve(state, added), marked), player)]


def _mark_is_due(state: QuinqueState, player: str) -> None:
    if state.step != "mark":
        done = "marked a skydiver" if state.marked_tile is not None else "moved a tile"
        raise RuleError(f"{player} has {done} this turn already; the second action is a tile move, or skip.")
    # Turns alternate and each uses one parachute, so this only shows with odd settings.
    require(state.parachutes_left[state.players.index(player)] > 0, f"{player} has no parachutes left.")


def _move(state: QuinqueState, move: Move) -> list[Event]:
    player, start, to = move.player, move.start, move.to
    tile = state.tile_at(start)
    if tile is None:
        raise RuleError(f"There is no tile at {where(start)} to move.")
    _refuse_if(_why_tile_stays(state, tile))
    require(to != start, "The tile is already there; choose another space, or skip.")
    require(state.tile_at(to) is None, f"{where(to)} is taken by another tile.")
    _refuse_if(_why_not_this_way(state, tile, to))
    require(
        board.touches_every_piece(to, _rest_of_formation(state, tile)),
        "After that move the formation would fall apart; every tile must stay joined edge to edge.",
    )
    moved = TileMoved(player=player, start=start, to=to)
    after = evolve(state, moved)
    if state.step == "mark":  # the first action: the optional second (a move, or skip) is still to come
        return [moved, *_lines(after, player)]
    return [moved, *(_lines(after, player) or _end_turn(after, player))]


def _skip(state: QuinqueState, skip: Skip) -> list[Event]:
    require(
        state.step == "move" or not _first_actions(state, skip.player),
        f"{skip.player} must first mark a skydiver, add a tile or move a tile; then the turn can end.",
    )
    return [MoveSkipped(skip.player), *_end_turn(state, skip.player)]


def _first_actions(state: QuinqueState, player: str) -> list[Action]:
    """The marks, adds and moves open as a turn's first action (none only when out of parachutes and stuck)."""
    return [a for a in legal_actions(replace(state, step="mark"), player) if not isinstance(a, Skip)]


def _lines(state: QuinqueState, active: str) -> list[Event]:
    """The win, if a line of five stands after an action: the active player's line first."""
    other = state.other(active)
    mine, theirs = board.line_of_five(state.tiles, active), board.line_of_five(state.tiles, other)
    if mine:
        return [LinedUp(active, mine, both=bool(theirs))]
    if theirs:
        return [LinedUp(other, theirs, both=False)]
    return []


def _end_turn(state: QuinqueState, player: str) -> list[Event]:
    if not any(state.parachutes_left):
        return [ParachutesExhausted()]
    return [TurnEnded(player, state.other(player))]


def _refuse_if(why: str | None) -> None:
    if why is not None:
        raise RuleError(why)


# -- evolving --------------------------------------------------------------------------------


def evolve(state: QuinqueState, event: Event) -> QuinqueState:
    """The state after `event`; `UnknownEvent` if Quinque never makes it."""
    match event:
        case FirstPlayerChosen(player=player):
            return replace(state, turn=state.players.index(player))
        case TileAdded(player=player, tile=at):
            seat = state.players.index(player)
            tile = Tile(id=len(state.tiles), at=at)
            return replace(state, tiles=(*state.tiles, tile), tiles_left=_minus_one(state.tiles_left, seat))
        case SkydiverMarked(player=player, tile=at, skydiver=corner):
            marked = state.tile_at(at)
            return replace(
                state,
                tiles=tuple(t.wearing(corner, player) if t.at == at else t for t in state.tiles),
                parachutes_left=_minus_one(state.parachutes_left, state.players.index(player)),
                step="move",
                marked_tile=marked.id if marked is not None else None,
            )
        case TileMoved(start=start, to=to):
            # A move in the "mark" step was the first action; the optional second one follows.
            tiles = tuple(replace(t, at=to) if t.at == start else t for t in state.tiles)
            return replace(state, tiles=tiles, step="move")
        case MoveSkipped():
            return state
        case TurnEnded(next_player=following):
            return replace(state, turn=state.players.index(following), step="mark", marked_tile=None)
        case LinedUp(player=player, line=line, both=both):
            return replace(state, winner=player, line=line, both_lined_up=both)
        case ParachutesExhausted():
            return replace(state, tied=True, marked_tile=None)
        case _:
            raise UnknownEvent("Quinque", event)


def _minus_one(counts: tuple[int, int], seat: int) -> tuple[int, int]:
    return (counts[0] - 1, counts[1]) if seat == 0 else (counts[0], counts[1] - 1)


# -- the end, and whose turn -----------------------------------------------------------------


def outcome(state: QuinqueState) -> Outcome | None:
    """Who won with a line of five, or the tie once both are out of parachutes; None while play goes on."""
    if state.gone is not None:
        return Outcome((state.other(state.gone),), LEFT, f"{state.gone} left the game.")
    if state.winner is not None:
        detail = f"{state.winner} lined up five skydivers."
        if state.both_lined_up:
            detail = f"Both players lined up five at once; {state.winner}, whose turn it was, wins."
        return Outcome((state.winner,), FIVE_IN_A_ROW, detail)
    if state.tied:
        return Outcome((), TIE, "Both players are out of parachutes and nobody has five in a line.")
    return None


def current_player(state: QuinqueState) -> str | None:
    return None if state.over else state.active


# -- what can be done now ----------------------------------------------------------------------


def players_in(state: QuinqueState) -> tuple[str, ...]:
    """Both players, until one leaves."""
    return tuple(p for p in state.players if p != state.gone)


def left(state: QuinqueState, player: str) -> QuinqueState:
    """`player` left: the other wins, and the formation stays as it was."""
    return replace(state, gone=player, winner=state.other(player), marked_tile=None)


def legal_actions(state: QuinqueState, player: str) -> list[Action]:
    """Everything `player` may do now: marks, adds and moves first; then the skip and every legal move.

    (Who starts is the engine's `ChooseFirst`, not listed here.)
    """
    if state.over or player != state.active:
        return []
    moves: list[Action] = []
    for tile in state.tiles:
        moves += [Move(player=player, start=tile.at, to=to) for to in destinations(state, tile.at)]
    if state.step == "move":
        return [Skip(player), *moves]
    if state.parachutes_left[state.turn] == 0:
        # Out of parachutes (the rival is not, or the game would be tied): a move is the only first action,
        # and with none open the turn passes rather than the game sticking.
        return moves or [Skip(player)]
    marks: list[Action] = [
        Mark(player, tile.at, corner)
        for tile in state.tiles
        for corner, mark in zip(CORNERS, tile.marks, strict=True)
        if mark is None
    ]
    if state.tiles_left[state.turn] > 0:
        marks += [Add(player, at, corner) for at in board.open_spaces(state.occupied) for corner in CORNERS]
    return [*marks, *moves]


def may_add(state: QuinqueState) -> bool:
    """Whether the player on turn may add a tile now (a mark is due and both supplies allow it)."""
    seat = state.turn
    return not state.over and state.step == "mark" and state.tiles_left[seat] > 0 and state.parachutes_left[seat] > 0


# -- tile moves -----------------------------------------------------------------------------


def destinations(state: QuinqueState, at: Pos) -> tuple[Pos, ...]:
    """Where the tile at `at` may legally move now (either action of a turn may be a move; empty if none)."""
    tile = state.tile_at(at)
    if tile is None or state.over or _why_tile_stays(state, tile) is not None:
        return ()
    parts = _rest_of_formation(state, tile)
    occupied = state.occupied
    # Only spaces touching the rest of the formation can keep it one piece, so
    # the search never needs to leave the formation's box plus one row around it.
    rest = occupied - {tile.at}
    cols = [c for c, _ in rest]
    rows = [r for _, r in rest]
    return tuple(
        (c, r)
        for r in range(min(rows) - 1, max(rows) + 2)
        for c in range(min(cols) - 1, max(cols) + 2)
        if (c, r) not in occupied
        and _why_not_this_way(state, tile, (c, r)) is None
        and board.touches_every_piece((c, r), parts)
    )


def movable_tiles(state: QuinqueState) -> tuple[Pos, ...]:
    """Positions of the tiles that have at least one legal destination now."""
    return tuple(t.at for t in state.tiles if destinations(state, t.at))


def why_tile_stays(state: QuinqueState, at: Pos) -> str | None:
    """Why the tile at `at` cannot move now (a sentence), or None when it has somewhere to go."""
    tile = state.tile_at(at)
    if tile is None:
        return f"There is no tile at {where(at)}."
    if state.over:
        return "The game is over."
    return None if destinations(state, at) else why_no_move(state, tile)


def why_no_move(state: QuinqueState, tile: Tile) -> str:
    """Why `tile`, which has no destination now, stays where it is."""
    why = _why_tile_stays(state, tile)
    return why or "No free space along that tile's row, column or diagonals keeps the formation in one piece."


def _why_tile_stays(state: QuinqueState, tile: Tile) -> str | None:
    """Why `tile` may not move at all this step, or None."""
    if tile.id == state.marked_tile:
        return "That tile was marked this turn, so it stays where it is."
    if all(n in state.occupied for n in board.neighbours(tile.at)):
        return "That tile touches other tiles on all four edges, so it cannot move."
    if len(state.tiles) == 1:
        return "A lone tile has nowhere to go: the formation is that one tile."
    return None  # every tile comes with a parachute ("add a parachute to one of the new tile's skydivers")


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


def _rest_of_formation(state: QuinqueState, tile: Tile) -> list[frozenset[Pos]]:
    """The pieces the formation falls into while `tile` is lifted."""
    return board.pieces(state.occupied - {tile.at})
