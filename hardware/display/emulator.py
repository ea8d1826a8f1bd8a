"""A desktop stand-in for a player display, speaking the real protocol over a pseudo-terminal.

`DisplayCore` is the device without any I/O: feed it bytes from the host, it
updates its screen and answers; press a key, it gives the frame to send.
`PtyDisplay` puts a core on a real pseudo-terminal (`os.openpty`): the host
opens the slave path as if it were a USB serial port. `unplug()` closes the
terminal (the host sees the port vanish) and `plug()` opens a new one, on a
new path, as a re-plugged device would get.

``companion display-emulator`` runs `main`: it prints the port path, then
either opens a window (``ui.display_emulator``, when Kivy can start) or, with
``--headless``, prints each new screen and reads key names from stdin.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import sys
import threading
import time
import tty
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path

from companion import paths
from companion.small_display import wrap
from hardware.display import protocol

DEFAULT_KEYS = ("up", "down", "ok", "back")
DEVICE_ACCEPTS = frozenset(
    {
        protocol.ASK,
        protocol.SCREEN,
        protocol.REGION,
        protocol.PAIR_CODE,
        protocol.PING,
        protocol.CHALLENGE,
        protocol.BIND,
    }
)


def pairing_lines(code: str, cols: int, rows: int) -> list[str]:
    """The pairing screen laid out for `cols`×`rows`: every word whole (issue 21: a 16-column
    emulator showed "Pair this displa"), the blank line between them only where there is room."""
    blocks = [wrap("Pair this display", cols), wrap(f"Code: {' '.join(code)}", cols), wrap("Tap your name.", cols)]
    lines = [*blocks[0], "", *blocks[1], *blocks[2]]
    if len(lines) > rows:  # a narrow, short screen: the code and the request before the spacing
        lines = [line for block in blocks for line in block]
    return lines


class DisplayCore:
    """The display's logic: screen buffer, regions, pairing code, keys, its pairing key. Thread-safe.

    Like the firmware, it keeps the key a BIND gives it (in `key_file`, if
    given: its "flash", which survives unplugging) and answers each CHALLENGE
    with its PROOF; a core made with another identity's name but without its
    key is what an impostor looks like to the host.
    """

    def __init__(
        self,
        identity: str,
        cols: int = 20,
        rows: int = 4,
        keys: Sequence[str] = DEFAULT_KEYS,
        *,
        version: int = protocol.VERSION,
        key: bytes | None = None,
        key_file: str | os.PathLike[str] | None = None,
    ) -> None:
        self.identity = identity
        self.key_file = Path(key_file) if key_file is not None else None
        if key is None and self.key_file is not None and self.key_file.exists():
            key = self.key_file.read_bytes()
        self.key = key
        self.cols = cols
        self.rows = rows
        self.keys = tuple(keys)
        self.version = version  # another value makes a device that speaks a different protocol
        self.lines: list[str] = [""] * rows
        self.regions: dict[str, tuple[int, int, int, str]] = {}
        self.pair_code: str | None = None
        self.received: deque[tuple[int, bytes]] = deque(maxlen=10_000)  # every accepted frame, for tests
        self.errors: dict[str, int] = {}
        self.changes = 0
        self._splitter = protocol.FrameSplitter()
        self._changed = threading.Condition()

    # -- what it shows ----------------------------------------------------------

    def screen(self) -> list[str]:
        """The rows as a person would read them: the pairing screen, or the text with its regions."""
        with self._changed:
            if self.pair_code is not None:
                lines = pairing_lines(self.pair_code, self.cols, self.rows)
            else:
                lines = list(self.lines)
                for row, col, width, text in self.regions.values():
                    if 0 <= row < self.rows:
                        line = lines[row].ljust(col)
                        lines[row] = (line[:col] + text[:width].ljust(width) + line[col + width :]).rstrip()
        return [line[: self.cols] for line in lines[: self.rows]] + [""] * max(self.rows - len(lines), 0)

    def text(self) -> str:
        return "\n".join(self.screen())

    def reset(self) -> None:
        """Power-up state: a blank screen, as after being unplugged and plugged in again."""
        with self._changed:
            self.lines = [""] * self.rows
            self.regions.clear()
            self.pair_code = None
            self._splitter = protocol.FrameSplitter()
            self.changes += 1
            self._changed.notify_all()

    def wait_for(self, predicate: Callable[[DisplayCore], bool], timeout: float = 5.0) -> bool:
        """Wait until `predicate(self)` holds after some change; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def wait_for_text(self, needle: str, timeout: float = 5.0) -> bool:
        return self.wait_for(lambda core: needle in core.text(), timeout)

    # -- what it says -----------------------------------------------------------

    def hello_frame(self) -> bytes:
        payload = protocol.pack_hello(self.identity, self.cols, self.rows, self.keys)
        return protocol.encode_frame(protocol.HELLO, payload, version=self.version)

    def key_frame(self, key: str) -> bytes:
        if key not in self.keys:
            raise ValueError(f"this display has no key {key!r}; it has {', '.join(self.keys)}")
        return protocol.encode_frame(protocol.KEY, protocol.pack_text(key), version=self.version)

    # -- what it hears ------------------------------------------------------------

    def feed(self, data: bytes) -> list[bytes]:
        """Take bytes from the host; returns the frames to answer with."""
        replies: list[bytes] = []
        with self._changed:
            before = self._splitter.oversize
            frames = self._splitter.feed(data)
            if self._splitter.oversize != before:
                self._count(protocol.OVERSIZE)
            for raw in frames:
                try:
                    kind, payload = self._decode(raw)
                    reply = self._apply(kind, payload)
                except protocol.FrameError as error:
                    self._count(error.kind)
                    continue
                self.received.append((kind, payload))
                if reply is not None:
                    replies.append(reply)
            self.changes += 1
            self._changed.notify_all()
        return replies

    @staticmethod
    def _keep_key(path: Path, key: bytes) -> None:
        # As the firmware does in flash: a new file renamed over the old, never half a key.
        path.parent.mkdir(parents=True, exist_ok=True)
        new = path.with_name(path.name + ".new")
        fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key)
        os.replace(new, path)

    def _decode(self, raw: bytes) -> tuple[int, bytes]:
        # A core made to speak another version (an outdated display) reads frames of that version only.
        try:
            decoded = protocol.decode_frame(raw, DEVICE_ACCEPTS)
        except protocol.FrameError as error:
            if error.kind == protocol.WRONG_VERSION and error.version == self.version and error.type in DEVICE_ACCEPTS:
                return error.type, error.payload
            raise
        if self.version != protocol.VERSION:
            detail = f"version {protocol.VERSION}, this display speaks {self.version}"
            raise protocol.FrameError(protocol.WRONG_VERSION, detail)
        return decoded

    def _count(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def _apply(self, kind: int, payload: bytes) -> bytes | None:
        if kind == protocol.ASK:
            return self.hello_frame()
        if kind == protocol.PING:
            return protocol.encode_frame(protocol.PONG, payload[:8], version=self.version)
        if kind == protocol.CHALLENGE:
            proof = protocol.prove(self.key, payload) if self.key is not None else b""
            return protocol.encode_frame(protocol.PROOF, proof, version=self.version)
        if kind == protocol.BIND:
            if len(payload) != protocol.KEY_SIZE:
                raise protocol.FrameError(protocol.MALFORMED, "a key of the wrong size")
            self.key = bytes(payload)
            if self.key_file is not None:
                self._keep_key(self.key_file, self.key)
        if kind == protocol.SCREEN:
            lines = protocol.unpack_screen(payload)
            self.lines = ([line[: self.cols] for line in lines] + [""] * self.rows)[: self.rows]
            self.regions.clear()
            self.pair_code = None
        elif kind == protocol.REGION:
            key, row, col, width, text = protocol.unpack_region(payload)
            self.regions[key] = (row, col, width, text)
        elif kind == protocol.PAIR_CODE:
            code = protocol.unpack_text(payload)
            self.pair_code = code or None
        return None


class PtyDisplay:
    """A `DisplayCore` on a real pseudo-terminal. A context manager; `close()` is safe twice.

    `link` (optional) is a symlink path made to point at the terminal while
    plugged, like ``/dev/serial/by-id/…``; `plug(link=…)` may move it.
    """

    def __init__(self, core: DisplayCore, *, link: str | os.PathLike[str] | None = None) -> None:
        self.core = core
        self.link = Path(link) if link is not None else None
        self.slave_path: str | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._wake: tuple[int, int] | None = None
        self._thread: threading.Thread | None = None
        self._write_lock = threading.Lock()
        self.on_change: Callable[[DisplayCore], None] | None = None

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

    def plug(self, *, link: str | os.PathLike[str] | None = None) -> PtyDisplay:
        """Open a new pseudo-terminal (a new path) and say HELLO on it."""
        if self.plugged:
            self.unplug()
        if link is not None:
            self.link = Path(link)
        self.core.reset()
        master, slave = os.openpty()
        # Raw from the start: no echo, no newline translation, even before the host opens it.
        tty.setraw(slave)
        self._master, self._slave = master, slave
        self.slave_path = os.ttyname(slave)
        if self.link is not None:
            self.link.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
            self.link.symlink_to(self.slave_path)
        self._wake = os.pipe()
        self._thread = threading.Thread(target=self._read_loop, args=(master, self._wake[0]), daemon=True)
        self._thread.name = f"display-emulator {self.core.identity}"
        self._thread.start()
        self.write(b"\x00" + self.core.hello_frame())  # the zero ends any half frame still on the line
        return self

    def reboot(self) -> None:
        """Restart on the same port, as the firmware does: a blank screen, then a zero byte and HELLO."""
        self.core.reset()
        self.write(b"\x00" + self.core.hello_frame())

    def unplug(self) -> None:
        """Close the terminal: to the host, the device is gone."""
        if self._master is None:
            return
        assert self._wake is not None
        os.write(self._wake[1], b"x")
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
        with self._write_lock:
            for fd in (self._master, self._slave, *self._wake):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None
            self._wake = None
            self._thread = None

    def write(self, data: bytes) -> None:
        """Send raw bytes to the host (frames, or garbage in the fuzz tests)."""
        with self._write_lock:
            if self._master is None:
                raise RuntimeError("the display is unplugged")
            view = memoryview(data)
            while view:
                written = os.write(self._master, view)
                view = view[written:]

    def press(self, key: str) -> None:
        self.write(self.core.key_frame(key))

    def _read_loop(self, master: int, wake: int) -> None:
        while True:
            try:
                ready, _, _ = select.select([master, wake], [], [])
            except (OSError, ValueError):
                return
            if wake in ready:
                return
            try:
                data = os.read(master, 4096)
            except OSError:
                return  # the terminal is closing
            if not data:
                return
            for reply in self.core.feed(data):
                with contextlib.suppress(OSError, RuntimeError):
                    self.write(reply)
            if self.on_change is not None:
                self.on_change(self.core)

    def close(self) -> None:
        self.unplug()

    def __enter__(self) -> PtyDisplay:
        if not self.plugged:
            self.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def parse_size(text: str) -> tuple[int, int]:
    """``"20x4"`` → (20, 4)."""
    try:
        cols, rows = (int(part) for part in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 20x4") from None
    if not (1 <= cols <= 255 and 1 <= rows <= 255):
        raise argparse.ArgumentTypeError("columns and rows must be between 1 and 255")
    return cols, rows


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion display-emulator",
        description="Pretend to be a player display on a pseudo-terminal; prints the port to give the companion.",
    )
    parser.add_argument("--identity", default=None, help="the device identity (default: a new random one)")
    parser.add_argument("--size", type=parse_size, default=(20, 4), help="screen columns x rows (default 20x4)")
    parser.add_argument("--keys", default=",".join(DEFAULT_KEYS), help="key names, comma-separated")
    parser.add_argument(
        "--link",
        default=None,
        help="the name to give the port (like /dev/serial/by-id/…); default: in the folder where the app, "
        "on simulated hardware, looks for emulated displays",
    )
    parser.add_argument("--headless", action="store_true", help="no window: print screens, read key names from stdin")
    parser.add_argument(
        "--firmware",
        action="store_true",
        help="run the display's own firmware under MicroPython (a 16x8 OLED, keys up, down, ok, back): "
        "prints the port and each new OLED screen, reads key names from stdin; --size and --keys do not apply",
    )
    return parser


def main(argv: Sequence[str] | None = None, *, window: Callable[[PtyDisplay], int] | None = None) -> int:
    """Run an emulated display until stdin ends, the window closes or Ctrl-C.

    `window` draws the display in a window; the `companion` command passes the
    Kivy one from ``ui.display_emulator`` (hardware/ never imports ui/ itself).
    """
    args = build_parser().parse_args(argv)
    if args.firmware:
        from hardware.display.firmware_process import main_firmware

        return main_firmware(args)
    cols, rows = args.size
    identity = args.identity or f"emu-{uuid.uuid4().hex[:8]}"
    keys = [k.strip() for k in args.keys.split(",") if k.strip()]
    core = DisplayCore(identity, cols, rows, keys, key_file=paths.emulated_display_keys_dir() / f"{identity}.key")
    link = args.link or paths.emulated_displays_dir() / identity
    Path(link).parent.mkdir(parents=True, exist_ok=True)
    with PtyDisplay(core, link=link) as display:
        print(display.path, flush=True)
        if not args.headless and window is not None:
            return window(display)
        return _headless(display)


def _headless(display: PtyDisplay) -> int:
    core = display.core
    shown: list[str] = core.screen()  # the blank start is not worth printing

    def show(_core: DisplayCore) -> None:
        screen = core.screen()
        if screen != shown:
            shown[:] = screen
            border = "+" + "-" * core.cols + "+"
            print("\n".join([border, *(f"|{line.ljust(core.cols)}|" for line in screen), border]), flush=True)

    display.on_change = show
    print(f"{core.identity}: {core.cols}x{core.rows}, keys: {' '.join(core.keys)} (type one per line)", flush=True)
    try:
        for line in sys.stdin:
            key = line.strip()
            if key in ("quit", "exit"):
                break
            if key:
                try:
                    display.press(key)
                except ValueError as error:
                    print(error, flush=True)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
