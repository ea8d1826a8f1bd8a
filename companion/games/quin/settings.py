"""Quin's ``[games.quin]`` settings: the capture rule and the four adjustable piece counts.

``capture_rule`` is ``"key"`` (the Key's capture table, the default) or
``"arcade"``; the table ``[games.quin.pieces]`` may set Reflector, Memory,
Peripheral and Void (2, 2, 3 and 2 by default), which must add up to 9.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game import SetupError
from companion.games.quin.pieces import ADJUSTABLE, ADJUSTABLE_SUM, CAPTURE_RULES, DEFAULT_ADJUSTABLE, parse_kind

DEFAULTS: Mapping[str, Any] = {"capture_rule": "key", "pieces": {kind: DEFAULT_ADJUSTABLE[kind] for kind in ADJUSTABLE}}
"""Quin's own settings as the config file writes them: what a setting it cannot use falls back to."""


@dataclass(frozen=True)
class QuinSettings:
    """How this table plays Quin."""

    adjustable: tuple[tuple[str, int], ...] = tuple((kind, DEFAULT_ADJUSTABLE[kind]) for kind in ADJUSTABLE)
    """Reflector, Memory, Peripheral and Void, each with its count per side (they add up to 9)."""
    capture_rule: str = "key"
    """"key" (the Key's capture table) or "arcade" (every piece but Memory and Reflector captures)."""


def read(raw: Mapping[str, Any]) -> QuinSettings:
    """The settings from the config table `raw`, defaults filled in; `SetupError` naming the setting."""
    rule = raw.get("capture_rule", "key")
    if not isinstance(rule, str) or rule.strip().lower() not in CAPTURE_RULES:
        raise SetupError(
            f'The Quin setting "capture_rule" must be "key" (the Key\'s capture table) or "arcade" '
            f"(every piece but Memory and Reflector captures what it flashes); it is {rule!r}."
        )
    given = raw.get("pieces", {})
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise SetupError('The Quin setting "pieces" must map Reflector, Memory, Peripheral and Void to counts.')
    chosen = dict(DEFAULT_ADJUSTABLE)
    for name, value in given.items():
        kind = parse_kind(name)
        if kind not in ADJUSTABLE:
            raise SetupError(
                'The Quin setting "pieces" may set only Reflector, Memory, Peripheral and Void; '
                f"{name!r} is not one of them."
            )
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise SetupError(
                f'The Quin setting "pieces" needs a whole number of {kind} pieces, 0 or more; it is {value!r}.'
            )
        chosen[kind] = value
    total = sum(chosen.values())
    if total != ADJUSTABLE_SUM:
        listed = ", ".join(f"{k} {chosen[k]}" for k in ADJUSTABLE)
        raise SetupError(
            f'The Quin setting "pieces" must add up to {ADJUSTABLE_SUM} so each side has 17 pieces; '
            f"{listed} add up to {total}."
        )
    return QuinSettings(tuple((k, chosen[k]) for k in ADJUSTABLE), rule.strip().lower())
