"""The tray's dice statistics: how often each face of each kind of die came, against fair dice. Pure.

For each kind of die rolled in the tray (every d6 together, every "Sun/Moon/Star" together) the counts per
face, the count a fair die would give (the same for every face), and Pearson's chi-square goodness-of-fit
statistic with its p-value (`companion.dicestats`): the chance that fair dice would look at least this uneven.
The check is judged only once every face is expected at least `MIN_EXPECTED` times.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.dicestats import MIN_EXPECTED, chi_square, chi_square_sf
from companion.games.dice_tray.rules import Tally

UNFAIR_BELOW = 0.001
"""A p-value below this says the dice look unfair (as Quintet's statistics say it)."""


@dataclass(frozen=True)
class FaceCount:
    face: str
    count: int


@dataclass(frozen=True)
class KindStats:
    """One kind of die: its faces' counts, what fair dice would give each, and the chi-square check."""

    kind: str  # "d6", "Sun/Moon/Star"
    faces: tuple[FaceCount, ...]
    rolled: int  # dice of this kind rolled (a roll of three d6 is three)
    expected: float  # per face, for a fair die
    chi_square: float
    degrees_of_freedom: int
    p_value: float
    reliable: bool
    needed: int  # dice rolled before the check is judged
    summary: str


def kind_stats(tally: Tally) -> KindStats:
    """The statistics of one kind of die from its tally."""
    counts = tally.counts
    rolled = sum(counts)
    sides = len(counts)
    expected = rolled / sides
    chi = chi_square(counts, [expected] * sides)
    df = sides - 1
    p = chi_square_sf(chi, df) if rolled else 1.0
    needed = math.ceil(MIN_EXPECTED * sides)
    reliable = rolled >= needed
    kind = tally.die.name
    faces = tuple(FaceCount(face, count) for face, count in zip(tally.die.faces, counts, strict=True))
    return KindStats(
        kind,
        faces,
        rolled,
        expected,
        chi,
        df,
        p,
        reliable,
        needed,
        _summary(kind, rolled, chi, df, p, reliable, needed),
    )


def _summary(kind: str, rolled: int, chi: float, df: int, p: float, reliable: bool, needed: int) -> str:
    """First in plain words whether this kind of die looks fair, then the figure."""
    times = "1 time" if rolled == 1 else f"{rolled} times"
    detail = f"Detail: {kind} rolled {times}; chi-square {chi:.1f} with {df} degrees of freedom (p = {p:.2g})."
    if not reliable:
        return f"Too few rolls to judge the {kind} yet: {rolled} so far, about {needed} needed. {detail}"
    if p < UNFAIR_BELOW:
        return f"The {kind} looks unfair: a fair die rarely looks this uneven (less than 1 time in 1000). {detail}"
    return f"The {kind} looks fair. Nothing unusual: this is how a fair die behaves. {detail}"


def tray_stats(tallies: tuple[Tally, ...]) -> tuple[KindStats, ...]:
    """Every kind of die rolled in the tray, in the order each was first rolled."""
    return tuple(kind_stats(tally) for tally in tallies)
