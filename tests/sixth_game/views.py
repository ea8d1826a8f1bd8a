"""What Pig shows: scores for everyone, a player's own bet to them alone."""

from __future__ import annotations

from typing import Any

from companion.codec import to_json
from companion.engine import told_first, told_left
from companion.game import Event, FirstPlayerChosen, PlayerLeft, UnknownEvent, View
from tests.sixth_game.rules import BetPlaced, Held, PigState, Rolled, current_player, outcome, players_in


def public_view(state: PigState) -> View:
    over = outcome(state) is not None
    return {
        "game": "pig",
        "scores": dict(zip(state.players, state.scores, strict=True)),
        "running": state.running,
        "turn": None if over else current_player(state),
        "bets_placed": sum(bet is not None for bet in state.bets),
        "bets": dict(zip(state.players, state.bets, strict=True)) if over else None,
    }


def private_view(state: PigState, player: str) -> View:
    return {**public_view(state), "player": player, "my_bet": state.bets[state.seat(player)]}


def public_event(event: Event) -> dict[str, Any]:
    """A bet is secret until the end: everyone learns that it was placed, not on whom."""
    shown = to_json(event)
    if isinstance(event, BetPlaced):
        shown.pop("on")
    return shown



def revealed_view(state: PigState) -> View:
    """At the end every bet is shown."""
    return {**public_view(state), "bets": dict(zip(state.players, state.bets, strict=True))}


def tell(event: Event, state: PigState) -> str:
    """What the table reads: that a bet was placed, never on whom."""
    match event:
        case BetPlaced(player=player):
            return f"{player} placed a bet."
        case Rolled(player=player, value=1):
            return f"{player} rolled a 1 and loses this turn's points."
        case Rolled(player=player, value=value):
            return f"{player} rolled {value} ({state.running} this turn)."
        case Held(player=player, banked=banked):
            return f"{player} banks {banked}, {state.scores[state.seat(player)]} in all."
        case FirstPlayerChosen():
            return told_first(event)
        case PlayerLeft():
            return told_left(event, players_in(state))
    raise UnknownEvent("Pig", event)
