"""Issue 26 ("quick on every tap"): home keeps its Past games popup from the first tap, and each opening and each
page sets the rows it has to other games. Every opening must show what a new popup would: "A game ended without a
result has Take back" (issue 21) and a finished game has no such button, whichever game a row showed before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.game import Options
from companion.session import Session
from companion.store import Store
from tests.support import golden
from tests.ui.test_kept_log import _shown as _log_shown

pytestmark = pytest.mark.ui

SETTLED = 1.3
"""Seconds until a board laid out anew is still (its words are fitted a frame or two after its layout), with room
for a loaded machine."""


def _games(store: Store) -> list[int]:
    """Seven past games, oldest first, two of them ended without a result: newest first they are G F E D C B A,
    with D and B ended without a result (page 1: G F E D C; page 2: B A)."""
    clock = iter(range(1_750_000_000, 1_750_900_000, 60))
    ids = []
    for kind in ("won", "ended", "won", "ended", "won", "won", "won"):
        if kind == "won":
            session = golden.play(store, "quinque-row-win", clock=lambda: float(next(clock)))
            assert session.outcome is not None
        else:
            session = Session.start(store, "quintet", Options.for_names("Ann", "Cy"), clock=lambda: float(next(clock)))
            session.abandon()
        ids.append(session.game_id)
    return ids


def _open(ui: Any) -> Any:
    ui.tap(ui.screen.ids.history_button)
    ui.settle()
    popup = ui.window.children[0]
    assert type(popup).__name__ == "PastGamesPopup"
    return popup


def _close(ui: Any, popup: Any) -> None:
    ui.tap(popup.ids.close_button)
    ui.settle()
    assert popup.parent is None


def _shown(popup: Any) -> dict[str, Any]:
    """What the table reads and taps on the popup: its words and page buttons, and every row's game, words,
    colours and buttons, with each widget's place and size to the pixel."""
    rows = []
    for row in popup.game_rows:
        widgets = [
            (type(w).__name__, getattr(w, "text", None), tuple(getattr(w, "color", ())), w.disabled,
             tuple(map(round, w.to_window(*w.pos))), tuple(map(round, w.size)))
            for w in row.walk(restrict=True)
        ]  # fmt: skip
        rows.append((row.game_id, row.abandoned, row.taken_back, widgets))
    return {
        "words": popup.words,
        "text": popup.text,
        "pages": (popup.page, popup.has_newer, popup.has_older),
        "rows": rows,
        "box": [c for c in popup.ids.rows.children],
    }


def _new(ui: Any) -> dict[str, Any]:
    """What a Past games popup made now shows on its first page."""
    from ui.screens.home_popups import PastGamesPopup

    fresh = PastGamesPopup(home=ui.screen)
    fresh.go(1)
    fresh.open(animation=False)
    ui.frames(3)
    try:
        shown = _shown(fresh)
        assert shown["box"] == fresh.game_rows[::-1]
        return {**shown, "box": len(shown["box"])}
    finally:
        fresh.dismiss(animation=False)
        ui.frames(2)


def _kept(popup: Any) -> dict[str, Any]:
    for row in popup.game_rows:  # issue 21: a finished game's row has no Take back, not even a hidden one
        assert (row.ids.take_back_button.__self__.parent is row) == row.abandoned, row.game_id
    shown = _shown(popup)
    assert shown["box"] == popup.game_rows[::-1], "the box holds the page's rows only"
    return {**shown, "box": len(shown["box"])}


def test_the_kept_past_games_show_at_every_opening_what_a_new_popup_would(ui: Any) -> None:
    """Opened again after a page of two, after a game was taken back (the rows under it move up: a finished
    game's row takes the place of one ended without a result, and the other way round), and after another game
    ended: the same popup, and it shows what a new one would, button for button, to the pixel."""
    path = Path(ui.store.path)
    a, b, c, d, e, f, g = _games(ui.store)
    ui.reopen(path)

    popup = _open(ui)
    assert [row.game_id for row in popup.game_rows] == [g, f, e, d, c]
    assert [row.abandoned for row in popup.game_rows] == [False, False, False, True, False]
    page_one = _kept(popup)
    _close(ui, popup)
    assert _new(ui) == page_one

    popup = _open(ui)
    ui.tap(popup.ids.older_button)  # page 2: B A, three rows fewer
    assert [row.game_id for row in popup.game_rows] == [b, a]
    _close(ui, popup)
    assert _open(ui) is popup, "home keeps it"
    assert _kept(popup) == page_one, "opened again on the newest page, all its rows back"

    row_d = popup.game_rows[3]
    ui.tap(row_d.ids.take_back_button)  # D is unfinished again: the row says Resume
    assert row_d.taken_back
    _close(ui, popup)
    popup = _open(ui)
    assert [row.game_id for row in popup.game_rows] == [g, f, e, c, b]
    assert [row.abandoned for row in popup.game_rows] == [False, False, False, False, True]
    assert not any(row.taken_back for row in popup.game_rows)
    shown = _kept(popup)
    _close(ui, popup)
    assert _new(ui) == shown

    resumed = Session.load(ui.store, d)  # D played on and ended without a result again, the newest past game
    resumed.abandon()
    popup = _open(ui)
    assert [row.game_id for row in popup.game_rows] == [d, g, f, e, c]
    shown = _kept(popup)
    _close(ui, popup)
    assert _new(ui) == shown


def _log(ui: Any) -> Any:
    ui.settle()
    views = [w for w in ui.window.children if type(w).__name__ == "LogView"]
    assert len(views) == 1, "one Log is open"
    return views[0]


def _new_log(ui: Any, game_id: int) -> dict[str, Any]:
    from companion.record import story
    from ui.screens import screen_class
    from ui.screens.log import LogView

    fresh = LogView(ui.store, story(ui.store, game_id), screen_class)
    fresh.open(animation=False)
    ui.frames(3)
    try:
        return _log_shown(fresh)
    finally:
        fresh.close()
        ui.frames(2)


def test_the_kept_log_of_past_games_tells_each_games_story_as_a_new_log_would(ui: Any) -> None:
    """Home keeps one Log for its past games: opened on a Quintet, then a short Quinque (fewer lines than the Log
    makes at once), then the Quintet again, each shows what a Log made for that game would ("the public events in
    the table's words, each with its time", issue 14), with lines made for another game used again; a tap on a line
    replays that game, up to that line's step, on that game's own screen; a Log left in its replay opens on its
    lines. Closed, it keeps only the lines a new Log makes at once (issue 26: the next tap takes no long game's
    lines down), and opened again on the same game it shows that game's every line."""
    from ui.screens.home_popups import READ_AHEAD_SECONDS

    path = Path(ui.store.path)
    clock = iter(range(1_750_000_000, 1_750_900_000, 60))
    games = {}
    for script in ("quintet-two-players", "quinque-small-tie"):
        session = golden.play(ui.store, script, clock=lambda: float(next(clock)))
        assert session.outcome is not None
        games[script.split("-")[0]] = session.game_id
    ui.reopen(path)

    kept = None
    for game in ("quintet", "quinque", "quintet"):
        past = _open(ui)
        assert ui.wait_until(lambda past=past: len(past.stories) == 2, timeout=READ_AHEAD_SECONDS + 2), "read ahead"
        ui.tap(next(row for row in past.game_rows if row.game_id == games[game]))
        view = _log(ui)
        kept = kept or view
        assert view is kept, "home keeps one Log for its past games"
        shown = _log_shown(view)
        assert len(shown["lines"]) > 3 and shown == _new_log(ui, games[game]), game
        line = view.ids.lines.children[len(view.ids.lines.children) // 2]
        view.ids.scroller.scroll_to(line, padding=0, animate=False)
        ui.frames(2)
        ui.tap(line)  # a line made for an earlier game: it replays this one, up to its own step
        assert view.mode == "replay" and view.position == line.step
        assert view.replay_screen.session.game.name == game and len(view.replay_screen.session.moves) == line.step
        ui.tap(view.ids.close_button)
        ui.settle()
        newest = min(len(shown["lines"]), view._lines_at_once())
        put_aside = ui.wait_until(lambda v=view, n=newest: len(v.ids.lines.children) == n, 2)  # once it has gone
        assert put_aside, "closed: the newest lines only"
        ui.tap(next(row for row in past.game_rows if row.game_id == games[game]))
        assert _log(ui) is view and view.story is past.stories[games[game]], "the same story: not told again"
        assert _log_shown(view) == shown, "the same game again: every one of its lines"
        ui.tap(view.ids.close_button)
        ui.settle()
        _close(ui, past)


def test_past_games_reads_its_pages_stories_ahead_and_a_rows_tap_reads_none(ui: Any, monkeypatch: Any) -> None:
    """Issue 26: a Game log from Past games is "answered quickly". Past games reads its page's stories a moment
    after it shows, one a frame: each as `story` reads it. A row's tap opens the Log on the story read for that
    very game and reads nothing more. A game taken back is unfinished again ("A tap, and it is unfinished again"):
    its Log is read at its tap, as it is now. Another page reads its own games, and forgets the last page's."""
    from companion.record import story, to_json
    from ui.screens import log as log_module
    from ui.screens.home_popups import READ_AHEAD_SECONDS

    path = Path(ui.store.path)
    a, _b, c, d, e, f, g = _games(ui.store)
    ui.reopen(path)
    popup = _open(ui)
    assert ui.wait_until(lambda: len(popup.stories) == 5, timeout=READ_AHEAD_SECONDS + 2)
    assert list(popup.stories) == [g, f, e, d, c], "read in the page's order, newest first"
    for game_id, told in popup.stories.items():
        assert to_json(told) == to_json(story(ui.store, game_id))

    reads: list[int] = []

    def counted(store: Store, game_id: int) -> Any:
        reads.append(game_id)
        return story(store, game_id)

    monkeypatch.setattr(log_module, "story", counted)
    ui.tap(next(row for row in popup.game_rows if row.game_id == e))
    view = _log(ui)
    assert reads == [] and view.story is popup.stories[e], "the tap reads no story: it was read ahead"
    assert _log_shown(view) == _new_log(ui, e)
    ui.tap(view.ids.close_button)
    ui.settle()

    row_d = next(row for row in popup.game_rows if row.game_id == d)
    ui.tap(row_d.ids.take_back_button)
    assert row_d.taken_back and d not in popup.stories, "taken back: the story read ahead is another game's now"
    ui.tap(row_d)
    view = _log(ui)
    assert reads == [d] and view.story.outcome is None, "its Log tells it as it is now: unfinished"
    assert _log_shown(view) == _new_log(ui, d)
    ui.tap(view.ids.close_button)
    ui.settle()

    ui.tap(popup.ids.older_button)  # page 2: A (D is no past game now: the newest page is G F E C B)
    assert ui.wait_until(lambda: a in popup.stories, timeout=READ_AHEAD_SECONDS + 2)
    assert list(popup.stories) == [a] and [row.game_id for row in popup.game_rows] == [a]
    _close(ui, popup)


def _opened_log(ui: Any, game_id: int) -> Any:
    from companion.record import story
    from ui.screens import screen_class
    from ui.screens.log import LogView

    view = LogView(ui.store, story(ui.store, game_id), screen_class)
    view.open(animation=False)
    return view


def test_a_logs_first_frame_fills_its_page_with_its_newest_lines(ui: Any) -> None:
    """A Log opens on its newest lines ("the public events in the table's words, each with its time", issue 14):
    the lines it makes as it opens, all its first frame draws, fill its page, though it makes only about a page
    of them then (issue 26: each line made is drawn on that frame, in view or not) and the older ones over the
    frames after."""
    path = Path(ui.store.path)
    played = golden.play(ui.store, "quark-3p-dry-bank")
    ui.reopen(path)
    view = _opened_log(ui, played.game_id)
    at_once = len(view.ids.lines.children)  # before any frame: the older ones are made from the next one on
    assert view._older > 0, "a long game: its older lines come after the first frame"
    ui.frames(3)
    try:
        box, scroller = view.ids.lines, view.ids.scroller
        newest = list(box.children)[:at_once]  # Kivy keeps children newest first: the bottom lines
        assert newest[0].step == len(view.story.steps)
        covered = sum(line.height for line in newest) + box.spacing * (at_once - 1) + box.padding[1]
        assert covered >= scroller.height, (covered, scroller.height)
    finally:
        view.close()
        ui.frames(2)


def _layer(view: Any) -> Any:
    """The replayed screen's buffer (its board's)."""
    from ui.widgets.layer import StillLayer

    [layer] = [w for w in view.replay_screen.walk(restrict=True) if isinstance(w, StillLayer)]
    return layer


def test_a_past_games_replay_is_drawn_ahead_and_the_tap_draws_the_board_no_more(ui: Any) -> None:
    """Issue 26: the tap on Replay drew the whole board (built ahead) on its own frame. The Log now lays the replay
    page out and draws the board's buffer a moment after it opens: the tap only shows it."""
    from ui.screens.log import PREPARE_SECONDS

    ahead = _opened_log(ui, golden.play(ui.store, "quark-2p-beryllium-tie").game_id)
    ui.wait(PREPARE_SECONDS + 0.4)
    layer = _layer(ahead)
    drawn = layer.renders
    ui.tap(ahead.ids.mode_button)
    ui.frames(3)
    assert ahead.mode == "replay" and layer.renders == drawn, "drawn ahead: the tap draws the board no more"
    ahead.close()


def test_replay_and_log_each_draw_their_word_in_a_texture_of_its_own(ui: Any) -> None:
    """Issue 26: the tap on Replay waited 22–28 ms for the GPU. The button's "Log" was drawn into the texture its
    "Replay" had, the same size (the button's width), which the frame before still drew from. Each word at its own
    size gets a new texture, and the button's words still fit it."""
    view = _opened_log(ui, golden.play(ui.store, "quark-2p-beryllium-tie").game_id)
    try:
        ui.frames(3)
        button = view.ids.mode_button
        for word in ("Log", "Replay", "Log"):
            before = button.texture
            ui.tap(button)
            ui.frames(2)
            assert button.text == word and button.texture is not before, word
            assert button.texture_size[0] <= button.width - 8, "its word fits the button"
    finally:
        view.close()
        ui.frames(2)


def _board_shown(view: Any) -> list[tuple[Any, ...]]:
    """Every widget of the replayed board: its kind, words, font size, colour, place and size (to the pixel), and
    the size of its words as rendered."""
    return [
        (type(w).__name__, getattr(w, "text", None), getattr(w, "font_size", None), tuple(getattr(w, "color", ())),
         tuple(map(round, w.pos)), tuple(map(round, w.size)), tuple(getattr(w, "texture_size", ())))
        for w in view.replay_screen.walk(restrict=True)
    ]  # fmt: skip


def test_a_replay_drawn_ahead_shows_what_one_drawn_on_the_tap_shows(ui: Any) -> None:
    """The board drawn ahead is the one the tap would draw, widget for widget: the story's view at the last step,
    not the replayed session's own ("Finished Quin games are revealed in full", issue 14)."""
    from ui.screens.log import PREPARE_SECONDS

    game_id = golden.play(ui.store, "quin-key-light-captured").game_id
    assert ui.store.game(game_id).outcome is not None
    ahead = _opened_log(ui, game_id)
    ui.wait(PREPARE_SECONDS + 0.4)
    ui.tap(ahead.ids.mode_button)
    ui.wait(SETTLED)
    shown_ahead = _board_shown(ahead)
    ahead.close()
    ui.frames(2)

    on_tap = _opened_log(ui, game_id)
    on_tap.replay_to(on_tap.replay.position)  # before the board is built ahead: built and drawn on the tap
    ui.wait(SETTLED)
    shown_on_tap = _board_shown(on_tap)
    on_tap.close()
    assert any("Light" in str(row[1]) for row in shown_ahead), "every identity shown"
    assert shown_ahead == shown_on_tap
