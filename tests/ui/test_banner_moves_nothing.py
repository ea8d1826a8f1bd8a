"""A game screen's banner moves nothing (issue 14: "Nothing on the home screen moves while a finger is on its
way", held to on every game screen too).

The banner (a refused action's sentence, "A second phone tried Ann's page", store trouble) lies over the top
bar's middle, where the title and whose turn it is are shown and nothing is tapped. It used to grow under the
top bar and push the whole board down, mid-tap.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.clocks import ManualClock

REFUSALS: dict[str, tuple[tuple[str, ...], dict[str, Any], str]] = {
    # game: (players, an action the rules refuse at the start, a piece of the sentence they give)
    "quin": (("Ann", "Bo"), {"type": "move", "player": "Bo", "label": "A", "from": "a1", "to": "a2"}, "setup"),
    "quintet": (("Ann", "Bo", "Cy"), {"type": "capture", "by": "Ann", "of": "Bo"}, "opening roll"),
    "quark": (("Ann", "Bo"), {"type": "end_turn", "player": "Bo"}, "Ann's turn"),
    "quantum-link": (("Ann", "Bo"), {"type": "pass", "player": "Bo"}, "Ann's turn"),
    "quinque": (("Ann", "Bo"), {"type": "mark", "player": "Bo", "tile": [0, 0], "skydiver": "se"}, "Ann's turn"),
}
GAMES = tuple(REFUSALS)
READ_ONLY = "The SD card is read-only: you can play, but nothing is saved until it can be written again."
DAMAGED = (
    "The games file games.db was damaged; it was kept aside as games.db.damaged-2026-11-26-2104, and 2 games "
    "with 61 moves were kept, 1 lost (Quin with Ann and Bo lost its last move)."
)


def _start(ui: Any, game: str) -> Any:
    ui.table.clock = ManualClock()  # the clock's slot keeps its width: nothing but the banner could move
    screen = ui.start_game(game, list(REFUSALS[game][0]))
    ui.settle()
    return screen


def _places(ui: Any, screen: Any) -> dict[int, tuple[str, float, float, float, float]]:
    """Where every widget of the screen but the banner is, in window coordinates, and its size."""
    ui.settle()
    ui.frames(3)
    return {
        id(w): (type(w).__name__, *w.to_window(*w.pos), w.width, w.height)
        for w in screen.walk(restrict=True)
        if type(w).__name__ != "Banner"
    }


def _refuse(ui: Any, screen: Any, game: str) -> None:
    _players, action, words = REFUSALS[game]
    assert not screen.send(action)
    ui.frames(3)
    assert screen.banner_is_error and words in screen.banner, screen.banner


def _readable(ui: Any, banner: Any) -> None:
    """The whole sentence shows: not shortened, every line inside the banner, the banner inside the window."""
    assert not banner.shorten
    width, height = banner.texture_size
    assert width <= banner.width and height <= banner.height
    assert banner.font_size >= 15 * _sp()
    assert banner.to_window(*banner.pos)[1] >= 0 and banner.to_window(banner.x, banner.top)[1] <= ui.window.height


def _sp() -> float:
    from kivy.metrics import sp

    return float(sp(1))


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
@pytest.mark.parametrize("game", GAMES)
def test_a_banner_appears_and_goes_and_nothing_moves(ui: Any, game: str, size: tuple[int, int]) -> None:
    """Issue 14: "Nothing ... moves while a finger is on its way." A refusal appearing as the next finger
    comes down leaves every button and every piece of the board where it was, and so does its going."""
    ui.resize(*size)
    screen = _start(ui, game)
    banner = screen.ids.banner
    before = _places(ui, screen)
    buttons = [w for w in screen.walk(restrict=True) if type(w).__name__.endswith("Button")]
    assert len(buttons) >= 3  # Menu, Undo, Redo at least, and every game's own

    _refuse(ui, screen, game)
    assert _places(ui, screen) == before, "a refusal moved nothing"
    assert banner.opacity == 1 and not banner.disabled
    bar = screen.ids.top_bar
    assert banner.y >= bar.y and banner.top <= bar.top, "a sentence this long stays in the top bar"
    for name in ("menu_button", "undo_button", "redo_button"):
        button = screen.ids[name]
        assert button.right <= banner.x or button.x >= banner.right, f"{name} is not covered"
    _readable(ui, banner)
    if size == (800, 480):
        ui.screenshot(f"banner-{game}.png")

    screen.say(DAMAGED, error=True)  # the longest sentence the app says: it grows down over the board's edge
    assert _places(ui, screen) == before, "a long one moved nothing"
    _readable(ui, banner)

    ui.tap(banner)
    assert screen.banner == "" and banner.height == 0 and banner.disabled
    assert _places(ui, screen) == before, "its going moved nothing"


@pytest.mark.parametrize("game", GAMES)
def test_a_tap_on_the_banner_puts_it_away_and_reaches_nothing_under_it(ui: Any, game: str) -> None:
    """A finger that lands on the banner, even where a long one lies over the board's top edge, puts it away
    and presses nothing under it; the next tap there reaches the board again."""
    from kivy.tests.common import UnitTestTouch

    screen = _start(ui, game)
    screen.say(DAMAGED, error=True)
    ui.settle()
    banner, body = screen.ids.banner, screen.ids.body
    assert banner.y < body.top, "it lies over the board's top edge"
    reached: list[Any] = []

    def seen(_board: Any, touch: Any) -> bool:
        reached.append(touch)
        return False  # seen, and handed on to the board as ever

    uid = body.fbind("on_touch_down", seen)
    try:
        x, y = banner.to_window(banner.center_x, (banner.y + body.top) / 2)  # over the board, under the bar
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        ui.frames(1)
        touch.touch_up()
        ui.frames(3)
        assert screen.banner == "" and not reached, "the tap put the banner away and reached no piece"
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        ui.frames(1)
        touch.touch_up()
        ui.frames(3)
        assert reached, "with the banner gone, the board takes the tap again"
    finally:
        body.unbind_uid("on_touch_down", uid)


def test_the_usual_sentences_fit_the_top_bar_and_only_the_longest_grows_over_the_board(ui: Any) -> None:
    """The store's standing trouble, up for a whole evening, fits the bar at 800x480 in the large font: it
    covers no piece. Only a sentence too long for two lines takes the smaller font, and then more room."""
    screen = _start(ui, "quantum-link")  # the longest title: the banner is as wide on every game screen
    banner, bar = screen.ids.banner, screen.ids.top_bar
    for sentence in (READ_ONLY, "A second phone tried Ann's page", "It is Ann's turn, not Bo's."):
        screen.say(sentence, error=True)
        ui.settle()
        assert banner.y >= bar.y and banner.top <= bar.top, sentence
        assert banner.font_size == 18 * _sp()
        _readable(ui, banner)
        if sentence == READ_ONLY:
            ui.screenshot("banner-read-only.png")
    screen.say(DAMAGED, error=True)
    ui.settle()
    assert banner.font_size == 15 * _sp() and banner.y < bar.y
    _readable(ui, banner)
    ui.screenshot("banner-long.png")


def test_a_refusal_stays_until_tapped_or_an_action_is_accepted_a_plain_sentence_goes_by_itself(
    ui: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An error banner stays until tapped or until the next accepted action; "Undone." goes by itself, so
    whose turn it is shows again."""
    from ui.screens import base

    monkeypatch.setattr(base, "PLAIN_SECONDS", 0.3)
    screen = _start(ui, "quantum-link")
    _refuse(ui, screen, "quantum-link")
    ui.wait(0.8)
    assert "Ann's turn" in screen.banner, "a refusal does not time out"
    assert screen.send({"type": "place", "player": "Ann", "cell": [0, 0], "face": 1})
    ui.frames(3)
    assert screen.banner == "", "the next accepted action puts it away"

    ui.tap(screen.ids.undo_button)
    assert screen.banner.startswith("Undone.") and not screen.banner_is_error
    ui.wait(0.8)
    assert screen.banner == "", "a plain sentence goes by itself"
    assert screen.ids.banner.height == 0 and screen.ids.turn_label.text == "Ann to play"


def test_the_store_s_standing_trouble_once_tapped_away_stays_away_until_it_changes(ui: Any) -> None:
    """A read-only card's sentence comes back after every move (nothing is saved); once a player has read it
    and tapped it away, it no longer hides whose turn it is all evening."""
    from companion.config import Config
    from companion.dice import RandomDice
    from companion.store import Store
    from ui.table import Table

    store = Store.in_memory(problem=READ_ONLY)
    ui.app.reset(Table(store=store, config=Config(), dice=RandomDice.seeded(1)))
    try:
        screen = ui.start_game("quantum-link", ["Ann", "Bo"])
        assert screen.banner == READ_ONLY and screen.banner_is_error
        assert screen.send({"type": "place", "player": "Ann", "cell": [0, 0], "face": 1})
        ui.frames(3)
        assert screen.banner == READ_ONLY, "it stays while nothing is saved"
        ui.tap(screen.ids.banner)
        assert screen.banner == ""
        assert screen.send({"type": "place", "player": "Bo", "cell": [1, 0], "face": 1})
        ui.frames(3)
        assert screen.banner == "" and screen.ids.turn_label.text == "Ann to play"
        assert not screen.send({"type": "pass", "player": "Bo"}), "a refusal still shows"
        assert "Ann's turn" in screen.banner
    finally:
        ui.app.go_home()
        ui.app.reset(ui.table)  # the `ui` fixture's own table, for its teardown
        store.close()
