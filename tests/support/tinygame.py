"""A tiny dice game used only to test the session machinery in isolation.

Players take turns rolling one die and add it to their score; the first to
reach the target wins. Each player also holds a secret word (private view
only), so secrets can be tested without a real game's rules.

The whole game fits in this one module, which serves the engine as its
rules, views and settings at once (a real game splits them into a package).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.codec import optional
from companion.dice import Dice
from companion.engine import Facts, RegisteredGame, everything_public, told_left
from companion.game import Action, Event, Options, Outcome, PlayerLeft, Seat, SetupError, UnknownEvent, View

FACTS = Facts(name="tiny", title="Tiny Dice", min_players=2, max_players=5)
REACHED_TARGET = "highest score"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    type = "roll"
    whose_turn = True
    player: Seat
    note: str = optional("")  # free text: the store's tests use it to make rows of a given size


@dataclass(frozen=True, slots=True)
class Pass(Action):
    type = "pass"
    whose_turn = True
    player: Seat


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    type = "rolled"
    player: str
    value: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    type = "passed"
    player: str


ACTIONS = (Roll, Pass)
EVENTS = (Rolled, Passed)


@dataclass(frozen=True)
class TinyState:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    secrets: tuple[str, ...]
    turn: int = 0
    target: int = 10
    gone: tuple[str, ...] = ()  # left the game


def _after(state: TinyState, index: int) -> int:
    """The next seat after `index` whose player has not left."""
    count = len(state.players)
    return next(i % count for i in range(index + 1, index + count + 1) if state.players[i % count] not in state.gone)


def read(raw: Mapping[str, Any]) -> int:
    """The one setting: the target score."""
    target = raw.get("target", 10)
    if not isinstance(target, int) or target < 1:
        raise SetupError(f"target must be a positive whole number, not {target!r}.")
    return target


def setup(options: Options, target: int) -> TinyState:
    names = options.names
    return TinyState(names, (0,) * len(names), tuple(f"secret-of-{n}" for n in names), 0, target)


def decide(state: TinyState, action: Action, dice: Dice) -> Sequence[Event]:
    match action:
        case Roll(player=player):
            return [Rolled(player, dice.roll(6))]
        case Pass(player=player):
            return [Passed(player)]
    raise AssertionError(f"the engine let through {action!r}")


def evolve(state: TinyState, event: Event) -> TinyState:
    match event:
        case Rolled(player=player, value=value):
            index = state.players.index(player)
            scores = tuple(s + value if i == index else s for i, s in enumerate(state.scores))
            return replace(state, scores=scores, turn=_after(state, index))
        case Passed(player=player):
            return replace(state, turn=_after(state, state.players.index(player)))
    raise UnknownEvent("Tiny Dice", event)


def outcome(state: TinyState) -> Outcome | None:
    for name, score in zip(state.players, state.scores, strict=True):
        if score >= state.target:
            return Outcome((name,), REACHED_TARGET, f"{name} reached {state.target}.")
    return None


def current_player(state: TinyState) -> str | None:
    return None if outcome(state) else state.players[state.turn]


def players_in(state: TinyState) -> tuple[str, ...]:
    return tuple(p for p in state.players if p not in state.gone)


def left(state: TinyState, player: str) -> TinyState:
    state = replace(state, gone=(*state.gone, player))
    return replace(state, turn=_after(state, state.turn)) if state.players[state.turn] == player else state


def legal_actions(state: TinyState, player: str) -> list[Action]:
    return [Roll(player), Pass(player)] if player == current_player(state) else []


def public_view(state: TinyState) -> View:
    return {"scores": dict(zip(state.players, state.scores, strict=True)), "turn": current_player(state)}


def private_view(state: TinyState, player: str) -> View:
    return {**public_view(state), "secret": state.secrets[state.players.index(player)]}


public_event = everything_public  # the secret words are never in an event
revealed_view = public_view  # the secret words stay private even at the end


def tell(event: Event, state: TinyState) -> str:
    match event:
        case Rolled(player=player, value=value):
            return f"{player} rolled {value}."
        case Passed(player=player):
            return f"{player} passed."
        case PlayerLeft(player=player):
            return told_left(event, players_in(state))
    raise UnknownEvent("Tiny Dice", event)

_this = sys.modules[__name__]
GAME = RegisteredGame(FACTS, _this, _this, _this)  # type: ignore[arg-type]


def registered() -> RegisteredGame:
    from companion.games import register

    return register(GAME)
