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

try:
    import protocol
except ImportError:  # CPython, in the tests
    from hardware.display import protocol

COLS = 16
ROWS = 8
KEY_PINS = (("up", 10), ("down", 11), ("ok", 12), ("back", 13))
I2C_SDA = 4
I2C_SCL = 5
POLL_MS = 10
DEBOUNCE_POLLS = 3  # a key must read the same for 30 ms to count


class Device:
    """The display's logic, apart from its pins: testable under CPython with fakes."""

    def __init__(self, identity, screen, write, cols=COLS, rows=ROWS, keys=("up", "down", "ok", "back")):
        self.identity = identity
        self.screen = screen  # has show(lines)
        self.write = write  # writes bytes to the host
        self.cols = cols
        self.rows = rows
        self.keys = keys
        self.lines = [""] * rows
        self.regions = {}
        self.pair_code = None
        self.splitter = protocol.FrameSplitter()
        self.rejected = 0

    def hello(self):
        payload = protocol.pack_hello(self.identity, self.cols, self.rows, self.keys)
        self.write(protocol.encode_frame(protocol.HELLO, payload))

    def key(self, name):
        self.write(protocol.encode_frame(protocol.KEY, protocol.pack_text(name)))

    def feed(self, data):
        drawn = False
        for raw in self.splitter.feed(data):
            try:
                kind, payload = protocol.decode_frame(raw)
                drawn = self.apply(kind, payload) or drawn
            except protocol.FrameError:
                self.rejected += 1  # nothing to do but skip it; the host sends whole screens
        if drawn:
            self.draw()

    def apply(self, kind, payload):
        if kind == protocol.ASK:
            self.hello()
        elif kind == protocol.PING:
            self.write(protocol.encode_frame(protocol.PONG, payload[:8]))
        elif kind == protocol.SCREEN:
            self.lines = (protocol.unpack_screen(payload) + [""] * self.rows)[: self.rows]
            self.regions = {}
            self.pair_code = None
            return True
        elif kind == protocol.REGION:
            key, row, col, width, text = protocol.unpack_region(payload)
            self.regions[key] = (row, col, width, text)
            return True
        elif kind == protocol.PAIR_CODE:
            self.pair_code = protocol.unpack_text(payload) or None
            return True
        return False

    def composed(self):
        if self.pair_code is not None:
            return ["Pair display", "", "Code: " + " ".join(self.pair_code), "", "Tap your name", "on the table."]
        lines = list(self.lines)
        for row, col, width, text in self.regions.values():
            if 0 <= row < self.rows:
                line = lines[row] + " " * max(col - len(lines[row]), 0)
                text = (text + " " * width)[:width]
                lines[row] = line[:col] + text + line[col + width :]
        return [line[: self.cols] for line in lines]

    def draw(self):
        self.screen.show(self.composed())


class OledScreen:
    def __init__(self, oled):
        self.oled = oled

    def show(self, lines):
        self.oled.fill(0)
        for row, line in enumerate(lines):
            self.oled.text(line, 0, row * 8)
        self.oled.show()


class ReplScreen:
    """No screen attached: nothing to draw (the serial line is busy with frames)."""

    def show(self, lines):
        pass


class Keys:
    """Debounced keys wired to ground with the internal pull-ups."""

    def __init__(self, machine):
        self.pins = [(name, machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP)) for name, number in KEY_PINS]
        self.stable = {name: 1 for name, _ in self.pins}
        self.count = {name: 0 for name, _ in self.pins}

    def pressed(self):
        """Names of keys that went down since the last call."""
        out = []
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


def run():
    import select
    import sys
    import time

    import machine
    import micropython
    import ubinascii

    keys = Keys(machine)
    if keys.pins[3][1].value() == 0:
        return  # "back" held at power-up: leave the REPL alone
    micropython.kbd_intr(-1)
    try:
        import ssd1306

        i2c = machine.I2C(0, sda=machine.Pin(I2C_SDA), scl=machine.Pin(I2C_SCL))
        screen = OledScreen(ssd1306.SSD1306_I2C(128, 64, i2c))
    except Exception:
        screen = ReplScreen()
    identity = "pico-" + ubinascii.hexlify(machine.unique_id()).decode()
    out = sys.stdout.buffer

    def write(data):
        out.write(data)

    device = Device(identity, screen, write)
    device.lines = ["Tabletop", "Companion", "", "Waiting for", "the table..."] + [""] * (ROWS - 5)
    device.draw()
    device.hello()
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    reader = sys.stdin.buffer
    while True:
        chunk = bytearray()
        while poll.poll(0) and len(chunk) < 256:
            chunk.extend(reader.read(1))
        if chunk:
            device.feed(bytes(chunk))
        for name in keys.pressed():
            device.key(name)
        time.sleep_ms(POLL_MS)


if __name__ == "__main__":
    run()
