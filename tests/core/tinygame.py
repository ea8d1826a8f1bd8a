"""A tiny dice game used only to test the session machinery in isolation.

Players take turns rolling one die and add it to their score; the first to
reach the target wins. Each player also holds a secret word (private view
only), so secrets can be tested without a real game's rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.dice import Dice
from companion.game import Action, Event, Options, Outcome, Reason, RuleError, SetupError, View, action_type, require


@dataclass(frozen=True)
class TinyState:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    secrets: tuple[str, ...]
    turn: int = 0
    target: int = 10


class TinyRules:
    name = "tiny"
    title = "Tiny Dice"
    min_players = 2
    max_players = 5

    def setup(self, options: Options) -> TinyState:
        target = options.settings.get("target", 10)
        if not isinstance(target, int) or target < 1:
            raise SetupError(f"target must be a positive whole number, not {target!r}.")
        names = options.names
        return TinyState(names, (0,) * len(names), tuple(f"secret-of-{n}" for n in names), 0, target)

    def decide(self, state: TinyState, action: Action, dice: Dice) -> Sequence[Event]:
        kind = action_type(action)
        require(self.outcome(state) is None, "The game is over.")
        player = action.get("player")
        require(player in state.players, f"{player!r} is not at the table.")
        require(player == state.players[state.turn], f"It is {state.players[state.turn]}'s turn, not {player}'s.")
        if kind == "roll":
            return [{"type": "rolled", "player": player, "value": dice.roll(6)}]
        if kind == "pass":
            return [{"type": "passed", "player": player}]
        raise RuleError(f"Tiny Dice has no action {kind!r}.")

    def evolve(self, state: TinyState, event: Event) -> TinyState:
        index = state.players.index(event["player"])
        scores = state.scores
        if event["type"] == "rolled":
            scores = tuple(s + event["value"] if i == index else s for i, s in enumerate(scores))
        return replace(state, scores=scores, turn=(index + 1) % len(state.players))

    def public_view(self, state: TinyState) -> View:
        return {"scores": dict(zip(state.players, state.scores, strict=True)), "turn": self.current_player(state)}

    def private_view(self, state: TinyState, player: str) -> View:
        return {**self.public_view(state), "secret": state.secrets[state.players.index(player)]}

    def outcome(self, state: TinyState) -> Outcome | None:
        for name, score in zip(state.players, state.scores, strict=True):
            if score >= state.target:
                return Outcome((name,), Reason.SCORE, f"{name} reached {state.target}.")
        return None

    def current_player(self, state: TinyState) -> str | None:
        return None if self.outcome(state) else state.players[state.turn]


RULES = TinyRules()


def registered() -> Any:
    from companion.games import register

    register(RULES)
    return RULES
