"""What each audience may see of a Quin game, and the sentences the table reads.

`public_view` is built only from public facts: labels, where pieces are,
identities already revealed, the powers used (by kind, never by which piece),
the record of moves. `private_view` adds one player's own secrets and nothing
of the rival's. `public_event` is an event as anyone may read it (a headless
log, `companion play`): what happened, never what a piece secretly is. A test
walks random games to hold all three to that.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion import codec
from companion.engine import told_first, told_left
from companion.game import Event, FirstPlayerChosen, PlayerLeft, TurnEnded, UnknownEvent, View
from companion.games.quin.pieces import ACCELERATED_MOVES, ARTIFICIAL_LIGHT, MEMORY, MOVES, TIME
from companion.games.quin.rules import (
    WON_BY_CAPTURE,
    BroughtIn,
    CloneChosen,
    FirstSightReached,
    Flashed,
    GameWon,
    GravityCast,
    MemorySwapped,
    Passed,
    PieceAssigned,
    PieceMoved,
    PieceUnassigned,
    PlayStarted,
    Reflected,
    Resurrected,
    SetupFinished,
    TimeUsed,
    join_labels,
    outcome,
    players_in,
    setup_problems,
)
from companion.games.quin.state import BOARD, OFF, SETUP, ZERO_G, LastFlash, Piece, PieceKey, QuinState

# -- the sentences ----------------------------------------------------------------------------------


def _to(space: str | None) -> str:
    return f" to {space}" if space else ""


def news(state: QuinState, step: Event) -> str:
    """The sentence the table reads about one step of a turn ("Ann moved 3 to Iris.").

    It names an identity only where the step itself revealed it (a flash, a
    taken piece coming back, the Light on First Sight), and never which piece
    used a power a player keeps secret (the Memory in a swap, the Void casting
    Gravity, the Reflector).
    """
    match step:
        case PieceMoved(player=player, label=label, start=start, to=to):
            return f"{player} moved {label}{f' from {start}' if start else ''}{_to(to)}."
        case FirstSightReached(player=player, label=label):
            return f"{player} moved {label} (Light) to First Sight."
        case Passed(player=player):
            return f"{player} passed."
        case Flashed(player=player):
            sentence = flash_of(state, step).sentence
            return f"{player} used a Reflector. {sentence}" if step.reflector else sentence
        case MemorySwapped(player=player, memory=memory, other=other):
            return f"{player} made a Memory swap: {join_labels([memory, other])} swapped places."
        case TimeUsed(player=player, time=time, target=target, to=to):
            rival = state.rival(player)
            moved = f"{player}'s {time} (Time) moved {rival}'s {target} back{_to(to)}"
            return f"{moved}, then went to {rival}'s Zero-G card."
        case Resurrected(player=player, label=label, to=to):
            identity = state.piece(player, label).identity  # revealed when it was taken
            return f"{player} used the Resurrection Totem: {label} ({identity}) is back on {to or 'a Gateway'}."
        case BroughtIn(player=player, labels=labels, to=to):
            return f"{player} brought {join_labels(labels)} in{f' on {to}' if to else ''}."
        case GravityCast(player=player, voids=voids, to=to):
            return f"{player} cast Void Gravity: {join_labels(voids)} moved{_to(to)}."
        case Reflected(player=player, piece=piece, to=to):
            return f"{player} used a Reflector: {piece} moved{_to(to)}."
    raise UnknownEvent("Quin", step)


def tell(event: Event, state: QuinState) -> str:
    """The sentence the table reads for any event, in the `state` it led to ("" for a win a flash already told).

    The private setup is told once a player has finished it ("Ann finished their private setup."), never
    its steps, which Clone, identity or place; the steps of a turn as `news` tells them.
    """
    match event:
        case CloneChosen() | PieceAssigned() | PieceUnassigned():
            return ""  # a private setup is one line, when it is finished: its steps are each player's own business
        case SetupFinished(player=player):
            return f"{player} finished their private setup."
        case PlayStarted(player=player):
            return f"Both sides are set up: {player} has the first turn."
        case TurnEnded(next_player=following):
            return f"{following}'s turn."
        case GameWon(reason=reason) if reason == WON_BY_CAPTURE:
            return ""  # the flash's own sentence said who won
        case GameWon(player=player):
            return f"{player} wins!"
        case FirstPlayerChosen():
            return told_first(event)
        case PlayerLeft():
            return told_left(event, players_in(state))
    return news(state, event)


def flash_of(state: QuinState, flashed: Flashed) -> LastFlash:
    """The flash an event tells of, as the state keeps the last one (its `sentence` is what the table reads)."""
    attacker = (flashed.player, flashed.attacker)
    defender = (state.rival(flashed.player), flashed.defender)
    return LastFlash(attacker, defender, flashed.attacker_identity, flashed.defender_identity, flashed.result)


# -- the public view ------------------------------------------------------------------------------


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
    ended = outcome(state)
    return {
        "game": "quin",
        "phase": state.phase,
        "turn": state.turn,
        "turn_number": state.turn_number,
        "capture_rule": state.capture_rule,
        "first": state.first,
        "players": players,
        "this_turn": [news(state, step) for step in state.this_turn.steps],
        "held": sorted(set(state.this_turn.held), key=int),  # in the order kept, the Memory of a swap came first
        "last_move": (
            {"player": state.last_move[0], "steps": [news(state, step) for step in state.last_move[1]]}
            if state.last_move
            else None
        ),
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
        "outcome": ended.to_json() if ended else None,
    }


def revealed_view(state: QuinState) -> View:
    """The public view with every piece's identity shown: a finished game keeps no secrets."""
    return public_view(replace(state, pieces=tuple(replace(p, revealed=True) for p in state.pieces)))


# -- a player's own view ------------------------------------------------------------------------------


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


# -- events as anyone may read them -------------------------------------------------------------------


def public_event(event: Event) -> dict[str, Any]:
    """`event` as the whole table may read it: what happened, never what a piece secretly is.

    Left out: the Clone's faces, an assigned identity, and which piece used a
    power its owner keeps secret. A Memory swap names its two pieces in
    ``"labels"`` (which one was the Memory stays secret); a flash sent by a
    Reflector says ``"reflector": true`` instead of naming it.
    """
    public = codec.to_json(event)
    match event:
        case CloneChosen():
            del public["from"], public["to"]
        case PieceAssigned():
            del public["identity"]
        case MemorySwapped():
            del public["memory"], public["with"]
            public["labels"] = sorted([event.memory, event.other])
        case GravityCast():
            del public["void"]
        case Reflected():
            del public["reflector"]
        case Flashed(reflector=str()):
            public["reflector"] = True
    return public
