"""Issue 26: "Every tap answered quickly", each game's start among them. In the appliance home makes each game's
screen ahead, for the seats and the variant its Start would start it with (`ui.kept_screens`). Start shows that
screen with its buffers drawn before the tap, exactly as a screen made on the tap would show the new game, and
writes the game only then. Seats changed make them again once they are still; a tap before that makes its screen
on the tap, for the seats as they are."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.test_kept_screens import _as_made_on_the_tap, _renders, _shown
from ui import kept_screens

pytestmark = pytest.mark.ui

GAMES = ("quintet", "quin", "quark", "quantum-link", "quinque")
"""Home's games (not the tools), in its list's order."""


@pytest.fixture
def ahead(ui: Any) -> Any:
    """The app making screens ahead, as the appliance does (`companion run`), on home anew."""
    ui.app.making_ahead = True
    ui.app.reset(ui.table)
    ui.frames(2)
    try:
        yield ui
    finally:
        ui.app.making_ahead = False
        ui.app.kept.drop_all()


def _choice(ui: Any, game: str) -> Any:
    return next(c for c in ui.screen.ids.games.children if c.game == game)


def _made_ahead(ui: Any) -> dict[str, Any]:
    """Each game's screen made ahead, once home has made them all."""
    kept = ui.app.kept
    assert ui.wait_until(lambda: all(kept.has_new(g) for g in GAMES) and not kept.busy, timeout=20), "made ahead"
    return {game: kept._new[game] for game in GAMES}


def _start(ui: Any, game: str) -> list[int]:
    """Start `game` from home as its button does; how often each of its screen's buffers was drawn in the tap's
    frame."""
    made = ui.app.kept._new[game]
    before = _renders(made)
    ui.screen.start(game, _choice(ui, game).settings())
    ui.frames(1)
    assert ui.screen is made, f"{game}: Start shows the screen made ahead"
    return [after - was for after, was in zip(_renders(made), before, strict=True)]


def test_home_makes_each_games_screen_ahead_and_start_shows_it_drawn_as_a_new_one_would_be(ahead: Any) -> None:
    """Nothing is written while home shows; each Start writes its game then, shows the screen made ahead without
    drawing its buffers again, and that screen shows what one made on the tap shows, to the pixel."""
    ui = ahead
    _made_ahead(ui)
    assert ui.store.unfinished_games() == [], "a screen made ahead writes no game"
    for game in GAMES:
        ui.screen.show_tab("games")
        redrawn = _start(ui, game)
        screen, session = ui.screen, ui.screen.session
        assert redrawn == [0] * len(redrawn), f"{game}: Start shows the buffers drawn before its tap"
        assert [u.record.id for u in ui.store.unfinished_games()] == [session.game_id], "written at the tap"
        assert session.options.names == ("Player 1", "Player 2") and not session.paused, "its clock runs"
        assert _shown(screen) == _as_made_on_the_tap(ui, session), game
        ui.screenshot(f"new-game-ahead-{game}.png")
        session.abandon()
        screen.go_home()
        _made_ahead(ui)  # its game's screen is made again for the next Start


def test_a_real_tap_on_a_games_button_starts_it_on_the_screen_made_ahead(ahead: Any) -> None:
    ui = ahead
    made = _made_ahead(ui)["quark"]
    ui.tap(_choice(ui, "quark").children[-1])  # the game's big button (a BoxLayout lists its first child last)
    assert ui.screen is made and made.session.game_id == ui.store.unfinished_games()[0].record.id


def test_names_changed_make_the_screens_again_once_still_and_a_start_before_that_seats_them(ahead: Any) -> None:
    """A name typed while home shows: every game's screen is made again for the new seats once they are still for
    `STILL_SECONDS`, not at every key; a Start before that makes its screen on the tap, with the names as typed
    (never the screen made for the seats before)."""
    ui = ahead
    old = _made_ahead(ui)
    home = ui.screen
    home.rows[0].ids.name_input.text = "An"
    ui.frames(2)
    home.rows[0].ids.name_input.text = "Ann"
    ui.wait(kept_screens.STILL_SECONDS / 2)
    assert all(ui.app.kept._new[g] is old[g] for g in GAMES), "nothing made again while the names change"
    new = _made_ahead(ui)
    for game in GAMES:
        assert new[game] is not old[game] and new[game].session.options.names == ("Ann", "Player 2"), game
        assert old[game]._closed, f"{game}: the screen made for the seats before is thrown away"
    home.rows[1].ids.name_input.text = "Bo"
    ui.frames(2)
    home.start("quintet")
    ui.frames(2)
    assert ui.screen is not new["quintet"] and ui.screen.session.options.names == ("Ann", "Bo")
    assert new["quintet"]._closed and not ui.app.kept.has_new("quintet")


def test_a_change_undone_before_the_seats_are_still_makes_and_draws_nothing(ahead: Any) -> None:
    """A name typed and put back, or a field left as it was: the screens made for those seats stay, and none is
    drawn again (home idles)."""
    ui = ahead
    old = _made_ahead(ui)
    drawn = {game: _renders(screen) for game, screen in old.items()}
    home = ui.screen
    home.rows[0].ids.name_input.text = "Ann"
    ui.frames(2)
    home.rows[0].ids.name_input.text = "Player 1"
    assert _made_ahead(ui) == old, "the same screens"
    ui.wait(kept_screens.ONCE_MORE_SECONDS + 0.5)
    assert {game: _renders(screen) for game, screen in old.items()} == drawn, "none drawn again"


def test_a_variant_chosen_makes_that_games_screen_again_and_no_other(ahead: Any) -> None:
    ui = ahead
    old = _made_ahead(ui)
    choice = _choice(ui, "quinque")
    ui.tap(choice.variant_button)
    new = _made_ahead(ui)
    assert new["quinque"] is not old["quinque"]
    assert new["quinque"].session.options.settings["advanced"] == choice.variant
    assert all(new[g] is old[g] for g in GAMES if g != "quinque"), "the other games' screens stay"
    _start(ui, "quinque")
    assert ui.screen.session.options.settings["advanced"] == choice.variant


def test_seats_a_game_cannot_take_make_it_no_screen_and_its_start_says_why_as_before(ahead: Any) -> None:
    """Five seats: the two-player games are not made ahead, and their Start gives the rules' sentence; the games
    that seat five are made for them."""
    ui = ahead
    home = ui.screen
    while len(home.rows) < 5:
        ui.tap(home.ids.add_player)
    kept = ui.app.kept
    assert ui.wait_until(lambda: kept.has_new("quintet") and not kept.busy, timeout=20)
    two_player = [g for g in GAMES if not kept.has_new(g)]
    assert two_player and "quintet" not in two_player
    for game in two_player:
        home.start(game)
        ui.frames(2)
        assert ui.screen is home and home.notice, f"{game}: its Start says why, on home"
    assert ui.store.unfinished_games() == []


def test_home_holds_at_most_one_new_screen_a_game_and_the_kept_ones(ahead: Any, monkeypatch: Any) -> None:
    """What home holds while it shows: one screen a game on its list, and the newest `KEPT_AT_MOST` unfinished
    games' (each costs memory; `docs/architecture.md`, "Screens home keeps"). Three kept here, of five games left
    unfinished: the cap holds beside the new games' screens."""
    monkeypatch.setattr(kept_screens, "KEPT_AT_MOST", 3)
    ui = ahead
    _made_ahead(ui)
    left = []
    for game in GAMES:  # five unfinished games, each left on the screen it was played on
        ui.screen.show_tab("games")
        _start(ui, game)
        left.append(ui.screen.session.game_id)
        ui.screen.go_home()
        _made_ahead(ui)
    kept = ui.app.kept
    assert sorted(kept._new) == sorted(GAMES), "one new screen a game"
    assert [game_id in kept for game_id in left] == [False, False, True, True, True], "the newest three kept"


def test_quins_screen_made_ahead_shows_its_players_display_chips_before_its_start(ahead: Any, hub: Any) -> None:
    """Home shows no game on the players' displays (the hub has none attached), yet Quin's new screen is made with
    the chips its game will show (each player's display, not plugged in yet), so that its Start draws no buffer
    again for them."""
    from ui.widgets.displays import DisplayStatusStrip

    ui = ahead
    made = _made_ahead(ui)["quin"]
    assert hub.status() == [], "home: no game on the displays"
    (strip,) = [w for w in made.walk(restrict=True) if isinstance(w, DisplayStatusStrip)]
    chips = [(chip, chip.text) for chip in strip.ids.chips.children]
    assert len(chips) == 2, "Player 1's and Player 2's displays"
    redrawn = _start(ui, "quin")
    assert redrawn == [0] * len(redrawn), "the board's buffer as it was drawn ahead"
    ui.frames(3)
    assert [(chip, chip.text) for chip in strip.ids.chips.children] == chips
    assert [s.player for s in hub.status()] == list(made.session.options.names)


def test_screens_made_again_for_new_seats_free_the_old_ones(ahead: Any, hub: Any) -> None:
    """Each change of seats makes five screens again (7–10 MiB each here): those made for the seats before are
    let go, not held by the clock, the players' displays' hub (Quin's chips listen to it) or their session."""
    import gc
    import weakref

    ui = ahead
    before = _made_ahead(ui)
    made: weakref.WeakSet[Any] = weakref.WeakSet(before.values())
    for name in ("Ann", "Bo", "Cy"):
        ui.screen.rows[0].ids.name_input.text = name
        now = _made_ahead(ui)
        assert all(now[game] is not before[game] for game in GAMES), "made again"
        made.update(now.values())
        before = now
    del before, now
    gc.collect()
    assert set(made) == set(ui.app.kept._new.values()), "only the screens made for the seats now are left"
