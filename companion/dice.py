"""The one source of chance: dice and shuffles, injectable and replayable.

Games never call `random` themselves. `decide` receives a `Dice` and writes
what it rolled into its events, so replay never rolls again. The session
wraps the table's `Dice` in a `Tape` that remembers every draw an action made:
when that action is undone and another one taken instead, the same draws come
back first. Undo is for mistakes, not for a second chance at the dice.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol


class Dice(Protocol):
    """Anything that can roll fair dice."""

    def roll(self, sides: int = 6) -> int:
        """A uniform value in 1..sides."""
        ...


class RandomDice:
    """Dice from a `random.Random`: `SystemRandom` in play, seeded in tests and scripts."""

    def __init__(self, generator: random.Random | None = None) -> None:
        self._generator = generator if generator is not None else random.SystemRandom()

    @classmethod
    def seeded(cls, seed: int) -> RandomDice:
        return cls(random.Random(seed))

    def roll(self, sides: int = 6) -> int:
        return self._generator.randint(1, sides)


class Tape:
    """Dice that first hand back earlier draws (``(sides, value)`` pairs), then roll anew.

    `drawn` lists every draw made through the tape, in order, so the session
    can store it beside the action.
    """

    def __init__(self, dice: Dice, replay: Iterable[tuple[int, int]] = ()) -> None:
        self._dice = dice
        self._replay = list(replay)
        self.drawn: list[tuple[int, int]] = []

    def roll(self, sides: int = 6) -> int:
        if self._replay and self._replay[0][0] == sides:
            value = self._replay.pop(0)[1]
        else:
            # A draw of another kind than the one undone: the old draws no
            # longer describe this moment, so they are not reused.
            self._replay.clear()
            value = self._dice.roll(sides)
        self.drawn.append((sides, value))
        return value

    @property
    def unused(self) -> list[tuple[int, int]]:
        """Replayed draws this tape did not need (kept for the next action)."""
        return list(self._replay)
