"""The phones panel on the 800×480 screen, with the real phone server (issue 15).

Issue 15: "the touchscreen shows one QR code per seat that has no paired
display, each on its own tap ("Ann: show my code"), so the neighbours do not
photograph it"; "A second browser opening a seat's page is refused while the
first is connected, unless the player releases the seat on the touchscreen."
"A phone and a serial display can serve the same seat. The player chooses on
the touchscreen."
"""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import replace
from typing import Any

import pytest
import segno

from companion.config import PhonesConfig
from hardware.phones.server import PhoneServer
from ui.dispatch import clock_dispatcher
from ui.phone_switch import start_phones
from ui.phones import PhoneTable
from ui.presenters.phones import QUIET_ZONE, qr_matrix


@pytest.fixture
def phones(ui: Any) -> Any:
    """A real phone server on 127.0.0.1 (any free port), its pages from the app's session, on the UI thread."""
    link = PhoneTable()
    link.server = PhoneServer(
        host="127.0.0.1", port=0, render=link.render, act=link.act, call_soon=clock_dispatcher, ui_timeout=5.0
    ).start()
    ui.table.config = replace(ui.table.config, phones=PhonesConfig(enabled=True))
    ui.table.phones = link
    yield link
    link.close()
    ui.table.phones = None


class Phone:
    """A phone's browser as a real WebSocket client in a thread of its own: it keeps the seat until dropped."""

    def __init__(self, url: str) -> None:
        self.url = url.replace("http", "ws", 1) + "/live"
        self.pages: list[dict[str, Any]] = []
        self.bye: str | None = None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()

    async def _run(self) -> None:
        import aiohttp

        async with aiohttp.ClientSession() as client, client.ws_connect(self.url) as ws:
            async for message in ws:
                data = json.loads(message.data)
                if data["type"] == "page":
                    self.pages.append(data["page"])
                elif data["type"] == "bye":
                    self.bye = data["sentence"]
                    return


def test_each_seat_shows_its_own_code_on_its_own_tap_and_only_one_at_a_time(ui: Any, phones: PhoneTable) -> None:
    """Issue 15: one QR code per seat, "each on its own tap"; nobody else's code shows at the same time."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    ui.screenshot("quin-phones-button.png")
    ui.tap(ui.find_text(screen, "Phones"))
    panel = next(w for w in ui.window.children if type(w).__name__ == "PhonesPanel")
    ui.settle()
    assert panel.qr is None and panel.url == "", "no code shows before a seat's own tap"
    assert phones.session is screen.session, "opening the panel gives this game's seats their tokens"
    ui.tap(ui.find_text(panel, "Ann: show my code"))
    ann_url = phones.server.url_for("Ann")
    assert panel.url == ann_url and ann_url.startswith("http://127.0.0.1:")
    # The matrix drawn is segno's own code of exactly that URL; the texture has one texel per module.
    assert panel.shown.matrix == qr_matrix(ann_url)
    code = segno.make_qr(ann_url, error="m", boost_error=False)
    assert len(panel.shown.matrix) == code.symbol_size(scale=1, border=QUIET_ZONE)[0]
    assert panel.qr.size == (len(panel.shown.matrix),) * 2
    image = ui.find(panel, "qr_image")
    assert min(image.norm_image_size) >= 250, "big enough to scan from the 800×480 screen"
    ui.screenshot("phones-qr.png")
    # Bo's tap hides Ann's code: one code at a time.
    ui.tap(ui.find_text(panel, "Bo: show my code"))
    assert panel.url == phones.server.url_for("Bo") != ann_url
    assert ui.find_text(panel, "Ann: show my code") is not None
    ui.tap(ui.find(panel, "hide_button"))
    assert panel.qr is None and panel.url == ""
    ui.tap(ui.find(panel, "close_button"))
    ui.settle()
    assert panel.parent is None


def test_a_connected_phone_gets_its_own_page_and_is_released_on_the_touchscreen(ui: Any, phones: PhoneTable) -> None:
    """Issue 15: the page shows that player's private view; a seat is freed "on the touchscreen"."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    ui.tap(ui.find_text(screen, "Phones"))
    panel = next(w for w in ui.window.children if type(w).__name__ == "PhonesPanel")
    phone = Phone(phones.server.url_for("Ann"))
    assert ui.wait_until(lambda: phone.pages, timeout=10), "the phone gets its page (rendered on the UI thread)"
    page = phone.pages[0]
    assert page["title"] == "Ann · Quin" and page["status"] == "Private setup"
    assert page["choices"] and all(c["action"]["player"] == "Ann" for c in page["choices"])
    assert ui.wait_until(lambda: _has_text(panel, "Release Ann's phone"), timeout=5)
    assert not _has_text(panel, "Release Bo's phone")
    ui.screenshot("phones-connected.png")
    # A change in the game reaches the phone by itself.
    screen.session.act(page["choices"][0]["action"])
    assert ui.wait_until(lambda: len(phone.pages) >= 2, timeout=10)
    assert phone.pages[-1]["choices"][0]["action"]["type"] == "assign"
    ui.tap(ui.find_text(panel, "Release Ann's phone"))
    assert ui.wait_until(lambda: phone.bye is not None, timeout=10), "the released phone is dropped"
    assert ui.wait_until(lambda: not _has_text(panel, "Release Ann's phone"), timeout=5)
    ui.tap(ui.find(panel, "close_button"))


def test_release_gives_a_new_code_shown_only_on_its_own_tap_and_forget_every_phone_renews_them_all(
    ui: Any, phones: PhoneTable
) -> None:
    """Issue 24: "Release (and a new "New code for Ann") replaces the seat's code at once: the old page is told
    "This page was closed at the table" and closed, the new QR code shows only on Ann's own tap"; "The table can
    forget every phone of a game in one tap"."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    ui.tap(ui.find_text(screen, "Phones"))
    panel = next(w for w in ui.window.children if type(w).__name__ == "PhonesPanel")
    photographed = phones.server.url_for("Ann")
    guest = Phone(photographed)
    assert ui.wait_until(lambda: _has_text(panel, "Release Ann's phone"), timeout=10)
    assert _has_text(panel, "New code for Bo")
    ui.tap(ui.find_text(panel, "Ann: show my code"))
    assert panel.url == photographed
    ui.screenshot("phones-panel-new-codes.png")
    ui.tap(ui.find_text(panel, "Release Ann's phone"))
    assert ui.wait_until(lambda: guest.bye is not None, timeout=10)
    assert guest.bye == "This page was closed at the table."
    assert panel.qr is None and panel.url == "", "the new code waits for Ann's own tap"
    assert ui.wait_until(lambda: _has_text(panel, "New code for Ann"), timeout=5)
    fresh = phones.server.url_for("Ann")
    assert fresh != photographed
    ui.tap(ui.find_text(panel, "Ann: show my code"))
    assert panel.url == fresh
    bo = phones.server.url_for("Bo")
    ui.tap(ui.find(panel, "forget_button"))
    assert panel.qr is None
    assert phones.server.url_for("Bo") != bo and phones.server.url_for("Ann") != fresh
    ui.screenshot("phones-panel-forgotten.png")
    ui.tap(ui.find(panel, "close_button"))


def _has_text(root: Any, text: str) -> bool:
    return any(getattr(w, "text", None) == text for w in root.walk(restrict=True))


class OneDisplayHub:
    """Stands in for the player-display hub: Ann's display is paired and on, Bo has none."""

    def status(self, _players: Any = None) -> list[Any]:
        from hardware.display.hub import DisplayState, DisplayStatus

        return [DisplayStatus("Ann", DisplayState.CONNECTED)]

    def subscribe(self, _listener: Any) -> Any:
        return lambda: None

    def attach(self, _session: Any) -> None: ...

    def detach(self) -> None: ...


@pytest.fixture
def ann_has_a_display(ui: Any) -> Any:
    ui.table.displays = OneDisplayHub()
    yield
    ui.table.displays = None


def test_a_player_with_a_display_chooses_a_phone_too_on_the_touchscreen(
    ui: Any, phones: PhoneTable, ann_has_a_display: None
) -> None:
    """Issue 15: "A phone and a serial display can serve the same seat. The player chooses on the
    touchscreen." The code shows only after Ann's own tap, then her row reads like any phone seat's."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    ui.tap(ui.find_text(screen, "Phones"))
    panel = next(w for w in ui.window.children if type(w).__name__ == "PhonesPanel")
    ui.settle()
    assert panel.qr is None, "no code shows before the player's own tap"
    assert panel.note == "Ann has a player display and may use a phone too."
    assert ui.find_text(panel, "Bo: show my code") is not None
    ui.screenshot("phones-panel-display-choice.png")
    ui.tap(ui.find_text(panel, "Ann: also use my phone"))
    assert panel.url == phones.server.url_for("Ann") and panel.shown.matrix == qr_matrix(panel.url)
    assert _has_text(panel, "Hide Ann's code") and panel.caption == "Ann: scan this with your own phone"
    ui.settle()
    for widget in panel.walk(restrict=True):
        if getattr(widget, "text", "") and widget.width > 0 and widget.get_root_window() is not None:
            left, bottom = widget.to_window(widget.x, widget.y)
            assert left >= 0 and bottom >= 0, f"{widget.text!r} is on the screen"
            assert left + widget.width <= 800 and bottom + widget.height <= 480, f"{widget.text!r} is not cut off"
    ui.screenshot("phones-panel-display-seat.png")
    ui.tap(ui.find(panel, "hide_button"))
    assert panel.qr is None and _has_text(panel, "Ann: show my code")
    assert not _has_text(panel, "Ann: also use my phone")
    # Ann scans it: her connected phone is her choice made, in the panel opened again too (the screen keeps it,
    # issue 26), and she can release it.
    phone = Phone(phones.server.url_for("Ann"))
    assert ui.wait_until(lambda: phone.pages, timeout=10)
    ui.tap(ui.find(panel, "close_button"))
    ui.settle()
    ui.tap(ui.find_text(screen, "Phones"))
    again = next(w for w in ui.window.children if type(w).__name__ == "PhonesPanel")
    assert again is panel
    assert ui.wait_until(lambda: _has_text(again, "Release Ann's phone"), timeout=5)
    assert _has_text(again, "Ann: show my code") and again.qr is None
    ui.tap(ui.find_text(again, "Release Ann's phone"))
    assert ui.wait_until(lambda: phone.bye is not None, timeout=10), "the released phone is dropped"
    ui.tap(ui.find(again, "close_button"))


def test_the_choice_outlives_the_panel_in_the_set_its_caller_keeps(ui: Any, phones: PhoneTable) -> None:
    """Issue 15: "The player chooses on the touchscreen", once: closing and opening the panel keeps it."""
    from ui.widgets.phones import PhonesPanel

    screen = ui.start_game("quin", ["Ann", "Bo"])
    phones.attach(screen.session)
    chosen: set[str] = set()
    first = PhonesPanel(phones=phones.server, players=["Ann", "Bo"], paired=["Ann"], chosen=chosen)
    first.open()
    ui.settle()
    ui.tap(ui.find_text(first, "Ann: also use my phone"))
    assert chosen == {"Ann"} and first.qr is not None
    ui.tap(ui.find(first, "close_button"))
    ui.settle()
    assert first.qr is None, "closing hides the code"
    second = PhonesPanel(phones=phones.server, players=["Ann", "Bo"], paired=["Ann"], chosen=chosen)
    second.open()
    ui.settle()
    assert _has_text(second, "Ann: show my code") and not _has_text(second, "Ann: also use my phone")
    assert second.qr is None, "a remembered choice shows no code by itself"
    ui.tap(ui.find(second, "close_button"))


def test_the_app_starts_phones_from_the_config_and_a_second_phone_is_told_on_the_shared_screen(ui: Any) -> None:
    """Issue 15: "A second browser ... is refused while the first is connected ... The shared screen says
    "A second phone tried Ann's page"". Started as `start_hardware` does, from `[phones]`."""
    ui.table.dispatch = clock_dispatcher
    ui.table.config = replace(ui.table.config, phones=PhonesConfig(enabled=True, port=0))
    assert start_phones(ui.table) == []
    link = ui.table.phones
    try:
        screen = ui.start_game("quin", ["Ann", "Bo"])
        ui.tap(ui.find_text(screen, "Phones"))
        panel = next(w for w in ui.window.children if type(w).__name__ == "PhonesPanel")
        first = Phone(link.server.url_for("Ann"))
        assert ui.wait_until(lambda: first.pages, timeout=10)
        second = Phone(link.server.url_for("Ann"))
        assert ui.wait_until(lambda: second.bye is not None, timeout=10), "the second browser is refused"
        assert not second.pages, "and it never saw Ann's page"
        assert ui.wait_until(lambda: screen.banner == "A second phone tried Ann's page", timeout=5)
        ui.tap(ui.find(panel, "close_button"))
    finally:
        link.close()
        ui.table.phones = None


def test_phones_that_cannot_start_are_a_notice_not_a_crash(ui: Any) -> None:
    """Like every piece of hardware: a problem is one sentence on the home screen, and the app goes on."""
    ui.table.config = replace(ui.table.config, phones=PhonesConfig(enabled=True, interface="192.0.2.77", port=0))
    notices = start_phones(ui.table)
    assert len(notices) == 1 and notices[0].startswith("Phones could not start on 192.0.2.77:0 (")
    assert getattr(ui.table, "phones", None) is None


def test_without_phones_the_quin_screen_has_no_phones_button(ui: Any) -> None:
    """Issue 15: phones are "off by default": nothing of them on the screen then."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    assert not _has_text(screen, "Phones")


def test_the_phones_follow_the_game_in_play_and_keep_their_codes_across_home(ui: Any, phones: PhoneTable) -> None:
    """A phone is scanned once a game: going home and resuming keeps its code (the page shows nothing while
    the game waits); another game gets fresh codes, and the old ones stop working."""
    screen = ui.start_game("quin", ["Ann", "Bo"])
    assert phones.session is screen.session, "the app attached the game it shows"
    url = phones.server.url_for("Ann")
    ui.app.go_home()
    assert phones.session is None
    (row,) = ui.screen.unfinished_rows
    ui.tap(row.ids.resume_button)
    assert phones.session is not None and phones.server.url_for("Ann") == url, "the same code after home"
    ui.app.go_home()
    ui.start_game("quin", ["Ann", "Bo"])
    assert phones.server.url_for("Ann") != url, "a new game, new codes"


def test_release_appears_without_moving_any_seats_button(ui: Any, phones: PhoneTable, ann_has_a_display: None) -> None:
    """Issue 21: "In the Phones panel, 'Release Ann's phone' appears and pushes 'Bo: also use my phone' down."
    Every seat has its slots: nothing moves when a phone connects and its Release button appears, or goes."""
    ui.table.displays = BothDisplaysHub()
    screen = ui.start_game("quin", ["Ann", "Bo"])
    panel = screen.open_phones()
    ui.settle()

    def places() -> dict[str, tuple[int, int]]:
        found = {}
        for text in ("Ann: also use my phone", "Ann: show my code", "Bo: also use my phone", "Close"):
            if _has_text(panel, text):
                widget = ui.find_text(panel, text)
                x, y = widget.to_window(widget.x, widget.y)
                found[text.split(":")[0]] = (round(x), round(y))
        return found

    before = places()
    ui.screenshot("phones-panel-before-release.png")
    phone = Phone(phones.server.url_for("Ann"))
    assert ui.wait_until(lambda: _has_text(panel, "Release Ann's phone"), timeout=10)
    ui.settle()
    during = places()
    ui.screenshot("phones-panel-release-shown.png")
    assert during == before, (before, during)
    release = ui.find_text(panel, "Release Ann's phone")
    bo = ui.find_text(panel, "Bo: also use my phone")
    assert release.top <= ui.find_text(panel, "Ann: show my code").y and bo.top <= release.y, "in its own slot"
    ui.tap(release)
    assert ui.wait_until(lambda: phone.bye is not None, timeout=10)
    assert ui.wait_until(lambda: not _has_text(panel, "Release Ann's phone"), timeout=5)
    ui.settle()
    assert places() == before
    ui.screenshot("phones-panel-after-release.png")
    ui.tap(ui.find(panel, "close_button"))


class BothDisplaysHub(OneDisplayHub):
    """Ann and Bo both have a paired display: each seat reads "also use my phone"."""

    def status(self, _players: Any = None) -> list[Any]:
        from hardware.display.hub import DisplayState, DisplayStatus

        return [DisplayStatus("Ann", DisplayState.CONNECTED), DisplayStatus("Bo", DisplayState.CONNECTED)]


def _panel_shown(panel: Any) -> dict[str, Any]:
    """What the table reads on the phones panel: its words, the code (if any), and every widget's words, colour,
    place and size to the pixel."""
    widgets = [
        (type(w).__name__, getattr(w, "text", None), tuple(getattr(w, "color", ())), w.opacity,
         tuple(map(round, w.to_window(*w.pos))), tuple(map(round, w.size)))
        for w in panel.walk(restrict=True)
    ]  # fmt: skip
    return {"words": (panel.note, panel.caption, panel.url), "qr": panel.qr, "widgets": widgets}


def test_the_game_keeps_its_phones_panel_made_ahead_and_each_opening_shows_what_a_new_one_would(
    ui: Any, phones: PhoneTable
) -> None:
    """Issue 26: the phones panel answers its tap quickly: a game's screen makes it while the table looks at the
    board, and keeps it. Closed, it asks the server nothing. "Closing the panel hides any code": a code shown at
    one opening never shows by itself at the next. A display paired since offers its player a phone ("A phone and
    a serial display can serve the same seat"): each opening shows what a panel made then shows."""
    from ui.screens.base import AHEAD_SECONDS

    screen = ui.start_game("quin", ["Ann", "Bo"])
    ui.wait(AHEAD_SECONDS)
    assert ui.wait_until(lambda: "phones" in screen._kept._popups, timeout=5), "made while the table looks"
    kept = screen._kept._popups["phones"]
    assert kept.parent is None and kept._poll is None, "closed, it asks the server nothing"

    panel = screen.open_phones()
    ui.settle()
    assert panel is kept and panel._poll is not None and phones.session is screen.session
    ui.tap(ui.find_text(panel, "Ann: show my code"))
    assert panel.qr is not None and panel.url == phones.server.url_for("Ann")
    ui.tap(ui.find(panel, "close_button"))
    ui.settle()
    assert panel._poll is None and panel.qr is None and panel.url == ""
    assert ui.find_text(panel, "Ann: show my code") is not None, "its seat reads as before the tap, closed"

    ui.table.displays = OneDisplayHub()  # Ann's display was paired meanwhile
    try:
        assert screen.open_phones() is kept
        ui.settle()
        assert kept.qr is None and kept.note == "Ann has a player display and may use a phone too."
        shown = _panel_shown(kept)
        ui.tap(ui.find(kept, "close_button"))
        ui.settle()
        fresh = screen._new_phones_panel()
        fresh.open()
        ui.settle()
        assert _panel_shown(fresh) == shown
        fresh.dismiss()
        ui.settle()
    finally:
        ui.table.displays = None


def test_a_game_without_private_views_makes_no_phones_panel_ahead(ui: Any, phones: PhoneTable) -> None:
    """Issue 15: the phones panel is offered only in a game with private views (a Quintet has none)."""
    screen = ui.start_game("quintet", ["Ann", "Bo"])
    assert ui.wait_until(lambda: {"menu", "log"} <= set(screen._kept._popups), timeout=5)
    assert "phones" not in screen._kept._popups and not screen.can_show_phones
