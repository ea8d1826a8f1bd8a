"""Issue 26: "Every tap answered quickly", Resume among them. Home keeps the screen of each unfinished game it lists
(`ui.kept_screens`): the one a game was left on, or, in the appliance, one made ahead while the table looks at
home. Resume shows it with its buffers drawn before the tap, exactly as a screen made on the tap would show the
game; the game's clock does not run while home shows; a game ended from home takes its screen with it; and a
screen that holds the table's buttons is never kept."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from companion.session import Session
from tests.ui.test_home_unfinished import _play_part
from ui import kept_screens
from ui.screens import screen_class
from ui.widgets.layer import StillLayer

pytestmark = pytest.mark.ui

# Every game with a screen of its own that home lists as unfinished, each played part of the way.
SCRIPTS = (
    "quark-3p-dry-bank",
    "quin-key-light-captured",
    "quinque-advanced-full-game",
    "quintet-five-players",
    "quantum-link-full-board",
    "score-pad-carcassonne",
)


def _layers(screen: Any) -> list[StillLayer]:
    return [w for w in screen.walk(restrict=True) if isinstance(w, StillLayer)]


def _renders(screen: Any) -> list[int]:
    return [layer.renders for layer in _layers(screen)]


def _shown(screen: Any) -> list[tuple[Any, ...]]:
    """What the table reads on `screen`: every widget's kind, words, colour, state, place and size to the pixel
    (the clock's words aside: a second may turn between two screens)."""
    clock = screen.ids.clock_label.__self__  # ids hold weak proxies
    return [
        (type(w).__name__, None if w is clock else getattr(w, "text", None), tuple(getattr(w, "color", ())),
         w.disabled, w.opacity, tuple(map(round, w.to_window(*w.pos))), tuple(map(round, w.size)))
        for w in screen.walk(restrict=True)
    ]  # fmt: skip


def _as_made_on_the_tap(ui: Any, session: Session[Any, Any, Any]) -> list[tuple[Any, ...]]:
    """What a screen made for `session` now, as Resume used to make it, shows once laid out at the window's size."""
    fresh = screen_class(session.game.name)(session, ui.table, on_home=lambda: None)
    try:
        fresh.size = ui.window.size
        ui.frames(4)
        return _shown(fresh)
    finally:
        # Two screens on one session are this test's own doing: this one goes at once, before the next game is
        # looked at. (Left to a later collection, a kept screen's board was seen drawn once more at its Resume.)
        fresh.close()
        del fresh
        gc.collect()
        ui.frames(2)


def _unfinished(ui: Any) -> dict[int, str]:
    """Each script played part of the way in the `ui` fixture's games file, home shown anew on it: game → script."""
    clock = iter(range(1_750_000_000, 1_750_100_000, 60))
    played = {_play_part(ui.store, script, lambda: float(next(clock))).game_id: script for script in SCRIPTS}
    ui.reopen(Path(ui.store.path))
    ui.tap(ui.screen.ids.unfinished_tab)
    return played


def _resume(ui: Any, game_id: int) -> list[int]:
    """Resume game `game_id` from home; how often each of its kept screen's buffers was drawn in the tap's frame."""
    screen = ui.app.kept.take(game_id)
    assert screen is not None, "kept for its Resume"
    ui.app.kept.keep(screen)
    before = _renders(screen)
    ui.screen.resume(game_id)  # its row's Resume (a row below the fold is not under a finger)
    ui.frames(1)
    assert ui.screen is screen, "Resume shows the kept screen"
    return [after - was for after, was in zip(_renders(screen), before, strict=True)]


@pytest.fixture(autouse=True)
def every_game_kept(monkeypatch: Any) -> None:
    """Every script's screen kept (the app keeps the newest `KEPT_AT_MOST`), so that each game's is looked at."""
    monkeypatch.setattr(kept_screens, "KEPT_AT_MOST", len(SCRIPTS))


@pytest.fixture
def ahead(ui: Any) -> Any:
    """The app making screens ahead, as the appliance does (`companion run`)."""
    ui.app.making_ahead = True
    try:
        yield ui
    finally:
        ui.app.making_ahead = False
        ui.app.kept.drop_all()


def test_home_makes_each_unfinished_games_screen_ahead_and_resume_shows_it_drawn_as_a_new_one_would_be(
    ahead: Any,
) -> None:
    """Every game's screen made ahead while home shows: Resume draws none of its buffers again, and it shows what a
    screen made on the tap shows, to the pixel."""
    ui = ahead
    played = _unfinished(ui)
    assert ui.wait_until(lambda: all(g in ui.app.kept for g in played), timeout=10), "all made while home shows"
    assert ui.wait_until(lambda: not ui.app.kept.busy, timeout=15), "made and drawn ahead"
    for game_id, script in played.items():
        redrawn = _resume(ui, game_id)
        screen = ui.screen
        assert redrawn == [0] * len(redrawn), f"{script}: Resume shows the buffers drawn before its tap"
        assert _shown(screen) == _as_made_on_the_tap(ui, screen.session), script
        ui.screenshot(f"kept-screen-{script}.png")
        screen.go_home()
        ui.frames(2)


def test_a_long_score_pad_made_ahead_is_drawn_with_every_round_before_its_resume(ahead: Any) -> None:
    """A screen that goes on changing after it is made is drawn once more before its Resume: a score pad of 20
    rounds × 5 players adds its rounds below the fold a few a frame, and its board is drawn with all of them."""
    from companion.game import Options

    ui = ahead
    names = ("Ann", "Bo", "Cy", "Dee", "Eve")
    session = Session.start(ui.store, "score-pad", Options.for_names(*names))
    session.act({"type": "name", "title": "Carcassonne"})
    for number in range(1, 21):
        for seat, name in enumerate(names):
            session.act({"type": "score", "player": name, "round": number, "points": number + seat})
    game_id = session.game_id
    ui.reopen(Path(ui.store.path))
    ui.tap(ui.screen.ids.unfinished_tab)
    assert ui.wait_until(lambda: game_id in ui.app.kept, timeout=10), "made while home shows"
    assert ui.wait_until(lambda: not ui.app.kept.busy, timeout=15), "made and drawn ahead"
    redrawn = _resume(ui, game_id)
    assert len(ui.screen._rows) == 20
    assert redrawn == [0] * len(redrawn), "Resume shows the buffers drawn with every round before its tap"


def test_a_game_left_for_home_is_resumed_on_its_own_screen_as_it_was_left(ui: Any) -> None:
    """Without making ahead (as in most tests), a game left for home still keeps the screen it was played on: Resume
    shows that one, as a new one would show the game."""
    played = _unfinished(ui)
    for game_id, script in played.items():
        ui.screen.resume(game_id)
        ui.wait_still()  # the table looks at the board
        screen = ui.screen
        assert screen.session.game_id == game_id and game_id not in ui.app.kept, script
        screen.go_home()
        ui.frames(2)
        assert game_id in ui.app.kept, f"{script}: left unfinished, its screen is kept"
        assert not screen._closed and screen.parent is None
        redrawn = _resume(ui, game_id)
        assert redrawn == [0] * len(redrawn), f"{script}: nothing on the board changed while home showed"
        assert _shown(screen) == _as_made_on_the_tap(ui, screen.session), script
        screen.go_home()
        ui.frames(2)


def test_the_clock_of_a_game_made_ahead_stands_still_while_home_shows(ahead: Any) -> None:
    """A screen made ahead reads its game as Resume does, with the clock stopped: however long home shows, the game's
    time and the games file stay as they were; Resume starts the clock from there."""
    ui = ahead
    played = _unfinished(ui)
    stored = {g: ui.store.game(g).elapsed for g in played}
    assert ui.wait_until(lambda: all(g in ui.app.kept for g in played), timeout=10)
    ui.wait(1.5)
    for game_id in played:
        screen = ui.app.kept.take(game_id)
        assert screen is not None
        ui.app.kept.keep(screen)
        assert screen.session.paused and screen.session.elapsed == pytest.approx(stored[game_id])
        assert screen._ticker is None, "no clock ticks on a screen home keeps"
        assert ui.store.game(game_id).elapsed == stored[game_id]
    game_id = next(iter(played))
    _resume(ui, game_id)
    assert not ui.screen.session.paused, "Resume starts the clock"
    ui.wait(1.1)
    assert ui.screen.session.elapsed > stored[game_id] + 1.0


def test_ending_a_game_from_home_throws_its_kept_screen_away(ui: Any) -> None:
    """Discard ("End it without a result?", confirmed) ends the game: its kept screen is closed with it, and listens to
    nothing more."""
    played = _unfinished(ui)
    game_id = max(played)  # the newest: its row at the top, under a finger
    row = next(r for r in ui.screen.unfinished_rows if r.game_id == game_id)
    ui.tap(row.ids.resume_button)
    screen = ui.screen
    screen.go_home()
    ui.frames(2)
    assert game_id in ui.app.kept
    row = next(r for r in ui.screen.unfinished_rows if r.game_id == game_id)
    ui.tap(row.ids.discard_button)
    ui.tap(ui.window.children[0].ids.confirm_button)
    assert game_id not in ui.app.kept and screen._closed


def test_only_the_newest_unfinished_games_keep_their_screens(ui: Any, monkeypatch: Any) -> None:
    """At most `KEPT_AT_MOST` screens are kept: those of the newest unfinished games home lists."""
    monkeypatch.setattr(kept_screens, "KEPT_AT_MOST", 2)
    screens = []
    for _ in range(3):
        screen = ui.start_game("quintet", ["Ann", "Bo"])
        screen.go_home()
        ui.frames(2)
        screens.append(screen)
    oldest, *newest = screens
    assert [s.session.game_id in ui.app.kept for s in screens] == [False, True, True]
    assert oldest._closed and not any(s._closed for s in newest)


def test_home_keeps_the_screens_of_the_unfinished_rows_it_shows_without_a_scroll(ui: Any, monkeypatch: Any) -> None:
    """`KEPT_AT_MOST` is the number of rows the Unfinished page shows whole at 800×480 before any scroll: the games
    a table sees there each Resume on a screen kept for it; the next row is below the fold."""
    from tests.support.layout_audit import window_rect

    monkeypatch.undo()  # the module's own number (the autouse fixture keeps every script's)
    for _ in range(kept_screens.KEPT_AT_MOST + 1):
        ui.start_game("quintet", ["Ann", "Bo"]).go_home()
        ui.frames(2)
    home = ui.screen
    home.show_tab("unfinished")
    ui.settle()
    _left, bottom, _right, top = window_rect(home.unfinished_view.ids.unfinished.parent)
    whole = [row for row in home.unfinished_rows if window_rect(row)[1] >= bottom and window_rect(row)[3] <= top]
    assert len(whole) == kept_screens.KEPT_AT_MOST, "the rows in sight are the games kept"
    assert [row.game_id in ui.app.kept for row in home.unfinished_rows] == [True] * len(whole) + [False]


def test_the_turn_clock_is_never_kept_its_buttons_go_with_it(ui: Any) -> None:
    """The turn clock holds the table's buttons as long as its screen exists: kept off the window, a press on home
    would be a hidden clock's. Left for home, it is closed, its buttons with it."""
    screen = ui.start_game("turn-clock", ["Ann", "Bo"])
    ui.frames(2)
    screen.go_home()
    ui.frames(2)
    assert screen.session.game_id not in ui.app.kept
    assert screen._closed and screen.buttons is None


def test_a_pause_draws_the_board_again_only_where_the_board_shows_the_clock(ui: Any, monkeypatch: Any) -> None:
    """A pause changes no game's state: the board's buffer is left as it was drawn (the top bar says "paused"). The
    turn clock's board shows the players' times, so it is drawn again."""
    screen = ui.start_game("quintet", ["Ann", "Bo"])
    ui.frames(2)
    board = _layers(screen)[-1]
    before = board.renders
    screen.toggle_clock()
    ui.frames(2)
    assert screen.paused and "paused" in screen.ids.clock_label.text
    assert board.renders == before, "a pause leaves Quintet's board as it was drawn"
    screen.toggle_clock()
    ui.frames(2)
    assert not screen.paused and board.renders == before
    screen.go_home()
    ui.frames(2)

    clock = ui.start_game("turn-clock", ["Ann", "Bo"])
    ui.frames(2)
    rendered = []
    monkeypatch.setattr(clock, "render", lambda view: rendered.append(view))
    clock.session.pause_clock()
    clock.session.resume_clock()
    ui.frames(2)
    assert len(rendered) == 2, "the turn clock's board shows its times: drawn again at each"
    clock.go_home()
    ui.frames(2)


def test_quarks_turn_line_changes_only_when_it_says_something_new(ui: Any) -> None:
    """Quark's top bar says whose turn it is and the actions left, written by its own screen: drawn again from the
    session, the line is not first set to the shared "Ann to play" and then back (each change fits its words anew
    and draws the top bar's buffer again)."""
    screen = ui.start_game("quark", ["Ann", "Bo"])
    ui.frames(2)
    seen: list[str] = []
    screen.fbind("turn_text", lambda _screen, text: seen.append(text))
    screen.refresh()
    assert seen == [], "nothing changed: the line stays as it was"
    screen.session.pause_clock()
    ui.frames(2)
    assert seen == []
    assert ":" in screen.turn_text, screen.turn_text  # "Ann to play: 3 actions left"
    screen.go_home()
    ui.frames(2)


def test_a_game_left_before_its_popups_were_made_makes_them_only_once_shown_again(ui: Any, monkeypatch: Any) -> None:
    """A screen makes its Menu and Log a moment after it shows (issue 26). Left for home before that, it makes
    nothing while kept (a hidden screen's popups would change nothing the table sees, and cost home's frames); shown
    again, it makes them. The moment is made 3 s here, so that a loaded machine's slow frames cannot pass it."""
    from ui.screens import base

    monkeypatch.setattr(base, "AHEAD_SECONDS", 3.0)
    screen = ui.start_game("quintet", ["Ann", "Bo"])
    assert screen._making_ahead is not None, "shown: its popups are on their way"
    screen.go_home()
    ui.wait(3.5)
    assert screen.session.game_id in ui.app.kept
    assert not screen._kept.made("menu"), "no Menu made while kept"
    ui.screen.resume(screen.session.game_id)
    assert ui.wait_until(lambda: screen._kept.made("menu"), timeout=6), "made once shown"
    screen.go_home()
    ui.frames(2)


def test_a_kept_quin_screen_keeps_its_display_chips_while_home_shows(ui: Any, hub: Any) -> None:
    """Home detaches the displays from every game; Quin's kept screen does not follow that (its chips would go, and
    come back at Resume, drawing the board again). Shown again, its strip follows the hub at once."""
    from ui.widgets.displays import DisplayStatusStrip

    screen = ui.start_game("quin", ["Ann", "Bo"])
    ui.wait_still()
    (strip,) = [w for w in screen.walk(restrict=True) if isinstance(w, DisplayStatusStrip)]
    chips = [(chip, chip.text) for chip in strip.ids.chips.children]
    assert len(chips) == 2, "Ann's and Bo's displays, not plugged in yet"
    screen.go_home()
    assert ui.wait_until(lambda: hub.status() == [])  # home: no game attached
    ui.wait(0.5)
    assert [(chip, chip.text) for chip in strip.ids.chips.children] == chips, "kept as they were"

    redrawn = _resume(ui, screen.session.game_id)
    assert redrawn == [0] * len(redrawn), "the board's buffer as it was drawn"
    ui.frames(3)
    assert strip.following and [(chip, chip.text) for chip in strip.ids.chips.children] == chips
    screen.go_home()
    ui.app.kept.drop_all()
