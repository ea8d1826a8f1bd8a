"""What each audience may see of a Quin game.

`public_view` is built only from public facts: labels, where pieces are,
identities already revealed, the powers used (by kind, never by which piece),
the record of moves. `private_view` adds one player's own secrets and nothing
of the rival's. A test walks random games to hold both to that.
"""

from __future__ import annotations

from typing import Any

from companion.game import Event, View
from companion.games.quin.pieces import ACCELERATED_MOVES, ARTIFICIAL_LIGHT, MEMORY, MOVES, TIME
from companion.games.quin.rules import setup_problems
from companion.games.quin.state import BOARD, OFF, SETUP, ZERO_G, Piece, PieceKey, QuinState


def _public_piece(state: QuinState, piece: Piece) -> dict[str, Any]:
    # During private setup, even where a label is going is the owner's business.
    entry: dict[str, Any] = {
        "label": piece.label,
        "where": OFF if state.phase == SETUP else piece.where,
        "revealed": piece.revealed,
    }
    if piece.revealed:
        entry["identity"] = piece.identity
    if piece.taken:
        entry["how"] = piece.how
    return entry


def _revealed(state: QuinState, key: PieceKey) -> dict[str, Any]:
    piece = state.piece(*key)
    return {"owner": piece.owner, "label": piece.label, "identity": piece.identity}


def public_view(state: QuinState) -> View:
    """Everything the table may see: no hidden identity, not even inside a sentence."""
    players = []
    for side in state.sides:
        rival = state.rival(side.name)
        pieces = state.pieces_of(side.name)
        players.append(
            {
                "name": side.name,
                "colour": side.colour,
                "ready": side.ready,
                "pieces": [_public_piece(state, p) for p in pieces],
                "zero_g": {
                    "face_down": [p.label for p in pieces if p.where == ZERO_G and state.phase != SETUP],
                    "face_up": [
                        {"owner": p.owner, "label": p.label, "identity": p.identity, "how": p.how}
                        for p in state.pieces_of(rival)
                        if p.taken
                    ],
                },
                "powers_used": {
                    "memory_swaps": side.memory_swaps,
                    "time": side.times_used,
                    "totem": side.totem_used,
                    "void_gravity": side.gravity_casts,
                    "reflector": side.reflector_uses,
                },
            }
        )
    flash = state.last_flash
    ban = state.flash_back_ban
    result = state.result
    return {
        "game": "quin",
        "phase": state.phase,
        "turn": state.turn,
        "turn_number": state.turn_number,
        "capture_rule": state.capture_rule,
        "first": state.first,
        "players": players,
        "this_turn": list(state.this_turn.steps),
        "held": list(state.this_turn.held),
        "last_move": {"player": state.last_move[0], "steps": list(state.last_move[1])} if state.last_move else None,
        "last_flash": (
            {
                "sentence": flash.sentence,
                "result": flash.result,
                "attacker": _revealed(state, flash.attacker),
                "defender": _revealed(state, flash.defender),
            }
            if flash
            else None
        ),
        "flash_back_ban": (
            {
                "player": ban[0][0],
                "label": ban[0][1],
                "against": ban[1][1],
                "sentence": f"{ban[0][0]}'s {ban[0][1]} may not flash {ban[1][0]}'s {ban[1][1]} back this turn.",
            }
            if ban and state.turn == ban[0][0] and all(state.piece(*key).where == BOARD for key in ban)
            else None
        ),
        "outcome": {"winner": result.winner, "reason": result.reason, "detail": result.detail} if result else None,
    }


def _time_status(state: QuinState, player: str) -> str:
    pieces = state.pieces_of(player)
    if any(p.identity == TIME and p.where == BOARD for p in pieces):
        return "ready"
    return "used" if state.side(player).times_used else "none"


def private_view(state: QuinState, player: str) -> View:
    """`player`'s own secrets (in the shape the player displays expect) plus the public turn facts."""
    if player not in state.names:
        return {"game": "quin", "player": player, "error": f"{player} is not playing this game."}
    side = state.side(player)
    pieces = state.pieces_of(player)
    al_moves = ACCELERATED_MOVES if state.accelerated(player) else MOVES[ARTIFICIAL_LIGHT]
    setup: dict[str, Any] | None = None
    if state.phase == SETUP:
        have = state.counts_for(player)
        setup = {
            "clone": side.clone[1] if side.clone else None,
            "clone_from": side.clone[0] if side.clone else None,
            "unassigned": [p.label for p in pieces if p.identity is None],
            "done": side.ready,
            "on_board": sum(1 for p in pieces if p.where == BOARD),
            "on_zero_g": sum(1 for p in pieces if p.where == ZERO_G),
            "needed": have,
            "assigned": {kind: sum(1 for p in pieces if p.identity == kind) for kind in have},
            "problems": setup_problems(state, player),
        }
    flash = state.last_flash
    return {
        "game": "quin",
        "player": player,
        "colour": side.colour,
        "rival": state.rival(player),
        "phase": state.phase,
        "turn": state.turn,
        "pieces": [
            {
                "label": p.label,
                "identity": p.identity,
                "where": p.where,
                "moves": state.moves_of(p),
                "revealed": p.revealed,
                **({"swaps_left": p.swaps_left} if p.identity == MEMORY else {}),
                **({"held": True} if p.label in state.this_turn.held and state.turn == player else {}),
            }
            for p in pieces
        ],
        "powers": {
            "memory_swaps_left": {
                p.label: p.swaps_left for p in pieces if p.identity == MEMORY and p.where in (BOARD, ZERO_G)
            },
            "time": _time_status(state, player),
            "totem": "used" if side.totem_used else "ready",
        },
        "artificial_light_moves": al_moves,
        "last_flash": flash.sentence if flash else None,
        "setup": setup,
    }


# Which fields of an event name a hidden identity, or which piece used a power.
_SECRET_FIELDS: dict[str, tuple[str, ...]] = {
    "clone_chosen": ("from", "to"),
    "piece_assigned": ("identity",),
    "memory_swapped": ("memory", "with"),
    "gravity_cast": ("void",),
    "reflected": ("reflector",),
}


def public_event(event: Event) -> Event:
    """`event` as the whole table may read it: what happened, never what a piece secretly is."""
    hidden = _SECRET_FIELDS.get(str(event.get("type")), ())
    public = {key: value for key, value in event.items() if key not in hidden}
    if event.get("type") == "memory_swapped":
        public["labels"] = sorted([event["memory"], event["with"]])  # which one was the Memory stays secret
    return public
