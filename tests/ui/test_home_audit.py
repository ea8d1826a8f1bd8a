"""Home and its popups pass the layout audit's own checks at 800×480, with real taps (issue 21).

Issue 21: "every tappable at least 48x48 px at 800x480 and at least 8 px from the next tappable"; "a label
that shortens on purpose must show the whole text on a tap". The audit's round-1 findings on home: Resume and
Discard 6 px apart, Past games' rows 5 px apart, Settings' network choices 6 px apart, an unfinished game's
words cut with nothing to show them whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support import golden
from tests.support.layout_audit import Scene, scroll_findings, surface_of, target_findings, text_findings

LONG = "Wilhelmina Mayer"


def _scene(ui: Any, state: str) -> Scene:
    ui.settle()
    surface, roots = surface_of(ui.window, ui.app.screens)
    return Scene.measure(surface, state, roots, (int(ui.window.width), int(ui.window.height)))


def _lines(findings: list[Any]) -> list[str]:
    return [f.line() for f in findings]


def _played(ui: Any, finished: int, unfinished: int) -> Any:
    """Home on a games file with `finished` and `unfinished` games, as after a restart."""
    path = Path(ui.store.path)
    scripts = [p for p in golden.scripts() if len(golden.read(p).lines) > 4]
    for n in range(finished):
        golden.play(ui.store, scripts[n % len(scripts)])
    for n in range(unfinished):
        golden.play(ui.store, scripts[(3 + 2 * n) % len(scripts)], upto=2 + n)
    ui.reopen(path)
    return ui.screen


@pytest.mark.parametrize("unfinished", [3, 5])
def test_unfinished_games_resume_and_discard_8px_apart_and_a_tap_shows_a_row_whole(ui: Any, unfinished: int) -> None:
    home = _played(ui, 0, unfinished)
    ui.tap(home.ids.unfinished_tab)
    scene = _scene(ui, "home: Unfinished")
    assert len(home.unfinished_rows) == unfinished
    assert _lines(target_findings(scene)) == [], "48 px targets, 8 px apart"
    assert _lines(text_findings(scene)) == [], "nothing cut (or shown whole on a tap)"
    assert _lines(scroll_findings(scene)) == [], "a list that scrolls shows its bar"
    row = home.unfinished_rows[0]
    ui.tap(row.ids.players_label)  # a tap on the row's words
    ui.settle()
    shown = ui.window.children[0]
    assert shown.heading.startswith(row.plain_title) and shown.text.splitlines()[0] == row.plain_detail
    assert shown.text.splitlines()[2:] == list(row.names), "every name too, one a line"
    ui.screenshot(f"home-unfinished-row-whole-{unfinished}.png")  # one name a case: workers run both at once


def test_past_games_rows_8px_apart(ui: Any) -> None:
    home = _played(ui, 5, 0)
    ui.tap(home.ids.history_button)
    scene = _scene(ui, "Past games")
    assert scene.surface == "PastGamesPopup" and len(ui.window.children[0].game_rows) == 5
    assert _lines(target_findings(scene)) == []
    ui.screenshot("home-past-games-8px.png")


def test_settings_network_choices_8px_apart(ui: Any) -> None:
    ui.tap(ui.screen.ids.settings_button)
    scene = _scene(ui, "Settings")
    assert scene.surface == "SettingsPopup"
    assert len(ui.window.children[0].ids.phones_choice.buttons) >= 2
    assert _lines(target_findings(scene)) == []


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_a_notice_wraps_onto_its_two_lines_and_only_a_longer_one_is_shortened_then_shown_whole(ui, size) -> None:
    """A notice of two lines was cut to one line and '…' (a shortened label is one line), with no tap to read it."""
    ui.resize(*size)
    ui.app.reset(ui.table)
    home = ui.screen
    two_lines = (
        f"{LONG}'s and Maximilian Worth's colours look alike to a colour-blind player: tap a colour to change it."
    )
    home.notice = two_lines
    ui.settle()
    assert not home.notice_too_long and not home.ids.notice.shorten
    assert _lines(text_findings(_scene(ui, "a two-line notice"))) == []
    assert home.read_notice() is None, "read whole already: a tap puts it away"
    home.notice = " ".join([two_lines] * 5)
    ui.settle()
    assert home.notice_too_long and home.ids.notice.shorten
    assert _lines(text_findings(_scene(ui, "a long notice"))) == [], "shortened, and a tap shows it whole"
    ui.tap(home.ids.notice)
    ui.settle()
    assert ui.window.children[0].text == " ".join([two_lines] * 5)
