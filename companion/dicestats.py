"""Dice statistics: how the rolled two-dice totals compare with fair dice. Pure.

Any event carrying ``"dice": [a, b]`` counts as one roll of two dice (in
Quintet: the opening rolls, the rolls on and the turns). The figures are a
histogram of totals 2..12 beside the counts fair dice would give, and
Pearson's chi-square goodness-of-fit statistic with its p-value: the chance
that fair dice would look at least this uneven.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

TOTALS = tuple(range(2, 13))
FACES = tuple(range(1, 7))

EXPECTED_SHARE = {t: (6 - abs(t - 7)) / 36 for t in TOTALS}
"""Fair two-dice totals: 1/36 for 2 and 12 up to 6/36 for 7."""

PAIRS = tuple((a, b) for a in FACES for b in FACES)
"""Every roll of two dice, first die then second: the order of a running tally's 36 counts."""


def pair_index(a: int, b: int) -> int:
    """Where the roll (a, b) is counted in a tally ordered as `PAIRS`."""
    return (a - 1) * len(FACES) + (b - 1)


MIN_EXPECTED = 5.0
"""Below this many expected rolls in some cell the chi-square approximation is poor."""


class HasEvents(Protocol):
    """A stored move (`companion.store.MoveRecord`, `companion.session.Move`)."""

    @property
    def events(self) -> Sequence[object]: ...


def rolls_in(events: Iterable[object]) -> list[tuple[int, int]]:
    """The two-dice rolls recorded in `events` (stored JSON objects or typed events), in order."""
    found = []
    for event in events:
        dice = event.get("dice") if isinstance(event, Mapping) else getattr(event, "dice", None)
        if isinstance(dice, (list, tuple)) and len(dice) == 2 and all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            found.append((int(dice[0]), int(dice[1])))
    return found


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> float:
    """Pearson's statistic: the sum of (observed - expected)² / expected."""
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)


def chi_square_sf(x: float, df: int) -> float:
    """P(X ≥ x) for a chi-square variable with `df` degrees of freedom."""
    if x <= 0:
        return 1.0
    return _gamma_q(df / 2, x / 2)


def chi_square_critical(df: int, alpha: float) -> float:
    """The x with ``chi_square_sf(x, df) == alpha`` (bisection; for choosing thresholds)."""
    low, high = 0.0, 1.0
    while chi_square_sf(high, df) > alpha:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if chi_square_sf(mid, df) > alpha:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x)."""
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        # Series for P(a, x), then Q = 1 - P.
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):  # pragma: no branch  (a guard: 5 or 10 degrees converge in a few dozen terms)
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    # Continued fraction for Q(a, x) (modified Lentz).
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):  # pragma: no branch  (a guard: the fraction converges in a few dozen steps)
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return min(1.0, math.exp(log_prefix) * h)


@dataclass(frozen=True)
class Bar:
    """One total of the histogram: how often it came, and how often fair dice would bring it."""

    total: int
    count: int
    expected: float


@dataclass(frozen=True)
class DiceStats:
    """Counts of two-dice totals (2..12) and of single faces (1..6)."""

    totals: tuple[int, ...]  # index 0 is total 2
    faces: tuple[int, ...]  # index 0 is face 1

    @classmethod
    def of_rolls(cls, rolls: Iterable[tuple[int, int]]) -> DiceStats:
        totals = [0] * len(TOTALS)
        faces = [0] * len(FACES)
        for a, b in rolls:
            totals[a + b - 2] += 1
            faces[a - 1] += 1
            faces[b - 1] += 1
        return cls(tuple(totals), tuple(faces))

    @classmethod
    def of_tally(cls, counts: Sequence[int]) -> DiceStats:
        """The statistics of a running tally: how often each roll of `PAIRS` came (``Store.dice_stats``)."""
        totals = [0] * len(TOTALS)
        faces = [0] * len(FACES)
        for (a, b), count in zip(PAIRS, counts, strict=True):
            totals[a + b - 2] += count
            faces[a - 1] += count
            faces[b - 1] += count
        return cls(tuple(totals), tuple(faces))

    @classmethod
    def of_events(cls, events: Iterable[object]) -> DiceStats:
        """The statistics of one game's events."""
        return cls.of_rolls(rolls_in(events))

    @classmethod
    def of_moves(cls, moves: Iterable[HasEvents]) -> DiceStats:
        """The statistics of many moves, e.g. ``Store.all_moves("quintet")`` (a full recount: every game read).

        For every game ever played, ``Store.dice_stats`` reads the store's running tally instead.
        """
        return cls.of_events(event for move in moves for event in move.events)

    @property
    def rolls(self) -> int:
        return sum(self.totals)

    @property
    def bars(self) -> list[Bar]:
        return [Bar(t, c, self.rolls * EXPECTED_SHARE[t]) for t, c in zip(TOTALS, self.totals, strict=True)]

    @property
    def degrees_of_freedom(self) -> int:
        return len(TOTALS) - 1

    @property
    def chi_square(self) -> float:
        return chi_square(self.totals, [self.rolls * EXPECTED_SHARE[t] for t in TOTALS])

    @property
    def p_value(self) -> float:
        """The chance fair dice give totals at least this uneven (1.0 without rolls)."""
        return chi_square_sf(self.chi_square, self.degrees_of_freedom) if self.rolls else 1.0

    @property
    def face_chi_square(self) -> float:
        dice = sum(self.faces)
        return chi_square(self.faces, [dice / 6] * 6)

    @property
    def reliable(self) -> bool:
        """Enough rolls that every total is expected at least `MIN_EXPECTED` times (180 rolls)."""
        return self.rolls * min(EXPECTED_SHARE.values()) >= MIN_EXPECTED

    @property
    def rolls_needed(self) -> int:
        return math.ceil(MIN_EXPECTED / min(EXPECTED_SHARE.values()))

    def summary(self) -> str:
        """One or two sentences for the table: first in plain words whether the dice look fair, then the figure."""
        if not self.rolls:
            return "No dice rolled yet."
        detail = (
            f"Detail: {self.rolls} rolls; chi-square {self.chi_square:.1f} with {self.degrees_of_freedom} "
            f"degrees of freedom (p = {self.p_value:.2g})."
        )
        if not self.reliable:
            return (
                f"Too few rolls to judge the dice yet: {self.rolls} so far, about {self.rolls_needed} needed. {detail}"
            )
        if self.p_value < 0.001:
            return f"These dice look unfair: fair dice rarely look this uneven (less than 1 time in 1000). {detail}"
        return f"The dice look fair. Nothing unusual: this is how fair dice behave. {detail}"
