"""Issue 26: "Who goes first?" answers its tap quickly. A game screen on which the table may still race for who goes
first makes the race's screen ahead, while the table looks at the board: its cards, the simulated buttons and its
actions made, laid out and their words drawn. Made ahead, it opens nothing and listens to nothing; the tap begins it,
and it then shows what a race made on the tap shows: the race, or the previous loser's choice ("the loser of the last
game chooses who goes first")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.race_buttons import RaceButtons
from tests.ui.test_race_screen import GAME, finished_game, win

pytestmark = pytest.mark.ui

PLAYERS = ["Wilhelmina Mayer", "Bartholomew Fenn"]


@pytest.fixture
def wired(ui: Any) -> Iterator[RaceButtons]:
    """The table's own race buttons, on gpiozero's mock pins, as `companion run` opens them on a laptop."""
    with RaceButtons(ui.table.config.race, pin_factory=MockFactory()) as buttons:
        ui.table.race = buttons
        try:
            yield buttons
        finally:
            ui.table.race = None


def _ahead(ui: Any, screen: Any) -> Any:
    """The race's screen `screen` made ahead, once its words are drawn."""
    assert ui.wait_until(lambda: screen._race_ahead is not None, timeout=3), "made while the table looks"
    ui.frames(3)
    race = screen._race_ahead
    assert race.parent is None, "not shown before its tap"
    return race


def _tap_race(ui: Any, screen: Any) -> Any:
    """The Menu's "Who goes first?"; the race's screen shown, settled."""
    menu = screen.open_menu()
    ui.settle()
    ui.tap(menu.ids.race_button)
    ui.frames(4)
    race = ui.screen
    assert type(race).__name__ == "RaceScreen"
    return race


def _shown(race: Any) -> list[tuple[Any, ...]]:
    """What the table reads and taps on the race's screen: every widget's kind, words, colour and state, its place
    and size to the pixel."""
    return [
        (type(w).__name__, getattr(w, "text", None), tuple(getattr(w, "color", ())), w.disabled, w.opacity,
         tuple(map(round, w.to_window(*w.pos))), tuple(map(round, w.size)))
        for w in race.walk(restrict=True)
    ]  # fmt: skip


def _made_on_the_tap(ui: Any, screen: Any, monkeypatch: Any) -> list[tuple[Any, ...]]:
    """What a race made on the tap shows, on the same screen (none is made ahead for it)."""
    monkeypatch.setattr(screen, "_make_race_ahead", lambda: None)
    screen._race_ahead = None
    race = _tap_race(ui, screen)
    try:
        return _shown(race)
    finally:
        race.back()
        ui.frames(2)


def test_a_race_made_ahead_opens_nothing_until_its_tap_then_shows_what_a_new_one_shows(
    ui: Any, wired: RaceButtons, monkeypatch: Any
) -> None:
    screen = ui.start_game(GAME, PLAYERS)
    race = _ahead(ui, screen)
    assert race.mode == "test" and race.panel is not None and race.panel.buttons is wired
    assert race.controller is None and race._refresher is None and race.panel._poll is None, "nothing listened to"
    wired.simulate(0, True)  # a press before the tap: nobody is racing yet
    ui.frames(2)
    assert race.snapshot is None and race.cards[0].pressed is False
    wired.simulate(0, False)
    panel = race.panel

    assert _tap_race(ui, screen) is race, "the tap begins the race made ahead"
    assert race.controller is not None and race.panel is panel and panel._poll is not None
    shown = _shown(race)
    race.back()
    ui.frames(2)
    assert ui.screen is screen and screen._race_ahead is None
    assert ui.wait_until(lambda: screen._race_ahead is not None, timeout=3), "back without a choice: made again"
    assert screen._race_ahead is not race, "a race's screen is begun once"
    assert _made_on_the_tap(ui, screen, monkeypatch) == shown


def test_without_the_tables_buttons_the_race_made_ahead_gets_its_simulated_ones_at_the_tap(
    ui: Any, monkeypatch: Any
) -> None:
    """A table whose race buttons could not be opened at start: the race opens simulated ones itself, at its tap,
    and closes them with itself (none is opened for a race nobody may tap)."""
    screen = ui.start_game(GAME, PLAYERS)
    race = _ahead(ui, screen)
    assert race.panel is None and race.buttons is None
    assert _tap_race(ui, screen) is race and race.panel is not None and race._owns_buttons
    shown = _shown(race)
    buttons = race.buttons
    race.back()
    ui.frames(2)
    assert buttons.closed
    assert _made_on_the_tap(ui, screen, monkeypatch) == shown


def test_the_previous_losers_choice_shows_from_a_race_made_ahead_as_from_a_new_one(
    ui: Any, wired: RaceButtons, monkeypatch: Any
) -> None:
    finished_game(ui, *win("Ann", "Bo"))  # Bo lost the last Quantum Link: Bo chooses
    screen = ui.start_game(GAME, ["Ann", "Bo"])
    race = _ahead(ui, screen)
    assert _tap_race(ui, screen) is race and race.mode == "loser"
    assert race.controller is None, "no race: the loser chooses"
    shown = _shown(race)
    race.back()
    ui.frames(2)
    assert _made_on_the_tap(ui, screen, monkeypatch) == shown


def test_more_players_than_buttons_shows_no_buttons_from_a_race_made_ahead_as_from_a_new_one(
    ui: Any, wired: RaceButtons, monkeypatch: Any
) -> None:
    """"The race needs a button per player": four players at a table of two buttons agree at the table, and no
    simulated button is shown to race on, whether the race was made ahead or on the tap."""
    screen = ui.start_game("quark", ["Ann", "Bo", "Cy", "Di"])
    race = _ahead(ui, screen)
    assert race.panel is None, "none made ahead for a race that cannot be run"
    assert _tap_race(ui, screen) is race and race.mode == "no race" and race.panel is None
    shown = _shown(race)
    race.back()
    ui.frames(2)
    assert _made_on_the_tap(ui, screen, monkeypatch) == shown


def test_no_race_is_made_ahead_once_the_game_has_begun_and_none_outlives_its_screen(ui: Any) -> None:
    """Who goes first is chosen "before the first move": once it is made, the race made ahead is let go, and none
    is made after it; nor does one outlive its screen."""
    first_move = {"type": "place", "player": "Ann", "face": 1, "cell": [0, 0]}
    screen = ui.start_game(GAME, ["Ann", "Bo"])
    _ahead(ui, screen)
    assert screen.send(first_move)
    assert not screen.can_race and screen._race_ahead is None, "the first move is made: nobody races for it"
    ui.wait(1.0)
    assert screen._race_ahead is None
    screen.go_home()
    ui.frames(2)

    screen = ui.start_game(GAME, ["Ann", "Bo"])
    assert screen.send(first_move)  # before the table has looked at the board (or just after)
    ui.wait(1.0)
    assert screen._race_ahead is None, "none made after the first move"
    screen.go_home()
    ui.frames(2)

    screen = ui.start_game(GAME, ["Ann", "Bo"])
    _ahead(ui, screen)
    screen.go_home()
    ui.frames(2)
    game_id = screen.session.game_id
    assert game_id in ui.app.kept and screen._race_ahead is not None, "kept with its screen, for Resume"
    ui.app.discard(game_id)
    assert screen._race_ahead is None, "put away with its screen"


def test_a_race_made_ahead_has_its_words_drawn_before_its_tap(ui: Any, wired: RaceButtons, monkeypatch: Any) -> None:
    """Kivy renders a label's words at its first drawing: for a screen made ahead, that was the tap's frame. The
    frame after the race is made renders them: begun, it renders none of the words it made ahead."""
    from kivy.core.text import Label as CoreLabel
    from kivy.uix.label import Label

    rendered: list[str] = []
    fill = CoreLabel._texture_fill

    def counted(label: Any, texture: Any) -> Any:
        rendered.append(label.text)
        return fill(label, texture)

    monkeypatch.setattr(CoreLabel, "_texture_fill", counted)
    screen = ui.start_game(GAME, PLAYERS)
    race = _ahead(ui, screen)
    made = {w.text for w in race.walk(restrict=True) if isinstance(w, Label) and w.text}
    assert {"Wilhelmina Mayer", "Bartholomew Fenn"} <= made
    rendered.clear()
    menu = screen.open_menu()
    ui.settle()
    rendered.clear()
    ui.tap(menu.ids.race_button)
    ui.frames(2)
    assert ui.screen is race and not made & set(rendered), rendered
