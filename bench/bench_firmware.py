"""How fast the display's firmware draws a frame, under MicroPython as on a Pico.

The very ``firmware/main.py`` runs under MicroPython's Unix port with its
stand-in board (`hardware.display.firmware_process.FirmwareDisplay`): from
the moment the last byte of a SCREEN frame is written into its serial port to
the moment its OLED's ``show()`` has the framebuffer drawn (its "drawn"
signal, received by the harness). Beside it, the baseline: the same `Device`
class under CPython, fed the same bytes at once, to its ``show()``. The
screens are the pages of a Quin player's view at the firmware's 16×8.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from hardware.display import protocol
from hardware.display.firmware.main import COLS, ROWS, Device, OledScreen
from hardware.display.firmware_process import FirmwareDisplay, FirmwareMissing

ROUNDS = 300
WARM_UP = 20


def _line(label: str, value: str, baseline: str = "", ratio: float | None = None) -> str:
    text = f"{label:<46} {value:>14}"
    if baseline:
        text += f"   baseline {baseline:>12}"
    if ratio is not None:
        text += f"   ratio {ratio:5.2f}"
    return text


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _frames(folder: Path) -> list[bytes]:
    """Every page of Ann's view in a Quin game under way, as the host sends them to a 16×8 display."""
    from companion.dice import RandomDice
    from companion.game import Options
    from companion.games.quin.examples import example_setup
    from companion.session import Session
    from companion.small_display import pages_for
    from companion.store import Store

    with Store.open(folder / "games.db") as store:
        session = Session.start(store, "quin", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(7))
        session.act(example_setup("Ann"))
        session.act(example_setup("Bo"))
        session.act({"type": "flash", "player": "Ann", "attacker": "8", "defender": "2"})
        pages = pages_for(session.own_view("Ann"), COLS, ROWS, session.game.display)
    return [protocol.encode_frame(protocol.SCREEN, protocol.pack_screen(page)) for page in pages]


class _Oled:
    """What `OledScreen` calls on the OLED, with nothing behind it: the baseline's screen."""

    def __init__(self) -> None:
        self.shown_at = 0.0

    def fill(self, colour: int) -> None:
        pass

    def text(self, string: str, x: int, y: int) -> None:
        pass

    def show(self) -> None:
        self.shown_at = time.perf_counter()


def _cpython(frames: list[bytes]) -> list[float]:
    oled = _Oled()
    device: Any = Device("pico-bench", OledScreen(oled), lambda _data: None)
    times = []
    for i in range(ROUNDS + WARM_UP):
        frame = frames[i % len(frames)]
        t0 = time.perf_counter()
        device.feed(frame)
        if i >= WARM_UP:
            times.append(oled.shown_at - t0)
    return times


def _micropython(frames: list[bytes], folder: Path) -> list[float]:
    times = []
    with FirmwareDisplay(folder / "flash") as board:
        if not board.wait_for(lambda b: b.draws > 0, 10):
            raise TimeoutError("the firmware did not start")
        for i in range(ROUNDS + WARM_UP):
            frame = frames[i % len(frames)]
            before = board.draws
            board.write_from_host(frame)
            t0 = time.perf_counter()  # the write has returned: the last byte is in the port
            if not board.wait_for(lambda b, before=before: b.draws > before, 5):
                raise TimeoutError("the firmware did not draw the frame")
            if i >= WARM_UP:
                times.append(board.drawn_at - t0)
            board.read_as_host()  # nothing to read, but keep the port's other direction empty
        assert board.text(), "the firmware drew nothing"
    return times


def run() -> list[str]:
    folder = Path(tempfile.mkdtemp(prefix="bench-firmware-"))
    try:
        frames = _frames(folder)
        ours = _micropython(frames, folder)
    except FirmwareMissing as error:
        return [_line("firmware under MicroPython", "not measured"), f"  {error}"]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    base = _cpython(frames)
    median, b_median = statistics.median(ours), statistics.median(base)
    p99, b_p99 = _percentile(ours, 0.99), _percentile(base, 0.99)
    size = statistics.median(len(frame) for frame in frames)
    return [
        _line(
            "SCREEN's last byte → OLED drawn (median)",
            f"{median * 1e3:.2f} ms",
            f"{b_median * 1e3:.3f} ms",
            median / b_median,
        ),
        _line("SCREEN's last byte → OLED drawn (p99)", f"{p99 * 1e3:.2f} ms", f"{b_p99 * 1e3:.3f} ms", p99 / b_p99),
        _line("  (MicroPython's Unix port; baseline: the same", f"{size:.0f} B frames", ""),
        _line("   Device under CPython, fed the frame at once)", f"{ROUNDS} rounds", ""),
    ]


if __name__ == "__main__":
    for text in run():
        print(text)
