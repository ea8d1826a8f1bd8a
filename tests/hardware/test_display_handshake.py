"""Pairing binds a secret, not a name: a display proves it holds its pairing key on every connection.

From issue 13: "A device that claims a paired identity without the key gets nothing private. The shared screen
says 'A display claims to be Ann's but could not prove it', and the status strip never shows it as Ann's."
Everything runs over real pseudo-terminals with the emulator, which speaks the same protocol as the firmware.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.session import Session
from hardware.display import protocol as p
from hardware.display.emulator import DisplayCore, PtyDisplay
from hardware.display.hub import DisplayHub, DisplayState, DisplayStatus
from hardware.display.link import UPDATE_FIRMWARE
from tests.hardware.test_display_hub import SECRETS, _playing, code_of, paired, texts
from tests.support import QueuedDispatcher, wait_until
from tests.support.displays import DisplayPorts
from ui.widgets.displays import chip_text


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    """A game of Secrets between Ann and Bo (the hub tests' game): their displays show ANNSECRET0, BOSECRET0…"""
    yield from _playing(SECRETS, tmp_path)


def never_private(display: PtyDisplay) -> bool:
    return not any("SECRET" in text for text in texts(display.core))


def test_a_display_claiming_anns_identity_without_her_key_gets_nothing_private(
    hub: DisplayHub, table: DisplayPorts, session: Session, dispatcher: QueuedDispatcher
) -> None:
    """'A second device that sent Ann's identity received 10 of Ann's private screens': now it gets a code only."""
    hub.attach(session)
    ann = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    for impostor_key in (None, secrets.token_bytes(p.KEY_SIZE)):  # no key at all, and a key of its own
        impostor = table.plug("emu-ann", f"usb-impostor-{impostor_key is None}", key=impostor_key)
        code = code_of(impostor)
        session.act({"type": "pass", "player": "Ann"})  # Ann's secrets change while it listens
        assert ann.core.wait_for_text("moves:")
        assert never_private(impostor), texts(impostor.core)
        dispatcher.run()
        claims = [s for s in hub.status() if s.code == code]
        assert claims[0].sentence == "A display claims to be Ann's but could not prove it"
        assert chip_text(claims[0]).startswith("A display claims to be Ann's but could not prove it")
        anns = [s for s in hub.status() if s.player == "Ann"]
        assert anns == [DisplayStatus("Ann", DisplayState.CONNECTED, "emu-ann", ann.path)], "only the real one is Ann's"
        impostor.unplug()


def test_while_unproven_a_display_shows_neither_secrets_nor_a_code(table: DisplayPorts, session: Session) -> None:
    """'The host sends nothing private until the answer checks out.'"""
    ports = [str(table.ports / "*")]
    key = secrets.token_bytes(p.KEY_SIZE)
    silent = DisplayCore("emu-ann", 40, 12, key=key)
    silent_feed = silent.feed
    silent.feed = lambda data: [r for r in silent_feed(data) if p.decode_frame(r[:-1])[0] != p.PROOF]  # type: ignore[method-assign]
    with DisplayHub(table.ports.parent / "pairings.json", ports=ports) as hub:
        hub.pairings.bind("emu-ann", "Ann", key)
        hub.attach(session)
        with PtyDisplay(silent, link=table.ports / "usb-silent") as display:
            assert display.core.wait_for_text("Checking it is paired")
            assert never_private(display) and display.core.pair_code is None
            assert [s.state for s in hub.status() if s.player == "Ann"] == [DisplayState.UNPLUGGED]


def test_a_paired_display_proves_itself_again_after_a_replug(
    tmp_path: Path, hub: DisplayHub, table: DisplayPorts, session: Session
) -> None:
    """Each connection is challenged with a fresh nonce, and the key the display kept answers it."""
    hub.attach(session)
    ann = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    for port in ("usb-b", "usb-c"):
        ann.unplug()
        ann.plug(link=table.ports / port)
        assert ann.core.wait_for_text("ANNSECRET0")
    challenges = [payload for kind, payload in ann.core.received if kind == p.CHALLENGE]
    assert len(challenges) == 3, "one at pairing, one on each replug"
    assert len(set(challenges)) == 3 and all(len(c) == p.NONCE_SIZE for c in challenges)


def test_re_pairing_a_replaced_display_is_one_step(hub: DisplayHub, table: DisplayPorts, session: Session) -> None:
    """'Re-pairing a replaced display is one deliberate step on the touchscreen': choosing Ann for its code."""
    hub.attach(session)
    old = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    old.unplug()
    replacement = table.plug("emu-ann", "usb-b")  # same identity (a reflashed board), no key
    code = code_of(replacement)
    assert never_private(replacement)
    assert hub.pair(code, "Ann")
    assert replacement.core.wait_for_text("ANNSECRET0")
    old.core.received.clear()
    old.plug(link=table.ports / "usb-c")  # the old key no longer opens anything
    code_of(old)
    assert never_private(old)


def test_a_display_with_old_firmware_is_told_to_update_on_its_own_screen(table: DisplayPorts) -> None:
    """'Bump the protocol version. A display with the old firmware is told, on its own screen, to update.'"""
    with DisplayHub(table.ports.parent / "pairings.json", ports=[str(table.ports / "*")]) as hub:
        old = PtyDisplay(DisplayCore("emu-old", 16, 8, version=1), link=table.ports / "usb-old").plug()
        try:
            assert old.core.wait_for_text("update"), old.core.text()
            assert " ".join(old.core.text().split()) == UPDATE_FIRMWARE
            assert hub.status() == []  # it is no one's display, and gets nothing else
        finally:
            old.close()


def test_a_flood_of_hellos_costs_one_log_line_a_burst_and_few_ui_calls(
    hub: DisplayHub,
    table: DisplayPorts,
    session: Session,
    dispatcher: QueuedDispatcher,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """'20,000 HELLOs cost 20,001 log lines and 20,001 UI-thread callbacks': now a resend each, one line a burst."""
    hub.attach(session)
    ann = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    heard = []
    hub.subscribe(lambda: heard.append(1))
    dispatcher.run()
    heard.clear()
    caplog.set_level(logging.INFO, logger="hardware.display")
    hello = ann.core.hello_frame()
    for _ in range(20):
        ann.write(hello * 1000)
    ann.core.reset()  # it restarted at the end of it all: the whole screen must come back
    ann.write(hello)
    assert wait_until(lambda: hub.scanner.links[0].stats.frames >= 20_001, timeout=60)
    assert ann.core.wait_for_text("ANNSECRET0")
    dispatcher.run()
    lines = [r for r in caplog.records if "HELLO" in r.getMessage() or "emu-ann" in r.getMessage()]
    assert len(lines) <= 10, [r.getMessage() for r in lines]
    assert len(heard) <= 2


def test_a_display_that_restarts_gets_the_whole_current_screen(
    hub: DisplayHub, table: DisplayPorts, session: Session
) -> None:
    """'Every HELLO, and every reconnect, makes the host send the full current screen.'"""
    hub.attach(session)
    ann = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    for _ in range(3):
        ann.write(p.encode_frame(p.KEY, b"down")[:3])  # half a frame on its way when it went
        ann.reboot()
        assert ann.core.wait_for_text("ANNSECRET0"), ann.core.text()


def test_a_hello_glued_to_a_half_frame_is_asked_for_again(
    hub: DisplayHub, table: DisplayPorts, session: Session
) -> None:
    """A display that reboots mid-frame (half a frame, then HELLO) no longer stays blank: the host asks again."""
    hub.attach(session)
    ann = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    ann.core.reset()
    ann.write(p.encode_frame(p.KEY, b"down")[:3] + ann.core.hello_frame())  # no zero byte in between
    assert ann.core.wait_for_text("ANNSECRET0"), ann.core.text()
