"""Issue 26 ("quick on every tap"): a game's screen keeps its Log, made a moment after the screen shows, and opens
the same one from its Menu's "Game log" at every tap. Closed, the Log listens to nothing; opened again, it must
show what a new Log would ("the public events in the table's words, each with its time", issue 14): these tests
change the game while it is closed, then compare it with a Log made new from the games file."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import golden
from tests.ui.test_log_presenter import Clock, _at

pytestmark = pytest.mark.ui

SCRIPT = golden.FOLDER / "quinque-row-win.jsonl"


def _plays() -> list[dict[str, Any]]:
    return [a for a in golden.read(SCRIPT).lines if a.get("type") not in ("undo", "redo")]


def _made_ahead(ui: Any, screen: Any) -> Any:
    """The screen's Log, once the table has looked at the board for a moment (`AHEAD_SECONDS`)."""
    from ui.screens.base import AHEAD_SECONDS

    ui.wait(AHEAD_SECONDS + 0.5)
    kept = screen._kept._popups.get("log")
    assert kept is not None, "the Log is made ahead"
    return kept


def _open(ui: Any, screen: Any) -> Any:
    ui.tap(ui.find(screen, "menu_button"))
    ui.settle()
    ui.tap(ui.find_text(ui.window.children[0], "Game log"))
    ui.settle()
    views = [w for w in ui.window.children if type(w).__name__ == "LogView"]
    assert len(views) == 1, "the Log is open, once"
    return views[0]


def _close(ui: Any, view: Any) -> None:
    ui.tap(view.ids.close_button)
    ui.settle()
    assert view.parent is None and not view.following


def _shown(view: Any) -> dict[str, Any]:
    """Everything a player reads on the Log: its heading and status, every line's words and shading and the step
    it replays, which page shows, whether Replay can be tapped, where the replay would begin."""
    view.finish_lines()
    lines = [(w.text, w.step, w.odd) for w in reversed(view.ids.lines.children)]
    return {
        "lines": lines,
        "title": view.title_text,
        "status": view.status_text,
        "empty": view.empty_text,
        "mode": view.mode,
        "can_replay": view.can_replay,
        "replay": (view.replay.position, view.count),
        "page": [page is view._pages["log"] for page in view.ids.pages.children],
    }


def _new(ui: Any, screen: Any) -> dict[str, Any]:
    """What a Log made now from the games file shows as it opens (its status with the game's time so far)."""
    from ui.screens.log import new_log

    fresh = new_log(screen)
    fresh.open(animation=False)
    try:
        return _shown(fresh)
    finally:
        fresh.close()
        ui.frames(2)


def test_the_menu_opens_the_log_made_ahead_and_again_the_same_one(ui: Any) -> None:
    """A screen's Log is made while the table looks at the board; the Menu's "Game log" opens that one, and the
    same one at its next tap."""
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    kept = _made_ahead(ui, screen)
    assert not kept.following, "a Log not yet open listens to nothing"
    view = _open(ui, screen)
    assert view is kept and view.following
    _close(ui, view)
    assert _open(ui, screen) is kept


def test_a_kept_log_opened_again_shows_the_moves_made_while_it_was_closed_each_at_the_time_it_was_made(
    ui: Any,
) -> None:
    """ "Each with its time": moves made while the Log is closed are told, when it opens again, at the times they
    were stored, not at the time it opens. An undo and a redo while it is closed, and the game ending, show as a
    Log made new from the games file shows them. Closed, it changes nothing on its way."""
    clock = Clock(_at(2026, 11, 27, 21, 0))
    ui.table.clock = clock
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    session, plays = screen.session, _plays()
    for action in plays[:3]:
        clock.now += 60
        session.act(action)
    _made_ahead(ui, screen)
    view = _open(ui, screen)
    assert len(_shown(view)["lines"]) == 3 and _shown(view) == _new(ui, screen)
    _close(ui, view)

    clock.now = _at(2026, 11, 27, 21, 30)  # played while the Log is closed: the lines say 21:30
    for action in plays[3:6]:
        session.act(action)
    session.undo()
    session.redo()
    session.undo()
    ui.frames(2)
    closed = _shown(view)
    assert len(closed["lines"]) == 3, "closed, the Log did not follow"
    clock.now = _at(2026, 11, 27, 22, 0)  # opened again half an hour later
    view = _open(ui, screen)
    shown = _shown(view)
    assert shown == _new(ui, screen)
    assert len(shown["lines"]) == 5 and all(text.startswith("21:30") for text, _, _ in shown["lines"][3:])
    _close(ui, view)

    for action in plays[5:]:  # the rest of the game while it is closed: Ann's last mark wins it
        clock.now += 60
        session.act(action)
    assert session.outcome is not None
    view = _open(ui, screen)
    shown = _shown(view)
    assert shown == _new(ui, screen)
    assert shown["can_replay"] and shown["status"].startswith("Won by Ann")


def test_a_kept_log_left_in_its_replay_opens_again_on_its_newest_lines(ui: Any) -> None:
    """A new Log opens on its lines, the newest showing, its replay (of a finished game) at the last step: so does
    the kept one, closed half-way through its replay."""
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    for action in _plays():
        screen.session.act(action)
    assert screen.session.outcome is not None
    _made_ahead(ui, screen)
    view = _open(ui, screen)
    ui.tap(view.ids.mode_button)
    assert view.mode == "replay"
    ui.tap(view.ids.back_button)
    assert view.replay.position == view.count - 1
    _close(ui, view)

    view = _open(ui, screen)
    ui.wait(0.2)
    assert _shown(view) == _new(ui, screen)
    assert view.mode == "log" and view.ids.scroller.scroll_y == pytest.approx(0)


def test_a_game_that_cannot_be_read_makes_no_log_ahead_and_its_tap_says_why(ui: Any, monkeypatch: Any) -> None:
    """Made ahead, a game whose story cannot be read leaves no Log (and no trouble on the frame); the tap then says
    why, in the banner, as it did before the Log was kept."""
    import ui.screens.log as log

    def unreadable(*_args: Any, **_kw: Any) -> Any:
        raise LookupError("There is no game number 99 in this games file.")

    monkeypatch.setattr(log, "story", unreadable)
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    from ui.screens.base import AHEAD_SECONDS

    ui.wait(AHEAD_SECONDS + 0.5)
    assert "log" not in screen._kept._popups and "menu" in screen._kept._popups
    ui.tap(ui.find(screen, "menu_button"))
    ui.settle()
    ui.tap(ui.find_text(ui.window.children[0], "Game log"))
    ui.settle()
    assert not [w for w in ui.window.children if type(w).__name__ == "LogView"]
    assert screen.banner == "There is no game number 99 in this games file." and screen.banner_is_error


def test_a_popup_made_ahead_has_its_words_drawn_before_its_tap(ui: Any, monkeypatch: Any) -> None:
    """Kivy renders a label's words at its first drawing: for a popup made ahead, that was the tap's own frame. The
    frame after each popup is made renders them (`KeptPopups.draw_ahead`): opened, the Log renders none of the words
    it had made ahead but its time played, which has changed (its older lines are made after it opens); the Menu,
    made as it will open, renders none."""
    from kivy.core.text import Label as CoreLabel
    from kivy.uix.label import Label

    rendered: list[str] = []
    fill = CoreLabel._texture_fill

    def counted(label: Any, texture: Any) -> Any:
        rendered.append(label.text)
        return fill(label, texture)

    monkeypatch.setattr(CoreLabel, "_texture_fill", counted)  # before the labels: each texture holds its own
    played = golden.play(ui.store, "quark-3p-dry-bank", upto=80)  # more lines than a Log makes before it opens
    screen = ui.app.resume_game(played.game_id)
    _made_ahead(ui, screen)
    ui.frames(3)
    rendered.clear()
    log = screen._kept._popups["log"]
    assert log._older, "its older lines are made once it opens"
    made = {w.text for w in log.walk(restrict=True) if isinstance(w, Label) and w.text} - {log.status_text}
    screen.open_log()
    ui.frames(1)
    assert log.parent is not None and rendered and not made & set(rendered), "only its older lines, and the time"
    log.close()
    ui.frames(2)
    rendered.clear()
    menu = screen._kept._popups["menu"]
    words = {w.text for w in menu.walk(restrict=True) if isinstance(w, Label) and w.text}
    screen.open_menu()
    ui.wait(0.5)  # faded in: drawn whole (the game's clock ticks meanwhile)
    assert menu.parent is not None and not words & set(rendered)  # made as it opens: "Someone leaves…" is not
    # drawn again, greyed then live
