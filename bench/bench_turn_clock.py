"""How long the turn clock takes to pass on: a mock pin edge to the clock switched to the next player.

Our path is pin → gpiozero → `RaceButton` (edge ticks) → `EdgeFilter`
(debounce) → `TableButtons` → ``call_soon`` (the UI's dispatcher, run at once
here) → `TurnClockPresenter.press` → `Session.act` (the rules decide, the
store writes the move) → the next player's time runs. It is measured from the
``drive_low()`` of the running player's own button to the moment the session
names the next player, beside a bare gpiozero ``Button.when_pressed``
callback on the same mock pin, as `bench_race` does: 10,000 presses on a games
file in memory (the code's own path), and 1,000 on a real games file (with
the write to the card that every move waits for).

The mock pins' clock is virtual (``gpiozero.pins.mock.monotonic`` replaced for
the run), so the 20 ms debounce between presses costs no real time.
"""

from __future__ import annotations

import gc
import statistics
import tempfile
import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from bench.bench_race import PINS, WARM_UP, _bare, _p99, _us, _virtual_clock
from companion.dispatch import immediate
from companion.game import Options
from companion.session import Session
from companion.store import Store
from hardware.race_buttons import RaceButtons
from hardware.table_buttons import TableButtons
from tests.support import ManualClock
from ui.presenters.turn_clock import TurnClockPresenter

PRESSES = 10_000
ON_FILE = 1_000


def _ours(factory: MockFactory, clock: ManualClock, store: Store, presses: int) -> list[int]:
    """drive_low() of the running player's button to the session naming the next player."""
    session_clock = ManualClock()
    session = Session.start(store, "turn-clock", Options.for_names("Ann", "Bo", time="total 60m"), clock=session_clock)
    presenter = TurnClockPresenter(session)
    switched = [0]

    with RaceButtons(PINS, pin_factory=factory) as buttons, TableButtons(buttons, call_soon=immediate) as table:

        def pressed(index: int) -> None:
            action = presenter.press(index, table.count)
            if action is not None:
                session.act(action)
                switched[0] = time.perf_counter_ns()

        table.when_pressed = pressed
        pins = [b.pin for b in buttons.buttons]
        pins[0].drive_low()  # the first press starts Ann's clock
        clock.advance(0.1)
        pins[0].drive_high()
        latencies: list[int] = []
        for i in range(presses + WARM_UP):
            clock.advance(0.5)
            session_clock.advance(0.5)
            seat = i % 2  # the running player's own button
            before = session.current_player
            start = time.perf_counter_ns()
            pins[seat].drive_low()
            assert session.current_player != before
            if i >= WARM_UP:
                latencies.append(switched[0] - start)
            clock.advance(0.1)
            pins[seat].drive_high()
    return latencies


def run(presses: int = PRESSES, on_file: int = ON_FILE) -> list[str]:
    """Measure the bare callback and our path in memory and on a real file; one line each, then the ratio."""
    with _virtual_clock() as clock:
        factory = MockFactory()
        try:
            gc.collect()
            bare = _bare(factory, clock, presses)
            gc.collect()
            with Store.in_memory() as store:
                ours = _ours(factory, clock, store, presses)
            with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder) / "games.db") as store:
                gc.collect()
                filed = _ours(factory, clock, store, on_file)
        finally:
            factory.close()
    bare_median, bare_p99 = statistics.median(bare), _p99(bare)
    our_median, our_p99 = statistics.median(ours), _p99(ours)
    return [
        f"turn clock: mock pin edge -> next player's time running, {presses} presses, games file in memory: "
        f"median {_us(our_median)}, p99 {_us(our_p99)}",
        f"turn clock: the same on a real games file, {on_file} presses: "
        f"median {_us(statistics.median(filed))}, p99 {_us(_p99(filed))}",
        f"turn clock: bare gpiozero when_pressed on the same mock pin: median {_us(bare_median)}, p99 {_us(bare_p99)}",
        f"turn clock: ratio (in memory / bare): median {our_median / bare_median:.1f}x, p99 {our_p99 / bare_p99:.1f}x; "
        f"the clock's path adds {_us(our_p99 - bare_p99)} at p99",
    ]


if __name__ == "__main__":
    print("\n".join(run()))
