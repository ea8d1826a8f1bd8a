"""The Quinque screen's presenter, without a window: cells, looks, hints and the actions taps send."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace

import pytest

from companion.games.quinque.rules import Add, Mark, Move, QuinqueState, Skip, destinations
from companion.games.quinque.views import Skydivers
from tests.support.quinque import ANN, BO, GAME, act, add, board, mark, new_game, play, skip
from ui.presenters.quinque import CellShown, QuinqueShown, present

RED, BLUE = "#e53935", "#1e88e5"


def shown_for(state: QuinqueState, chosen: tuple[int, int] | None = None, colours: Sequence[str] = (RED, BLUE)):
    """What the screen shows for `state`, as the screen asks: the view, the legal actions, the outcome."""
    player = GAME.current_player(state)
    legal = GAME.legal_actions(state, player) if player else []
    return present(GAME.view(state), legal, chosen=chosen, outcome=GAME.outcome(state), colours=colours)


def cells(shown: QuinqueShown, kind: str) -> dict[tuple[int, int], CellShown]:
    return {c.at: c for c in shown.cells if c.kind == kind}


# -- the mark step ------------------------------------------------------------------------


def test_the_first_turn_shows_one_faint_space_and_adds_the_first_tile():
    shown = shown_for(new_game())
    assert [(c.at, c.kind) for c in shown.cells] == [((0, 0), "open")]
    assert [s.corner for s in shown.cells[0].skydivers] == ["nw", "ne", "sw", "se"]
    assert all(s.seat is None and s.initial == "" for s in shown.cells[0].skydivers)
    assert shown.hint == "Ann: tap a skydiver on the first tile to place it with a parachute."
    assert not shown.can_skip and shown.step == "mark" and shown.player == ANN
    tap = shown.tap_skydiver((0, 0), "se")
    assert tap.action == Add(ANN, (0, 0), "se") and tap.chosen is None


def test_a_tap_marks_a_placed_tile_or_adds_a_faint_one():
    state = board("A.B.", "....", turn=ANN, step="mark")
    shown = shown_for(state)
    assert set(cells(shown, "open")) == {tuple(p) for p in GAME.public_view(state)["open_spaces"]}
    assert set(cells(shown, "tile")) == {(0, 0), (1, 0)}
    assert cells(shown, "space") == {}  # empty spaces are drawn only once a tile is chosen to move
    assert shown.tap_skydiver((1, 0), "sw").action == Mark(ANN, (1, 0), "sw")
    assert shown.tap_skydiver((2, 0), "nw").action == Add(ANN, (2, 0), "nw")
    assert shown.hint == (
        "Ann: tap a free skydiver to give it a parachute, or one in a faint space to add a tile,"
        " or a parachute to move its tile."
    )


def test_a_tile_may_move_first_a_parachutes_tap_picks_it_up():
    """ "First action (mandatory): you must either mark a skydiver or move a tile.": before the mark, a tap on
    a parachute chooses its tile, the spaces it may go to light up, and a space sends the move."""
    state = board("A.B.", "....", turn=ANN, step="mark")
    tap = shown_for(state).tap_skydiver((1, 0), "nw")  # Bo's parachute
    assert tap.action is None and tap.chosen == (1, 0)
    shown = shown_for(state, chosen=(1, 0))
    assert cells(shown, "open") == {}  # the faint spaces give way to the spaces the tile may go to
    assert {at for at, cell in cells(shown, "space").items() if cell.lit} == {(0, -1), (-1, 0), (0, 1)}
    assert shown.hint == "Tap a lit space to move the tile there, or the tile again to let it go."
    assert shown.tap_space((0, 1)).action == Move(player=ANN, start=(1, 0), to=(0, 1))
    assert shown.tap_skydiver((1, 0), "nw").chosen is None  # the tile again: let go
    assert shown.tap_skydiver((0, 0), "ne").action == Mark(ANN, (0, 0), "ne")  # a free skydiver still marks


def test_a_taken_skydiver_on_a_tile_that_cannot_move_is_still_sent_so_the_rules_say_why():
    state = board("A.", "..", turn=BO, step="mark")  # a lone tile has nowhere to go
    tap = shown_for(state).tap_skydiver((0, 0), "nw")
    assert tap.action == Mark(BO, (0, 0), "nw")
    assert GAME.refusal(state, tap.action) == "That skydiver already wears Ann's parachute."


def test_without_tiles_left_no_faint_spaces_are_offered():
    shown = shown_for(board("A.B.", "....", turn=ANN, step="mark", tiles_left=(0, 3)))
    assert cells(shown, "open") == {}
    assert shown.hint == "Ann: tap a free skydiver to give it a parachute, or a parachute to move its tile."


def test_parachutes_show_their_owner_by_seat_and_initial():
    shown = shown_for(board("AB..", "....", turn=ANN, step="mark"))
    nw, ne, sw, _se = cells(shown, "tile")[(0, 0)].skydivers
    assert (nw.seat, nw.initial) == (0, "A")
    assert (ne.seat, ne.initial) == (1, "B")
    assert (sw.seat, sw.initial) == (None, "")


# -- the move step ------------------------------------------------------------------------

BLOCK = ("A.B.B.", "......", "  A.A.", "  ....")  # a tile at (0,0) beside a 2x2 block


def test_the_move_step_shows_the_spaces_around_and_outlines_the_tiles_that_may_move():
    state = board(*BLOCK, turn=ANN, step="move", marked=(2, 0))
    shown = shown_for(state)
    spaces = cells(shown, "space")
    tiles = cells(shown, "tile")
    touching = {(c + dc, r + dr) for c, r in tiles for dc in (-1, 0, 1) for dr in (-1, 0, 1)}
    assert set(spaces) == touching - set(tiles)  # every free space touching a tile, at an edge or a corner
    assert not any(s.lit for s in spaces.values())
    assert {at for at, t in tiles.items() if t.outlined} == {at for at in tiles if destinations(state, at)}
    assert (
        not tiles[(2, 0)].movable and tiles[(2, 0)].stays == "That tile was marked this turn, so it stays where it is."
    )
    assert shown.can_skip
    assert shown.hint == "Ann: tap a tile to move it (outlined ones can), or Skip."


def test_choosing_a_tile_lights_where_it_may_go_and_a_space_moves_it():
    state = board(*BLOCK, turn=ANN, step="move")
    tap = shown_for(state).tap_skydiver((0, 0), "se")  # a skydiver's tap in the move step is its tile's
    assert tap.chosen == (0, 0) and tap.action is None and tap.say == ""
    shown = shown_for(state, chosen=tap.chosen)
    assert shown.chosen == (0, 0) and cells(shown, "tile")[(0, 0)].chosen
    assert not any(t.outlined for t in cells(shown, "tile").values())
    assert {at for at, s in cells(shown, "space").items() if s.lit} == set(destinations(state, (0, 0)))
    assert shown.hint == "Tap a lit space to move the tile there, or the tile again to let it go."
    tap = shown.tap_space((3, 0))
    assert tap.action == Move(player=ANN, start=(0, 0), to=(3, 0)) and tap.chosen is None
    act(state, tap.action)  # the rules take it


def test_a_space_that_is_not_lit_is_sent_anyway_and_the_chosen_tile_let_go():
    state = board(*BLOCK, turn=ANN, step="move")
    tap = shown_for(state, chosen=(0, 0)).tap_space((1, 2))
    assert tap.action == Move(player=ANN, start=(0, 0), to=(1, 2)) and tap.chosen is None
    assert "row, its column or a diagonal" in GAME.refusal(state, tap.action)


def test_the_chosen_tile_tapped_again_is_let_go():
    shown = shown_for(board(*BLOCK, turn=ANN, step="move"), chosen=(0, 0))
    tap = shown.tap_tile((0, 0))
    assert tap.chosen is None and tap.action is None


def test_a_tile_that_stays_says_why_in_the_banner():
    shown = shown_for(board("A.B.A.", "......", turn=ANN, step="move", marked=(2, 0)))
    tap = shown.tap_skydiver((2, 0), "nw")
    assert tap.chosen is None and tap.action is None
    assert tap.error and tap.say == "That tile was marked this turn, so it stays where it is."
    tap = shown.tap_tile((1, 0))
    assert tap.error and "keeps the formation in one piece" in tap.say


def test_a_space_before_a_tile_asks_for_the_tile_first():
    tap = shown_for(board(*BLOCK, turn=ANN, step="move")).tap_space((3, 0))
    assert tap.action is None and tap.say == "Tap the tile you want to move first, then where it goes."


def test_a_chosen_tile_that_may_no_longer_move_is_let_go():
    state = board(*BLOCK, turn=ANN, step="move")
    after, _ = act(state, skip(ANN))
    assert shown_for(after, chosen=(0, 0)).chosen == (0, 0)  # the turn passed, and a move may come first
    assert shown_for(act(after, mark(BO, (0, 0), "ne"))[0], chosen=(0, 0)).chosen is None  # marked this turn
    assert shown_for(board(*BLOCK, turn=ANN, step="move", marked=(0, 0)), chosen=(0, 0)).chosen is None


def test_skip_is_offered_only_in_the_move_step():
    shown = shown_for(board(*BLOCK, turn=BO, step="move"))
    assert shown.can_skip and shown.skip().action == Skip(BO)
    assert not shown_for(board(*BLOCK, turn=BO, step="mark")).can_skip


def test_when_no_tile_may_move_the_hint_says_skip():
    shown = shown_for(play(new_game(), [add(ANN, (0, 0), "nw")]))
    assert shown.hint == "Ann: no tile can move now; tap Skip."
    assert not any(c.outlined for c in shown.cells)


# -- every legal action is a tap or two away ------------------------------------------------


@pytest.mark.parametrize(
    "state",
    [
        new_game(),
        board("A.B.", "....", turn=ANN, step="mark"),
        board(*BLOCK, turn=ANN, step="move"),
        board(*BLOCK, turn=BO, step="move", marked=(2, 1), advanced=True),
    ],
    ids=["first", "mark", "move", "advanced move"],
)
def test_every_legal_action_is_what_some_tap_sends(state):
    shown = shown_for(state)
    for action in GAME.legal_actions(state, state.active):
        match action:
            case Mark() | Add():
                assert shown.tap_skydiver(action.tile, action.skydiver).action == action
            case Move() if state.step == "mark":  # a move first: a parachute's tap picks up the tile
                worn = next(c for c in shown.cell(action.start).skydivers if c.seat is not None)
                chosen = shown.tap_skydiver(action.start, worn.corner).chosen
                assert chosen == action.start
                assert shown_for(state, chosen=chosen).tap_space(action.to).action == action
            case Move():
                chosen = shown.tap_tile(action.start).chosen
                assert chosen == action.start
                assert shown_for(state, chosen=chosen).tap_space(action.to).action == action
            case Skip():
                assert shown.skip().action == action


# -- the end of the game ---------------------------------------------------------------------


def test_the_winning_line_glows_and_taps_do_nothing():
    state, _ = act(board("AAAA.B", "BBB...", turn=ANN, step="mark"), mark(ANN, (2, 0), "nw"))
    shown = shown_for(state)
    glowing = {
        (2 * c.at[0] + i % 2, 2 * c.at[1] + i // 2) for c in shown.cells for i, s in enumerate(c.skydivers) if s.in_line
    }
    assert glowing == set(state.line)
    assert shown.line_ends == ((0, 0), (4, 0))
    assert shown.hint == "Ann lined up five skydivers."
    assert shown.player is None and shown.step == "over" and not shown.can_skip
    assert shown.tap_skydiver((2, 0), "se").action is None
    assert shown.skip().action is None


def test_the_tie_is_told_by_the_outcome():
    state = play(
        new_game(tiles=1, parachutes=2),
        [add(ANN, (0, 0), "nw"), skip(ANN), add(BO, (1, 0), "nw"), skip(BO)],
    )
    state = play(state, [mark(ANN, (0, 0), "ne"), skip(ANN), mark(BO, (1, 0), "ne"), skip(BO)])
    shown = shown_for(state)
    assert shown.hint == "Both players are out of parachutes and nobody has five in a line."
    assert shown.line_ends is None


# -- the panel and the grid --------------------------------------------------------------------


def test_the_players_rows():
    state = board("A.B.", "....", turn=BO, step="mark")
    ann, bo = shown_for(state).players
    assert (ann.name, ann.colour, ann.counts, ann.active) == (ANN, RED, "17 parachutes · 15 tiles", False)
    assert (bo.name, bo.colour, bo.active) == (BO, BLUE, True)


def test_alike_colours_give_way_to_the_seat_colours():
    shown = shown_for(new_game(), colours=("#4fc3f7", "#4fc3f7"))
    assert [p.colour for p in shown.players] == [None, None]


def test_the_note_tells_how_tiles_move():
    assert shown_for(new_game()).note.startswith("Moves: along a row")
    assert shown_for(new_game(advanced=True)).note.startswith("Advanced moves: 1 parachute")


def test_the_grid_covers_every_cell():
    shown = shown_for(board(*BLOCK, turn=ANN, step="move"))
    for cell in shown.cells:
        assert shown.left <= cell.at[0] < shown.left + shown.columns
        assert shown.top <= cell.at[1] < shown.top + shown.rows
    assert (shown.left, shown.top, shown.columns, shown.rows) == (-1, -1, 5, 4)


def test_alike_initials_take_two_letters():
    view = GAME.view(board("AB..", "....", turn=ANN, step="mark"))
    players = tuple(replace(p, name=n) for p, n in zip(view.players, ["Bo", "Ben"], strict=True))
    tile = replace(view.tiles[0], skydivers=Skydivers("Bo", "Ben", None, None))
    view = replace(view, players=players, tiles=(tile, *view.tiles[1:]), current="Bo")
    shown = present(view, [])
    assert [s.initial for s in cells(shown, "tile")[(0, 0)].skydivers[:2]] == ["Bo", "Be"]


def test_the_presenter_needs_no_kivy():
    code = "import sys, ui.presenters.quinque; sys.exit('kivy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
