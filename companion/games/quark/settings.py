"""Quark's ``[games.quark]`` config table: the table's own Atom cards.

The one setting is ``atoms``: the points (and, for a new atom, the build) of
the Atom cards on the table, over our defaults. In the config file:

    [games.quark.atoms]     # protons, neutrons, electrons (energy), points
    Helium = [2, 2, 2, 45]
    Beryllium = { points = 150 }
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.game import SetupError
from companion.games.quark.scoring import DEFAULT_ATOMS, Atom

NUMBERS = ("protons", "neutrons", "electrons", "points")
"""An atom's numbers, in the order the config file's lists give them."""

MOST = 999  # a sanity bound on any one number of an Atom card

DEFAULTS: Mapping[str, Any] = {"atoms": {a.name: [getattr(a, n) for n in NUMBERS] for a in DEFAULT_ATOMS}}
"""Quark's own settings as the config file writes them: what a setting it cannot use falls back to."""

EACH_ENTRY_ALONE = ("atoms",)
"""Tables whose entries stand alone: one bad atom falls back to our own (or is left out), the others are kept."""


@dataclass(frozen=True)
class QuarkSettings:
    """What the table chose: the atom table, lowest points first."""

    atoms: tuple[Atom, ...] = DEFAULT_ATOMS


def read(raw: Mapping[str, Any]) -> QuarkSettings:
    """The settings from the config table; `SetupError` with one sentence naming the setting at fault."""
    unknown = sorted(set(raw) - {"atoms"})
    if unknown:
        raise SetupError(f"Unknown Quark setting {', '.join(map(str, unknown))}; the one setting is atoms.")
    return QuarkSettings(atoms=read_atoms(raw.get("atoms", {})))


def read_atoms(given: Any) -> tuple[Atom, ...]:
    """The atom table: our defaults, with the config's ``atoms`` entries over them.

    An entry is ``Name = [protons, neutrons, electrons, points]`` (as in the
    config file) or a table with any of those four keys (for a known atom).
    Raises `SetupError` naming the key at fault.
    """
    if not isinstance(given, Mapping):
        raise SetupError(
            f"Quark setting atoms must be a table of atoms, like Lithium = [3, 4, 3, 90]; it is {given!r}."
        )
    table = {a.name: a for a in DEFAULT_ATOMS}
    for name, value in given.items():
        if not isinstance(name, str) or not name.strip():
            raise SetupError(f"Quark setting atoms has an atom without a name ({name!r}).")
        table[name] = _atom(name, value, table.get(name))
    return tuple(sorted(table.values(), key=lambda a: (a.points, a.protons, a.name)))


def _atom(name: str, value: Any, default: Atom | None) -> Atom:
    key = f"atoms.{name}"
    if isinstance(value, list | tuple):
        if len(value) != len(NUMBERS):
            raise SetupError(
                f"Quark setting {key} must be four whole numbers [protons, neutrons, electrons, points], "
                f"like [3, 4, 3, 90]; it is {value!r}."
            )
        numbers = dict(zip(NUMBERS, value, strict=True))
    elif isinstance(value, Mapping):
        unknown = sorted(set(map(str, value)) - set(NUMBERS))
        if unknown:
            raise SetupError(f"Quark setting {key} has unknown keys {unknown}; the keys are {', '.join(NUMBERS)}.")
        if default is None and set(value) != set(NUMBERS):
            raise SetupError(f"Quark setting {key} is a new atom, so it needs all of {', '.join(NUMBERS)}.")
        numbers = {n: value.get(n, getattr(default, n, 0)) for n in NUMBERS}
    else:
        raise SetupError(
            f"Quark setting {key} must be [protons, neutrons, electrons, points], like [3, 4, 3, 90]; it is {value!r}."
        )
    for number_name, number in numbers.items():
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MOST:
            raise SetupError(
                f"Quark setting {key}: {number_name} must be a whole number from 0 to {MOST}; it is {number!r}."
            )
    if numbers["protons"] < 1:
        raise SetupError(f"Quark setting {key}: an atom needs at least one proton.")
    atom = Atom(name, numbers["protons"], numbers["neutrons"], numbers["electrons"], numbers["points"])
    if default is not None and all(getattr(default, n) == numbers[n] for n in NUMBERS):
        return default  # the same numbers as ours: where they come from is unchanged
    return atom
