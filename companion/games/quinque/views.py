"""What Quinque shows: the formation as everyone sees it, and the sentences a table reads.

Quinque has no secrets: everything lies open on the table, so a player's
private view is the public one and every event is public as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.codec import key
from companion.engine import everything_public, told_first, told_left
from companion.game import Event, FirstPlayerChosen, GameView, PlayerLeft, TurnEnded, UnknownEvent
from companion.games.quinque import board
from companion.games.quinque.board import Corner, Pos
from companion.games.quinque.rules import (
    LinedUp,
    MoveSkipped,
    ParachutesExhausted,
    QuinqueState,
    SkydiverMarked,
    TileAdded,
    TileMoved,
    current_player,
    destinations,
    may_add,
    players_in,
    why_no_move,
)

public_event = everything_public


@dataclass(frozen=True)
class PlayerSeen:
    """One player's supplies."""

    name: str
    parachutes_left: int
    tiles_left: int


@dataclass(frozen=True)
class Skydivers:
    """Whose parachute each of a tile's four skydivers wears (None: nobody's), by corner."""

    nw: str | None
    ne: str | None
    sw: str | None
    se: str | None

    def at(self, corner: Corner) -> str | None:
        """The parachute's owner at `corner`."""
        return getattr(self, corner)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class TileSeen:
    """One tile of the formation."""

    id: int
    at: Pos
    skydivers: Skydivers
    parachutes: int
    marked_this_turn: bool
    stays: str | None  # while play goes on: why this tile cannot move (None if it can)


@dataclass(frozen=True)
class MovesSeen:
    """Where the tile at `start` may move."""

    start: Pos = key("from")
    to: tuple[Pos, ...] = ()


@dataclass(frozen=True, kw_only=True)
class QuinqueView(GameView):
    """The supplies, the formation, and what may happen next. Quinque keeps no secrets: every view is this one."""

    players: tuple[PlayerSeen, ...]
    advanced: bool
    current: str | None
    step: str  # "mark", "move" or "over"
    tiles: tuple[TileSeen, ...]
    open_spaces: tuple[Pos, ...]  # where a tile may be added
    moves: tuple[MovesSeen, ...]
    line: tuple[Pos, ...]  # the winning line's skydivers
    winner: str | None
    both_lined_up: bool
    tied: bool
    gone: str | None
    news: str


def public_view(state: QuinqueState) -> QuinqueView:
    """The supplies, the formation, and what may happen next (where a tile may go, where one may be added)."""
    moving = not state.over  # either action of a turn may be a tile move
    reach = {t.at: destinations(state, t.at) for t in state.tiles} if moving else {}
    return QuinqueView(
        players=tuple(
            PlayerSeen(name, state.parachutes_left[i], state.tiles_left[i]) for i, name in enumerate(state.players)
        ),
        advanced=state.advanced,
        current=current_player(state),
        step="over" if state.over else state.step,
        tiles=tuple(
            TileSeen(
                id=t.id,
                at=t.at,
                skydivers=Skydivers(*t.marks),
                parachutes=t.parachutes,
                marked_this_turn=t.id == state.marked_tile,
                stays=why_no_move(state, t) if moving and not reach[t.at] else None,
            )
            for t in state.tiles
        ),
        open_spaces=tuple(board.open_spaces(state.occupied)) if may_add(state) else (),
        moves=tuple(MovesSeen(at, tuple(to)) for at, to in reach.items() if to),
        line=tuple(state.line),
        winner=state.winner,
        both_lined_up=state.both_lined_up,
        tied=state.tied,
        gone=state.gone,
        news=f"{state.gone} left the game." if state.gone else "",
    )


def private_view(state: QuinqueState, player: str) -> QuinqueView:
    """The public view: Quinque has nothing to hide."""
    return public_view(state)


revealed_view = public_view  # nothing to reveal at the end

_CORNER_WORDS = {"nw": "top left", "ne": "top right", "sw": "bottom left", "se": "bottom right"}


def place(at: Pos) -> str:
    """Where a space is, as the table finds it: from the start (where the first tile was laid), right and down.

    "at the start", "1 right of the start", "2 left and 1 down from the start": the formation has no edge
    to count from, and its first tile may have moved away, but the place where it was laid stays put.
    """
    x, y = at
    steps = [f"{abs(x)} {'right' if x > 0 else 'left'}"] if x else []
    steps += [f"{abs(y)} {'down' if y > 0 else 'up'}"] if y else []
    if not steps:
        return "at the start"
    return f"{steps[0]} of the start" if y == 0 else f"{' and '.join(steps)} from the start"


def tell(event: Event, state: QuinqueState) -> str:
    """The sentence the table reads for `event` in the `state` it led to."""
    match event:
        case TileAdded(player=player, tile=at):
            return f"{player} added a tile {place(at)}."
        case SkydiverMarked(player=player, tile=at, skydiver=corner):
            return f"{player} marked the {_CORNER_WORDS.get(corner, corner)} skydiver of the tile {place(at)}."
        case TileMoved(player=player, start=start, to=to):
            return f"{player} moved the tile {place(start)} to {place(to).removeprefix('at ')}."
        case MoveSkipped(player=player):
            return f"{player} made no tile move."
        case TurnEnded(next_player=following):
            return f"{following}'s turn."
        case LinedUp(player=player, both=both):
            if both:
                return f"Both players lined up five at once; {player}, whose turn it was, wins!"
            return f"{player} lined up five skydivers and wins!"
        case ParachutesExhausted():
            return "Both players are out of parachutes and nobody has five in a line: a tie."
        case FirstPlayerChosen():
            return told_first(event)
        case PlayerLeft():
            return told_left(event, players_in(state))
    raise UnknownEvent("Quinque", event)


def how_tiles_move(advanced: bool) -> str:
    """The move rule in one sentence, for a note beside the formation."""
    if advanced:
        return (
            "Advanced moves: 1 parachute, one space along row or column; 2, along row or column; "
            "3, diagonally; 4, any line. Tiles may pass over tiles."
        )
    return "Moves: along a row, column or diagonal, over other tiles if need be."
