"""Quinque's screen with real touches: add and mark, select and move, Skip, the winning line."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from companion.game import RuleError
from ui.screens.quinque import cell_size, spot_size

pytestmark = pytest.mark.ui

GOLDEN = Path(__file__).resolve().parent.parent / "games" / "golden"


def actions_of(name: str) -> list[dict[str, Any]]:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip() and not line.startswith("#")]


def tap(ui: Any, screen: Any, widget: Any) -> None:
    """Scroll the formation so `widget` shows, then touch it."""
    scroller = screen.board.ids.scroller
    target = widget if widget.parent is screen.board.ids.formation else widget.parent
    scroller.scroll_to(target, padding=0, animate=False)
    ui.frames(2)
    ui.tap(widget)


def spot(screen: Any, tile: tuple[int, int], corner: str) -> Any:
    return screen.spots[(tile, corner)]


def play_along(screen: Any, actions: list[dict[str, Any]]) -> None:
    for action in actions:
        if action["type"] == "undo":
            screen.session.undo()
        elif action["type"] == "redo":
            screen.session.redo()
        else:
            screen.session.act(action)


def test_adding_marking_and_skipping_by_touch(ui: Any) -> None:
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    assert set(screen.tile_views) == {(0, 0)}  # the faint space for the first tile
    assert not screen.board.can_skip
    tap(ui, screen, spot(screen, (0, 0), "se"))
    view = screen.session.public_view()
    assert view["tiles"][0]["skydivers"]["se"] == "Ann"
    assert view["step"] == "move" and screen.board.can_skip
    assert spot(screen, (0, 0), "se").text == "A"

    ui.tap(ui.find(screen, "skip_button"))
    assert screen.session.current_player == "Bo"
    assert set(screen.tile_views) == {(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)}  # the tile and 4 faint spaces
    ui.screenshot("quinque-open-spaces.png")
    tap(ui, screen, spot(screen, (1, 0), "nw"))  # a faint space beside the first tile
    assert screen.session.public_view()["tiles"][1]["at"] == [1, 0]
    ui.tap(ui.find(screen, "skip_button"))

    # A skydiver that already wears a parachute picks up its tile (the first action may be a move); again lets go.
    tap(ui, screen, spot(screen, (0, 0), "se"))
    assert screen.selected == (0, 0) and not screen.banner_is_error
    tap(ui, screen, spot(screen, (0, 0), "se"))
    assert screen.selected is None
    tap(ui, screen, spot(screen, (1, 0), "se"))
    assert screen.session.public_view()["tiles"][1]["skydivers"]["se"] == "Ann"
    assert [p["parachutes_left"] for p in screen.session.public_view()["players"]] == [16, 17]
    assert screen.board.ids.player0.counts == "16 parachutes · 15 tiles"
    ui.screenshot("quinque-after-marks.png")

    ui.tap(ui.find(screen, "undo_button"))
    assert screen.session.public_view()["tiles"][1]["skydivers"]["se"] is None


def test_a_selected_tile_lights_its_destinations_and_moves_by_touch(ui: Any) -> None:
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    play_along(screen, actions_of("quinque-row-win.jsonl")[:8])  # Bo has just added (1,1)
    ui.frames(2)
    view = screen.session.public_view()
    assert view["step"] == "move" and view["current"] == "Bo"

    # The tile Bo marked this turn stays: tapping it says why.
    tap(ui, screen, spot(screen, (1, 1), "se"))
    assert screen.selected is None and "marked this turn" in screen.banner

    tap(ui, screen, spot(screen, (0, 0), "sw"))
    assert screen.selected == (0, 0)
    legal = {tuple(p) for m in view["moves"] if m["from"] == [0, 0] for p in m["to"]}
    ui.frames(2)
    lit = {at for at, space in screen.spaces.items() if tuple(space.edge) != (0, 0, 0, 0)}
    assert lit == legal and (1, 0) in lit
    ui.screenshot("quinque-move-destinations.png")

    # A space that is not lit: the move is sent anyway and the rules say why not.
    tap(ui, screen, screen.spaces[(-1, 2)])
    assert screen.banner_is_error and "row, its column or a diagonal" in screen.banner
    assert screen.selected is None

    tap(ui, screen, spot(screen, (0, 0), "sw"))
    tap(ui, screen, screen.spaces[(1, 0)])
    view = screen.session.public_view()
    assert [t["at"] for t in view["tiles"]] == [[1, 0], [0, 1], [1, 1]]
    assert view["current"] == "Ann" and view["step"] == "mark"


def test_the_winning_line_is_highlighted(ui: Any) -> None:
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    actions = actions_of("quinque-row-win.jsonl")
    play_along(screen, actions[:-1])
    ui.frames(2)
    last = actions[-1]
    tap(ui, screen, spot(screen, tuple(last["tile"]), last["skydiver"]))
    outcome = screen.session.outcome
    assert outcome is not None and outcome.winners == ("Ann",)
    ui.frames(2)
    line = {tuple(p) for p in screen.session.public_view()["line"]}
    assert line == {(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)}
    glowing = {
        (2 * at[0] + i % 2, 2 * at[1] + i // 2)
        for (at, corner), widget in screen.spots.items()
        for i in [("nw", "ne", "sw", "se").index(corner)]
        if tuple(widget.glow) != (0, 0, 0, 0)
    }
    assert glowing == line
    formation = screen.board.ids.formation
    assert formation.line_on and formation.line_angle == 0  # a row: the ring lies flat
    assert screen.board.hint == "Ann lined up five skydivers."
    assert not screen.board.can_skip
    assert screen.turn_text == "Game over"
    centre = ui.find(screen, "centre_button")
    assert "Centre" not in screen.banner  # nothing past the side any more: the banner says no more
    assert not centre.disabled  # the formation sits a column off the middle: Centre may tidy it
    ui.screenshot("quinque-winning-line-off-centre.png")
    ui.tap(centre)
    ui.frames(3)
    assert centre.disabled and formation.line_on
    ui.screenshot("quinque-winning-line.png")
    ui.resize(1280, 720)
    ui.screenshot("quinque-winning-line-1280x720.png")
    ui.resize(800, 480)


def test_advanced_rules_and_the_tie_are_shown(ui: Any) -> None:
    screen = ui.start_game("quinque", ["Ann", "Bo"], advanced=True)
    assert "Advanced moves" in screen.board.note
    screen = ui.start_game("quinque", ["Ann", "Bo"], tiles=1, parachutes=2)
    assert "Advanced moves" not in screen.board.note
    play_along(screen, actions_of("quinque-small-tie.jsonl"))
    ui.frames(2)
    assert screen.session.outcome.is_tie
    assert "out of parachutes" in screen.board.hint
    ui.screenshot("quinque-tie.png")


def test_a_diagonal_line_is_ringed_along_the_diagonal(ui: Any) -> None:
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    play_along(screen, actions_of("quinque-diagonal-win.jsonl"))
    ui.frames(2)
    assert screen.session.outcome.winners == ("Ann",)
    formation = screen.board.ids.formation
    assert formation.line_on and abs(formation.line_angle) == pytest.approx(45)
    ui.screenshot("quinque-diagonal-line.png")


def on_screen(widget: Any) -> tuple[int, int]:
    x, y = widget.to_window(*widget.center)
    return round(x), round(y)


def where(screen: Any) -> dict[tuple[tuple[int, int], str], tuple[int, int]]:
    """Where every placed tile's skydivers are on the screen (window pixels)."""
    placed = {tuple(t["at"]) for t in screen.session.public_view()["tiles"]}
    return {key: on_screen(spot) for key, spot in screen.spots.items() if key[0] in placed}


def test_the_formation_never_moves_under_the_finger(ui: Any) -> None:
    """Issue 21: "Quinque re-centres the formation after a tile is added, so the next tap marks another tile."

    A tile added (and the move step's spaces, and the turn passing) leaves every tile already on the board where
    it was on screen.
    """
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    ui.tap(spot(screen, (0, 0), "se"))
    ui.frames(3)
    ui.tap(ui.find(screen, "skip_button"))
    ui.frames(3)
    for at, corner in (((1, 0), "nw"), ((0, 1), "ne"), ((-1, 0), "sw"), ((0, -1), "se")):
        before = where(screen)
        widget = spot(screen, at, corner)
        aimed = on_screen(widget)
        ui.tap(widget)  # add a tile: straight at it, no scrolling first
        ui.frames(3)
        after = where(screen)
        assert {k: after[k] for k in before} == before, f"the formation moved when {at} was added"
        assert after[(at, corner)] == aimed  # the new tile is where the finger was
        view = screen.session.public_view()
        assert [at[0], at[1]] in [t["at"] for t in view["tiles"]]
        before = where(screen)
        ui.tap(ui.find(screen, "skip_button"))
        ui.frames(3)
        assert where(screen) == before, "the formation moved when the turn passed"
    ui.screenshot("quinque-after-several-tiles.png")


def in_sight(screen: Any) -> bool:
    """Every placed tile lies inside the board area, sideways."""
    scroller = screen.board.ids.scroller
    left = scroller.to_window(*scroller.pos)[0]
    placed = [tuple(t["at"]) for t in screen.session.public_view()["tiles"]]
    xs = [screen.tile_views[at].to_window(*screen.tile_views[at].pos)[0] for at in placed]
    return all(left - 1 <= x and x + cell_size() <= left + scroller.width + 1 for x in xs)


def test_a_formation_past_the_side_stays_put_until_centre_is_tapped(ui: Any) -> None:
    """Issue 21: "one tap apart on the same screen, every tappable that is still there keeps its position and
    size, unless the tap opened or closed a popup" and "No sideways scrolling of anything a player needs".

    Ann adds a tile at the board's side edge: nothing already shown moves (it used to move over a column, under
    the next finger), the board does not scroll sideways, and Centre lights up with the banner saying why.
    One tap on Centre brings the whole formation into sight; a second tap (a double tap) moves nothing again.
    """
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    for action in (
        {"type": "add", "player": "Ann", "tile": [0, 0], "skydiver": "nw"},
        {"type": "skip", "player": "Ann"},
    ):
        screen.session.act(action)
    ui.frames(3)
    centre = ui.find(screen, "centre_button")
    assert centre.disabled  # everything is in sight: nothing to centre
    ui.tap(spot(screen, (1, 0), "nw"))
    ui.frames(3)
    ui.tap(ui.find(screen, "skip_button"))
    ui.frames(3)
    assert centre.disabled
    before = where(screen)
    widget = spot(screen, (2, 0), "nw")  # the faint space at the board's right edge
    aimed = on_screen(widget)
    ui.tap(widget)
    ui.frames(3)
    after = where(screen)
    assert {k: after[k] for k in before} == before and after[((2, 0), "nw")] == aimed
    scroller = screen.board.ids.scroller
    assert not scroller.do_scroll_x and screen.board.ids.formation.width <= scroller.width + 1
    assert not centre.disabled and "tap Centre to see it all" in screen.banner
    skip = ui.find(screen, "skip_button")
    skip_box = (skip.to_window(*skip.pos), tuple(skip.size))
    ui.screenshot("quinque-past-the-side.png")

    ui.tap(centre)
    ui.frames(3)
    assert in_sight(screen) and centre.disabled
    assert (skip.to_window(*skip.pos), tuple(skip.size)) == skip_box  # Skip beside it never moves
    centred = where(screen)
    ui.tap(centre)  # a double tap's second half
    ui.frames(3)
    assert where(screen) == centred
    ui.screenshot("quinque-centred.png")
    ui.tap(ui.find(screen, "undo_button"))  # back to before the tile at the edge, and forward again
    ui.tap(ui.find(screen, "redo_button"))
    assert where(screen) == centred


def test_a_formation_wider_than_the_board_is_shown_turned_when_centred(ui: Any) -> None:
    """Issue 21's audit: "no sideways scrolling", and skydivers (and spaces) "at least 48 px and 8 px apart".

    Six columns do not fit the 800x480 board: a tap on Centre shows the formation turned a quarter (as from the
    next side of the table), scrolling up and down, and the banner says so. It never turns by itself mid-game.
    """
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    for n, who in enumerate(("Ann", "Bo", "Ann", "Bo")):
        screen.session.act({"type": "add", "player": who, "tile": [n, 0], "skydiver": "nw"})
        screen.session.act({"type": "skip", "player": who})
    ui.frames(4)
    assert not screen._turned
    ui.tap(ui.find(screen, "centre_button"))
    ui.frames(4)
    assert screen._turned
    assert "turned a quarter" in screen.banner
    scroller = screen.board.ids.scroller
    assert screen.board.ids.formation.width <= scroller.width + 1 and in_sight(screen)
    # Turned clockwise: the tile east of another now lies below it, and Ann's skydivers keep their tiles.
    above, below = (screen.tile_views[(n, 0)].to_window(*screen.tile_views[(n, 0)].pos) for n in (0, 1))
    assert abs(above[0] - below[0]) < 1 and above[1] - below[1] == cell_size()
    nw, ne, sw = (spot(screen, (0, 0), corner) for corner in ("nw", "ne", "sw"))
    assert on_screen(nw)[0] == on_screen(ne)[0] > on_screen(sw)[0]  # north-west top right, north-east below it
    assert on_screen(nw)[1] - on_screen(ne)[1] == spot_size() + 8 and nw.width >= 48
    ui.screenshot("quinque-turned.png")


def _drawn(screen: Any) -> list[Any]:
    """What the formation shows, widget by widget by place: each tile's and space's place and colours, and each
    skydiver's place, initial, colours and corner. Tiles and spaces never overlap, so the order among them is not
    what a player sees; that every space lies under every tile is (`_spaces_under_tiles`)."""
    from ui.screens.quinque import QuinqueTile

    _spaces_under_tiles(screen)
    shown: list[Any] = []
    for widget in reversed(screen.board.ids.formation.children):
        item = [type(widget).__name__, tuple(widget.pos), tuple(widget.size), tuple(widget.back), tuple(widget.edge)]
        if isinstance(widget, QuinqueTile):
            item += [widget.dashed, widget.edge_width]
            item += [
                (tuple(s.pos), s.text, tuple(s.fill), tuple(s.ring), tuple(s.glow), s.corner)
                for s in reversed(widget.children)
            ]
        shown.append(item)
    return sorted(shown, key=repr)


def _spaces_under_tiles(screen: Any) -> None:
    """Drawing order: every empty space before (under) every tile, whichever drawing added them."""
    from ui.screens.quinque import QuinqueSpace, QuinqueTile

    drawn = list(reversed(screen.board.ids.formation.children))
    spaces = [i for i, w in enumerate(drawn) if isinstance(w, QuinqueSpace)]
    tiles = [i for i, w in enumerate(drawn) if isinstance(w, QuinqueTile)]
    assert not spaces or not tiles or max(spaces) < min(tiles)


@pytest.mark.parametrize("script", ["quinque-row-win.jsonl", "quinque-move-first.jsonl"])
def test_a_formation_drawn_again_on_its_own_widgets_shows_what_one_made_anew_shows(ui: Any, script: str) -> None:
    """A drawing keeps the tiles, skydivers and spaces of the last one where their place is drawn again (a late
    game's move was made slow by making every skydiver anew). At every step of the script (undo and redo among
    them), and with a tile chosen to move where one can be, nothing of the last drawing shows through: every
    place, colour, initial and ring is the one a drawing on new widgets gives. Each step is also taken back and
    done again."""
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    kept = 0

    def same_as_made_anew() -> None:
        nonlocal kept
        screen.draw()  # now, rather than on the next frame: what is compared is the widgets, not the pixels
        held = list(screen.spots.values())  # held, so that no new widget can take one of their ids
        again = _drawn(screen)
        kept += len(held)
        screen.board.ids.formation.clear_widgets()
        screen.tile_views, screen.spaces = {}, {}  # nothing to take back: every widget made anew
        screen.draw()
        assert again == _drawn(screen)
        assert not {id(w) for w in held} & {id(w) for w in screen.spots.values()}

    for action in actions_of(script):
        with contextlib.suppress(RuleError):  # a refusal the script expects: the formation is drawn all the same
            play_along(screen, [action])
        same_as_made_anew()
        if action["type"] not in ("undo", "redo") and screen.session.can_undo:
            screen.session.undo()  # a mark taken back: its skydiver is free again on the same widget
            same_as_made_anew()
            screen.session.redo()
            same_as_made_anew()
        shown = screen.shown
        taps = {key: shown.tap_skydiver(*key) for key in screen.spots}
        choosing = [key for key, tap in taps.items() if tap.action is None and tap.chosen not in (None, shown.chosen)]
        if choosing:  # a tile chosen to move: it and the spaces it may go to light up
            screen.touch_skydiver(*choosing[0])
            same_as_made_anew()
    assert kept > 100


def touch_in_a_frame(ui: Any, screen: Any, widget: Any) -> None:
    """Scroll the formation so `widget` shows, then touch it inside a frame (`ui.touch_in_a_frame`)."""
    formation = screen.board.ids.formation
    if formation in (widget.parent, widget.parent.parent):
        target = widget if widget.parent is formation else widget.parent
        screen.board.ids.scroller.scroll_to(target, padding=0, animate=False)
    ui.touch_in_a_frame(widget)


def test_a_tap_on_the_formation_is_drawn_in_the_frame_that_answers_it_on_the_widgets_already_there(
    ui: Any, monkeypatch: Any
) -> None:
    """Issue 26: "Every tap answered quickly [...] the time from the touch event to the frame that shows the
    result". A tap that changes the formation (a mark, a tile added, a tile chosen, moved, Skip, Undo) is drawn
    before the next frame: no frame shows the formation as it was while its change waits to be drawn. And what
    is drawn again stays on the formation: the tiles, skydivers and spaces of places drawn again are never taken
    off and put back (nothing about them changed), and every space stays
    under every tile."""
    from kivy.core.window import Window

    from ui.dispatch import clock_dispatcher

    monkeypatch.setattr(ui.table, "dispatch", clock_dispatcher)  # the moves reach the screen as in the app
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    play_along(screen, actions_of("quinque-row-win.jsonl")[:8])  # Bo has just added (1,1): a formation of three
    ui.frames(3)
    stale: list[str] = []

    def on_flip(*_: Any) -> None:
        if screen._redraw.is_triggered:
            stale.append(screen.session.public_view()["step"])

    moved: list[Any] = []
    Window.bind(on_flip=on_flip)
    try:
        for step in ("choose", "move", "mark", "skip", "undo"):
            formation = screen.board.ids.formation
            kept = list(formation.children)
            for widget in kept:
                widget.fbind("parent", lambda w, parent: moved.append(w))
            if step == "choose":
                touch_in_a_frame(ui, screen, spot(screen, (0, 0), "sw"))
                assert screen.selected == (0, 0)
            elif step == "move":
                touch_in_a_frame(ui, screen, screen.spaces[(1, 0)])
                assert [t["at"] for t in screen.session.public_view()["tiles"]] == [[1, 0], [0, 1], [1, 1]]
            elif step == "mark":
                shown = screen.shown
                key = next(k for k in screen.spots if (t := shown.tap_skydiver(*k)).action and not t.error)
                touch_in_a_frame(ui, screen, screen.spots[key])
                assert screen.session.public_view()["step"] == "move"
            else:
                touch_in_a_frame(ui, screen, ui.find(screen, f"{step}_button"))
            ui.frames(2)
            gone = [w for w in kept if w.parent is None]
            # (A space let go is kept to be placed again by a later step: its binding from this step still counts.)
            moved_here = {id(w) for w in moved} & {id(w) for w in kept}
            assert moved_here <= {id(w) for w in gone}, f"{step}: a widget drawn again was taken off"
            moved.clear()
            _spaces_under_tiles(screen)
    finally:
        Window.unbind(on_flip=on_flip)
    assert screen.session.public_view()["tiles"], "the taps were answered"
    assert not stale, f"frames drawn while the formation waited to be drawn again, at: {stale}"


@pytest.mark.parametrize("moves", [0, 8])
def test_a_new_screens_first_frame_shows_its_whole_formation(ui: Any, moves: int) -> None:
    """Issue 26: "the time from the touch event to the frame that shows the result". A game started or resumed
    shows its formation in the screen's first frame: no frame shows the board empty while it waits to be drawn."""
    from kivy.core.window import Window

    from tests.support import golden

    session = golden.play(ui.store, "quinque-row-win", upto=moves)
    frames: list[tuple[str, int, bool]] = []

    def on_flip(*_: Any) -> None:
        screen = ui.app.screens.current_screen
        frames.append(
            (screen.name, len(getattr(screen, "spots", {})), screen.name != "home" and screen._redraw.is_triggered)
        )

    Window.bind(on_flip=on_flip)
    try:
        screen = ui.app.resume_game(session.game_id)
        ui.frames(2)
    finally:
        Window.unbind(on_flip=on_flip)
    name, spots, waiting = frames[0]
    assert name == screen.name and not waiting
    assert spots == len(screen.spots) > 0, "the formation drawn in the first frame is the one drawn since"


def thick_lines(what: Any) -> list[tuple[float, tuple[float, ...]]]:
    """Every `Line` wider than one pixel on a canvas and the canvases within it, or that a widget draws (its still
    boxes' buffers too): (its width, its colour)."""
    from kivy.graphics import Line

    return [(line.width, colour) for line, colour in _drawn_in(what) if isinstance(line, Line) and line.width > 1]


def _drawn_in(what: Any) -> list[tuple[Any, tuple[float, ...]]]:
    from kivy.uix.widget import Widget

    from tests.support.canvas import drawn, drawn_by

    return drawn_by(what) if isinstance(what, Widget) else drawn(what)


@pytest.mark.parametrize("script, upto", [("quinque-advanced-full-game", 40), ("quinque-row-win", None)])
def test_the_formations_wide_lines_are_opaque(ui: Any, script: str, upto: int | None) -> None:
    """What a person sees: Kivy draws a line wider than a pixel in a colour that is not opaque through a stencil
    of its own, which let pixels of skydivers past the board's edge show beside it (and cost a stencil pass a
    line). Every wide line of the formation is opaque: mid-game with a tile chosen and its spaces lit, and at a
    win with its line drawn."""
    from tests.support import golden

    session = golden.play(ui.store, script, upto=upto)
    screen = ui.app.resume_game(session.game_id)
    ui.frames(3)
    if upto is not None:  # a tile chosen: its edge, and the spaces it may go to, lit
        key = next(k for k in screen.spots if screen.shown.tap_skydiver(*k).chosen is not None)
        ui.tap(screen.spots[key])
        ui.frames(2)
        assert screen.selected is not None
    lines = thick_lines(screen.board.ids.formation)
    assert lines, "the formation draws wide lines"
    assert [(w, c) for w, c in lines if c[3] != 1.0] == []


def test_nothing_of_the_formation_shows_past_the_board(ui: Any) -> None:
    """What a person sees: two thirds into a long game the formation is wider than the board; beside the board,
    the side panel shows exactly what it shows with no formation at all (no stray pixels of skydivers)."""
    from PIL import Image, ImageChops

    from tests.support import golden

    lines = golden.read(golden.FOLDER / "quinque-advanced-full-game.jsonl").lines
    session = golden.play(ui.store, "quinque-advanced-full-game", upto=len(lines) * 2 // 3)
    screen = ui.app.resume_game(session.game_id)
    ui.frames(3)
    board = screen.board.ids.scroller
    right = int(board.to_window(board.right, 0)[0]) + 2
    # Only the strip beside the board: the top bar's clock may tick between the two screenshots.
    top = ui.window.height - int(board.to_window(0, board.top)[1])
    bottom = ui.window.height - int(board.to_window(0, board.y)[1])
    past = [k for k, spot in screen.spots.items() if spot.to_window(spot.right, spot.y)[0] > right]
    assert past, "skydivers lie past the board's edge"
    with Image.open(ui.screenshot("quinque-past-the-board.png")) as shot:
        seen = shot.convert("RGB")
    screen.board.ids.formation.opacity = 0
    with Image.open(ui.screenshot("quinque-past-the-board-without.png")) as shot:
        without = shot.convert("RGB")
    box = (right, top, seen.width, bottom)
    assert ImageChops.difference(seen.crop(box), without.crop(box)).getbbox() is None


def test_a_colour_made_solid_is_the_colour_it_showed_over_its_background() -> None:
    """`theme.solid`, by which the formation's wide lines are opaque: the same colour on screen, blended once."""
    from ui import theme

    assert theme.solid((1.0, 1.0, 1.0, 0.5), (0.0, 0.0, 0.0, 1.0)) == (0.5, 0.5, 0.5, 1.0)
    assert theme.solid(theme.TEXT, theme.BG) == theme.TEXT, "an opaque colour is itself"
    faint_back = (0.0, 0.0, 1.0, 0.5)  # itself over the screen's background
    seen_back = tuple(0.5 * c + 0.5 * b for c, b in zip(faint_back[:3], theme.BG[:3], strict=True))
    assert theme.solid((1.0, 1.0, 1.0, 0.5), faint_back) == pytest.approx((*(0.5 + 0.5 * c for c in seen_back), 1.0))


def shapes_drawn(what: Any) -> list[tuple[str, tuple[float, ...]]]:
    """What a canvas draws, or a widget (`thick_lines`): its vertex instructions, within groups too, each with its
    colour."""
    from kivy.graphics import VertexInstruction

    return [(type(i).__name__, colour) for i, colour in _drawn_in(what) if isinstance(i, VertexInstruction)]


@pytest.mark.parametrize("script, upto", [("quinque-advanced-full-game", 40), ("quinque-row-win", None)])
def test_the_formation_draws_only_what_shows(ui: Any, script: str, upto: int | None) -> None:
    """Issue 26: "Every tap answered quickly". Under software GL each drawing instruction costs about as much as
    its pixels, shown or not: every skydiver drew a glow, a disc and its initial, clear or empty, and a tap on the
    formation took 21 ms. A free skydiver draws one ring; a marked one its disc, its ring and its initial; one in
    the winning line its glow under them. Nothing on the formation is drawn in a clear colour: mid-game with a tile
    chosen and its spaces lit, and at a win with its line drawn."""
    from tests.support import golden

    session = golden.play(ui.store, script, upto=upto)
    screen = ui.app.resume_game(session.game_id)
    ui.frames(3)
    if upto is not None:  # a tile chosen: the spaces it may go to lit, the others not
        key = next(k for k in screen.spots if screen.shown.tap_skydiver(*k).chosen is not None)
        ui.tap(screen.spots[key])
        ui.frames(2)
        assert screen.selected is not None and screen.spaces
    looks = set()
    for skydiver in screen.spots.values():
        kinds = [kind for kind, _colour in shapes_drawn(skydiver.canvas)]
        marked, glowing = skydiver.fill[3] > 0, skydiver.glow[3] > 0
        assert marked == bool(skydiver.text)
        expected = ["Ellipse"] * glowing + ["Ellipse"] * marked + ["Line"] + ["Rectangle"] * marked
        assert kinds == expected, (skydiver.text, tuple(skydiver.fill), tuple(skydiver.glow))
        looks.add((marked, glowing))
    assert {(False, False), (True, False)} <= looks
    assert ((True, True) in looks) == (upto is None), "the winning line's skydivers glow"
    formation = screen.board.ids.formation
    clear = [(kind, colour) for kind, colour in shapes_drawn(formation) if colour[3] == 0]
    assert clear == []
    rings = [kind for kind, _colour in shapes_drawn(formation.canvas.after)]
    assert rings == (["Line"] if upto is None else []), "the winning line's ring, once there is one"


def test_a_tap_draws_again_only_the_tiles_whose_look_it_changes(ui: Any) -> None:
    """Issue 26: "Every tap answered quickly". Each tile is drawn into a buffer of its own (`StillBox`), and the
    board shows the buffers: a tap that marks a skydiver draws that tile again, and each other tile whose look
    changed, and none of the others (every tile drawn again took a tap on the formation 21 ms; 11 ms now). A
    tile's look was set in two steps (a default, then its own), which drew every tile again at every tap."""
    from tests.support import golden

    session = golden.play(ui.store, "quinque-advanced-full-game", upto=40)
    screen = ui.app.resume_game(session.game_id)
    ui.frames(3)
    ui.settle()
    def looks() -> dict[Any, Any]:  # what a tile shows: its kind, its skydivers, chosen or outlined
        return {c.at: (c.kind, c.skydivers, c.chosen, c.outlined) for c in screen.shown.cells if c.kind != "space"}

    before = looks()
    renders = {at: tile.renders for at, tile in screen.tile_views.items()}
    key = next(k for k in screen.spots if screen.shown.tap_skydiver(*k).action is not None)
    tap(ui, screen, screen.spots[key])
    ui.settle()
    after = looks()
    changed = {at for at, look in after.items() if at in renders and before.get(at) != look}
    drawn = {at for at, tile in screen.tile_views.items() if at in renders and tile.renders > renders[at]}
    assert key[0] in drawn
    assert drawn == changed
    assert len(drawn) < len(renders) / 2


def test_the_spaces_a_move_step_shows_are_made_ahead_while_the_board_waits(ui: Any, monkeypatch: Any) -> None:
    """Issue 26: "Every tap answered quickly", the first one too. The first tap that showed the formation's empty
    spaces (a mark, which begins the move step) made every space's buffer itself: some twenty-six, 70 ms, where
    a later tap made none. They are made ahead, one a frame, while the board waits, and drawn into their
    buffers; the tap then only places them."""
    from ui.dispatch import clock_dispatcher
    from ui.screens.quinque import QuinqueSpace

    monkeypatch.setattr(ui.table, "dispatch", clock_dispatcher)  # the moves reach the screen as in the app
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    play_along(screen, actions_of("quinque-row-win.jsonl")[:7])
    ui.frames(2)
    assert screen.session.public_view()["step"] != "move" and not screen.spaces  # none shown yet
    assert ui.wait_until(lambda: len(screen._idle_spaces) >= screen.spaces_wanted())
    ahead = {id(space) for space in screen._idle_spaces}
    assert not any(space.fbo.needs_redraw for space in screen._idle_spaces)  # drawn ahead, not on the tap
    made: list[QuinqueSpace] = []
    made_by_the_screen = screen._new_space
    monkeypatch.setattr(screen, "_new_space", lambda at: made.append(made_by_the_screen(at)) or made[-1])

    shown = screen.shown
    key = next(k for k in screen.spots if (t := shown.tap_skydiver(*k)).action and not t.error)
    touch_in_a_frame(ui, screen, screen.spots[key])
    ui.frames(2)
    assert screen.session.public_view()["step"] == "move" and screen.spaces
    assert not made, f"{len(made)} spaces made on the tap"
    assert {id(space) for space in screen.spaces.values()} <= ahead
