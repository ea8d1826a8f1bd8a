"""Issue 24: "Seats hold against a guest": the table controls the codes, and a phone does its seat's private work only.

The real parts: a Quin `Session` on a real `Store` file, the app's `PhoneTable`
with its codes kept in a real file (`SeatCodes`), the real `PhoneServer` on
127.0.0.1, its callbacks run on a stand-in UI thread; the phones are aiohttp
WebSocket clients, as a browser speaks to the page's server.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from companion.game import Options
from companion.session import Session
from companion.store import Store
from hardware.phones.codes import SeatCodes
from hardware.phones.server import RELEASED, SEAT_TAKEN, STALE, TOO_FAST, TOO_FAST_EVERY, PhoneServer, TapLimit
from tests.support.ui_thread import UiThread
from ui.phones import ON_THE_TOUCHSCREEN, PhoneTable

WAIT = 10.0  # seconds: a generous bound on a loaded machine, never a speed assertion


class Phone:
    """One browser on a seat's page: it reads all the time (so it answers the server's pings, as a browser
    does), unless `silent` (a phone that lost its Wi-Fi: its connection looks open, nothing answers)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, *, silent: bool = False) -> None:
        self.ws = ws
        self.messages: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader = None if silent else asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                await self.messages.put(json.loads(message.data))
        await self.messages.put({"type": "closed"})

    async def next(self, kind: str) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while True:
            message = await asyncio.wait_for(self.messages.get(), max(0.01, deadline - time.monotonic()))
            if message["type"] == kind:
                return message
            assert message["type"] != "closed", f"closed before a {kind!r} message"

    async def act(self, action: dict[str, Any]) -> None:
        await self.ws.send_json({"type": "act", "action": action})


def live(url: str, browser: str) -> str:
    return url.replace("http", "ws", 1) + f"/live?browser={browser}"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[PhoneTable, Session, UiThread, Path]]:
    """The app's phones for a Quin game of Ann and Bo, started; its codes kept in `phone-codes.json`."""
    ui = UiThread()
    store = Store.open(tmp_path / "games.db")
    session = ui.run(lambda: Session.start(store, "quin", Options.for_names("Ann", "Bo"), clock=lambda: 0.0))
    codes_path = tmp_path / "phone-codes.json"
    link = PhoneTable(codes=SeatCodes(codes_path))
    link.server = PhoneServer(
        host="127.0.0.1",
        port=0,
        render=link.render,
        act=link.act,
        call_soon=ui,
        on_codes=link.codes_changed,
        beat=0.5,
        ui_timeout=WAIT,
        taps=TapLimit(rate=1000.0, burst=1000),  # these tests are about who may act, not how fast
    ).start()
    ui.run(lambda: link.attach(session))
    yield link, session, ui, codes_path
    link.close()
    ui.run(store.close)
    ui.stop()


def kept(path: Path) -> dict[str, str]:
    games: dict[str, dict[str, str]] = json.loads(path.read_text())["games"]
    (codes,) = games.values()
    return codes


def test_the_guest_at_the_party_step_by_step(table: tuple[PhoneTable, Session, UiThread, Path]) -> None:
    """Issue 24, 1: "Ann's phone disconnects; a guest who photographed her QR code opens her URL and gets her
    whole page. Ann's own phone comes back and is refused ... The table taps Release: the code does not change,
    so the guest reconnects at once". Now: "Release ... replaces the seat's code at once: the old page is told
    "This page was closed at the table" and closed"; "after Release the guest's code opens nothing and Ann's
    new code works"; "Codes that survive a restart are the current ones only"."""
    link, session, ui, codes_path = table
    server: PhoneServer = link.server
    photographed = server.url_for("Ann")
    assert photographed is not None

    async def scenario() -> None:
        async with aiohttp.ClientSession() as client:
            # Ann's phone shows her page, then loses the connection.
            ann = Phone(await client.ws_connect(live(photographed, "ann-phone")))
            assert (await ann.next("page"))["page"]["title"] == "Ann · Quin"
            await ann.ws.close()
            # The guest opens the photographed URL: it is Ann's current code, so it opens her page.
            guest = Phone(await client.ws_connect(live(photographed, "guest-phone")))
            assert (await guest.next("page"))["page"]["title"] == "Ann · Quin"
            # Ann's phone comes back: the guest's page answers, so Ann is refused and the table is told.
            back = Phone(await client.ws_connect(live(photographed, "ann-phone-new-tab")))
            assert (await back.next("bye"))["sentence"] == SEAT_TAKEN
            # The table taps Release: a new code at once, the guest's page told and closed.
            await asyncio.get_running_loop().run_in_executor(None, lambda: ui.run(lambda: server.release("Ann")))
            bye = await guest.next("bye")
            assert bye == {"type": "bye", "sentence": RELEASED, "retry": False}
            assert RELEASED == "This page was closed at the table."
            await guest.next("closed")
            # The guest's code opens nothing any more: no page, and its WebSocket is told the code is stale.
            async with client.get(photographed) as page:
                assert page.status == 403 and "Quin" not in await page.text()
            again = Phone(await client.ws_connect(live(photographed, "guest-phone")))
            assert (await again.next("bye"))["sentence"] == STALE
            # Ann scans her new code (shown on her own tap) and gets her page.
            fresh = server.url_for("Ann")
            assert fresh is not None and fresh != photographed
            mine = Phone(await client.ws_connect(live(fresh, "ann-phone-new-tab")))
            assert (await mine.next("page"))["page"]["title"] == "Ann · Quin"
            assert server.status()["Ann"] == "connected"
            await mine.ws.close()

    asyncio.run(scenario())
    # Only the current code survives a restart: the photographed one is in no file.
    assert kept(codes_path) == server.tokens()
    assert photographed.rsplit("/", 1)[-1] not in codes_path.read_text()
    restarted = SeatCodes(codes_path).codes_for(str(session.game_id))
    assert restarted == server.tokens()


def test_a_phone_on_the_current_code_takes_its_seat_back_from_a_silent_page_but_an_older_code_never_does(
    table: tuple[PhoneTable, Session, UiThread, Path],
) -> None:
    """Issue 24: "A phone that comes back on its seat's current code takes its seat back from a page that has
    been silent for a beat; an older code never does.\""""
    link, _session, ui, _codes = table
    server: PhoneServer = link.server

    async def scenario() -> None:
        async with aiohttp.ClientSession() as client:
            old_url = server.url_for("Ann")
            assert old_url is not None
            await asyncio.get_running_loop().run_in_executor(None, lambda: ui.run(lambda: server.new_code("Ann")))
            current = server.url_for("Ann")
            assert current is not None and current != old_url
            # Ann's phone on the current code goes silent: its connection looks open, it answers nothing.
            silent = Phone(await client.ws_connect(live(current, "asleep")), silent=True)
            await asyncio.sleep(0.2)
            assert server.status()["Ann"] == "connected"
            # The old code, however often tried, never takes the seat.
            stale = Phone(await client.ws_connect(live(old_url, "older")))
            assert (await stale.next("bye"))["sentence"] == STALE
            assert server.status()["Ann"] == "connected"
            # Her phone, back on the current code in a new tab: the silent page loses the seat after a beat.
            back = Phone(await client.ws_connect(live(current, "awake")))
            assert (await back.next("page"))["page"]["title"] == "Ann · Quin"
            assert server.status()["Ann"] == "connected"
            await back.ws.close()
            await silent.ws.close()

    asyncio.run(scenario())


def test_forget_every_phone_closes_every_page_and_changes_every_code_in_one_tap(
    table: tuple[PhoneTable, Session, UiThread, Path],
) -> None:
    """Issue 24: "The table can forget every phone of a game in one tap.\""""
    link, _session, ui, codes_path = table
    server: PhoneServer = link.server
    before = server.tokens()

    async def scenario() -> None:
        async with aiohttp.ClientSession() as client:
            phones = [Phone(await client.ws_connect(live(str(server.url_for(p)), p))) for p in ("Ann", "Bo")]
            for phone in phones:
                await phone.next("page")
            await asyncio.get_running_loop().run_in_executor(None, lambda: ui.run(server.forget_phones))
            for phone in phones:
                assert (await phone.next("bye"))["sentence"] == RELEASED

    asyncio.run(scenario())
    after = server.tokens()
    assert set(after) == {"Ann", "Bo"} and not set(after.values()) & set(before.values())
    assert kept(codes_path) == after


@pytest.mark.parametrize(
    "action",
    [
        {"type": "leave"},
        {"type": "pass"},
        {"type": "undo"},
        {"type": "redo"},
        {"type": "move", "label": "1", "from": "a1", "to": "a2"},
    ],
    ids=lambda action: action["type"],
)
def test_a_phone_cannot_leave_pass_move_undo_or_redo(
    table: tuple[PhoneTable, Session, UiThread, Path], action: dict[str, Any]
) -> None:
    """Issue 24, 1: "The guest's page sends {"type": "leave"}: the game ends, "Ann left the game", Bo wins.
    `pass` is played from a phone too". Now: "public moves, `pass`, `leave`, undo and redo need the
    touchscreen, refused with a sentence on the page"; a private setup step is still accepted."""
    link, session, ui, _codes = table
    server: PhoneServer = link.server

    async def scenario() -> None:
        async with aiohttp.ClientSession() as client:
            ann = Phone(await client.ws_connect(live(str(server.url_for("Ann")), "ann")))
            page = (await ann.next("page"))["page"]
            await ann.act(action)
            assert (await ann.next("refused"))["sentence"] == ON_THE_TOUCHSCREEN
            # Her private setup is hers to do on the phone: the page's own first choice is played.
            await ann.act(page["choices"][0]["action"])
            await ann.next("page")

    asyncio.run(scenario())
    assert ui.run(lambda: session.outcome) is None, "nobody left, nobody won"
    moves = ui.run(lambda: [event.type for event in session.events])
    assert moves and "left" not in " ".join(moves) and "pass" not in " ".join(moves)


def test_ten_thousand_setup_steps_in_a_minute_are_limited_and_the_games_file_stays_small(tmp_path: Path) -> None:
    """Issue 24, 3: "Alternating accepted assign/unassign setup steps stored 470 moves in 5 s in the real app;
    the games file grew by 4.2 MB." Now: "10,000 setup steps in a minute from one seat, limited, with the games
    file's growth bounded", and one sentence when the limit is exceeded.

    The minute is the limit's own clock, 6 ms a message (10,000 in 60 s); the messages really go through the
    server, the app's PhoneTable and the Store on disk, as fast as the loopback carries them."""
    ui = UiThread()
    path = tmp_path / "games.db"
    store = Store.open(path)
    session = ui.run(lambda: Session.start(store, "quin", Options.for_names("Ann", "Bo"), clock=lambda: 0.0))
    asked = [0]

    def minute() -> float:
        asked[0] += 1
        return asked[0] * 0.006

    taps = TapLimit(clock=minute)
    link = PhoneTable()
    link.server = PhoneServer(
        host="127.0.0.1", port=0, render=link.render, act=link.act, call_soon=ui, taps=taps, ui_timeout=WAIT
    ).start()
    ui.run(lambda: link.attach(session))

    wal = Path(f"{path}-wal")

    try:
        clone = link.render("Ann")["choices"][0]["action"]  # type: ignore[index]
        ui.run(lambda: session.act(clone))
        page = ui.run(lambda: link.render("Ann"))
        assign = next(c["action"] for c in page["choices"] if c["action"]["type"] == "assign")  # type: ignore[index]
        unassign = {"type": "unassign", "player": "Ann", "label": assign["label"]}
        moves_before = ui.run(lambda: len(session.events))
        grown_from = os.path.getsize(path)

        async def flood() -> list[dict[str, Any]]:
            async with aiohttp.ClientSession() as client:
                ann = Phone(await client.ws_connect(live(str(link.server.url_for("Ann")), "ann")))
                await ann.next("page")
                for n in range(10_000):
                    await ann.act(assign if n % 2 == 0 else unassign)
                deadline = time.monotonic() + 60
                while asked[0] < 10_000:  # every message counted by the limit
                    assert time.monotonic() < deadline
                    await asyncio.sleep(0.05)
                told = []
                while not ann.messages.empty():
                    message = ann.messages.get_nowait()
                    if message["type"] == "refused":
                        told.append(message)
                return told

        flooded_at = time.monotonic()
        refused = asyncio.run(flood())
        flooded_for = time.monotonic() - flooded_at
        ui.run(lambda: None)  # every accepted step played
        stored = ui.run(lambda: len(session.events)) - moves_before
        allowed = taps.burst + 60 * taps.rate  # the most a minute may store
        assert 0 < stored <= allowed + 2, f"{stored} steps stored in a minute"
        # Said once every TOO_FAST_EVERY seconds of real time at most (a slow machine floods for longer than that)
        said = [m["sentence"] for m in refused].count(TOO_FAST)
        assert 1 <= said <= 1 + flooded_for / TOO_FAST_EVERY, "one sentence a while, not one a message"
        # The games file itself grows by its stored steps only (tens of bytes each); its write-ahead log (the
        # 4.2 MB the issue saw) is SQLite's, reused after each checkpoint of 1,000 pages: it never passes ~4 MB.
        grown = os.path.getsize(path) - grown_from
        assert grown < 100 * 1024, f"the games file grew by {grown} bytes for {stored} steps"
        assert not wal.exists() or wal.stat().st_size < 5 * 1024 * 1024
        print(f"\n10,000 setup steps in a minute: {stored} stored, the games file grew by {grown} bytes")
    finally:
        link.close()
        ui.run(store.close)
        ui.stop()
