"""Two seated colours a colour-blind player could not tell apart are said on home, with real taps (issue 28).

Issue 28: "warn in the players panel when two seated colours would be hard to tell apart for a colour-blind
player". The table's own five colours are never such a pair (`companion.palette`), so a pair comes from a
colour kept from an older game, or from an Undo that gives a removed seat back the colour another seat took.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.uix.button import Button

from companion.game import SEAT_COLOURS, Options, Player
from companion.store import Store
from tests.support.layout_audit import overlaps, reach_rect, window_rect
from ui.presenters.home import colour_warning

OLD_GREEN = "#43a047"
"""The table's green before today's colours: ΔE 111 from red to normal eyes, 15 to a deuteranope."""


def _row(home: Any, name: str) -> Any:
    return next(row for row in home.rows if row.name == name)


def _last_game(store: Store, players: tuple[Player, ...]) -> None:
    store.new_game("quinque", Options(players).to_json(), 1_750_000_000.0)


def test_the_warning_names_the_pair_in_one_sentence() -> None:
    """Same colour, alike to anyone, alike to a colour-blind player, or none at all: one sentence each."""
    red, blue = SEAT_COLOURS[0], SEAT_COLOURS[1]
    assert colour_warning([("Ann", red), ("Bo", blue), ("Cy", SEAT_COLOURS[2])]) == ""
    assert colour_warning([(name, c) for name, c in zip("ABCDE", SEAT_COLOURS, strict=True)]) == ""
    assert colour_warning([("Ann", red), ("Bo", blue), ("Cy", OLD_GREEN)]) == (
        "Ann's and Cy's colours look alike to a colour-blind player: tap a colour to change it."
    )
    assert (
        colour_warning([("Ann", blue), (" ", blue)])
        == "Ann and Seat 2 have the same colour: tap a colour to change it."
    )
    assert colour_warning([("Ann", red), ("Bo", "#e63a36")]).startswith("Ann's and Bo's colours look alike: ")


def test_two_colours_alike_to_a_colour_blind_player_are_said_on_home_until_a_tap_changes_one(ui: Any) -> None:
    """The last table kept the old green beside red: home says so at once, on the notice line (over no button),
    and a tap on Cy's colour ends it."""
    path = Path(ui.store.path)
    _last_game(ui.store, (Player("Ann", SEAT_COLOURS[0]), Player("Bo", SEAT_COLOURS[1]), Player("Cy", OLD_GREEN)))
    ui.reopen(path)
    home = ui.screen
    sentence = "Ann's and Cy's colours look alike to a colour-blind player: tap a colour to change it."
    assert home.ids.notice.text == sentence
    assert not home.notice_too_long, "whole on its line"
    notice = home.ids.notice.__self__
    buttons = [w for w in home.walk(restrict=True) if isinstance(w, Button) and w is not notice]
    covering = [b.text for b in buttons if overlaps(reach_rect(b, ui.window.size), window_rect(notice), slack=0)]
    assert not covering, "it covers no button"
    ui.screenshot("home-colours-alike.png")

    ui.wait(0.2)
    assert home.ids.notice.text == sentence, "it stays while the colours are alike"
    ui.tap(_row(home, "Cy").ids.chip)  # a real tap on Cy's colour
    assert _row(home, "Cy").colour in SEAT_COLOURS
    assert home.colour_problem == "" and home.ids.notice.text == ""


def test_an_undo_that_gives_a_seat_back_a_colour_taken_meanwhile_is_said_and_a_tap_fixes_it(ui: Any) -> None:
    """Bo removed, Ann's colour tapped on to Bo's blue, Bo's Undo: two blue seats. Home says so; a tap on Bo's
    colour gives Bo a free one."""
    ui.app.reset(ui.table)
    home = ui.screen
    ann, bo = home.rows
    ann.ids.name_input.text, bo.ids.name_input.text = "Ann", "Bo"
    ui.settle()
    assert (ann.colour, bo.colour) == SEAT_COLOURS[:2]
    ui.tap(bo.ids.remove_button)
    ui.tap(ann.ids.chip)
    assert ann.colour == SEAT_COLOURS[1], "Bo's blue is free while Bo is away"
    (removed,) = [slot for slot in home.slots if slot not in home.rows]
    ui.tap(removed.ids.undo_button)
    assert home.rows == [ann, bo] and ann.colour == bo.colour, "the Undo gives Bo back exactly"
    assert home.ids.notice.text == "Ann and Bo have the same colour: tap a colour to change it."
    ui.screenshot("home-colours-same.png")
    ui.tap(bo.ids.chip)
    assert ann.colour != bo.colour and home.ids.notice.text == ""


def test_a_tap_on_the_colour_sentence_puts_those_colours_away_and_another_pair_is_said(ui: Any) -> None:
    """A table that chose those colours on purpose is not told again (not on a new name either); a new pair
    (a third seat's blue beside the old green) is said."""
    path = Path(ui.store.path)
    _last_game(ui.store, (Player("Ann", SEAT_COLOURS[0]), Player("Cy", OLD_GREEN)))
    ui.reopen(path)
    home = ui.screen
    assert "colour-blind" in home.ids.notice.text
    ui.tap(home.ids.notice)
    assert home.ids.notice.text == "" and ui.screen is home
    _row(home, "Ann").ids.name_input.text = "Anna"
    ui.settle()
    assert home.ids.notice.text == "", "put away for red and the old green, whatever the names"
    ui.tap(home.ids.add_player)  # the third seat is blue: alike to the old green for a tritanope
    assert home.rows[2].colour == SEAT_COLOURS[1]
    assert home.ids.notice.text == (
        "Cy's and Player 1's colours look alike to a colour-blind player: tap a colour to change it."
    )
