"""Quin with hidden identities: the companion is the referee who alone knows every piece.

Each side has 17 plain pieces labelled "1" to "17" in its player's colour.
Before play each player, in private, picks a Clone and gives every label an
identity and a place (10 on the starting points, 7 on the Zero-G card). In
play the table moves the real pieces on the real board and tells the
companion what happened; the companion referees flashes by the capture table,
keeps the powers' limits, answers "what was the last move?" and checks a claim
that a Light stands on First Sight. The board's geometry stays on the table.

The action vocabulary is in the README section (readme-parts/quin.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.dice import Dice
from companion.game import Action, Event, Options, Outcome, Reason, SetupError, View
from companion.games.quin import pieces as pieces
from companion.games.quin.pieces import (
    ADJUSTABLE,
    ADJUSTABLE_SUM,
    CAPTURE_RULES,
    DEFAULT_ADJUSTABLE,
    LABELS,
    parse_kind,
)
from companion.games.quin.rules import REASON_CAPTURED_LIGHT, decide, evolve
from companion.games.quin.state import Piece, QuinState, Side
from companion.games.quin.views import private_view, public_event, public_view


def read_settings(settings: Mapping[str, Any]) -> tuple[tuple[tuple[str, int], ...], str]:
    """The four adjustable piece counts and the capture rule, or `SetupError` naming the setting."""
    rule = settings.get("capture_rule", "key")
    if not isinstance(rule, str) or rule.strip().lower() not in CAPTURE_RULES:
        raise SetupError(
            f'The setting "capture_rule" must be "key" (the Key\'s capture table) or "arcade" '
            f"(every piece but Memory and Reflector captures what it flashes); it is {rule!r}."
        )
    given = settings.get("pieces", {})
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise SetupError('The setting "pieces" must map Reflector, Memory, Peripheral and Void to counts.')
    chosen = dict(DEFAULT_ADJUSTABLE)
    for key, value in given.items():
        kind = parse_kind(key)
        if kind not in ADJUSTABLE:
            raise SetupError(
                f'The setting "pieces" may set only Reflector, Memory, Peripheral and Void; {key!r} is not one of them.'
            )
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise SetupError(f'The setting "pieces" needs a whole number of {kind} pieces, 0 or more; it is {value!r}.')
        chosen[kind] = value
    total = sum(chosen.values())
    if total != ADJUSTABLE_SUM:
        listed = ", ".join(f"{k} {chosen[k]}" for k in ADJUSTABLE)
        raise SetupError(
            f'The setting "pieces" must add up to {ADJUSTABLE_SUM} so each side has 17 pieces; '
            f"{listed} add up to {total}."
        )
    return tuple((k, chosen[k]) for k in ADJUSTABLE), rule.strip().lower()


class QuinRules:
    """Quin for two players, identities hidden from all but their owner."""

    name = "quin"
    title = "Quin"
    min_players = 2
    max_players = 2

    def setup(self, options: Options) -> QuinState:
        if len(options.players) != 2:
            raise SetupError(f"Quin is for exactly 2 players; {len(options.players)} are seated.")
        adjustable, rule = read_settings(options.settings or {})
        sides = tuple(Side(p.name, p.colour) for p in options.players)
        every = tuple(Piece(side.name, label) for side in sides for label in LABELS)
        return QuinState(sides=(sides[0], sides[1]), pieces=every, adjustable=adjustable, capture_rule=rule)

    def decide(self, state: QuinState, action: Action, dice: Dice) -> list[Event]:
        return decide(state, action, dice)

    def evolve(self, state: QuinState, event: Event) -> QuinState:
        return evolve(state, event)

    def public_view(self, state: QuinState) -> View:
        return public_view(state)

    def private_view(self, state: QuinState, player: str) -> View:
        return private_view(state, player)

    def public_event(self, event: Event) -> Event:
        return public_event(event)

    def outcome(self, state: QuinState) -> Outcome | None:
        result = state.result
        if result is None:
            return None
        reason = Reason.CAPTURED_LIGHT if result.reason == REASON_CAPTURED_LIGHT else Reason.LIGHT_ON_FIRST_SIGHT
        return Outcome((result.winner,), reason, result.detail)

    def current_player(self, state: QuinState) -> str | None:
        return state.turn


RULES = QuinRules()

__all__ = ["RULES", "QuinRules", "QuinState", "pieces", "read_settings"]
