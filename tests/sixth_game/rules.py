"""Pig's rules: roll, hold, and a secret bet before play."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.dice import Dice
from companion.game import (
    Action,
    Event,
    FirstPlayerChosen,
    Options,
    Outcome,
    Seat,
    UnknownEvent,
    require,
)
from tests.sixth_game.settings import PigSettings

REACHED_TARGET = "reached the target"


@dataclass(frozen=True, slots=True)
class Bet(Action):
    type = "bet"
    private = True  # on whom is secret until the end, so is why a bet was refused
    player: Seat
    on: Seat


@dataclass(frozen=True, slots=True)
class Roll(Action):
    type = "roll"
    whose_turn = True
    player: Seat


@dataclass(frozen=True, slots=True)
class Hold(Action):
    type = "hold"
    whose_turn = True
    player: Seat


@dataclass(frozen=True, slots=True)
class BetPlaced(Event):
    type = "bet_placed"
    begins_play = False  # a private step before play: who starts may still be chosen
    player: str
    on: str


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    type = "rolled"
    player: str
    value: int


@dataclass(frozen=True, slots=True)
class Held(Event):
    type = "held"
    player: str
    banked: int


ACTIONS = (Bet, Roll, Hold)
EVENTS = (BetPlaced, Rolled, Held)


@dataclass(frozen=True)
class PigState:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    bets: tuple[str | None, ...]
    target: int
    turn: int = 0
    running: int = 0  # rolled this turn, not yet banked
    gone: tuple[str, ...] = ()  # left the game

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def after(self, seat: int) -> int:
        """The next seat whose player has not left."""
        count = len(self.players)
        return next(i % count for i in range(seat + 1, seat + count + 1) if self.players[i % count] not in self.gone)


def setup(options: Options, settings: PigSettings) -> PigState:
    count = len(options.players)
    return PigState(options.names, (0,) * count, (None,) * count, settings.target)


def decide(state: PigState, action: Action, dice: Dice) -> Sequence[Event]:
    match action:
        case Bet(player=player, on=on):
            require(state.bets[state.seat(player)] is None, f"{player} has already bet.")
            return [BetPlaced(player, on)]
        case Roll(player=player):
            require(None not in state.bets, "Every player bets before the first roll.")
            return [Rolled(player, dice.roll(6))]
        case Hold(player=player):
            require(state.running > 0, "Roll at least once before you hold.")
            return [Held(player, state.running)]
    raise AssertionError(f"the engine let through {action!r}")


def evolve(state: PigState, event: Event) -> PigState:
    match event:
        case FirstPlayerChosen(player=player):
            return replace(state, turn=state.seat(player))
        case BetPlaced(player=player, on=on):
            bets = list(state.bets)
            bets[state.seat(player)] = on
            return replace(state, bets=tuple(bets))
        case Rolled(value=1):
            return replace(state, running=0, turn=state.after(state.turn))
        case Rolled(value=value):
            return replace(state, running=state.running + value)
        case Held(player=player, banked=banked):
            seat = state.seat(player)
            scores = tuple(s + banked if i == seat else s for i, s in enumerate(state.scores))
            return replace(state, scores=scores, running=0, turn=state.after(seat))
    raise UnknownEvent("Pig", event)


def outcome(state: PigState) -> Outcome | None:
    for name, score in zip(state.players, state.scores, strict=True):
        if score >= state.target:
            return Outcome((name,), REACHED_TARGET, f"{name} reached {state.target}.")
    return None


def current_player(state: PigState) -> str | None:
    return state.players[state.turn]


def players_in(state: PigState) -> tuple[str, ...]:
    return tuple(p for p in state.players if p not in state.gone)


def left(state: PigState, player: str) -> PigState:
    state = replace(state, gone=(*state.gone, player))
    if len(state.gone) == len(state.players) or state.players[state.turn] != player:
        return state
    return replace(state, turn=state.after(state.turn), running=0)


def legal_actions(state: PigState, player: str) -> list[Action]:
    if state.bets[state.seat(player)] is None:
        return [Bet(player, on) for on in state.players]
    if None in state.bets or player != current_player(state):
        return []
    return [Roll(player), Hold(player)] if state.running else [Roll(player)]
