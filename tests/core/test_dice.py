"""`companion.dice`: dice passed in, and the tape that makes "Undo never re-rolls a die" (STYLE.md, habit 4)."""

from __future__ import annotations

from companion.dice import RandomDice, Tape


def test_a_tape_hands_back_the_undone_draws_first_and_keeps_what_it_did_not_need():
    tape = Tape(RandomDice.seeded(1), [(6, 4), (6, 6), (6, 2)])
    assert [tape.roll(), tape.roll()] == [4, 6]  # the same dice as before the undo
    assert tape.drawn == [(6, 4), (6, 6)] and tape.unused == [(6, 2)]


def test_a_draw_of_another_kind_rolls_anew_and_forgets_the_old_draws():
    """An undone roll of two six-sided dice says nothing about a twenty-sided die drawn now."""
    fresh = RandomDice.seeded(3).roll(20)
    tape = Tape(RandomDice.seeded(3), [(6, 4), (6, 6)])
    assert tape.roll(20) == fresh
    assert tape.unused == [] and tape.drawn == [(20, fresh)]
