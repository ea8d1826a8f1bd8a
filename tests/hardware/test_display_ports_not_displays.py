"""Ports the owner's pattern matches that are not displays: passed over, logged once, the real display found.

The config's display ports are glob patterns (``/dev/serial/by-id/*``): they may match a plain file, a link to a
device that has gone, or a device that is not a display. None of them may stop the scanner, flood the log
(it scans five times a second), or keep a real display beside them from being found.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from hardware.display import protocol as p
from hardware.display.emulator import DisplayCore, PtyDisplay
from hardware.display.link import DisplayLink, PortScanner
from tests.hardware.test_display_link import Events
from tests.support import wait_until


def test_ports_that_cannot_be_opened_are_logged_once_and_a_display_beside_them_is_found(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ports = tmp_path / "by-id"
    ports.mkdir()
    (ports / "usb-a-plain-file").write_text("not a terminal")
    (ports / "usb-b-gone").symlink_to(tmp_path / "ttyACM9")  # a device unplugged, its link not yet removed
    events = Events()
    scanner = PortScanner([str(ports / "*")], **events.handlers())
    try:
        with caplog.at_level(logging.INFO, logger="hardware.display.link"):
            for _ in range(5):
                assert scanner.scan_once() == []
        refused = [r.getMessage() for r in caplog.records if "cannot be opened" in r.getMessage()]
        assert len(refused) == 2, refused  # one line a port, not one a scan
        with PtyDisplay(DisplayCore("emu-ann"), link=ports / "usb-c-display") as display:
            opened = scanner.scan_once()
            assert [link.port for link in opened] == [display.path]
            assert wait_until(lambda: [hello.identity for hello in events.hellos] == ["emu-ann"])
    finally:
        scanner.close()


def test_a_scanner_started_twice_runs_one_thread(tmp_path: Path) -> None:
    scanner = PortScanner([str(tmp_path / "*")], interval=0.05)
    try:
        assert scanner.start() is scanner.start()
    finally:
        scanner.close()
        scanner.close()


def test_waiting_for_a_screen_to_be_written_ends_on_a_closed_link_or_a_timeout() -> None:
    """`make bench` waits for each screen to reach the display (`wait_written`): it must say False, not hang,
    when the display is gone or too slow."""
    with PtyDisplay(DisplayCore("emu-ann", 20, 4)) as display:
        link = DisplayLink.open(display.path)
        try:
            assert display.core.wait_for(lambda core: core.received)  # its opening question was written
            # and counted: the display may read it before the writer's count goes up (a race seen under coverage).
            # `open` writes two things: a lone delimiter (ending any half frame) and the question.
            assert link.wait_written(2, 5.0)
            before = link.written
            link.show(p.encode_frame(p.SCREEN, p.pack_screen(["Ann", "Your turn"])))
            assert link.wait_written(before + 1, 5.0)
            assert display.core.wait_for_text("Your turn")
            assert link.wait_written(before + 2, 0.05) is False  # nothing more was sent
        finally:
            link.close()
        assert link.wait_written(before + 2, 5.0) is False  # closed: nothing more will be written
