"""The score pad on the real screen with real touches (issue 27): from home under "Any game", the game named,
points typed on the big number pad, End asked first, and the wins on home under the game's own name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.game import Options, Player

pytestmark = pytest.mark.ui


def tool_button(ui: Any, title: str) -> Any:
    """A game's big button on home's New game page (the games, then the tools under "Any game")."""
    home = ui.screen
    return next(
        w
        for w in home.games_view.walk(restrict=True)
        if w.__class__.__name__ == "Button" and w.text.startswith(f"[b]{title}[/b]")
    )


def key(popup: Any, text: str) -> Any:
    return next(w for w in popup.ids.pad_keys.children if w.text == text)


def score(ui: Any, screen: Any, round_: int, seat: int, keys: str, picture: str = "") -> None:
    """A tap on a cell, then the keys on the number pad (``"-"`` is the minus), then OK."""
    cell = screen._rows[round_ - 1].cells[seat]
    ui.tap(cell)
    popup = ui.window.children[0]
    assert popup.__class__.__name__ == "NumberPadPopup"
    for char in keys:
        ui.tap(key(popup, "−" if char == "-" else char))
    if picture:
        ui.screenshot(picture)
    ui.tap(popup.ids.ok_button)


def test_score_pad_from_home_to_the_wins_under_the_game_s_name(ui: Any) -> None:
    """Issue 27: "offered on the home screen under **Any game**"; "the table names the game ("Carcassonne")";
    "a tap on a cell opens a big number pad (negative numbers too)"; "running totals and who leads"; "**End**
    asks, then the winner(s) go into the history and the wins under that game's name. Wins per game on home
    then show Carcassonne beside Quin"."""
    home = ui.screen
    # A game of Quin won first, so that the wins per game have Quin in them too.
    quin = ui.app.start_game("quin", Options((Player("Ann"), Player("Bo"))))
    quin.session.act({"type": "leave", "player": "Bo"})
    ui.app.go_home()
    ui.frames(3)
    home = ui.screen
    assert home.ids.any_game_heading.text == "Any game"
    button = tool_button(ui, "Score pad")
    assert button.parent.parent == home.ids.tools, "the score pad is listed under Any game, apart from the games"
    home.games_view.scroll_to(button, animate=False)  # the table scrolls the list to it
    ui.frames(3)
    home.rows[0].ids.name_input.text = "Ann"
    home.rows[1].ids.name_input.text = "Bo"
    ui.screenshot("score-pad-home-any-game.png")
    ui.tap(button)
    screen = ui.screen
    assert screen.name == "game:score-pad"
    assert screen.naming.parent is not None, "the game is named first"
    ui.screenshot("score-pad-naming.png")
    screen.naming.ids.title_input.text = "Carcassonne"
    ui.tap(screen.naming.ids.start_button)
    assert screen.session.state.title == "Carcassonne" and screen.board.parent is not None
    assert screen.title == "Carcassonne"

    score(ui, screen, 1, 0, "12")
    score(ui, screen, 1, 1, "-3", picture="score-pad-number-pad.png")
    assert [t.total for t in screen._totals] == ["12", "−3"]
    assert screen._totals[0].leads and not screen._totals[1].leads
    assert screen.board.leader == "Ann leads with 12."
    ui.tap(screen.board.ids.add_round_button)
    score(ui, screen, 2, 1, "30")
    score(ui, screen, 2, 0, "71")  # Ann: 83
    ui.screenshot("score-pad-two-rounds.png")
    assert [t.total for t in screen._totals] == ["83", "27"]

    # A cell scored again is replaced; Undo puts the old points back.
    score(ui, screen, 2, 1, "31")
    assert screen._rows[1].cells[1].text == "31"
    ui.tap(screen.ids.undo_button)
    assert screen._rows[1].cells[1].text == "30"

    ui.tap(screen.board.ids.end_button)
    confirm = ui.window.children[0]
    assert confirm.question == "End the game? Ann wins with 83."
    ui.screenshot("score-pad-end-asks.png")
    ui.tap(confirm.ids.cancel_button)
    assert screen.session.outcome is None, "Cancel keeps the game going"
    ui.tap(screen.board.ids.end_button)
    ui.tap(ui.window.children[0].ids.end_confirm_button)
    outcome = screen.session.outcome
    assert outcome is not None and outcome.winners == ("Ann",) and outcome.title == "Carcassonne"
    assert screen.board.leader == "Game over. Ann wins Carcassonne with 83."
    ui.screenshot("score-pad-over.png")

    ui.tap(ui.find(screen, "menu_button"))
    ui.tap(ui.find(ui.window.children[0], "home_button"))
    home = ui.screen
    assert home.name == "home"
    ui.tap(home.ids.wins_button)
    popup = ui.window.children[0]
    titles = [row.title for row in popup.game_rows]
    assert titles == ["Quin", "Carcassonne"], titles
    ui.screenshot("score-pad-wins-per-game.png")
    ui.tap(popup.ids.close_button)
    # and in the history, under its name
    assert home.history_text.startswith("Carcassonne  Ann, Bo: won by Ann")


def test_the_names_played_before_are_offered_again(ui: Any) -> None:
    """Issue 27: "the names used before are offered again": a tap on one names the game."""
    for title in ("Catan", "Azul"):
        screen = ui.start_game("score-pad", ["Ann", "Bo"])
        screen.session.act({"type": "name", "title": title})
        screen.session.act({"type": "score", "player": "Bo", "round": 1, "points": 5})
        screen.session.act({"type": "end"})
        ui.app.go_home()
    screen = ui.start_game("score-pad", ["Ann", "Bo"])
    offered = [w.text for w in reversed(screen.naming.ids.past.children)]
    assert offered == ["Azul", "Catan"]
    ui.tap(screen.naming.ids.lowest_button)
    ui.tap(next(w for w in screen.naming.ids.past.children if w.text == "Catan"))
    ui.tap(screen.naming.ids.start_button)
    state = screen.session.state
    assert (state.title, state.wins) == ("Catan", "lowest")


def test_a_nameless_start_is_refused_with_one_sentence(ui: Any) -> None:
    screen = ui.start_game("score-pad", ["Ann", "Bo"])
    ui.tap(screen.naming.ids.start_button)
    assert screen.banner == "Name the game you are scoring, for example Carcassonne."
    assert not screen.session.moves


def long_pad(ui: Any, points: Callable[[int, int], int]) -> Any:
    """The screen of a score pad of 20 rounds × 5 players, every cell scored: `points(round, seat)`."""
    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    screen = ui.start_game("score-pad", names)
    screen.session.act({"type": "name", "title": "Carcassonne"})
    for number in range(1, 21):
        for seat, name in enumerate(names):
            screen.session.act({"type": "score", "player": name, "round": number, "points": points(number, seat)})
    ui.frames(4)
    return screen


def test_twenty_rounds_of_five_players_scroll_and_every_cell_is_a_finger_wide(ui: Any) -> None:
    """Issue 27: "a score pad of 20 rounds × 5 players" stays usable: the rounds scroll under fixed heads and
    totals, every cell at least 48 px both ways, and a tap on the last round's cell opens its pad."""
    screen = long_pad(ui, lambda number, seat: number * (seat + 1) - 7)
    session = screen.session
    assert len(screen._rows) == 20
    cells = [cell for row in screen._rows for cell in row.cells]
    assert all(cell.width >= 48 and cell.height >= 48 for cell in cells)
    scroll = screen.board.ids.scroll
    assert scroll.viewport_size[1] > scroll.height, "twenty rounds scroll"
    heads_top = screen.board.ids.heads_row.to_window(*screen.board.ids.heads_row.pos)[1]
    scroll.scroll_y = 0
    ui.frames(3)
    assert screen.board.ids.heads_row.to_window(*screen.board.ids.heads_row.pos)[1] == heads_top
    ui.screenshot("score-pad-20-rounds.png")
    score(ui, screen, 20, 4, "-5")
    assert session.state.cells[19][4] == -5
    assert screen._totals[4].total == str(session.state.total("Eve")).replace("-", "−")


def _pad_look(pad: Any) -> tuple[Any, ...]:
    """What a player sees of the number pad: its heading, what is typed, its hint, and each widget's kind, words
    and place on the window, to the pixel."""
    def place(w: Any) -> tuple[int, ...]:
        return tuple(round(v) for v in (*w.to_window(*w.pos), *w.size))

    widgets = [(type(w).__name__, getattr(w, "text", None), w.disabled, place(w)) for w in pad.walk(restrict=True)]
    return pad.title, pad.shown, pad.hint, widgets


def test_the_number_pad_is_made_ahead_and_opens_for_each_cell_as_a_new_one_would(ui: Any) -> None:
    """Issue 26: "Every tap answered quickly" (a tap on a cell built its number pad: digits, minus, Clear,
    Cancel, OK). The screen makes one pad while the table looks at the board, and a tap on any cell opens it,
    set for that cell ("a tap on a cell opens a big number pad", issue 27): what was typed at the last cell and
    cancelled is gone; a cell with points shows them; each opening is, widget for widget, a pad made new then."""
    from ui.screens.base import AHEAD_SECONDS
    from ui.widgets.fitted_popup import KeptPopups

    screen = ui.start_game("score-pad", ["Ann", "Bo"])
    screen.session.act({"type": "name", "title": "Carcassonne"})
    screen.session.act({"type": "score", "player": "Bo", "round": 1, "points": 17})
    ui.wait(AHEAD_SECONDS)
    assert ui.wait_until(lambda: "pad" in screen._kept._popups, timeout=5), "made while the table looks"
    made = screen._kept.get("pad", lambda: pytest.fail("not made ahead"))

    def open_on(seat: int) -> Any:
        ui.tap(screen._rows[0].cells[seat])
        ui.settle()
        [pad] = [w for w in ui.window.children if w.__class__.__name__ == "NumberPadPopup"]
        return pad

    def cancel(pad: Any) -> None:
        ui.tap(ui.find_text(pad, "Cancel"))
        ui.settle()
        assert pad.parent is None

    looks = []
    for seat, keys in ((0, "-48"), (1, "3")):
        pad = open_on(seat)
        assert pad is made, "the screen's own pad, at every cell"
        looks.append(_pad_look(pad))
        for char in keys:
            ui.tap(next(w for w in pad.ids.pad_keys.children if w.text == ("−" if char == "-" else char)))
        assert pad.shown != looks[-1][1]
        cancel(pad)
    assert looks[0][0] != looks[1][0], "each cell's own heading"
    screen._kept = KeptPopups()  # the screen forgets its pad: each opening makes one new
    for seat, look in ((0, looks[0]), (1, looks[1])):
        pad = open_on(seat)
        assert pad is not made and _pad_look(pad) == look, f"seat {seat}: the kept pad opened as a new one does"
        cancel(pad)


def test_the_rounds_scrolled_draw_the_board_once_and_their_scroll_bar_draws_nothing_more(ui: Any) -> None:
    """Issue 26: "calm when idle ... quick on every tap". Kivy lit a ScrollView's bar after every move or layout
    of its content (a scroll, a round added) and faded it over the next second: each frame of the fade drew the
    whole board's buffer again (43 draws for one scroll here, and a tap meanwhile waited for one). The bar keeps
    one colour, seen at rest: a scroll draws the board, then nothing does, and a typed cell draws it once."""
    from kivy.graphics import Color

    names = ["Ann", "Bo", "Cy", "Dee", "Eve"]
    screen = ui.start_game("score-pad", names)
    screen.session.act({"type": "name", "title": "Carcassonne"})
    for number in range(1, 21):
        for seat, name in enumerate(names):
            screen.session.act({"type": "score", "player": name, "round": number, "points": number + seat})
    assert ui.wait_still()
    layer, scroll = screen.ids.still, screen.board.ids.scroll
    scroll.scroll_y = 0  # the last rounds in sight, as a finger's drag leaves them
    ui.frames(2)
    scrolled = layer.renders
    ui.wait(1.5)  # Kivy's bar: lit for half a second after the move, then half a second of fading
    assert layer.renders == scrolled, "nothing draws the board once the rounds have moved"
    score(ui, screen, 20, 1, "7")
    assert screen.session.state.cells[19][1] == 7
    typed = layer.renders
    ui.wait(1.5)
    assert layer.renders - typed <= 1, "the board's buffer is drawn for the typed cell, not for a scroll bar"
    bar = next(i for i in scroll.canvas.after.get_group("scroll_bar") if isinstance(i, Color))
    assert bar.a >= 0.5, "the rounds scroll, and a player sees that they do"
