"""The seats on home, with real taps at 800×480 and 1280×800 (issue 21, findings 2, 3 and 7; issue 28).

"On Home, a player's × removes them at once, and the next player's × slides under the finger." "Home shows
only two player rows: a third is a thin strip, and with five players three are hidden." "'Ann' and 'Ann'
followed by a zero-width space are accepted as two players and look the same."
"""

from __future__ import annotations

import gc
from typing import Any

import pytest
from kivy.core.text import Label as CoreLabel
from kivy.uix.button import Button
from kivy.uix.textinput import TextInput

from tests.support.layout_audit import window_rect
from tests.ui.test_home_unfinished import _game_buttons

LONG_NAMES = ("Bartholomew Fenn", "Annemarie Kowals", "Maximilian Bauer", "Wilhelmina Grant", "Christophe Dupon")


def _targets(home: Any) -> list[Any]:
    """Everything a finger aims at in the seats' panel: the add button, chips, names, ×, Undo."""
    found = [home.ids.add_player]
    for slot in home.slots:
        found += [w for w in slot.walk(restrict=True) if isinstance(w, Button | TextInput) and w.opacity > 0]
    return found


def _seat(ui: Any, names: tuple[str, ...]) -> Any:
    home = ui.screen
    while len(home.rows) < len(names):
        ui.tap(home.ids.add_player)
    for row, name in zip(home.rows, names, strict=True):
        row.ids.name_input.text = name  # as typed: the field's own text, as the keyboard leaves it
    ui.settle()
    return home


def _gap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(b[0] - a[2], a[0] - b[2], 0)
    dy = max(b[1] - a[3], a[1] - b[3], 0)
    return max(dx, dy)


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_five_seats_with_sixteen_character_names_show_whole_every_target_48px_and_8px_apart(ui, size):
    ui.resize(*size)
    ui.app.reset(ui.table)
    home = _seat(ui, LONG_NAMES)
    panel_top = window_rect(home.ids.add_player)[1]
    window = ui.window
    for row, name in zip(home.rows, LONG_NAMES, strict=True):
        field = row.ids.name_input
        _x, y, _right, top = window_rect(field)
        assert y >= 0 and top <= window.height and top <= panel_top, f"{name}: the row is whole on screen"
        core = CoreLabel(text=name, font_size=field.font_size, font_name=field.font_name)
        core.refresh()
        assert core.content_width <= field.width - field.padding[0] - field.padding[2], f"{name} shows whole"
        chip = row.ids.chip
        assert chip.text == row.seat and chip.color != chip.background_color, "the seat's number on its colour"
    targets = [window_rect(t) for t in _targets(home)]
    for n, box in enumerate(targets):
        assert box[3] - box[1] >= 48 and box[2] - box[0] >= 48, f"target {n} is at least 48 px"
        for other in targets[n + 1 :]:
            assert _gap(box, other) >= 8, f"targets {box} and {other} are 8 px apart"
    ui.screenshot(f"home-five-seats-{size[0]}x{size[1]}.png")


def test_removing_a_seat_moves_nothing_and_undo_puts_it_back(ui):
    """A tap on × leaves "Bo removed · Undo" in its place: nothing the next tap aims at moves."""
    home = _seat(ui, ("Ann", "Bo", "Cy", "Dee"))
    places = [window_rect(slot) for slot in home.slots]
    crosses = [window_rect(row.ids.remove_button) for row in home.rows]
    bo = home.rows[1]
    ui.tap(bo.ids.remove_button)
    assert [window_rect(slot) for slot in home.slots] == places, "every row where it was"
    removed = home.slots[1]
    assert removed.row is bo, "Undo holds Bo's row itself: a weak proxy to it dies at the next collection"
    del bo
    assert removed.words == "Bo removed" and [r.name for r in home.rows] == ["Ann", "Cy", "Dee"]
    assert [r.seat for r in home.rows] == ["1", "2", "3"]
    undo = removed.ids.undo_button
    assert window_rect(undo)[2] == crosses[1][2], "Undo is where the × was: a second tap there takes it back"
    assert [window_rect(home.rows[i].ids.remove_button) for i in (1, 2)] == crosses[2:], "the next × stayed put"
    ui.screenshot("home-seat-removed.png")
    ui.tap(home.rows[1].ids.remove_button)  # Cy too: still nothing moves
    assert [window_rect(slot) for slot in home.slots] == places and [r.name for r in home.rows] == ["Ann", "Dee"]
    gc.collect()  # the removed row is held by its Undo, not by a weak proxy that a collection ends
    ui.tap(undo)
    assert [r.name for r in home.rows] == ["Ann", "Bo", "Dee"] and [window_rect(s) for s in home.slots] == places
    ui.tap(home.ids.add_player)  # a new seat takes the removed one's place
    assert [r.name for r in home.rows] == ["Ann", "Bo", "Player 1", "Dee"]
    assert [window_rect(s) for s in home.slots] == places
    ui.tap(home.rows[3].ids.remove_button)
    ui.tap(home.rows[2].ids.remove_button)
    quintet = next(b for b in _game_buttons(home) if "Quintet" in b.text)
    ui.tap(quintet)
    assert ui.screen.session.options.names == ("Ann", "Bo")
    ui.app.go_home()
    ui.frames(3)
    assert len(home.slots) == 2, "once a game starts, removed seats are gone for good"


def test_a_name_is_checked_as_it_is_typed_with_one_sentence_under_the_seats_and_nothing_lost(ui):
    """'Ann' and 'Ann' followed by a zero-width space are two players who look the same; a 28-character name;
    a name that is markup. One sentence under the seats, the field keeps what was typed, Start waits."""
    home = _seat(ui, ("Ann", "Ann\u200b"))
    notice = home.ids.notice
    assert home.rows[1].problem and "same name" in notice.text and notice.text.startswith("Seat 2: ")
    quintet = next(b for b in _game_buttons(home) if "Quintet" in b.text)
    ui.tap(quintet)
    assert ui.screen is home and ui.store.unfinished_games() == [], "not started"
    assert home.rows[1].ids.name_input.text == "Ann\u200b", "nothing typed is lost"
    ui.screenshot("home-name-look-alike.png")

    home.rows[1].ids.name_input.text = "Bartholomew Fennimore-Smythe"
    ui.settle()
    assert "at most 16 characters" in notice.text and "28" in notice.text
    ui.tap(quintet)
    assert ui.screen is home
    assert home.rows[1].ids.name_input.text == "Bartholomew Fennimore-Smythe"

    home.rows[1].ids.name_input.text = "  [size=60]Bo  "
    ui.settle()
    assert notice.text == "" and not home.rows[1].problem
    ui.tap(quintet)
    session = ui.screen.session
    assert session.options.names == ("Ann", "[size=60]Bo"), "kept clean: trimmed, and markup is just a name"


def test_the_name_field_typed_into_is_framed_in_the_accent_colour_and_the_others_are_not(ui):
    """The seats' name fields are flat (Kivy's theme images cost home's first frame their atlas, issue 26); the
    field a finger is typing into says so all the same: framed in the accent colour, the other seats' not."""
    from PIL import Image

    from ui import theme

    home = ui.screen
    first, second = (row.ids.name_input for row in home.rows[:2])
    ui.tap(second)
    assert second.focus and not first.focus
    with Image.open(ui.screenshot("home-name-field-typed-into.png")) as shot:
        picture = shot.convert("RGB")

    def edge(field: Any) -> tuple[int, ...]:
        """The pixel 2 px inside the middle of the field's bottom edge (the picture's rows run top down)."""
        x, y, right, _top = window_rect(field)
        return picture.getpixel((int((x + right) / 2), int(ui.window.height - y - 2)))

    accent = tuple(round(channel * 255) for channel in theme.ACCENT[:3])
    assert all(abs(a - b) <= 8 for a, b in zip(edge(second), accent, strict=True)), edge(second)
    assert edge(first) == (255, 255, 255)

    second.focus = False  # typed: the frame goes with the focus
    with Image.open(ui.screenshot("home-name-field-typed.png")) as shot:
        picture = shot.convert("RGB")
    assert edge(second) == edge(first) == (255, 255, 255)
