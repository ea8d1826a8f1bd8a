"""The table's buttons and the lights in them, for any game or tool: a press in, a light out.

The pins are the race's (`hardware.race_buttons.RaceButtons`: one gpiozero
device per pin, and a pin can be opened once), so `TableButtons` is a small
layer over them: every debounced press is handed to `when_pressed(index)`
through the dispatcher it is given (Kivy's Clock in the app, at once in tests),
never on gpiozero's thread; `light_only` lights one button's LED (or every
one) and puts the others out; `blink` and `beep` call for attention. It knows
no game: the screen it is handed to says what a press means.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from companion.dispatch import Dispatcher
from hardware.race_buttons import RaceButtons

Press = Callable[[int], None]  # (button index)


class TableButtons:
    """Presses of `buttons` handed to `when_pressed` on the UI's side of `call_soon`; their LEDs lit on request.

    `owns`: these buttons were opened for this layer alone (simulated ones), so `close` closes them too; the
    table's own stay open for the next screen. `close` is safe twice, and a ``with`` block calls it.
    """

    def __init__(self, buttons: RaceButtons, *, call_soon: Dispatcher, owns: bool = False) -> None:
        self.buttons = buttons
        self._call_soon = call_soon
        self._owns = owns
        self._closed = False
        self.when_pressed: Press | None = None
        self._unsubscribe = buttons.subscribe(self._edge)

    def _edge(self, index: int, pressed: bool, _at: float) -> None:
        """On gpiozero's thread: a debounced change. A press (not a release) goes to the UI's side."""
        handler = self.when_pressed
        if pressed and handler is not None and not self._closed:
            self._call_soon(lambda: self._deliver(handler, index))

    def _deliver(self, handler: Press, index: int) -> None:
        if not self._closed and self.when_pressed is handler:  # a press that arrives after the screen went is dropped
            handler(index)

    @property
    def count(self) -> int:
        """How many buttons the table has."""
        return self.buttons.count

    @property
    def simulated(self) -> bool:
        return self.buttons.simulated

    def light_only(self, index: int | None, *, every: bool = False) -> None:
        """Light button `index`'s LED and put the others out (`every`: light them all; None: all out)."""
        if self._closed:
            return
        for i in range(len(self.buttons.leds)):
            self.buttons.light(i, every or i == index)

    def lit(self) -> tuple[bool, ...]:
        """Each button's LED, lit or not (a blink shows as whatever it is at that moment)."""
        return self.buttons.led_states()

    def blink(self, index: int | None, *, times: int = 3) -> None:
        """Blink LED `index` (every LED if None) `times` times, in gpiozero's background thread."""
        if not self._closed:
            self.buttons.flash(index, times=times)

    def beep(self, *, times: int = 1) -> None:
        """The table's buzzer, if one is wired."""
        if not self._closed:
            self.buttons.beep(times=times)

    def press(self, index: int) -> None:
        """Press and release button `index` on simulated pins: the same path as a real switch."""
        self.buttons.simulate(index, True)
        self.buttons.simulate(index, False)

    def close(self) -> None:
        """Stop handing presses on and put the lights out (and close the buttons if they are ours). Safe twice."""
        if self._closed:
            return
        self.light_only(None)
        self._closed = True
        self.when_pressed = None
        self._unsubscribe()
        if self._owns:
            with contextlib.suppress(Exception):
                self.buttons.close()

    def __enter__(self) -> TableButtons:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
