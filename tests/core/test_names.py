"""Players' names at the door (issue 21, finding 7).

"Names go into Kivy markup labels unescaped … 'Ann' and 'Ann' followed by a zero-width space are accepted
as two players and look the same. A 28-character name gives 'Screen too small' on a 20×4 display."
"""

from __future__ import annotations

import pytest

from companion.game import Options, SetupError
from companion.games import game as game_named
from companion.games import names as game_names
from companion.names import MAX_NAME_LENGTH, look, name_problem, normal_name, table_problem
from companion.small_display import MIN_COLS, header


def test_a_name_is_normalised_at_the_door():
    assert normal_name("  Ann  ") == "Ann"
    assert normal_name("Ann\u200b") == "Ann", "a zero-width space is dropped"
    assert normal_name("A\u200dn\u2060n\ufeff") == "Ann", "joiners, word joiners and BOMs too"
    assert normal_name("Ann\x00\x1b[31m") == "Ann[31m", "control characters are dropped"
    assert normal_name("Ann \t\n  Marie") == "Ann Marie", "runs of spaces become one"
    assert normal_name("Ann\u2028Marie\u00a0Lou") == "Ann Marie Lou"
    assert normal_name("Zoe\u0301") == "Zo\u00e9", "NFC: a letter and its accent become one character"
    assert normal_name("\u3164") == "", "a Hangul filler draws as nothing"


def test_names_that_look_the_same_are_refused_with_one_sentence():
    """'Ann' and 'Ann' followed by a zero-width space are accepted as two players and look the same."""
    assert look("Ann\u200b") == look("Ann") == look("ann") == look("ＡＮＮ") == look("Ann\ufe0f")
    problem = name_problem("Ann\u200b", ["Bo", "Ann"])
    assert problem is not None and problem.count(".") == 1 and "same name" in problem
    problem = name_problem("ann", ["Ann"])
    assert problem == "ann and Ann look like the same name; give each player a different one."
    assert name_problem("Anne", ["Ann"]) is None
    assert name_problem("Bo", ["Ann"]) is None
    assert table_problem(["Ann", "Bo", "BO"]) is not None
    assert table_problem(["Ann", "Bo", "Cy"]) is None


def test_a_name_longer_than_a_small_display_can_show_whole_is_refused():
    """'A 28-character name gives "Screen too small" on a 20×4 display.'"""
    assert MAX_NAME_LENGTH <= MIN_COLS
    longest = "Bartholomew Fenn"
    assert len(longest) == MAX_NAME_LENGTH and name_problem(longest) is None
    assert header(longest, "1/3", MIN_COLS) == [longest, "1/3".rjust(MIN_COLS)], "the header shows it whole"
    problem = name_problem("Bartholomew Fennimore-Smythe")
    assert problem is not None and "at most 16 characters" in problem and "28" in problem
    assert name_problem("   ") == "Every player needs a name."


@pytest.mark.parametrize("game", game_names())
def test_every_game_refuses_look_alike_long_or_unclean_names_at_setup(game):
    """Only `Game.setup` checks, so every game refuses the same names with one sentence each."""
    entry = game_named(game)
    seats = ["Ann", "Bo", "Cy", "Dee", "Eve"][: max(2, entry.min_players)]  # two at least: two look alike
    fine = Options.for_names(*seats)
    entry.setup(fine)
    for bad, words in (
        (["Ann\u200b", *seats[1:]], "invisible"),
        (["x" * (MAX_NAME_LENGTH + 1), *seats[1:]], "at most"),
        ([*seats[:-1], seats[0].upper()], "same name"),
        (["[size=60]Ann", *seats[1:]], None),  # markup is a name like any other: escaped on show
    ):
        if words is None:
            entry.setup(Options.for_names(*bad))
            continue
        with pytest.raises(SetupError, match=words) as refused:
            entry.setup(Options.for_names(*bad))
        assert str(refused.value).count(". ") == 0 and str(refused.value).endswith(".")


def test_a_stored_game_resumes_with_the_names_it_was_started_with():
    """A games file written before these rules still resumes: the names it keeps are not refused again."""
    entry = game_named(game_names()[0])
    old = Options.for_names(*(["Bartholomew Fennimore", "bartholomew fennimore", "Cy", "Dee"][: entry.min_players]))
    with pytest.raises(SetupError):
        entry.setup(old)
    entry.setup(old, stored=True)
