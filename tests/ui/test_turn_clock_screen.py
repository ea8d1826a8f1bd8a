"""The turn clock on the real screen (issue 27), in a real Kivy window under Xvfb with real touches.

"a tap anywhere on the clock ends the turn"; Pause; the table's (simulated) buttons end a turn too; the clock
comes back paused after a power cut, its times read from the games file.
"""

from __future__ import annotations

from typing import Any

from tests.support import ManualClock


def start_clock(ui: Any, *players: str, time: str = "total 5m") -> tuple[Any, ManualClock]:
    clock = ManualClock()
    ui.table.clock = clock  # the session's clock: the test moves it
    screen = ui.start_game("turn-clock", players, time=time)
    return screen, clock


def test_a_tap_anywhere_on_the_clock_ends_the_turn(ui: Any) -> None:
    """ "a tap anywhere on the clock ends the turn and passes the clock on in seat order"."""
    screen, clock = start_clock(ui, "Ann", "Bo", "Cy")
    big = screen.board.ids.big
    assert screen.board.note == "Tap anywhere to start Ann's clock."
    ui.tap(big)
    assert screen.session.view().running
    clock.advance(42)
    screen.render(screen.session.view())
    assert screen.board.time == "4:18" and screen.board.name == "Ann"
    ui.screenshot("turn-clock-running-3p.png")
    ui.tap(big)
    assert screen.session.current_player == "Bo"
    assert screen.board.name == "Bo" and screen.board.time == "5:00"
    tiles = [(t.name, t.time) for t in reversed(screen.board.ids.tiles.children)]
    assert tiles == [("Cy", "5:00"), ("Ann", "4:18")]
    ui.tap(screen.ids.undo_button)
    assert screen.session.current_player == "Ann"


def test_pause_holds_the_time_and_a_tap_while_paused_ends_nothing(ui: Any) -> None:
    """ "pause": the Pause button stops the running time; the big clock takes no tap until Resume."""
    screen, clock = start_clock(ui, "Ann", "Bo")
    ui.tap(screen.board.ids.big)
    clock.advance(7)
    ui.tap(screen.board.ids.pause_button)
    assert screen.session.paused and screen.board.pause_text == "Resume"
    clock.advance(100)
    ui.tap(screen.board.ids.big)
    assert screen.session.current_player == "Ann" and screen.board.time == "4:53"
    ui.screenshot("turn-clock-paused.png")
    ui.tap(screen.board.ids.pause_button)
    assert not screen.session.paused


def test_the_tables_button_ends_the_turn_and_lights_the_runners_led(ui: Any) -> None:
    """ "a press on the GPIO button ... ends the turn"; "the player's LED lit while their time runs" (simulated
    buttons on gpiozero's mock pins, handed to the screen by `ui.wiring.table_buttons`)."""
    screen, _clock = start_clock(ui, "Ann", "Bo")
    buttons = screen.buttons
    assert buttons is not None and buttons.simulated
    buttons.press(1)  # before the start: any button starts Ann's clock
    ui.frames(2)
    assert screen.session.view().running and buttons.lit() == (True, False)
    ui.wait(0.05)
    buttons.press(1)  # Bo's own button, in Ann's turn: nothing
    ui.frames(2)
    assert screen.session.current_player == "Ann"
    ui.wait(0.05)
    buttons.press(0)
    ui.frames(2)
    assert screen.session.current_player == "Bo" and buttons.lit() == (False, True)


def test_the_end_asks_then_shows_each_players_total_and_longest_turn(ui: Any) -> None:
    """ "each player's total and longest turn at the end"; ending asks first (and Undo takes it back)."""
    screen, clock = start_clock(ui, "Ann", "Bo", time="total 1m")
    ui.tap(screen.board.ids.big)
    clock.advance(65)  # Ann's flag falls
    screen.render(screen.session.view())
    assert screen.board.time == "-0:05" and screen.board.tone == "out"
    ui.screenshot("turn-clock-out-of-time.png")
    ui.tap(screen.board.ids.big)
    clock.advance(12)
    ui.tap(screen.board.ids.stop_button)
    ask = next(w for w in ui.window.children if w.__class__.__name__ == "StopConfirm")
    ui.tap(ask.ids.yes_button)
    assert screen.session.outcome is not None
    assert screen.board.summary.splitlines() == [
        "Ann 1:05 in 1 turn, longest 1:05 (out of time)",
        "Bo 0:12 in 1 turn, longest 0:12",
    ]
    ui.screenshot("turn-clock-stopped.png")


def test_after_a_power_cut_the_clock_comes_back_paused_with_its_times(ui: Any, tmp_path: Any) -> None:
    """ "resumable after a power cut": the games file opened again, the running turn's time kept (the screen saved
    each second), and paused, so the restart's own seconds are nobody's."""
    screen, clock = start_clock(ui, "Ann", "Bo")
    ui.tap(screen.board.ids.big)
    for _ in range(30):
        clock.advance(1)
        screen.presenter.keep_time()  # what each tick does
    ui.reopen(tmp_path / "games.db")
    resumed = ui.app.resume_game()
    ui.frames(3)
    assert resumed is not None and resumed.session.paused
    assert resumed.session.current_player == "Ann" and resumed.board.time == "4:30"
    assert resumed.board.note == "Paused: tap Resume to go on."


def test_five_long_names_at_800x480(ui: Any) -> None:
    """Five seats with 16-letter names: the big clock and four small ones, each name whole (screenshots)."""
    names = ("Wilhelmina Mayer", "Maximilian Worth", "Bartholomew Kemp", "Gwendolyn Hawkes", "Montgomery Quinn")
    screen, clock = start_clock(ui, *names, time="total 10m +5s")
    ui.tap(screen.board.ids.big)
    clock.advance(5)
    ui.tap(screen.board.ids.big)
    clock.advance(592)  # 8 s left
    screen.render(screen.session.view())
    assert screen.board.tone == "warn" and screen.board.time == "0:08"
    ui.screenshot("turn-clock-five-long-names-warn.png")
    assert [t.name for t in reversed(screen.board.ids.tiles.children)] == [*names[2:], names[0]]


def test_the_buzz_flashes_the_screen(ui: Any) -> None:
    """ "a buzz at 10 s left and at zero": the clock's panel flashes (with the buzzer, the light and a sound
    where the table has them)."""
    screen, clock = start_clock(ui, "Ann", "Bo", time="turn 30s")
    ui.tap(screen.board.ids.big)
    screen._tick_second()
    clock.advance(21)
    screen._tick_second()  # what the Clock does each second
    assert screen.board.flash == 1.0 and screen.board.tone == "warn"


def test_the_logs_replay_never_takes_the_tables_buttons(ui: Any) -> None:
    """The Log's replay builds the clock's own screen over a copy of the game: the buttons stay the game's."""
    screen, _clock = start_clock(ui, "Ann", "Bo")
    ui.tap(screen.board.ids.big)
    screen.open_log()
    ui.wait(0.5)  # the replay's board is built ahead, a few frames after the Log shows
    buttons = screen.buttons
    assert buttons is not None
    buttons.press(0)
    ui.frames(2)
    assert screen.session.current_player == "Bo"  # the game in play took the press, once
    assert len(screen.session.moves) == 2
