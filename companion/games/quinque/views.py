"""What Quinque shows: the formation as everyone sees it, and the sentences a table reads.

Quinque has no secrets: everything lies open on the table, so a player's
private view is the public one and every event is public as it is.
"""

from __future__ import annotations

from companion.engine import everything_public
from companion.game import View
from companion.games.quinque import board
from companion.games.quinque.board import CORNERS
from companion.games.quinque.rules import QuinqueState, current_player, destinations, may_add, why_no_move

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


def how_tiles_move(advanced: bool) -> str:
    """The move rule in one sentence, for a note beside the formation."""
    if advanced:
        return (
            "Advanced moves: 1 parachute, one space along row or column; 2, along row or column; "
            "3, diagonally; 4, any line. Tiles may pass over tiles."
        )
    return "Moves: along a row, column or diagonal, over other tiles if need be."
