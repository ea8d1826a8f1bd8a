"""What each audience may see of a Quin game, and the sentences the table reads.

`public_view` is built only from public facts: labels, where pieces are,
identities already revealed, the powers used (by kind, never by which piece),
the record of moves. `private_view` adds one player's own secrets and nothing
of the rival's. `public_event` is an event as anyone may read it (a headless
log, `companion play`): what happened, never what a piece secretly is. A test
walks random games to hold all three to that.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from companion import codec
from companion.engine import told_first, told_left
from companion.game import Event, FirstPlayerChosen, GameView, PlayerLeft, TurnEnded, UnknownEvent
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
from companion.games.quin.state import BOARD, OFF, SETUP, ZERO_G, LastFlash, Piece, PieceKey, QuinState, Side

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


@dataclass(frozen=True)
class PieceSeen:
    """One piece as the table sees it: its label, where it is, and its identity only once revealed."""

    label: str
    where: str  # "off" for every piece during private setup: even where a label is going is its owner's business
    revealed: bool
    # Only once revealed: "" (left out of the JSON) while hidden; None for a piece revealed before it was given
    # an identity (the revealed view of a game that ended in its setup).
    identity: str | None = codec.optional("")
    how: str | None = codec.optional()  # only once taken (HOW_*)


@dataclass(frozen=True)
class TakenSeen:
    """A rival's piece face up on a player's Zero-G card: taken, so everything about it is public."""

    owner: str
    label: str
    identity: str | None
    how: str


@dataclass(frozen=True)
class ZeroGSeen:
    """A player's Zero-G card: their own pieces face down (by label), the rival's taken pieces face up."""

    face_down: tuple[str, ...]
    face_up: tuple[TakenSeen, ...]


@dataclass(frozen=True)
class PowersUsed:
    """How often a player used each power: by kind, never by which piece."""

    memory_swaps: int
    time: int
    totem: bool
    void_gravity: int
    reflector: int


@dataclass(frozen=True)
class SideSeen:
    """One player's side as the table sees it."""

    name: str
    colour: str
    ready: bool
    pieces: tuple[PieceSeen, ...]
    zero_g: ZeroGSeen
    powers_used: PowersUsed


@dataclass(frozen=True)
class LastMoveSeen:
    """The last finished turn: whose, and its steps as the table reads them."""

    player: str
    steps: tuple[str, ...]


@dataclass(frozen=True)
class FlashedPiece:
    """One of the two pieces of a flash: both are revealed by it."""

    owner: str
    label: str
    identity: str | None


@dataclass(frozen=True)
class FlashSeen:
    """The most recent flash, all of it public."""

    sentence: str
    result: str
    attacker: FlashedPiece
    defender: FlashedPiece


@dataclass(frozen=True)
class BanSeen:
    """The flash-back ban of this turn: `player`'s `label` may not flash the rival's `against` back."""

    player: str
    label: str
    against: str
    sentence: str


@dataclass(frozen=True, kw_only=True)
class QuinView(GameView):
    """Everything the table may see of a Quin game: no hidden identity, not even inside a sentence."""

    game: str
    phase: str  # "setup", "play" or "over"
    turn: str | None
    turn_number: int
    capture_rule: str
    first: str | None
    players: tuple[SideSeen, ...]
    this_turn: tuple[str, ...]  # the steps of the turn in progress, as the table reads them
    held: tuple[str, ...]  # labels that may not move this turn (a Memory swap's two pieces)
    last_move: LastMoveSeen | None
    last_flash: FlashSeen | None
    flash_back_ban: BanSeen | None


def _public_piece(state: QuinState, piece: Piece) -> PieceSeen:
    # During private setup, even where a label is going is the owner's business.
    return PieceSeen(
        label=piece.label,
        where=OFF if state.phase == SETUP else piece.where,
        revealed=piece.revealed,
        identity=piece.identity if piece.revealed else "",
        how=piece.how if piece.taken else None,
    )


def _flashed(state: QuinState, key: PieceKey) -> FlashedPiece:
    piece = state.piece(*key)
    return FlashedPiece(piece.owner, piece.label, piece.identity)


def _side_seen(state: QuinState, side: Side) -> SideSeen:
    rival = state.rival(side.name)
    pieces = state.pieces_of(side.name)
    return SideSeen(
        name=side.name,
        colour=side.colour,
        ready=side.ready,
        pieces=tuple(_public_piece(state, p) for p in pieces),
        zero_g=ZeroGSeen(
            face_down=tuple(p.label for p in pieces if p.where == ZERO_G and state.phase != SETUP),
            face_up=tuple(TakenSeen(p.owner, p.label, p.identity, p.how) for p in state.pieces_of(rival) if p.taken),
        ),
        powers_used=PowersUsed(
            memory_swaps=side.memory_swaps,
            time=side.times_used,
            totem=side.totem_used,
            void_gravity=side.gravity_casts,
            reflector=side.reflector_uses,
        ),
    )


def _ban(state: QuinState) -> BanSeen | None:
    ban = state.flash_back_ban
    if not ban or state.turn != ban[0][0] or not all(state.piece(*key).where == BOARD for key in ban):
        return None
    (player, label), (rival, against) = ban
    return BanSeen(player, label, against, f"{player}'s {label} may not flash {rival}'s {against} back this turn.")


def public_view(state: QuinState) -> QuinView:
    """Everything the table may see: no hidden identity, not even inside a sentence."""
    flash = state.last_flash
    return QuinView(
        game="quin",
        phase=state.phase,
        turn=state.turn,
        turn_number=state.turn_number,
        capture_rule=state.capture_rule,
        first=state.first,
        players=tuple(_side_seen(state, side) for side in state.sides),
        this_turn=tuple(news(state, step) for step in state.this_turn.steps),
        held=tuple(sorted(set(state.this_turn.held), key=int)),  # in the order kept, the Memory of a swap came first
        last_move=(
            LastMoveSeen(state.last_move[0], tuple(news(state, step) for step in state.last_move[1]))
            if state.last_move
            else None
        ),
        last_flash=(
            FlashSeen(flash.sentence, flash.result, _flashed(state, flash.attacker), _flashed(state, flash.defender))
            if flash
            else None
        ),
        flash_back_ban=_ban(state),
        outcome=outcome(state),  # the engine's end overrides it (a player leaving ends the game too)
    )


def revealed_view(state: QuinState) -> QuinView:
    """The public view with every piece's identity shown: a finished game keeps no secrets."""
    return public_view(replace(state, pieces=tuple(replace(p, revealed=True) for p in state.pieces)))


# -- a player's own view ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OwnPiece:
    """One of the player's own pieces, with its secret identity."""

    label: str
    identity: str | None  # None until assigned
    where: str
    moves: int | None  # its Moves # now (Artificial Lights speed up), None while it has no identity
    revealed: bool
    swaps_left: int | None = codec.optional()  # a Memory's only
    held: bool = codec.optional(False)  # may not move this turn (a Memory swap's), on the player's own turn


@dataclass(frozen=True)
class OwnPowers:
    """The player's powers still to use."""

    memory_swaps_left: Mapping[str, int]  # by the label of each Memory still in the game (read-only)
    time: str  # "ready", "used" or "none"
    totem: str  # "ready" or "used"


@dataclass(frozen=True)
class SetupSeen:
    """The player's private setup while it lasts: the Clone, what is assigned and placed, what is still wrong."""

    clone: str | None  # the Clone face
    clone_from: str | None  # the face it replaced
    unassigned: tuple[str, ...]
    done: bool
    on_board: int
    on_zero_g: int
    needed: Mapping[str, int]  # by kind (read-only)
    assigned: Mapping[str, int]  # by kind (read-only)
    problems: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class QuinOwnView(GameView):
    """`player`'s own secrets (in the shape the player displays expect) plus the public turn facts."""

    game: str
    player: str
    colour: str
    rival: str
    phase: str
    turn: str | None
    pieces: tuple[OwnPiece, ...]
    powers: OwnPowers
    artificial_light_moves: int
    last_flash: str | None  # the last flash's sentence
    setup: SetupSeen | None  # while private setup lasts


@dataclass(frozen=True, kw_only=True)
class NotPlaying(GameView):
    """The own view asked for someone not playing this game: nothing but the sentence saying so."""

    game: str
    player: str
    error: str


def _time_status(state: QuinState, player: str) -> str:
    pieces = state.pieces_of(player)
    if any(p.identity == TIME and p.where == BOARD for p in pieces):
        return "ready"
    return "used" if state.side(player).times_used else "none"


def _setup_seen(state: QuinState, player: str) -> SetupSeen:
    side = state.side(player)
    pieces = state.pieces_of(player)
    have = state.counts_for(player)
    return SetupSeen(
        clone=side.clone[1] if side.clone else None,
        clone_from=side.clone[0] if side.clone else None,
        unassigned=tuple(p.label for p in pieces if p.identity is None),
        done=side.ready,
        on_board=sum(1 for p in pieces if p.where == BOARD),
        on_zero_g=sum(1 for p in pieces if p.where == ZERO_G),
        needed=MappingProxyType(dict(have)),
        assigned=MappingProxyType({kind: sum(1 for p in pieces if p.identity == kind) for kind in have}),
        problems=tuple(setup_problems(state, player)),
    )


def private_view(state: QuinState, player: str) -> QuinOwnView | NotPlaying:
    """`player`'s own secrets (in the shape the player displays expect) plus the public turn facts."""
    if player not in state.names:
        return NotPlaying(game="quin", player=player, error=f"{player} is not playing this game.")
    side = state.side(player)
    pieces = state.pieces_of(player)
    flash = state.last_flash
    return QuinOwnView(
        game="quin",
        player=player,
        colour=side.colour,
        rival=state.rival(player),
        phase=state.phase,
        turn=state.turn,
        pieces=tuple(
            OwnPiece(
                label=p.label,
                identity=p.identity,
                where=p.where,
                moves=state.moves_of(p),
                revealed=p.revealed,
                swaps_left=p.swaps_left if p.identity == MEMORY else None,
                held=p.label in state.this_turn.held and state.turn == player,
            )
            for p in pieces
        ),
        powers=OwnPowers(
            memory_swaps_left=MappingProxyType(
                {p.label: p.swaps_left for p in pieces if p.identity == MEMORY and p.where in (BOARD, ZERO_G)}
            ),
            time=_time_status(state, player),
            totem="used" if side.totem_used else "ready",
        ),
        artificial_light_moves=ACCELERATED_MOVES if state.accelerated(player) else MOVES[ARTIFICIAL_LIGHT],
        last_flash=flash.sentence if flash else None,
        setup=_setup_seen(state, player) if state.phase == SETUP else None,
    )


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
