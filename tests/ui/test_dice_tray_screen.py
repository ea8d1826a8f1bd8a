"""The dice tray on the real screen at 800×480, with real touches (issue 27): "the sum and each die shown big",
"hold some and re-roll the rest" by a tap on a die (held said in words, not by colour alone), one big Roll, the
set picker with saved sets, adding and taking out dice, the statistics, and putting the dice away."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from companion.games.dice_tray.saved import SavedSets

pytestmark = pytest.mark.ui


@pytest.fixture
def sets_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's data folder for this test alone: the saved sets start empty."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    return tmp_path / "home" / "data" / "dice-sets.json"


def fair_line(bars: Any) -> list[tuple[float, float]]:
    """The (start, end) of each piece a `FaceBars` draws in the warning colour: its fair dice' line."""
    from kivy.graphics import Color, Rectangle

    from ui import theme

    pieces, warn = [], False
    for instruction in bars.canvas.children:
        if isinstance(instruction, Color):
            warn = tuple(instruction.rgba) == pytest.approx(tuple(theme.WARN))
        elif warn and isinstance(instruction, Rectangle):
            pieces.append((instruction.pos[0], instruction.pos[0] + instruction.size[0]))
    return pieces


def faces(screen: Any) -> list[str]:
    return [tile.ids.face_label.text for tile in screen.tiles]


def test_a_tap_on_a_die_holds_it_and_roll_re_rolls_the_rest(ui: Any) -> None:
    """Issue 27: "hold some and re-roll the rest"; held dice say HELD on them; the sum is shown big."""
    screen = ui.start_game("dice-tray", ["Ann", "Bo"], dice=["d6"] * 5)
    assert faces(screen) == ["–"] * 5 and screen.ids.body.children[0].ids.total_label.text == ""
    ui.screenshot("dice-tray-start.png")
    roll = ui.find(screen, "roll_button")
    assert roll.text == "Roll" and roll.height >= 140, "one big Roll button"
    ui.tap(roll)
    first = faces(screen)
    view = screen.session.view()
    assert first == [d.face for d in view.dice] and all(f in "123456" for f in first)
    assert ui.find(screen, "total_label").text == f"Sum {view.total}"
    assert min(tile.width for tile in screen.tiles) >= 100, "each die shown big"

    ui.tap(screen.tiles[1])
    ui.tap(screen.tiles[3])
    held = [tile.ids.held_label.text for tile in screen.tiles]
    assert held == ["", "HELD", "", "HELD", ""], "held is said in words on the die"
    assert roll.text == "Roll 3 dice"
    ui.screenshot("dice-tray-two-held.png")
    ui.tap(roll)
    after = faces(screen)
    assert (after[1], after[3]) == (first[1], first[3])
    assert screen.session.moves[-1].events[0].rolled == (1, 3, 5)

    ui.tap(screen.tiles[1])  # a second tap releases it
    assert screen.tiles[1].ids.held_label.text == "" and roll.text == "Roll 4 dice"
    ui.tap(ui.find(screen, "release_button"))
    assert roll.text == "Roll" and ui.find(screen, "release_button").disabled


def test_undo_takes_a_roll_back_and_the_next_roll_brings_the_same_faces(ui: Any) -> None:
    """ "undo never re-rolls": Undo on the top bar, then Roll, shows the very faces undone."""
    screen = ui.start_game("dice-tray", ["Table"])
    ui.tap(ui.find(screen, "roll_button"))
    ui.tap(ui.find(screen, "roll_button"))
    rolled = faces(screen)
    ui.tap(ui.find(screen, "undo_button"))
    assert "Undone" in screen.banner
    ui.tap(ui.find(screen, "roll_button"))
    assert faces(screen) == rolled


def test_dice_are_added_and_taken_out_in_their_popup(ui: Any) -> None:
    screen = ui.start_game("dice-tray", ["Ann"])
    ui.tap(ui.find(screen, "dice_button"))
    popup = ui.window.children[0]
    ui.tap(ui.find_text(popup.ids.common, "d20"))
    popup.ids.faces_input.text = "Sun, Moon, Star"
    ui.tap(popup.ids.add_typed_button)
    taken_out = [b.text for b in reversed(popup.ids.remove_grid.children) if hasattr(b, "text")]
    assert taken_out == ["1: d6", "2: d6", "3: d20", "4: Sun/Moon/Star"]
    ui.screenshot("dice-tray-add-remove.png")
    ui.tap(ui.find_text(popup.ids.remove_grid, "2: d6"))
    assert [d.kind for d in screen.session.view().dice] == ["d6", "d20", "Sun/Moon/Star"]
    popup.ids.faces_input.text = "Sun"
    ui.tap(popup.ids.add_typed_button)
    assert popup.note.startswith('A die is written "d6"') and popup.note.endswith("'Sun' is neither.")
    ui.tap(popup.ids.close_button)
    ui.tap(ui.find(screen, "roll_button"))
    assert len(screen.tiles) == 3 and screen.tiles[2].ids.face_label.text in ("Sun", "Moon", "Star")
    assert ui.find(screen, "total_label").text == f"Sum {screen.session.view().total}"
    ui.screenshot("dice-tray-custom-die.png")


def test_a_set_is_saved_picked_again_after_a_restart_and_forgotten(ui: Any, sets_home: Path, tmp_path: Path) -> None:
    """ "saved as named sets, e.g. "2d6", "Quintet's dice"": saved from the picker, kept in the sets file, offered
    by the next tray after a restart; forgetting one asks first."""
    screen = ui.start_game("dice-tray", ["Ann", "Bo"], dice=["d6", "d6", "d8"])
    ui.tap(ui.find(screen, "sets_button"))
    picker = ui.window.children[0]
    picker.ids.name_input.text = "Catan+"
    ui.tap(picker.ids.save_button)
    assert "every tray now offers Catan+" in screen.banner
    assert [s.name for s in SavedSets.load(sets_home).sets] == ["Catan+"]
    assert screen.turn_text == "Catan+"

    ui.reopen(tmp_path / "after-a-power-cut.db")  # as after a restart: a new app state, the same data folder
    screen = ui.start_game("dice-tray", ["Ann", "Bo"])
    ui.tap(ui.find(screen, "sets_button"))
    picker = ui.window.children[0]
    rows = list(reversed(picker.ids.rows.children))
    assert [r.shown.name for r in rows][-1] == "Catan+" and rows[-1].shown.own
    ui.screenshot("dice-tray-sets.png")
    ui.tap(ui.find_text(picker.ids.rows, "Quintet's dice   2d6"))
    assert screen.session.view().name == "Quintet's dice" and len(screen.tiles) == 2
    ui.tap(ui.find(screen, "sets_button"))
    picker = ui.window.children[0]
    last = list(reversed(picker.ids.rows.children))[-1]
    picker.ids.rows.parent.scroll_to(last, animate=False)  # the list scrolls: the table's own sets come last
    ui.frames(3)
    ui.tap(last.ids.forget_button)
    question = ui.window.children[0]
    assert "Forget the set Catan+?" in question.ids.question_label.text
    ui.tap(question.ids.yes_button)
    assert SavedSets.load(sets_home).sets == ()
    assert "Catan+" not in [r.shown.name for r in picker.ids.rows.children]


def test_the_statistics_show_each_kind_of_die(ui: Any) -> None:
    screen = ui.start_game("dice-tray", ["Ann"], dice=["d6", "d6", "d20"])
    for _ in range(12):
        ui.tap(ui.find(screen, "roll_button"))
    ui.tap(ui.find(screen, "stats_button"))
    popup = ui.window.children[0]
    blocks = list(reversed(popup.ids.blocks.children))
    assert [b.kind.title for b in blocks] == ["d6: rolled 24 times", "d20: rolled 12 times"]
    assert "Too few rolls to judge the d6 yet: 24 so far, about 30 needed." in blocks[0].kind.summary
    assert "dashed line: fair dice" in popup.title
    bars = blocks[0].children[-2]  # the block's FaceBars, under its heading
    pieces = fair_line(bars)
    assert len(pieces) >= 10, "the fair dice' line is drawn in dashes, as the title says"
    assert pieces[0][0] == bars.x and pieces[-1][1] == pytest.approx(bars.right)
    assert all(later[0] - earlier[1] >= 4 for earlier, later in itertools.pairwise(pieces)), "a gap between two dashes"
    ui.screenshot("dice-tray-statistics.png")
    ui.tap(popup.ids.close_button)
    ui.tap(ui.find(screen, "dice_button"))
    ui.tap(ui.find_text(ui.window.children[0].ids.common, "d20"))
    ui.window.children[0].ids.faces_input.text = "d100"
    ui.tap(ui.window.children[0].ids.add_typed_button)
    ui.tap(ui.window.children[0].ids.close_button)
    for _ in range(30):
        ui.tap(ui.find(screen, "roll_button"))
    ui.tap(ui.find(screen, "stats_button"))
    popup = ui.window.children[0]
    scroller = popup.ids.blocks.parent
    last = popup.ids.blocks.children[0]
    assert last.kind.title == "d100: rolled 30 times" and len(last.kind.bars) == 100
    scroller.scroll_to(last, animate=False)
    ui.frames(3)
    ui.screenshot("dice-tray-statistics-d100.png")


def test_put_away_asks_first_and_undo_takes_the_dice_out_again(ui: Any) -> None:
    screen = ui.start_game("dice-tray", ["Ann", "Bo"])
    ui.tap(ui.find(screen, "roll_button"))
    ui.tap(ui.find(screen, "put_away_button"))
    question = ui.window.children[0]
    ui.tap(question.ids.no_button)
    assert screen.session.outcome is None
    ui.tap(ui.find(screen, "put_away_button"))
    ui.tap(ui.window.children[0].ids.yes_button)
    assert screen.session.outcome is not None
    assert ui.find(screen, "roll_button").disabled and ui.find(screen, "sets_button").disabled
    assert ui.find(screen, "detail_label").text == "The dice were put away after 1 roll. Undo takes them out again."
    ui.screenshot("dice-tray-put-away.png")
    before = faces(screen)
    ui.tap(screen.tiles[0])  # a put-away tray takes no hold
    assert screen.session.outcome is not None and faces(screen) == before
    ui.tap(ui.find(screen, "undo_button"))
    assert screen.session.outcome is None and not ui.find(screen, "roll_button").disabled


def test_ten_dice_of_every_kind_each_a_finger_wide_and_a_roll_moves_none(ui: Any) -> None:
    """At 800×480 the tray's ten dice (the most it holds) are each far wider than a finger, 8 px apart or more,
    and neither a roll nor a hold moves one; at 1280×800 they grow."""
    ten = ["d4", "d6", "d8", "d10", "d12", "d20", "d100", ["Sun", "Moon", "Star"], ["Heads", "Tails"], ["-1", "0", "1"]]
    screen = ui.start_game("dice-tray", ["Ann", "Bo", "Cy"], dice=ten)
    ui.tap(ui.find(screen, "roll_button"))
    places = [tuple(tile.pos) + tuple(tile.size) for tile in screen.tiles]
    assert min(tile.width for tile in screen.tiles) >= 96
    ui.tap(screen.tiles[7])
    ui.tap(ui.find(screen, "roll_button"))
    assert [tuple(tile.pos) + tuple(tile.size) for tile in screen.tiles] == places
    ui.screenshot("dice-tray-ten-dice.png")
    ui.resize(1280, 800)
    try:
        assert min(tile.width for tile in screen.tiles) > 96
        ui.screenshot("dice-tray-ten-dice-1280x800.png")
    finally:
        ui.resize(800, 480)
