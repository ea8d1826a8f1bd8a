# A stand-in for MicroPython's `machine` module on the Unix port, so that the
# display firmware (../main.py) runs unchanged in the tests. NOT copied to a
# Pico: there, `machine` is the real one.
#
# Pins read the file BOARD_DIR/pins (see board.py): a pin listed there is held
# low (a key pressed to ground), any other reads high (the pull-up).

import binascii
import os
import time

import board

ACK_READS = 4  # the firmware debounces over 3 reads: after 4 at one level it has surely acted on it

_held = ()
_read_at = None


def _held_pins():
    # One look at the file per millisecond: the firmware reads four pins in a row each poll.
    global _held, _read_at
    now = time.ticks_ms()
    if now != _read_at:
        _read_at = now
        try:
            with open(board.path("pins"), "rb") as f:
                _held = tuple(int(word) for word in f.read().split())
        except OSError:
            _held = ()
    return _held


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, number, mode=-1, pull=-1):
        self.number = number
        self.mode = mode
        self.pull = pull
        self._last = 1
        self._run = 0
        self._acked = 1  # at power-up no key is down

    def value(self, *level):
        if level:
            return None  # an output: nothing on this board listens
        value = 0 if self.number in _held_pins() else 1
        if value == self._last:
            self._run += 1
        else:
            self._last = value
            self._run = 1
        if self._run >= ACK_READS and value != self._acked:
            self._acked = value
            board.signal("pin %d %d" % (self.number, value))
        return value

    def __call__(self, *level):
        return self.value(*level)


class I2C:
    """The OLED's bus: the ssd1306 stand-in draws into memory, so nothing travels on it."""

    def __init__(self, bus=0, scl=None, sda=None, freq=400000):
        self.bus = bus

    def scan(self):
        return [0x3C]


def unique_id():
    return binascii.unhexlify(os.getenv("BOARD_UNIQUE_ID") or "e6614103e7452d2f")


def reset():
    raise SystemExit(0)
