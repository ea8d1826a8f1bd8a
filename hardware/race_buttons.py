"""The race buttons, their lights and the buzzer: gpiozero devices on an injected pin factory.

`RaceButtons` owns the devices (one `RaceButton` per player, an `LED` in
each button, a shared `Buzzer`), built from a plain pin map with the
`pin_factory` it is given; it is a gpiozero `CompositeDevice` of them. It
reports each button's *debounced* presses and releases, each stamped with
the time of the first raw edge. It knows no race: `hardware.race_control`
runs one on these buttons. Only the wiring (`ui.wiring`) builds them.

Why the edges are taken from the pin, and debounced here:

- ``Button.when_pressed`` callbacks get no timestamp: by the time one runs,
  "now" is whenever gpiozero's thread got round to it. Two presses 1 ms apart
  can be reported in either order. A `RaceButton` listens on its pin's public
  ``when_changed``, which the pin factory calls with ``(ticks, state)``: the
  edge time as close to the pin as the factory gives it (the kernel's
  timestamp of the GPIO interrupt with lgpio; the moment of ``drive_low()``
  on a mock pin).
- lgpio's own debounce reports an edge only once the line has been stable for
  the debounce period and stamps it *then*: the winner's time would be
  falsified by however long their switch chattered. gpiozero's mock pins
  ignore ``bounce`` altogether. So the pins are set to ``bounce = None`` and
  `EdgeFilter` debounces after the fact: the first edge of a press is
  accepted at once with its own time; edges that follow within the settle
  time (20 ms) are chatter and ignored.

The edge clock: ticks are turned into seconds since this object was made
with the factory's ``ticks_diff``, and GO is stamped with the factory's
``ticks()`` on the same scale. On lgpio the edge ticks are the kernel's
event timestamps and ``ticks()`` is ``time.monotonic()``: both CLOCK_MONOTONIC
on current kernels, but kernels before 5.7 stamped events with CLOCK_REALTIME.
So the first edge is compared with the factory's clock; if they are further
apart than any delivery delay could explain, the offset is measured once and
added to every edge (a warning is logged). Edges stay exact relative to each
other; GO is then off by at most that first edge's delivery delay.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import LED, Buzzer, CompositeDevice, Device, Factory, InputDevice
from gpiozero.pins.mock import MockFactory

log = logging.getLogger(__name__)

SETTLE_S = 0.020
"""A switch may chatter for up to this long after an edge; what follows within it is one press."""

CLOCK_MISMATCH_S = 1.0
"""An edge stamped further than this from the factory's clock comes from another clock (see `RaceButtons`)."""

EdgeListener = Callable[[int, bool, float], None]  # (button index, pressed, edge time in seconds)
PinEdge = Callable[[Any, bool], None]  # (the pin factory's ticks, pressed)


class EdgeFilter:
    """Debounce one button by edge times, keeping the time of the first raw edge.

    A change of level is accepted when the line had been quiet (no raw edge)
    for `settle` seconds before it; it is then reported at that edge's own
    time. Edges within `settle` of the previous raw edge are chatter: they
    only update the remembered raw level. If chatter ends on the other level
    (a very short tap), that change is reported once the line has been quiet
    for `settle` (by `poll`, or before the next edge is handled), stamped at
    the moment it became stable. Not thread-safe: `RaceButtons` locks around it.
    """

    def __init__(self, settle: float = SETTLE_S, pressed: bool = False) -> None:
        self.settle = settle
        self.pressed = pressed  # the debounced state
        self._raw = pressed
        self._last_edge: float | None = None

    def edge(self, at: float, pressed: bool) -> list[tuple[bool, float]]:
        """A raw edge to level `pressed` at time `at`; returns the accepted changes ``(pressed, at)``."""
        changes = self.poll(at)
        quiet = self._last_edge is None or at - self._last_edge >= self.settle
        self._raw = pressed
        self._last_edge = at
        if quiet and pressed != self.pressed:
            self.pressed = pressed
            changes.append((pressed, at))
        return changes

    def poll(self, now: float) -> list[tuple[bool, float]]:
        """Settle a change that chatter left pending, if the line has been quiet long enough."""
        if self._raw != self.pressed and self._last_edge is not None and now - self._last_edge >= self.settle:
            self.pressed = self._raw
            return [(self.pressed, self._last_edge + self.settle)]
        return []


class RaceButton(InputDevice):
    """A push button (pin to ground, internal pull-up) that hands on every raw edge with the pin's own ticks.

    It listens on the pin's public ``when_changed(ticks, state)``. It is an
    `InputDevice` rather than a `Button`: a Button's hold thread takes up to a
    second to stop while the button is down, the race has no use for hold
    events, and a Button's own edge handler would drop the ticks.
    """

    def __init__(self, pin: Any, *, on_edge: PinEdge, pin_factory: Factory) -> None:
        super().__init__(pin, pull_up=True, pin_factory=pin_factory)
        self._on_edge = on_edge
        try:
            self.pin.bounce = None  # lgpio's debounce would stamp the edge late; `EdgeFilter` debounces instead
            self.pin.edges = "both"
            self.pin.when_changed = self._edge  # gpiozero keeps a weak reference: this device holds the method
        except Exception:
            self.close()
            raise

    @property
    def is_pressed(self) -> bool:
        """The line reads pressed right now (no debounce)."""
        return bool(self.is_active)

    def _edge(self, ticks: Any, state: Any) -> None:
        self._on_edge(ticks, not state)  # pulled up: the line reads low while the button is pressed


def _get(pins: Any, key: str, default: Any = None) -> Any:
    if isinstance(pins, Mapping):
        return pins.get(key, default)
    return getattr(pins, key, default)


class RaceButtons(CompositeDevice):
    """The players' race buttons (and the lights in them, and the buzzer).

    `pins` is a plain map (or an object with these attributes, such as the
    config's ``RaceConfig``)::

        {"buttons": [17, 27], "leds": [22, 23], "buzzer": 24}

    Button *i* belongs to the *i*-th seated player. LEDs and buzzer are
    optional. Each button connects its pin to ground (internal pull-up).

    A gpiozero `CompositeDevice` of every device it owns (the buttons, then
    the LEDs, then the buzzer); `buttons`, `leds` and `buzzer` name them by
    role. `close()` frees every pin; it is safe twice, and a ``with`` block
    calls it.
    """

    def __init__(self, pins: Any, *, pin_factory: Factory, settle_s: float = SETTLE_S) -> None:
        # First: gpiozero calls `close` from `__del__`, even on an object whose constructor failed.
        self._lock = threading.Lock()
        self._closed = False
        self._listeners: list[EdgeListener] = []
        self._devices: list[Device] = []  # every device made so far, closed if a later one cannot be
        if pin_factory is None:
            raise ValueError("RaceButtons needs a pin_factory (see hardware.pins.choose).")
        button_pins = list(_get(pins, "buttons") or ())
        if len(button_pins) < 2:
            raise ValueError(f"The race needs at least two button pins, not {button_pins!r}.")
        led_pins = list(_get(pins, "leds") or ())
        if led_pins and len(led_pins) != len(button_pins):
            raise ValueError(f"Give one LED pin per button ({len(button_pins)}), not {led_pins!r}.")
        self.pin_factory = pin_factory  # edges may arrive before gpiozero's own constructor has run
        self.pins = {"buttons": button_pins, "leds": led_pins, "buzzer": _get(pins, "buzzer")}
        self._epoch = pin_factory.ticks()
        self._edge_offset: float | None = None  # edge clock -> factory clock, measured on the first edge
        self._filters: list[EdgeFilter] = []
        self._changed: list[bool] = []
        try:
            self.buttons = tuple(
                self._made(RaceButton(pin, on_edge=self._edge_handler(index), pin_factory=pin_factory))
                for index, pin in enumerate(button_pins)
            )
            with self._lock:  # edges may already be arriving on gpiozero's thread
                self._filters = [EdgeFilter(settle_s, pressed=b.is_pressed) for b in self.buttons]
                self._changed = [False] * len(self.buttons)
            self.leds = tuple(self._made(LED(pin, pin_factory=pin_factory)) for pin in led_pins)
            buzzer = self.pins["buzzer"]
            self.buzzer = self._made(Buzzer(buzzer, pin_factory=pin_factory)) if buzzer is not None else None
        except Exception:
            self.close()
            raise
        super().__init__(*self._devices, pin_factory=pin_factory)

    def _made(self, device: Any) -> Any:
        self._devices.append(device)
        return device

    # -- edges ------------------------------------------------------------------------

    def _edge_handler(self, index: int) -> PinEdge:
        def on_edge(ticks: Any, pressed: bool) -> None:
            self._edge(index, ticks, pressed)

        return on_edge

    def _edge(self, index: int, ticks: Any, pressed: bool) -> None:
        """On gpiozero's thread: one raw edge of button `index`."""
        at = self.pin_factory.ticks_diff(ticks, self._epoch)
        with self._lock:
            if self._closed or index >= len(self._filters):
                return
            if self._edge_offset is None:
                self._edge_offset = self._measure_offset(at)
            at += self._edge_offset
            self._changed[index] = True
            changes = self._filters[index].edge(at, pressed)
            listeners = list(self._listeners)
        for is_pressed, when in changes:
            for listener in listeners:
                listener(index, is_pressed, when)

    def _measure_offset(self, at: float) -> float:
        gap = self.now() - at
        if abs(gap) <= CLOCK_MISMATCH_S:
            return 0.0
        log.warning(
            "race buttons: edge timestamps are %.1f s away from the pin factory's clock "
            "(another clock, e.g. CLOCK_REALTIME on an old kernel); correcting by that offset",
            gap,
        )
        return gap

    def subscribe(self, listener: EdgeListener) -> Callable[[], None]:
        """Call ``listener(index, pressed, at)`` on every debounced change; returns the unsubscribe function.

        It runs on gpiozero's thread (or a mock pin's caller): keep it short and
        never touch a widget from it.
        """
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def now(self) -> float:
        """The pin factory's clock, in seconds on the same scale as the edge times."""
        return float(self.pin_factory.ticks_diff(self.pin_factory.ticks(), self._epoch))

    def poll(self) -> None:
        """Report changes that chatter left pending once the lines have settled (for live display)."""
        now = self.now()
        with self._lock:
            if self._closed:
                return
            pending = [(i, change) for i, f in enumerate(self._filters) for change in f.poll(now)]
            listeners = list(self._listeners)
        for index, (is_pressed, when) in pending:
            for listener in listeners:
                listener(index, is_pressed, when)

    # -- state, for the test mode ----------------------------------------------------------

    @property
    def count(self) -> int:
        """How many buttons (racers) there are."""
        return len(self.buttons)

    @property
    def simulated(self) -> bool:
        """True on gpiozero's mock pins (a laptop, the tests): `simulate` may drive them."""
        return isinstance(self.pin_factory, MockFactory)

    def pressed(self) -> tuple[bool, ...]:
        """Each button's debounced state."""
        with self._lock:
            return tuple(f.pressed for f in self._filters)

    def held(self) -> list[int]:
        """Buttons that are down now (debounced: call `poll` first to settle a very short tap)."""
        return [i for i, pressed in enumerate(self.pressed()) if pressed]

    def changed(self) -> tuple[bool, ...]:
        """Whether each button has changed at least once since these devices were made."""
        with self._lock:
            return tuple(self._changed)

    def unchecked(self) -> list[int]:
        """Buttons never seen changing: not pressed yet in test mode, or not wired."""
        return [i for i, seen in enumerate(self.changed()) if not seen]

    # -- lights and sound -----------------------------------------------------------------

    def light(self, index: int | None, on: bool) -> None:
        """Turn button `index`'s LED (every LED if None) on or off."""
        if self._closed:
            return
        for i, led in enumerate(self.leds):
            if index is None or i == index:
                led.on() if on else led.off()

    def flash(self, index: int | None, *, times: int = 1, on_time: float = 0.15, off_time: float = 0.1) -> None:
        """Blink LED `index` (every LED if None) `times` times, in gpiozero's background thread."""
        if self._closed:
            return
        for i, led in enumerate(self.leds):
            if index is None or i == index:
                led.blink(on_time=on_time, off_time=off_time, n=times, background=True)

    def beep(self, *, times: int = 1, on_time: float = 0.08, off_time: float = 0.08) -> None:
        if self.buzzer is not None and not self._closed:
            self.buzzer.beep(on_time=on_time, off_time=off_time, n=times, background=True)

    def buzz(self, on: bool) -> None:
        if self.buzzer is not None and not self._closed:
            self.buzzer.on() if on else self.buzzer.off()

    def led_states(self) -> tuple[bool, ...]:
        if self._closed:
            return tuple(False for _ in self.leds)
        return tuple(bool(led.is_lit) for led in self.leds)

    def buzzer_state(self) -> bool:
        return bool(self.buzzer is not None and not self._closed and self.buzzer.is_active)

    # -- simulated hardware ----------------------------------------------------------------

    def simulate(self, index: int, pressed: bool) -> None:
        """Press or release button `index` on a mock pin: the same path as a real switch.

        Drives the gpiozero mock pin (``drive_low()`` is pressed: buttons pull
        their line to ground), so the edge travels pin → gpiozero → here.
        """
        if not self.simulated:
            raise RuntimeError("Only simulated buttons can be pressed from the screen.")
        if self._closed or not 0 <= index < self.count:
            return
        pin = self.buttons[index].pin
        pin.drive_low() if pressed else pin.drive_high()

    # -- closing -------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release every device and pin. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._listeners.clear()
        for device in self._devices:
            try:
                device.close()
            except Exception as error:  # one stuck device must not keep the others' pins
                log.warning("closing %r: %s", device, error)
        with contextlib.suppress(Exception):  # gpiozero closes each device again: a stuck one is logged above, once
            super().close()

    def __enter__(self) -> RaceButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
