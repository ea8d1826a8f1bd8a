"""Quinque: tile moves, basic and advanced, and what keeps a tile in place."""

from __future__ import annotations

import pytest

from companion.game import RuleError
from companion.games.quinque.board import is_one_piece
from companion.games.quinque.rules import TileMoved, destinations, movable_tiles, why_tile_stays
from tests.support.quinque import ANN, BO, GAME, act, add, board, mark, move


def assert_refused(state, action, reason):
    with pytest.raises(RuleError, match=reason):
        act(state, action)


# -- the formation stays one piece ------------------------------------------------------

ROW_OF_FOUR_AND_ONE_BELOW = (
    "A.B.A.B.",
    "........",
    "  ..    ",
    "  ..    ",
)  # tiles (0,0) (1,0) (2,0) (3,0) and (1,1)


def test_a_move_that_would_split_the_formation_is_refused():
    state = board(*ROW_OF_FOUR_AND_ONE_BELOW)
    # (2,1) touches the formation at (1,1), but (3,0) would be left on its own.
    assert_refused(state, move(ANN, (2, 0), (2, 1)), "formation would fall apart")
    assert (2, 1) not in destinations(state, (2, 0))


def test_a_move_away_from_everything_is_refused():
    state = board(*ROW_OF_FOUR_AND_ONE_BELOW)
    assert_refused(state, move(ANN, (3, 0), (5, 0)), "formation would fall apart")
    assert_refused(state, move(ANN, (0, 0), (0, 2)), "formation would fall apart")


def test_a_move_that_keeps_it_one_piece_is_allowed():
    state = board(*ROW_OF_FOUR_AND_ONE_BELOW)
    after, events = act(state, move(ANN, (3, 0), (2, 1)))
    assert events[0] == TileMoved(player=ANN, start=(3, 0), to=(2, 1))
    assert GAME.public_event(events[0]) == {"type": "tile_moved", "player": ANN, "from": [3, 0], "to": [2, 1]}
    assert after.tile_at((2, 1)).marks == state.tile_at((3, 0)).marks  # parachutes travel with the tile
    assert after.tile_at((3, 0)) is None
    assert is_one_piece(after.occupied)


def test_lifting_a_tile_may_split_the_rest_if_the_tile_joins_it_again():
    # An L of three: lifting the corner (1,0) leaves (0,0) and (1,1) apart, but
    # at (0,1) the tile touches both, so the formation is one piece after the move.
    state = board(
        "A.B.",
        "....",
        "  ..",
        "  ..",
    )
    after, _ = act(state, move(ANN, (1, 0), (0, 1)))
    assert is_one_piece(after.occupied)
    assert set(destinations(state, (1, 0))) == {(0, 1)}


def test_the_destination_must_be_free():
    state = board(*ROW_OF_FOUR_AND_ONE_BELOW)
    assert_refused(state, move(ANN, (0, 0), (1, 1)), r"\[1, 1\] is taken")
    assert_refused(state, move(ANN, (0, 0), (0, 0)), "already there")
    assert_refused(state, move(ANN, (5, 5), (0, 1)), r"no tile at \[5, 5\]")


# -- tiles that stay where they are --------------------------------------------------------

PLUS = (
    "  A.  ",
    "  ..  ",
    "B.A.B.",
    "......",
    "  A.  ",
    "  ..  ",
)  # the centre tile (1,1) touches a tile on each of its four edges


@pytest.mark.parametrize("advanced", [False, True])
def test_a_tile_with_four_neighbours_cannot_move(advanced):
    state = board(*PLUS, advanced=advanced)
    assert_refused(state, move(ANN, (1, 1), (3, 1)), "all four edges")
    assert destinations(state, (1, 1)) == ()
    assert (1, 1) not in movable_tiles(state)


def test_three_neighbours_are_not_four():
    state = board(
        "A.B.  ",
        "....  ",
        "A.B.A.",
        "......",
    )  # (1,1) touches (1,0), (0,1) and (2,1)
    assert (2, 0) in destinations(state, (1, 1))
    act(state, move(ANN, (1, 1), (2, 0)))


def test_the_tile_marked_this_turn_stays():
    state = board("A.B.A.", "......", turn=BO, step="mark")
    state, _ = act(state, mark(BO, (2, 0), "ne"))
    assert_refused(state, move(BO, (2, 0), (1, 1)), "marked this turn")
    assert destinations(state, (2, 0)) == ()
    act(state, move(BO, (0, 0), (1, 1)))  # another tile may go


def test_the_tile_added_this_turn_stays():
    state = board("A.B.A.", "......", turn=BO, step="mark")
    state, _ = act(state, add(BO, (1, 1), "nw"))
    assert_refused(state, move(BO, (1, 1), (0, 1)), "marked this turn")
    act(state, move(BO, (2, 0), (2, 1)))


def test_the_marked_this_turn_rule_ends_with_the_turn():
    state = board("A.B.A.", "......", turn=ANN, step="move", marked=(2, 0))
    assert (2, 0) not in movable_tiles(state)
    next_turn = board("A.B.A.", "......", turn=BO, step="move", marked=(0, 0))
    act(next_turn, move(BO, (2, 0), (1, 1)))


# -- basic moves -------------------------------------------------------------------------

BLOCK = (
    "A.B.B.",
    "......",
    "  A.A.",
    "  ....",
)  # the tile T at (0,0) beside a 2x2 block of tiles at (1..2, 0..1)


def test_basic_moves_go_along_rows_columns_and_diagonals():
    state = board(*BLOCK)
    assert set(destinations(state, (0, 0))) == {(0, 1), (3, 0), (1, -1), (2, 2)}
    assert_refused(state, move(ANN, (0, 0), (1, 2)), "row, its column or a diagonal")
    assert_refused(state, move(ANN, (0, 0), (2, -1)), "row, its column or a diagonal")


def test_basic_moves_pass_over_other_tiles():
    state = board(*BLOCK)
    after, _ = act(state, move(ANN, (0, 0), (3, 0)))  # across (1,0) and (2,0)
    assert after.tile_at((3, 0)) is not None
    after, _ = act(state, move(ANN, (0, 0), (2, 2)))  # diagonally across (1,1)
    assert after.tile_at((2, 2)) is not None


# -- advanced moves: the parachutes on the tile decide --------------------------------


def advanced_block(marks_on_t: str) -> object:
    """BLOCK under the advanced rules, with `marks_on_t` (four characters) on T's skydivers."""
    return board(
        marks_on_t[:2] + "B.B.",
        marks_on_t[2:] + "....",
        "  A.A.",
        "  ....",
        advanced=True,
    )


@pytest.mark.parametrize(
    ("marks", "allowed"),
    [
        ("A...", {(0, 1)}),
        ("AB..", {(0, 1), (3, 0)}),
        ("AB.A", {(1, -1), (2, 2)}),
        ("ABBA", {(0, 1), (3, 0), (1, -1), (2, 2)}),
    ],
    ids=["one parachute", "two parachutes", "three parachutes", "four parachutes"],
)
def test_advanced_destinations_by_parachute_count(marks, allowed):
    state = advanced_block(marks)
    assert set(destinations(state, (0, 0))) == allowed
    for to in allowed:
        act(state, move(ANN, (0, 0), to))


def test_one_parachute_moves_one_space_along_row_or_column():
    state = advanced_block("A...")
    assert_refused(state, move(ANN, (0, 0), (3, 0)), "one parachute moves one space along its row or column")
    assert_refused(state, move(ANN, (0, 0), (1, -1)), "one parachute moves one space")
    act(state, move(ANN, (0, 0), (0, 1)))


def test_two_parachutes_move_along_row_or_column_through_tiles():
    state = advanced_block(".B.A")
    act(state, move(ANN, (0, 0), (3, 0)))
    assert_refused(state, move(ANN, (0, 0), (1, -1)), "two parachutes moves along its row or column")
    assert_refused(state, move(ANN, (0, 0), (2, 2)), "two parachutes")


def test_three_parachutes_move_diagonally_through_tiles():
    state = advanced_block("BBA.")
    act(state, move(ANN, (0, 0), (2, 2)))
    assert_refused(state, move(ANN, (0, 0), (0, 1)), "three parachutes moves along a diagonal")
    assert_refused(state, move(ANN, (0, 0), (3, 0)), "three parachutes")


def test_four_parachutes_move_every_way_but_not_off_the_lines():
    state = advanced_block("ABAB")
    for to in [(0, 1), (3, 0), (1, -1), (2, 2)]:
        act(state, move(ANN, (0, 0), to))
    assert_refused(state, move(ANN, (0, 0), (1, 2)), "four parachutes moves along its row, its column or a diagonal")


def test_parachute_colour_does_not_matter_in_the_advanced_rules():
    assert set(destinations(advanced_block("AA.."), (0, 0))) == set(destinations(advanced_block("B..B"), (0, 0)))


def test_advanced_moves_keep_the_other_requirements():
    state = board(*PLUS, advanced=True)
    assert_refused(state, move(ANN, (1, 0), (3, 0)), "one parachute")
    marked = board("AB.A.B", "......", turn=BO, step="move", marked=(1, 0), advanced=True)
    assert_refused(marked, move(BO, (1, 0), (1, 1)), "marked this turn")
    apart = advanced_block("ABAB")
    assert_refused(apart, move(ANN, (0, 0), (0, 3)), "fall apart")


def test_the_screen_sees_exactly_the_moves_the_rules_accept():
    for state in [board(*BLOCK), board(*PLUS), board(*ROW_OF_FOUR_AND_ONE_BELOW), advanced_block("AB.A")]:
        for tile in state.tiles:
            legal = set(destinations(state, tile.at))
            for c in range(-3, 7):
                for r in range(-3, 7):
                    try:
                        act(state, move(ANN, tile.at, (c, r)))
                    except RuleError:
                        assert (c, r) not in legal
                    else:
                        assert (c, r) in legal


def test_destinations_before_the_mark_too():
    """ "First action (mandatory): you must either mark a skydiver or move a tile.": tiles move in both steps."""
    state = board(*BLOCK, step="mark")
    assert destinations(state, (0, 0)) == destinations(board(*BLOCK), (0, 0)) != ()
    assert movable_tiles(state) == movable_tiles(board(*BLOCK))
    assert destinations(board(*BLOCK), (7, 7)) == ()
    assert BO  # both names are used by the helpers


def test_the_screen_can_say_why_a_tile_stays():
    state = board(*PLUS)
    assert "all four edges" in why_tile_stays(state, (1, 1))
    assert why_tile_stays(state, (1, 0)) is None
    row = board("A.B.A.", "......", marked=(2, 0))
    assert "marked this turn" in why_tile_stays(row, (2, 0))
    # The middle of a row of three: wherever it goes, the two ends come apart.
    assert "keeps the formation in one piece" in why_tile_stays(row, (1, 0))
    assert [t["stays"] is None for t in GAME.public_view(row)["tiles"]] == [True, False, False]
    assert why_tile_stays(board(*PLUS, step="mark"), (1, 0)) is None  # a move may be the first action
    assert "no tile" in why_tile_stays(state, (9, 9))
