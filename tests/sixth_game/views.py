"""What Pig shows: scores for everyone, a player's own bet to them alone."""

from __future__ import annotations

from typing import Any

from companion.codec import to_json
from companion.game import Event, View
from tests.sixth_game.rules import BetPlaced, PigState, current_player, outcome


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

