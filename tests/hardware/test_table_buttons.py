"""The table's buttons for the turn clock (issue 27): real gpiozero devices on the mock pin factory.

"a press on the GPIO button ... ends the turn and passes the clock on in seat order (with two buttons, each
player's own button; with more players, one "next" button); the player's LED lit while their time runs."
`hardware.table_buttons.TableButtons` hands presses over through the dispatcher (`QueuedDispatcher` plays the UI
thread); the turn clock's presenter says what a press means, on a real `Session` and games file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.game import Options
from companion.session import Session
from companion.store import Store
from hardware.race_buttons import RaceButtons
from hardware.table_buttons import TableButtons
from tests.support import ManualClock
from tests.support.dispatch import QueuedDispatcher
from tests.support.race_fixtures import PINS
from ui.presenters.turn_clock import TurnClockPresenter


class Table:
    """A turn clock on the buttons, wired as the screen wires it: a press -> the presenter's action -> the session."""

    def __init__(self, buttons: TableButtons, session: Session, dispatcher: QueuedDispatcher) -> None:
        self.buttons, self.session, self.dispatcher = buttons, session, dispatcher
        self.presenter = TurnClockPresenter(session)
        buttons.when_pressed = self.pressed
        self.lights()

    def pressed(self, index: int) -> None:
        action = self.presenter.press(index, self.buttons.count)
        if action is not None:
            self.session.act(action)
        self.lights()

    def lights(self) -> None:
        index, every = self.presenter.lights(self.buttons.count)
        self.buttons.light_only(index, every=every)


@pytest.fixture
def layer(buttons: RaceButtons, dispatcher: QueuedDispatcher) -> Iterator[TableButtons]:
    with TableButtons(buttons, call_soon=dispatcher) as made:
        yield made


def clock_on(layer: TableButtons, dispatcher: QueuedDispatcher, tmp_path: Path, *names: str) -> Table:
    store = Store.open(tmp_path / "games.db")
    session = Session.start(store, "turn-clock", Options.for_names(*names, time="total 5m"), clock=ManualClock())
    return Table(layer, session, dispatcher)


def press(layer: TableButtons, clock: ManualClock, dispatcher: QueuedDispatcher, index: int) -> None:
    """A real press of button `index` on its mock pin, held 80 ms, then what it handed over run on the UI side."""
    pin = layer.buttons.buttons[index].pin
    pin.drive_low()
    clock.advance(80)
    pin.drive_high()
    clock.advance(200)
    dispatcher.run()


def test_a_press_reaches_the_ui_side_only_through_the_dispatcher(
    layer: TableButtons, clock: ManualClock, dispatcher: QueuedDispatcher
) -> None:
    """Issue 27 via STYLE: gpiozero callbacks never touch the screen; the press waits for the UI thread."""
    got: list[int] = []
    layer.when_pressed = got.append
    layer.buttons.buttons[1].pin.drive_low()
    assert got == []  # still on gpiozero's side
    assert dispatcher.run() == 1 and got == [1]
    clock.advance(100)
    layer.buttons.buttons[1].pin.drive_high()
    assert dispatcher.run() == 0  # a release is no press


def test_press_ends_the_turn_and_passes_the_clock(
    layer: TableButtons, clock: ManualClock, dispatcher: QueuedDispatcher, tmp_path: Path
) -> None:
    """ "a press on the GPIO button ... ends the turn and passes the clock on in seat order"."""
    table = clock_on(layer, dispatcher, tmp_path, "Ann", "Bo")
    press(layer, clock, dispatcher, 0)  # before the start, a press starts Ann's clock
    assert table.session.view().running and table.session.current_player == "Ann"
    press(layer, clock, dispatcher, 0)
    assert table.session.current_player == "Bo"
    press(layer, clock, dispatcher, 1)
    assert table.session.current_player == "Ann"


def test_with_two_buttons_each_players_own_button_ends_only_their_own_turn(
    layer: TableButtons, clock: ManualClock, dispatcher: QueuedDispatcher, tmp_path: Path
) -> None:
    """ "with two buttons, each player's own button": Bo's button does nothing in Ann's turn."""
    table = clock_on(layer, dispatcher, tmp_path, "Ann", "Bo")
    press(layer, clock, dispatcher, 1)  # starts Ann's clock
    moves = len(table.session.moves)
    press(layer, clock, dispatcher, 1)
    assert table.session.current_player == "Ann" and len(table.session.moves) == moves
    press(layer, clock, dispatcher, 0)
    assert table.session.current_player == "Bo"


def test_with_more_players_any_button_is_next(
    layer: TableButtons, clock: ManualClock, dispatcher: QueuedDispatcher, tmp_path: Path
) -> None:
    """ "with more players, one "next" button": three players on two buttons, either one passes the clock on."""
    table = clock_on(layer, dispatcher, tmp_path, "Ann", "Bo", "Cy")
    press(layer, clock, dispatcher, 0)
    seen = []
    for index in (1, 1, 0):
        press(layer, clock, dispatcher, index)
        seen.append(table.session.current_player)
    assert seen == ["Bo", "Cy", "Ann"]
    assert layer.lit() == (True, True)  # every "next" button lit while a time runs


def test_the_running_players_led_is_lit(
    layer: TableButtons, clock: ManualClock, dispatcher: QueuedDispatcher, tmp_path: Path
) -> None:
    """ "the player's LED lit while their time runs": none before the start or while paused, then Ann's, Bo's."""
    table = clock_on(layer, dispatcher, tmp_path, "Ann", "Bo")
    assert layer.lit() == (False, False)
    press(layer, clock, dispatcher, 0)
    assert layer.lit() == (True, False)
    press(layer, clock, dispatcher, 0)
    assert layer.lit() == (False, True)
    table.session.pause_clock()
    table.lights()
    assert layer.lit() == (False, False)
    press(layer, clock, dispatcher, 1)  # paused: a press does nothing
    assert table.session.current_player == "Bo"


def test_closing_puts_the_lights_out_leaves_the_tables_buttons_open_and_is_safe_twice(
    buttons: RaceButtons, dispatcher: QueuedDispatcher, clock: ManualClock
) -> None:
    layer = TableButtons(buttons, call_soon=dispatcher)
    got: list[int] = []
    layer.when_pressed = got.append
    layer.light_only(1)
    layer.close()
    layer.close()
    assert buttons.led_states() == (False, False) and not buttons.closed
    buttons.buttons[0].pin.drive_low()
    assert dispatcher.run() == 0 and got == []


def test_simulated_buttons_opened_for_the_layer_close_with_it(dispatcher: QueuedDispatcher) -> None:
    factory = MockFactory()
    try:
        owned = RaceButtons(PINS, pin_factory=factory)
        with TableButtons(owned, call_soon=dispatcher, owns=True) as layer:
            got: list[int] = []
            layer.when_pressed = got.append
            layer.press(0)
            dispatcher.run()
            assert got == [0]
        assert owned.closed
    finally:
        factory.close()
