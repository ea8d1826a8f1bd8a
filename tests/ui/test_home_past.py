"""Past games keeps a game ended without a result, and gives it back; names never become markup (issue 21).

"Menu → End without a result ends the game at once … The game then appears neither in Unfinished games nor
in Past games: no trace, no way back." "Names go into Kivy markup labels unescaped: a player called
`[color=ff0000][size=60]Ann[/size][/color]` covers the unfinished-games row, the wins bar and past games."
"The Wins strip shows tiny bars with no readable names".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.core.text import Label as CoreLabel

from companion.game import Options
from companion.session import Session
from companion.store import Store
from tests.support import golden
from ui.presenters.home import player_colour

SCRIPT = "quintet-two-players"
MARKUP = "[color=ff0000][size=60]Ann[/size][/color]"


def _popup(ui: Any) -> Any:
    ui.settle()
    return ui.window.children[0]


def _part_played(store: Store) -> Session:
    lines = golden.read(golden.FOLDER / f"{SCRIPT}.jsonl").lines
    clock = iter(range(1_750_000_000, 1_750_100_000, 60))
    session = golden.play(store, SCRIPT, upto=max(4, len(lines) // 3), clock=lambda: float(next(clock)))
    session.undo()
    return session


def test_a_game_ended_without_a_result_is_in_past_games_its_log_opens_and_a_tap_takes_it_back(ui, tmp_path):
    path = Path(ui.store.path)
    session = _part_played(ui.store)
    before = (session.game_id, session.state, session.moves, session.redo_moves)
    session.abandon()  # Menu → End without a result
    ui.reopen(path)
    home = ui.screen
    assert home.unfinished_rows == []

    ui.tap(home.ids.history_button)
    past = _popup(ui)
    (row,) = past.game_rows
    assert row.game_id == session.game_id and row.abandoned
    assert "Ended without a result" in row.detail and row.ids.players_label.text == "Ann, Bo"
    ui.screenshot("past-games-ended-without-a-result.png")

    ui.tap(row)  # its Game log opens like any past game's
    log = _popup(ui)
    assert log.__class__.__name__ == "LogView"
    log.dismiss(animation=False)
    ui.settle()

    ui.tap(row.ids.take_back_button)
    assert row.taken_back and row.ids.take_back_button.text == "Resume", "the row stays, and now resumes"
    assert [u.record.id for u in ui.store.unfinished_games()] == [session.game_id]
    assert home.ids.unfinished_tab.text == "Unfinished · 1"
    ui.screenshot("past-games-taken-back.png")
    ui.tap(row.ids.take_back_button)
    screen = ui.screen
    assert screen.name == "game:quintet"
    again = screen.session
    assert (again.game_id, again.state, again.moves, again.redo_moves) == before, "exactly, undone moves and all"
    assert again.can_redo
    assert ui.store.win_counts() == {}, "it counts for nobody"


def _insert_named(store: Store, names: list[str], winner: str | None) -> None:
    """A game with these names as a file written before names were checked at the door holds them."""
    options = Options.for_names(*names).to_json()
    gid = store.new_game("quinque", options, 1_750_000_000.0)
    outcome = {"winners": [winner], "reason": "five in a row", "detail": ""} if winner else None
    store.record(gid, 0, {"type": "x"}, [], [], now=1_750_000_100.0, elapsed=1.0, outcome=outcome, pending_draws=[])


def _label_heights_ok(root: Any) -> list[str]:
    """Labels under `root` whose text grew past their box (a name's markup would make it 60 px)."""
    from kivy.uix.label import Label

    bad = []
    for widget in root.walk(restrict=True):
        if isinstance(widget, Label) and widget.text and widget.texture_size[1] > widget.height + 1:
            bad.append(f"{widget.text!r}: {widget.texture_size[1]} > {widget.height}")
    return bad


def test_a_name_is_never_markup_on_home_past_games_or_wins(ui):
    path = Path(ui.store.path)
    for _ in range(3):
        _insert_named(ui.store, [MARKUP, "Bo"], MARKUP)
    _insert_named(ui.store, [MARKUP, "Bo"], None)  # unfinished
    ui.reopen(path)
    home = ui.screen
    ui.tap(home.ids.unfinished_tab)
    (row,) = home.unfinished_rows
    assert row.ids.players_label.text == "2 players", "too long for its line: never cut, never markup"
    assert not _label_heights_ok(row)
    ui.tap(row.ids.players_label)  # a tap on the row's words: every name whole
    names = _popup(ui)
    assert names.text.endswith(f"\n\n{MARKUP}\nBo") and not _label_heights_ok(names)
    ui.screenshot("home-names-whole.png")
    names.dismiss(animation=False)
    ui.settle()
    bars = [b for b in home.ids.wins_button.ids.bars.children if hasattr(b, "count")]
    (bar,) = bars
    assert bar.name == MARKUP and bar.shown_name == MARKUP.replace("[", "&bl;").replace("]", "&br;")
    assert not _label_heights_ok(home.ids.wins_button)
    assert "at most 16 characters" in home.ids.notice.text, "the last table's too-long name is said at once"
    ui.screenshot("home-markup-name.png")
    ui.tap(home.ids.history_button)
    past = _popup(ui)
    assert len(past.game_rows) == 3 and not _label_heights_ok(past)
    details = [row.detail.replace("&bl;", "[").replace("&br;", "]") for row in past.game_rows]
    assert all("won by [color=ff0000]" in detail for detail in details), "escaped, and read back whole"
    past.dismiss(animation=False)
    ui.settle()
    ui.tap(home.ids.wins_button)
    chart = _popup(ui)
    assert not _label_heights_ok(chart)
    chart.dismiss(animation=False)


def test_the_wins_strip_names_its_players_readably_each_in_the_colour_they_have_everywhere(ui):
    """'The Wins strip shows tiny bars with no readable names; in Wins per game, Cy (yellow) was drawn red once
    and blue the next time.' On home a colour means a seat (issue 28: a widget in a player's colour carries that
    player's name): a bar is drawn in its player's seat colour, grey for a player not seated; the chart keeps
    each name's own colour."""
    path = Path(ui.store.path)
    for winner, times in (("Ann", 3), ("Bo", 2), ("Cy", 1)):
        for _ in range(times):
            _insert_named(ui.store, ["Ann", "Bo", "Cy"][:2] if winner != "Cy" else ["Cy", "Bo"], winner)
    ui.reopen(path)
    home = ui.screen
    seated = {row.name: row.colour for row in home.rows}
    assert seated.keys() == {"Cy", "Bo"}, "the last game's table"
    bars = [b for b in reversed(home.ids.wins_button.ids.bars.children) if hasattr(b, "count")]
    assert [(b.name, b.count) for b in bars] == [("Ann", 3), ("Bo", 2), ("Cy", 1)]
    for bar in bars:
        label = bar.children[-1]
        assert label.width >= 100, "room for a name"
        core = CoreLabel(text=f"{bar.count}  {bar.name}", font_size=label.font_size, font_name=label.font_name)
        core.refresh()
        assert core.content_width <= label.width and label.font_size >= 15, f"{bar.name} reads whole"
        assert bar.colour == seated.get(bar.name, ""), "a seat's colour; grey ('') for Ann, not seated"
    ui.screenshot("home-wins-strip-names.png")
    ui.tap(home.ids.wins_button)
    chart = _popup(ui)
    shown = [b for row in chart.game_rows for b in row.ids.bars.children if hasattr(b, "count")]
    assert shown and all(b.colour == player_colour(b.name) for b in shown), "the same colour in every chart"
    ui.screenshot("home-wins-chart.png")
    chart.dismiss(animation=False)
    ui.settle()
    cy = next(row for row in home.rows if row.name == "Cy")
    ui.tap(cy.ids.chip)  # Cy takes another colour: Cy's bar follows it
    cy_bar = next(b for b in home.ids.wins_button.ids.bars.children if getattr(b, "name", "") == "Cy")
    assert cy.colour != seated["Cy"] and cy_bar.colour == cy.colour
