"""Wins per game and past games on the real home screen, with real touches (issue 14).

"History has no silent cap: it pages, and the home screen shows each player's wins per game as a small
chart." and "Nothing on the home screen moves while a finger is on its way."
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.game import Options
from companion.session import Session
from companion.store import Store
from tests.support import golden
from tests.support.many_games import by_hand, ended_games, write_file
from tests.ui.test_home_unfinished import _positions

# Whole games, each to its end: a win in three games, and a tie.
FINISHED = ("quinque-row-win", "quintet-two-players", "quantum-link-full-board", "quinque-small-tie")


def _play_through(store: Store, script: str, clock: Any) -> Session:
    session = golden.play(store, script, clock=clock)
    assert session.outcome is not None, f"{script} is played to its end"
    return session


def _popup(ui: Any) -> Any:
    ui.settle()
    return ui.window.children[0]


def test_no_finished_games_yet_says_so_in_the_strip_and_the_chart(ui):
    home = ui.screen
    assert home.ids.wins_button.empty and home.wins_text == "No finished games yet."
    ui.tap(home.ids.wins_button)
    chart = _popup(ui)
    assert chart.empty and chart.game_rows == []
    ui.tap(chart.ids.close_button)
    ui.tap(home.ids.history_button)
    past = _popup(ui)
    assert past.words == "No finished games yet." and past.game_rows == []
    assert past.ids.newer_button.disabled and past.ids.older_button.disabled
    ui.tap(past.ids.close_button)


def test_wins_chart_and_past_games_from_finished_games_each_opening_its_log(ui):
    path = Path(ui.store.path)
    empty = _positions(ui)
    clock = iter(range(1_750_000_000, 1_750_900_000, 60))
    sessions = [_play_through(ui.store, script, lambda: float(next(clock))) for script in FINISHED]
    left = Session.start(ui.store, "quin", Options.for_names("Ann", "Bo"), clock=lambda: float(next(clock)))
    left.act({"type": "leave", "player": "Bo"})  # "the other player wins, with the reason "left""
    unfinished = Session.start(ui.store, "quintet", Options.for_names("Ann", "Cy"), clock=lambda: float(next(clock)))
    ui.reopen(path)
    home = ui.screen

    expected = ui.store.wins_by_game()
    assert expected["quin"] == {"Ann": 1}
    assert sum(sum(w.values()) for w in expected.values()) == 4, "three wins and a leave; the tie counts for nobody"
    bars = [b for b in reversed(home.ids.wins_button.ids.bars.children) if hasattr(b, "count")]
    assert [b.name for b in bars] == list(ui.store.win_counts())[:3]
    assert _positions(ui) == empty, "the game buttons stay where they were with wins and past games shown"

    ui.tap(home.ids.wins_button)
    chart = _popup(ui)
    shown = {
        row.title: {bar.name: bar.count for bar in row.ids.bars.children if hasattr(bar, "count")}
        for row in chart.game_rows
    }
    from ui.presenters.home import title_of

    assert shown == {title_of(game): wins for game, wins in expected.items()}
    ui.screenshot("home-wins-few.png")
    ui.tap(chart.ids.close_button)

    ui.tap(home.ids.history_button)
    past = _popup(ui)
    finished = [s.game_id for s in [*sessions, left]][::-1]  # newest first
    assert [row.game_id for row in past.game_rows] == finished, "five finished games on one page"
    assert unfinished.game_id not in [row.game_id for row in past.game_rows]
    quin = past.game_rows[0]
    assert (quin.title, quin.players) == ("Quin", "Ann, Bo") and quin.detail.startswith("won by Ann: Bo left · ")
    assert "a tie" in past.game_rows[1].detail
    ui.screenshot("past-games-results.png")

    ui.tap(past.game_rows[2])  # a tap on the row opens its Log
    log = _popup(ui)
    assert log.__class__.__name__ == "LogView"
    ui.screenshot("past-game-log.png")
    log.dismiss(animation=False)
    ui.settle()
    assert _popup(ui) is past, "closing the Log goes back to the past games"
    ui.tap(past.ids.close_button)
    assert _positions(ui) == empty


def test_two_thousand_games_the_chart_counts_as_by_hand_and_past_games_page_through_them(ui, tmp_path):
    path = tmp_path / "many.db"
    games = ended_games(2000)
    write_file(path, games)
    ui.reopen(path)
    home = ui.screen
    assert home.name == "home" and ui.screen is home
    expected = by_hand(games)
    totals: dict[str, int] = {}
    for wins in expected.values():
        for name, count in wins.items():
            totals[name] = totals.get(name, 0) + count
    top = sorted(totals.items(), key=lambda i: (-i[1], i[0]))
    assert home.wins_text.startswith(f"{top[0][0]} {top[0][1]}   {top[1][0]} {top[1][1]}")
    bars = [bar for bar in reversed(home.ids.wins_button.ids.bars.children) if hasattr(bar, "count")]
    assert [(bar.name, bar.count) for bar in bars] == top[:3], "the strip on home: the three with the most wins"
    ui.screenshot("home-wins-strip.png")

    ui.tap(home.ids.wins_button)
    chart = _popup(ui)
    from ui.presenters.home import title_of

    assert len(chart.game_rows) == len(expected) == 5
    for row in chart.game_rows:
        game = next(g for g in expected if title_of(g) == row.title)
        best = sorted(expected[game].items(), key=lambda i: (-i[1], i[0]))
        bars = [(bar.name, bar.count) for bar in reversed(row.ids.bars.children) if hasattr(bar, "count")]
        assert bars == best[:3], row.title
        assert row.more == (f"+{len(best) - 3} more" if len(best) > 3 else "")
    ui.screenshot("home-wins.png")
    ui.tap(chart.ids.close_button)

    ended = [g for g in games if g.outcome is not None]  # games ended without a result are listed too (issue 21)
    newest_first = [g.id for g in sorted(ended, key=lambda g: (g.finished_at, g.id), reverse=True)]
    ui.tap(home.ids.history_button)
    past = _popup(ui)
    assert past.words == f"Games 1–5 of {len(ended):,}, newest first"
    assert [row.game_id for row in past.game_rows] == newest_first[:5]
    ui.tap(past.ids.older_button)
    ui.tap(past.ids.older_button)
    assert [row.game_id for row in past.game_rows] == newest_first[10:15]
    assert past.words.startswith("Games 11–15 of")
    ui.tap(past.ids.newer_button)
    assert [row.game_id for row in past.game_rows] == newest_first[5:10]
    ui.screenshot("past-games.png")
    ui.tap(past.ids.close_button)
