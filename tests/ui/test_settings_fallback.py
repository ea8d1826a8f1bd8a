"""`companion run` with a game setting the game cannot use: a sentence on the home screen, and the game starts."""

from __future__ import annotations

from dataclasses import replace

from companion import config
from companion.games.quin.pieces import ADJUSTABLE, DEFAULT_ADJUSTABLE
from companion.store import Store


def test_a_bad_game_setting_is_a_home_notice_and_a_tap_starts_the_game_with_its_own_value(ui, tmp_path):
    """README, the config file: "A value that cannot be used gets one sentence on the home screen naming the key",
    and "the game uses its own value for that key" when the game is started with a tap."""
    path = tmp_path / "companion.toml"
    path.write_text('[games.quin]\ncapture_rule = "lava"\n[games.quin.pieces]\nVoid = 16\n', encoding="utf-8")
    parsed, problems = config.load(path)  # as `build_table` reads it for `companion run`
    table = replace(ui.table, store=Store.open(tmp_path / "own.db"), config=parsed, notices=problems)
    try:
        ui.app.reset(table)
        ui.frames(3)
        assert "games.quin.pieces" in ui.screen.notice and "games.quin.capture_rule" in ui.screen.notice
        button = next(
            w for w in ui.screen.ids.games.walk(restrict=True)
            if w.__class__.__name__ == "Button" and "[b]Quin[/b]" in w.text
        )
        ui.tap(button)
        assert ui.screen.name == "game:quin", ui.screen.notice
        state = ui.app.session.state
        assert state.capture_rule == "key"
        assert all(state.counts_for("Player 1")[kind] == DEFAULT_ADJUSTABLE[kind] for kind in ADJUSTABLE)
    finally:
        ui.app.go_home()
        ui.app.reset(ui.table)
        table.store.close()
