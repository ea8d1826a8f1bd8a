# The Unix-port board's wiring to whoever runs it (the tests' harness,
# hardware/display/firmware_process.py). NOT copied to a Pico.
#
# The environment describes the board:
#   BOARD_DIR        a folder the board shares with the harness: it reads `pins`
#                    there (the pin numbers held low, space-separated; the
#                    harness replaces the file whole) and writes the OLED's
#                    picture (`oled.bin`) and text rows (`oled.txt`) there.
#   BOARD_SIGNAL     a path to write one line per event to (a pipe, e.g. /dev/fd/5):
#                    "drawn N" after the OLED's N-th show(), "pin P V" once pin P
#                    has read V a few times in a row (the firmware has seen it).
#   BOARD_UNIQUE_ID  the board's unique id, in hex (a Pico's is 8 bytes).

import os

DIR = os.getenv("BOARD_DIR") or "."
_signal_path = os.getenv("BOARD_SIGNAL")
_signal = open(_signal_path, "wb") if _signal_path else None


def path(name):
    return DIR + "/" + name


def signal(line):
    """Tell the harness something happened (after the files it may read are in place)."""
    if _signal is not None:
        _signal.write((line + "\n").encode())


def replace(name, data):
    """Write a file of BOARD_DIR whole: a new one renamed over the old, so a reader never sees half."""
    new = path(name + ".new")
    with open(new, "wb") as f:
        f.write(data)
    os.rename(new, path(name))
