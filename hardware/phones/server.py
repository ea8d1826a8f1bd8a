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
- one browser per seat: a second one is refused (and the shared screen told);
  the same browser coming back (it sends the random id it keeps for itself),
  or any browser on the seat's current code while the page holding the seat
  has been silent for a beat (`BEAT`: it did not answer a ping), takes the
  seat back. The table controls the codes: Release (`new_code`) gives the seat
  a fresh code at once and closes the page that held it ("This page was
  closed at the table"), so a photographed code opens nothing afterwards;
  `forget_phones` does so for every seat;
- limits nobody on the Wi-Fi can starve the table with: connections per
  address (`PER_ADDRESS`, an IPv6 /64 counting as one address) and in total
  (`TOTAL`), the oldest connection that is not a seat's page making room for a
  new one; request headers within `HEADER_TIMEOUT`, idle keep-alive sockets
  closed after `IDLE_TIMEOUT`; a seat's messages at most `TAP_RATE` a second
  (bursts of `TAP_BURST`), one sentence when over; refusals and accept errors
  counted and logged once an interval (``companion.log_text.Tally``);
- security headers on every response, failed token attempts rate-limited per
  address, WebSockets only from the page's own origin (scheme, host and
  port), bound only to the configured host, TLS with the owner's files.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import errno
import ipaddress
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
from yarl import URL

from companion.log_text import Tally, shown
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
BEAT = 1.5  # seconds a page holding a seat has to answer a ping before a phone on the current code takes over

# Limits: a table of five with two phones each opens at most about 5 connections a phone (the page, its two
# files, the WebSocket, a spare the browser keeps), 50 in all, never 8 from one phone. Each is one open file:
# TOTAL plus the sockets being turned away (one at a time) and the app's own files stay far under LimitNOFILE.
PER_ADDRESS = 8  # open connections from one address (an IPv6 /64 is one address: one phone has many of those)
TOTAL = 64  # open connections in all
HEADER_TIMEOUT = 5.0  # seconds for a request's headers (and a TLS handshake) to arrive in full
IDLE_TIMEOUT = 15.0  # seconds an idle keep-alive socket stays open
TAP_RATE = 5.0  # messages a second a seat's page may send, on average (a quick player taps 2 or 3)
TAP_BURST = 20  # ... and at once (a whole setup tapped quickly)
LOG_EVERY = 60.0  # seconds: refusals and errors are logged as one count per this interval
SWEEP = 0.5  # seconds between looks at the connections' deadlines
ACCEPT_PAUSE = 0.1  # seconds the accept loop rests when the system has no file to spare
NEWS_EVERY = 10.0  # seconds: the shared screen hears of a second phone on one seat at most once in these
TOO_FAST_EVERY = 5.0  # seconds: a page over its tap rate is told so at most once in these

# What a phone reads when it is refused or dropped; never anything about the game.
SEAT_TAKEN = "This seat is open on another phone. Ask the table to release it on the touchscreen."
STALE = "This code is not valid any more. Scan your code on the table's screen again."
GAME_OVER = "This game is over. Scan your new code on the table's screen."
ANOTHER_GAME = "The table went to another game. When yours is back on its screen, tap Try again."
RELEASED = "This page was closed at the table."
OPENED_AGAIN = "This seat was opened again in this browser."
CLOSING = "The table's companion is closing."
TURNED_OFF = "Phones were turned off at the table."
TOO_SLOW = "The table did not answer in time. Try again."
UNREADABLE = "That message could not be read."
TOO_FAST = "Too many taps at once: wait a moment, then tap again."

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


class TapLimit:
    """Messages per seat: a bucket of `burst` taps, refilled at `rate` a second (the server's loop only).

    A guest with a seat's page cannot fill the games file or the UI thread:
    a minute of flooding stores at most ``burst + 60 * rate`` steps.
    """

    def __init__(self, rate: float = TAP_RATE, burst: int = TAP_BURST, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self._seats: dict[str, tuple[float, float]] = {}  # player -> (taps left, when counted)

    def allow(self, player: str) -> bool:
        now = self.clock()
        left, then = self._seats.get(player, (float(self.burst), now))
        left = min(float(self.burst), left + (now - then) * self.rate)
        if left < 1.0:
            self._seats[player] = (left, now)
            return False
        self._seats[player] = (left - 1.0, now)
        return True


def source_of(address: str) -> str:
    """What the connection limits count as one address: an IPv4 address, an IPv6 address's /64."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip.ipv4_mapped or ip) if isinstance(ip, ipaddress.IPv6Address) else str(ip)


@dataclass(eq=False)
class _Conn:
    """One accepted connection, from its accept to its close."""

    source: str
    sock: socket.socket
    deadline: float | None  # its request's headers (or TLS handshake) must be in by then; None: none awaited
    transport: asyncio.Transport | None = None
    heard: float = 0.0  # when its last bytes came in
    busy: int = 0  # requests being answered on it now (a seat's WebSocket is one for its whole life)
    seat: bool = False  # it carries a seat's page: never closed to make room
    counted: bool = True


class Connections:
    """Every open connection by source: the caps, who makes room, the deadlines (the server's loop only)."""

    def __init__(
        self,
        per_address: int = PER_ADDRESS,
        total: int = TOTAL,
        header_timeout: float = HEADER_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address, self.total, self.header_timeout, self.clock = per_address, total, header_timeout, clock
        self._by_source: dict[str, list[_Conn]] = {}  # oldest first
        self._by_transport: dict[int, _Conn] = {}
        self.open = 0

    def admit(self, source: str, sock: socket.socket) -> tuple[_Conn | None, int]:
        """A new connection from `source`: its entry (None: refused, every other one is a seat's page), and how
        many older ones were closed to make room."""
        closed = 0
        mine = self._by_source.get(source, [])
        if len(mine) >= self.per_address:
            if not self._close_oldest(mine):
                return None, closed
            closed += 1
        if self.open >= self.total:
            crowds = sorted(self._by_source.values(), key=len, reverse=True)
            if not any(self._close_oldest(conns) for conns in crowds):
                return None, closed
            closed += 1
        conn = _Conn(source, sock, self.clock() + self.header_timeout)
        self._by_source.setdefault(source, []).append(conn)
        self.open += 1
        return conn, closed

    def made(self, conn: _Conn, transport: asyncio.Transport) -> None:
        conn.transport = transport
        conn.heard = self.clock()
        if conn.counted:
            self._by_transport[id(transport)] = conn

    def of(self, transport: object) -> _Conn | None:
        return self._by_transport.get(id(transport))

    def heard(self, conn: _Conn) -> None:
        conn.heard = self.clock()
        if conn.busy == 0 and conn.deadline is None:
            conn.deadline = conn.heard + self.header_timeout  # the next request is coming: its headers in time

    def gone(self, conn: _Conn) -> None:
        if not conn.counted:
            return
        conn.counted = False
        self.open -= 1
        conns = self._by_source.get(conn.source, [])
        with contextlib.suppress(ValueError):
            conns.remove(conn)
        if not conns:
            self._by_source.pop(conn.source, None)
        if conn.transport is not None:
            self._by_transport.pop(id(conn.transport), None)

    def late(self) -> list[_Conn]:
        """Close and forget the connections whose headers are late; they are returned (for the count)."""
        now = self.clock()
        found = [
            conn
            for conns in self._by_source.values()
            for conn in conns
            if not conn.seat and conn.busy == 0 and conn.deadline is not None and now > conn.deadline
        ]
        for conn in found:
            self.close(conn)
        return found

    def everyone(self) -> list[_Conn]:
        return [conn for conns in self._by_source.values() for conn in conns]

    def _close_oldest(self, conns: list[_Conn]) -> bool:
        victim = next((conn for conn in conns if not conn.seat), None)
        if victim is None:
            return False
        self.close(victim)
        return True

    def close(self, conn: _Conn) -> None:
        if conn.transport is not None:
            conn.transport.abort()
        else:  # still in its TLS handshake: its transport owns the socket, and notices the shutdown itself
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)
        self.gone(conn)


class _Guarded(asyncio.Protocol):
    """aiohttp's own protocol for one connection, with `Connections` told of its bytes and its end."""

    def __init__(self, inner: asyncio.Protocol, conn: _Conn, connections: Connections) -> None:
        self.inner, self.conn, self.connections = inner, conn, connections

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.connections.made(self.conn, transport)  # type: ignore[arg-type]
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.connections.heard(self.conn)
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self.connections.gone(self.conn)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


def _listeners(host: str, port: int) -> list[socket.socket]:
    """Listening sockets for `host` (each of its addresses; an IPv6 one for IPv6 only, as asyncio binds)."""
    infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    made: list[socket.socket] = []
    seen: set[tuple[int, str]] = set()
    try:
        for family, kind, proto, _name, address in infos:
            if (family, str(address[0])) in seen:
                continue
            seen.add((family, str(address[0])))
            sock = socket.socket(family, kind, proto)
            made.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            if port == 0 and len(made) > 1:  # every address on the port the first one got
                address = (address[0], made[0].getsockname()[1], *address[2:])
            sock.bind(address)
            sock.listen(128)
            sock.setblocking(False)
    except BaseException:
        for sock in made:
            sock.close()
        raise
    return made


@dataclass(eq=False)
class _Phone:
    """One connected browser on one seat."""

    player: str
    browser: str | None  # the random id the page keeps for itself (sessionStorage): its own reconnects
    ws: web.WebSocketResponse
    dirty: asyncio.Event = field(default_factory=asyncio.Event)
    last: str | None = None  # the last page message sent, so an unchanged page is not sent again
    conn: _Conn | None = None  # its connection (when it was heard from last)
    too_fast_at: float = -TOO_FAST_EVERY  # when it was last told TOO_FAST: said once a while, not once a message


class PhoneServer:
    """Each seat's private page for the phones at the table; see the module's docstring.

    `render`, `act`, `on_news` and `on_status` (a seat's phone connected or
    went: ask `status()`) are called on the UI thread (through `call_soon`)
    only; `on_codes` (a seat's code changed: keep `tokens()`) on the thread
    that changed them. Every public method may be called from any thread.
    `limit`, `taps`, `connections`, `ui_timeout`, `alive`, `beat` and
    `log_every` are there for tests.
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
        on_codes: Callable[[], None] = lambda: None,
        limit: AttemptLimit | None = None,
        taps: TapLimit | None = None,
        connections: Connections | None = None,
        ui_timeout: float = UI_TIMEOUT,
        alive: float = ALIVE,
        beat: float = BEAT,
        log_every: float = LOG_EVERY,
    ) -> None:
        self.host, self.port = host, port
        self._render, self._act, self._call_soon, self._on_news = render, act, call_soon, on_news
        self._on_status, self._on_codes = on_status, on_codes
        self._ssl = _ssl_context(tls) if tls is not None else None
        self._limit = limit or AttemptLimit()
        self._taps = taps or TapLimit()
        self._connections = connections or Connections()
        self._ui_timeout = ui_timeout
        self._alive = alive
        self._beat = beat
        self.tally = Tally(log, every=log_every)  # refusals and errors: one count an interval, never one a line
        self._news_at: dict[str, float] = {}  # player -> when the shared screen last heard of a second phone
        self._listening: list[socket.socket] = []
        self._tasks: list[asyncio.Future[None]] = []
        self._sweeper: asyncio.TimerHandle | None = None
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

    def new_code(self, player: str) -> None:
        """The table gave `player`'s seat a new code (Release, "New code for Ann"): the old code opens nothing
        from now on, and the page that held the seat is told "This page was closed at the table" and closed."""
        self._new_codes([player])

    release = new_code  # "Release Ann's phone": the very same, on a seat whose phone is connected

    def forget_phones(self) -> None:
        """Every seat a new code, every page closed: the table forgets all the phones of this game at once."""
        with self._lock:
            players = list(self._seats.values())
        self._new_codes(players)

    def _new_codes(self, players: Sequence[str]) -> None:
        with self._lock:
            known = [player for player in players if player in self._seats.values()]
            if not known:
                return
            taken = set(self._seats)
            for player in known:
                old = next(token for token, p in self._seats.items() if p == player)
                del self._seats[old]
                fresh = new_token()
                while fresh in taken:  # never: 128 bits; but two seats must never share one
                    fresh = new_token()
                self._seats[fresh] = player
            dropped = [phone for player in known if (phone := self._phones.pop(player, None)) is not None]
        log.info("new seat code(s) for %s: the old ones open nothing any more", ", ".join(known))
        for phone in dropped:
            self._later(self._drop(phone, RELEASED, retry=False))
        self._on_codes()

    @property
    def open_connections(self) -> int:
        """Connections open now (a test's look; read from any thread, it may be a moment old)."""
        return self._connections.open

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
        app = web.Application(middlewares=[self._busy])
        app.on_response_prepare.append(_add_headers)
        app.router.add_get("/", self._notice_page)
        app.router.add_get("/seat/{token}", self._seat_page)
        app.router.add_get("/seat/{token}/live", self._live)
        app.router.add_get("/static/seat.css", self._static)
        app.router.add_get("/static/seat.js", self._static)
        # No access log: a seat's URL holds its token, and a token is never written down.
        runner = web.AppRunner(
            app, access_log=None, shutdown_timeout=1.0, handle_signals=False, keepalive_timeout=IDLE_TIMEOUT
        )
        await runner.setup()
        port = self._address[1] if self._address is not None and self.port == 0 else self.port
        try:
            self._listening = _listeners(self.host, port)
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_error)
        # Our own accept loop rather than aiohttp's site: the limits are checked before a connection costs
        # anything but its socket, and an error accepting is counted, not logged a thousand times a second.
        self._tasks = [asyncio.ensure_future(self._accept(sock)) for sock in self._listening]
        self._sweeper = loop.call_later(SWEEP, self._sweep)
        host, bound = self._listening[0].getsockname()[:2]
        return str(host), int(bound)

    async def _accept(self, listening: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock, peer = await loop.sock_accept(listening)
            except asyncio.CancelledError:
                raise
            except OSError as error:
                self.tally.note("errors accepting a connection", f"a connection could not be accepted ({error})")
                if error.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    await asyncio.sleep(ACCEPT_PAUSE)  # nothing to spare: rest, rather than spin on the error
                continue
            source = source_of(str(peer[0]))
            conn, closed = self._connections.admit(source, sock)
            if closed:
                self.tally.note(
                    "connections closed to make room",
                    f"too many connections (from {source}, or in all): the oldest one closed to make room",
                    source,
                )
            if conn is None:
                sock.close()
                self.tally.note("connections refused", f"a connection from {source} refused: every one is a seat's")
                continue
            self._tasks.append(asyncio.ensure_future(self._connect(sock, conn)))
            if len(self._tasks) > 64:
                self._tasks = [task for task in self._tasks if not task.done()]

    async def _connect(self, sock: socket.socket, conn: _Conn) -> None:
        runner = self._runner
        if runner is None or runner.server is None:
            sock.close()
            self._connections.gone(conn)
            return
        server = runner.server
        try:
            sock.setblocking(False)
            await asyncio.get_running_loop().connect_accepted_socket(
                lambda: _Guarded(server(), conn, self._connections),
                sock,
                ssl=self._ssl,
                ssl_handshake_timeout=HEADER_TIMEOUT if self._ssl else None,
            )
        except (OSError, ssl.SSLError, TimeoutError, ConnectionError) as error:
            sock.close()
            self._connections.gone(conn)
            failed = f"a connection from {conn.source} failed ({shown(error)})"
            self.tally.note("failed handshakes", failed, conn.source)

    def _sweep(self) -> None:
        """Every `SWEEP` seconds: close the connections whose headers are late, log the counts that are due."""
        for conn in self._connections.late():
            self.tally.note(
                "slow or silent connections closed",
                f"a connection from {conn.source} sent no whole request in {HEADER_TIMEOUT:.0f} s: closed",
                conn.source,
            )
        self.tally.flush()
        self._sweeper = asyncio.get_running_loop().call_later(SWEEP, self._sweep)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio's own errors on this loop (a connection reset mid-write...): counted, never one a line."""
        error = context.get("exception")
        self.tally.note(
            "errors on the phones' connections",
            f"phone server: {shown(context.get('message', ''))}" + (f" ({shown(repr(error))})" if error else ""),
        )

    @web.middleware
    async def _busy(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """A request is being answered: its connection's header deadline is met (and none runs meanwhile)."""
        conn = self._connections.of(request.transport)
        if conn is not None:
            conn.busy += 1
            conn.deadline = None
        try:
            return await handler(request)
        finally:
            if conn is not None:
                conn.busy -= 1

    async def _shutdown(self, goodbye: str, retry: bool) -> None:
        with self._lock:
            phones, self._phones = list(self._phones.values()), {}
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in self._tasks:
            task.cancel()
        for sock in self._listening:
            sock.close()
        self._listening, self._tasks = [], []
        await asyncio.gather(*(self._drop(phone, goodbye, retry=retry) for phone in phones), return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for conn in self._connections.everyone():  # any still in a handshake, or never handed to aiohttp
            self._connections.close(conn)
        self.tally.flush(everything=True)

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
            self.tally.note(
                "addresses blocked for wrong seat codes",
                f"too many wrong seat codes from {address}: refused for {self._limit.block:.0f} s",
                address,
                logging.WARNING,
            )
        else:
            self.tally.note("wrong or stale seat codes", f"a wrong or stale seat code from {address}", address)
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
        if origin is not None and not self._same_origin(request, origin):
            self.tally.note(
                "WebSockets from another origin", f"a WebSocket from the origin {shown(origin)} refused", origin
            )
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
        token = request.match_info["token"]
        with self._lock:
            held = self._phones.get(player)
        # Another browser on the current code takes the seat only from a page gone silent (a phone that lost
        # its Wi-Fi, then came back as a new tab); a page that answers a ping keeps it.
        another = held is not None and not held.ws.closed and (browser is None or held.browser != browser)
        if another and held is not None and not await self._silent(held):
            return await self._refuse_second(request, player)
        with self._lock:
            if self._player_for(token) != player:
                return _notice(NO_TOKEN, 403)  # a new game or a new code meanwhile: this token is stale now
            now_held = self._phones.get(player)
            if now_held is not None and now_held is not held and not now_held.ws.closed:
                refused = True  # another browser took it while this one waited
            else:
                refused = False
                self._phones[player] = phone
        if refused:
            return await self._refuse_second(request, player)
        phone.conn = self._connections.of(request.transport)
        if phone.conn is not None:
            phone.conn.seat = True  # a seat's page: never closed to make room for another connection
        await ws.prepare(request)
        if held is not None:
            await self._drop(held, OPENED_AGAIN, retry=False)  # the seat's earlier, silent or own connection
        source = source_of(request.remote or "?")
        self.tally.note(f"connections of {player}'s phone", f"{player}'s phone connected from {source}", source)
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
            self.tally.note(f"disconnections of {player}'s phone", f"{player}'s phone disconnected", source)
            self._call_soon(self._on_status)
        return ws

    async def _silent(self, held: _Phone) -> bool:
        """Has `held` been silent for a beat: no answer to a ping within `beat` seconds?"""
        asked = time.monotonic()
        try:
            await held.ws.ping()
        except Exception:
            return True  # it cannot even be written to
        deadline = asked + self._beat
        while time.monotonic() < deadline:
            if held.ws.closed:
                return True
            if held.conn is not None and held.conn.heard >= asked:
                return False
            await asyncio.sleep(0.02)
        return not (held.conn is not None and held.conn.heard >= asked)

    async def _refuse_second(self, request: web.Request, player: str) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        source = source_of(request.remote or "?")
        self.tally.note(
            "second phones refused", f"a second phone tried {player}'s page (from {source})", source, logging.WARNING
        )
        now = time.monotonic()
        if now - self._news_at.get(player, -NEWS_EVERY) >= NEWS_EVERY:  # a guest's retries do not flood the screen
            self._news_at[player] = now
            self._call_soon(lambda: self._on_news(f"A second phone tried {player}'s page"))
        await ws.send_json({"type": "bye", "sentence": SEAT_TAKEN, "retry": False})
        await ws.close()
        return ws

    def _same_origin(self, request: web.Request, origin: str) -> bool:
        """Is `origin` this page's own: the same scheme, host and port as the request's (the page's) URL?"""
        scheme = "https" if self._ssl is not None else "http"
        try:
            given = URL(origin)
            own = URL(f"{scheme}://{request.host}")
            return (
                given.scheme == scheme
                and given.host is not None
                and given.host.lower() == (own.host or "").lower()
                and given.port == own.port
                and given.path in ("", "/")
                and not given.query_string
                and given.user is None
            )
        except (ValueError, TypeError):
            return False

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
        if not self._taps.allow(phone.player):
            self.tally.note(
                "messages over a seat's limit",
                f"{phone.player}'s page sends more than {self._taps.rate:g} messages a second: the rest wait",
                phone.player,
            )
            now = time.monotonic()
            if now - phone.too_fast_at >= TOO_FAST_EVERY:  # one sentence, not one for each refused message
                phone.too_fast_at = now
                await phone.ws.send_json({"type": "refused", "sentence": TOO_FAST})
            return
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
