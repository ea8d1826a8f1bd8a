"""The display firmware's logic under CPython: what a board does when its flash, its keys or the host misbehave.

The same `firmware/main.py` that goes onto a Pico (and that test_firmware.py runs under MicroPython); here its
`Device`, `KeyFile`, `Keys` and `OledScreen` are driven directly, with stand-ins for the board's pins and panel,
so that the rare paths (a full flash, a file system whose rename does not replace, a chattering key) are shown.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hardware.display import protocol as p
from hardware.display.firmware import main as firmware
from hardware.display.firmware.main import COLS, DEBOUNCE_POLLS, KEY_PINS, ROWS, Device, KeyFile, Keys, OledScreen
from tests.hardware.test_firmware import Screen, replies

KEY = bytes(range(100, 100 + p.KEY_SIZE))
NONCE = bytes(range(p.NONCE_SIZE))


def test_a_damaged_key_file_is_no_key_and_the_display_asks_to_be_paired_again(tmp_path: Path) -> None:
    """A display.key of the wrong size (flash worn, a cut mid-write with no .new) is no key: the display answers
    CHALLENGE with an empty PROOF ("I hold no key"), so the host pairs it again instead of trusting half a key."""
    (tmp_path / "display.key").write_bytes(KEY[:9])
    sent: list[bytes] = []
    device = Device("pico-1", Screen(), sent.append, key_file=KeyFile(str(tmp_path / "display.key")))
    assert device.pairing_key is None
    device.feed(p.encode_frame(p.CHALLENGE, NONCE))
    assert replies(sent) == [(p.PROOF, b"")]


def test_a_flash_whose_rename_does_not_replace_still_keeps_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """firmware/main.py: "a file system whose rename does not replace: `load` reads the .new meanwhile"."""
    path = tmp_path / "display.key"
    path.write_bytes(bytes([1]) * p.KEY_SIZE)
    rename = os.rename

    def no_replace(old: str, new: str) -> None:
        if os.path.exists(new):
            raise OSError(17, "File exists")
        rename(old, new)

    monkeypatch.setattr(firmware.os, "rename", no_replace)
    KeyFile(str(path)).save(KEY)
    assert path.read_bytes() == KEY and not Path(str(path) + ".new").exists()
    assert KeyFile(str(path)).load() == KEY


def test_a_full_flash_keeps_the_key_in_memory_and_says_why(tmp_path: Path) -> None:
    """A BIND the flash cannot keep: this connection still proves (the key is in memory), and the display says
    why on its log line; after a power cycle it would simply be paired again."""
    notes: list[str] = []
    sent: list[bytes] = []
    unwritable = KeyFile(str(tmp_path / "no-such-folder" / "display.key"))
    device = Device("pico-1", Screen(), sent.append, key_file=unwritable, note=notes.append)
    device.feed(p.encode_frame(p.BIND, KEY) + p.encode_frame(p.CHALLENGE, NONCE))
    assert replies(sent) == [(p.PROOF, p.prove(KEY, NONCE))]
    assert len(notes) == 1 and notes[0].startswith("cannot keep the pairing key")


def test_a_display_without_flash_proves_its_key_until_power_is_cut() -> None:
    """`key_file=None`: "in memory only" — the BIND holds for this power-up, and a new board starts with none."""
    sent: list[bytes] = []
    device = Device("pico-1", Screen(), sent.append)
    device.feed(p.encode_frame(p.BIND, KEY) + p.encode_frame(p.CHALLENGE, NONCE))
    again = Device("pico-1", Screen(), sent.append)
    again.feed(p.encode_frame(p.CHALLENGE, NONCE))
    assert replies(sent) == [(p.PROOF, p.prove(KEY, NONCE)), (p.PROOF, b"")]


def test_a_bug_while_applying_a_frame_skips_that_frame_and_the_next_one_is_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """firmware/main.py: "a bug must not stop the display: skip the frame, say so"."""
    notes: list[str] = []
    screen = Screen()
    device = Device("pico-1", screen, [].append, note=notes.append)

    def broken(payload: bytes) -> tuple[str, int, int, int, str]:
        raise IndexError("a bug in the region code")

    monkeypatch.setattr(firmware.protocol, "unpack_region", broken)
    device.feed(p.encode_frame(p.REGION, b"anything") + p.encode_frame(p.SCREEN, p.pack_screen(["Ann", "Go"])))
    assert screen.shown[-1][:2] == ["Ann", "Go"]
    assert device.errors == {"error": 1} and "REGION frame: IndexError" in notes[0]


def test_a_host_spewing_garbage_is_noted_at_1_10_and_100_not_every_time() -> None:
    """firmware/main.py: "a host spewing garbage is noted without flooding" (the 1st, 10th, 100th...); a run
    with no delimiter longer than any frame is counted as oversize, and the next good frame is still drawn."""
    notes: list[str] = []
    screen = Screen()
    device = Device("pico-1", screen, [].append, note=notes.append)
    for _ in range(100):
        device.feed(b"\x01\x02\x00")
    assert device.errors == {p.GARBAGE: 100}
    assert [note.split(",")[0] for note in notes] == ["ignored input (garbage"] * 3
    assert [note.split(", ")[1].split(" ")[0] for note in notes] == ["1", "10", "100"]
    device.feed(b"\x07" * (p.MAX_ENCODED + 10) + b"\x00" + p.encode_frame(p.SCREEN, p.pack_screen(["Bo"])))
    assert device.errors[p.OVERSIZE] == 1 and screen.shown[-1][0] == "Bo"


def test_a_region_below_the_last_row_is_not_drawn_and_breaks_nothing() -> None:
    """A host laid out for a taller screen: a region on row 9 of an 8-row OLED is kept off the screen."""
    screen = Screen()
    device = Device("pico-1", screen, [].append)
    device.feed(p.encode_frame(p.SCREEN, p.pack_screen(["Ann"])))
    device.feed(p.encode_frame(p.REGION, p.pack_region("t", ROWS + 1, 0, 5, "Bo")))
    device.feed(p.encode_frame(p.REGION, p.pack_region("u", 0, 4, 3, "Cy")))
    assert screen.shown[-1] == ["Ann Cy ", *[""] * (ROWS - 1)]
    assert all(len(line) <= COLS for line in screen.shown[-1])


class Pin:
    """machine.Pin's stand-in: pulled up (1) until the test grounds it."""

    IN, PULL_UP = 0, 1

    def __init__(self, number: int, mode: int = 0, pull: int = 0) -> None:
        self.number = number
        self.level = 1

    def value(self) -> int:
        return self.level


class Machine:
    Pin = Pin


def test_a_chattering_key_sends_one_key_and_a_tap_shorter_than_the_debounce_sends_none() -> None:
    """firmware/main.py: "a key must read the same for 30 ms to count" (DEBOUNCE_POLLS polls of 10 ms): a
    switch that bounces while pressed is one press, a blip of noise is none, and letting go sends nothing."""
    keys = Keys(Machine())
    ok = dict(keys.pins)["ok"]
    assert [(name, pin.number) for name, pin in keys.pins] == list(KEY_PINS)
    ok.level = 0  # noise: low for fewer polls than the debounce needs
    assert [keys.pressed() for _ in range(DEBOUNCE_POLLS - 1)] == [[]] * (DEBOUNCE_POLLS - 1)
    ok.level = 1
    assert keys.pressed() == []
    polls = []
    for level in (0, 1, 0, 0, 0, 0, 0):  # a press that chatters once, then holds
        ok.level = level
        polls.append(keys.pressed())
    assert [name for poll in polls for name in poll] == ["ok"]
    ok.level = 1  # let go: counted as up, but no KEY frame for a release
    assert [keys.pressed() for _ in range(DEBOUNCE_POLLS + 1)] == [[]] * (DEBOUNCE_POLLS + 1)
    ok.level = 0
    assert [name for _ in range(DEBOUNCE_POLLS) for name in keys.pressed()] == ["ok"]  # the next press counts too


class Panel:
    """ssd1306.SSD1306_I2C's stand-in: what was cleared, written where, and shown."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    def fill(self, colour: int) -> None:
        self.calls.append(("fill", colour))

    def text(self, text: str, x: int, y: int) -> None:
        self.calls.append(("text", text, x, y))

    def show(self) -> None:
        self.calls.append(("show",))


def test_the_oled_is_cleared_then_each_row_drawn_8_pixels_below_the_last_then_shown() -> None:
    """The 8×8 font: row r at y = 8r, so 8 rows fill the 64-pixel panel; nothing of the last screen stays."""
    panel = Panel()
    device = Device("pico-1", OledScreen(panel), [].append)
    device.feed(p.encode_frame(p.SCREEN, p.pack_screen(["Ann", "Your turn"])))
    assert panel.calls[0] == ("fill", 0) and panel.calls[-1] == ("show",)
    assert [call[3] for call in panel.calls[1:-1]] == [8 * row for row in range(ROWS)]
    assert panel.calls[1:3] == [("text", "Ann", 0, 0), ("text", "Your turn", 0, 8)]


def test_without_a_panel_the_display_still_answers_the_host() -> None:
    """No OLED on the I2C bus (ReplScreen): the board still says HELLO, answers PING and takes its screens."""
    sent: list[bytes] = []
    device = Device("pico-1", firmware.ReplScreen(), sent.append)
    device.feed(p.encode_frame(p.PING, b"t") + p.encode_frame(p.SCREEN, p.pack_screen(["Ann"])))
    assert replies(sent) == [(p.PONG, b"t")] and device.lines[0] == "Ann"
