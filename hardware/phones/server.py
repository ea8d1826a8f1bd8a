"""The phone server: each seat's private page, on the table's own network, behind an unguessable token.

`PhoneServer` runs an aiohttp web server in a thread of its own, with its own
asyncio loop, beside Kivy's: nothing here ever blocks the UI. A seat's URL is
``http(s)://HOST:PORT/seat/<token>``: the page (static HTML, CSS and a little
JavaScript) opens a WebSocket to ``/seat/<token>/live`` and draws what the
server sends it. The server knows no game: `render(player)` gives a seat's
page structure and `act(player, action)` plays a tapped choice; both touch
the session, so both run on the UI thread through `call_soon`, and the server
waits for their answer with a timeout.

Security (the threat: curious players at the table, guests on the same Wi-Fi):
- a token per seat per game, 128 bits from `secrets`, compared in constant
  time, never written to a log (access logging is off, our own lines name
  players only); a game's tokens may be given back after a restart
  (``hardware.phones.codes``), checked as strictly as fresh ones;
- no token, or a stale or wrong one: a plain notice, nothing private;
- one browser per seat: a second one is refused (and the shared screen told)
  until the player releases the seat; the same browser coming back (it sends
  the random id it keeps for itself) takes its seat back from its own stale
  connection;
- security headers on every response, failed token attempts rate-limited per
  address, bound only to the configured host, TLS with the owner's files.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import re
import secrets
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from hardware.phones.codes import check_codes, new_token

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")

FAILURES_ALLOWED = 10  # wrong tokens from one address within WINDOW before it is blocked
WINDOW = 60.0  # seconds
BLOCK = 60.0  # seconds an address is refused everything under /seat/ once it has failed too often
UI_TIMEOUT = 2.0  # seconds to wait for the UI thread to render a page or play a choice
HEARTBEAT = 10.0  # seconds: a phone that went away silently is noticed within two of these
ALIVE = 10.0  # seconds between the "alive" words a quiet page hears: it calls the table lost after 2.5 of them
MAX_MESSAGE = 64 * 1024  # bytes: a choice is a few hundred

# What a phone reads when it is refused or dropped; never anything about the game.
SEAT_TAKEN = "This seat is open on another phone. Ask the table to release it on the touchscreen."
STALE = "This code is not valid any more. Scan your code on the table's screen again."
GAME_OVER = "This game is over. Scan your new code on the table's screen."
ANOTHER_GAME = "The table went to another game. When yours is back on its screen, tap Try again."
RELEASED = "This seat was released on the table's screen."
OPENED_AGAIN = "This seat was opened again in this browser."
CLOSING = "The table's companion is closing."
TURNED_OFF = "Phones were turned off at the table."
TOO_SLOW = "The table did not answer in time. Try again."
UNREADABLE = "That message could not be read."

NOTICE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tabletop Companion</title><link rel="stylesheet" href="/static/seat.css"></head>
<body><main class="notice"><h1>Tabletop Companion</h1><p>{sentence}</p></main></body></html>
"""
NO_TOKEN = "Scan your own code on the table's screen to see your page."
BLOCKED = "Too many wrong codes from this phone. Wait a minute, then scan your code again."

T = TypeVar("T")


def security_headers(host: str) -> dict[str, str]:
    """The headers every response carries; `host` (the request's, sanitised) names the WebSocket's origin."""
    host = host if re.fullmatch(r"[A-Za-z0-9.\-:\[\]]{1,300}", host) else ""
    sockets = f" ws://{host} wss://{host}" if host else ""  # older browsers do not let 'self' cover ws:
    return {
        "Cache-Control": "no-store",
        "Pragma": "no-cache",
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Content-Security-Policy": (
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            f"connect-src 'self'{sockets}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        ),
    }


class AttemptLimit:
    """Wrong tokens per client address: after `allowed` within `window` seconds, refused for `block` seconds.

    Used on the server's loop only. A blocked address is refused even with a
    right token, so guessing and then trying the found token gains nothing.
    """

    def __init__(
        self,
        allowed: int = FAILURES_ALLOWED,
        window: float = WINDOW,
        block: float = BLOCK,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.allowed, self.window, self.block, self.clock = allowed, window, block, clock
        self._failures: dict[str, deque[float]] = {}
        self._blocked_until: dict[str, float] = {}

    def blocked(self, address: str) -> bool:
        until = self._blocked_until.get(address)
        if until is None:
            return False
        if self.clock() < until:
            return True
        del self._blocked_until[address]
        return False

    def failed(self, address: str) -> bool:
        """Note a wrong token from `address`; True if that one blocks it."""
        now = self.clock()
        failures = self._failures.setdefault(address, deque())
        failures.append(now)
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        self._forget_old(now)
        if len(failures) < self.allowed:
            return False
        failures.clear()
        self._blocked_until[address] = now + self.block
        return True

    def _forget_old(self, now: float) -> None:
        # A guest cycling addresses must not grow this without end.
        if len(self._failures) > 1024:
            for address in [a for a, f in self._failures.items() if not f or f[-1] <= now - self.window]:
                del self._failures[address]


@dataclass(eq=False)
class _Phone:
    """One connected browser on one seat."""

    player: str
    browser: str | None  # the random id the page keeps for itself (sessionStorage): its own reconnects
    ws: web.WebSocketResponse
    dirty: asyncio.Event = field(default_factory=asyncio.Event)
    last: str | None = None  # the last page message sent, so an unchanged page is not sent again


class PhoneServer:
    """Each seat's private page for the phones at the table; see the module's docstring.

    `render`, `act`, `on_news` and `on_status` (a seat's phone connected or
    went: ask `status()`) are called on the UI thread (through `call_soon`)
    only; every public method may be called from any thread. `limit`,
    `ui_timeout` and `alive` are there for tests.
    """

    def __init__(
        self,
        *,
        host: str,
        port: int,
        render: Callable[[str], dict[str, Any] | None],
        act: Callable[[str, dict[str, Any]], str | None],
        call_soon: Callable[[Callable[[], None]], None],
        tls: tuple[Path, Path] | None = None,
        on_news: Callable[[str], None] = lambda sentence: None,
        on_status: Callable[[], None] = lambda: None,
        limit: AttemptLimit | None = None,
        ui_timeout: float = UI_TIMEOUT,
        alive: float = ALIVE,
    ) -> None:
        self.host, self.port = host, port
        self._render, self._act, self._call_soon, self._on_news = render, act, call_soon, on_news
        self._on_status = on_status
        self._ssl = _ssl_context(tls) if tls is not None else None
        self._limit = limit or AttemptLimit()
        self._ui_timeout = ui_timeout
        self._alive = alive
        self._lock = threading.RLock()
        self._seats: dict[str, str] = {}  # token -> player
        self._phones: dict[str, _Phone] = {}  # player -> the browser showing their page
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._address: tuple[str, int] | None = None
        self._files = {name: (STATIC / name).read_bytes() for name in ("seat.html", "seat.css", "seat.js")}

    # -- life (any thread) ------------------------------------------------------------------

    def start(self) -> PhoneServer:
        """Bind and serve, in a thread of its own; raises OSError if the host or port cannot be bound.

        Started again after `close`, it binds the port it had (the seats'
        URLs stay valid, and their pages reconnect by themselves).
        """
        with self._lock:
            if self._thread is not None:
                return self
            started: concurrent.futures.Future[tuple[str, int]] = concurrent.futures.Future()
            thread = threading.Thread(target=self._serve, args=(started,), name="phone-server", daemon=True)
            self._thread = thread
        thread.start()
        try:
            self._address = started.result(timeout=10)
        except BaseException:
            thread.join(5)
            with self._lock:
                self._thread = None
            raise
        scheme = "https" if self._ssl else "http"
        log.info("phone server listening on %s://%s:%d", scheme, *self._address)
        return self

    def close(self, goodbye: str = CLOSING, *, retry: bool = True) -> None:
        """Say `goodbye` to every phone (by default they retry by themselves), stop serving. Safe twice.

        The phones turned off in Settings say `TURNED_OFF` with `retry` False: the pages stop trying.
        """
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self._shutdown(goodbye, retry), loop).result(timeout=5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        log.info("phone server closed")

    def __enter__(self) -> PhoneServer:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    @property
    def address(self) -> tuple[str, int]:
        """The bound host and port (the configured ones until started)."""
        return self._address or (self.host, self.port)

    # -- the table (the UI thread, or any) ------------------------------------------------------

    def new_game(
        self, players: Sequence[str], tokens: Mapping[str, str] | None = None, *, old_codes_kept: bool = False
    ) -> None:
        """Fresh tokens for every seat, or `tokens` (player -> token: a game's own, kept over a restart, so
        its phones' URLs stay valid). The old ones stop working at once, and their phones are told so: to
        scan a new code, or with `old_codes_kept` (the old game waits unfinished, its codes kept for its
        return) to tap Try again once their game is back.

        Given tokens are checked as strictly as fresh ones are made: a ValueError, and nothing changes, if one
        is under 128 bits or not URL-safe, two seats share one, or they do not name exactly `players`.
        """
        if tokens is None:
            tokens = {player: new_token() for player in players}
        else:
            check_codes(players, tokens)
        farewell = ANOTHER_GAME if old_codes_kept else GAME_OVER
        with self._lock:
            self._seats = {tokens[player]: player for player in players}
            dropped, self._phones = list(self._phones.values()), {}
        for phone in dropped:
            self._later(self._drop(phone, farewell, retry=False))

    def tokens(self) -> dict[str, str]:
        """Player -> token of this game's seats, to keep them over a restart (never for a log line)."""
        with self._lock:
            return {player: token for token, player in self._seats.items()}

    def url_for(self, player: str) -> str | None:
        """The seat's URL with its token (for its QR code only), or None if `player` has no seat."""
        with self._lock:
            token = next((t for t, p in self._seats.items() if p == player), None)
        if token is None:
            return None
        host, port = self.address
        host = _reachable(host)
        host = f"[{host}]" if ":" in host else host
        return f"{'https' if self._ssl else 'http'}://{host}:{port}/seat/{token}"

    def changed(self) -> None:
        """Send every connected phone its fresh page (thread-safe; a burst of changes makes one render)."""
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # closing meanwhile
                loop.call_soon_threadsafe(self._mark_all)

    def release(self, player: str) -> None:
        """The player freed the seat on the touchscreen: its browser is dropped, another may connect."""
        with self._lock:
            phone = self._phones.pop(player, None)
        if phone is not None:
            log.info("%s's seat released", player)
            self._later(self._drop(phone, RELEASED, retry=False))

    def status(self) -> dict[str, str]:
        """Player -> "connected" (a phone shows their page) or "waiting"."""
        with self._lock:
            return {p: "connected" if p in self._phones else "waiting" for p in self._seats.values()}

    # -- the server's thread ----------------------------------------------------------------

    def _serve(self, started: concurrent.futures.Future[tuple[str, int]]) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            address = loop.run_until_complete(self._bind())
        except BaseException as error:
            started.set_exception(error)
            loop.close()
            return
        with self._lock:
            self._loop = loop
        started.set_result(address)
        try:
            loop.run_forever()
        finally:
            for task in asyncio.all_tasks(loop):
                task.cancel()
            with contextlib.suppress(Exception):
                loop.run_until_complete(asyncio.sleep(0))
            loop.close()

    async def _bind(self) -> tuple[str, int]:
        app = web.Application()
        app.on_response_prepare.append(_add_headers)
        app.router.add_get("/", self._notice_page)
        app.router.add_get("/seat/{token}", self._seat_page)
        app.router.add_get("/seat/{token}/live", self._live)
        app.router.add_get("/static/seat.css", self._static)
        app.router.add_get("/static/seat.js", self._static)
        # No access log: a seat's URL holds its token, and a token is never written down.
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0, handle_signals=False)
        await runner.setup()
        port = self._address[1] if self._address is not None and self.port == 0 else self.port
        site = web.TCPSite(runner, self.host, port, ssl_context=self._ssl, reuse_address=True)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        host, bound = runner.addresses[0][:2]
        return str(host), int(bound)

    async def _shutdown(self, goodbye: str, retry: bool) -> None:
        with self._lock:
            phones, self._phones = list(self._phones.values()), {}
        await asyncio.gather(*(self._drop(phone, goodbye, retry=retry) for phone in phones), return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _later(self, coroutine: Awaitable[None]) -> None:
        """Run `coroutine` on the server's loop, from any thread (dropped if the server is not running)."""
        loop = self._loop
        try:
            if loop is None:
                raise RuntimeError("not serving")
            asyncio.run_coroutine_threadsafe(coroutine, loop)  # type: ignore[arg-type]
        except RuntimeError:  # not started, or closing meanwhile: nobody is connected to tell
            if asyncio.iscoroutine(coroutine):
                coroutine.close()

    def _mark_all(self) -> None:
        with self._lock:
            phones = list(self._phones.values())
        for phone in phones:
            phone.dirty.set()

    async def _drop(self, phone: _Phone, sentence: str, *, retry: bool) -> None:
        with contextlib.suppress(Exception):
            await phone.ws.send_json({"type": "bye", "sentence": sentence, "retry": retry})
        with contextlib.suppress(Exception):
            await phone.ws.close()

    async def _on_ui(self, fn: Callable[[], T]) -> T:
        """Run `fn` on the UI thread (the session lives there) and wait for its answer, at most `ui_timeout`."""
        done: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            if not done.set_running_or_notify_cancel():
                return  # given up on meanwhile
            try:
                done.set_result(fn())
            except BaseException as error:
                done.set_exception(error)

        self._call_soon(run)
        return await asyncio.wait_for(asyncio.wrap_future(done), self._ui_timeout)

    # -- requests ------------------------------------------------------------------------------

    def _player_for(self, token: str) -> str | None:
        """The seat `token` opens, compared in constant time against every seat's."""
        given = token.encode("utf-8", "replace")
        with self._lock:
            seats = list(self._seats.items())
        found = None
        for seat_token, player in seats:
            if secrets.compare_digest(seat_token.encode(), given):
                found = player
        return found

    def _check(self, request: web.Request) -> str | web.Response:
        """The seat's player, or the response refusing the request (counted against its address)."""
        address = request.remote or "?"
        if self._limit.blocked(address):
            return _notice(BLOCKED, 429)
        player = self._player_for(request.match_info["token"])
        if player is not None:
            return player
        if self._limit.failed(address):
            log.warning("too many wrong seat codes from %s: refused for %.0f s", address, self._limit.block)
        else:
            log.info("a wrong or stale seat code from %s", address)
        return _notice(NO_TOKEN, 403)

    async def _notice_page(self, request: web.Request) -> web.Response:
        return _notice(NO_TOKEN, 200)

    async def _static(self, request: web.Request) -> web.Response:
        name = request.path.rsplit("/", 1)[-1]
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return web.Response(body=self._files[name], content_type=kind, charset="utf-8")

    async def _seat_page(self, request: web.Request) -> web.Response:
        checked = self._check(request)
        if isinstance(checked, web.Response):
            return checked
        # The same page for every seat: it holds nothing private, it reads its token from its own URL.
        return web.Response(body=self._files["seat.html"], content_type="text/html", charset="utf-8")

    async def _live(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            return _notice("This page belongs to the table's own server.", 403)  # another site's script
        checked = self._check(request)
        if isinstance(checked, web.Response):
            if checked.status == 429 or not _wants_websocket(request):
                return checked
            # A page whose token went stale (the game changed, the app restarted) is told so and stops
            # retrying: a phone left on the table must not lock its own address out.
            ws = web.WebSocketResponse()
            await ws.prepare(request)
            await ws.send_json({"type": "bye", "sentence": STALE, "retry": False})
            await ws.close()
            return ws
        player = checked
        browser = request.query.get("browser") or None
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE)
        phone = _Phone(player, browser, ws)
        with self._lock:
            if self._player_for(request.match_info["token"]) != player:
                return _notice(NO_TOKEN, 403)  # a new game began meanwhile: this token is stale now
            held = self._phones.get(player)
            refused = held is not None and not held.ws.closed and (browser is None or held.browser != browser)
            if not refused:
                self._phones[player] = phone
        await ws.prepare(request)
        if refused:
            log.warning("a second phone tried %s's page (from %s)", player, request.remote)
            self._call_soon(lambda: self._on_news(f"A second phone tried {player}'s page"))
            await ws.send_json({"type": "bye", "sentence": SEAT_TAKEN, "retry": False})
            await ws.close()
            return ws
        if held is not None:
            await self._drop(held, OPENED_AGAIN, retry=False)  # this browser's own earlier connection
        log.info("%s's phone connected from %s", player, request.remote)
        self._call_soon(self._on_status)
        pages = asyncio.ensure_future(self._send_pages(phone))
        phone.dirty.set()
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    await self._message(phone, message.data)
                elif message.type == WSMsgType.ERROR:
                    break
        finally:
            pages.cancel()
            with self._lock:
                if self._phones.get(player) is phone:
                    del self._phones[player]
            log.info("%s's phone disconnected", player)
            self._call_soon(self._on_status)
        return ws

    async def _send_pages(self, phone: _Phone) -> None:
        """Send `phone` its page whenever it may have changed; a burst of changes is one render.

        A quiet while is broken by ``{"type": "alive"}`` every `alive` seconds: a pulled plug sends the
        phone no goodbye and its connection may look open for minutes, so the page itself counts the
        silence (it cannot see the WebSocket's own pings) and says the connection is lost.
        """
        alive = json.dumps({"type": "alive", "every": self._alive})
        with contextlib.suppress(ConnectionError, RuntimeError):
            await phone.ws.send_str(alive)  # first: the page learns how long a silence may be
        while not phone.ws.closed:
            try:
                await asyncio.wait_for(phone.dirty.wait(), self._alive)
            except TimeoutError:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await phone.ws.send_str(alive)
                continue
            phone.dirty.clear()
            try:
                page = await self._on_ui(lambda: self._render(phone.player))
                text = json.dumps({"type": "page", "page": page}, ensure_ascii=False)
            except TimeoutError:
                log.warning("%s's page: the UI thread did not answer in %.1f s", phone.player, self._ui_timeout)
                phone.dirty.set()
                await asyncio.sleep(self._ui_timeout)
                continue
            except Exception:
                log.exception("%s's page could not be drawn", phone.player)
                continue
            if text != phone.last and not phone.ws.closed:
                phone.last = text
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await phone.ws.send_str(text)

    async def _message(self, phone: _Phone, data: str) -> None:
        try:
            message = json.loads(data)
            action = message["action"] if message.get("type") == "act" else None
        except (ValueError, TypeError, KeyError, AttributeError):
            action = None
        if not isinstance(action, dict):
            await phone.ws.send_json({"type": "refused", "sentence": UNREADABLE})
            return
        action = {**action, "player": phone.player}  # a phone acts for its own seat only
        try:
            sentence = await self._on_ui(lambda: self._act(phone.player, action))
        except TimeoutError:
            sentence = TOO_SLOW
        except Exception:
            log.exception("%s's choice from their phone failed", phone.player)
            sentence = "That choice could not be played."
        if sentence is not None:
            await phone.ws.send_json({"type": "refused", "sentence": sentence})
        else:
            phone.dirty.set()  # the app's changed() will follow; this makes sure the phone sees the result


async def _add_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(security_headers(request.host))


def _notice(sentence: str, status: int) -> web.Response:
    return web.Response(text=NOTICE.format(sentence=sentence), status=status, content_type="text/html")


def _wants_websocket(request: web.Request) -> bool:
    return request.headers.get("Upgrade", "").lower() == "websocket"


def _ssl_context(tls: tuple[Path, Path]) -> ssl.SSLContext:
    certificate, key = tls
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(str(certificate), str(key))
    return context


def _reachable(host: str) -> str:
    """The address a phone can reach for a server bound to `host` (a wildcard: this machine's LAN address)."""
    if host not in ("", "0.0.0.0", "::"):
        return host
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        return str(probe.getsockname()[0])
    return "127.0.0.1"
