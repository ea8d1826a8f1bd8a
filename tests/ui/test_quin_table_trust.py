"""Quin's shared screen as a new group at 800x480 met it (issue 21, "The touchscreen a table can trust").

Real window, real touches: the flash sentence fits whole, a finished game's buttons are off, the look-away
words only for a seat that sets up on this screen, who goes first during the setup, plain words, and a
second cue beside colour on every piece.
"""

from __future__ import annotations

from itertools import product
from types import SimpleNamespace
from typing import Any

import pytest

from companion.games.quin.examples import example_setup
from companion.games.quin.pieces import (
    CAPTURE,
    CAPTURE_RULES,
    KINDS,
    LIGHT,
    LIGHT_TAKES_LIGHT,
    flash_result,
    flash_sentence,
)
from tests.ui.test_quin_screen import FakeHub, kinds_shown, piece, screen_words

pytestmark = pytest.mark.ui

LONG = ("Maximilian", "Evangeline")  # two long names: the sentences grow with them


def longest_flash_sentences(names: tuple[str, str], count: int = 6) -> list[str]:
    """The longest sentences a flash makes by the rules (every pair of kinds, both capture rules), and the end's."""
    made = set()
    for attacker, defender, rule in product(KINDS, KINDS, CAPTURE_RULES):
        result = flash_result(attacker, defender, rule)
        wins = defender == LIGHT and result in (LIGHT_TAKES_LIGHT, CAPTURE)
        sentence = flash_sentence(
            f"{names[0]}'s 13 ({attacker})", f"{names[1]}'s 17 ({defender})", result, winner=names[0] if wins else None
        )
        # A won game's line adds what the presenter adds to the outcome's detail.
        made.add(sentence + " Every identity is now shown." if wins else sentence)
    return sorted(made, key=len, reverse=True)[:count]


def needed_height(label: Any) -> float:
    """How tall `label`'s text is when laid out whole at its font size in its width (nothing cut)."""
    from kivy.metrics import dp
    from kivy.uix.label import Label

    whole = Label(text=label.text, font_size=label.font_size, bold=label.bold, text_size=(label.width - dp(8), None))
    whole.texture_update()
    return float(whole.texture_size[1])


def words_cut(widget: Any) -> list[str]:
    """The words of `widget`'s text wider than the widget (a word that would break across lines), each at the
    size it is drawn (a markup ``[size=10sp]`` or the widget's own)."""
    import re

    from kivy.metrics import sp
    from kivy.uix.label import Label

    cut, size = [], widget.font_size
    for token in re.split(r"(\[size=\d+sp\]|\[/size\])", widget.text):
        if token.startswith("[size="):
            size = sp(int(token[6:-3]))
        elif token == "[/size]":
            size = widget.font_size
        else:
            for word in re.sub(r"\[/?b\]", "", token).split():
                alone = Label(text=word, font_size=size, bold=widget.bold)
                alone.texture_update()
                if alone.texture_size[0] > widget.width:
                    cut.append(word)
    return cut


def test_the_longest_flash_sentences_fit_whole_at_800x480_and_1280x800(ui: Any) -> None:
    """Issue 21: "Quin's flash sentence is cut at the top and bottom ('Ann's 13 (Peripheral) cannot… they swap
    places')". Each of the longest sentences the rules make is measured against its box in the real window."""
    ui.table.displays = FakeHub()  # the display strip takes its room under the buttons too
    screen = ui.start_game("quin", list(LONG))
    screen.session.act(example_setup(LONG[0]))
    screen.session.act(example_setup(LONG[1]))
    ui.frames(2)
    ui.tap(piece(screen, LONG[0], "8"))  # a real flash first: Peripheral and Time swap places, and Evangeline's
    ui.tap(piece(screen, LONG[1], "4"))  # hint grows by the flash-back ban, so the sentence has less room
    assert "may not flash" in screen.table_view.hint
    label = screen.table_view.ids.result_label
    sentences = longest_flash_sentences(LONG)
    assert any("cannot capture" in s for s in longest_flash_sentences(LONG, 40))
    try:
        for size in ((800, 480), (1280, 800)):
            ui.resize(*size)
            for sentence in sentences:
                screen.table_view.result = sentence
                ui.frames(3)
                assert label.text == sentence
                assert needed_height(label) <= label.height, (size, sentence, label.font_size)
                assert label.texture_size[1] <= label.height
            if size == (800, 480):
                ui.screenshot("quin-long-flash.png")
    finally:
        ui.resize(800, 480)
        ui.table.displays = None


def test_a_finished_game_greys_every_action_button_and_shows_the_final_state(ui: Any) -> None:
    """Issue 21: "a finished Quin game's action buttons look live". Once it is over every button is off and
    drawn greyed, a tap on a piece selects nothing, and every identity shows."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    screen.session.act(example_setup("Ann"))
    screen.session.act(example_setup("Bo"))
    ui.frames(2)
    buttons = list(screen.play_actions.children)
    assert len(buttons) == 11 and not any(b.disabled for b in buttons)
    ui.tap(piece(screen, "Ann", "1"))  # Light takes Light: Ann wins
    ui.tap(piece(screen, "Bo", "1"))
    assert screen.session.outcome is not None
    ui.frames(3)
    assert all(b.disabled for b in buttons), [b.text for b in buttons if not b.disabled]
    from ui import theme

    assert all(tuple(b.background_color) == tuple(theme.DISABLED_BUTTON) for b in buttons)
    ui.tap(piece(screen, "Ann", "5"))
    ui.tap(ui.find(screen, "move_button"))
    assert screen.selection.pieces == () and screen.banner == ""
    assert kinds_shown(screen_words(screen)) == set(KINDS), "the true final state: every identity"
    assert not any(screen.table_view.ids[f"side{i}"].active for i in (0, 1))
    assert "Ann's 1 (Light) takes Bo's 1 (Light); Ann wins." in screen.table_view.result
    ui.screenshot("quin-finished.png")


def test_every_piece_fits_its_words_and_names_its_owner_without_colour(ui: Any) -> None:
    """Issue 21: "AL / Refl. / Periph." are jargon; issue 28: colour alone tells the sides apart. Revealed,
    every piece shows its identity's whole name inside its box, and its owner's initial in its corner."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    screen.session.act(example_setup("Ann"))
    screen.session.act(example_setup("Bo"))
    ui.tap(piece(screen, "Ann", "1"))
    ui.tap(piece(screen, "Bo", "1"))  # over: every identity shows
    ui.frames(3)
    words = screen_words(screen)
    for jargon in ("AL", "Refl.", "Periph.", "Art. Light"):
        assert jargon not in words.split() and jargon + "\n" not in words
    from kivy.graphics import Rectangle

    from ui.screens.quin import owner_mark_texture

    for (owner, _label), widget in screen.pieces.items():
        assert widget.owner_mark == owner[0]
        assert widget.mark_texture is owner_mark_texture(owner[0])
        after = widget.canvas.after.children
        drawn = [i for i in after if isinstance(i, Rectangle) and i.texture is widget.mark_texture]
        assert len(drawn) == 1, "the mark is drawn once, on the piece"
        x, y = drawn[0].pos
        width, height = drawn[0].size
        assert (width, height) == tuple(widget.mark_texture.size) and width > 0
        assert widget.collide_point(x, y) and widget.collide_point(x + width, y + height), "in the piece's corner"
        assert x < widget.center_x and y > widget.center_y, "its top-left corner"
        assert not words_cut(widget), widget.text


def test_names_alike_get_marks_that_tell_them_apart() -> None:
    """Issue 28: a second cue beside colour; two names with one initial still get two marks."""
    from ui.presenters.quin import owner_marks

    assert owner_marks(["Ann", "Bo"]) == ("A", "B")
    assert owner_marks(["Ann", "Alex"]) == ("AN", "AL")
    assert owner_marks(["Ann", "ann"]) == ("1", "2")


class FakePhones:
    """Stands in for the phones' side of the table: `server.status()` as the phone server answers it."""

    def __init__(self, status: dict[str, str]) -> None:
        self.server = SimpleNamespace(status=lambda: dict(status))


def test_the_look_away_words_only_for_a_seat_without_its_own_screen(ui: Any) -> None:
    """Issue 21: "Quin still says 'each player in turn, while the other looks away' when both players have
    displays." A seat with a connected display or a phone in use sets up there; look-away words only for
    a seat that sets up on this screen."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    assert "while the other looks away" in screen.table_view.result
    hub = FakeHub()  # Ann's display is on, Bo's unplugged
    ui.table.displays = hub
    try:
        assert ui.wait_until(lambda: "Ann on their display" in screen.table_view.result, timeout=3)
        assert screen.table_view.result == "Private setup: Ann on their display; Bo here, while Ann looks away."
        ui.table.phones = FakePhones({"Ann": "waiting", "Bo": "connected"})
        assert ui.wait_until(lambda: "Bo on their phone" in screen.table_view.result, timeout=3)
        assert screen.table_view.result == "Private setup: Ann on their display and Bo on their phone."
        assert "looks away" not in screen_words(screen)
        assert screen.setup_actions.lines == ["Ann: on their display, or here", "Bo: on their phone, or here"]
        ui.screenshot("quin-setup-with-own-screens.png")
    finally:
        ui.table.displays = None
        ui.table.phones = None


def test_who_goes_first_stays_open_during_the_setup_as_the_readme_says(ui: Any) -> None:
    """Issue 21: "Quin's 'Who goes first?' greys out once one player has finished setup, although the README
    says it is accepted during setup." It stays open until the first action of play."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    screen.session.act(example_setup("Ann"))
    ui.frames(3)
    button = ui.find(screen, "race_button")
    assert button.text == "Who goes first? The water race" and not button.disabled
    assert screen.can_race
    screen.session.act({"type": "choose_first", "player": "Bo", "chosen_by": "Ann", "how": "table"})
    ui.frames(3)
    assert button.text == "Bo goes first" and button.disabled
    screen.session.act(example_setup("Bo"))
    ui.frames(2)
    assert screen.session.current_player == "Bo"
    screen.session.act({"type": "pass", "player": "Bo"})
    assert not screen.can_race, "once play has begun, who goes first is settled"


def test_names_show_as_typed_never_as_markup(ui: Any) -> None:
    """Issue 21: "escape Kivy markup wherever Quin's screen shows a player name in a markup label". Names
    that look like markup show as typed, and every markup label on the screen shows them escaped."""
    from kivy.utils import escape_markup

    names = ["[b]Zed", "Bo[/color]"]
    screen = ui.start_game("quin", names)
    screen.session.act(example_setup(names[0]))
    screen.session.act(example_setup(names[1]))
    ui.tap(piece(screen, names[0], "8"))
    ui.tap(piece(screen, names[1], "2"))
    ui.frames(3)
    assert screen.table_view.result == "[b]Zed's 8 (Peripheral) captures Bo[/color]'s 2 (Shadow)."
    shown = [w for w in screen.walk(restrict=True) if isinstance(getattr(w, "text", None), str) and w.text]
    for widget in shown:
        for name in names:
            if name in widget.text and getattr(widget, "markup", False):
                assert escape_markup(name) in widget.text, widget.text
    plain = {w.text for w in shown if not getattr(w, "markup", False)}
    assert names[0] in plain and names[1] in plain, "each side's name, as typed"
    assert len({w.owner_mark for w in screen.pieces.values()}) == 2, "two sides, two marks"


def test_the_private_setup_shows_every_identity_whole(ui: Any) -> None:
    """Issue 21: "AL / Refl. / Periph." are jargon. In the private setup every Clone face, identity chip and
    label shows its whole name, inside its box, at 800x480."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    ui.tap(ui.find(screen, "setup0"))
    ui.tap(ui.find(screen, "cover_go"))
    panel = screen.setup_panel
    ui.tap(ui.find(panel, "deal_button"))
    ui.frames(3)
    chips = [*panel.ids.clone.children, *panel.ids.kinds.children, *panel.ids.pieces.children]
    words = "\n".join(w.text for w in chips)
    assert "Peripheral" in words and "Reflector" in words and "Artificial\nLight" in words
    for jargon in ("AL", "Refl.", "Periph.", "Art. Light"):
        assert jargon not in words.split()
    for widget in chips:
        assert not words_cut(widget), widget.text
    screen.hide_private()
