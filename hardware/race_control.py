"""One race on the players' buttons: countdown and GO on the lights and buzzer, presses into the race.

`RaceController` runs one race (`companion.race.Race`) on race buttons
(`hardware.race_buttons.RaceButtons`, or anything that does what `Buttons`
says): the countdown and GO on the lights and buzzer, presses into the race,
and every change handed to the UI through the `call_soon` dispatcher it is
given. It never touches a widget, and it opens no device: it is handed the
buttons the wiring opened (`ui.wiring`).
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.dispatch import Dispatcher
from companion.race import DEFAULT_COUNTDOWN, DEFAULT_DELAY_RANGE, DEFAULT_TIE_WINDOW_MS, Phase, Race, RaceError

log = logging.getLogger(__name__)

EdgeListener = Callable[[int, bool, float], None]  # (button index, pressed, edge time in seconds), as RaceButtons says


class Buttons(Protocol):
    """What a race needs of its buttons (`hardware.race_buttons.RaceButtons` has it all)."""

    @property
    def count(self) -> int: ...
    def subscribe(self, listener: EdgeListener) -> Callable[[], None]: ...
    def now(self) -> float: ...
    def poll(self) -> None: ...
    def pressed(self) -> tuple[bool, ...]: ...
    def held(self) -> list[int]: ...
    def changed(self) -> tuple[bool, ...]: ...
    def unchecked(self) -> list[int]: ...
    def light(self, index: int | None, on: bool) -> None: ...
    def flash(self, index: int | None, *, times: int = 1, on_time: float = 0.15, off_time: float = 0.1) -> None: ...
    def beep(self, *, times: int = 1, on_time: float = 0.08, off_time: float = 0.08) -> None: ...
    def buzz(self, on: bool) -> None: ...


@dataclass(frozen=True)
class RaceSnapshot:
    """What the screen shows of a race, handed over through the dispatcher (immutable)."""

    race: Race
    pressed: tuple[bool, ...]  # each racer's button, debounced, right now
    checked: tuple[bool, ...]  # each racer's button has been seen working
    problems: tuple[str, ...]  # why the race cannot start yet (a held or unchecked button)
    version: int  # increases with every snapshot; an older one arriving late can be dropped


class RaceController:
    """One race on `buttons` between `racers` (racer *i* presses button *i*).

    Every change reaches the UI as ``call_soon(lambda: on_change(snapshot))``;
    `call_soon` is the app's dispatcher (Kivy's Clock) or, in tests, a
    function that runs it at once. Countdown and GO run on a thread of our
    own; presses arrive on gpiozero's. `start`, `stop`, `again` and `close`
    may be called from any thread.
    """

    def __init__(
        self,
        buttons: Buttons,
        racers: Sequence[str],
        *,
        call_soon: Dispatcher,
        on_change: Callable[[RaceSnapshot], None],
        rng: random.Random | None = None,
        tie_window_ms: float = DEFAULT_TIE_WINDOW_MS,
        countdown_from: int = DEFAULT_COUNTDOWN,
        count_interval: float = 1.0,
        delay_range: tuple[float, float] = DEFAULT_DELAY_RANGE,
    ) -> None:
        if len(racers) > buttons.count:
            raise RaceError(f"There are {buttons.count} race buttons for {len(racers)} players.")
        self.buttons = buttons
        self.race = Race.new(
            racers, tie_window_ms=tie_window_ms, countdown_from=countdown_from, delay_range=delay_range
        )
        self.history: list[Race] = []  # finished races (ties included), oldest first
        self._call_soon = call_soon
        self._on_change = on_change
        self._rng = rng if rng is not None else random.SystemRandom()
        self._count_interval = count_interval
        self._lock = threading.RLock()
        self._version = 0
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._unsubscribe = buttons.subscribe(self._button_changed)
        self._publish()

    @property
    def racers(self) -> tuple[str, ...]:
        return self.race.racers

    # -- before the race -----------------------------------------------------------------

    def problems(self) -> list[str]:
        """Sentences for buttons that would spoil the race: held down now, or never seen working."""
        names = self.racers
        held = [i for i in self.buttons.held() if i < len(names)]
        unchecked = [i for i in self.buttons.unchecked() if i < len(names) and i not in held]
        found = [f"{names[i]}'s button is held down: let go (nobody pressing? check its wiring)." for i in held]
        found += [
            f"{names[i]}'s button has not been pressed yet: press it once (no reaction? check its wiring)."
            for i in unchecked
        ]
        return found

    def refresh(self) -> None:
        """Settle pending button states and publish a fresh snapshot (the screen's test mode calls this)."""
        self.buttons.poll()
        with self._lock:
            self._publish()

    # -- the race ----------------------------------------------------------------------

    def start(self, *, run: bool = True) -> list[str]:
        """Start the countdown; returns the problems that prevent it (then nothing starts).

        With ``run=False`` no countdown thread runs: the caller steps with
        `count_down` and `go` (tests, the benchmark).
        """
        self.buttons.poll()  # a tap shorter than the settle time must not count as held
        problems = self.problems()
        with self._lock:
            if self._closed:
                return ["The race buttons are closed."]
            if problems or self.race.phase is not Phase.ARMED:
                self._publish()
                return problems
            self.race = self.race.start(self._rng, at=self.buttons.now())
            self._cancel = threading.Event()
            cancel = self._cancel
            self.buttons.light(None, False)
            self._publish()
        if run:
            self._thread = threading.Thread(target=self._countdown, args=(cancel,), name="race-countdown", daemon=True)
            self._thread.start()
        return []

    def count_down(self) -> None:
        """Show the next number (beep and flash); after 1 comes the hidden wait."""
        with self._lock:
            if self._closed or self.race.phase is not Phase.COUNTDOWN:
                return
            self.race = self.race.count_down()
            if self.race.phase is Phase.COUNTDOWN:
                self.buttons.flash(None)
                self.buttons.beep()
            self._publish()

    def go(self) -> None:
        """Give GO now: lights and buzzer on, then stamp the moment. Skips what is left of the countdown."""
        with self._lock:
            while self.race.phase is Phase.COUNTDOWN:
                self.race = self.race.count_down()
            if self._closed or self.race.phase is not Phase.SET:
                return
            self.buttons.light(None, True)
            self.buttons.buzz(True)
            # Stamped after the signal is on: a press cannot count before GO could be seen.
            self.race = self.race.go(self.buttons.now())
            self._publish()
            self.buttons.beep(on_time=0.4)  # already sounding: this only ends it after 0.4 s

    def stop(self) -> None:
        """Stop now: decide on the presses so far, or go back to waiting for Start."""
        with self._lock:
            self._cancel.set()
            self.race = self.race.stop()
            self._publish()
            self._after_change()

    def again(self) -> None:
        """A fresh race between the same players (after a tie, or to race once more)."""
        with self._lock:
            self._cancel.set()
            if self.race.phase is Phase.DONE:
                self.history.append(self.race)
            self.race = self.race.again()
            self.buttons.light(None, False)
            self.buttons.buzz(False)
            self._publish()

    def _countdown(self, cancel: threading.Event) -> None:
        try:
            with self._lock:  # lights and sound change only under the lock: one writer at a time
                if not cancel.is_set():
                    self.buttons.flash(None)
                    self.buttons.beep()
            while self.race.phase is Phase.COUNTDOWN:
                if cancel.wait(self._count_interval):
                    return
                with self._lock:  # checked under the lock: a newer attempt is never stepped by this thread
                    if cancel.is_set():
                        return
                    self.count_down()
            delay = self.race.delay or 0.0
            if cancel.wait(delay):
                return
            with self._lock:
                if not cancel.is_set():
                    self.go()
        except Exception:  # a countdown that dies silently would leave the table waiting
            log.exception("race countdown failed")

    # -- presses, on gpiozero's thread ------------------------------------------------------

    def _button_changed(self, index: int, pressed: bool, at: float) -> None:
        with self._lock:
            if self._closed or index >= len(self.racers):
                return
            before = self.race
            if pressed:
                self.race = before.press(self.racers[index], at)
            self._publish()  # first: the result reaches the UI before any light or sound is set
            if self.race is not before:
                self._after_change(before)
            elif before.phase is Phase.ARMED:
                self.buttons.light(index, pressed)  # test mode: the light follows the button

    def _after_change(self, before: Race | None = None) -> None:
        """Lights and sound for what just happened; stop the countdown if the attempt ended."""
        race = self.race
        if race.phase in (Phase.ARMED, Phase.DONE):
            self._cancel.set()
            self.buttons.buzz(False)
        if before is not None and len(race.false_starts) > len(before.false_starts):
            culprit = self.racers.index(race.false_starts[-1].racer)
            self.buttons.light(None, False)
            self.buttons.flash(culprit, times=4, on_time=0.1, off_time=0.1)
            self.buttons.beep(times=2, on_time=0.15, off_time=0.1)
        if race.phase is Phase.GO and before is not None and len(race.presses) > len(before.presses):
            self.buttons.light(self.racers.index(race.presses[-1].racer), False)
        if race.phase is Phase.DONE and race.result is not None and (before is None or before.phase is not Phase.DONE):
            self.buttons.light(None, False)
            if race.result.winner is not None:
                self.buttons.flash(self.racers.index(race.result.winner), times=3)
            else:
                self.buttons.flash(None, times=2)

    def _publish(self) -> None:
        """Hand a snapshot to the UI. Called with the lock held, so snapshots leave in order."""
        if self._closed:
            return
        self._version += 1
        names = self.racers
        pressed = self.buttons.pressed()[: len(names)]
        checked = self.buttons.changed()[: len(names)]
        problems = tuple(self.problems()) if self.race.phase is Phase.ARMED else ()
        snapshot = RaceSnapshot(self.race, pressed, checked, problems, self._version)
        on_change = self._on_change
        self._call_soon(lambda: on_change(snapshot))

    # -- closing ----------------------------------------------------------------------------------

    def close(self) -> None:
        """Stop listening and stop the countdown; lights off. Safe to call twice. The buttons stay open."""
        with self._lock:
            if self._closed:
                return
            self._cancel.set()
            self._unsubscribe()
            self.buttons.light(None, False)
            self.buttons.buzz(False)
            self._closed = True
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)

    def __enter__(self) -> RaceController:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
