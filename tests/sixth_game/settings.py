"""Pig's one setting: the score to reach."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game import SetupError


@dataclass(frozen=True)
class PigSettings:
    target: int = 30


def read(raw: Mapping[str, Any]) -> PigSettings:
    target = raw.get("target", PigSettings.target)
    if not isinstance(target, int) or isinstance(target, bool) or target < 1:
        raise SetupError(f'The setting "target" must be a whole number of points, 1 or more; it is {target!r}.')
    return PigSettings(target)
