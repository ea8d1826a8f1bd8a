"""A still layer draws itself again only where its still boxes changed (issue 26: "Every tap answered quickly").

Quinque's tiles, spaces and side panel are still boxes (`ui.widgets.layer.StillBox`) in the board's still
layer: a tap that chooses a tile changes two tiles, the spaces it may go to and, most times, the panel, and the
board is drawn again only there, clipped to those rectangles (`StillLayer.patched`). So are the score pad's
rounds, its totals and the row of Add round and End: OK on a cell changes one of each. What must hold: the board
shows exactly the pixels it shows drawn whole.
"""

from __future__ import annotations

from typing import Any

from tests.ui.test_quinque_screen import tap
from ui.widgets.layer import Patches


def _whole_again(ui: Any, layer: Any) -> bytes:
    """The layer's pixels drawn whole, in the next frame."""
    layer.fbo.ask_update()
    ui.frames(1)
    assert layer.patched == [], "drawn whole"
    return bytes(layer.fbo.pixels)


def test_a_tile_chosen_draws_the_board_again_only_where_it_changed_and_shows_what_the_whole_board_shows(
    ui: Any,
) -> None:
    """A tile chosen, then another and the first again: each of the two taps draws the board again only within the
    tiles, spaces and panel it changed (a small part of the board), and the board's pixels are then, to the last
    one, those of the board drawn whole. (The first choice adds the spaces the tile may go to: new widgets on the
    board, which is then drawn whole.)"""
    from tests.support import golden

    session = golden.play(ui.store, "quinque-advanced-full-game", upto=40)
    screen = ui.app.resume_game(session.game_id)
    ui.frames(3)
    ui.settle()
    layer = screen.ids.still.__self__  # (ids hold weak proxies)
    boxes = [*screen.tile_views.values(), *screen.spaces.values(), screen.board.ids.panel]
    assert all(box.layer is layer for box in boxes), "each box found the board's layer (the panel joined it later)"
    width, height = layer.fbo.size
    choosing = [k for k in screen.spots if screen.shown.tap_skydiver(*k).chosen is not None]
    tiles = list(dict.fromkeys(at for at, _corner in choosing))
    for turn, at in enumerate((tiles[0], tiles[-1], tiles[0])):
        corner = next(c for a, c in choosing if a == at)
        tap(ui, screen, screen.spots[(at, corner)])
        if turn == 0:
            continue
        ui.frames(1)  # the scroll of `tap` drew the board whole; this tap's frame draws it patched
        patched = list(layer.patched)
        assert patched, f"{at}: drawn again only where it changed"
        assert sum(w * h for _x, _y, w, h in patched) < width * height / 3
        assert all(x >= 0 and y >= 0 and x + w <= width and y + h <= height for x, y, w, h in patched)
        shown = bytes(layer.fbo.pixels)
        assert _whole_again(ui, layer) == shown, f"{at}: the board patched shows what it shows drawn whole"


def test_a_box_that_changes_with_nothing_else_draws_only_its_rectangle(ui: Any) -> None:
    """The side panel's Skip greyed and lit again: the board is drawn again within the panel and nowhere else,
    and a change outside every box (the formation scrolled) draws it whole."""
    from tests.support import golden

    session = golden.play(ui.store, "quinque-advanced-full-game", upto=40)
    screen = ui.app.resume_game(session.game_id)
    ui.frames(3)
    ui.settle()
    layer, panel = screen.ids.still.__self__, screen.board.ids.panel
    before = panel.renders
    screen.board.can_skip = not screen.board.can_skip
    ui.frames(2)
    px, py = panel.to_window(panel.x, panel.y)
    assert panel.renders > before
    assert layer.patched == [(int(px), int(py), int(panel.width), int(panel.height))]
    shown = bytes(layer.fbo.pixels)
    assert _whole_again(ui, layer) == shown
    screen.board.can_skip = not screen.board.can_skip
    ui.frames(2)
    assert layer.patched, "patched again: what follows must draw it whole to pass"
    scroller, before = screen.board.ids.scroller, layer.renders
    assert scroller.children[0].height > scroller.height, "the formation scrolls"
    scroller.scroll_y = 0.5 if scroller.scroll_y != 0.5 else 0.0
    ui.frames(2)
    assert layer.renders > before and layer.patched == [], "a scroll is no box's change: the board is drawn whole"


def test_ok_on_a_score_pad_cell_draws_the_board_again_only_in_its_round_the_totals_and_who_leads(ui: Any) -> None:
    """A score pad of 20 rounds × 5 players, scrolled to its last rounds: OK on a cell of round 20 changes the cell,
    its player's total ("running totals and who leads", issue 27) and who leads. The board is drawn again only
    within that round's row, the totals and the row under them, and shows what it shows drawn whole."""
    from tests.ui.test_score_pad_screen import long_pad, score

    screen = long_pad(ui, lambda number, seat: number * 3 - seat)
    session = screen.session
    screen.board.ids.scroll.scroll_y = 0
    ui.frames(3)
    ui.settle()
    layer = screen.ids.still.__self__
    row, strips = screen._rows[19], [w for w in screen.board.walk(restrict=True) if type(w).__name__ == "PadStrip"]
    assert len(strips) == 2 and all(box.layer is layer for box in [*screen._rows, *strips])
    width, height = layer.fbo.size
    score(ui, screen, 20, 2, "99")
    assert session.state.cells[19][2] == 99 and screen.board.leader.startswith("Cy leads")
    patched = list(layer.patched)
    assert patched, "drawn again only where it changed"
    assert sum(w * h for _x, _y, w, h in patched) < width * height / 2
    left, bottom = layer.to_window(layer.x, layer.y)  # the buffer's pixel (0, 0) on the window
    corners = (row.to_window(*row.pos), row.to_window(row.right, row.top))
    (x0, y0), (x1, y1) = ((x - left, y - bottom) for x, y in corners)
    assert any(x <= x0 and y <= y0 and x + w >= x1 and y + h >= y1 for x, y, w, h in patched), "the round's row"
    shown = bytes(layer.fbo.pixels)
    assert _whole_again(ui, layer) == shown, "the board patched shows what it shows drawn whole"


def test_boxes_side_by_side_are_drawn_in_one_pass_and_far_apart_in_their_own() -> None:
    """Each rectangle costs a pass over the whole layer: two tiles side by side (or a tile and the space beside
    it) are one pass; a tile and the side panel across the board are two; many are one, around them all."""
    tile, beside, below = (0, 0, 112, 112), (112, 0, 112, 112), (0, 112, 112, 112)
    panel = (574, 6, 220, 398)

    def joined(*rects: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]]:
        patches = Patches()
        for rect in rects:
            patches.add(rect)
        return patches.rects()

    assert joined(tile) == [tile]
    assert joined(tile, beside) == [(0, 0, 224, 112)]
    assert joined(tile, beside, below) == [(0, 0, 224, 224)], "joined, and the union joined again"
    assert joined(tile, panel) == [tile, panel]
    assert joined(tile, tile) == [tile]
    far = [(x, 300, 10, 10) for x in range(0, 800, 200)]
    assert joined(*far) == [(0, 300, 610, 10)], "more than three passes: one around them all"
