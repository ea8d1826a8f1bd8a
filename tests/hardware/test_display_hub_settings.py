"""The hub as Settings and the shared screen use it: forgetting a display, the display strip, keys of nobody's.

Real emulated displays on real pseudo-terminals, a real hub scanning them (the `hub` and `table` fixtures).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.session import Session
from hardware.display import hub as hub_module
from hardware.display import protocol as p
from hardware.display.hub import DisplayHub, DisplayState, DisplayStatus
from tests.hardware.test_display_hub import SECRETS, VIEWS, WITH_MENU, _playing, code_of, paired, paired_to_menu, texts
from tests.support import QueuedDispatcher, wait_until
from tests.support.displays import DisplayPorts


@pytest.fixture
def secrets(tmp_path: Path) -> Iterator[Session]:
    """A game of Secrets between Ann and Bo (test_display_hub.py's), shown plainly on their displays."""
    yield from _playing(SECRETS, tmp_path)


def test_forgetting_a_players_display_shows_a_code_on_it_and_nothing_secret(
    hub: DisplayHub, table: DisplayPorts, secrets: Session
) -> None:
    """Settings' "forget this display": it shows a pairing code again, and the strip says Ann's is unpaired;
    forgetting a player who has none changes nothing."""
    hub.attach(secrets)
    assert hub.players == ("Ann", "Bo")
    display = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    seen = len(display.core.received)
    hub.unpair("Bo")
    hub.unpair("Ann")
    assert display.core.wait_for(lambda core: core.pair_code is not None)
    assert hub.status()[0] == DisplayStatus("Ann", DisplayState.UNPAIRED)
    assert hub.pairings.as_dict() == {}
    assert not any("SECRET" in text for text in texts(display.core)[seen:])
    hub.detach()
    assert hub.players == ()


def test_a_broken_listener_does_not_silence_the_display_strip(
    hub: DisplayHub, table: DisplayPorts, dispatcher: QueuedDispatcher, caplog: pytest.LogCaptureFixture
) -> None:
    """One panel's bug is logged; the others still hear of the display that was plugged in."""
    told: list[int] = []

    def broken() -> None:
        raise RuntimeError("a panel's bug")

    hub.subscribe(broken)
    unsubscribe = hub.subscribe(lambda: told.append(len(hub.pending_codes())))
    table.plug("emu-1", "usb-a")
    with caplog.at_level(logging.ERROR, logger="hardware.display.hub"):
        assert wait_until(lambda: dispatcher.run() >= 0 and told and told[-1] == 1)
    assert "a display status listener failed" in caplog.text
    unsubscribe()
    unsubscribe()  # a panel closed twice: no error


def test_keys_of_a_display_nobody_paired_reach_no_player(
    hub: DisplayHub, table: DisplayPorts, secrets: Session, dispatcher: QueuedDispatcher
) -> None:
    """A display showing a pairing code belongs to nobody yet: its ok key is nobody's move."""
    heard: list[tuple[str, str]] = []
    stop = hub.on_key(lambda player, key: heard.append((player, key)))
    hub.attach(secrets)
    stranger = table.plug("emu-x", "usb-x")
    code_of(stranger)
    stranger.press("ok")
    ann = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    ann.press("ok")
    assert wait_until(lambda: dispatcher.run() >= 0 and bool(heard))
    assert heard == [("Ann", "ok")]
    stop()
    stop()


def test_a_display_saying_hello_again_and_again_is_logged_once_a_while(
    hub: DisplayHub, table: DisplayPorts, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A display that restarts in a loop gets its screen again each time; the log notes the repeats, counted."""
    display = table.plug("emu-loop", "usb-a")
    code = code_of(display)
    monkeypatch.setattr(hub_module, "HELLO_LOG_EVERY", 0.0)
    with caplog.at_level(logging.INFO, logger="hardware.display.hub"):
        display.reboot()
        assert display.core.wait_for(lambda core: core.pair_code == code)
        assert wait_until(lambda: "said HELLO again (1 times since last noted)" in caplog.text)
    assert hub.pending_codes() == [code]


def test_a_screen_too_big_for_one_frame_loses_its_last_rows_never_the_frame() -> None:
    """hub.py: "a screen too big for one frame loses its last rows, never the frame" (a 255×255 display)."""
    lines = [f"row {i} " + "x" * 100 for i in range(40)]
    payload = hub_module._payload(lines)
    assert len(payload) <= p.MAX_PAYLOAD
    kept = p.unpack_screen(payload)
    assert kept == lines[: len(kept)] and 0 < len(kept) < len(lines)


def test_only_a_display_that_claimed_someone_else_has_a_sentence() -> None:
    assert DisplayStatus(None, DisplayState.UNPAIRED).sentence is None
    claimed = DisplayStatus(None, DisplayState.UNPAIRED, claims="Ann").sentence
    assert claimed == "A display claims to be Ann's but could not prove it"


@pytest.fixture
def with_menu(tmp_path: Path) -> Iterator[Session]:
    """Secrets with a menu of one's words on one's display (test_display_hub.py's)."""
    yield from _playing(WITH_MENU, tmp_path)


def test_a_menu_key_arriving_after_the_game_ended_plays_nothing(
    hub: DisplayHub, table: DisplayPorts, with_menu: Session, dispatcher: QueuedDispatcher
) -> None:
    """hub.py: "the game changed while the key was on its way": the key waits for the UI thread, where the
    table has closed the game meanwhile; it must not act in the game that was left."""
    hub.attach(with_menu)
    ann = paired_to_menu(hub, table.plug("emu-ann", "usb-a", cols=20, rows=4), "Ann")
    dispatcher.run()  # the pairing's news for the shared screen: only the key is left to come
    ann.press("ok")
    assert wait_until(lambda: bool(dispatcher.pending))
    hub.detach()
    while dispatcher.run():
        pass
    assert with_menu.moves == ()
    hub.attach(with_menu)  # the game on again: the same key is played, as the detach above prevented
    ann.press("ok")
    assert wait_until(lambda: dispatcher.run() >= 0 and len(with_menu.moves) == 1)


def test_a_menu_that_fails_on_a_key_is_logged_and_plays_nothing(
    hub: DisplayHub, table: DisplayPorts, with_menu: Session, dispatcher: QueuedDispatcher,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A game's display module with a bug: the key is logged with the player's name and nothing is played."""
    hub.attach(with_menu)
    ann = paired_to_menu(hub, table.plug("emu-ann", "usb-a", cols=20, rows=4), "Ann")
    VIEWS.fail_views = True
    ann.press("ok")
    with caplog.at_level(logging.ERROR, logger="hardware.display.hub"):
        assert wait_until(lambda: dispatcher.run() >= 0 and "menu failed" in caplog.text)
    assert "Ann's display menu failed on the key 'ok'" in caplog.text
    assert with_menu.moves == ()
