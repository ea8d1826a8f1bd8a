"""Dice statistics: the histogram of two-dice totals and the chi-square figure."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from companion.dicestats import (
    EXPECTED_SHARE,
    TOTALS,
    DiceStats,
    chi_square,
    chi_square_critical,
    chi_square_sf,
    rolls_in,
)


def all_36() -> list[tuple[int, int]]:
    return [(a, b) for a in range(1, 7) for b in range(1, 7)]


def test_the_expected_distribution_of_two_dice():
    assert EXPECTED_SHARE[7] == pytest.approx(6 / 36)
    assert EXPECTED_SHARE[2] == EXPECTED_SHARE[12] == pytest.approx(1 / 36)
    assert sum(EXPECTED_SHARE.values()) == pytest.approx(1)
    assert tuple(EXPECTED_SHARE) == TOTALS


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [
        (3.841, 1, 0.05),  # textbook table values
        (11.070, 5, 0.05),
        (15.086, 5, 0.01),
        (18.307, 10, 0.05),
        (23.209, 10, 0.01),
        (10.0, 10, 0.44049),
        (2.0, 2, 0.36788),  # exp(-1), exactly for two degrees of freedom
    ],
)
def test_chi_square_tail_probabilities(x, df, p):
    assert chi_square_sf(x, df) == pytest.approx(p, abs=2e-4)


def test_chi_square_tail_edges():
    assert chi_square_sf(0, 10) == 1.0
    assert chi_square_sf(-1, 5) == 1.0
    assert chi_square_sf(500, 10) < 1e-90
    assert chi_square_critical(10, 0.05) == pytest.approx(18.307, abs=1e-3)


def test_chi_square_statistic():
    assert chi_square([10, 10], [10, 10]) == 0
    assert chi_square([12, 8], [10, 10]) == pytest.approx(0.8)


def test_perfectly_fair_rolls_give_zero():
    stats = DiceStats.of_rolls(all_36() * 10)
    assert stats.rolls == 360
    assert stats.totals == (10, 20, 30, 40, 50, 60, 50, 40, 30, 20, 10)
    assert stats.faces == (120,) * 6
    assert stats.chi_square == pytest.approx(0)
    assert stats.p_value == pytest.approx(1)
    assert stats.reliable
    assert "Nothing unusual" in stats.summary()
    assert [bar.expected for bar in stats.bars] == pytest.approx([10, 20, 30, 40, 50, 60, 50, 40, 30, 20, 10])


def test_loaded_dice_are_noticed():
    stats = DiceStats.of_rolls([(6, 6)] * 100 + all_36() * 5)
    assert stats.p_value < 1e-6
    assert "rarely look this uneven" in stats.summary()
    assert stats.face_chi_square > 100


def test_a_few_rolls_are_not_judged():
    stats = DiceStats.of_rolls([(1, 2), (3, 4)])
    assert not stats.reliable
    assert stats.rolls_needed == 180
    assert "Too few rolls" in stats.summary()
    assert DiceStats.of_rolls([]).summary() == "No dice rolled yet."
    assert DiceStats.of_rolls([]).p_value == 1.0


def test_rolls_are_found_in_any_event_that_carries_two_dice():
    events = [
        {"type": "opening_rolled", "player": "Ann", "dice": [3, 4]},
        {"type": "captured", "by": "Ann", "of": "Bo"},
        {"type": "rolled", "player": "Bo", "dice": [6, 6]},
        {"type": "something", "dice": [7, 1]},  # not a die
        {"type": "something", "dice": [1]},
        {"type": "something", "dice": "12"},
    ]
    assert rolls_in(events) == [(3, 4), (6, 6)]
    assert DiceStats.of_events(events).totals[7 - 2] == 1


@dataclass(frozen=True)
class FakeMove:
    events: tuple[dict, ...]


def test_many_games_add_up():
    moves = [FakeMove(({"type": "rolled", "dice": [1, 1]},)), FakeMove(({"type": "rolled", "dice": [6, 5]},))]
    stats = DiceStats.of_moves(moves)
    assert stats.rolls == 2
    assert stats.totals[0] == 1 and stats.totals[9] == 1


def test_a_running_tally_gives_the_statistics_of_its_rolls():
    """`Store.dice_stats` keeps one count per roll of `PAIRS` (first die, then second) instead of every roll: the
    history's histogram and verdict from the tally are those of the rolls themselves."""
    from companion.dicestats import PAIRS, pair_index

    rolls = [(1, 1), (6, 5), (5, 6), (3, 4), (3, 4), (6, 6)]
    counts = [0] * len(PAIRS)
    for a, b in rolls:
        counts[pair_index(a, b)] += 1
    assert [PAIRS[pair_index(a, b)] for a, b in all_36()] == all_36()
    assert DiceStats.of_tally(counts) == DiceStats.of_rolls(rolls)
