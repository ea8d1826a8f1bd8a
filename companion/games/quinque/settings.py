"""Quinque's settings: the ``[games.quinque]`` table, parsed and checked.

``advanced`` (false: tiles move along any line; true: by the parachutes they
carry), ``tiles`` and ``parachutes`` (each player's supplies, 16 and 18 as
published; at most twice as many parachutes as tiles).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game import SetupError

DEFAULT_TILES = 16
DEFAULT_PARACHUTES = 18

DEFAULTS: Mapping[str, Any] = {"advanced": False, "tiles": DEFAULT_TILES, "parachutes": DEFAULT_PARACHUTES}
"""Quinque's own settings as the config file writes them: what a setting it cannot use falls back to."""


@dataclass(frozen=True)
class QuinqueSettings:
    """How a game of Quinque is played: basic or advanced moves, and each player's supplies."""

    advanced: bool = False
    tiles: int = DEFAULT_TILES
    parachutes: int = DEFAULT_PARACHUTES


def read(raw: Mapping[str, Any]) -> QuinqueSettings:
    """The settings from the config table, defaults filled in; `SetupError` naming a bad one."""
    advanced = raw.get("advanced", False)
    if not isinstance(advanced, bool):
        raise SetupError(f'The Quinque setting "advanced" must be true or false; it is {advanced!r}.')
    tiles = _count(raw, "tiles", DEFAULT_TILES)
    parachutes = _count(raw, "parachutes", DEFAULT_PARACHUTES)
    if parachutes > 2 * tiles:
        # With more parachutes than twice the tiles, a player could be left with
        # a parachute, no tile to add and no free skydiver to mark.
        raise SetupError(
            f'The Quinque setting "parachutes" ({parachutes}) may be at most twice "tiles" ({tiles}), '
            "so that every parachute always has a skydiver to go to."
        )
    return QuinqueSettings(advanced=advanced, tiles=tiles, parachutes=parachutes)


def _count(raw: Mapping[str, Any], key: str, default: int) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SetupError(f'The Quinque setting "{key}" must be a whole number of at least 1; it is {value!r}.')
    return value
