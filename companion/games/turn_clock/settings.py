"""The turn clock's settings: the time, chosen at the start (home's toggle) or in ``[games.turn-clock]``.

``time`` is written as the table says it: ``"total 20m"`` (20 minutes each for
the whole game), ``"total 10m +5s"`` (10 minutes each, 5 seconds added after
each of a player's turns) or ``"turn 60s"`` (a minute for every turn).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from companion.game import SetupError

Mode = Literal["total", "turn"]

DEFAULTS: dict[str, Any] = {"time": "total 20m"}

_TIME = re.compile(r"^(total|turn) (\d+)(m|s)(?: \+(\d+)s)?$")
_LONGEST_S = 24 * 3600  # a day: anything longer is a typing slip


@dataclass(frozen=True)
class ClockSettings:
    """A total time per player (`mode` "total") or a time per turn ("turn"), in seconds, and the increment."""

    mode: Mode = "total"
    seconds: float = 1200.0
    increment: float = 0.0

    @property
    def words(self) -> str:
        """The time as the table reads it: "20:00 each", "10:00 each, +5 s a turn", "1:00 a turn"."""
        from companion.games.turn_clock.views import clock_words

        if self.mode == "turn":
            return f"{clock_words(self.seconds)} a turn"
        more = f", +{int(self.increment)} s a turn" if self.increment else ""
        return f"{clock_words(self.seconds)} each{more}"


def parse_time(text: object) -> ClockSettings:
    """``"total 10m +5s"`` as settings; `SetupError` with one sentence for anything else."""
    found = _TIME.match(text.strip()) if isinstance(text, str) else None
    example = 'write it as "total 20m", "total 10m +5s" or "turn 60s"'
    if found is None:
        raise SetupError(f"The turn clock's time {text!r} is not one it knows; {example}.")
    mode, amount, unit, increment = found.groups()
    seconds = int(amount) * (60 if unit == "m" else 1)
    if not 1 <= seconds <= _LONGEST_S:
        raise SetupError(f"The turn clock's time must be between 1 second and 24 hours, not {text!r}.")
    if mode == "turn" and increment:
        raise SetupError(f"An increment is added to a total time, not to a time per turn ({text!r}).")
    return ClockSettings("total" if mode == "total" else "turn", float(seconds), float(increment or 0))


def read(raw: Mapping[str, Any]) -> ClockSettings:
    """The settings from ``[games.turn-clock]``; `SetupError` naming the key for anything wrong."""
    unknown = sorted(set(raw) - set(DEFAULTS))
    if unknown:
        raise SetupError(f"The turn clock has no setting called {unknown[0]!r}; its one setting is 'time'.")
    return parse_time(raw.get("time", DEFAULTS["time"]))
