"""Quantum Link's board, its vocabulary (actions and events) and its rules.

The board is a hexagon of side 5 (61 cells) in axial coordinates ``(q, r)``
with the centre at ``(0, 0)``; a cell is on the board when ``q``, ``r`` and
``-q-r`` all lie in -4..4. Row ``r`` is drawn as one horizontal line of
hexes (pointy tops), rows named A (top, r = -4) to I (bottom), cells in a
row numbered from the left, so ``(0, 0)`` is E5.

The engine checks whose turn it is, refuses everything once the game is
over, and handles who opens (`FirstPlayerChosen`); what is left here is
Quantum Link's own: where a die may go, which dice get covered, and the count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final, Literal

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
    UnknownEvent,
    require,
)
from companion.games.quantum_link.settings import QuantumLinkSettings

# -- the board ------------------------------------------------------------------------

RADIUS = 4
"""Cells from the centre to the edge: a hexagon of side 5."""

DICE_PER_PLAYER = 30
FACES = range(1, 7)

Cell = tuple[int, int]

# The six neighbours of a cell in axial coordinates, clockwise from the east.
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def on_board(cell: Cell) -> bool:
    """Whether `cell` is one of the 61 cells."""
    q, r = cell
    return max(abs(q), abs(r), abs(q + r)) <= RADIUS


# Every cell, row by row from the top, left to right: the board's index order.
CELLS: tuple[Cell, ...] = tuple(
    (q, r) for r in range(-RADIUS, RADIUS + 1) for q in range(-RADIUS, RADIUS + 1) if on_board((q, r))
)
INDEX: dict[Cell, int] = {cell: i for i, cell in enumerate(CELLS)}


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The cells next to `cell` that are on the board (3 at a corner, 4 on an edge, else 6)."""
    q, r = cell
    return tuple(n for n in ((q + dq, r + dr) for dq, dr in DIRECTIONS) if on_board(n))


NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {cell: neighbours(cell) for cell in CELLS}


def cell_name(cell: Cell) -> str:
    """What players call a cell: row letter (A at the top) and place in the row from the left."""
    q, r = cell
    first_q = max(-RADIUS, -RADIUS - r)
    return f"{'ABCDEFGHI'[r + RADIUS]}{q - first_q + 1}"


# -- how a game ends, and why a die is covered ---------------------------------------------

class Ending(StrEnum):
    """The game's own word for a win (`Outcome.reason`; a tie is `companion.game.TIE`)."""

    HIGHEST_SCORE = "highest score"


HIGHEST_SCORE: Final = Ending.HIGHEST_SCORE
"""The `Outcome.reason` of a game won on points (a tie is `companion.game.TIE`)."""

SURROUNDED: Final = "surrounded"
"""A die covered in play: its last open side was closed, and its friendly neighbours are not its face."""
AT_THE_END: Final = "end"
"""A die covered after the two passes that end the game: it does not score."""
Why = Literal["surrounded", "end"]


# -- the vocabulary ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Put one of `player`'s dice on the empty `cell`, `face` up (fixed for good)."""

    type = "place"
    whose_turn = True
    player: Seat
    cell: Cell
    face: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """`player` places nothing this turn; two passes in a row end the game."""

    type = "pass"
    whose_turn = True
    player: Seat


@dataclass(frozen=True, slots=True)
class Placed(Event):
    """`player`'s die is on `cell` with `face` up."""

    type = "placed"
    player: str
    cell: Cell
    face: int


@dataclass(frozen=True, slots=True)
class Covered(Event):
    """The table covers `player`'s `face` on `cell` (called `name`): it had `friends` friendly neighbours."""

    type = "covered"
    cell: Cell
    name: str
    player: str
    face: int
    friends: int
    why: Why


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """`player` passed."""

    type = "passed"
    player: str


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """Two passes in a row: the final scores, by player in seat order."""

    type = "game_ended"
    scores: Mapping[str, int]


ACTIONS = (Place, Pass)
EVENTS = (Placed, Covered, Passed, GameEnded)


# -- the state --------------------------------------------------------------------------


@dataclass(frozen=True)
class Die:
    """A die on the board: whose, which face, and whether a counter covers it."""

    player: str
    face: int
    covered: bool = False


@dataclass(frozen=True)
class QuantumLinkState:
    """The whole game. `board` holds one entry per cell, in `CELLS` order."""

    players: tuple[str, str]
    colours: tuple[str, str]
    board: tuple[Die | None, ...]
    turn: int = 0  # index into players: who places or passes next
    opener: int = 0  # who opened (a tie is played again with the other opening)
    passes: int = 0  # passes in a row; two end the game
    over: bool = False
    last_placed: Cell | None = None
    just_covered: tuple[Cell, ...] = ()  # covered by the last action, for the screen to point at
    gone: str | None = None  # the player who left (the other wins)

    def die(self, cell: Cell) -> Die | None:
        return self.board[INDEX[cell]]


# -- questions about a board --------------------------------------------------------------


def friends(state: QuantumLinkState, cell: Cell) -> int:
    """Dice of the same colour next to the die on `cell`, covered ones included."""
    die = state.die(cell)
    if die is None:
        return 0
    return sum(1 for n in NEIGHBOURS[cell] if (other := state.die(n)) is not None and other.player == die.player)


def empty_neighbours(state: QuantumLinkState, cell: Cell) -> int:
    """Open sides of `cell`: neighbouring cells with no die yet."""
    return sum(1 for n in NEIGHBOURS[cell] if state.die(n) is None)


def empty_cells(state: QuantumLinkState) -> tuple[Cell, ...]:
    """The cells a die may still go to, in board order."""
    return tuple(cell for cell, die in zip(CELLS, state.board, strict=True) if die is None)


def surrounded(state: QuantumLinkState, cell: Cell) -> bool:
    """Every side of `cell` touches a die or the edge of the board."""
    return empty_neighbours(state, cell) == 0


def scoring(state: QuantumLinkState, cell: Cell) -> bool:
    """An uncovered die with exactly as many friendly neighbours as its face."""
    die = state.die(cell)
    return die is not None and not die.covered and friends(state, cell) == die.face


def placed(state: QuantumLinkState, player: str) -> int:
    """How many of `player`'s dice are on the board, covered or not."""
    return sum(1 for die in state.board if die is not None and die.player == player)


def dice_left(state: QuantumLinkState, player: str) -> int:
    """How many dice `player` still has in hand."""
    return DICE_PER_PLAYER - placed(state, player)


def score(state: QuantumLinkState, player: str) -> int:
    """The live score: faces of `player`'s dice that match their friendly neighbours now."""
    return sum(
        die.face
        for cell, die in zip(CELLS, state.board, strict=True)
        if die is not None and die.player == player and scoring(state, cell)
    )


def scores(state: QuantumLinkState) -> dict[str, int]:
    """Every player's live score, in seat order."""
    return {p: score(state, p) for p in state.players}


def dead(state: QuantumLinkState, cell: Cell) -> bool:
    """The die on `cell` cannot score however the board fills.

    Friendly neighbours never go away, so a die already past its face is dead;
    so is one that could not reach its face even if every empty cell beside it
    got a friendly die (as far as its owner still has dice). Covered dice are dead.
    """
    die = state.die(cell)
    if die is None:
        return False
    if die.covered:
        return True
    now = friends(state, cell)
    reachable = now + min(empty_neighbours(state, cell), dice_left(state, die.player))
    return not now <= die.face <= reachable


def to_cover(state: QuantumLinkState, *, at_end: bool = False) -> tuple[Cell, ...]:
    """Uncovered dice the rules cover now: surrounded and not matching (at the end: any not matching)."""
    return tuple(
        cell
        for cell, die in zip(CELLS, state.board, strict=True)
        if die is not None
        and not die.covered
        and (at_end or surrounded(state, cell))
        and friends(state, cell) != die.face
    )


# -- the rules ----------------------------------------------------------------------------


def setup(options: Options, settings: QuantumLinkSettings) -> QuantumLinkState:
    """An empty board; the first seat opens unless the table chooses otherwise."""
    first, second = options.players
    return QuantumLinkState(
        players=(first.name, second.name),
        colours=(first.colour, second.colour),
        board=(None,) * len(CELLS),
    )


def decide(state: QuantumLinkState, action: Action, dice: Dice) -> list[Event]:
    """The events of a placement or a pass; `RuleError` with a sentence if the board does not allow it."""
    match action:
        case Place():
            return _place(state, action)
        case Pass():
            return _pass(state, action)
        case _:
            raise RuleError(f"Quantum Link has no action {type(action).type!r}.")


def _place(state: QuantumLinkState, action: Place) -> list[Event]:
    cell, face, player = action.cell, action.face, action.player
    require(
        on_board(cell),
        f"[{cell[0]}, {cell[1]}] is off the board: q, r and -q-r must each lie between -{RADIUS} and {RADIUS}.",
    )
    require(face in FACES, f"A die shows 1 to 6; {face!r} is not a face.")
    there = state.die(cell)
    if there is not None:
        raise RuleError(
            f"{cell_name(cell)} already holds {there.player}'s {there.face}"
            f"{' (covered)' if there.covered else ''}; place on an empty cell."
        )
    require(
        dice_left(state, player) > 0,
        f"{player} has placed all {DICE_PER_PLAYER} dice; {player} can only pass now.",
    )
    event = Placed(player, cell, face)
    after = evolve(state, event)  # the cover rule looks at the board with the new die on it
    return [event, *(_covered(after, c, SURROUNDED) for c in to_cover(after))]


def _pass(state: QuantumLinkState, action: Pass) -> list[Event]:
    events: list[Event] = [Passed(action.player)]
    if state.passes + 1 < 2:
        return events
    # The second pass in a row: cover every die that does not score, then count.
    # Covering changes no score (only non-scoring dice are covered), so the count can come first.
    events += [_covered(state, c, AT_THE_END) for c in to_cover(state, at_end=True)]
    events.append(GameEnded(scores(state)))
    return events


def _covered(state: QuantumLinkState, cell: Cell, why: Why) -> Covered:
    die = state.die(cell)
    assert die is not None  # only dice are ever covered
    return Covered(cell, cell_name(cell), die.player, die.face, friends(state, cell), why)


def evolve(state: QuantumLinkState, event: Event) -> QuantumLinkState:
    """The state after `event`; `UnknownEvent` for an event Quantum Link never makes."""
    match event:
        case FirstPlayerChosen(player=player):
            index = state.players.index(player)
            return replace(state, turn=index, opener=index)
        case Placed(player=player, cell=cell, face=face):
            board = list(state.board)
            board[INDEX[cell]] = Die(player, face)
            return replace(
                state,
                board=tuple(board),
                turn=1 - state.players.index(player),
                passes=0,
                last_placed=cell,
                just_covered=(),
            )
        case Covered(cell=cell):
            board = list(state.board)
            die = board[INDEX[cell]]
            assert die is not None  # only dice are ever covered (see `_covered`)
            board[INDEX[cell]] = replace(die, covered=True)
            return replace(state, board=tuple(board), just_covered=(*state.just_covered, cell))
        case Passed(player=player):
            return replace(
                state,
                turn=1 - state.players.index(player),
                passes=state.passes + 1,
                last_placed=None,
                just_covered=(),
            )
        case GameEnded():
            return replace(state, over=True)
        case _:
            raise UnknownEvent("Quantum Link", event)


def outcome(state: QuantumLinkState) -> Outcome | None:
    """After two passes: the higher score wins; equal scores are a tie, played again with the other opener."""
    if not state.over:
        return None
    if state.gone is not None:
        other = state.players[1 - state.players.index(state.gone)]
        return Outcome((other,), LEFT, f"{state.gone} left the game.")
    a, b = state.players
    sa, sb = score(state, a), score(state, b)
    if sa == sb:
        again = state.players[1 - state.opener]
        return Outcome((), TIE, f"{a} and {b} both score {sa}: play again with {again} opening.")
    winner, loser = (a, b) if sa > sb else (b, a)
    return Outcome((winner,), HIGHEST_SCORE, f"{winner} wins {max(sa, sb)} to {min(sa, sb)} against {loser}.")


def current_player(state: QuantumLinkState) -> str | None:
    """Who places or passes next; None once the game is over."""
    return None if state.over else state.players[state.turn]


def players_in(state: QuantumLinkState) -> tuple[str, ...]:
    """Both players, until one leaves."""
    return tuple(p for p in state.players if p != state.gone)


def left(state: QuantumLinkState, player: str) -> QuantumLinkState:
    """`player` left: the game is over and the other wins; the board stays as it was."""
    return replace(state, gone=player, over=True, last_placed=None, just_covered=())


def legal_actions(state: QuantumLinkState, player: str) -> list[Action]:
    """On `player`'s turn: any face on any empty cell (while they have dice), and passing, always."""
    if player != current_player(state):
        return []
    actions: list[Action] = []
    if dice_left(state, player) > 0:
        actions += [Place(player, cell, face) for cell in empty_cells(state) for face in FACES]
    actions.append(Pass(player))
    return actions
