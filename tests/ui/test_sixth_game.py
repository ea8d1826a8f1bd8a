"""A sixth game needs its package, one screen and one presenter, and nothing else.

Pig with secret bets (`tests/sixth_game/`) is registered here by a fixture,
with its screen; no file of the project knows it. It must reach the home
screen, a session with undo and redo driven by taps, and `companion play`.
(The player displays are reached in tests/hardware/test_sixth_game_display.py.)
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from companion.games import register, unregister
from tests.sixth_game.screen import KV, PigScreen
from ui.cli import main as companion


@pytest.fixture
def pig() -> Iterator[str]:
    from ui.screens import register_screen, unregister_screen

    register("tests.sixth_game")
    register_screen("pig", PigScreen, KV)
    try:
        yield "pig"
    finally:
        unregister_screen("pig")
        unregister("pig")


def button(ui, screen, words):
    found = [b for b in screen.board.ids.actions.children if b.text == words]
    assert found, f"no button {words!r}: {[b.text for b in screen.board.ids.actions.children]}"
    return found[0]


def test_pig_reaches_home_its_screen_undo_and_redo(ui, pig):
    ui.resize(1280, 800)  # room for six games on the home screen
    ui.app.reset(ui.table)
    ui.frames(3)
    games = ui.screen.ids.games.walk(restrict=True)
    ui.tap(next(b for b in games if b.__class__.__name__ == "Button" and "Pig" in b.text))
    screen = ui.screen
    assert isinstance(screen, PigScreen) and screen.name == "game:pig"
    players = screen.session.options.names
    for player in players:
        ui.tap(button(ui, screen, f"{player}: bet on {players[0]}"))
    assert "on" not in screen.board.ids.running.text  # the bets stay secret on the shared screen
    ui.tap(button(ui, screen, "Roll"))
    session = screen.session
    rolled = session.state.running
    assert len(session.moves) == len(players) + 1
    ui.tap(screen.ids.undo_button)
    assert len(session.moves) == len(players) and session.state.running == 0
    ui.tap(screen.ids.redo_button)
    assert session.state.running == rolled  # the very roll came back
    ui.screenshot("sixth-game-pig.png")


def test_pig_plays_headless_with_companion_play(pig, tmp_path, capsys):
    script = tmp_path / "pig.jsonl"
    lines = [
        {"type": "bet", "player": "Ann", "on": "Bo"},
        {"type": "bet", "player": "Bo", "on": "Bo"},
        {"type": "choose_first", "player": "Bo", "chosen_by": "Ann", "how": "table"},
        {"type": "roll", "player": "Bo"},
        {"type": "undo"},
        {"type": "redo"},
        {"type": "roll", "player": "Ann"},
    ]
    script.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    code = companion(["play", "pig", "--players", "Ann,Bo", "--actions", str(script), "--seed", "4"])
    assert code == 0
    out = capsys.readouterr().out.splitlines()
    steps = [json.loads(line) for line in out[: len(lines)]]
    assert steps[0] == {"line": 1, "events": [{"type": "bet_placed", "player": "Ann"}]}  # on whom: secret
    assert steps[2]["events"] == [{"type": "first_player_chosen", "player": "Bo", "chosen_by": "Ann", "how": "table"}]
    assert steps[4] == {"line": 5, "undone": True} and steps[5] == {"line": 6, "redone": True}
    assert steps[6] == {"line": 7, "refused": "It is Bo's turn, not Ann's."}
    final = json.loads("\n".join(out[len(lines) :]))
    assert final["public_view"]["bets"] is None and final["outcome"] is None


def test_pig_reaches_the_phones_through_its_views_alone(ui, pig):
    """Issue 15: "When a game with private views starts (Quin today, and any later game through its `views`)",
    each seat gets its code. Pig has private views and no phone page of its own: the Menu offers Phones, and
    a seat's page is its player's own private view as plain rows, never another's bet."""
    from dataclasses import replace

    from companion.config import PhonesConfig
    from tests.support.browser import printed_in
    from tests.ui.test_phone_panel import Phone
    from ui.phone_switch import start_phones, switch_of

    ui.table.config = replace(ui.table.config, phones=PhonesConfig(enabled=True, port=0))
    assert start_phones(ui.table) == []
    try:
        screen = ui.start_game("pig", ["Ann", "Bo"])
        ui.tap(button(ui, screen, "Ann: bet on Bo"))
        ui.tap(button(ui, screen, "Bo: bet on Ann"))
        ui.tap(screen.ids.menu_button)
        menu = next(w for w in ui.window.children if type(w).__name__ == "GameMenu")
        ui.tap(ui.find(menu, "phones_button"))
        ui.settle()
        panel = next(w for w in ui.window.children if type(w).__name__ == "PhonesPanel")
        ui.tap(ui.find_text(panel, "Ann: show my code"))
        assert panel.url.startswith(switch_of(ui.table).url + "/seat/")
        ann = Phone(panel.url)
        assert ui.wait_until(lambda: ann.pages and ann.pages[-1], timeout=10)
        rows = printed_in(ann.pages[-1])
        assert "my bet: Bo" in rows, rows  # Ann's own bet, as her private view has it
        assert "bets: -" in rows and not any("bet" in row and "Ann" in row for row in rows), "never Bo's bet on Ann"
        assert "Ann" in ann.pages[-1]["title"]
        ui.tap(ui.find(panel, "close_button"))
    finally:
        switch_of(ui.table).stop()
