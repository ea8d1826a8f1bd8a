"""Quin's state: both sides' pieces with their hidden identities, and the turn in progress.

The companion does not track the board's geometry (the table's own board does
that); it tracks what the table cannot see or easily forget: each labelled
piece's identity, whether it is on the board, on its owner's Zero-G card or
taken, what has been revealed, and the powers' limits.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.game import Event
from companion.games.quin.pieces import (
    ACCELERATED_MOVES,
    ARTIFICIAL_LIGHT,
    CAPTURE,
    LABELS,
    LIGHT,
    LIGHT_TAKES_LIGHT,
    MEMORY_SWAPS,
    MOVES,
    SHADOW,
    counts,
    flash_sentence,
)

PieceKey = tuple[str, str]
"""A piece named by its owner and label, e.g. ``("Ann", "7")``."""

# Where a piece is.
OFF = "off"  # not placed yet (private setup)
BOARD = "board"
ZERO_G = "zero-g"  # face down on its owner's Zero-G card, waiting to be brought in
CAPTURED = "captured"  # face up on the rival's Zero-G card, taken by a capture
REMOVED = "removed"  # face up on the rival's Zero-G card: destroyed, annihilated, or a Time that was used
TAKEN = (CAPTURED, REMOVED)

# Why a taken piece is on the rival's card.
HOW_CAPTURED = "captured"
HOW_DESTROYED = "destroyed"
HOW_ANNIHILATED = "annihilated"
HOW_USED = "used"  # a Time after its power

SETUP, PLAY, OVER = "setup", "play", "over"


@dataclass(frozen=True)
class Piece:
    """One labelled piece. `identity` is the secret; None until its owner assigns it."""

    owner: str
    label: str
    identity: str | None = None
    where: str = OFF
    revealed: bool = False
    how: str = ""  # why it is taken (HOW_*), "" otherwise
    taken_on_turn: int = 0  # the turn number it was taken on (the Totem's "very last move")
    swaps_left: int = MEMORY_SWAPS  # meaningful for a Memory only
    resurrected: bool = False

    @property
    def key(self) -> PieceKey:
        return (self.owner, self.label)

    @property
    def taken(self) -> bool:
        return self.where in TAKEN


@dataclass(frozen=True)
class Side:
    """One player's side: their setup and the public count of powers used."""

    name: str
    colour: str
    clone: tuple[str, str] | None = None  # (the face removed, the Clone face): secret
    ready: bool = False  # private setup finished
    totem_used: bool = False
    memory_swaps: int = 0
    times_used: int = 0
    gravity_casts: int = 0
    reflector_uses: int = 0


@dataclass(frozen=True)
class TurnSoFar:
    """What has happened in the turn in progress (reset when the turn ends)."""

    swapped: tuple[str, ...] = ()  # labels of Memories that swapped this turn
    held: tuple[str, ...] = ()  # labels that may not move this turn (a swap's two pieces)
    steps: tuple[Event, ...] = ()  # what was done, in order (views.py tells each step without its secrets)
    flash: tuple[PieceKey, PieceKey] | None = None  # (attacker, defender) of this turn's flash


@dataclass(frozen=True)
class LastFlash:
    """The most recent flash: both pieces are revealed, so all of it is public."""

    attacker: PieceKey
    defender: PieceKey
    attacker_identity: str
    defender_identity: str
    result: str

    @property
    def wins(self) -> bool:
        """The flash took the rival's Light."""
        return self.defender_identity == LIGHT and self.result in (LIGHT_TAKES_LIGHT, CAPTURE)

    @property
    def sentence(self) -> str:
        """The one sentence the table reads, e.g. "Ann's 8 (Peripheral) captures Bo's 2 (Shadow)."."""
        return flash_sentence(
            f"{self.attacker[0]}'s {self.attacker[1]} ({self.attacker_identity})",
            f"{self.defender[0]}'s {self.defender[1]} ({self.defender_identity})",
            self.result,
            winner=self.attacker[0] if self.wins else None,
        )


@dataclass(frozen=True)
class Result:
    """How the game ended."""

    winner: str
    reason: str  # "captured_light" or "first_sight"


@dataclass(frozen=True)
class QuinState:
    """The whole game. `pieces` holds 17 per side, seat by seat, in label order."""

    sides: tuple[Side, Side]
    pieces: tuple[Piece, ...]
    adjustable: tuple[tuple[str, int], ...]
    capture_rule: str
    phase: str = SETUP
    first: str | None = None  # chosen by choose_first
    turn: str | None = None
    turn_number: int = 0  # 1 for the first turn of play
    this_turn: TurnSoFar = field(default_factory=TurnSoFar)
    last_move: tuple[str, tuple[Event, ...]] | None = None  # (player, steps) of the last finished turn
    flash_back_ban: tuple[PieceKey, PieceKey] | None = None  # (may not attack, this piece) this turn
    last_flash: LastFlash | None = None
    result: Result | None = None

    # -- looking things up ---------------------------------------------------

    @property
    def names(self) -> tuple[str, str]:
        return (self.sides[0].name, self.sides[1].name)

    def seat(self, player: str) -> int:
        return self.names.index(player)

    def side(self, player: str) -> Side:
        return self.sides[self.seat(player)]

    def rival(self, player: str) -> str:
        return self.names[1 - self.seat(player)]

    def piece(self, owner: str, label: str) -> Piece:
        return self.pieces[self.seat(owner) * len(LABELS) + LABELS.index(label)]

    def pieces_of(self, owner: str) -> tuple[Piece, ...]:
        start = self.seat(owner) * len(LABELS)
        return self.pieces[start : start + len(LABELS)]

    def counts_for(self, player: str) -> dict[str, int]:
        """How many of each identity `player` has, after their Clone."""
        return counts(dict(self.adjustable), self.side(player).clone)

    def accelerated(self, player: str) -> bool:
        """Both of `player`'s Shadows are off the board right now.

        Read from where the Shadows are, not from a flag: a Shadow the Totem brings back is on the
        board, which ends the acceleration, and it starts again once both are taken again
        (RULINGS.md, Quin).
        """
        shadows = [p for p in self.pieces_of(player) if p.identity == SHADOW]
        return self.phase != SETUP and bool(shadows) and all(p.taken for p in shadows)

    def moves_of(self, piece: Piece) -> int | None:
        """The piece's Moves # now (Artificial Lights speed up), None while it has no identity."""
        if piece.identity is None:
            return None
        if piece.identity == ARTIFICIAL_LIGHT and self.accelerated(piece.owner):
            return ACCELERATED_MOVES
        return MOVES[piece.identity]

    # -- changing things (used by evolve only) -----------------------------------

    def with_piece(self, piece: Piece) -> QuinState:
        index = self.seat(piece.owner) * len(LABELS) + LABELS.index(piece.label)
        return replace(self, pieces=(*self.pieces[:index], piece, *self.pieces[index + 1 :]))

    def with_side(self, side: Side) -> QuinState:
        index = self.seat(side.name)
        sides = (side, self.sides[1]) if index == 0 else (self.sides[0], side)
        return replace(self, sides=sides)

    def with_step(self, step: Event) -> QuinState:
        return replace(self, this_turn=replace(self.this_turn, steps=(*self.this_turn.steps, step)))
