"""A bench-only game: every roll is one event adding a die to a total. It is rules, views and settings at once."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.codec import optional
from companion.dice import Dice
from companion.engine import Facts, RegisteredGame, everything_public
from companion.game import Action, Event, Options, Outcome, UnknownEvent, View


@dataclass(frozen=True, slots=True)
class Roll(Action):
    type = "roll"
    player: str
    note: str = optional("")


@dataclass(frozen=True, slots=True)
class Added(Event):
    type = "added"
    value: int
    note: str = ""


ACTIONS = (Roll,)
EVENTS = (Added,)


def read(raw: Mapping[str, Any]) -> None:
    return None


def setup(options: Options, settings: None) -> tuple[int, int]:
    return (0, 0)


def decide(state: tuple[int, int], action: Action, dice: Dice) -> list[Event]:
    assert isinstance(action, Roll)
    return [Added(dice.roll(6), action.note)]


def evolve(state: tuple[int, int], event: Event) -> tuple[int, int]:
    if isinstance(event, Added):
        return (state[0] + 1, state[1] + event.value)
    raise UnknownEvent("Tally", event)


def outcome(state: tuple[int, int]) -> Outcome | None:
    return None


def current_player(state: tuple[int, int]) -> str | None:
    return None


def legal_actions(state: tuple[int, int], player: str) -> list[Action]:
    return [Roll(player)]


def public_view(state: tuple[int, int]) -> View:
    return {"count": state[0], "total": state[1]}


def private_view(state: tuple[int, int], player: str) -> View:
    return public_view(state)


public_event = everything_public
revealed_view = public_view  # nothing is ever hidden


def tell(event: Event, state: tuple[int, int]) -> str:
    """The table's sentence for one event."""
    return f"Added {event.value}: {state[1]} in all." if isinstance(event, Added) else ""

_this = sys.modules[__name__]
GAME = RegisteredGame(Facts("bench-tally", "Tally", 1, 5), _this, _this, _this)  # type: ignore[arg-type]
