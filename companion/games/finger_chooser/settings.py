"""The finger chooser's settings: it has none, and says so when the config gives it some."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game import SetupError


@dataclass(frozen=True)
class ChooserSettings:
    """Nothing to choose before the fingers go down: teams are picked on the screen, choice by choice."""


def read(raw: Mapping[str, Any]) -> ChooserSettings:
    """The (empty) settings; `SetupError` naming the first setting given, since none is known."""
    unknown = sorted(raw)
    if unknown:
        raise SetupError(f"The finger chooser has no setting called {unknown[0]!r}; it needs none.")
    return ChooserSettings()
