# The player display's firmware: MicroPython on a Raspberry Pi Pico (or any
# board with USB serial), a 128x64 SSD1306 OLED on I2C (16 columns x 8 rows
# of the built-in 8x8 font) and four keys to ground.
#
# Install (with mpremote, from the repository root):
#   mpremote mip install ssd1306
#   mpremote cp hardware/display/protocol.py :protocol.py
#   mpremote cp hardware/display/firmware/main.py :main.py
#
# The protocol module is the very file the host uses (see the README,
# "Player displays"). USB serial carries only frames: the REPL's Ctrl-C is
# switched off so that a 0x03 inside a frame is data, not an interrupt.
# To get the REPL back, hold the "back" key while plugging in.
#
# Pairing: the host gives the display a random key (BIND), kept in the flash
# as the file display.key; on every connection it sends a fresh nonce
# (CHALLENGE) and the display answers PROOF = HMAC-SHA256(key, nonce).
#
# The tests run this very file, unchanged, under MicroPython's Unix port with
# a stand-in board (firmware/unix_board/: machine and ssd1306 modules).

import os

import sys

if sys.implementation.name == "micropython":  # on the board, beside this file
    import protocol  # type: ignore[import-not-found]  # pragma: no cover (MicroPython's; mypy checks the other)
else:  # CPython, in the tests
    from hardware.display import protocol

try:  # for mypy: MicroPython has no typing module, and parses annotations without evaluating them
    from typing import Any, Callable, Protocol

    class Screen(Protocol):
        def show(self, lines: list[str]) -> None: ...

except ImportError:  # pragma: no cover (only MicroPython lacks typing; coverage.py traces CPython)
    pass

COLS = 16
ROWS = 8
KEY_PINS = (("up", 10), ("down", 11), ("ok", 12), ("back", 13))
I2C_SDA = 4
I2C_SCL = 5
POLL_MS = 10
DEBOUNCE_POLLS = 3  # a key must read the same for 30 ms to count
KEY_FILE = "display.key"
CHUNK = 256  # bytes read from the host before the keys are looked at again
# What the host may send a display (anything else is counted as unknown).
DEVICE_ACCEPTS = (
    protocol.ASK,
    protocol.SCREEN,
    protocol.REGION,
    protocol.PAIR_CODE,
    protocol.PING,
    protocol.CHALLENGE,
    protocol.BIND,
)


def _quiet(text: str) -> None:
    pass


def _worth_noting(count: int) -> bool:
    # 1, 10, 100, ...: a host spewing garbage is noted without flooding.
    while count % 10 == 0:
        count //= 10
    return count == 1


def flow(text: str, cols: int) -> list[str]:
    """`text` in lines of at most `cols`, broken between words."""
    lines = []  # type: list[str]
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= cols:
            lines[-1] += " " + word
        else:
            lines.append(word[:cols])
    return lines


class KeyFile:
    """The pairing key in the board's flash: a file replaced whole, so a power cut never leaves half a key."""

    def __init__(self, path: str = KEY_FILE) -> None:
        self.path = path

    def load(self) -> bytes | None:
        """The key kept, or None. A finished `.new` counts: the power went between writing it and renaming."""
        for path in (self.path, self.path + ".new"):
            try:
                with open(path, "rb") as f:
                    key = f.read()  # type: bytes
            except OSError:
                continue
            if len(key) == protocol.KEY_SIZE:
                return key
        return None

    def save(self, key: bytes) -> None:
        new = self.path + ".new"
        with open(new, "wb") as f:
            f.write(key)
        try:
            os.rename(new, self.path)  # LittleFS (a Pico's) and POSIX replace the old file
        except OSError:
            os.remove(self.path)  # a file system whose rename does not replace: `load` reads the .new meanwhile
            os.rename(new, self.path)


class Device:
    """The display's logic, apart from its pins: testable under CPython with fakes.

    `key_file` keeps the pairing key across power cycles (None: in memory
    only); `note` takes a line about something that went wrong (never the
    serial line: that carries frames only).
    """

    def __init__(
        self,
        identity: str,
        screen: "Screen",
        write: "Callable[[bytes], None]",
        cols: int = COLS,
        rows: int = ROWS,
        keys: "tuple[str, ...] | list[str]" = ("up", "down", "ok", "back"),
        key_file: "KeyFile | None" = None,
        note: "Callable[[str], None] | None" = None,
    ) -> None:
        self.identity = identity
        self.screen = screen  # has show(lines)
        self.write = write  # writes bytes to the host
        self.cols = cols
        self.rows = rows
        self.keys = keys
        self.key_file = key_file
        self.note = note or _quiet
        self.pairing_key = key_file.load() if key_file is not None else None
        self.lines = [""] * rows
        self.regions = {}  # type: dict[str, tuple[int, int, int, str]]
        self.pair_code = None  # type: str | None
        self.other_version = None  # type: int | None  # the host's protocol version while the "update" screen shows
        self.splitter = protocol.FrameSplitter()
        self.rejected = 0  # every frame or run of bytes refused
        self.errors = {}  # type: dict[str, int]  # the same, by kind (protocol.GARBAGE, ...)

    def hello(self) -> None:
        payload = protocol.pack_hello(self.identity, self.cols, self.rows, self.keys)
        self.write(protocol.encode_frame(protocol.HELLO, payload))

    def key(self, name: str) -> None:
        self.write(protocol.encode_frame(protocol.KEY, protocol.pack_text(name)))

    def feed(self, data: bytes) -> None:
        """Take bytes from the host: answer, and draw once if anything changed."""
        drawn = False
        oversize = self.splitter.oversize
        frames = self.splitter.feed(data)
        if self.splitter.oversize != oversize:
            self.reject(protocol.OVERSIZE, "no delimiter within the size limit")
        for raw in frames:
            try:
                kind, payload = protocol.decode_frame(raw, DEVICE_ACCEPTS)
            except protocol.FrameError as error:
                self.reject(error.kind, str(error))
                if error.kind == protocol.WRONG_VERSION and error.version is not None:
                    drawn = self.host_speaks(error.version) or drawn
                continue
            if self.other_version is not None:
                self.other_version = None  # the host speaks our version now
                drawn = True
            try:
                drawn = self.apply(kind, payload) or drawn
            except protocol.FrameError as error:
                self.reject(error.kind, str(error))
            except Exception as error:  # a bug must not stop the display: skip the frame, say so
                self.reject("error", "%s frame: %r" % (protocol.NAMES.get(kind), error))
        if drawn:
            self.draw()

    def reject(self, kind: str, detail: str) -> None:
        self.rejected += 1
        count = self.errors.get(kind, 0) + 1
        self.errors[kind] = count
        if _worth_noting(count):
            self.note("ignored input (%s, %d so far): %s" % (kind, count, detail))

    def host_speaks(self, version: int) -> bool:
        """A well-formed frame of another protocol version: say which side to update, once per burst."""
        if self.other_version == version:
            return False
        self.other_version = version
        return True

    def apply(self, kind: int, payload: bytes) -> bool:
        if kind == protocol.ASK:
            self.hello()
        elif kind == protocol.PING:
            self.write(protocol.encode_frame(protocol.PONG, payload[:8]))
        elif kind == protocol.CHALLENGE:
            if len(payload) != protocol.NONCE_SIZE:
                raise protocol.FrameError(protocol.MALFORMED, "a nonce of %d bytes" % len(payload))
            proof = protocol.prove(self.pairing_key, payload) if self.pairing_key is not None else b""
            self.write(protocol.encode_frame(protocol.PROOF, proof))
        elif kind == protocol.BIND:
            if len(payload) != protocol.KEY_SIZE:
                raise protocol.FrameError(protocol.MALFORMED, "a key of %d bytes" % len(payload))
            self.pairing_key = bytes(payload)
            if self.key_file is not None:
                try:
                    self.key_file.save(self.pairing_key)
                except OSError as error:  # kept in memory: this connection still proves, the next pairs again
                    self.note("cannot keep the pairing key: %r" % (error,))
        elif kind == protocol.SCREEN:
            self.lines = (protocol.unpack_screen(payload) + [""] * self.rows)[: self.rows]
            self.regions = {}
            self.pair_code = None
            return True
        elif kind == protocol.REGION:
            key, row, col, width, text = protocol.unpack_region(payload)
            self.regions[key] = (row, col, width, text)
            return True
        elif kind == protocol.PAIR_CODE:  # pragma: no branch (decode_frame lets through DEVICE_ACCEPTS only)
            self.pair_code = protocol.unpack_text(payload) or None
            return True
        return False

    def composed(self) -> list[str]:
        if self.other_version is not None:
            return self.update_screen(self.other_version)
        if self.pair_code is not None:
            return ["Pair display", "", "Code: " + " ".join(self.pair_code), "", "Tap your name", "on the table."]
        lines = list(self.lines)
        for row, col, width, text in self.regions.values():
            if 0 <= row < self.rows:
                line = lines[row] + " " * max(col - len(lines[row]), 0)
                text = (text + " " * width)[:width]
                lines[row] = line[:col] + text + line[col + width :]
        return [line[: self.cols] for line in lines]

    def update_screen(self, version: int) -> list[str]:
        """This display and the companion speak different protocol versions: which one to update."""
        ours = protocol.VERSION
        said = "The companion app speaks v%d, this display v%d." % (version, ours)
        update = "Update the companion app." if version < ours else "Update this display."
        lines = ["Versions differ", ""] + flow(said, self.cols) + [""] + flow(update, self.cols)
        return [line[: self.cols] for line in lines[: self.rows]]

    def draw(self) -> None:
        self.screen.show(self.composed())


class OledScreen:
    def __init__(self, oled: "Any") -> None:  # an ssd1306.SSD1306 (MicroPython's driver)
        self.oled = oled

    def show(self, lines: list[str]) -> None:
        self.oled.fill(0)
        for row, line in enumerate(lines):
            self.oled.text(line, 0, row * 8)
        self.oled.show()


class ReplScreen:
    """No screen attached: nothing to draw (the serial line is busy with frames)."""

    def show(self, lines: list[str]) -> None:
        pass


class Keys:
    """Debounced keys wired to ground with the internal pull-ups."""

    def __init__(self, machine: "Any") -> None:  # MicroPython's machine module (or the tests' stand-in)
        self.pins = [(name, machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP)) for name, number in KEY_PINS]
        self.stable = {name: 1 for name, _ in self.pins}
        self.count = {name: 0 for name, _ in self.pins}

    def pressed(self) -> list[str]:
        """Names of keys that went down since the last call."""
        out = []  # type: list[str]
        for name, pin in self.pins:
            value = pin.value()
            if value == self.stable[name]:
                self.count[name] = 0
                continue
            self.count[name] += 1
            if self.count[name] >= DEBOUNCE_POLLS:
                self.stable[name] = value
                self.count[name] = 0
                if value == 0:
                    out.append(name)
        return out


def run() -> None:  # pragma: no cover (MicroPython's machine and ticks: test_firmware.py runs it there)
    import select
    import time

    # MicroPython's own modules (the tests give the Unix port stand-ins in unix_board/): no stubs for CPython.
    import machine  # type: ignore[import-not-found]
    import micropython  # type: ignore[import-not-found]
    import ubinascii  # type: ignore[import-not-found]

    keys = Keys(machine)
    if keys.pins[3][1].value() == 0:
        return  # "back" held at power-up: leave the REPL alone
    micropython.kbd_intr(-1)
    if sys.platform in ("linux", "darwin"):  # the Unix port: stderr is not the serial line

        def note(text: str) -> None:
            sys.stderr.write("display: " + text + "\n")

    else:
        note = _quiet  # on a Pico stderr is the USB serial itself, which carries frames only

    try:
        import ssd1306  # type: ignore[import-not-found]  # MicroPython's driver

        i2c = machine.I2C(0, sda=machine.Pin(I2C_SDA), scl=machine.Pin(I2C_SCL))
        screen = OledScreen(ssd1306.SSD1306_I2C(128, 64, i2c))  # type: Screen
    except Exception:
        screen = ReplScreen()
    identity = "pico-" + ubinascii.hexlify(machine.unique_id()).decode()
    out = sys.stdout.buffer

    def write(data: bytes) -> None:
        out.write(data)

    device = Device(identity, screen, write, key_file=KeyFile(), note=note)
    device.lines = ["Tabletop", "Companion", "", "Waiting for", "the table..."] + [""] * (ROWS - 5)
    device.draw()
    write(b"\x00")  # ends any half frame this board was sending when it was reset: the HELLO stands alone
    device.hello()
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    reader = sys.stdin.buffer
    # MicroPython's time has the wrapping millisecond ticks; CPython's has neither.
    ticks_ms = time.ticks_ms  # type: ignore[attr-defined]
    ticks_diff = time.ticks_diff  # type: ignore[attr-defined]
    keys_at = ticks_ms()
    while True:
        # Sleep until the host sends something or the keys are due: a frame is drawn as soon as it is whole.
        due = POLL_MS - ticks_diff(ticks_ms(), keys_at)
        if poll.poll(due if due > 0 else 0):
            chunk = bytearray()
            while len(chunk) < CHUNK and poll.poll(0):
                byte = reader.read(1)  # one at a time: on a Pico, read(n) waits for all n
                if not byte:
                    return  # the serial line is gone (the Unix port's stdin closed)
                chunk.extend(byte)
            try:
                device.feed(bytes(chunk))
            except Exception as error:  # never stop: the host sends whole screens again
                note("error while reading: %r" % (error,))
        if ticks_diff(ticks_ms(), keys_at) >= POLL_MS:
            keys_at = ticks_ms()
            for name in keys.pressed():
                device.key(name)


if __name__ == "__main__":  # pragma: no cover (the board runs this file as main, under MicroPython)
    run()
