"""The finger chooser in every game's "Who goes first?" (issue 27): one more way beside the water race and the
loser's choice, ending in the same ``choose_first`` the others send. Fingers are simulated touches through the
real window; the glass's clock is stepped by the test."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.codec import plain
from companion.engine import told_first
from companion.game import FirstPlayerChosen
from tests.ui.test_finger_chooser_screen import Glass
from tests.ui.test_race_screen import FAST, GAME, finished_game, win

pytestmark = pytest.mark.ui


def open_who_goes_first(ui: Any, game: str, players: list[str]) -> tuple[Any, Any]:
    from ui.screens.race import open_race

    game_screen = ui.start_game(game, players)
    screen = open_race(game_screen, rng=random.Random(11), timing=FAST)
    ui.frames(4)
    return game_screen, screen


@pytest.mark.parametrize(("game", "players"), [(GAME, ["Ann", "Bo"]), ("quark", ["Ann", "Bo", "Cy", "Dee"])])
def test_choose_by_fingers_ends_in_the_games_choose_first(ui: Any, game: str, players: list[str]) -> None:
    """ "Choose by fingers" beside the race: one finger per player, still for 2 s, one ring chosen by the dice;
    the chosen finger's player taps their name, and the game gets ``choose_first`` (how: fingers)."""
    game_screen, screen = open_who_goes_first(ui, game, players)
    ui.tap(screen.ids.fingers_button)
    assert screen.mode == "fingers" and screen.glass is not None
    assert screen.glass.parent == screen.ids.cards and not screen.cards
    assert screen.ids.fingers_button.disabled
    glass = Glass(ui, screen.glass)
    glass.put(len(players) - 1)
    glass.wait(3.0)
    assert screen.glass.phase == "waiting", "every player's finger is waited for"
    assert screen.headline == f"{len(players) - 1} of {len(players)} fingers: everyone put one down"
    glass.put(2)
    glass.wait(3.0)
    assert screen.glass.phase == "waiting" and screen.headline.startswith(f"{len(players) + 1} fingers for")
    glass.lift(glass.down[-1])
    glass.wait(1.9)
    assert screen.glass.phase == "counting"
    glass.wait(0.2)
    assert screen.glass.phase == "chosen"
    ring = screen.glass.fingers.choice.chosen
    assert screen.headline == f"Ring {ring} is chosen!"
    assert screen.detail == f"Whose finger wears ring {ring}? Tap that name: they go first."
    assert not game_screen.session.events, "nothing is stored until the table says whose finger it was"
    ui.tap(screen.action_buttons[f"first:{players[-1]}"])
    glass.lift_all()
    assert ui.screen is game_screen
    first = game_screen.session.events[0]
    assert isinstance(first, FirstPlayerChosen)
    assert plain(first) == {
        "type": "first_player_chosen",
        "player": players[-1],
        "chosen_by": players[-1],
        "how": "fingers",
    }
    assert told_first(first) == f"The finger chooser chose {players[-1]}, who starts."


def test_from_the_losers_choice_to_the_fingers_and_back_to_the_race(ui: Any) -> None:
    """The loser's choice, then the fingers, then the race again: each way shows its own, the cards come back."""
    finished_game(ui, *win("Ann", "Bo"))  # Bo lost: Bo chooses
    _game_screen, screen = open_who_goes_first(ui, GAME, ["Ann", "Bo"])
    assert screen.mode == "loser"
    ui.tap(screen.ids.fingers_button)
    glass = Glass(ui, screen.glass)
    glass.put(2)
    glass.wait(2.1)
    assert screen.mode == "fingers" and screen.glass.phase == "chosen"
    ui.tap(screen.action_buttons["fingers_again"])
    assert screen.glass.phase == "waiting" and not screen.glass.rings, "Again: the fingers go down again"
    glass.lift_all()
    ui.tap(screen.action_buttons["race_instead"])
    assert screen.mode == "test" and screen.glass.parent is None and len(screen.cards) == 2
    assert not screen.ids.fingers_button.disabled


def test_screenshot_who_goes_first_by_fingers(ui: Any) -> None:
    _game_screen, screen = open_who_goes_first(ui, "quark", ["Ann", "Bo", "Cy", "Dee"])
    ui.screenshot("who-goes-first-race.png")
    ui.tap(screen.ids.fingers_button)
    glass = Glass(ui, screen.glass)
    glass.put(4)
    glass.wait(1.2)
    ui.screenshot("who-goes-first-fingers.png")
    glass.wait(1.0)
    ui.wait(0.6)
    ui.screenshot("who-goes-first-fingers-chosen.png")
    glass.lift_all()
    screen.back()
