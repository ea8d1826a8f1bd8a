"""How fast a change in the core reaches a player display, and how big a frame is.

Measured on a real Quin game with the real hub and an emulated display on a
pseudo-terminal: from the moment the session tells its observers about a
change of a player's identities (a flash taken back and put again with
undo/redo, which hides and reveals two identities) to the moment the writer
thread's ``write()`` of the new frame returns. Beside it, the baseline: a
bare pyserial ``write()`` of the same bytes on another pseudo-terminal.
Goals: under 5 ms, and frames small enough for 115200 baud to carry a full
screen in under 20 ms.

The handshake: how long a paired display waits, once the host has asked it
for its HELLO, until its player's private screen arrives (HELLO, CHALLENGE,
PROOF, SCREEN), against an unpaired display's wait for its pairing code on
the same host (HELLO, PAIR_CODE: the pairing without a handshake). Both are
timed on the display's side, over real pseudo-terminals, replug after replug.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Any

import serial

from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from companion.store import Store
from hardware.display import protocol
from hardware.display.emulator import DisplayCore, PtyDisplay
from hardware.display.hub import DisplayHub

ROUNDS = 400
WARM_UP = 20
BAUD = 115200
GOAL_MS = 5.0
WIRE_GOAL_MS = 20.0
SIZES = ((20, 4), (21, 8))
HANDSHAKE_ROUNDS = 30


def _line(label: str, value: str, baseline: str = "", goal: str = "") -> str:
    text = f"{label:<46} {value:>14}"
    if baseline:
        text += f"   baseline {baseline:>12}"
    if goal:
        text += f"   (goal {goal})"
    return text


def _wait(condition: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the display did not answer")
        time.sleep(0.001)


def _setup(player: str) -> dict[str, Any]:
    from companion.games.quin.examples import example_setup

    return example_setup(player)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _wire_ms(size: int) -> float:
    return size * 10 / BAUD * 1000  # 8 data bits + start + stop per byte


def _full_screen_frame(cols: int, rows: int) -> bytes:
    return protocol.encode_frame(protocol.SCREEN, protocol.pack_screen(["W" * cols] * rows))


def _baseline(frame: bytes, rounds: int) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def drain() -> None:
        while not stop.is_set():
            try:
                os.read(master, 4096)
            except OSError:
                return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    port = serial.serial_for_url(os.ttyname(slave), baudrate=BAUD)
    times = []
    try:
        for _ in range(rounds):
            t0 = time.perf_counter()
            port.write(frame)
            times.append(time.perf_counter() - t0)
    finally:
        port.close()
        stop.set()
        os.close(slave)
        os.close(master)
    return times


def run() -> list[str]:
    folder = Path(tempfile.mkdtemp(prefix="bench-display-"))
    try:
        return _run(folder) + _handshake(folder) + _flood(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class _TimedCore(DisplayCore):
    """A display that notes when each frame from the host reached it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrivals: list[tuple[int, float]] = []

    def _apply(self, kind: int, payload: bytes) -> bytes | None:
        self.arrivals.append((kind, time.perf_counter()))
        return super()._apply(kind, payload)


def _asked_to_shown(display: PtyDisplay, core: _TimedCore, ports: Path, shown: Any, rounds: int) -> list[float]:
    """Replug `display` `rounds` times; each time, from the host's ASK reaching it to `shown(core)`."""
    waits = []
    for number in range(rounds):
        display.unplug()
        core.arrivals.clear()
        display.plug(link=ports / f"port-{number}")
        _wait(lambda: shown(core))
        asked = next(t for kind, t in core.arrivals if kind == protocol.ASK)
        waits.append(core.arrivals[-1][1] - asked)
    return waits


def _handshake(folder: Path) -> list[str]:
    ports = folder / "ports"
    ports.mkdir()
    store = Store.open(folder / "handshake.db")
    session = Session.start(store, "quin", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(7))
    hub = DisplayHub(folder / "handshake-pairings.json", ports=[str(ports / "*")], scan_interval=0.01).start()
    paired_core, unpaired_core = _TimedCore("bench-paired", 21, 8), _TimedCore("bench-unpaired", 21, 8)
    try:
        hub.attach(session)
        paired = PtyDisplay(paired_core, link=ports / "first").plug()
        _wait(lambda: paired_core.pair_code is not None)
        hub.pair(paired_core.pair_code or "", "Ann")
        _wait(lambda: paired_core.text().startswith("Ann"))
        with_handshake = _asked_to_shown(
            paired, paired_core, ports, lambda core: core.text().startswith("Ann"), HANDSHAKE_ROUNDS
        )
        paired.close()
        unpaired = PtyDisplay(unpaired_core, link=ports / "other").plug()
        without = _asked_to_shown(
            unpaired, unpaired_core, ports, lambda core: core.pair_code is not None, HANDSHAKE_ROUNDS
        )
        unpaired.close()
    finally:
        hub.close()
        store.close()
    median, base = statistics.median(with_handshake), statistics.median(without)
    return [
        _line("asked → private screen, with handshake", f"{median * 1e3:.2f} ms", f"{base * 1e3:.2f} ms")
        + f"   ratio {median / base:5.2f}   (baseline: asked → pairing code, no handshake)",
    ]


def _run(folder: Path) -> list[str]:
    store = Store.open(folder / "games.db")
    session = Session.start(store, "quin", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(7))
    session.act(_setup("Ann"))
    session.act(_setup("Bo"))
    session.act({"type": "flash", "player": "Ann", "attacker": "2", "defender": "5"})

    changed_at: list[float] = []
    session.subscribe(lambda _s: changed_at.append(time.perf_counter()))  # before the hub: the clock starts first
    display = PtyDisplay(DisplayCore("bench-ann", 21, 8)).plug()
    hub = DisplayHub(folder / "pairings.json", ports=[display.path], scan_interval=0.05).start()
    latencies: list[float] = []
    sizes: list[int] = []
    try:
        hub.attach(session)
        _wait(lambda: display.core.pair_code is not None)
        hub.pair(display.core.pair_code or "", "Ann")
        _wait(lambda: display.core.text().startswith("Ann"))
        link = hub.displays()[0][0]
        for i in range(ROUNDS + WARM_UP):
            before = link.written
            before_bytes = link.stats.bytes_out
            session.undo() if i % 2 == 0 else session.redo()
            if not link.wait_written(before + 1, 5.0):
                raise TimeoutError("no frame was written")
            if i >= WARM_UP:
                latencies.append(link.last_written_at - changed_at[-1])
                sizes.append(link.stats.bytes_out - before_bytes)
        _wait(lambda: "Flash" in display.core.text())
        shown = display.core.text()
        frame_sample = _full_screen_frame(21, 8)
        base = _baseline(frame_sample, ROUNDS)
    finally:
        hub.close()
        display.close()
        store.close()

    median, p99 = statistics.median(latencies), _percentile(latencies, 0.99)
    b_median, b_p99 = statistics.median(base), _percentile(base, 0.99)
    out = [
        _line("identity change → frame written (median)", f"{median * 1e3:.2f} ms", f"{b_median * 1e3:.2f} ms", "< 5"),
        _line("identity change → frame written (p99)", f"{p99 * 1e3:.2f} ms", f"{b_p99 * 1e3:.2f} ms", "< 5"),
        _line("bytes per frame (median, 21×8 Quin view)", f"{statistics.median(sizes):.0f} B", "", ""),
    ]
    for cols, rows in SIZES:
        size = len(_full_screen_frame(cols, rows))
        out.append(
            _line(f"full {cols}×{rows} screen ({size} B) at 115200 baud", f"{_wire_ms(size):.1f} ms", "", "< 20")
        )
    verdict = "met" if p99 * 1e3 < GOAL_MS and _wire_ms(len(_full_screen_frame(21, 8))) < WIRE_GOAL_MS else "MISSED"
    out.append(_line("goals", verdict))
    assert shown  # the display really drew what was sent
    return out


if __name__ == "__main__":
    for text in run():
        print(text)


FLOOD = 20_000


def _flood(folder: Path) -> list[str]:
    """CPU for 20,000 HELLOs from a paired display (each gets its screen again), against 20,000 PONGs (ignored)."""
    ports = folder / "flood-ports"
    ports.mkdir()
    store = Store.open(folder / "flood.db")
    session = Session.start(store, "quin", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(7))
    hub = DisplayHub(folder / "flood-pairings.json", ports=[str(ports / "*")], scan_interval=0.05).start()
    core = DisplayCore("bench-flood", 21, 8)
    display = PtyDisplay(core, link=ports / "flood").plug()
    try:
        hub.attach(session)
        _wait(lambda: core.pair_code is not None)
        hub.pair(core.pair_code or "", "Ann")
        _wait(lambda: core.text().startswith("Ann"))
        link = hub.displays()[0][0]

        def cpu_for(frame: bytes) -> float:
            before, frames = time.process_time(), link.stats.frames
            for _ in range(FLOOD // 1000):
                display.write(frame * 1000)
            _wait(lambda: link.stats.frames >= frames + FLOOD, timeout=120)
            return time.process_time() - before

        pongs = cpu_for(protocol.encode_frame(protocol.PONG, b"x"))
        hellos = cpu_for(core.hello_frame())
    finally:
        hub.close()
        display.close()
        store.close()
    return [
        _line(f"{FLOOD:,} HELLOs: CPU of this process", f"{hellos:.2f} s", f"{pongs:.2f} s")
        + f"   ratio {hellos / pongs:5.2f}   (baseline: as many PONGs, which cost nothing but reading)"
    ]
