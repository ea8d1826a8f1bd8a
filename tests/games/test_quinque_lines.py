"""Quinque: five in a line across tile borders, the simultaneous line, the tie."""

from __future__ import annotations

import pytest

from companion.game import TIE, RuleError
from companion.games.quinque.board import line_of_five, where
from companion.games.quinque.rules import FIVE_IN_A_ROW, LinedUp, ParachutesExhausted, why_tile_stays
from tests.support.quinque import ANN, BO, GAME, act, add, board, corner_of, mark, move, new_game, play, skip

# A 3x3 block of tiles: skydiver coordinates 0..5 each way.
EMPTY_3X3 = ["......"] * 6


def draw(marks: dict[tuple[int, int], str], lines: list[str] | None = None) -> list[str]:
    rows = [list(line) for line in (lines or EMPTY_3X3)]
    for (x, y), letter in marks.items():
        rows[y][x] = letter
    return ["".join(row) for row in rows]


LINES = {
    # name: the five skydivers, the last one marked by the action; each crosses tile borders
    "row": [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2)],
    "column": [(3, 0), (3, 1), (3, 2), (3, 3), (3, 4)],
    "diagonal": [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)],
    "anti-diagonal": [(0, 5), (1, 4), (2, 3), (3, 2), (4, 1)],
}


@pytest.mark.parametrize("name", list(LINES))
def test_five_in_a_line_across_tiles_wins_at_once(name):
    line = LINES[name]
    assert len({(x // 2, y // 2) for x, y in line}) >= 3  # the line spans three tiles
    state = board(*draw(dict.fromkeys(line[:4], "A")), turn=ANN, step="mark")
    assert GAME.outcome(state) is None
    tile, corner = corner_of(*line[4])
    after, events = act(state, mark(ANN, tile, corner))
    assert events[-1] == LinedUp(ANN, tuple(sorted(line)), both=False)
    outcome = GAME.outcome(after)
    assert outcome.winners == (ANN,)
    assert outcome.reason == FIVE_IN_A_ROW == "five in a row"
    assert after.step == "move"  # the optional move never comes: the game is over
    assert GAME.current_player(after) is None
    view = GAME.public_view(after)
    assert sorted(map(tuple, view["line"])) == sorted(line)
    assert view["winner"] == ANN and view["step"] == "over"


@pytest.mark.parametrize("name", list(LINES))
def test_four_in_a_line_is_not_enough(name):
    line = LINES[name]
    state = board(*draw(dict.fromkeys(line[:4], "A")), turn=ANN, step="mark")
    far = next(t for t in state.tiles if all((x // 2, y // 2) != t.at for x, y in line))
    after, events = act(state, mark(ANN, far.at, "nw" if far.marks[0] is None else "se"))
    assert [e.type for e in events] == ["skydiver_marked"]
    assert GAME.outcome(after) is None


@pytest.mark.parametrize("name", list(LINES))
def test_a_rival_parachute_breaks_the_line(name):
    line = LINES[name]
    marks = dict.fromkeys(line[:4], "A")
    marks[line[2]] = "B"
    state = board(*draw(marks), turn=ANN, step="mark")
    tile, corner = corner_of(*line[4])
    after, _ = act(state, mark(ANN, tile, corner))
    assert GAME.outcome(after) is None
    assert line_of_five(after.tiles, ANN) == ()


def test_a_line_is_counted_in_skydivers_not_tiles():
    # Five tiles in a row each with one parachute in the same corner: five
    # parachutes, but every other skydiver between them is free.
    state = board("A.A.A.A.A.", "..........")
    assert line_of_five(state.tiles, ANN) == ()


def test_a_gap_in_the_formation_breaks_a_line():
    lines = [
        "AA  AAA.",
        "..  ....",
        "........",
        "........",
    ]
    state = board(*lines)
    assert line_of_five(state.tiles, ANN) == ()


def test_a_move_can_complete_a_line():
    # Ann's row y=0 has a two-skydiver gap at tile (1,0); her tile below fills it.
    state = board(
        "AA  A...",
        "..  ....",
        "........",
        "........",
        "  AA    ",
        "  ..    ",
        turn=ANN,
    )
    after, events = act(state, move(ANN, (1, 2), (1, 0)))
    assert [e.type for e in events] == ["tile_moved", "lined_up"]
    assert events[1].line == ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0))
    assert GAME.outcome(after).winners == (ANN,)


# -- both at once --------------------------------------------------------------------------

BOTH_IN_ONE_MOVE = (
    "AA  A...",
    "BB  B...",
    "........",
    "........",
    "  AA    ",
    "  BB    ",
)  # the tile at (1,2) completes Ann's row y=0 and Bo's row y=1 when it fills (1,0)


@pytest.mark.parametrize("active", [ANN, BO])
def test_when_both_line_up_at_once_the_active_player_wins(active):
    state = board(*BOTH_IN_ONE_MOVE, turn=active)
    after, events = act(state, move(active, (1, 2), (1, 0)))
    assert isinstance(events[-1], LinedUp)
    assert events[-1].player == active
    assert events[-1].both is True
    outcome = GAME.outcome(after)
    assert outcome.winners == (active,)
    assert outcome.reason == FIVE_IN_A_ROW
    assert "Both players" in outcome.detail


def test_a_move_that_lines_up_only_the_rival_makes_the_rival_win():
    state = board(
        "AA  A...",
        "..  ....",
        "........",
        "........",
        "  AA    ",
        "  ..    ",
        turn=BO,
    )
    after, events = act(state, move(BO, (1, 2), (1, 0)))
    assert events[-1] == LinedUp(ANN, ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)), both=False)
    assert GAME.public_event(events[-1]) == {
        "type": "lined_up",
        "player": ANN,
        "line": [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]],
        "both": False,
    }
    assert GAME.outcome(after).winners == (ANN,)


# -- the tie ----------------------------------------------------------------------------


def test_both_out_of_parachutes_is_a_tie():
    state = new_game(tiles=1, parachutes=2)
    state = play(
        state,
        [
            add(ANN, (0, 0), "nw"),
            skip(ANN),
            add(BO, (1, 0), "nw"),
            skip(BO),
            mark(ANN, (0, 0), "ne"),
            skip(ANN),
            mark(BO, (1, 0), "ne"),
        ],
    )
    assert state.parachutes_left == (0, 0)
    assert GAME.outcome(state) is None  # Bo still has the optional move
    assert GAME.current_player(state) == BO
    after, events = act(state, skip(BO))
    assert events[-1] == ParachutesExhausted()
    assert GAME.public_event(events[-1]) == {"type": "parachutes_exhausted"}
    outcome = GAME.outcome(after)
    assert outcome.is_tie and outcome.reason == TIE and outcome.winners == ()
    assert GAME.current_player(after) is None
    assert GAME.public_view(after)["tied"] is True


def test_the_last_move_may_still_win_instead_of_the_tie():
    state = board(*BOTH_IN_ONE_MOVE, turn=BO, parachutes_left=(0, 0))
    after, _ = act(state, move(BO, (1, 2), (1, 0)))
    assert GAME.outcome(after).winners == (BO,)
    moved_without_line = board(*BOTH_IN_ONE_MOVE, turn=BO, parachutes_left=(0, 0))
    after, events = act(moved_without_line, move(BO, (1, 2), (0, 2)))
    assert events[-1] == ParachutesExhausted()
    assert GAME.outcome(after).is_tie


def test_one_player_out_of_parachutes_is_no_tie_yet():
    state = board("A.B.", "....", turn=ANN, step="move", parachutes_left=(0, 1))
    after, events = act(state, skip(ANN))
    assert events[-1].type == "turn_ended"
    assert GAME.outcome(after) is None


def test_a_player_without_parachutes_cannot_mark():
    state = board("A.B.", "....", turn=ANN, step="mark", parachutes_left=(0, 1))
    with pytest.raises(RuleError, match="no parachutes left"):
        act(state, mark(ANN, (0, 0), "se"))


def test_the_log_says_when_both_lined_up_and_who_wins():
    """ "If both players achieve a line of five skydivers simultaneously, the active player wins." """
    state = board(*BOTH_IN_ONE_MOVE, turn=BO)
    after, events = act(state, move(BO, (1, 2), (1, 0)))
    assert GAME.tell(events[-1], after) == f"Both players lined up five at once; {BO}, whose turn it was, wins!"


def test_once_the_game_is_won_no_tile_moves_and_the_screen_says_why():
    """ "The player who successfully lines up five of his own skydivers ... immediately wins the game." """
    after, _ = act(board(*BOTH_IN_ONE_MOVE), move(ANN, (1, 2), (1, 0)))
    assert why_tile_stays(after, (0, 0)) == "The game is over."
    assert why_tile_stays(after, (9, 9)) == "There is no tile at " + where((9, 9)) + "."
