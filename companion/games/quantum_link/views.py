"""What the table sees of Quantum Link: the board with each die's facts, the scores, and what to cover.

Nothing in Quantum Link is secret: a player's private view is the public one,
and every event is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from companion.engine import everything_public, told_first, told_left
from companion.game import Event, FirstPlayerChosen, GameView, Outcome, PlayerLeft, UnknownEvent, addressed
from companion.games.quantum_link import FACTS
from companion.games.quantum_link.rules import (
    CELLS,
    RADIUS,
    Cell,
    Covered,
    GameEnded,
    Passed,
    Placed,
    QuantumLinkState,
    cell_name,
    dead,
    dice_left,
    friends,
    outcome,
    placed,
    players_in,
    scores,
    scoring,
    surrounded,
)

public_event = everything_public


@dataclass(frozen=True)
class DieSeen:
    """A die on the board with its facts: its friendly neighbours, and whether it scores, is surrounded or dead."""

    player: str
    face: int
    covered: bool
    friends: int
    surrounded: bool
    scoring: bool
    dead: bool


@dataclass(frozen=True)
class CellSeen:
    """One hex of the board, by its axial coordinates and its name ("E5"), with its die if it has one."""

    cell: Cell
    name: str
    die: DieSeen | None


@dataclass(frozen=True)
class PlayerSeen:
    """One player: their colour, dice left, dice placed and covered, and live score."""

    name: str
    colour: str
    dice_left: int
    placed: int
    covered: int
    score: int


@dataclass(frozen=True)
class Rematch:
    """After a tie: who opens the game played again (the other player)."""

    opener: str


@dataclass(frozen=True, kw_only=True)
class QuantumLinkView(GameView):
    """The board, the players and whose turn it is. Nothing in Quantum Link is secret."""

    game: str
    radius: int
    players: tuple[PlayerSeen, ...]
    scores: Mapping[str, int]  # live, by name in seat order (read-only)
    turn: str | None
    opener: str
    passes: int
    cells: tuple[CellSeen, ...]
    last_placed: Cell | None
    just_covered: tuple[Cell, ...]
    news: str
    result: Outcome | None  # the rules' own result (a tie offers a `rematch`)
    rematch: Rematch | None


@dataclass(frozen=True, kw_only=True)
class QuantumLinkOwnView(QuantumLinkView):
    """The public view and who is looking."""

    you: str


def public_view(state: QuantumLinkState) -> QuantumLinkView:
    """The board cell by cell (each die with its friends, and whether it scores, is surrounded or dead),
    the players with their live scores and dice left, whose turn it is, and the result once over."""
    cells = []
    for cell, die in zip(CELLS, state.board, strict=True):
        seen = None
        if die is not None:
            seen = DieSeen(
                player=die.player,
                face=die.face,
                covered=die.covered,
                friends=friends(state, cell),
                surrounded=surrounded(state, cell),
                scoring=scoring(state, cell),
                dead=dead(state, cell),
            )
        cells.append(CellSeen((cell[0], cell[1]), cell_name(cell), seen))
    live = scores(state)
    result = outcome(state)
    return QuantumLinkView(
        game=FACTS.name,
        radius=RADIUS,
        players=tuple(
            PlayerSeen(
                name=p,
                colour=state.colours[i],
                dice_left=dice_left(state, p),
                placed=placed(state, p),
                covered=sum(1 for d in state.board if d is not None and d.player == p and d.covered),
                score=live[p],
            )
            for i, p in enumerate(state.players)
        ),
        scores=MappingProxyType(dict(live)),
        turn=None if state.over else state.players[state.turn],
        opener=state.players[state.opener],
        passes=state.passes,
        cells=tuple(cells),
        last_placed=state.last_placed,
        just_covered=state.just_covered,
        news=news(state),
        over=state.over,  # the engine's end overrides it (a player leaving ends the game too)
        result=result,
        rematch=Rematch(state.players[1 - state.opener]) if result is not None and result.is_tie else None,
    )


def private_view(state: QuantumLinkState, player: str) -> QuantumLinkOwnView:
    """The public view and who is looking: nothing in Quantum Link is secret."""
    return addressed(public_view(state), QuantumLinkOwnView, you=player)


revealed_view = public_view  # nothing to reveal at the end


def tell(event: Event, state: QuantumLinkState) -> str:
    """The sentence the table reads for `event` in the `state` it led to."""
    match event:
        case Placed(player=player, cell=cell, face=face):
            return f"{player} placed a {face} at {cell_name(cell)}."
        case Covered(name=name, player=player, face=face, friends=n):
            return f"Cover {player}'s {face} at {name} ({n} friendly neighbour{'s' if n != 1 else ''})."
        case Passed(player=player):
            return f"{player} passed."
        case GameEnded(scores=final):
            points = ", ".join(f"{p} {final[p]}" for p in state.players if p in final)
            result = outcome(state)
            if result is None or result.is_tie:
                return f"Two passes in a row: the game is over, a tie ({points}). Play again, the other opening."
            return f"Two passes in a row: the game is over ({points}). {', '.join(result.winners)} wins!"
        case FirstPlayerChosen():
            return told_first(event)
        case PlayerLeft():
            return told_left(event, players_in(state))
    raise UnknownEvent("Quantum Link", event)


def news(state: QuantumLinkState) -> str:
    """One sentence telling the table which real dice to cover after the last action ("" if none),
    or that a player left."""
    if state.gone is not None:
        return f"{state.gone} left the game."
    if not state.just_covered:
        return ""
    parts = []
    for cell in state.just_covered:
        die = state.die(cell)
        assert die is not None  # only dice are ever covered, and a covered die stays on the board
        n = friends(state, cell)
        parts.append(f"{die.player}'s {die.face} at {cell_name(cell)} ({n} friendly neighbour{'s' if n != 1 else ''})")
    return "Cover " + _join(parts) + "."


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
