"""Quantum Link: two players bet dice faces on how many friendly dice will surround them.

The board is a hexagon of side 5 (61 cells) in axial coordinates ``[q, r]``
with the centre at ``[0, 0]``; a cell is on the board when ``q``, ``r`` and
``-q-r`` all lie in -4..4. Row ``r`` is drawn as one horizontal line of
hexes (pointy tops), rows named A (top, r = -4) to I (bottom), cells in a
row numbered from the left, so ``[0, 0]`` is E5.

What the companion does for the table:

- After every placement, every die that is fully surrounded (each of its six
  sides touches a die or the board's edge) and whose count of friendly
  neighbours is not its face is covered. One ``covered`` event per die tells
  the players which real dice to cover.
- Covered dice stay on the board and still count as neighbours, for both
  colours (RULINGS). A covered die's own neighbours are all in place, so it
  can never score again: covering is for good.
- The live score is the sum of the faces of the uncovered dice whose count of
  friendly neighbours equals their face right now.
- Two passes in a row end the game: every remaining non-scoring die is
  covered, and the higher score wins; a tie is played again with the other
  player opening.
"""

from __future__ import annotations

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
    started: bool = False  # a placement or pass has been made: choose_first is closed
    over: bool = False
    last_placed: Cell | None = None
    just_covered: tuple[Cell, ...] = ()  # covered by the last action, for the screen to point at

    def die(self, cell: Cell) -> Die | None:
        return self.board[INDEX[cell]]


# -- questions about a board -------------------------------------------------------


def friends(state: QuantumLinkState, cell: Cell) -> int:
    """Dice of the same colour next to the die on `cell`, covered ones included."""
    die = state.die(cell)
    if die is None:
        return 0
    return sum(1 for n in NEIGHBOURS[cell] if (other := state.die(n)) is not None and other.player == die.player)


def empty_neighbours(state: QuantumLinkState, cell: Cell) -> int:
    return sum(1 for n in NEIGHBOURS[cell] if state.die(n) is None)


def surrounded(state: QuantumLinkState, cell: Cell) -> bool:
    """Every side of `cell` touches a die or the edge of the board."""
    return empty_neighbours(state, cell) == 0


def scoring(state: QuantumLinkState, cell: Cell) -> bool:
    """An uncovered die with exactly as many friendly neighbours as its face."""
    die = state.die(cell)
    return die is not None and not die.covered and friends(state, cell) == die.face


def placed(state: QuantumLinkState, player: str) -> int:
    return sum(1 for die in state.board if die is not None and die.player == player)


def dice_left(state: QuantumLinkState, player: str) -> int:
    return DICE_PER_PLAYER - placed(state, player)


def score(state: QuantumLinkState, player: str) -> int:
    """The live score: faces of `player`'s dice that match their friendly neighbours now."""
    return sum(
        die.face
        for cell, die in zip(CELLS, state.board, strict=True)
        if die is not None and die.player == player and scoring(state, cell)
    )


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


# -- reading actions --------------------------------------------------------------


def _player(state: QuantumLinkState, action: Action, key: str = "player") -> str:
    name = action.get(key)
    require(isinstance(name, str) and bool(name), f'This action needs "{key}": the name of a player.')
    require(
        name in state.players,
        f"{name} is not playing; the players are {state.players[0]} and {state.players[1]}.",
    )
    return str(name)


def _cell(action: Action) -> Cell:
    value = action.get("cell")
    shape_ok = (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )
    require(shape_ok, 'A placement needs "cell": [q, r], two whole numbers (the centre is [0, 0]).')
    cell = (int(value[0]), int(value[1]))  # type: ignore[index]
    require(
        on_board(cell),
        f"[{cell[0]}, {cell[1]}] is off the board: q, r and -q-r must each lie between -{RADIUS} and {RADIUS}.",
    )
    return cell


def _face(action: Action) -> int:
    value = action.get("face")
    require(
        isinstance(value, int) and not isinstance(value, bool) and value in FACES,
        f"A die shows 1 to 6; {value!r} is not a face." if "face" in action else 'A placement needs "face": 1 to 6.',
    )
    return int(value)  # type: ignore[arg-type]


def _require_turn(state: QuantumLinkState, player: str) -> None:
    require(not state.over, "The game is over; start a new one to play again.")
    due = state.players[state.turn]
    require(player == due, f"It is {due}'s turn, not {player}'s.")


# -- the rules --------------------------------------------------------------------


class QuantumLinkRules:
    """Quantum Link for exactly two players."""

    name = "quantum-link"
    title = "Quantum Link"
    min_players = 2
    max_players = 2

    def setup(self, options: Options) -> QuantumLinkState:
        if len(options.players) != 2:
            raise SetupError(f"Quantum Link is for exactly 2 players; {len(options.players)} are seated.")
        unknown = sorted(set(options.settings))
        if unknown:
            raise SetupError(f"Quantum Link has no setting {unknown[0]!r}; it takes no settings.")
        names = options.names
        return QuantumLinkState(
            players=(names[0], names[1]),
            colours=(options.players[0].colour, options.players[1].colour),
            board=(None,) * len(CELLS),
        )

    def decide(self, state: QuantumLinkState, action: Action, dice: Dice) -> list[Event]:
        kind = action_type(action)
        if kind == "choose_first":
            return self._choose_first(state, action)
        if kind == "place":
            return self._place(state, action)
        if kind == "pass":
            return self._pass(state, action)
        raise RuleError(
            f'Quantum Link has no action "{kind}"; the actions are "place", "pass" and, before the first move, '
            '"choose_first".'
        )

    def _choose_first(self, state: QuantumLinkState, action: Action) -> list[Event]:
        require(not state.started, "Who opens is settled once the first die is placed or a player passes.")
        return [first_player_chosen(action, state.players)]

    def _place(self, state: QuantumLinkState, action: Action) -> list[Event]:
        player = _player(state, action)
        _require_turn(state, player)
        cell = _cell(action)
        face = _face(action)
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
        event: Event = {"type": "placed", "player": player, "cell": [cell[0], cell[1]], "face": face}
        after = self.evolve(state, event)
        return [event, *(_covered_event(after, c, "surrounded") for c in to_cover(after))]

    def _pass(self, state: QuantumLinkState, action: Action) -> list[Event]:
        player = _player(state, action)
        _require_turn(state, player)
        events: list[Event] = [{"type": "passed", "player": player}]
        if state.passes + 1 < 2:
            return events
        # The second pass in a row: cover every die that does not score, then count.
        events += [_covered_event(state, c, "end") for c in to_cover(state, at_end=True)]
        events.append({"type": "game_ended", "scores": {p: score(state, p) for p in state.players}})
        return events

    def evolve(self, state: QuantumLinkState, event: Event) -> QuantumLinkState:
        kind = event.get("type")
        if kind == "first_player_chosen":
            index = state.players.index(event["player"])
            return replace(state, turn=index, opener=index)
        if kind == "placed":
            cell = (event["cell"][0], event["cell"][1])
            board = list(state.board)
            board[INDEX[cell]] = Die(event["player"], event["face"])
            return replace(
                state,
                board=tuple(board),
                turn=1 - state.players.index(event["player"]),
                passes=0,
                started=True,
                last_placed=cell,
                just_covered=(),
            )
        if kind == "covered":
            cell = (event["cell"][0], event["cell"][1])
            board = list(state.board)
            die = board[INDEX[cell]]
            if die is not None:
                board[INDEX[cell]] = replace(die, covered=True)
            return replace(state, board=tuple(board), just_covered=(*state.just_covered, cell))
        if kind == "passed":
            return replace(
                state,
                turn=1 - state.players.index(event["player"]),
                passes=state.passes + 1,
                started=True,
                last_placed=None,
                just_covered=(),
            )
        if kind == "game_ended":
            return replace(state, over=True)
        return state

    # -- views ------------------------------------------------------------------

    def public_view(self, state: QuantumLinkState) -> View:
        cells = []
        for cell, die in zip(CELLS, state.board, strict=True):
            entry: dict[str, Any] = {"cell": [cell[0], cell[1]], "name": cell_name(cell), "die": None}
            if die is not None:
                entry["die"] = {
                    "player": die.player,
                    "face": die.face,
                    "covered": die.covered,
                    "friends": friends(state, cell),
                    "surrounded": surrounded(state, cell),
                    "scoring": scoring(state, cell),
                    "dead": dead(state, cell),
                }
            cells.append(entry)
        scores = {p: score(state, p) for p in state.players}
        outcome = self.outcome(state)
        view: View = {
            "game": self.name,
            "radius": RADIUS,
            "players": [
                {
                    "name": p,
                    "colour": state.colours[i],
                    "dice_left": dice_left(state, p),
                    "placed": placed(state, p),
                    "covered": sum(1 for d in state.board if d is not None and d.player == p and d.covered),
                    "score": scores[p],
                }
                for i, p in enumerate(state.players)
            ],
            "scores": scores,
            "turn": None if state.over else state.players[state.turn],
            "opener": state.players[state.opener],
            "passes": state.passes,
            "cells": cells,
            "last_placed": list(state.last_placed) if state.last_placed else None,
            "just_covered": [list(c) for c in state.just_covered],
            "news": _news(state),
            "over": state.over,
            "result": outcome.to_json() if outcome else None,
            "rematch": None,
        }
        if outcome is not None and outcome.is_tie:
            view["rematch"] = {"opener": state.players[1 - state.opener]}
        return view

    def private_view(self, state: QuantumLinkState, player: str) -> View:
        # Nothing is secret in Quantum Link: a player sees what the table sees.
        return {**self.public_view(state), "you": player}

    def outcome(self, state: QuantumLinkState) -> Outcome | None:
        if not state.over:
            return None
        a, b = state.players
        sa, sb = score(state, a), score(state, b)
        if sa == sb:
            again = state.players[1 - state.opener]
            return Outcome((), Reason.TIE, f"{a} and {b} both score {sa}: play again with {again} opening.")
        winner, loser = (a, b) if sa > sb else (b, a)
        return Outcome(
            (winner,),
            Reason.SCORE,
            f"{winner} wins {max(sa, sb)} to {min(sa, sb)} against {loser}.",
        )

    def current_player(self, state: QuantumLinkState) -> str | None:
        return None if state.over else state.players[state.turn]


def _covered_event(state: QuantumLinkState, cell: Cell, why: str) -> Event:
    die = state.die(cell)
    assert die is not None  # only dice are ever covered
    return {
        "type": "covered",
        "cell": [cell[0], cell[1]],
        "name": cell_name(cell),
        "player": die.player,
        "face": die.face,
        "friends": friends(state, cell),
        "why": why,
    }


def _news(state: QuantumLinkState) -> str:
    """One sentence telling the table which real dice to cover after the last action."""
    if not state.just_covered:
        return ""
    parts = []
    for cell in state.just_covered:
        die = state.die(cell)
        if die is None:
            continue
        n = friends(state, cell)
        parts.append(f"{die.player}'s {die.face} at {cell_name(cell)} ({n} friendly neighbour{'s' if n != 1 else ''})")
    return "Cover " + _join(parts) + "."


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


RULES = QuantumLinkRules()
