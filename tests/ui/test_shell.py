"""The shell: home screen, into a game screen and back, with real touches."""

from __future__ import annotations

from companion.games import rules_for


def test_home_to_game_and_back(ui):
    home = ui.screen
    assert home.name == "home"
    ui.screenshot("home.png")
    game_button = next(w for w in home.ids.games.walk(restrict=True) if hasattr(w, "on_release") and "Quin" in getattr(w, "text", ""))
    ui.tap(game_button)
    assert ui.screen.name.startswith("game:")
    ui.tap(ui.find(ui.screen, "menu_button"))
