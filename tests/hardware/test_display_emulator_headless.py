"""`companion display-emulator --headless` as a maintainer runs it: a real process on a real pseudo-terminal.

README (player displays): "prints the port path, then ... with --headless, prints each new screen and reads key
names from stdin". The process is `python -m hardware.display.emulator`, the module `companion display-emulator`
runs; the host side is the test, opening the printed port as the table would.
"""

from __future__ import annotations

import argparse
import os
import queue
import select
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hardware.display import protocol as p
from hardware.display.emulator import DisplayCore, PtyDisplay, main, pairing_lines, parse_size

ROOT = Path(__file__).resolve().parents[2]
KEY = bytes(range(1, 1 + p.KEY_SIZE))
NONCE = bytes(range(p.NONCE_SIZE))


class Emulator:
    """`python -m hardware.display.emulator --headless ...`, its printed lines in a queue, its port opened."""

    def __init__(self, home: Path, *args: str) -> None:
        env = {**os.environ, "COMPANION_HOME": str(home)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hardware.display.emulator", "--headless", *args],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )
        self.printed: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [self.printed.put(line) for line in self.process.stdout or ()],
                         daemon=True).start()
        self.port = Path(self.printed.get(timeout=20).strip())
        self.fd = os.open(self.port, os.O_RDWR | os.O_NOCTTY)
        self.splitter = p.FrameSplitter()

    def until(self, needle: str) -> str:
        lines: list[str] = []
        while needle not in "".join(lines):
            lines.append(self.printed.get(timeout=10))
        return "".join(lines)

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def hear(self, kind: int) -> bytes:
        """Frames from the display until one of `kind`; its payload."""
        while True:
            assert select.select([self.fd], [], [], 10)[0], f"no {p.NAMES[kind]} frame"
            for frame in self.splitter.feed(os.read(self.fd, 4096)):
                got, payload = p.decode_frame(frame)
                if got == kind:
                    return payload

    def send(self, kind: int, payload: bytes = b"") -> None:
        os.write(self.fd, p.encode_frame(kind, payload))

    def quit(self) -> int:
        self.type("quit")
        try:
            return self.process.wait(10)
        finally:
            os.close(self.fd)
            self.process.kill()
            self.process.wait()


def test_headless_prints_its_port_and_each_screen_and_sends_the_keys_typed(tmp_path: Path) -> None:
    """README: "--headless, prints each new screen and reads key names from stdin"; a key it lacks is a sentence,
    not a crash; "quit" ends it and its port goes, as an unplugged display's."""
    link = tmp_path / "by-id" / "usb-emu-ann"
    emulator = Emulator(tmp_path, "--identity", "emu-ann", "--size", "16x4", "--keys", "ok, back", "--link", str(link))
    try:
        assert emulator.port == link and link.is_symlink()
        assert "emu-ann: 16x4, keys: ok back" in emulator.until("keys:")
        assert p.unpack_hello(emulator.hear(p.HELLO)) == ("emu-ann", 16, 4, ["ok", "back"])
        emulator.send(p.SCREEN, p.pack_screen(["Ann  1/3", "Your turn"]))
        assert "|Your turn       |" in emulator.until("Your turn")
        emulator.type("ok")
        assert emulator.hear(p.KEY) == b"ok"
        emulator.type("up")
        assert "this display has no key 'up'; it has ok, back" in emulator.until("no key")
    finally:
        assert emulator.quit() == 0
    assert not link.exists()


def test_a_paired_emulator_proves_its_key_after_a_restart(tmp_path: Path) -> None:
    """Like the firmware's flash, the emulator keeps the key a BIND gives it (under COMPANION_HOME, by identity):
    restarted, it still proves it is the paired display, so the player's secrets come back to it."""
    first = Emulator(tmp_path, "--identity", "emu-bo")
    try:
        first.hear(p.HELLO)
        first.send(p.BIND, KEY)
        first.send(p.CHALLENGE, NONCE)
        assert first.hear(p.PROOF) == p.prove(KEY, NONCE)
    finally:
        assert first.quit() == 0
    kept = tmp_path / "data" / "emulated-display-keys" / "emu-bo.key"
    assert kept.read_bytes() == KEY and oct(kept.stat().st_mode & 0o777) == "0o600"
    again = Emulator(tmp_path, "--identity", "emu-bo")
    try:
        again.send(p.CHALLENGE, NONCE)
        assert again.hear(p.PROOF) == p.prove(KEY, NONCE)
    finally:
        assert again.quit() == 0


def test_the_window_gets_the_display_and_its_exit_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --headless, `companion display-emulator` hands the plugged display to the Kivy window it passes
    (hardware/ never imports ui/), with the identity, size and keys asked for; the window's exit is the command's."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    seen: list[tuple[str, int, int, tuple[str, ...], bool]] = []

    def window(display: PtyDisplay) -> int:
        core = display.core
        seen.append((core.identity, core.cols, core.rows, core.keys, Path(display.path).is_symlink()))
        return 3

    assert main(["--size", "21×8", "--keys", "a,b,,c"], window=window) == 3
    (identity, cols, rows, keys, linked) = seen[0]
    assert identity.startswith("emu-") and (cols, rows, keys, linked) == (21, 8, ("a", "b", "c"), True)
    assert not (tmp_path / "data" / "emulated-displays" / identity).exists()  # unplugged when the window closed


def test_a_firmware_identity_that_is_not_one_is_a_sentence_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """`companion display-emulator --firmware --identity ann`: the firmware's identity is its board's id in hex;
    anything else is told so, before any MicroPython starts."""
    assert main(["--firmware", "--identity", "ann"]) == 2
    assert "'ann' is not a firmware identity like pico-" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "error"),
    [("20x", "not a size like 20x4"), ("wide", "not a size like 20x4"), ("0x4", "between 1 and 255"),
     ("20x256", "between 1 and 255")],
)
def test_a_size_the_emulator_cannot_be_is_refused_with_a_sentence(text: str, error: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=error):
        parse_size(text)


def test_a_small_emulator_speaks_the_protocol_as_the_firmware_does() -> None:
    """The emulator stands in for the firmware: PING is answered, a BIND of the wrong size is counted and
    changes nothing, a region below the last row is not drawn, a key it lacks is refused."""
    core = DisplayCore("emu-1", 10, 3, ["ok"])
    replies = core.feed(p.encode_frame(p.PING, b"token123-too-long") + p.encode_frame(p.BIND, b"short"))
    assert [p.decode_frame(r[:-1]) for r in replies] == [(p.PONG, b"token123")]
    assert core.key is None and core.errors == {p.MALFORMED: 1}
    core.feed(p.encode_frame(p.SCREEN, p.pack_screen(["Ann"])))
    core.feed(p.encode_frame(p.REGION, p.pack_region("x", 5, 0, 3, "B")))
    assert core.screen() == ["Ann", "", ""]
    with pytest.raises(ValueError, match="has no key 'up'"):
        core.key_frame("up")
    assert not core.wait_for_text("never", timeout=0.01)


def test_the_pairing_code_fits_a_short_narrow_screen_whole() -> None:
    """Issue 21: every word whole on a small screen; on one too short for the spacing, the code comes first."""
    assert pairing_lines("471", 16, 4) == ["Pair this", "display", "Code: 4 7 1", "Tap your name."]
    assert pairing_lines("471", 16, 5) == ["Pair this", "display", "", "Code: 4 7 1", "Tap your name."]


def test_an_unplugged_emulator_has_no_port_to_give_or_write_to() -> None:
    display = PtyDisplay(DisplayCore("emu-2"))
    with pytest.raises(RuntimeError, match="unplugged"):
        _ = display.path
    with pytest.raises(RuntimeError, match="unplugged"):
        display.write(b"x")
    display.plug()
    with display:  # already plugged: the same port, not a new one
        assert display.plugged
    assert not display.plugged
