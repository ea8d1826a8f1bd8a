"""The Quark screen with real touches: the action bar, the details, the cost shown first, the scores."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.ui

GOLDEN = Path(__file__).resolve().parent.parent / "games" / "golden"
PLAYERS = ["Ann", "Bo", "Cy", "Dee"]


def actions_of(name: str) -> list[dict[str, Any]]:
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip() and not line.startswith("#")]


def popup(ui: Any) -> Any:
    widget = ui.window.children[0]
    assert widget.__class__.__name__.startswith("Quark") and widget.__class__.__name__.endswith("Popup")
    return widget


def player(screen: Any, name: str) -> dict[str, Any]:
    return next(p for p in screen.session.public_view()["players"] if p["name"] == name)


def test_a_turn_through_the_action_bar(ui: Any) -> None:
    screen = ui.start_game("quark", PLAYERS)
    body = screen.body
    assert [row.name for row in reversed(body.ids.rows.children)] == PLAYERS

    # Draw: one tap, then the detail (blind).
    ui.tap(ui.find(screen.actions, "draw_button"))
    ui.tap(ui.find(popup(ui), "blind_button"))
    assert player(screen, "Ann")["hand"] == 6

    # Annihilate a TOP pair: Ann +8, her neighbours Bo and Dee +1 each, Cy nothing.
    ui.tap(ui.find(screen.actions, "annihilate_button"))
    ui.screenshot("quark-annihilate.png")
    ui.tap(ui.find_text(popup(ui), "TOP   +8 energy"))
    assert [player(screen, n)["energy"] for n in PLAYERS] == [10, 3, 2, 3]
    assert screen.actions.actions_left == 0
    assert ui.find(screen.actions, "draw_button").disabled

    # End of turn: the hand by our count is shown.
    ui.tap(ui.find(screen.actions, "end_turn_button"))
    end = popup(ui)
    assert end.hand == 5 and ui.find(end, "hand").text == "Ann holds 5 cards by our count."
    ui.tap(ui.find(end, "confirm_button"))
    assert screen.session.current_player == "Bo"

    # Bo creates a meson with a transformation: the cost shows before he confirms.
    ui.tap(ui.find(screen.actions, "create_button"))
    create = popup(ui)
    ui.tap(ui.find_text(ui.find(create, "particle_row"), "Meson"))
    for _ in range(4):
        ui.tap(ui.find(ui.find(create, "points"), "up_button"))
    ui.tap(ui.find_text(ui.find(create, "source_row"), "UP"))
    ui.tap(ui.find_text(ui.find(create, "target_row"), "TOP"))
    assert not create.allowed
    assert create.preview == "Bo has 3 energy; turning UP into TOP costs 5 (5 steps up): 2 more energy needed."
    assert ui.find(create, "confirm_button").disabled
    ui.tap(ui.find_text(ui.find(create, "target_row"), "STRANGE"))
    assert create.allowed
    assert create.preview == "Bo creates a meson worth 4 points, turning UP into STRANGE for 2 energy."
    ui.screenshot("quark-create.png")
    ui.tap(ui.find(create, "confirm_button"))
    bo = player(screen, "Bo")
    assert (bo["energy"], bo["particle_points"], bo["hand"]) == (1, 4, 3)

    ui.screenshot("quark-action-bar.png")

    # Decay is one tap; then at the end of the turn Bo says he holds 9: the hand is corrected from the
    # end-of-turn popup, and the turn ends over the limit: the reminder shows.
    ui.tap(ui.find(screen.actions, "decay_button"))
    assert player(screen, "Bo")["energy"] == 2
    ui.tap(ui.find(screen.actions, "end_turn_button"))
    ui.tap(ui.find(popup(ui), "correct_hand_button"))
    fix = popup(ui)
    assert (fix.whose, fix.counter, fix.value) == ("Bo", "hand", 2)
    ui.tap(ui.find(ui.find(fix, "value"), "jump_button"))
    ui.tap(ui.find(ui.find(fix, "value"), "up_button"))
    ui.tap(ui.find(ui.find(fix, "value"), "up_button"))
    assert fix.preview == "Correction: Bo's hand 2 › 9."
    ui.tap(ui.find(fix, "save_button"))
    assert player(screen, "Bo")["hand"] == 9
    ui.tap(ui.find(screen.actions, "end_turn_button"))
    end = popup(ui)
    assert end.hand == 9 and "discard 2 cards down to 7" in end.reminder
    ui.screenshot("quark-end-turn.png")
    ui.tap(ui.find(end, "confirm_button"))
    assert player(screen, "Bo")["hand"] == 7
    assert screen.session.current_player == "Cy"

    # Undo (the shell's) brings the turn back, then the correction.
    ui.tap(ui.find(screen, "undo_button"))
    assert screen.session.current_player == "Bo" and player(screen, "Bo")["hand"] == 9
    ui.tap(ui.find(screen, "undo_button"))
    assert player(screen, "Bo")["hand"] == 2


def test_a_correction_through_the_popup(ui: Any) -> None:
    """Issue 14: "A 'correct' action sets any counter of any player ... and the deck counts and rows ... where
    that is impossible it refuses with a sentence. It is visible in the log as a correction"."""
    screen = ui.start_game("quark", PLAYERS)
    body = screen.body
    ui.tap(ui.find(body, "correct_button"))
    fix = popup(ui)
    assert (fix.whose, fix.counter, fix.value, fix.was) == ("Ann", "energy", 2, 2)
    assert not fix.allowed and ui.find(fix, "save_button").disabled

    # Cy's energy is 7, not 2: Cy, Energy, then + five times (one tap on +5).
    ui.tap(ui.find_text(ui.find(fix, "whose_row"), "Cy"))
    ui.tap(ui.find(ui.find(fix, "value"), "jump_button"))
    assert fix.preview == "Correction: Cy's energy 2 › 7."
    ui.screenshot("quark-correct.png")
    ui.tap(ui.find(fix, "save_button"))
    assert player(screen, "Cy")["energy"] == 7
    assert screen.session.public_view()["bank"]["energy"] == 72 - 5
    assert screen.session.current_player == "Ann" and screen.actions.actions_left == 2  # not a turn

    # The quark deck has 2 cards fewer: the table's counter, down with −.
    ui.tap(ui.find(body, "correct_button"))
    fix = popup(ui)
    ui.tap(ui.find_text(ui.find(fix, "whose_row"), "Table"))
    assert (fix.whose, fix.counter, fix.value) == ("", "quark_deck", 98)
    ui.tap(ui.find(ui.find(fix, "value"), "down_button"))
    ui.tap(ui.find(ui.find(fix, "value"), "down_button"))
    assert fix.preview == "Correction: the quark deck 98 › 96."
    ui.tap(ui.find(fix, "save_button"))
    assert screen.session.public_view()["decks"]["quark"]["deck"] == 96

    # A row of three holds no fourth card: the rules' sentence shows before saving, and Save stays off.
    ui.tap(ui.find(body, "correct_button"))
    fix = popup(ui)
    ui.tap(ui.find_text(ui.find(fix, "whose_row"), "Table"))
    ui.tap(ui.find_text(ui.find(fix, "counter_row"), "Face-up baryons"))
    ui.tap(ui.find(ui.find(fix, "value"), "up_button"))
    assert fix.preview == "A face-up row holds 3 cards: there can be at most 3 face-up baryons."
    assert ui.find(fix, "save_button").disabled
    ui.screenshot("quark-correct-refused.png")
    ui.tap(ui.find_text(fix, "Cancel"))
    assert screen.session.public_view()["decks"]["baryon"]["row"] == 3

    # Undo takes a correction back like any action.
    ui.tap(ui.find(screen, "undo_button"))
    assert screen.session.public_view()["decks"]["quark"]["deck"] == 98


def test_a_refusal_is_said_in_the_popup(ui: Any) -> None:
    screen = ui.start_game("quark", PLAYERS)
    for action in [{"type": "count_hand", "player": "Ann", "cards": 0}]:
        screen.session.act(action)
    ui.tap(ui.find(screen.actions, "discard_draw_button"))
    ui.tap(ui.find(popup(ui), "blind_blind_button"))
    assert "nothing to discard" in popup(ui).error
    popup(ui).dismiss()
    ui.frames(2)


def test_the_scoring_screen_names_the_atom_and_the_winner(ui: Any) -> None:
    screen = ui.start_game("quark", PLAYERS)
    script = actions_of("quark-4p-lithium.jsonl")
    for action in script[:-1]:
        screen.session.act(action)
    assert script[-1]["type"] == "end_turn"
    assert "the end is triggered" in screen.body.warning
    ui.screenshot("quark-last-turn.png")
    ui.tap(ui.find(screen.actions, "end_turn_button"))
    ui.tap(ui.find(popup(ui), "confirm_button"))
    assert screen.body.over
    assert screen.body.verdict == "Ann wins with 100 points (Lithium)."
    rows = list(reversed(screen.body.ids.score_rows.children))
    assert [(r.name, r.atom, r.total, r.winner) for r in rows] == [
        ("Ann", "Lithium 90", "100", True),
        ("Bo", "no atom", "53", False),
        ("Cy", "no atom", "70", False),
        ("Dee", "no atom", "22", False),
    ]
    assert "Hydrogen" in screen.body.atoms_text and "from your Atom cards" in screen.body.atoms_text
    assert "Lithium (3 protons, 4 neutrons, 3 energy): 90 points\n" in screen.body.atoms_text  # from the rules
    ui.screenshot("quark-scoring.png")


def test_a_tie_is_shown_as_a_tie(ui: Any) -> None:
    screen = ui.start_game("quark", ["Ann", "Bo"])
    for action in actions_of("quark-2p-beryllium-tie.jsonl"):
        screen.session.act(action)
    assert screen.body.verdict == "A tie: Ann and Bo tie on 161 points."
    assert not any(r.winner for r in screen.body.ids.score_rows.children)


def test_readable_at_1280x720(ui: Any) -> None:
    ui.resize(1280, 720)
    screen = ui.start_game("quark", PLAYERS)
    for action in actions_of("quark-4p-lithium.jsonl")[:40]:
        screen.session.act(action)
    ui.screenshot("quark-1280.png")
    for button in ("draw_button", "discard_draw_button", "decay_button", "annihilate_button", "create_button"):
        widget = ui.find(screen.actions, button)
        assert widget.height >= 48 and widget.width >= 48


def test_a_player_who_left_is_listed_as_left_and_nothing_breaks(ui: Any) -> None:
    """Issue 21, finding 7: a player who left has no score now and is listed in the scores as left."""
    screen = ui.start_game("quark", PLAYERS)
    for action in actions_of("quark-4p-lithium.jsonl")[:12]:
        screen.session.act(action)
    screen.session.act({"type": "leave", "player": "Cy"})
    ui.frames(3)
    rows = {row.name: row for row in screen.body.ids.rows.children}
    assert rows["Cy"].gone and rows["Cy"].score == "left" and rows["Cy"].atom == ""
    assert not rows["Ann"].gone and rows["Ann"].score.isdigit()
    assert "Quark deck" in screen.body.decks and "face up" in screen.body.decks
    ui.screenshot("quark-a-player-left.png")
    for name in ("Bo", "Dee"):
        screen.session.act({"type": "leave", "player": name})
    ui.frames(3)
    assert screen.body.over
    assert screen.turn_text == "Game over"  # it said "Dee to play: 2 actions left" on a finished game
    scores = {row.name: row for row in screen.body.ids.score_rows.children}
    assert set(scores) == set(PLAYERS)
    assert [(scores[n].atom, scores[n].total) for n in ("Bo", "Cy", "Dee")] == [("left", "–")] * 3
    assert scores["Ann"].total != "–"
    ui.screenshot("quark-scores-with-leavers.png")


LONG_NAMES = ["Wilhelmina Mayer", "Maximilian Worth", "Bartholomew Kemp", "Gwendolyn Hawkes"]


def test_long_names_show_whole_and_the_action_bar_is_spaced(ui: Any) -> None:
    """Issue 21's audit: "nothing cut (text fits its box)" and every tappable "at least 8 px from the next
    tappable": the longest names wrap in the table rather than end in "…", and the action bar's buttons
    (6 px apart before) leave 8 px between them."""
    from kivy.factory import Factory

    screen = ui.start_game("quark", LONG_NAMES)
    ui.frames(3)
    names = [w for w in screen.body.walk() if isinstance(w, Factory.QuarkName)]
    assert sorted(label.text for label in names) == sorted(LONG_NAMES)
    for label in names:
        label.texture_update()
        assert not label.shorten
        assert label.texture_size[0] <= label.width + 1 and label.texture_size[1] <= label.height + 1, label.text
    bar = sorted(screen.actions.children, key=lambda b: b.x)
    assert all(b.x - a.right >= 8 for a, b in itertools.pairwise(bar))
    ui.screenshot("quark-long-names.png")

    ui.tap(ui.find(screen.actions, "create_button"))
    create = popup(ui)
    rows = [ui.find(create, "source_row"), ui.find(create, "target_row")]
    assert rows[0].y - rows[1].top >= 8 and rows[0].spacing >= 8


def test_a_short_name_shows_at_the_tables_own_size_and_a_long_one_steps_down_only_as_needed(ui: Any) -> None:
    """What a person sees: a player's name in the live table is the row's biggest word after the numbers, 22sp
    bold (quark.kv's `QuarkName`). Fitted before its kv rule was applied, every name showed at Kivy's default
    15sp, smaller than the column headings' neighbours. A short name keeps 22sp; the longest names allowed wrap
    and step down only as far as they must, never below 14sp, and show whole."""
    from kivy.factory import Factory
    from kivy.metrics import sp

    for names in (["Ann", "Bo", "Cy"], LONG_NAMES):
        screen = ui.start_game("quark", names)
        ui.frames(3)
        shown = [w for w in screen.body.ids.rows.walk(restrict=True) if isinstance(w, Factory.QuarkName)]
        assert sorted(w.text for w in shown) == sorted(names)
        for label in shown:
            assert sp(14) <= label.font_size <= sp(22)
            assert label.texture_size[1] <= label.height and label.texture_size[0] <= label.width
            if names[0] == "Ann":
                assert label.font_size == sp(22), label.text
        if names is LONG_NAMES:
            assert max(label.font_size for label in shown) > sp(15), "steps down only as far as it must"
            ui.screenshot("quark-long-names-fitted.png")
        screen.go_home()
        ui.frames(2)
