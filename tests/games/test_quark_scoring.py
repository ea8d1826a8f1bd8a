"""Quark's final score: particle points, the best single atom, leftover energy; the atom table."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.engine import RegisteredGame
from companion.game import TIE, Options, SetupError
from companion.games import game
from companion.games.quark import settings
from companion.games.quark.rules import HIGHEST_SCORE, Decay, Decayed, EndTriggered
from companion.games.quark.scoring import DEFAULT_ATOMS, Atom, best_atom, score
from companion.games.quark.state import Counts, QuarkState

NAMES = ("Ann", "Bo", "Cy", "Dee")
GAME: RegisteredGame = game("quark")


def start(players: int = 4, **table: Any) -> QuarkState:
    state: QuarkState = GAME.setup(Options.for_names(*NAMES[:players], **table))
    return state


def atoms_from_settings(raw: dict[str, Any]) -> tuple[Atom, ...]:
    return settings.read(raw).atoms


def atom_name(protons: int, neutrons: int, energy: int, atoms: tuple[Atom, ...] = DEFAULT_ATOMS) -> str | None:
    atom = best_atom(protons, neutrons, energy, atoms)
    return atom.name if atom else None


def test_the_rules_worked_example_makes_lithium() -> None:
    # 3 protons, 4 neutrons and 3 energy make Lithium for 90 points, no energy left over.
    result = score(Counts("Ann", energy=3, protons=3, neutrons=4), DEFAULT_ATOMS)
    assert result.atom is not None and result.atom.name == "Lithium"
    assert (result.atom_points, result.leftover_energy, result.total) == (90, 0, 90)


@pytest.mark.parametrize(
    ("protons", "neutrons", "energy", "atom", "total"),
    [
        (0, 0, 0, None, 0),
        (0, 0, 7, None, 7),  # energy alone: 1 point each
        (1, 0, 0, None, 0),  # a proton without an electron builds nothing
        (1, 0, 1, "Hydrogen", 10),
        (1, 3, 4, "Hydrogen", 13),  # spare neutrons are worth nothing; 3 energy left over
        (2, 2, 2, "Helium", 40),
        (2, 2, 10, "Helium", 48),
        (3, 4, 2, "Helium", 40),  # one electron short of Lithium
        (3, 3, 3, "Helium", 41),  # one neutron short of Lithium
        (3, 4, 5, "Lithium", 92),
        (4, 5, 3, "Lithium", 90),  # Beryllium's nucleus, but one electron short
        (4, 5, 4, "Beryllium", 160),
        (16, 20, 20, "Beryllium", 176),  # only one atom, never several
    ],
)
def test_best_single_atom(protons: int, neutrons: int, energy: int, atom: str | None, total: int) -> None:
    result = score(Counts("Ann", energy=energy, protons=protons, neutrons=neutrons), DEFAULT_ATOMS)
    assert (result.atom.name if result.atom else None) == atom
    assert result.total == total


def test_particle_points_add_to_the_atom_and_the_energy() -> None:
    result = score(Counts("Ann", energy=5, protons=2, neutrons=2, particle_points=23), DEFAULT_ATOMS)
    assert (result.particle_points, result.atom_points, result.leftover_energy, result.total) == (23, 40, 3, 66)


def test_the_best_atom_is_the_best_total_not_the_biggest_atom() -> None:
    # A table whose Beryllium card were worth little: keeping Lithium and the spare energy scores more.
    odd = (Atom("Lithium", 3, 4, 3, 90), Atom("Beryllium", 4, 5, 4, 90))
    assert atom_name(4, 5, 4, odd) == "Lithium"


def over(state: QuarkState, **seats: dict[str, int]) -> QuarkState:
    changed = tuple(replace(s, **seats.get(s.name, {})) for s in state.seats)
    return replace(state, seats=changed, over=True)


def test_the_winner_is_named() -> None:
    state = over(
        start(4),
        Ann={"energy": 3, "protons": 3, "neutrons": 4},
        Bo={"particle_points": 50, "energy": 10},
        Cy={"particle_points": 91},
    )
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == ("Cy",) and outcome.reason == HIGHEST_SCORE
    assert outcome.detail == "Cy wins with 93 points."  # 91 + the 2 energy everyone starts with
    view = GAME.public_view(state)
    assert [s["total"] for s in view["scores"]] == [90, 60, 93, 2]
    assert view["scores"][0]["atom"]["name"] == "Lithium"


def test_ties_are_ties() -> None:
    state = over(start(3), Ann={"particle_points": 30}, Bo={"particle_points": 30}, Cy={"particle_points": 29})
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == () and outcome.reason == TIE and outcome.is_tie
    assert outcome.detail == "Ann and Bo tie on 32 points."
    three = over(start(3))
    assert GAME.outcome(three).detail == "Ann, Bo and Cy tie on 2 points."  # type: ignore[union-attr]


def test_no_outcome_before_the_end() -> None:
    assert GAME.outcome(start(2)) is None
    view = GAME.public_view(start(2))
    assert [p["score_now"] for p in view["players"]] == [2, 2]  # "if the game ended now"


# -- the atom table ----------------------------------------------------------------------------


def test_default_atoms_and_where_their_points_come_from() -> None:
    view = GAME.public_view(start(2))
    assert [
        (a["name"], a["protons"], a["neutrons"], a["electrons"], a["points"], a["points_from"]) for a in view["atoms"]
    ] == [
        ("Hydrogen", 1, 0, 1, 10, "default"),
        ("Helium", 2, 2, 2, 40, "default"),
        ("Lithium", 3, 4, 3, 90, "rules"),
        ("Beryllium", 4, 5, 4, 160, "default"),
    ]


def test_atoms_from_the_config_file() -> None:
    # The config file's form: Name = [protons, neutrons, electrons, points].
    atoms = {a.name: a for a in atoms_from_settings({"atoms": {"Helium": [2, 2, 2, 45], "Hydrogen": [1, 0, 1, 10]}})}
    assert atoms["Helium"] == Atom("Helium", 2, 2, 2, 45, "config")
    assert atoms["Hydrogen"].points_from == "default"  # same numbers as ours: still to be checked
    assert atoms["Lithium"].points_from == "rules"
    # A table per atom changes only what it names.
    atoms = {a.name: a for a in atoms_from_settings({"atoms": {"Beryllium": {"points": 150}}})}
    assert atoms["Beryllium"] == Atom("Beryllium", 4, 5, 4, 150, "config")
    # A new atom needs every number.
    atoms = {a.name: a for a in atoms_from_settings({"atoms": {"Boron": [5, 6, 5, 250]}})}
    assert atoms["Boron"].points == 250
    state = start(2, atoms={"Helium": [2, 2, 2, 45]})
    assert GAME.public_view(state)["atoms"][1]["points"] == 45


@pytest.mark.parametrize(
    ("atoms", "key"),
    [
        ([1, 2, 3], "atoms"),
        ({"Helium": [2, 2, 2]}, "atoms.Helium"),
        ({"Helium": "40"}, "atoms.Helium"),
        ({"Helium": [2, 2, 2, "forty"]}, "atoms.Helium"),
        ({"Helium": [2, 2, 2, -1]}, "atoms.Helium"),
        ({"Helium": [2, 2, True, 40]}, "atoms.Helium"),
        ({"Helium": [0, 2, 2, 40]}, "atoms.Helium"),
        ({"Helium": {"score": 40}}, "atoms.Helium"),
        ({"Boron": {"points": 250}}, "atoms.Boron"),
        ({"": [1, 0, 1, 10]}, "atoms"),
    ],
)
def test_bad_atom_tables_are_refused_naming_the_key(atoms: Any, key: str) -> None:
    with pytest.raises(SetupError) as error:
        start(2, atoms=atoms)
    assert key in str(error.value)


def test_unknown_settings_are_refused() -> None:
    with pytest.raises(SetupError, match="atom"):
        start(2, atom={"Helium": [2, 2, 2, 40]})


def test_the_end_atom_follows_the_table() -> None:
    # A table's own Lithium (say, more neutrons) is the one that ends a 4-player game.
    state = start(4, atoms={"Lithium": [3, 5, 3, 90]})
    seats = list(state.seats)
    seats[0] = replace(seats[0], protons=3, neutrons=4, energy=3)
    state = replace(state, seats=tuple(seats), bank_protons=13, bank_neutrons=16, bank_energy=state.bank_energy - 1)
    [created] = GAME.decide(state, Decay("Ann"), RandomDice.seeded(0))
    assert isinstance(created, Decayed)
    state = replace(state, seats=(replace(seats[0], neutrons=5), *seats[1:]), bank_neutrons=15)
    trigger = GAME.decide(state, Decay("Ann"), RandomDice.seeded(0))[-1]
    assert isinstance(trigger, EndTriggered) and trigger.atom == "Lithium"
