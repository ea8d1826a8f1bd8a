"""What the table sees of Quantum Link: the board with each die's facts, the scores, and what to cover.

Nothing in Quantum Link is secret: a player's private view is the public one,
and every event is shown as it is.
"""

from __future__ import annotations

from typing import Any

from companion.engine import everything_public, told_first, told_left
from companion.game import Event, FirstPlayerChosen, PlayerLeft, UnknownEvent, View
from companion.games.quantum_link import FACTS
from companion.games.quantum_link.rules import (
    CELLS,
    RADIUS,
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


def public_view(state: QuantumLinkState) -> View:
    """The board cell by cell (each die with its friends, and whether it scores, is surrounded or dead),
    the players with their live scores and dice left, whose turn it is, and the result once over."""
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
    live = scores(state)
    result = outcome(state)
    view: View = {
        "game": FACTS.name,
        "radius": RADIUS,
        "players": [
            {
                "name": p,
                "colour": state.colours[i],
                "dice_left": dice_left(state, p),
                "placed": placed(state, p),
                "covered": sum(1 for d in state.board if d is not None and d.player == p and d.covered),
                "score": live[p],
            }
            for i, p in enumerate(state.players)
        ],
        "scores": live,
        "turn": None if state.over else state.players[state.turn],
        "opener": state.players[state.opener],
        "passes": state.passes,
        "cells": cells,
        "last_placed": list(state.last_placed) if state.last_placed else None,
        "just_covered": [list(c) for c in state.just_covered],
        "news": news(state),
        "over": state.over,
        "result": result.to_json() if result else None,
        "rematch": None,
    }
    if result is not None and result.is_tie:
        view["rematch"] = {"opener": state.players[1 - state.opener]}
    return view


def private_view(state: QuantumLinkState, player: str) -> View:
    """The public view and who is looking: nothing in Quantum Link is secret."""
    return {**public_view(state), "you": player}


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
        if die is None:
            continue
        n = friends(state, cell)
        parts.append(f"{die.player}'s {die.face} at {cell_name(cell)} ({n} friendly neighbour{'s' if n != 1 else ''})")
    return "Cover " + _join(parts) + "."


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
