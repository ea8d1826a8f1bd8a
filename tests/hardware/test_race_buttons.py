"""The race buttons on gpiozero's MockFactory: edge times from the pin, debounce after the edge.

The mock pins stamp each change with ``gpiozero.pins.mock.monotonic()``; the
`clock` fixture replaces that with a clock the test moves by hand, so every
edge time here is exact. gpiozero's mock ignores ``bounce_time``: the bounce
trains are driven by the tests themselves, edge by edge.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from gpiozero import CompositeDevice, DigitalInputDevice, InputDevice
from gpiozero.pins.mock import MockFactory, MockPin

from companion.game import Options
from companion.race import Phase, choose_first, first_choice
from companion.session import Session
from companion.store import Store
from hardware.race_buttons import EdgeFilter, RaceButton, RaceButtons
from hardware.race_control import RaceController, RaceSnapshot
from tests.support import ManualClock, QueuedDispatcher
from tests.support.race_fixtures import PINS

ANN, BO = 0, 1


class LatePin(MockPin):
    """A mock pin whose callbacks wait in a queue, like a factory with its own callback thread.

    The edge is stamped when it happens (``drive_low``); the test decides
    when, and in which order, gpiozero hears of it.
    """

    queue: ClassVar[list[tuple[LatePin, float, bool]]] = []

    def _call_when_changed(self) -> None:
        LatePin.queue.append((self, self._last_change, self._state))

    def deliver(self, ticks: float, state: bool) -> None:
        super(MockPin, self)._call_when_changed(ticks, state)


def deliver_late(order: Callable[[list[Any]], list[Any]] = lambda q: q) -> None:
    queued, LatePin.queue[:] = list(LatePin.queue), []
    for pin, ticks, state in order(queued):
        pin.deliver(ticks, state)


class Screen:
    """Stands in for the UI: receives snapshots only through the dispatcher, on the test's thread."""

    def __init__(self) -> None:
        self.call_soon = QueuedDispatcher()
        self.snapshots: list[RaceSnapshot] = []
        self.threads: set[str] = set()

    def run_pending(self) -> None:
        self.call_soon.run()

    def on_change(self, snapshot: RaceSnapshot) -> None:
        self.threads.add(threading.current_thread().name)
        self.snapshots.append(snapshot)

    @property
    def last(self) -> RaceSnapshot:
        self.run_pending()
        return self.snapshots[-1]


def controller(buttons: RaceButtons, screen: Screen | None = None, **options: Any) -> RaceController:
    screen = screen or Screen()
    options.setdefault("rng", random.Random(4))
    return RaceController(buttons, ["Ann", "Bo"], call_soon=screen.call_soon, on_change=screen.on_change, **options)


def tap(buttons: RaceButtons, clock: ManualClock, index: int, hold_ms: float = 100) -> None:
    buttons.simulate(index, True)
    clock.advance(hold_ms)
    buttons.simulate(index, False)
    clock.advance(100)


def check_buttons(buttons: RaceButtons, clock: ManualClock) -> None:
    """Test mode: everyone presses their button once."""
    tap(buttons, clock, ANN)
    tap(buttons, clock, BO)


def at_go(race: RaceController, clock: ManualClock) -> float:
    """Start without the countdown thread and give GO; returns the GO edge-clock time."""
    assert race.start(run=False) == []
    clock.advance(3000)
    race.go()
    assert race.race.phase is Phase.GO and race.race.go_at is not None
    return race.race.go_at


def bounce(pin_index: int, buttons: RaceButtons, clock: ManualClock, levels: list[tuple[float, bool]]) -> None:
    """Drive a bounce train: (ms since the previous edge, pressed) pairs."""
    for gap_ms, pressed in levels:
        clock.advance(gap_ms)
        buttons.simulate(pin_index, pressed)


# -- the winner by edge time ---------------------------------------------------------------------------


def test_two_presses_1ms_apart_resolve_to_the_earlier_even_when_delivered_in_reverse(clock: ManualClock) -> None:
    factory = MockFactory(pin_class=LatePin)
    LatePin.queue.clear()
    with RaceButtons(PINS, pin_factory=factory) as buttons:
        screen = Screen()
        race = controller(buttons, screen, tie_window_ms=0.5)
        check_buttons(buttons, clock)
        deliver_late()
        go = at_go(race, clock)
        clock.advance(412)
        buttons.simulate(ANN, True)  # Ann's edge first...
        clock.advance(1)
        buttons.simulate(BO, True)  # ...Bo's 1 ms later
        assert len(LatePin.queue) == 2
        deliver_late(lambda q: list(reversed(q)))  # gpiozero hears Bo first
        result = screen.last.race.result
        assert result is not None
        assert result.winner == "Ann"
        assert result.time_ms("Ann") == pytest.approx(412.0, abs=1e-6)
        assert result.time_ms("Bo") == pytest.approx(413.0, abs=1e-6)
        assert race.race.go_at == go
        race.close()
    factory.close()


def test_the_edge_time_is_the_pins_not_the_time_the_callback_ran(clock: ManualClock) -> None:
    factory = MockFactory(pin_class=LatePin)
    LatePin.queue.clear()
    with RaceButtons(PINS, pin_factory=factory) as buttons:
        seen: list[tuple[int, bool, float]] = []
        buttons.subscribe(lambda i, p, at: seen.append((i, p, at)))
        buttons.simulate(ANN, True)
        edge = buttons.now()
        clock.advance(250)  # gpiozero's thread is slow today
        deliver_late()
        assert seen == [(ANN, True, pytest.approx(edge))]
    factory.close()


class WallClockPin(MockPin):
    """Stamps its edges on another clock, 1.7e9 s ahead (as old kernels' CLOCK_REALTIME line events were)."""

    def _call_when_changed(self) -> None:
        super(MockPin, self)._call_when_changed(self._last_change + 1.7e9, self._state)


def test_edges_stamped_on_another_clock_are_brought_onto_the_factorys(clock: ManualClock) -> None:
    factory = MockFactory(pin_class=WallClockPin)
    with RaceButtons(PINS, pin_factory=factory) as buttons:
        screen = Screen()
        race = controller(buttons, screen, tie_window_ms=0.5)
        check_buttons(buttons, clock)
        at_go(race, clock)
        clock.advance(640)
        buttons.simulate(BO, True)
        clock.advance(2)
        buttons.simulate(ANN, True)
        result = screen.last.race.result
        assert result is not None and result.winner == "Bo"
        assert result.time_ms("Bo") == pytest.approx(640.0, abs=1e-3)
        assert result.time_ms("Ann") == pytest.approx(642.0, abs=1e-3)
        race.close()
    factory.close()


# -- false starts ------------------------------------------------------------------------------------------


def test_a_false_start_is_named_and_the_race_rearms(buttons: RaceButtons, clock: ManualClock) -> None:
    screen = Screen()
    race = controller(buttons, screen)
    check_buttons(buttons, clock)
    assert race.start(run=False) == []
    clock.advance(400)
    buttons.simulate(BO, True)  # during "3"
    snap = screen.last
    assert snap.race.phase is Phase.ARMED
    assert snap.race.notice == "False start by Bo! Once more and Bo loses the race."
    assert snap.race.false_starts_by("Bo") == 1
    assert snap.problems == ("Bo's button is held down: let go (nobody pressing? check its wiring).",)
    clock.advance(100)
    buttons.simulate(BO, False)
    clock.advance(100)
    assert race.start(run=False) == []  # re-armed: it starts again
    race.close()


def test_a_second_false_start_by_the_same_player_loses_the_race(buttons: RaceButtons, clock: ManualClock) -> None:
    screen = Screen()
    race = controller(buttons, screen)
    check_buttons(buttons, clock)
    for _ in range(2):
        assert race.start(run=False) == []
        race.count_down()
        clock.advance(1500)
        tap(buttons, clock, ANN)
    result = screen.last.race.result
    assert result is not None and result.winner == "Bo" and result.how == "false starts"
    assert result.sentence == "Ann started too early twice and loses the race: Bo wins."
    race.close()


def test_a_press_stamped_before_go_is_a_false_start_even_if_heard_after_go(clock: ManualClock) -> None:
    factory = MockFactory(pin_class=LatePin)
    LatePin.queue.clear()
    with RaceButtons(PINS, pin_factory=factory) as buttons:
        screen = Screen()
        race = controller(buttons, screen)
        check_buttons(buttons, clock)
        deliver_late()
        assert race.start(run=False) == []
        clock.advance(3000)
        buttons.simulate(ANN, True)  # anticipates GO by 2 ms...
        clock.advance(2)
        race.go()  # ...and gpiozero only hears of it after GO
        deliver_late()
        snap = screen.last
        assert snap.race.phase is Phase.ARMED and snap.race.false_starts_by("Ann") == 1
        race.close()
    factory.close()


# -- ties ---------------------------------------------------------------------------------------------------------


def test_presses_within_the_tie_window_are_a_tie_and_the_race_is_offered_again(
    buttons: RaceButtons, clock: ManualClock
) -> None:
    screen = Screen()
    race = controller(buttons, screen)  # default window: 5 ms
    check_buttons(buttons, clock)
    at_go(race, clock)
    clock.advance(800)
    buttons.simulate(BO, True)
    clock.advance(4)
    buttons.simulate(ANN, True)
    result = screen.last.race.result
    assert result is not None and result.is_tie and result.tied == ("Ann", "Bo")
    race.again()
    assert screen.last.race.phase is Phase.ARMED and race.history[-1].result == result


# -- bounce -------------------------------------------------------------------------------------------------------

CHATTER = [(0.4, False), (0.3, True), (1.1, False), (0.6, True), (2.5, False), (3.0, True), (7.0, False), (4.5, True)]
"""A press's chatter after its first edge: 19.4 ms of flipping, ending pressed."""

RELEASE_BOUNCE = [(0.5, True), (0.7, False), (2.0, True), (4.0, False), (9.0, True), (3.5, False)]
"""A release's bounce after its first edge: back down and up again for 19.7 ms, ending released."""


def test_a_chattering_press_is_one_press_timed_at_its_first_edge(buttons: RaceButtons, clock: ManualClock) -> None:
    screen = Screen()
    race = controller(buttons, screen, tie_window_ms=0.5)
    check_buttons(buttons, clock)
    seen: list[tuple[int, bool, float]] = []
    buttons.subscribe(lambda i, p, at: seen.append((i, p, at)))
    go = at_go(race, clock)
    clock.advance(300)
    buttons.simulate(ANN, True)
    first_edge = buttons.now()
    bounce(ANN, buttons, clock, CHATTER)
    clock.advance(0.1)
    buttons.simulate(BO, True)  # clean, but 19.5 ms after Ann's first edge
    result = screen.last.race.result
    assert result is not None and result.winner == "Ann"
    assert result.time_ms("Ann") == pytest.approx((first_edge - go) * 1000, abs=1e-6)
    assert [(i, p) for i, p, _ in seen] == [(ANN, True), (BO, True)]
    race.close()


def test_release_bounce_is_never_a_second_press(buttons: RaceButtons, clock: ManualClock) -> None:
    seen: list[tuple[int, bool, float]] = []
    buttons.subscribe(lambda i, p, at: seen.append((i, p, at)))
    buttons.simulate(ANN, True)
    bounce(ANN, buttons, clock, CHATTER)
    clock.advance(500)
    buttons.simulate(ANN, False)
    released_at = buttons.now()
    bounce(ANN, buttons, clock, RELEASE_BOUNCE)
    clock.advance(300)
    buttons.poll()
    assert [(p, round(at - released_at, 6)) for _, p, at in seen[1:]] == [(False, 0.0)]
    assert [p for _, p, _ in seen] == [True, False]
    assert buttons.pressed() == (False, False)
    # The next real press, well after the bounce, counts again.
    buttons.simulate(ANN, True)
    assert [p for _, p, _ in seen] == [True, False, True]


def test_a_release_bounce_during_the_race_does_not_press_again(buttons: RaceButtons, clock: ManualClock) -> None:
    screen = Screen()
    race = controller(buttons, screen)
    check_buttons(buttons, clock)
    at_go(race, clock)
    clock.advance(300)
    buttons.simulate(ANN, True)
    clock.advance(60)
    buttons.simulate(ANN, False)
    bounce(ANN, buttons, clock, RELEASE_BOUNCE)
    snap = screen.last
    assert snap.race.phase is Phase.GO
    assert [p.racer for p in snap.race.presses] == ["Ann"]
    assert snap.race.time_ms("Ann") == pytest.approx(300.0, abs=1e-6)
    race.close()


def test_a_tap_shorter_than_the_settle_time_is_still_seen_released() -> None:
    edges = EdgeFilter(settle=0.020)
    assert edges.edge(1.000, True) == [(True, 1.000)]
    assert edges.edge(1.004, False) == []  # released within the chatter window
    assert edges.poll(1.010) == []  # not settled yet
    assert edges.poll(1.030) == [(False, pytest.approx(1.024))]
    assert edges.edge(1.200, True) == [(True, 1.200)]


def test_a_change_that_chatter_hid_is_settled_before_the_next_edge() -> None:
    edges = EdgeFilter(settle=0.020)
    edges.edge(1.000, True)
    edges.edge(1.004, False)
    assert edges.edge(1.500, True) == [(False, pytest.approx(1.024)), (True, 1.500)]


# -- before the race: held and unwired buttons ----------------------------------------------------------------------


def test_an_unwired_button_is_reported_before_the_race(buttons: RaceButtons, clock: ManualClock) -> None:
    screen = Screen()
    race = controller(buttons, screen)
    tap(buttons, clock, ANN)  # Bo's button never changes: not wired
    problems = race.start(run=False)
    assert problems == ["Bo's button has not been pressed yet: press it once (no reaction? check its wiring)."]
    assert screen.last.race.phase is Phase.ARMED
    assert screen.last.checked == (True, False)
    race.close()


def test_a_button_held_at_arm_time_is_reported_and_nothing_starts(buttons: RaceButtons, clock: ManualClock) -> None:
    screen = Screen()
    race = controller(buttons, screen)
    check_buttons(buttons, clock)
    buttons.simulate(BO, True)
    assert race.start(run=False) == ["Bo's button is held down: let go (nobody pressing? check its wiring)."]
    assert race.race.phase is Phase.ARMED and race.race.false_starts == ()
    race.close()


def test_test_mode_shows_each_buttons_live_state_and_lights_it(buttons: RaceButtons, clock: ManualClock) -> None:
    screen = Screen()
    race = controller(buttons, screen)
    buttons.simulate(BO, True)
    assert screen.last.pressed == (False, True)
    assert buttons.led_states() == (False, True)
    clock.advance(80)
    buttons.simulate(BO, False)
    assert screen.last.pressed == (False, False)
    assert buttons.led_states() == (False, False)
    race.close()


# -- lights, buzzer, the countdown thread and the dispatcher --------------------------------------------------------


def test_go_lights_the_buttons_and_sounds_the_buzzer(
    buttons: RaceButtons, clock: ManualClock, factory: MockFactory
) -> None:
    race = controller(buttons)
    check_buttons(buttons, clock)
    at_go(race, clock)
    assert factory.pin(22).state and factory.pin(23).state
    assert factory.pin(24).state  # the buzzer
    clock.advance(300)
    buttons.simulate(ANN, True)
    assert not factory.pin(22).state  # Ann's light goes out when she presses
    race.close()
    assert not factory.pin(23).state and not factory.pin(24).state


def test_the_countdown_runs_on_its_own_thread_and_reaches_the_ui_only_through_the_dispatcher(
    buttons: RaceButtons, clock: ManualClock
) -> None:
    screen = Screen()
    race = controller(buttons, screen, count_interval=0.01, delay_range=(0.01, 0.02))
    check_buttons(buttons, clock)
    assert race.start() == []
    deadline = time.monotonic() + 5
    while race.race.phase is not Phase.GO and time.monotonic() < deadline:
        time.sleep(0.005)
    screen.run_pending()
    phases = [(s.race.phase, s.race.count) for s in screen.snapshots]
    assert (Phase.COUNTDOWN, 3) in phases and (Phase.COUNTDOWN, 1) in phases
    assert phases[-1][0] is Phase.GO
    assert screen.threads == {threading.current_thread().name}
    versions = [s.version for s in screen.snapshots]
    assert versions == sorted(versions)
    race.close()


def test_a_false_start_stops_the_countdown_thread(buttons: RaceButtons, clock: ManualClock) -> None:
    screen = Screen()
    race = controller(buttons, screen, count_interval=0.05, delay_range=(0.05, 0.05))
    check_buttons(buttons, clock)
    assert race.start() == []
    buttons.simulate(ANN, True)
    time.sleep(0.4)  # long enough for the countdown to have reached GO had it gone on
    assert race.race.phase is Phase.ARMED and race.race.go_at is None
    race.close()


def test_the_buttons_are_one_gpiozero_composite_device_listening_on_the_pins_public_callback(
    buttons: RaceButtons, clock: ManualClock
) -> None:
    assert isinstance(buttons, CompositeDevice)
    assert list(buttons) == [*buttons.buttons, *buttons.leds, buttons.buzzer]
    assert buttons.value == (0, 0, 0, 0, 0)
    buttons.simulate(BO, True)
    assert buttons.value[:2] == (0, 1)  # Bo's line is low: pressed
    for button in buttons.buttons:
        assert isinstance(button, InputDevice) and not isinstance(button, DigitalInputDevice)
        assert button.pin.when_changed == button._edge  # the pin's own `when_changed(ticks, state)`
        assert button.pin.bounce is None
    # No gpiozero internals are overridden: the edge arrives through the public callback alone.
    assert not {"_pin_changed", "_state_to_value", "_fire_events"} & set(vars(RaceButton))


def test_close_is_safe_twice_and_frees_the_pins(clock: ManualClock, factory: MockFactory) -> None:
    buttons = RaceButtons(PINS, pin_factory=factory)
    race = controller(buttons)
    race.close()
    race.close()
    buttons.close()
    buttons.close()
    assert buttons.closed
    with RaceButtons(PINS, pin_factory=factory) as again:  # the same pins can be used again
        assert again.count == 2


def test_pins_may_come_from_any_object_with_the_configs_names(clock: ManualClock, factory: MockFactory) -> None:
    @dataclass(frozen=True)
    class RaceConfig:
        buttons: tuple[int, int] = (5, 6)
        leds: tuple[int, int] | None = None
        buzzer: int | None = None
        tie_window_ms: float = 5.0

    with RaceButtons(RaceConfig(), pin_factory=factory) as buttons:
        assert buttons.leds == () and buttons.buzzer is None
        buttons.light(None, True)  # no LEDs: nothing to do, no error
        assert buttons.led_states() == ()


def test_a_pin_factory_is_required() -> None:
    with pytest.raises(ValueError, match="pin_factory"):
        RaceButtons(PINS, pin_factory=None)  # type: ignore[arg-type]


# -- the choice: recorded as the game's first event, resumed after a restart ------------------------------------------


GAME = "quantum-link"
"""A real game that takes ``choose_first`` and can be won in a few moves."""


def test_the_winners_choice_is_the_games_first_event_and_survives_a_restart(
    tmp_path: Path, buttons: RaceButtons, clock: ManualClock
) -> None:
    db = tmp_path / "games.db"
    store = Store.open(db)
    session = Session.start(store, GAME, Options.for_names("Ann", "Bo"))
    screen = Screen()
    race = controller(buttons, screen)
    check_buttons(buttons, clock)
    at_go(race, clock)
    clock.advance(950)
    buttons.simulate(BO, True)
    clock.advance(120)
    buttons.simulate(ANN, True)
    result = screen.last.race.result
    assert result is not None and result.winner == "Bo"
    session.act(choose_first("Ann", chosen_by=result.winner, how="race"))  # Bo lets Ann start
    race.close()
    store.close()  # the app goes away

    with Store.open(db) as reopened:
        resumed = Session.resume(reopened)
        assert resumed is not None
        first = resumed.game.to_json(resumed.events[0])
        assert first == {"type": "first_player_chosen", "player": "Ann", "chosen_by": "Bo", "how": "race"}
        assert resumed.current_player == "Ann"
        # Ann waits while Bo lays two 1s side by side (one friend each: 2 points), then both pass.
        for action in [
            {"type": "pass", "player": "Ann"},
            {"type": "place", "player": "Bo", "cell": [0, 0], "face": 1},
            {"type": "pass", "player": "Ann"},
            {"type": "place", "player": "Bo", "cell": [1, 0], "face": 1},
            {"type": "pass", "player": "Ann"},
            {"type": "pass", "player": "Bo"},
        ]:
            resumed.act(action)
        assert resumed.outcome is not None and resumed.outcome.winners == ("Bo",)
        # Next game by the same players: Ann lost, so Ann is offered the choice.
        offer = first_choice(reopened.finished(), ["Ann", "Bo"], GAME)
        assert (offer.chooser, offer.how) == ("Ann", "loser")
