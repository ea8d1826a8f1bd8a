"""Every unfinished game kept (issue 14), on the real home screen with real touches.

"The home screen lists all unfinished games: game, players, moves, last played. Each has Resume and
Discard, and Discard asks first. Starting a game never discards or hides another. Nothing on the home
screen moves while a finger is on its way."
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.session import Session
from companion.store import Store
from tests.support import golden

# Three different games, each played part of the way from a golden script.
SCRIPTS = ("quinque-row-win", "quintet-two-players", "quantum-link-full-board")


def _play_part(store: Store, script: str, clock: Any) -> Session:
    lines = golden.read(golden.FOLDER / f"{script}.jsonl").lines
    session = golden.play(store, script, upto=max(2, len(lines) // 3), clock=clock)
    assert session.outcome is None, f"{script}: played only part of the way, the game must still be on"
    return session


def _game_buttons(home: Any) -> list[Any]:
    return [w for w in home.ids.games.walk(restrict=True) if w.__class__.__name__ == "Button"]


def _positions(ui: Any) -> list[tuple[float, float, float, float]]:
    ui.settle()
    return [(*b.to_window(*b.pos), b.width, b.height) for b in _game_buttons(ui.screen)]


def test_three_unfinished_games_listed_resumed_exactly_in_any_order_and_one_discarded_after_asking(ui, tmp_path):
    path = Path(ui.store.path)
    empty = _positions(ui)
    assert ui.screen.unfinished_rows == [] and not ui.screen.has_unfinished
    assert ui.screen.ids.unfinished_tab.text == "Unfinished"

    clock = iter(range(1_750_000_000, 1_750_100_000, 60))
    sessions = [_play_part(ui.store, script, lambda: float(next(clock))) for script in SCRIPTS]
    before = {s.game_id: (s.game.name, s.state, len(s.moves), s.redo_moves) for s in sessions}
    ui.reopen(path)

    home = ui.screen
    assert home.ids.unfinished_tab.text == "Unfinished · 3"
    assert _positions(ui) == empty, "the game buttons stay put with three unfinished games as with none"
    ui.tap(home.ids.unfinished_tab)
    rows = home.unfinished_rows
    assert [row.game_id for row in rows] == [s.game_id for s in reversed(sessions)], "all of them, newest first"
    for row, session in zip(rows, reversed(sessions), strict=True):
        assert session.game.title == row.title and ", ".join(session.options.names) == row.players
        assert row.ids.players_label.text == row.players, "short names: every one whole on its line"
        assert row.detail.startswith(f"{len(session.moves)} moves · ")
    ui.screenshot("home-unfinished.png")

    # resume each in an order unlike the list's, each after a restart of its own
    for game_id in (sessions[1].game_id, sessions[0].game_id, sessions[2].game_id):
        row = next(r for r in ui.screen.unfinished_rows if r.game_id == game_id)
        ui.tap(row.ids.resume_button)
        resumed = ui.screen.session
        assert resumed.game_id == game_id
        name, state, moves, redo = before[game_id]
        assert (resumed.game.name, resumed.state, len(resumed.moves), resumed.redo_moves) == (name, state, moves, redo)
        ui.app.go_home()
        ui.reopen(path)
        assert len(ui.screen.unfinished_rows) == 3, "resuming and going home keeps every game"
        ui.tap(ui.screen.ids.unfinished_tab)

    # Discard asks first: keeping it changes nothing; confirming drops that game only
    target = ui.screen.unfinished_rows[1]
    ui.tap(target.ids.discard_button)
    popup = ui.window.children[0]
    assert target.title in popup.question
    ui.screenshot("home-unfinished-discard.png")
    ui.tap(popup.ids.keep_button)
    assert len(ui.screen.unfinished_rows) == 3
    ui.tap(ui.screen.unfinished_rows[1].ids.discard_button)
    ui.tap(ui.window.children[0].ids.confirm_button)
    left = [row.game_id for row in ui.screen.unfinished_rows]
    assert target.game_id not in left and len(left) == 2
    assert [r.id for r in (g.record for g in ui.store.unfinished_games())] == left
    assert [g.id for g in ui.store.past()] == [target.game_id], "discarded, it waits in Past games (issue 21)"
    ui.tap(ui.screen.ids.games_tab)
    assert _positions(ui) == empty


def test_starting_a_game_never_discards_or_hides_another(ui):
    first = ui.start_game("quinque", ["Ann", "Bo"])
    ui.app.go_home()
    second = ui.start_game("quintet", ["Ann", "Bo", "Cy"])
    ui.app.go_home()
    ids = [row.game_id for row in ui.screen.unfinished_rows]
    assert ids == [second.session.game_id, first.session.game_id]
