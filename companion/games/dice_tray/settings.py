"""The dice tray's settings: the ``[games.dice-tray]`` table, parsed and checked.

``dice``: the set a new tray starts with, each die written ``"d6"`` or as a list of its faces
(``dice = ["d6", "d6", ["Sun", "Moon", "Star"]]``); two d6 unless the config says otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game import RuleError, SetupError
from companion.games.dice_tray.kinds import D6, Die, read_dice

DEFAULTS: Mapping[str, Any] = {"dice": ["d6", "d6"]}
"""The tray's own settings as the config file writes them: what a setting it cannot use falls back to."""


@dataclass(frozen=True)
class TraySettings:
    """What a new tray starts with."""

    dice: tuple[Die, ...] = (D6, D6)


def read(raw: Mapping[str, Any]) -> TraySettings:
    """The settings, defaults filled in; `SetupError` naming a bad one."""
    unknown = sorted(key for key in raw if key not in DEFAULTS)
    if unknown:
        raise SetupError(f'The dice tray has no setting called {unknown[0]!r}; its one setting is "dice".')
    specs = raw.get("dice", DEFAULTS["dice"])
    if not isinstance(specs, list | tuple):
        raise SetupError(f'The dice tray setting "dice" must be a list of dice, such as ["d6", "d6"]; it is {specs!r}.')
    try:
        return TraySettings(read_dice(specs))
    except RuleError as wrong:
        raise SetupError(f'The dice tray setting "dice": {wrong}') from None
