"""What Quinque shows: the formation as everyone sees it, and the sentences a table reads.

Quinque has no secrets: everything lies open on the table, so a player's
private view is the public one and every event is public as it is.
"""

from __future__ import annotations

from companion.engine import everything_public, told_first, told_left
from companion.game import Event, FirstPlayerChosen, PlayerLeft, TurnEnded, UnknownEvent, View
from companion.games.quinque import board
from companion.games.quinque.board import CORNERS, Pos
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


def public_view(state: QuinqueState) -> View:
    """The supplies, the formation, and what may happen next (where a tile may go, where one may be added)."""
    moving = not state.over  # either action of a turn may be a tile move
    reach = {t.at: destinations(state, t.at) for t in state.tiles} if moving else {}
    return {
        "players": [
            {"name": name, "parachutes_left": state.parachutes_left[i], "tiles_left": state.tiles_left[i]}
            for i, name in enumerate(state.players)
        ],
        "advanced": state.advanced,
        "current": current_player(state),
        "step": "over" if state.over else state.step,
        "tiles": [
            {
                "id": t.id,
                "at": list(t.at),
                "skydivers": dict(zip(CORNERS, t.marks, strict=True)),
                "parachutes": t.parachutes,
                "marked_this_turn": t.id == state.marked_tile,
                # While play goes on: why this tile cannot move (None if it can).
                "stays": why_no_move(state, t) if moving and not reach[t.at] else None,
            }
            for t in state.tiles
        ],
        "open_spaces": [list(p) for p in board.open_spaces(state.occupied)] if may_add(state) else [],
        "moves": [{"from": list(at), "to": [list(p) for p in to]} for at, to in reach.items() if to],
        "line": [list(p) for p in state.line],
        "winner": state.winner,
        "both_lined_up": state.both_lined_up,
        "tied": state.tied,
        "gone": state.gone,
        "news": f"{state.gone} left the game." if state.gone else "",
    }


def private_view(state: QuinqueState, player: str) -> View:
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
