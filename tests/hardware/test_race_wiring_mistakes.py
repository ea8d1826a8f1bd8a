"""The race buttons when the wiring, the config or the timing goes wrong: real gpiozero devices on MockFactory pins.

docs/race.md: the race buttons are wired by the owner (pins in the config file). A mistake there must end in a
sentence and free every pin it took, a stuck device must not keep the others' pins, and once the race screen
has closed the race no late timer or tap may light, sound or press anything.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import pytest
from gpiozero import LED
from gpiozero.exc import GPIOPinInUse, PinEdgeDetectUnsupported
from gpiozero.pins.mock import MockFactory, MockPin

from companion.race import Phase, RaceError
from hardware.race_buttons import RaceButtons
from hardware.race_control import RaceController
from tests.hardware.test_race_buttons import ANN, BO, PINS, Screen, at_go, check_buttons, controller, tap
from tests.support import ManualClock


def free(factory: MockFactory, *pins: int) -> bool:
    """Every pin in `pins` can be opened again (nothing kept it)."""
    devices = [LED(pin, pin_factory=factory) for pin in pins]
    for device in devices:
        device.close()
    return True


# -- the owner's wiring ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pins", "error", "message"),
    [
        ({"buttons": [17]}, ValueError, "at least two button pins"),
        ({"buttons": [17, 27], "leds": [22]}, ValueError, r"one LED pin per button \(2\)"),
        ({"buttons": [17, 27], "leds": [22, 17]}, GPIOPinInUse, "GPIO17"),  # an LED on a button's pin
        ({"buttons": [17, 27], "leds": [22, 23], "buzzer": 23}, GPIOPinInUse, "GPIO23"),  # the buzzer on an LED's
    ],
)
def test_a_wiring_mistake_is_refused_and_frees_every_pin_it_took(
    factory: MockFactory, pins: dict[str, Any], error: type[Exception], message: str
) -> None:
    """The devices made before the one that failed are closed: the corrected config opens the same pins."""
    with pytest.raises(error, match=message):
        RaceButtons(pins, pin_factory=factory)
    assert free(factory, 17, 22, 23, 27)
    with RaceButtons(PINS, pin_factory=factory) as fixed:
        assert fixed.count == 2


class NoEdgePin(MockPin):
    """A pin whose chip cannot report edges (gpiozero raises this for such pins)."""

    def _set_edges(self, value: str) -> None:
        raise PinEdgeDetectUnsupported(f"pin {self.info.name} does not support edge detection")


def test_a_pin_that_cannot_report_edges_is_refused_and_freed() -> None:
    """A race button must hand on each edge with its time: a pin that cannot is refused, not left half open."""
    factory = MockFactory(pin_class=NoEdgePin)
    try:
        with pytest.raises(PinEdgeDetectUnsupported):
            RaceButtons(PINS, pin_factory=factory)
        assert free(factory, 17)
    finally:
        factory.close()


def test_a_stuck_device_is_logged_and_does_not_keep_the_others_pins(
    factory: MockFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """race_buttons.py: "one stuck device must not keep the others' pins" — and closing does not raise into the
    screen that closes the race, nor log the stuck one twice."""
    made = RaceButtons(PINS, pin_factory=factory)
    stuck = made.leds[0]
    close = stuck.close

    def refuse() -> None:
        raise OSError(5, "Input/output error")

    stuck.close = refuse  # gpiozero lets a device's attributes be set only if they exist: `close` does
    try:
        with caplog.at_level(logging.WARNING, logger="hardware.race_buttons"):
            made.close()
        assert made.closed  # it returned: the screen that closed the race goes on
        assert len([r for r in caplog.records if "Input/output error" in r.getMessage()]) == 1
        assert free(factory, 17, 27, 23, 24)
    finally:
        stuck.close = close
        stuck.close()


# -- after the race screen has closed ------------------------------------------------------------------------


def test_once_closed_no_late_timer_or_tap_touches_a_light_the_buzzer_or_a_listener(
    buttons: RaceButtons, clock: ManualClock
) -> None:
    """The race screen closed the buttons: a countdown step or a tap still on its way does nothing."""
    heard: list[tuple[int, bool, float]] = []
    buttons.subscribe(lambda i, pressed, at: heard.append((i, pressed, at)))
    buttons.close()
    buttons.light(None, True)
    buttons.flash(ANN, times=3)
    buttons.beep()
    buttons.buzz(True)
    buttons.simulate(ANN, True)
    buttons.poll()
    assert buttons.led_states() == (False, False) and buttons.buzzer_state() is False
    assert heard == [] and buttons.closed


def test_without_a_buzzer_the_race_is_silent_and_still_runs(clock: ManualClock, factory: MockFactory) -> None:
    """The buzzer is optional (docs/race.md): beeps and GO's sound are skipped, the lights still say GO."""
    with RaceButtons({"buttons": [17, 27], "leds": [22, 23]}, pin_factory=factory) as quiet:
        race = controller(quiet)
        check_buttons(quiet, clock)
        at_go(race, clock)
        assert quiet.buzzer is None and quiet.buzzer_state() is False and quiet.led_states() == (True, True)
        quiet.beep()
        race.close()


def test_a_tap_shorter_than_the_settle_time_reaches_the_live_display_once_the_line_is_quiet(
    buttons: RaceButtons, clock: ManualClock
) -> None:
    """Test mode shows each button live: a 5 ms tap is seen pressed, and released once `poll` finds it settled."""
    heard: list[tuple[int, bool]] = []
    unsubscribe = buttons.subscribe(lambda i, pressed, at: heard.append((i, pressed)))
    buttons.simulate(BO, True)
    clock.advance(5)
    buttons.simulate(BO, False)  # within the settle time: chatter, for now
    assert heard == [(BO, True)]
    buttons.poll()
    assert heard == [(BO, True)]  # not quiet long enough yet
    clock.advance(30)
    buttons.poll()
    assert heard == [(BO, True), (BO, False)]
    unsubscribe()
    unsubscribe()  # the screen may leave twice (a back tap and a close): no error
    tap(buttons, clock, BO)
    assert heard == [(BO, True), (BO, False)]


# -- the race itself ------------------------------------------------------------------------------------------


def test_more_players_than_buttons_is_refused_with_a_sentence(buttons: RaceButtons) -> None:
    with pytest.raises(RaceError, match="There are 2 race buttons for 3 players"):
        RaceController(buttons, ["Ann", "Bo", "Cy"], call_soon=lambda f: f(), on_change=lambda s: None)


def test_stop_during_the_countdown_goes_back_to_waiting_and_after_a_press_decides(
    buttons: RaceButtons, clock: ManualClock
) -> None:
    """race_control.py: "Stop now: decide on the presses so far, or go back to waiting for Start"."""
    screen = Screen()
    with controller(buttons, screen) as race:
        check_buttons(buttons, clock)
        assert race.start(run=False) == []
        race.count_down()
        race.stop()
        assert screen.last.race.phase is Phase.ARMED and buttons.buzzer_state() is False
        race.count_down()  # a countdown step arriving late does nothing now
        race.go()
        assert screen.last.race.phase is Phase.ARMED
        at_go(race, clock)
        clock.advance(300)
        buttons.simulate(BO, True)
        race.stop()
        result = screen.last.race.result
        assert result is not None and result.winner == "Bo" and race.race.phase is Phase.DONE
    assert race.start() == ["The race buttons are closed."]


def test_again_during_a_countdown_rearms_without_keeping_it_in_the_history(
    buttons: RaceButtons, clock: ManualClock
) -> None:
    """A player taps "Again" before GO: the lights and buzzer go off, nothing is recorded as a race run."""
    screen = Screen()
    race = controller(buttons, screen)
    check_buttons(buttons, clock)
    race.start(run=False)
    race.again()
    assert race.history == [] and screen.last.race.phase is Phase.ARMED
    assert buttons.led_states() == (False, False) and buttons.buzzer_state() is False
    race.close()
    count = len(screen.snapshots)
    tap(buttons, clock, ANN)  # a tap after closing: no snapshot for a screen that has gone
    screen.run_pending()
    assert len(screen.snapshots) == count


class FailingBeep:
    """Race buttons whose buzzer fails (a driver error), as the countdown's first beep is sounded."""

    def __init__(self, inner: RaceButtons) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    @property
    def count(self) -> int:
        return self.inner.count

    def beep(self, **options: Any) -> None:
        raise OSError(5, "buzzer: Input/output error")


def test_a_countdown_that_fails_says_so_in_the_log(
    buttons: RaceButtons, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    """race_control.py: "a countdown that dies silently would leave the table waiting": it is logged."""
    screen = Screen()
    race = controller(buttons, screen)
    race.buttons = FailingBeep(buttons)  # type: ignore[assignment]
    check_buttons(buttons, clock)
    failed = threading.Event()

    class Spot(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.getMessage() == "race countdown failed":
                failed.set()

    spot = Spot()
    logging.getLogger("hardware.race_control").addHandler(spot)
    try:
        assert race.start() == []
        assert failed.wait(5)
    finally:
        logging.getLogger("hardware.race_control").removeHandler(spot)
        race.close()


def test_a_countdown_stopped_before_go_never_lights_or_sounds_go(buttons: RaceButtons, clock: ManualClock) -> None:
    """Stop pressed in the hidden wait after "1": the countdown thread ends without GO."""
    screen = Screen()
    race = controller(buttons, screen, countdown_from=1, count_interval=0.01, delay_range=(0.3, 0.3))
    check_buttons(buttons, clock)
    assert race.start() == []
    assert wait(lambda: race.race.phase is Phase.SET)
    race.stop()
    thread = race._thread
    assert thread is not None
    thread.join(2)
    assert not thread.is_alive() and race.race.phase is Phase.ARMED and race.race.go_at is None
    # The countdown's last flash ends; GO would have left every light on and the buzzer sounding.
    assert wait(lambda: buttons.led_states() == (False, False)) and not buttons.buzzer_state()
    race.close()


def wait(predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    done = threading.Event()
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return True
        done.wait(0.01)
    return predicate()



def test_a_button_without_a_racer_is_ignored(clock: ManualClock, factory: MockFactory) -> None:
    """Three buttons wired, two players racing: the third button is nobody's, before or after GO."""
    with RaceButtons({"buttons": [17, 27, 5]}, pin_factory=factory) as three:
        screen = Screen()
        race = controller(three, screen)
        check_buttons(three, clock)
        tap(three, clock, 2)
        assert screen.last.problems == () and len(screen.last.pressed) == 2
        at_go(race, clock)
        clock.advance(200)
        three.simulate(2, True)
        assert screen.last.race.phase is Phase.GO and screen.last.race.presses == ()
        race.close()
        count = len(screen.snapshots)
        race.refresh()  # the screen's test mode ticking once more after closing: nothing is sent
        screen.run_pending()
        assert len(screen.snapshots) == count
