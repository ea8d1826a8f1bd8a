"""The score pad's settings: it has none (the game's name and how it is won are chosen at the table)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game import SetupError


@dataclass(frozen=True)
class ScorePadSettings:
    """Nothing to set in the config file: each game's name and "highest wins" or "lowest wins" are its first move."""


def read(raw: Mapping[str, Any]) -> ScorePadSettings:
    """The (empty) settings; `SetupError` naming the first setting given, since none is known."""
    unknown = sorted(raw)
    if unknown:
        raise SetupError(
            f"The score pad has no setting called {unknown[0]!r}; the table names its game and how it is won."
        )
    return ScorePadSettings()
