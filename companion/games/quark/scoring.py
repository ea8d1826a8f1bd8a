"""Quark's atoms and the final score: particle points, the best single atom, leftover energy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol


class Seat(Protocol):
    """What scoring reads of a player's counts (``state.Counts`` is one).

    Named here, not imported, so that the state can hold atoms without the two modules importing each other.
    """

    @property
    def name(self) -> str: ...
    @property
    def energy(self) -> int: ...
    @property
    def protons(self) -> int: ...
    @property
    def neutrons(self) -> int: ...
    @property
    def particle_points(self) -> int: ...


@dataclass(frozen=True)
class Atom:
    """One Atom card: what it takes to build and what it scores.

    `points_from` says where the points come from: ``"rules"`` (printed in the
    rules text), ``"default"`` (our guess, to be checked against the table's
    Atom cards) or ``"config"`` (set by the table in the config file).
    """

    name: str
    protons: int
    neutrons: int
    electrons: int
    points: int
    points_from: Literal["rules", "default", "config"] = "config"


DEFAULT_ATOMS: tuple[Atom, ...] = (
    Atom("Hydrogen", 1, 0, 1, 10, "default"),
    Atom("Helium", 2, 2, 2, 40, "default"),
    Atom("Lithium", 3, 4, 3, 90, "rules"),
    Atom("Beryllium", 4, 5, 4, 160, "default"),
)
"""The atom table (see RULINGS): Lithium's 90 points are in the rules, the other points are ours."""

END_ATOM_SMALL_TABLE = "Beryllium"  # creating it ends a 2 or 3-player game
END_ATOM_FULL_TABLE = "Lithium"  # creating it ends a 4-player game


def end_atom_name(players: int) -> str:
    """The atom whose creation triggers the end for this many players."""
    return END_ATOM_FULL_TABLE if players >= 4 else END_ATOM_SMALL_TABLE


def can_build(atom: Atom, protons: int, neutrons: int, energy: int) -> bool:
    """Whether these tokens make `atom`: its protons and neutrons, and one energy per electron."""
    return atom.protons <= protons and atom.neutrons <= neutrons and atom.electrons <= energy


def best_atom(protons: int, neutrons: int, energy: int, atoms: Sequence[Atom]) -> Atom | None:
    """The one atom worth most (its points plus the energy it leaves over), or None.

    An atom needs its protons and neutrons, and one energy per electron. Only
    one atom is built; the energy it does not use scores 1 point each.
    """
    buildable = [a for a in atoms if can_build(a, protons, neutrons, energy)]
    if not buildable:
        return None
    best = max(buildable, key=lambda a: (a.points - a.electrons, a.points))
    # Building nothing keeps every energy token as a point: an atom must beat that.
    return best if best.points - best.electrons > 0 else None


@dataclass(frozen=True)
class Score:
    """What one player scores if the game ends now."""

    player: str
    particle_points: int
    atom: Atom | None
    leftover_energy: int

    @property
    def atom_points(self) -> int:
        return self.atom.points if self.atom else 0

    @property
    def total(self) -> int:
        return self.particle_points + self.atom_points + self.leftover_energy


def score(seat: Seat, atoms: Sequence[Atom]) -> Score:
    """`seat`'s score if the game ended now."""
    atom = best_atom(seat.protons, seat.neutrons, seat.energy, atoms)
    leftover = seat.energy - (atom.electrons if atom else 0)
    return Score(seat.name, seat.particle_points, atom, leftover)
