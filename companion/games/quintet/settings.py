"""Quintet's settings: it has none, and says so when the config gives it some."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game import SetupError


@dataclass(frozen=True)
class QuintetSettings:
    """Nothing to choose: the rules fix the dice, the tokens and the circle."""


def read(raw: Mapping[str, Any]) -> QuintetSettings:
    """The (empty) settings; `SetupError` naming the first setting given, since none is known."""
    unknown = sorted(raw)
    if unknown:
        raise SetupError(f"Quintet has no setting called {unknown[0]!r}; it needs none.")
    return QuintetSettings()
