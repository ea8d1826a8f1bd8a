"""The race screen under Xvfb: test mode, countdown, GO, result, the winner's choice, the loser's choice.

The buttons are pressed the way a laptop presses them: taps on the simulated
table-hardware panel and keys, which drive gpiozero's mock pins, so each press
travels pin → gpiozero → hardware → race → dispatcher → screen.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from companion.codec import plain
from companion.game import Options
from companion.race import Phase
from companion.session import Session

pytestmark = pytest.mark.ui

FAST = {"count_interval": 0.05, "delay_range": (0.05, 0.1)}


GAME = "quantum-link"
"""A real game that takes ``choose_first`` and can be won in a few moves."""


def win(winner: str, loser: str) -> list[dict[str, object]]:
    """Quantum Link moves, `winner` to move, that end the game `winner` 2, `loser` 0.

    Two 1s side by side have one friend each, so both score; two passes in a row end the game.
    """
    one = {"type": "place", "player": winner, "face": 1}
    wait = {"type": "pass", "player": loser}
    return [{**one, "cell": [0, 0]}, wait, {**one, "cell": [1, 0]}, wait, {"type": "pass", "player": winner}]


def finished_game(ui: Any, *actions: dict[str, object]) -> None:
    """An earlier game of Ann and Bo, played to its end in the app's store."""
    earlier = Session.start(ui.store, GAME, Options.for_names("Ann", "Bo"))
    for action in actions:
        earlier.act(action)
    assert earlier.outcome is not None


def events(session: Session) -> list[dict[str, Any]]:
    """The session's events as JSON objects (however the core holds them)."""
    return [plain(event) for event in session.events]


def open_race_screen(ui: Any, players: list[str], *, timing: dict[str, Any] = FAST, **options: Any) -> Any:
    from ui.screens.race import open_race

    game_screen = ui.start_game(GAME, players)
    screen = open_race(game_screen, rng=random.Random(11), timing=timing, **options)
    ui.frames(4)
    assert ui.screen is screen
    return screen


HOLD_S = 0.03
"""How long a test holds a key or a touch: longer than the 20 ms debounce, as any human press is."""


def press_key(ui: Any, key: int, down: bool) -> None:
    event = "on_key_down" if down else "on_key_up"
    ui.window.dispatch(event, key, 0, None, [])
    ui.frames(2)
    if down:
        time.sleep(HOLD_S)


def test_race_test_mode_countdown_go_result_and_the_winners_choice(ui: Any) -> None:
    screen = open_race_screen(ui, ["Ann", "Bo"])
    panel = screen.panel
    assert screen.simulated and panel is not None
    assert screen.headline == "Press your buttons to test them"
    assert screen.action_buttons["start"].disabled
    ui.screenshot("race-check-buttons.png")

    # Test mode: the live state follows the button, and the LED in it.
    ann, bo = panel.sim_buttons
    from kivy.tests.common import UnitTestTouch

    x, y = ann.to_window(*ann.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    ui.frames(3)
    assert screen.cards[0].state_text == "Button: DOWN" and screen.cards[0].pressed
    panel.show_lights()
    assert panel.lamps[0].lit
    time.sleep(HOLD_S)
    touch.touch_up()
    assert ui.wait_until(lambda: screen.cards[0].state_text == "Button: up")
    assert "Bo's button has not been pressed yet" in screen.detail
    press_key(ui, 108, True)  # L: Bo's key
    press_key(ui, 108, False)
    assert ui.wait_until(lambda: screen.headline == "Ready? Tap Start")
    assert not screen.action_buttons["start"].disabled
    ui.screenshot("race-test-mode.png")

    # Countdown, then GO.
    ui.tap(screen.action_buttons["start"])
    assert ui.wait_until(lambda: screen.mode == "go")
    ui.frames(3)
    assert screen.headline == "GO!"
    panel.show_lights()
    assert all(lamp.lit for lamp in panel.lamps)
    ui.screenshot("race-go.png")

    # Bo finishes first (a tap on the panel), Ann later (left Shift).
    time.sleep(0.05)
    ui.tap(bo)  # a quick tap: its release settles after the debounce, the press counts at once
    time.sleep(0.1)
    press_key(ui, 304, True)
    press_key(ui, 304, False)
    assert ui.wait_until(lambda: screen.mode == "done")
    race = screen.snapshot.race
    assert race.phase is Phase.DONE and race.result.winner == "Bo"
    bo_ms, ann_ms = race.result.time_ms("Bo"), race.result.time_ms("Ann")
    assert 0 < bo_ms < ann_ms
    assert screen.headline == "Bo wins!"
    assert screen.cards[1].time_text == f"{round(bo_ms)} ms" and screen.cards[0].time_text == f"{round(ann_ms)} ms"
    ui.screenshot("race-result.png")

    # The winner lets Ann go first: the game's first action, through the session.
    session = screen.session
    ui.tap(screen.action_buttons["first:Ann"])
    assert events(session) == [{"type": "first_player_chosen", "player": "Ann", "chosen_by": "Bo", "how": "race"}]
    assert ui.screen.name == f"game:{GAME}"
    assert session.current_player == "Ann"


def test_a_false_start_is_named_on_screen(ui: Any) -> None:
    # A slow countdown: on a loaded machine a few frames must not carry the race past GO before the press.
    screen = open_race_screen(ui, ["Ann", "Bo"], timing={**FAST, "count_interval": 1.0})
    for key in (97, 108):
        press_key(ui, key, True)
        press_key(ui, key, False)
    assert ui.wait_until(lambda: screen.headline == "Ready? Tap Start")
    ui.tap(screen.action_buttons["start"])
    press_key(ui, 97, True)  # Ann jumps the gun during the countdown
    assert ui.wait_until(lambda: screen.headline == "False start!")
    assert "False start by Ann" in screen.detail
    assert screen.cards[0].note_text == "1 false start (one more loses)"
    press_key(ui, 97, False)
    ui.screenshot("race-false-start.png")
    screen.back()


def test_a_tie_offers_the_race_again(ui: Any) -> None:
    screen = open_race_screen(ui, ["Ann", "Bo"])
    buttons = screen.buttons
    for index in (0, 1):
        buttons.simulate(index, True)
        buttons.simulate(index, False)  # a tap shorter than the debounce: settled by the screen's poll
    assert ui.wait_until(lambda: screen.headline == "Ready? Tap Start")
    ui.tap(screen.action_buttons["start"])
    assert ui.wait_until(lambda: screen.mode == "go")
    buttons.simulate(0, True)  # both within the 5 ms tie window
    buttons.simulate(1, True)
    assert ui.wait_until(lambda: screen.mode == "done")
    assert screen.headline == "A tie!"
    buttons.simulate(0, False)
    buttons.simulate(1, False)
    ui.tap(screen.action_buttons["again"])
    assert ui.wait_until(lambda: screen.mode == "test" and screen.headline == "Ready? Tap Start")
    screen.back()


def test_the_previous_loser_chooses_next_time_and_the_race_stays_available(ui: Any) -> None:
    finished_game(ui, *win("Ann", "Bo"))
    screen = open_race_screen(ui, ["Ann", "Bo"])
    assert screen.mode == "loser"
    assert screen.headline == "Bo chooses who goes first"
    assert "race_instead" in screen.action_buttons
    ui.screenshot("race-loser-chooses.png")
    ui.tap(screen.action_buttons["first:Bo"])
    chosen = {"type": "first_player_chosen", "player": "Bo", "chosen_by": "Bo", "how": "loser"}
    assert events(screen.session) == [chosen]


def test_racing_instead_of_the_losers_choice(ui: Any) -> None:
    finished_game(ui, {"type": "pass", "player": "Ann"}, *win("Bo", "Ann"))
    screen = open_race_screen(ui, ["Ann", "Bo"])
    assert screen.headline == "Ann chooses who goes first"
    ui.tap(screen.action_buttons["race_instead"])
    assert screen.mode == "test" and screen.headline == "Press your buttons to test them"
    screen.back()
    assert ui.screen.name == f"game:{GAME}"


def test_the_race_screen_reads_at_1280x720(ui: Any) -> None:
    ui.resize(1280, 720)
    screen = open_race_screen(ui, ["Ann", "Bo"])
    for widget in [*screen.action_buttons.values(), *screen.panel.sim_buttons, screen.ids.back_button]:
        assert widget.height >= 48 and widget.width >= 48
    ui.screenshot("race-1280x720.png")
    screen.back()
