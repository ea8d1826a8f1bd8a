"""The shell with real touches: home, into a game, the menu, back home, resume."""

from __future__ import annotations

from companion import games
from companion.games import names


def _last_game() -> str:
    """The last of the games (the tools for any game come after them, under "Any game", further down the list)."""
    return [name for name in names() if not games.facts(name).tool][-1]


def _game_button(ui, title):
    """The game's button on home, scrolled into sight (the list of games and tools is longer than the panel)."""
    from kivy.uix.scrollview import ScrollView

    button = next(
        w for w in ui.screen.ids.games.walk(restrict=True) if w.__class__.__name__ == "Button" and title in w.text
    )
    scroller = next((w for w in button.walk_reverse(loopback=False) if isinstance(w, ScrollView)), None)
    if scroller is not None:
        scroller.scroll_to(button, padding=0, animate=False)
        ui.frames(3)
    return button


def test_home_to_a_game_and_back_then_resume(ui):
    home = ui.screen
    assert home.name == "home"
    ui.screenshot("home.png")

    game = _last_game()
    title = games.game(game).title
    ui.tap(_game_button(ui, title))
    screen = ui.screen
    assert screen.name == f"game:{game}"
    assert not screen.can_undo and not screen.can_redo
    ui.screenshot("game-screen.png")

    ui.tap(ui.find(screen, "menu_button"))
    menu = ui.window.children[0]
    ui.tap(ui.find(menu, "home_button"))
    assert ui.screen.name == "home"

    # the game was kept: home offers it for resume, and a tap brings it back
    (row,) = ui.screen.unfinished_rows
    assert ui.screen.has_unfinished and row.title == title
    ui.tap(row.ids.resume_button)
    assert ui.screen.name == f"game:{game}"


def test_players_are_entered_on_the_home_screen(ui):
    home = ui.screen
    for _ in range(5):
        ui.tap(home.ids.add_player)
    assert len(home.rows) == 5  # two to start with, never more than five
    assert "At most 5" in home.notice
    assert len({row.colour for row in home.rows}) == 5
    home.rows[0].name = "Ann"
    options = home.options()
    assert options.names[0] == "Ann" and len(options.players) == 5


def test_two_players_with_one_name_are_refused_with_a_sentence(ui):
    home = ui.screen
    for row in home.rows:
        row.name = "Sam"
    ui.tap(_game_button(ui, games.game(_last_game()).title))
    assert ui.screen.name == "home"
    assert "same name" in home.notice


def test_the_layout_is_sane_at_1280x720(ui):
    ui.resize(1280, 720)
    ui.screenshot("home-1280x720.png")
    for widget in ui.screen.walk(restrict=True):
        if widget.__class__.__name__ == "Button" and widget.get_root_window() and widget.opacity > 0:
            assert widget.height >= 48 and widget.width >= 48, f"{widget.text!r} is too small to tap"


def test_a_variant_is_one_tap_on_the_home_screen(ui):
    choice = next(c for c in ui.screen.ids.games.children if c.game == "quinque")
    assert choice.variant_text == "Moves: basic"
    ui.tap(choice.variant_button)
    assert choice.variant_text == "Moves: advanced"
    ui.tap(choice.children[-1])  # the game's own big button
    assert ui.screen.name == "game:quinque"
    assert ui.screen.session.options.settings["advanced"] is True


def test_every_game_of_the_registry_is_on_the_home_screen_with_its_own_screen(ui):
    from ui.screens import screen_class
    from ui.screens.base import GameScreen

    listed = [choice.game for rows in ("games", "tools") for choice in reversed(ui.screen.ids[rows].children)]
    assert listed == [name for name in names() if name in listed] and {"quinque", "score-pad"} <= set(listed)
    for game in listed:
        assert screen_class(game) is not GameScreen, f"{game}: no ui/screens/{game.replace('-', '_')}.py found"


def test_who_goes_first_is_offered_where_the_game_lets_the_table_choose(ui):
    assert not games.game("quintet").chooses_first  # Quintet's order is fixed by the opening roll
    assert games.game("quark").chooses_first
    screen = ui.start_game("quark", ["Ann", "Bo"])
    assert screen.can_race
    ui.tap(ui.find(screen, "menu_button"))
    assert not ui.find(ui.window.children[0], "race_button").disabled


def test_a_new_game_with_a_registered_screen_reaches_home_and_its_screen(ui, tmp_path):
    """A sixth game: its rules and its screen are registered; home and the screen registry are not edited."""
    from kivy.properties import StringProperty

    from companion.games import unregister
    from tests.support.tinygame import registered
    from ui.screens import register_screen, unregister_screen
    from ui.screens.base import GameScreen

    class TinyDiceScreen(GameScreen):
        marked = StringProperty("")

    kv = tmp_path / "tiny_dice_screen.kv"
    kv.write_text("<TinyDiceScreen>:\n    marked: 'by its own rules'\n", encoding="utf-8")
    registered()
    register_screen("tiny", TinyDiceScreen, kv)
    try:
        ui.resize(1280, 800)  # room for six games without scrolling
        ui.app.reset(ui.table)
        ui.frames(3)
        ui.tap(_game_button(ui, "Tiny Dice"))
        screen = ui.screen
        assert isinstance(screen, TinyDiceScreen) and screen.name == "game:tiny"
        assert screen.marked == "by its own rules"
    finally:
        ui.app.go_home()
        unregister_screen("tiny")
        unregister("tiny")


def test_history_and_wins_after_finished_games(ui):
    from companion.game import Options
    from companion.session import Session

    clock = iter(range(0, 10_000, 30))
    for winner_first in (True, True, False):
        session = Session.start(ui.store, "quantum-link", Options.for_names("Ann", "Bo"), clock=lambda: next(clock))
        # two touching 1s score 2 for the one who placed them; the other only passes
        first = "Ann" if winner_first else "Bo"
        other = "Bo" if first == "Ann" else "Ann"
        session.act({"type": "choose_first", "player": first, "chosen_by": first, "how": "table"})
        session.act({"type": "place", "player": first, "cell": [0, 0], "face": 1})
        session.act({"type": "pass", "player": other})
        session.act({"type": "place", "player": first, "cell": [1, 0], "face": 1})
        session.act({"type": "pass", "player": other})
        session.act({"type": "pass", "player": first})
        assert session.outcome is not None
    ui.app.reset(ui.table)
    ui.frames(3)
    home = ui.screen
    assert home.wins_text.startswith("Ann 2")
    ui.tap(home.ids.history_button)
    popup = ui.window.children[0]
    assert popup.text.count("Quantum Link") == 3 and "won by Ann" in popup.text
    ui.screenshot("home-history.png")


def test_after_a_restart_the_appliance_goes_straight_back_into_the_game(ui):
    screen = ui.start_game("quinque", ["Ann", "Bo"])
    assert ui.screen is screen
    ui.app.reset(ui.table)  # as a fresh start would find it: home, with the game unfinished in the store
    assert ui.screen.name == "home"
    resumed = ui.app.start_where_left()
    assert resumed is not None and ui.screen is resumed and resumed.session.game_id == screen.session.game_id
