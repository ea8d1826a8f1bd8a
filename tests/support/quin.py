"""Helpers for the Quin tests: games set up in one line and actions played in a row.

The example layout (companion.games.quin.examples) puts, on each side, these
identities under these labels; tests name pieces by kind through `LABEL`:
1 Light, 2 and 3 Shadows, 4 Time, 5 Reflector, 6 and 7 Memories, 8 Peripheral,
9 and 10 Voids on the board; 11 to 14 Artificial Lights, 15 Time (the Clone),
16 Reflector, 17 Peripheral on the Zero-G card.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.game import Action, Event, Options, Player, RuleError
from companion.games import game
from companion.games.quin.examples import example_setup
from companion.games.quin.pieces import (
    ARTIFICIAL_LIGHT,
    KINDS,
    LIGHT,
    MEMORY,
    PERIPHERAL,
    REFLECTOR,
    SHADOW,
    TIME,
    VOID,
)
from companion.games.quin.state import QuinState

ANN, BO = "Ann", "Bo"
DICE = RandomDice.seeded(0)  # Quin rolls nothing; the contract still hands dice over
GAME = game("quin")  # the engine's entry: its checks (turn, game over, who starts) come with it

LABEL = {
    LIGHT: "1",
    SHADOW: "2",
    TIME: "4",
    REFLECTOR: "5",
    MEMORY: "6",
    PERIPHERAL: "8",
    VOID: "9",
    ARTIFICIAL_LIGHT: "11",
}
"""One label per kind in the example layout (the Artificial Light starts on the Zero-G card)."""


def new_game(**settings: Any) -> QuinState:
    return GAME.setup(Options((Player(ANN, "#e53935"), Player(BO, "#1e88e5")), settings))


def begun(state: QuinState) -> bool:
    """Whether play has begun, as a session knows it from its log: someone has taken a step of a turn."""
    return state.turn_number > 1 or bool(state.this_turn.steps) or state.result is not None


def decide(state: QuinState, action: Action | dict[str, Any]) -> list[Event]:
    """The events of `action` (typed, or its JSON object read as a script line is), through the engine."""
    typed = action if isinstance(action, Action) else GAME.parse_action(action, state.names)
    return list(GAME.decide(state, typed, DICE, begun=begun(state)))


def act(state: QuinState, *actions: Action | dict[str, Any]) -> QuinState:
    """Play `actions` in a row (each must be accepted)."""
    for action in actions:
        for event in decide(state, action):
            state = GAME.evolve(state, event)
    return state


def events_of(state: QuinState, action: Action | dict[str, Any]) -> list[Event]:
    return decide(state, action)


def refused(state: QuinState, action: Action | dict[str, Any], match: str = "") -> str:
    """Assert `action` is refused (matching `match`) and return the sentence."""
    with pytest.raises(RuleError, match=match or None) as info:
        decide(state, action)
    return str(info.value)


def started(*, first: str | None = None, **settings: Any) -> QuinState:
    """Both sides set up with the example layout; play has begun."""
    state = new_game(**settings)
    if first:
        state = act(state, {"type": "choose_first", "player": first, "chosen_by": ANN, "how": "table"})
    return act(state, example_setup(ANN), example_setup(BO))


def pass_(player: str) -> dict[str, Any]:
    return {"type": "pass", "player": player}


def flash(player: str, attacker: str, defender: str, **extra: Any) -> dict[str, Any]:
    return {"type": "flash", "player": player, "attacker": attacker, "defender": defender, **extra}


def bring_in(player: str, *labels: str) -> dict[str, Any]:
    return {"type": "bring_in", "player": player, "labels": list(labels)}


def move(player: str, label: str, **extra: Any) -> dict[str, Any]:
    return {"type": "move", "player": player, "label": label, **extra}


def where(state: QuinState, owner: str, label: str) -> str:
    return state.piece(owner, label).where


_WORDS = {kind: re.compile(rf"(?<!Artificial ){re.escape(kind)}") for kind in KINDS}


def identity_words(text: str, kinds: Iterable[str] = KINDS) -> set[str]:
    """Which identity names occur in `text` ("Light" not counted inside "Artificial Light")."""
    return {kind for kind in kinds if _WORDS[kind].search(text)}


def as_text(view: Any) -> str:
    return json.dumps(view, sort_keys=True)
