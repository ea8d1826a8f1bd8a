"""The host side of a player display: one serial port, its reader and its writer.

A `DisplayLink` opens a port by URL (``/dev/serial/by-id/…``, a pseudo-terminal,
``loop://``) and runs pyserial's `ReaderThread` with `FrameProtocol`, which
splits the stream on the zero byte the way pyserial's `Packetizer` does.
Garbage, oversize frames, bad checksums and other protocol versions are
counted in `LinkStats`, logged and skipped: nothing a device sends can stop
the reader. Writes go through a small writer thread, so a stuck device never
blocks the caller (the UI thread, in the app).

`PortScanner` keeps every port matching the configured URLs or globs open,
and opens it again when a device comes back, on the same path or another.
"""

from __future__ import annotations

import glob
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields

import serial
import serial.threaded

from hardware.display import protocol

log = logging.getLogger(__name__)

BAUDRATE = 115200
HOST_ACCEPTS = frozenset({protocol.HELLO, protocol.KEY, protocol.PONG, protocol.PROOF})
# What a display of an older protocol version is told, on its own screen, in its own version.
UPDATE_FIRMWARE = f"Please update this display's firmware: the companion speaks version {protocol.VERSION}."
ASK_AFTER_DAMAGE_EVERY = 1.0  # seconds: after damaged input, the device is asked for its HELLO at most this often
OUTDATED_TELL_EVERY = 5.0  # seconds: a display repeating an old HELLO is told again at most this often


@dataclass(frozen=True)
class Hello:
    """What a device said about itself."""

    identity: str
    cols: int
    rows: int
    keys: tuple[str, ...]


@dataclass
class LinkStats:
    """Counters of one link: good frames, and each kind of refused input."""

    frames: int = 0
    garbage: int = 0
    oversize: int = 0
    bad_crc: int = 0
    wrong_version: int = 0
    unknown: int = 0
    malformed: int = 0
    handler_errors: int = 0
    write_timeouts: int = 0
    bytes_in: int = 0
    bytes_out: int = 0

    @property
    def rejected(self) -> int:
        """Every frame or run of bytes that was refused."""
        return self.garbage + self.oversize + self.bad_crc + self.wrong_version + self.unknown + self.malformed

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


HelloHandler = Callable[["DisplayLink", Hello], None]
KeyHandler = Callable[["DisplayLink", str], None]
ProofHandler = Callable[["DisplayLink", bytes], None]
LostHandler = Callable[["DisplayLink", BaseException | None], None]


def _ignore(*_args: object) -> None:
    return None


def _worth_logging(count: int) -> bool:
    # 1, 10, 100, …: a device spewing garbage is noted without flooding the log.
    while count % 10 == 0:
        count //= 10
    return count == 1


class FrameProtocol(serial.threaded.Protocol):
    """Splits on the zero byte, checks each frame and hands messages to its link. Never raises."""

    def __init__(self, link: DisplayLink) -> None:
        self.link = link
        self.splitter = protocol.FrameSplitter()
        self.transport: serial.threaded.ReaderThread | None = None

    def connection_made(self, transport: serial.threaded.ReaderThread) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        # Anything escaping from here would end pyserial's reader loop; nothing may.
        stats = self.link.stats
        try:
            stats.bytes_in += len(data)
            before = self.splitter.oversize
            frames = self.splitter.feed(data)
            if self.splitter.oversize != before:
                stats.oversize += self.splitter.oversize - before
                self._note(protocol.OVERSIZE, stats.oversize, "no delimiter within the size limit")
            for raw in frames:
                self._frame(raw)
        except Exception:
            stats.handler_errors += 1
            log.exception("display %s: error while reading; input skipped", self.link.port)

    def _frame(self, raw: bytes) -> None:
        stats = self.link.stats
        try:
            kind, payload = protocol.decode_frame(raw, HOST_ACCEPTS)
        except protocol.FrameError as error:
            count = getattr(stats, error.kind) + 1
            setattr(stats, error.kind, count)
            self._note(error.kind, count, str(error))
            if error.kind == protocol.WRONG_VERSION:
                self.link._other_version(error)
            else:
                self.link._ask_after_damage()
            return
        stats.frames += 1
        try:
            self.link._message(kind, payload)
        except protocol.FrameError as error:
            stats.malformed += 1
            self._note(protocol.MALFORMED, stats.malformed, str(error))
        except Exception:
            stats.handler_errors += 1
            log.exception("display %s: a handler failed on a %s frame", self.link.port, protocol.NAMES.get(kind))

    def _note(self, kind: str, count: int, detail: str) -> None:
        if _worth_logging(count):
            log.warning("display %s: ignored input (%s, %d so far): %s", self.link.port, kind, count, detail)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.link._lost(exc)


class _Reader(serial.threaded.ReaderThread):
    """pyserial's reader, made sure to report its end even if the port fails oddly."""

    protocol: FrameProtocol | None  # pyserial's own attribute (untyped there): the running protocol

    def run(self) -> None:
        try:
            super().run()
        except BaseException as error:  # e.g. an OSError from in_waiting on a vanished device
            self.alive = False
            proto = self.protocol
            self.protocol = None
            if proto is not None:
                proto.connection_lost(error)


class DisplayLink:
    """One open port speaking the display protocol. A context manager; `close()` is safe twice."""

    def __init__(
        self,
        port: str,
        serial_instance: serial.SerialBase,
        *,
        on_hello: HelloHandler = _ignore,
        on_key: KeyHandler = _ignore,
        on_proof: ProofHandler = _ignore,
        on_lost: LostHandler = _ignore,
    ) -> None:
        self.port = port
        self.stats = LinkStats()
        self.hello: Hello | None = None
        self.opened_at = time.monotonic()
        self.asked_at = 0.0
        self._serial = serial_instance
        self._on_hello = on_hello
        self._on_key = on_key
        self._on_proof = on_proof
        self._on_lost = on_lost
        self.outdated: int | None = None  # the older protocol version this device spoke, if it did
        self._asks = 0
        self._asked_after_damage_at = -ASK_AFTER_DAMAGE_EVERY
        self._told_outdated_at = -OUTDATED_TELL_EVERY
        self._lock = threading.Condition()
        self._screen: bytes | None = None  # the newest screen frame not yet written
        self._queue: deque[bytes] = deque(maxlen=32)
        self._closed = False
        self._lost_reported = False
        self._close_in_reader = False
        self.written = 0
        self.last_written_at = 0.0
        self._reader = _Reader(serial_instance, lambda: FrameProtocol(self))
        self._reader.name = f"display-reader {port}"
        self._writer = threading.Thread(target=self._write_loop, name=f"display-writer {port}", daemon=True)
        self._reader.start()
        self._writer.start()

    @classmethod
    def open(
        cls,
        port: str,
        *,
        baudrate: int = BAUDRATE,
        write_timeout: float = 1.0,
        on_hello: HelloHandler = _ignore,
        on_key: KeyHandler = _ignore,
        on_proof: ProofHandler = _ignore,
        on_lost: LostHandler = _ignore,
    ) -> DisplayLink:
        """Open `port` (a path or a pyserial URL) and start reading. Raises `serial.SerialException`."""
        instance = serial.serial_for_url(port, baudrate=baudrate, timeout=None, write_timeout=write_timeout)
        link = cls(port, instance, on_hello=on_hello, on_key=on_key, on_proof=on_proof, on_lost=on_lost)
        link.send(b"\x00")  # ends whatever half frame the device was holding
        link.ask()
        return link

    # -- state ------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return not self._closed and self._reader.alive

    @property
    def identity(self) -> str | None:
        return self.hello.identity if self.hello else None

    # -- sending ----------------------------------------------------------------

    def show(self, frame: bytes) -> None:
        """Queue a drawing frame; a newer one replaces it if it is not written yet."""
        with self._lock:
            self._screen = frame
            self._lock.notify_all()

    def send(self, frame: bytes) -> None:
        """Queue a frame to be written in order (after any pending screen)."""
        with self._lock:
            self._queue.append(frame)
            self._lock.notify_all()

    def ask(self, version: int = protocol.VERSION) -> None:
        """Ask the device to say HELLO (again)."""
        self.asked_at = time.monotonic()
        self.send(protocol.encode_frame(protocol.ASK, version=version))

    def ask_unanswered(self) -> None:
        """Ask a device that has not said HELLO yet, every other time in the oldest version we still tell to update.

        A display with old firmware ignores our version's question, and
        answers that one with a HELLO of its own version.
        """
        self._asks += 1
        self.ask(protocol.OLDEST_TOLD_TO_UPDATE if self._asks % 2 == 1 else protocol.VERSION)

    def wait_written(self, count: int, timeout: float) -> bool:
        """Wait until `count` frames in all have been written; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self.written < count:
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    return self.written >= count
                self._lock.wait(left)
        return True

    def _write_loop(self) -> None:
        while True:
            with self._lock:
                while not self._closed and self._screen is None and not self._queue:
                    self._lock.wait()
                if self._closed:
                    return
                frame: bytes | None
                if self._queue:
                    frame, is_screen = self._queue.popleft(), False
                else:
                    frame, is_screen = self._screen, True
                    self._screen = None
            assert frame is not None
            try:
                self._reader.write(frame)
            except serial.SerialTimeoutException:
                self.stats.write_timeouts += 1
                log.warning("display %s: write timed out; the device is not reading", self.port)
                with self._lock:
                    if is_screen and self._screen is None:
                        self._screen = frame  # still the newest: try again shortly
                time.sleep(0.2)
                continue
            except Exception as error:
                log.info("display %s: write failed (%s); closing", self.port, error)
                self._report_lost(error)
                self.close()
                return
            with self._lock:
                self.written += 1
                self.stats.bytes_out += len(frame)
                self.last_written_at = time.perf_counter()
                self._lock.notify_all()

    # -- receiving (reader thread) ------------------------------------------------

    def _message(self, kind: int, payload: bytes) -> None:
        if kind == protocol.HELLO:
            identity, cols, rows, keys = protocol.unpack_hello(payload)
            self.hello = Hello(identity, cols, rows, tuple(keys))
            self._on_hello(self, self.hello)
        elif kind == protocol.KEY:
            self._on_key(self, protocol.unpack_text(payload))
        elif kind == protocol.PROOF:
            self._on_proof(self, bytes(payload))

    def _ask_after_damage(self) -> None:
        # A damaged frame may have been a HELLO glued to the half frame a rebooting device was sending:
        # ask again (at most once a second), so that it is never left without its screen.
        now = time.monotonic()
        if now - self._asked_after_damage_at >= ASK_AFTER_DAMAGE_EVERY:
            self._asked_after_damage_at = now
            self.ask()

    def _other_version(self, error: protocol.FrameError) -> None:
        """A well-formed frame of another protocol version: an older display's HELLO is told to update."""
        if error.type != protocol.HELLO or error.version is None or error.version > protocol.VERSION:
            return
        self.outdated = error.version
        now = time.monotonic()
        if now - self._told_outdated_at < OUTDATED_TELL_EVERY:
            return
        self._told_outdated_at = now
        try:
            _identity, cols, rows, _keys = protocol.unpack_hello(error.payload)  # the same layout in version 1
        except protocol.FrameError:
            cols, rows = 16, 4
        lines = _fit_words(UPDATE_FIRMWARE, cols, rows)
        log.warning("display on %s speaks protocol version %d: told to update its firmware", self.port, error.version)
        self.send(protocol.encode_frame(protocol.SCREEN, protocol.pack_update(lines), version=error.version))

    def _lost(self, error: BaseException | None) -> None:
        if self._close_in_reader or (error is not None and not self._closed):
            self._close_serial()
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        self._report_lost(error)

    def _report_lost(self, error: BaseException | None) -> None:
        with self._lock:
            if self._lost_reported:
                return
            self._lost_reported = True
        try:
            self._on_lost(self, error)
        except Exception:
            log.exception("display %s: the on_lost handler failed", self.port)

    def _close_serial(self) -> None:
        try:
            self._serial.close()
        except Exception:  # the device is gone already; nothing left to tidy
            log.debug("display %s: closing the port failed", self.port, exc_info=True)

    # -- closing ----------------------------------------------------------------

    def close(self) -> None:
        """Stop reading and writing and close the port."""
        with self._lock:
            already = self._closed
            self._closed = True
            self._lock.notify_all()
        current = threading.current_thread()
        if current is self._reader:
            # Joining ourselves is impossible: end the loop and let _lost close the port.
            self._close_in_reader = True
            self._reader.alive = False
            return
        if not already or self._serial.is_open:
            try:
                self._reader.close()
            except Exception:
                log.debug("display %s: closing the reader failed", self.port, exc_info=True)
                self._close_serial()
        if current is not self._writer:
            self._writer.join(2)

    def __enter__(self) -> DisplayLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"DisplayLink({self.port!r}, identity={self.identity!r}, open={self.is_open})"


def _fit_words(text: str, cols: int, rows: int) -> list[str]:
    """`text` flowed into `rows` lines of `cols`, never cutting a word (one too long for a line is left out)."""
    lines: list[str] = []
    for word in text.split():
        if len(word) > cols:
            continue
        if lines and len(lines[-1]) + 1 + len(word) <= cols:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines[:rows]


def expand(patterns: Iterable[str]) -> list[str]:
    """The ports the patterns name now: URLs as they are, paths and globs as found on disk."""
    found: list[str] = []
    for pattern in patterns:
        if "://" in pattern:
            found.append(pattern)
        else:
            found.extend(sorted(glob.glob(pattern)))
    return found


def _port_key(port: str) -> str:
    # Two names of one device (a by-id link and its tty) must not be opened twice.
    return port if "://" in port else os.path.realpath(port)


class PortScanner:
    """Keeps a link open on every port the patterns match, and reopens them after a loss."""

    def __init__(
        self,
        patterns: Iterable[str],
        *,
        on_hello: HelloHandler = _ignore,
        on_key: KeyHandler = _ignore,
        on_proof: ProofHandler = _ignore,
        on_lost: LostHandler = _ignore,
        interval: float = 0.2,
        ask_every: float = 1.0,
        baudrate: int = BAUDRATE,
        opener: Callable[..., DisplayLink] = DisplayLink.open,
    ) -> None:
        self.patterns = list(patterns)
        self.baudrate = baudrate
        self.interval = interval
        self.ask_every = ask_every
        self._on_hello = on_hello
        self._on_key = on_key
        self._on_proof = on_proof
        self._on_lost = on_lost
        self._opener = opener
        self._links: dict[str, DisplayLink] = {}
        self._failing: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def links(self) -> list[DisplayLink]:
        with self._lock:
            return list(self._links.values())

    def start(self) -> PortScanner:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="display-scanner", daemon=True)
            self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.scan_once()
            except Exception:
                log.exception("display scan failed; trying again")
            self._stop.wait(self.interval)

    def scan_once(self) -> list[DisplayLink]:
        """Open the ports that are there and not open yet; returns the links opened."""
        opened = []
        now = time.monotonic()
        for port in expand(self.patterns):
            try:
                key = _port_key(port)
            except OSError:
                continue  # the link vanished while we looked: it is gone
            with self._lock:
                link = self._links.get(key)
                if link is not None and not link.is_open:
                    # It died before it was ours to forget (lost while being opened): its port
                    # name may belong to a new device already, so open that one.
                    del self._links[key]
                    link = None
            if link is not None:
                if link.hello is None and now - link.asked_at >= self.ask_every:
                    link.ask_unanswered()  # a device that was still starting up missed the first question
                continue
            if self._stop.is_set():
                break
            try:
                link = self._opener(
                    port,
                    baudrate=self.baudrate,
                    on_hello=self._on_hello,
                    on_key=self._on_key,
                    on_proof=self._on_proof,
                    on_lost=self._lost,
                )
            except Exception as error:
                if key not in self._failing:
                    log.info("display port %s cannot be opened: %s", port, error)
                    self._failing.add(key)
                continue
            self._failing.discard(key)
            with self._lock:
                self._links[key] = link
            opened.append(link)
            log.info("display port %s opened", port)
        return opened

    def _lost(self, link: DisplayLink, error: BaseException | None) -> None:
        with self._lock:
            for key, known in list(self._links.items()):
                if known is link:
                    del self._links[key]
        log.info("display port %s closed (%s)", link.port, error or "by us")
        self._on_lost(link, error)

    def close(self) -> None:
        """Stop scanning and close every link."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)
        for link in self.links:
            link.close()

    def __enter__(self) -> PortScanner:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
