"""Quantum Link's ``[games.quantum-link]`` table: the game takes no settings, and says so."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game import SetupError


@dataclass(frozen=True)
class QuantumLinkSettings:
    """Nothing to choose: the board, the dice and the rules are fixed."""


def read(raw: Mapping[str, Any]) -> QuantumLinkSettings:
    """The settings from the config table; `SetupError` naming the first setting it does not know."""
    unknown = sorted(raw)
    if unknown:
        raise SetupError(f"Quantum Link has no setting {unknown[0]!r}; it takes no settings.")
    return QuantumLinkSettings()
