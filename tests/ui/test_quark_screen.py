"""The Quark screen with real touches: the action bar, the details, the cost shown first, the scores."""

from __future__ import annotations

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
    ui.tap(ui.find(body, "draw_button"))
    ui.tap(ui.find(popup(ui), "blind_button"))
    assert player(screen, "Ann")["hand"] == 6

    # Annihilate a TOP pair: Ann +8, her neighbours Bo and Dee +1 each, Cy nothing.
    ui.tap(ui.find(body, "annihilate_button"))
    ui.screenshot("quark-annihilate.png")
    ui.tap(ui.find_text(popup(ui), "TOP   +8 energy"))
    assert [player(screen, n)["energy"] for n in PLAYERS] == [10, 3, 2, 3]
    assert body.actions_left == 0
    assert ui.find(body, "draw_button").disabled

    # End of turn: the hand count is asked, prefilled with ours.
    ui.tap(ui.find(body, "end_turn_button"))
    end = popup(ui)
    assert end.hand == 5
    ui.tap(ui.find(end, "confirm_button"))
    assert screen.session.current_player == "Bo"

    # Bo creates a meson with a transformation: the cost shows before he confirms.
    ui.tap(ui.find(body, "create_button"))
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

    # Decay is one tap; then the turn ends with a hand over the limit: the reminder shows.
    ui.tap(ui.find(body, "decay_button"))
    assert player(screen, "Bo")["energy"] == 2
    ui.tap(ui.find(body, "end_turn_button"))
    end = popup(ui)
    for _ in range(7):
        ui.tap(ui.find(ui.find(end, "hand"), "up_button"))
    assert end.hand == 9 and "discard 2 cards down to 7" in end.reminder
    ui.screenshot("quark-end-turn.png")
    ui.tap(ui.find(end, "confirm_button"))
    assert player(screen, "Bo")["hand"] == 7
    assert screen.session.current_player == "Cy"

    # Undo (the shell's) brings the turn back.
    ui.tap(ui.find(screen, "undo_button"))
    assert screen.session.current_player == "Bo"


def test_a_refusal_is_said_in_the_popup(ui: Any) -> None:
    screen = ui.start_game("quark", PLAYERS)
    for action in [{"type": "count_hand", "player": "Ann", "cards": 0}]:
        screen.session.act(action)
    ui.tap(ui.find(screen.body, "discard_draw_button"))
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
    ui.tap(ui.find(screen.body, "end_turn_button"))
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
        widget = ui.find(screen.body, button)
        assert widget.height >= 48 and widget.width >= 48
