"""Quin's board a finger can hit at 800×480 (issue 21), measured in the real window with the layout audit's own
rulers: 48 px targets 8 px apart, nothing moving one action apart, nothing cut with the longest names."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from companion.config import PhonesConfig
from companion.games.quin.examples import example_setup
from tests.support.layout_audit import Finding, Scene, audit, gap, surface_of, window_rect
from tests.ui.test_quin_table_trust import FakeHub, longest_flash_sentences

pytestmark = pytest.mark.ui

LONG = ("Wilhelmina Mayer", "Maximilian Worth")  # 16 characters: the longest names a player may type
TARGET, APART = 48.0, 8.0
SHELLS = ("BarButton", "Banner", "DisplayChip")
"""The shared top bar's and the display strip's widgets: the shell's own, checked in its tests."""


def rects(widgets: list[Any]) -> list[tuple[float, float, float, float]]:
    return [window_rect(w) for w in widgets]


def too_small_or_close(widgets: list[Any]) -> list[str]:
    """Every widget under 48×48 px, and every pair closer than 8 px."""
    found = []
    boxes = [(w, window_rect(w)) for w in widgets]
    for i, (a, ra) in enumerate(boxes):
        if ra[2] - ra[0] < TARGET or ra[3] - ra[1] < TARGET:
            found.append(f"{a.text!r} is {ra[2] - ra[0]:.0f}x{ra[3] - ra[1]:.0f}")
        for b, rb in boxes[i + 1 :]:
            if gap(ra, rb) < APART:
                found.append(f"{a.text!r} is {gap(ra, rb):.0f} px from {b.text!r}")
    return found


def findings(ui: Any) -> list[Finding]:
    """The audit's findings on what the window shows now, but the shell's widgets'."""
    ui.settle()
    surface, roots = surface_of(ui.window, ui.app.screens)
    size = (int(ui.window.width), int(ui.window.height))
    scene = Scene.measure(surface, "test", roots, size)
    return [f for f in audit(scene, check_size=size == (800, 480)) if not f.where.startswith(SHELLS)]


def test_every_piece_and_play_button_is_48_px_and_8_px_apart_at_800x480_and_1280x800(ui: Any) -> None:
    """Audit: "QuinPiece: pieces 1 px apart: every piece must be at least 48x48 px and 8 px from the next at
    800x480"; "QuinVerb buttons [...] are 5 px apart: 8 px"; "'11 Artificial Light': lines dropped". Both sides'
    34 pieces show at once (a flash is a tap on each side), with Artificial Light revealed under its label."""
    screen = ui.start_game("quin", list(LONG))
    screen.session.act(example_setup(LONG[0]))
    screen.session.act(example_setup(LONG[1]))
    view = copy.deepcopy(screen.session.public_view())
    for side in view["players"]:  # every identity shown, as at the end: "Artificial Light" takes two lines
        for piece in side["pieces"]:
            piece["identity"] = "Artificial Light"
    screen.render(view)
    try:
        for size in ((800, 480), (1280, 800)):
            ui.resize(*size)
            ui.settle()
            pieces = list(screen.pieces.values())
            assert len(pieces) == 34
            assert too_small_or_close(pieces) == [], size
            assert too_small_or_close(list(screen.play_actions.children)) == [], size
            board = window_rect(screen.table_view.ids.board_scroll)
            assert all(window_rect(p)[3] <= board[3] + 1 and window_rect(p)[1] >= board[1] - 1 for p in pieces), (
                "every piece in sight without scrolling"
            )
            assert findings(ui) == [], size
            ui.screenshot("quin-layout-play.png" if size == (800, 480) else "quin-layout-play-1280.png")
    finally:
        ui.resize(800, 480)


def test_no_piece_or_button_moves_when_play_begins_or_a_card_line_grows(ui: Any) -> None:
    """Audit: "QuinPiece: pieces move one action apart when play begins (×187): the board must not move under a
    finger one tap apart". The second setup done starts play (the Zero-G card lines appear), and a flash writes a
    face-up piece on a card: neither moves a piece or a play button."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    screen.session.act(example_setup("Ann"))
    ui.settle()
    before = rects(list(screen.pieces.values()))
    screen.session.act(example_setup("Bo"))
    ui.settle()
    assert screen.session.public_view()["phase"] == "play"
    assert rects(list(screen.pieces.values())) == before
    verbs = rects(list(screen.play_actions.children))
    ui.tap(screen.pieces[("Ann", "8")])
    ui.tap(screen.pieces[("Bo", "2")])  # Ann's Peripheral captures Bo's Shadow: Ann's card gains a face-up piece
    ui.settle()
    assert "face up Bo's 2" in screen.table_view.ids.side0.card
    assert rects(list(screen.pieces.values())) == before
    assert rects(list(screen.play_actions.children)) == verbs


def test_the_setup_buttons_and_the_big_line_are_whole_with_the_longest_names_a_display_strip_and_phones(
    ui: Any,
) -> None:
    """Audit: "With 16-character names: setup0/setup1 buttons shortened (313/305); result_label drops a line".
    Reported by shell: "Quin's heading ('Private setup: each player in turn…') doesn't size to its text and gets
    cut when the display status strip stacks beside the Phones button (phones on, two displays)". Then in play,
    the longest flash sentences the rules make, beside the same strip."""
    hub = FakeHub()
    from hardware.display.hub import DisplayState, DisplayStatus

    hub.statuses = [DisplayStatus(LONG[0], DisplayState.UNPLUGGED), DisplayStatus(LONG[1], DisplayState.UNPLUGGED)]
    config = ui.table.config
    ui.table.displays = hub
    ui.table.config = replace(config, phones=PhonesConfig(enabled=True))
    try:
        screen = ui.start_game("quin", list(LONG))
        ui.settle()
        assert screen.can_show_phones and len(screen.table_view.ids.display_spot.children) == 2
        assert findings(ui) == []
        for button in ("setup0", "setup1"):
            assert ui.find(screen, button).text.startswith(LONG[int(button[-1])])
        label = screen.table_view.ids.result_label
        assert label.text.startswith("Private setup: each player in turn")
        assert label.texture_size[1] <= label.height and label.least <= label.height
        column = screen.table_view.ids.column_scroll
        assert column.children[0].height <= column.height + 1, "the whole column in sight: nothing scrolled away"
        ui.screenshot("quin-layout-setup-long-names-phones.png")

        # In play the longest flash sentences fit above the play buttons, and never move them.
        screen.session.act(example_setup(LONG[0]))
        screen.session.act(example_setup(LONG[1]))
        ui.settle()
        verbs = rects(list(screen.play_actions.children))
        for sentence in longest_flash_sentences(LONG):
            screen.table_view.result = sentence
            ui.frames(3)
            assert label.texture_size[1] <= label.height, sentence
            assert column.children[0].height <= column.height + 1, sentence
            assert rects(list(screen.play_actions.children)) == verbs, sentence
        ui.screenshot("quin-layout-long-flash-phones.png")
    finally:
        ui.table.displays = None
        ui.table.config = config


def test_the_private_setup_s_labels_and_chips_are_48_px_and_8_px_apart(ui: Any) -> None:
    """Issue 21: "every tappable at least 48x48 px at 800x480 and at least 8 px from the next". The private setup
    (hand-off mode) had its labels and chips 1 px apart; each label's number shows whole over its identity."""
    screen = ui.start_game("quin", list(LONG))
    ui.tap(ui.find(screen, "setup0"))
    ui.tap(ui.find(screen, "cover_go"))
    panel = screen.setup_panel
    ui.tap(ui.find(panel, "deal_button"))
    ui.settle()
    for row in ("clone", "kinds", "pieces"):
        chips = [w for w in panel.ids[row].children if hasattr(w, "on_release")]
        assert too_small_or_close(chips) == [], row
    assert findings(ui) == []
    ui.screenshot("quin-layout-private-setup.png")


def test_the_replay_shows_both_sides_and_the_big_line_whole_in_its_shorter_body(ui: Any) -> None:
    """Reported by shell: Quin's heading "doesn't size to its text and gets cut [...] in the replay (shorter
    screen)". At every replayed step the 34 pieces are in sight without scrolling and the big line is whole."""
    from tests.support import golden
    from tests.ui.test_log_screen import drag_slider, open_log_from_menu, play_live

    screen = ui.start_game("quin", ["Ann", "Bo"])
    play_live(ui, screen, golden.FOLDER / "quin-key-light-captured.jsonl", lambda s: None)
    view = open_log_from_menu(ui, screen)
    ui.tap(view.ids.mode_button)
    replayed = view.replay_screen
    seen = set()
    for step in (1, view.count // 2, view.count - 6):
        drag_slider(ui, view.ids.slider, step)
        ui.settle()
        table = replayed.table_view
        seen.add(replayed.session.public_view()["phase"])
        board = window_rect(table.ids.board_scroll)
        for key, piece in replayed.pieces.items():
            rect = window_rect(piece)
            assert board[1] - 1 <= rect[1] and rect[3] <= board[3] + 1, (step, key, rect, board)
        label = table.ids.result_label
        assert label.texture_size[1] <= label.height and label.least <= label.height, (step, label.text)
        column = table.ids.column_scroll
        assert window_rect(label)[3] <= window_rect(column)[3] + 1, "the big line in sight, not scrolled away"
    assert "setup" in seen and "play" in seen
