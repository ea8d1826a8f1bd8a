"""The host side of a display on real pseudo-terminals: hello, screens, keys, bad input, loss, rescans."""

from __future__ import annotations

import os
import threading
import time
import tty
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.display import protocol as p
from hardware.display.emulator import DisplayCore, PtyDisplay
from hardware.display.link import DisplayLink, Hello, PortScanner, expand
from tests.support import wait_until


class Events:
    """Records what a link reports, from its threads."""

    def __init__(self) -> None:
        self.hellos: list[Hello] = []
        self.hello_ports: list[str] = []  # the port of the link each HELLO came through
        self.keys: list[str] = []
        self.lost: list[BaseException | None] = []
        self.lock = threading.Lock()

    def hello(self, link: DisplayLink, hello: Hello) -> None:
        with self.lock:
            self.hellos.append(hello)
            self.hello_ports.append(link.port)

    def key(self, link: DisplayLink, key: str) -> None:
        with self.lock:
            self.keys.append(key)

    def gone(self, link: DisplayLink, error: BaseException | None) -> None:
        with self.lock:
            self.lost.append(error)

    def handlers(self) -> dict[str, Any]:
        return {"on_hello": self.hello, "on_key": self.key, "on_lost": self.gone}


@pytest.fixture
def display() -> Iterator[PtyDisplay]:
    with PtyDisplay(DisplayCore("emu-ann", 20, 4)) as emulated:
        yield emulated


@pytest.fixture
def events() -> Events:
    return Events()


def screen(*lines: str) -> bytes:
    return p.encode_frame(p.SCREEN, p.pack_screen(list(lines)))


def test_hello_screen_and_key(display: PtyDisplay, events: Events) -> None:
    with DisplayLink.open(display.path, **events.handlers()) as link:
        assert wait_until(lambda: events.hellos)
        assert events.hellos[0] == Hello("emu-ann", 20, 4, ("up", "down", "ok", "back"))
        assert link.identity == "emu-ann"
        link.show(screen("Ann", "Your turn"))
        assert display.core.wait_for_text("Your turn")
        assert display.core.screen() == ["Ann", "Your turn", "", ""]
        display.press("ok")
        assert wait_until(lambda: events.keys == ["ok"])
        assert link.stats.rejected == 0


def test_screens_are_idempotent_and_regions_keyed(display: PtyDisplay, events: Events) -> None:
    with DisplayLink.open(display.path, **events.handlers()) as link:
        frame = screen("Ann", "Bo's turn")
        for _ in range(3):
            link.send(frame)
        link.send(p.encode_frame(p.REGION, p.pack_region("turn", 1, 0, 12, "Your turn")))
        link.send(p.encode_frame(p.REGION, p.pack_region("turn", 1, 0, 12, "Your turn")))
        assert display.core.wait_for_text("Your turn")
        assert display.core.screen() == ["Ann", "Your turn", "", ""]
        link.send(frame)  # a full screen clears the regions: the same picture as the first time
        assert display.core.wait_for(lambda core: core.screen() == ["Ann", "Bo's turn", "", ""])


def test_a_newer_screen_replaces_one_not_yet_written(events: Events) -> None:
    # A device that reads nothing: frames pile up, but show() never waits and keeps only the newest.
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        with DisplayLink.open(os.ttyname(slave), write_timeout=0.2, **events.handlers()) as link:
            big = screen(*["x" * 200] * 5)
            slowest = 0.0
            deadline = time.monotonic() + 10
            while link.stats.write_timeouts == 0 and time.monotonic() < deadline:
                started = time.monotonic()
                link.show(big)
                slowest = max(slowest, time.monotonic() - started)
                time.sleep(0.0005)
            assert link.stats.write_timeouts >= 1  # the terminal's buffer is full: the device is stuck
            assert slowest < 0.05  # and yet show() never waited for it
            assert link.is_open
    finally:
        os.close(master)
        os.close(slave)


def test_bad_input_is_counted_and_skipped(display: PtyDisplay, events: Events) -> None:
    with DisplayLink.open(display.path, **events.handlers()) as link:
        assert wait_until(lambda: events.hellos)
        body = bytearray(p.cobs_decode(p.encode_frame(p.KEY, b"ok")[:-1]))
        body[-1] ^= 0xFF
        display.write(b"\x00line noise\x00")  # not COBS
        display.write(p.cobs_encode(bytes(body)) + b"\x00")  # bad CRC
        display.write(p.encode_frame(p.KEY, b"ok", version=9))  # another protocol version
        display.write(p.encode_frame(p.SCREEN, b"hi"))  # a type only the host sends
        display.write(b"\x07" * (p.MAX_ENCODED + 10) + b"\x00")  # oversize
        display.write(p.encode_frame(p.HELLO, b"\x01"))  # a HELLO that does not parse
        display.press("back")
        assert wait_until(lambda: events.keys == ["back"])
        s = link.stats
        assert (s.garbage, s.bad_crc, s.wrong_version, s.unknown, s.oversize, s.malformed) == (1, 1, 1, 1, 1, 1)
        # Damaged input makes the host ask for a HELLO again, once (it may have been a HELLO): nothing more.
        assert link.is_open and wait_until(lambda: len(events.hellos) == 2)
        assert len(events.hellos) == 2


def test_a_failing_handler_does_not_stop_the_reader(display: PtyDisplay, events: Events) -> None:
    def explode(link: DisplayLink, key: str) -> None:
        events.key(link, key)
        raise RuntimeError("handler bug")

    with DisplayLink.open(display.path, on_key=explode) as link:
        display.press("up")
        display.press("down")
        assert wait_until(lambda: events.keys == ["up", "down"])
        assert link.stats.handler_errors == 2
        assert link.is_open


def test_a_device_speaking_another_version_is_never_introduced(events: Events) -> None:
    with (
        PtyDisplay(DisplayCore("emu-v2", version=p.VERSION + 1)) as other,
        DisplayLink.open(other.path, **events.handlers()) as link,
    ):
        other.write(other.core.hello_frame())
        assert wait_until(lambda: link.stats.wrong_version >= 1)
        other.press("ok")
        assert wait_until(lambda: link.stats.wrong_version >= 2)
        assert events.hellos == [] and events.keys == [] and link.identity is None


def test_unplugging_is_noticed(display: PtyDisplay, events: Events) -> None:
    link = DisplayLink.open(display.path, **events.handlers())
    assert wait_until(lambda: events.hellos)
    display.unplug()
    assert wait_until(lambda: events.lost)
    assert not link.is_open
    link.show(screen("nobody reads this"))  # harmless after the loss
    link.close()
    link.close()
    assert len(events.lost) == 1


def test_closing_reports_once_and_is_safe_twice(display: PtyDisplay, events: Events) -> None:
    link = DisplayLink.open(display.path, **events.handlers())
    assert wait_until(lambda: events.hellos)
    link.close()
    link.close()
    assert wait_until(lambda: events.lost == [None])
    assert not link.is_open


def test_closing_from_a_handler_in_the_reader_thread(display: PtyDisplay, events: Events) -> None:
    def close_on_key(link: DisplayLink, key: str) -> None:
        link.close()

    link = DisplayLink.open(display.path, on_key=close_on_key, on_lost=events.gone)
    display.press("ok")
    assert wait_until(lambda: events.lost)
    assert not link.is_open


def test_expand_urls_and_globs(tmp_path: Path) -> None:
    (tmp_path / "b").touch()
    (tmp_path / "a").touch()
    assert expand(["loop://", str(tmp_path / "*"), str(tmp_path / "none")]) == [
        "loop://",
        str(tmp_path / "a"),
        str(tmp_path / "b"),
    ]


def test_scanner_opens_reopens_and_never_opens_a_device_twice(tmp_path: Path, events: Events) -> None:
    """Two names of one device (its by-id and by-path links, as udev makes them) open it once; a device plugged
    again under a new name is opened again.

    The second name is a link of our own, gone with the device as udev's is, never the terminal's own path: the
    system gives pseudo-terminal numbers out again at once, so a scanner still watching a freed one opened another
    test's display and took its bytes (and its HELLO counted here)."""
    by_id, by_path = tmp_path / "by-id", tmp_path / "by-path"
    by_path.mkdir()

    def second_name(display: PtyDisplay) -> Path:
        link = by_path / "platform-usb-0:1.2"
        link.symlink_to(display.slave_path or "")
        return link

    with PtyDisplay(DisplayCore("emu-bo"), link=by_id / "usb-display-1") as display:
        first_other_name = second_name(display)
        scanner = PortScanner([str(by_id / "*"), str(by_path / "*")], interval=0.05, **events.handlers())
        with scanner:
            _assert_opened_once(scanner, events, by_id / "usb-display-1", said=[by_id / "usb-display-1"])
            first_other_name.unlink()
            display.unplug()
            assert wait_until(lambda: events.lost and not scanner.links)
            display.plug(link=by_id / "usb-display-2")
            second_name(display)
            said = [by_id / "usb-display-1", by_id / "usb-display-2"]
            _assert_opened_once(scanner, events, by_id / "usb-display-2", said=said)


def _assert_opened_once(scanner: PortScanner, events: Events, port: Path, *, said: list[Path]) -> None:
    """One link, on `port`, and HELLOs through the links on the ports `said` only: none from a second name of the
    device. (A link asks again a device that has not answered within a second, `ask_every`: on a slow machine, an
    emulated Pi's, one device may say HELLO twice through the same link.)"""
    assert wait_until(lambda: str(port) in events.hello_ports)
    time.sleep(0.2)  # four more scans: time enough to open the second name too, if it would be
    assert [link.port for link in scanner.links] == [str(port)]
    assert list(dict.fromkeys(events.hello_ports)) == [str(name) for name in said]


def test_a_link_lost_while_being_opened_is_never_kept(tmp_path: Path, events: Events) -> None:
    """A display unplugged while the scanner was opening it left a dead link under its port's name, so the next
    device given that name was never opened and its display stayed blank (the fuzz test's rare failure)."""
    ports = tmp_path / "by-id"
    opened: list[DisplayLink] = []

    def opener(port: str, **handlers: Any) -> DisplayLink:
        link = DisplayLink.open(port, **handlers)
        if not opened:
            link.close()  # gone before the scanner has noted it as open
        opened.append(link)
        return link

    with (
        PtyDisplay(DisplayCore("emu-bo"), link=ports / "usb-display-1"),
        PortScanner([str(ports / "*")], interval=0.05, opener=opener, **events.handlers()) as scanner,
    ):
        assert wait_until(lambda: events.hellos), "the port was never opened again"
        assert len(opened) == 2 and scanner.links == [opened[1]]


def test_scanner_asks_again_a_device_that_was_slow_to_start(tmp_path: Path, events: Events) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    link_path = tmp_path / "slow"
    link_path.symlink_to(os.ttyname(slave))
    try:
        with PortScanner([str(link_path)], interval=0.05, ask_every=0.1, **events.handlers()):
            asks = bytearray()
            deadline = time.monotonic() + 5
            while asks.count(p.encode_frame(p.ASK)) < 2 and time.monotonic() < deadline:
                asks += os.read(master, 100)
            assert asks.count(p.encode_frame(p.ASK)) >= 2
            os.write(master, DisplayCore("late").hello_frame())
            assert wait_until(lambda: events.hellos and events.hellos[0].identity == "late")
    finally:
        os.close(master)
        os.close(slave)
