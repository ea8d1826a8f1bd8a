"""A die of the tray and the words for it: ``"d6"`` (faces 1 to 6) or faces of the table's own ("Sun", "Moon").

A die is written the same way everywhere (an action, a stored event, a saved set, the config file): a word
``"d<sides>"`` for a numbered die, or a list of its faces for any other. A die whose faces are all whole numbers
counts towards the sum; any other shows its face by name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from companion.game import RuleError
from companion.names import normal_name

MAX_DICE = 10
"""Dice in the tray at once: ten still show a finger wide at 800×480."""
MIN_SIDES, MAX_SIDES = 2, 100
MAX_FACES = 20
"""Faces of a die of the table's own: a d20 is the most a table names face by face."""
MAX_FACE_LENGTH = 10
"""Characters of one named face: it is shown whole on its die."""
MAX_SET_NAME = 24
"""Characters of a set's name: it is shown whole on the picker's button and in the top of the tray."""
COMMON = ("d4", "d6", "d8", "d10", "d12", "d20")
"""The dice offered first, one tap each."""

Spec = str | tuple[str, ...]
"""A die as actions and events write it: ``"d6"``, or its faces."""

_NUMBERED = re.compile(r"d(\d{1,6})")
_WHOLE = re.compile(r"-?\d{1,4}")


@dataclass(frozen=True)
class Die:
    """One die: its faces in order (face 1 first)."""

    faces: tuple[str, ...]

    @cached_property
    def numbered(self) -> bool:
        """Its faces are 1, 2, ... n: it is a ``d<n>``."""
        return self.faces == tuple(str(n) for n in range(1, len(self.faces) + 1))

    @cached_property
    def numeric(self) -> bool:
        """Every face is a whole number: it counts towards the sum."""
        return all(_WHOLE.fullmatch(face) for face in self.faces)

    @property
    def sides(self) -> int:
        return len(self.faces)

    @cached_property
    def name(self) -> str:
        """``"d6"`` or ``"Sun/Moon/Star"``: what the tray calls this kind of die."""
        return f"d{self.sides}" if self.numbered else "/".join(self.faces)

    @property
    def spec(self) -> Spec:
        """As actions and events write it."""
        return self.name if self.numbered else self.faces

    def value(self, face: int) -> int | None:
        """The number face `face` (1 is the first) counts for, or None for a named face."""
        return int(self.faces[face - 1]) if self.numeric else None


def numbered(sides: int) -> Die:
    return Die(tuple(str(n) for n in range(1, sides + 1)))


D6 = numbered(6)


def read_die(spec: object) -> Die:
    """The die `spec` names; `RuleError` with one sentence for a die the tray cannot hold."""
    if isinstance(spec, str):
        found = _NUMBERED.fullmatch(spec.strip().lower())
        if found is None:
            raise RuleError(
                f'A die is written "d6" (any number of sides from {MIN_SIDES} to {MAX_SIDES}) or as a list of its '
                f"faces; {spec[:20]!r} is neither."
            )
        sides = int(found.group(1))
        if not MIN_SIDES <= sides <= MAX_SIDES:
            raise RuleError(f"A die has {MIN_SIDES} to {MAX_SIDES} sides; d{sides} is not one the tray can roll.")
        return numbered(sides)
    if not isinstance(spec, tuple | list) or not all(isinstance(face, str) for face in spec):
        raise RuleError('A die is written "d6" or as a list of its faces, such as ["Sun", "Moon", "Star"].')
    faces = tuple(normal_name(face) for face in spec)
    if not MIN_SIDES <= len(faces) <= MAX_FACES:
        raise RuleError(f"A die of your own has {MIN_SIDES} to {MAX_FACES} faces; this one has {len(faces)}.")
    for face in faces:
        if not face:
            raise RuleError("Every face of a die needs a name or a number; one is empty.")
        if len(face) > MAX_FACE_LENGTH:
            raise RuleError(
                f"A face's name has at most {MAX_FACE_LENGTH} characters, to show whole on the die; "
                f"{face[:20]!r} has {len(face)}."
            )
    return Die(faces)


def read_dice(specs: Sequence[object]) -> tuple[Die, ...]:
    """A whole set of dice; `RuleError` for an empty set, too many dice, or a die the tray cannot hold."""
    if not specs:
        raise RuleError("A set needs at least one die.")
    if len(specs) > MAX_DICE:
        raise RuleError(f"The tray holds at most {MAX_DICE} dice; this set has {len(specs)}.")
    return tuple(read_die(spec) for spec in specs)


def faces_typed(text: str) -> Spec:
    """A die as the table types it: ``"d8"``, or faces with commas between (``"Sun, Moon, Star"``)."""
    parts = [part for part in (p.strip() for p in text.split(",")) if part]
    if len(parts) == 1:
        return parts[0]
    return tuple(parts)


def set_name(raw: str) -> str:
    """A set's name as the tray keeps it; `RuleError` for an empty or overlong one."""
    name = normal_name(raw)
    if not name:
        raise RuleError('A set needs a name, such as "Catan" or "2d6".')
    if len(name) > MAX_SET_NAME:
        raise RuleError(f"A set's name has at most {MAX_SET_NAME} characters; {name[:30]!r} has {len(name)}.")
    return name


def describe(dice: Sequence[Die]) -> str:
    """The dice in words, kinds in the order they first appear: ``"2d6"``, ``"d4 + 2d20"``, ``"3 Sun/Moon/Star"``."""
    counts: dict[Die, int] = {}
    for die in dice:
        counts[die] = counts.get(die, 0) + 1
    parts = []
    for die, count in counts.items():
        many = "" if count == 1 else (str(count) if die.numbered else f"{count} ")
        parts.append(f"{many}{die.name}")
    return " + ".join(parts) or "no dice"


@dataclass(frozen=True)
class DiceSet:
    """A named set of dice: what the set picker offers and a tap puts in the tray."""

    name: str
    dice: tuple[Die, ...]

    @property
    def specs(self) -> tuple[Spec, ...]:
        return tuple(die.spec for die in self.dice)


def _set(name: str, *specs: Spec) -> DiceSet:
    return DiceSet(name, read_dice(specs))


BUILT_IN: tuple[DiceSet, ...] = (
    _set("1d6", "d6"),
    _set("2d6", "d6", "d6"),
    _set("3d6", "d6", "d6", "d6"),
    _set("5d6", "d6", "d6", "d6", "d6", "d6"),
    _set("Quintet's dice", "d6", "d6"),
    _set("1d20", "d20"),
    _set("Role-play set", "d4", "d6", "d8", "d10", "d12", "d20"),
    _set("Coin", ("Heads", "Tails")),
)
"""The sets every tray offers, whatever the table has saved."""
