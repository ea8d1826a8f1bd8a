"""The home screen's notice (issue 14: "Nothing on the home screen moves while a finger is on its way")."""

from __future__ import annotations

from typing import Any

from tests.ui.test_home_unfinished import _positions


def test_a_notice_moves_nothing_and_a_tap_puts_it_away(ui: Any) -> None:
    """A notice that appears as a finger is on its way (a sixth player refused, the card gone read-only)
    lies over the wins along the bottom; every game button and player row stays where it was."""
    home = ui.screen
    rows = [(*r.to_window(*r.pos), r.width, r.height) for r in home.rows]
    before = _positions(ui)
    for _ in range(4):
        ui.tap(home.ids.add_player)
    assert "At most 5" in home.notice
    ui.settle()
    assert _positions(ui) == before, "the game buttons stayed put"
    assert [(*r.to_window(*r.pos), r.width, r.height) for r in home.rows[:2]] == rows
    notice = home.ids.notice
    assert notice.opacity == 1 and notice.top > home.ids.wins_button.center_y, "it lies over the wins"
    from tests.ui.test_home_unfinished import _game_buttons

    assert all(b.to_window(*b.pos)[1] >= notice.top for b in _game_buttons(home)), "and over no game button"
    ui.screenshot("home-notice.png")
    ui.tap(notice)
    assert home.notice == "" and notice.height == 0 and notice.disabled
    ui.tap(home.ids.history_button)  # what lay under it works again
    ui.settle()
