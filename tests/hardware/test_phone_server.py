"""The phone server, for real: aiohttp on 127.0.0.1 (any free port), driven by aiohttp's own HTTP/WebSocket client.

Issue 15 ("What it must be"): "Each seat gets an unguessable token per game
(at least 128 bits from `secrets`). The token lives only in its QR code and
the URL, and it is never in a log. Without a token the server shows nothing
but a notice page. With a stale or another seat's token, it shows nothing
private. A second browser opening a seat's page is refused while the first is
connected, unless the player releases the seat on the touchscreen. The shared
screen says "A second phone tried Ann's page". The server binds only to the
configured interface. It sends security headers (no caching of private pages,
no referrer, a strict content security policy) and rate-limits attempts per
address."
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import ssl
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from hardware.phones.server import (
    ANOTHER_GAME,
    BLOCKED,
    GAME_OVER,
    RELEASED,
    SEAT_TAKEN,
    STALE,
    TURNED_OFF,
    AttemptLimit,
    PhoneServer,
)
from tests.support.ui_thread import UiThread

HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}
WAIT = 5.0  # seconds: a generous bound on loopback, never a speed assertion


@dataclass
class Table:
    """What the app gives the server: each seat's page, the choices played, the shared screen's news."""

    ui: UiThread
    pages: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    refusal: str | None = None
    acted: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    news: list[str] = field(default_factory=list)
    statuses: list[dict[str, str]] = field(default_factory=list)
    server: PhoneServer | None = None
    off_ui_thread: list[str] = field(default_factory=list)

    def render(self, player: str) -> dict[str, Any] | None:
        if threading.current_thread() is not self.ui.thread:
            self.off_ui_thread.append("render")
        return self.pages.get(player)

    def act(self, player: str, action: dict[str, Any]) -> str | None:
        if threading.current_thread() is not self.ui.thread:
            self.off_ui_thread.append("act")
        self.acted.append((player, action))
        return self.refusal

    def on_news(self, sentence: str) -> None:
        if threading.current_thread() is not self.ui.thread:
            self.off_ui_thread.append("on_news")
        self.news.append(sentence)

    def on_status(self) -> None:
        if threading.current_thread() is not self.ui.thread:
            self.off_ui_thread.append("on_status")
        assert self.server is not None
        self.statuses.append(self.server.status())


def page_of(player: str, identity: str = "Light") -> dict[str, Any]:
    return {
        "title": f"{player} · Game",
        "status": "Bo to play",
        "notice": "",
        "sections": [{"heading": "Your pieces", "rows": [{"text": f"1  {identity}", "note": "on the board"}]}],
        "choices": [{"label": "Give 3", "action": {"type": "give", "player": player}, "tone": "accent"}],
    }


@pytest.fixture
def table() -> Iterator[Table]:
    ui = UiThread()
    made = Table(ui)
    made.pages = {"Ann": page_of("Ann", "Light"), "Bo": page_of("Bo", "Shadow")}
    yield made
    ui.stop()
    assert made.off_ui_thread == [], "render and act run on the UI thread only"


def make_server(table: Table, port: int = 0, **kwargs: Any) -> PhoneServer:
    server = PhoneServer(
        host="127.0.0.1",
        port=port,
        render=table.render,
        act=table.act,
        call_soon=table.ui,
        on_news=table.on_news,
        on_status=table.on_status,
        **kwargs,
    )
    table.server = server
    server.new_game(["Ann", "Bo"])
    return server


@pytest.fixture
def server(table: Table) -> Iterator[PhoneServer]:
    with make_server(table) as started:
        yield started


def url(server: PhoneServer, player: str) -> str:
    found = server.url_for(player)
    assert found is not None
    return found


def token_of(server: PhoneServer, player: str) -> str:
    return url(server, player).rsplit("/", 1)[-1]


def live(seat_url: str, browser: str | None = None) -> str:
    return seat_url.replace("http", "ws", 1) + "/live" + (f"?browser={browser}" if browser else "")


# Keyed by the socket itself, weakly: an id() is reused once its socket is gone, and a later test's socket
# would be read from a queue of an earlier test's event loop.
_ANSWERING: weakref.WeakKeyDictionary[aiohttp.ClientWebSocketResponse, asyncio.Queue[aiohttp.WSMessage]] = (
    weakref.WeakKeyDictionary()
)


def answering(ws: aiohttp.ClientWebSocketResponse) -> aiohttp.ClientWebSocketResponse:
    """`ws` read all the time from now on, as a browser does: it answers the server's pings at once (aiohttp's
    client answers only while it reads), so the server sees a live page, not a silent one."""
    queue: asyncio.Queue[aiohttp.WSMessage] = asyncio.Queue()
    _ANSWERING[ws] = queue

    async def read() -> None:
        while True:
            message = await ws.receive()
            await queue.put(message)
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                return

    reader = asyncio.ensure_future(read())
    _READERS.add(reader)
    reader.add_done_callback(_READERS.discard)
    return ws


_READERS: set[asyncio.Future[None]] = set()


async def _next(ws: aiohttp.ClientWebSocketResponse, timeout: float) -> aiohttp.WSMessage:
    queue = _ANSWERING.get(ws)
    if queue is None:
        return await ws.receive(timeout=timeout)
    return await asyncio.wait_for(queue.get(), timeout)


async def receive(ws: aiohttp.ClientWebSocketResponse, kind: str = "page") -> dict[str, Any]:
    """The next message of `kind` (skipping others), within WAIT."""
    deadline = time.monotonic() + WAIT
    while True:
        message = await _next(ws, max(0.01, deadline - time.monotonic()))
        assert message.type == aiohttp.WSMsgType.TEXT, f"expected a {kind} message, got {message.type}"
        data: dict[str, Any] = json.loads(message.data)
        if data["type"] == kind:
            return data


async def closed_with(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    """The bye sentence a refused or dropped socket gets, then its close."""
    bye = await receive(ws, "bye")
    closing = await _next(ws, WAIT)
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    return bye


def wait_for(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true"
        time.sleep(0.005)


def assert_headers(response: aiohttp.ClientResponse) -> None:
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, name
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "connect-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "*" not in csp


# -- the page --------------------------------------------------------------------------------


def test_the_page_and_its_files_are_served_with_the_security_headers(server: PhoneServer) -> None:
    """Issue 15: "security headers (no caching of private pages, no referrer, a strict content security policy)"."""

    async def scenario() -> None:
        host, port = server.address
        base = f"http://{host}:{port}"
        async with aiohttp.ClientSession() as client:
            async with client.get(url(server, "Ann")) as page:
                assert page.status == 200 and page.content_type == "text/html"
                html = await page.text()
                assert '<script src="/static/seat.js"' in html and 'href="/static/seat.css"' in html
                assert "http://" not in html and "https://" not in html  # nothing fetched from the internet
                assert_headers(page)
            for path, kind in (("/static/seat.css", "text/css"), ("/static/seat.js", "text/javascript")):
                async with client.get(base + path) as file:
                    assert file.status == 200 and file.content_type == kind
                    assert "http://" not in await file.text()
                    assert_headers(file)
            for path in ("/", "/nothing-here", "/seat/", "/static/seat.html"):
                async with client.get(base + path) as other:
                    assert other.status in (200, 403, 404)
                    assert_headers(other)
            async with client.ws_connect(live(url(server, "Ann"))) as ws:
                await receive(ws)
                # The upgrade response carries them too.
                assert ws._response.headers.get("Referrer-Policy") == "no-referrer"

    asyncio.run(scenario())


def test_the_page_knows_no_game_and_draws_text_only() -> None:
    """The page renders any page structure generically: text via textContent, never as HTML."""
    static = Path(__file__).resolve().parents[2] / "hardware" / "phones" / "static"
    script = (static / "seat.js").read_text(encoding="utf-8")
    assert "innerHTML" not in script and "eval(" not in script
    assert '"act"' in script and "Connection lost: trying again…" in script
    for name in ("seat.html", "seat.css", "seat.js"):
        text = (static / name).read_text(encoding="utf-8").lower()
        assert not [w for w in ("quin", "quark", "quintet", "identity") if w in text], name


# -- each seat its own page ------------------------------------------------------------------


def test_each_phone_gets_only_its_own_page_and_a_fresh_one_after_changed(server: PhoneServer, table: Table) -> None:
    """Issue 15: "each page shows its own player's identities and never the rival's, at every step"."""

    async def scenario() -> None:
        async with aiohttp.ClientSession() as client:
            ann = await client.ws_connect(live(url(server, "Ann"), "a"))
            bo = await client.ws_connect(live(url(server, "Bo"), "b"))
            assert (await receive(ann))["page"] == page_of("Ann", "Light")
            assert (await receive(bo))["page"] == page_of("Bo", "Shadow")
            wait_for(lambda: server.status() == {"Ann": "connected", "Bo": "connected"})

            table.pages["Ann"] = page_of("Ann", "Reflection")
            server.changed()  # from this (test) thread: changed() is thread-safe
            assert (await receive(ann))["page"] == page_of("Ann", "Reflection")

            table.pages["Bo"] = page_of("Bo", "Peripheral")
            table.pages["Ann"] = None  # nothing to show
            server.changed()
            assert (await receive(bo))["page"] == page_of("Bo", "Peripheral")
            assert (await receive(ann))["page"] is None
            await ann.close()
            await bo.close()
            wait_for(lambda: server.status() == {"Ann": "waiting", "Bo": "waiting"})
            # The shared screen heard of each change, on the UI thread.
            wait_for(lambda: len(table.statuses) == 4)
            assert table.statuses[1] == {"Ann": "connected", "Bo": "connected"}
            assert table.statuses[-1] == {"Ann": "waiting", "Bo": "waiting"}

    asyncio.run(scenario())


def test_a_choice_from_a_phone_is_played_for_its_own_seat_only(server: PhoneServer, table: Table) -> None:
    """A phone can never act for someone else: the server forces the action's player to the seat's."""

    async def scenario() -> None:
        async with aiohttp.ClientSession() as client, client.ws_connect(live(url(server, "Ann"))) as ann:
            await receive(ann)
            await ann.send_json({"type": "act", "action": {"type": "give", "player": "Bo", "value": 3}})
            wait_for(lambda: len(table.acted) == 1)
            assert table.acted == [("Ann", {"type": "give", "player": "Ann", "value": 3})]

            table.refusal = "It is Bo's turn."
            await ann.send_json({"type": "act", "action": {"type": "give"}})
            assert (await receive(ann, "refused"))["sentence"] == "It is Bo's turn."
            assert table.acted[-1] == ("Ann", {"type": "give", "player": "Ann"})

            for garbage in ("not json", json.dumps({"type": "act", "action": "give"}), json.dumps([1])):
                await ann.send_str(garbage)
                assert (await receive(ann, "refused"))["sentence"] == "That message could not be read."
            assert len(table.acted) == 2

    asyncio.run(scenario())


def test_a_busy_ui_thread_gives_a_sentence_not_a_hang(table: Table) -> None:
    """render and act wait for the UI thread with a timeout; then the phone is told in one sentence."""
    with make_server(table, ui_timeout=0.3) as server:

        async def scenario() -> None:
            async with aiohttp.ClientSession() as client, client.ws_connect(live(url(server, "Ann"))) as ann:
                await receive(ann)
                release = threading.Event()

                def busy() -> None:
                    release.wait(5)

                table.ui(busy)  # the UI thread is busy for a while
                await ann.send_json({"type": "act", "action": {"type": "give"}})
                refused = await receive(ann, "refused")
                release.set()
                assert refused["sentence"] == "The table did not answer in time. Try again."

        asyncio.run(scenario())


# -- refusals --------------------------------------------------------------------------------


def test_no_token_shows_a_notice_and_nothing_else(server: PhoneServer, table: Table) -> None:
    """Issue 15: "Without a token the server shows nothing but a notice page"."""

    async def scenario() -> None:
        host, port = server.address
        async with aiohttp.ClientSession() as client:
            for path in ("/", "/seat", "/seat/", "/seat//live"):
                async with client.get(f"http://{host}:{port}{path}") as response:
                    text = await response.text()
                    assert "Light" not in text and "Shadow" not in text and "<script" not in text

    asyncio.run(scenario())
    assert table.acted == []


def test_stale_and_wrong_tokens_show_nothing_private(server: PhoneServer, table: Table) -> None:
    """Issue 15: "With a stale or another seat's token, it shows nothing private"."""

    async def scenario() -> None:
        old_ann, bo_token = url(server, "Ann"), token_of(server, "Bo")
        async with aiohttp.ClientSession() as client:
            connected = await client.ws_connect(live(old_ann, "a"))
            await receive(connected)
            server.new_game(["Ann", "Bo"])  # fresh tokens: the old ones stop working at once
            assert (await closed_with(connected))["sentence"] == GAME_OVER
            assert url(server, "Ann") != old_ann
            wait_for(lambda: server.status() == {"Ann": "waiting", "Bo": "waiting"})

            async with client.get(old_ann) as page:
                assert page.status == 403 and "<script" not in await page.text()
            stale = await client.ws_connect(live(old_ann, "a"))  # its page is told, and stops retrying
            bye = await closed_with(stale)
            assert bye == {"type": "bye", "sentence": STALE, "retry": False}

            # Another seat's token on a wrong path, or a piece of a token: nothing.
            host, port = server.address
            base = f"http://{host}:{port}"
            for path in (
                f"/static/{bo_token}",
                f"/{bo_token}",
                f"/seat/{bo_token}/other",
                f"/seat/{bo_token[:-1]}",
                f"/seat/{bo_token}x",
                f"/seat/Ann/{bo_token}",
            ):
                async with client.get(base + path) as response:
                    assert response.status in (403, 404), path
                    assert "<script" not in await response.text()
            # Bo's (old) token opens Bo's seat only, never Ann's: and it is stale now.
            async with client.get(f"{base}/seat/{bo_token}") as response:
                assert response.status == 403
            # A fresh token opens its own seat, with its own page.
            async with client.ws_connect(live(url(server, "Bo"))) as bo:
                assert (await receive(bo))["page"] == page_of("Bo", "Shadow")

    asyncio.run(scenario())


def test_a_second_browser_is_refused_until_the_seat_is_released(server: PhoneServer, table: Table) -> None:
    """Issue 15: "A second browser opening a seat's page is refused while the first is connected, unless the
    player releases the seat on the touchscreen. The shared screen says "A second phone tried Ann's page"."""

    async def scenario() -> None:
        seat = url(server, "Ann")
        async with aiohttp.ClientSession() as client:
            first = answering(await client.ws_connect(live(seat, "first")))
            await receive(first)
            for browser in ("second", None):
                second = await client.ws_connect(live(seat, browser))
                bye = await closed_with(second)
                assert bye == {"type": "bye", "sentence": SEAT_TAKEN, "retry": False}
            wait_for(lambda: len(table.news) == 1)
            time.sleep(0.1)
            # Issue 24: "repeated events from one source counted, not repeated": once a while on the screen.
            assert table.news == ["A second phone tried Ann's page"]
            assert server.status()["Ann"] == "connected"

            # The first browser coming back (a phone woken from sleep) takes its seat back from its stale self.
            again = await client.ws_connect(live(seat, "first"))
            assert (await receive(again))["page"] == page_of("Ann", "Light")
            assert (await closed_with(first))["retry"] is False

            server.release("Ann")
            assert server.status()["Ann"] == "waiting"
            assert (await closed_with(again))["sentence"] == RELEASED == "This page was closed at the table."
            assert url(server, "Ann") != seat, "Release gave the seat a new code"
            another = await client.ws_connect(live(url(server, "Ann"), "second"))
            assert (await receive(another))["page"] == page_of("Ann", "Light")
            wait_for(lambda: server.status()["Ann"] == "connected")
            await another.close()
            assert len(table.news) == 1

    asyncio.run(scenario())


def test_a_page_reconnects_after_the_server_restarts_on_the_same_port(table: Table) -> None:
    """Issue 15: "a reconnect after the server restarts"; the seat's URL stays the one in its QR code."""
    server = make_server(table).start()
    try:
        seat, address = url(server, "Ann"), server.address

        async def before() -> None:
            async with aiohttp.ClientSession() as client, client.ws_connect(live(seat, "a")) as ann:
                await receive(ann)
                server.close()
                bye = await closed_with(ann)
                assert bye["retry"] is True  # closing: the page keeps trying

        asyncio.run(before())
        server.close()  # safe twice
        server.start()
        assert server.address == address and url(server, "Ann") == seat

        async def after() -> None:
            async with aiohttp.ClientSession() as client, client.ws_connect(live(seat, "a")) as ann:
                assert (await receive(ann))["page"] == page_of("Ann", "Light")

        asyncio.run(after())
    finally:
        server.close()


def test_a_hundred_wrong_tokens_are_rate_limited(table: Table) -> None:
    """Issue 15: "a hundred wrong tokens from one address being rate-limited".

    After ten wrong tokens within a minute the address gets 429 for a minute,
    for everything under /seat/: even the right token is refused from that
    address during the block (so guessing and then trying the guess gains
    nothing). Once the block is over the right token works again.
    """
    now = [1000.0]
    limit = AttemptLimit(allowed=10, window=60.0, block=60.0, clock=lambda: now[0])
    with make_server(table, limit=limit) as server:
        seat = url(server, "Ann")
        host, port = server.address

        async def scenario() -> list[int]:
            statuses = []
            async with aiohttp.ClientSession() as client:
                for n in range(100):
                    async with client.get(f"http://{host}:{port}/seat/wrong-token-{n:03d}") as response:
                        statuses.append(response.status)
                        if response.status == 429:
                            assert_headers(response)
                            assert BLOCKED in await response.text()
                async with client.get(seat) as right:
                    assert right.status == 429  # the right token, same address, during the block: refused
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await client.ws_connect(live(seat))
                assert refused.value.status == 429
                now[0] += 61.0  # the block is over
                async with client.get(seat) as right:
                    assert right.status == 200
                async with client.ws_connect(live(seat)) as ann:
                    assert (await receive(ann))["page"] == page_of("Ann", "Light")
            return statuses

        statuses = asyncio.run(scenario())
        assert statuses[:10] == [403] * 10 and statuses[10:] == [429] * 90


def test_the_limit_counts_per_address_within_its_window() -> None:
    now = [0.0]
    limit = AttemptLimit(allowed=3, window=10.0, block=5.0, clock=lambda: now[0])
    assert not limit.failed("a") and not limit.failed("a")
    now[0] = 11.0  # the first two are out of the window
    assert not limit.failed("a") and not limit.failed("a") and not limit.blocked("a")
    assert not limit.failed("b") and not limit.blocked("b")  # another address is counted apart
    assert limit.failed("a") and limit.blocked("a") and not limit.blocked("b")
    now[0] = 16.0
    assert not limit.blocked("a")


def test_no_token_is_ever_in_a_log_line(table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 15: "The token lives only in its QR code and the URL, and it is never in a log"."""
    caplog.set_level(logging.DEBUG)
    tokens: list[str] = []
    with make_server(table) as server:

        async def scenario() -> None:
            async with aiohttp.ClientSession() as client:
                for _ in range(2):
                    tokens.extend(token_of(server, p) for p in ("Ann", "Bo"))
                    ann = answering(await client.ws_connect(live(url(server, "Ann"), "a")))
                    await receive(ann)
                    second = await client.ws_connect(live(url(server, "Ann"), "b"))
                    await closed_with(second)
                    async with client.get(url(server, "Bo")) as page:
                        assert page.status == 200
                    await ann.send_json({"type": "act", "action": {"type": "give"}})
                    await ann.send_str("garbage")
                    await receive(ann, "refused")
                    server.release("Ann")
                    stale = tokens[-2]
                    server.new_game(["Ann", "Bo"])
                    async with client.get(f"http://{server.address[0]}:{server.address[1]}/seat/{stale}") as old:
                        assert old.status == 403
                    await client.ws_connect(live(url(server, "Ann"), "a")).__aenter__()
                    await ann.close()

        asyncio.run(scenario())
    assert len(set(tokens)) == 4 and caplog.records
    lines = caplog.text + "\n".join(record.getMessage() for record in caplog.records)
    assert "phone" in lines  # the server did log: the check below is not vacuous
    assert [t for t in tokens if t in lines] == []


def test_tokens_are_128_bits_from_secrets_and_fresh_every_game(server: PhoneServer) -> None:
    """Issue 15: "Each seat gets an unguessable token per game (at least 128 bits from `secrets`)"."""
    seen = set()
    for _ in range(20):
        server.new_game(["Ann", "Bo"])
        for player in ("Ann", "Bo"):
            token = token_of(server, player)
            assert len(token) >= 22  # 16 bytes of base64: 128 bits
            seen.add(token)
    assert len(seen) == 40
    assert server.url_for("Cy") is None


def test_a_games_kept_tokens_are_given_back_and_checked_like_fresh_ones(table: Table) -> None:
    """Issue 15: "a reconnect after the server restarts": a new server given the game's kept tokens opens the
    very same URLs; a token under 128 bits, or one shared by two seats, is refused ("at least 128 bits")."""
    with make_server(table) as first:
        kept = first.tokens()
        assert set(kept) == {"Ann", "Bo"} and kept["Ann"] == token_of(first, "Ann")
        seat, port = url(first, "Ann"), first.address[1]
    with make_server(table, port=port) as second:
        assert token_of(second, "Ann") != kept["Ann"], "fresh codes unless the game's own are given"
        second.new_game(["Ann", "Bo"], tokens=kept)
        assert url(second, "Ann") == seat and second.tokens() == kept

        async def reconnect() -> None:
            async with aiohttp.ClientSession() as client, client.ws_connect(live(seat, "a")) as ann:
                assert (await receive(ann))["page"] == page_of("Ann", "Light")

        asyncio.run(reconnect())
        for weak in (
            {"Ann": "0123456789abcdefghij", "Bo": kept["Bo"]},  # 120 bits
            {"Ann": kept["Ann"], "Bo": kept["Ann"]},  # Ann's page behind Bo's code
            {"Ann": kept["Ann"] + "/../x", "Bo": kept["Bo"]},
            {"Ann": kept["Ann"]},
        ):
            with pytest.raises(ValueError):
                second.new_game(["Ann", "Bo"], tokens=weak)
            assert second.tokens() == kept, "a refused set of tokens changes nothing"


def test_a_game_left_waiting_with_its_codes_kept_tells_its_phones_to_come_back(server: PhoneServer) -> None:
    """Another game on the table while this one waits unfinished, its codes kept: its phones are not told to
    scan a new code (theirs will work again), but to tap Try again once it is back."""
    kept = server.tokens()

    async def scenario() -> None:
        async with aiohttp.ClientSession() as client, client.ws_connect(live(url(server, "Ann"), "a")) as ann:
            await receive(ann)
            server.new_game(["Ann", "Bo"], old_codes_kept=True)
            assert (await closed_with(ann))["sentence"] == ANOTHER_GAME
        server.new_game(["Ann", "Bo"], tokens=kept)  # the game is back
        async with aiohttp.ClientSession() as client, client.ws_connect(live(url(server, "Ann"), "a")) as ann:
            assert (await receive(ann))["page"] == page_of("Ann", "Light")

    asyncio.run(scenario())


def test_it_binds_only_to_the_configured_host(table: Table) -> None:
    """Issue 15: "The server binds only to the configured interface"."""
    with make_server(table) as server:
        host, port = server.address
        assert host == "127.0.0.1"
        import socket

        outward = _outward_address()
        if outward is None:
            pytest.skip("this machine has no address but loopback")
        with socket.socket() as probe:
            probe.settimeout(1)
            assert probe.connect_ex((outward, port)) != 0


def _outward_address() -> str | None:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") else address


# -- TLS -------------------------------------------------------------------------------------


def _self_signed(folder: Path) -> tuple[Path, Path]:
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(certificate),
        ],
        check=True,
        capture_output=True,
    )
    return certificate, key


@pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl to make a throwaway certificate")
def test_tls_with_the_owners_certificate(table: Table, tmp_path: Path) -> None:
    """Issue 15: "Offer `[phones] tls = true` with a certificate the owner provides"."""
    certificate, key = _self_signed(tmp_path)
    with make_server(table, tls=(certificate, key)) as server:
        seat = url(server, "Ann")
        assert seat.startswith("https://127.0.0.1:")
        trusted = ssl.create_default_context(cafile=str(certificate))

        async def scenario() -> None:
            async with aiohttp.ClientSession() as client:
                async with client.get(seat, ssl=trusted) as page:
                    assert page.status == 200
                    assert_headers(page)
                async with client.ws_connect(seat.replace("https", "wss", 1) + "/live", ssl=trusted) as ann:
                    assert (await receive(ann))["page"] == page_of("Ann", "Light")
                with pytest.raises(aiohttp.ClientConnectorError):  # not its certificate: refused by the client
                    async with client.get(seat, ssl=ssl.create_default_context()):
                        pass
                with pytest.raises(aiohttp.ClientError):  # plain HTTP on the TLS port gets nothing
                    async with client.get(seat.replace("https", "http", 1)) as plain:
                        await plain.text()

        asyncio.run(scenario())


# -- the page's script, under node with a stand-in DOM ---------------------------------------------

STATIC = Path(__file__).resolve().parents[2] / "hardware" / "phones" / "static"
HARNESS = Path(__file__).with_name("phones_js") / "seat_page.js"


def _play_page(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    done = subprocess.run(
        ["node", str(HARNESS), str(STATIC / "seat.js")],
        input=json.dumps(steps),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.skipif(shutil.which("node") is None, reason="no node to run the page's script")
def test_the_page_draws_any_structure_sends_taps_and_says_when_it_lost_the_connection() -> None:
    """Issue 15: "The page updates live ... and it says clearly when it has lost the connection"."""
    page = page_of("Ann", "Light")
    page["sections"][0]["rows"].append({"text": "2  <b>Shadow</b>", "note": "", "tone": "warn"})
    page["notice"] = "Choose your Zero-G piece."
    shown = _play_page(
        [
            {"do": "load"},
            {"do": "open"},
            {"do": "message", "message": {"type": "page", "page": page}},
            {"do": "tap", "index": 0},
            {"do": "message", "message": {"type": "refused", "sentence": "It is Bo's turn."}},
            {"do": "raw", "data": "not json"},
            {"do": "close"},
            {"do": "timer"},
            {"do": "open"},
            {"do": "message", "message": {"type": "page", "page": None}},
            {"do": "message", "message": {"type": "bye", "sentence": SEAT_TAKEN, "retry": False}},
            {"do": "close"},
        ]
    )
    loaded, opened, drawn, tapped, refused, garbage, lost, retried, reopened, empty, bye, closed = shown
    assert loaded["sockets"][0].startswith("ws://127.0.0.1:8080/seat/TOKEN/live")
    assert "?browser=" in loaded["sockets"][0] and "TOKEN" not in loaded["sockets"][0].split("?")[1]
    assert opened["connectionClass"] == "connection ok"
    assert drawn["title"] == "Ann · Game" and drawn["status"] == "Bo to play"
    assert drawn["notice"] == "Choose your Zero-G piece."
    assert drawn["headings"] == ["Your pieces"]
    assert drawn["rows"] == [["row tone-normal", "1  Light on the board"], ["row tone-warn", "2  <b>Shadow</b>"]]
    assert drawn["buttons"] == [["tone-accent", "Give 3"]]
    assert tapped["sent"] == [{"type": "act", "action": {"type": "give", "player": "Ann"}}]
    assert refused["refused"] == "It is Bo's turn."
    assert garbage == refused  # an unreadable message changes nothing
    assert lost["connection"] == "Connection lost: trying again…" and lost["connectionClass"] == "connection lost"
    assert lost["timers"] == [500]
    assert retried["sockets"][1] == retried["sockets"][0]  # the same browser id: it takes its own seat back
    assert reopened["connectionClass"] == "connection ok" and reopened["refused"] is None
    assert empty["status"] == "Waiting for the game…" and empty["rows"] == [] and empty["buttons"] == []
    assert bye["connection"] == SEAT_TAKEN and bye["again"] and bye["timers"] == []
    assert closed["timers"] == [] and len(closed["sockets"]) == 2  # a refused page stops trying


def test_a_port_already_taken_is_an_error_at_start(server: PhoneServer, table: Table) -> None:
    """start() raises OSError when it cannot bind: the app turns it into a notice, the table plays on."""
    host, port = server.address
    other = PhoneServer(host=host, port=port, render=table.render, act=table.act, call_soon=table.ui)
    with pytest.raises(OSError):
        other.start()
    other.close()
    other.close()


def test_a_websocket_opened_by_another_sites_page_is_refused(server: PhoneServer) -> None:
    """A script on another site cannot open a seat's WebSocket: its Origin is not the companion's."""

    async def scenario() -> None:
        async with aiohttp.ClientSession() as client:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(live(url(server, "Ann")), origin="http://evil.example")
            assert refused.value.status == 403
            host, port = server.address
            async with client.ws_connect(live(url(server, "Ann")), origin=f"http://{host}:{port}") as ann:
                assert (await receive(ann))["page"] == page_of("Ann", "Light")

    asyncio.run(scenario())


def test_a_quiet_page_hears_alive_and_turning_the_phones_off_tells_it_to_stop(table: Table) -> None:
    """Issue 15: the page "says clearly when it has lost the connection": a pulled plug sends no goodbye, so
    the table says "alive" at a pace the page is told first, and the page counts the silence itself. Turned
    off in Settings, the phones are told so and stop trying."""
    server = make_server(table, alive=0.2).start()
    try:
        seat = url(server, "Ann")

        async def scenario() -> None:
            async with aiohttp.ClientSession() as client, client.ws_connect(live(seat, "a")) as ann:
                first = json.loads((await ann.receive(timeout=WAIT)).data)
                assert first == {"type": "alive", "every": 0.2}, "the pace comes first"
                await receive(ann)  # the page
                assert await receive(ann, "alive") == {"type": "alive", "every": 0.2}, "while nothing changes"
                assert await receive(ann, "alive"), "again and again"
                await asyncio.get_running_loop().run_in_executor(None, lambda: server.close(TURNED_OFF, retry=False))
                assert await closed_with(ann) == {"type": "bye", "sentence": TURNED_OFF, "retry": False}

        asyncio.run(scenario())
    finally:
        server.close()
