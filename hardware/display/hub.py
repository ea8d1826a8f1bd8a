"""Which display belongs to whom, and showing each player their own secrets only.

The hub keeps a `PortScanner` on the configured ports. When a display says
HELLO, its device identity (never its port) decides what it gets:

- an identity paired with a player of the game in progress gets what that
  player's own display shows (`own_view(player)`, drawn for its screen size
  by the game's display module, or plainly: `companion.small_display`);
- any other display gets a pairing code (and the shared screen asks whose
  display shows it), or a neutral screen: never anything secret.

Pairings live in a small JSON file (`hardware.display.pairings`); which
player a display may show, once it has proved it holds its pairing's key,
is the handshake's to say (`hardware.display.handshake`): this module draws,
and reports. The hub observes the session, so every
change reaches every display at once, and a display that comes back (on any
port) is sent its view as soon as it says HELLO. Unplugging one blocks
nothing: `status()` tells the shared screen, and the game goes on.

The hub knows no game. While the game's display module offers a menu for a
player's view (``Game.display.menu_for``), that player's display shows it:
its keys are handed to the UI thread, move the menu there, and a confirmed
choice is played with `session.act`; a refusal is shown on that player's
display only. Other keys turn the pages, or reach `on_key` listeners.

Threads (the readers, the scanner) reach the UI only through the `call_soon`
dispatcher given to the hub (the table's one dispatcher); the session is
changed only there.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Any, Protocol

from companion.dispatch import Dispatcher, immediate
from companion.game import Refusal
from companion.log_text import Tally, shown
from companion.small_display import DOWN, MENU_KEYS, UP, GameDisplay, Menu, OwnView, Page, neutral, pages_for
from hardware.display import protocol
from hardware.display.handshake import Connection, Handshake
from hardware.display.link import BAUDRATE, DisplayLink, Hello, PortScanner
from hardware.display.pairings import Pairing, Pairings

__all__ = ["DisplayHub", "DisplayState", "DisplayStatus", "Pairing", "Pairings", "TableSession", "checking"]

log = logging.getLogger(__name__)
PORT_LIMIT = 240  # characters of a port's name in a log line: a /dev/serial/by-id name carries the device's words

HELLO_LOG_EVERY = 2.0  # seconds: repeated HELLOs from one display make one log line per this long
CHALLENGE_AGAIN_AFTER = 0.5  # seconds: a display that says HELLO again without answering is challenged anew
NOTIFY_PER_SECOND = 4  # the shared screen hears of display changes at most this often (a flood is one call a second)


class TableGame(Protocol):
    """What the hub needs of the game being played."""

    @property
    def display(self) -> GameDisplay | None:
        """The game's display module, or None: its private views are shown plainly."""
        ...


class TableSession(Protocol):
    """What the hub needs of the game in progress (a `companion.session.Session` has it all).

    `own_view` is asked from the hub's threads too, so it must only read (the
    Session's reads an immutable state); `act` is called on the UI thread only.
    """

    @property
    def options(self) -> Any: ...  # its ``names``: the seated players

    @property
    def game(self) -> TableGame: ...

    def own_view(self, player: str) -> OwnView: ...  # the game's own view, typed (a dict for a game whose views are)

    def act(self, action: Any) -> object: ...

    def subscribe(self, observer: Callable[[Any], None]) -> Callable[[], None]: ...


class DisplayState(StrEnum):
    CONNECTED = "connected"
    UNPLUGGED = "unplugged"
    UNPAIRED = "unpaired"


@dataclass(frozen=True)
class DisplayStatus:
    """One line of the shared screen's display strip."""

    player: str | None  # None: a connected display nobody has paired yet
    state: DisplayState
    identity: str | None = None
    port: str | None = None
    code: str | None = None  # the pairing code an unpaired display shows
    claims: str | None = None  # the player whose display it said it was, without proving it

    @property
    def sentence(self) -> str | None:
        """What the shared screen says of a display that claimed a player's identity it could not prove."""
        if self.claims is None:
            return None
        return f"A display claims to be {self.claims}'s but could not prove it"


@dataclass(eq=False)
class _Display(Connection):
    """A connection (what the handshake knows of it) and what the hub drew on it."""

    page: int = 0
    last_frame: bytes | None = None
    pages: int = 1
    shown_for: str | None = None  # the player whose view it shows, if any
    in_menu: bool = False  # it shows its player's menu: the menu keys go to the menu
    hellos_unlogged: int = 0  # HELLOs since the last one logged (a flood is one log line per burst)
    hello_logged_at: float = 0.0


class DisplayHub:
    """Binds displays to players and keeps each one showing what its player may see."""

    def __init__(
        self,
        pairings_path: str | os.PathLike[str],
        *,
        call_soon: Dispatcher = immediate,
        ports: Iterable[str] = (),
        scan_interval: float = 0.2,
        baudrate: int = BAUDRATE,
        rng: random.Random | None = None,
    ) -> None:
        self.pairings = Pairings(pairings_path)
        self._handshake = Handshake(self.pairings, rng or random.SystemRandom())
        self._call_soon = call_soon
        self._lock = threading.RLock()
        self._displays: dict[int, _Display] = {}  # by id(link)
        self._session: TableSession | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._listeners: list[Callable[[], None]] = []
        self._notify_lock = threading.Lock()
        self._notify_pending = False
        self._notify_window = -1.0
        self._notify_count = 0
        self._key_listeners: list[Callable[[str, str], None]] = []
        self._menus: dict[str, Menu] = {}  # each player's place in their game's menu
        self._said = Tally(log)  # what a device makes us log, counted per port: a flood cannot fill the logs
        self.scanner = PortScanner(
            ports,
            on_hello=self._hello,
            on_key=self._key,
            on_proof=self._proof,
            on_lost=self._lost,
            interval=scan_interval,
            baudrate=baudrate,
        )

    # -- life ----------------------------------------------------------------------

    def start(self) -> DisplayHub:
        """Start looking for displays on the configured ports."""
        self.scanner.start()
        return self

    def close(self) -> None:
        """Stop looking, close every port, stop observing the session. Safe twice."""
        self.detach()
        self.scanner.close()

    def __enter__(self) -> DisplayHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the game -------------------------------------------------------------------

    def attach(self, session: TableSession) -> None:
        """Show `session`'s game on the players' displays from now on, and play their menu choices in it."""
        self.detach()
        with self._lock:
            self._session = session
            self._refresh_all()
        self._unsubscribe = session.subscribe(self._on_session)

    def detach(self) -> None:
        """No game any more: every display goes back to a neutral screen."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._lock:
            self._session = None
            self._menus.clear()
            self._refresh_all()
        self._notify()

    def _on_session(self, _session: object) -> None:
        # Runs in the thread that changed the session (the UI's); never raises into it.
        try:
            with self._lock:
                self._refresh_all()
        except Exception:
            log.exception("could not update the player displays")

    @property
    def players(self) -> tuple[str, ...]:
        with self._lock:
            return _names(self._session)

    # -- pairing ---------------------------------------------------------------------

    def pending_codes(self) -> list[str]:
        """The codes shown by connected displays waiting to be paired."""
        with self._lock:
            return [d.code for d in self._displays.values() if d.code is not None]

    def pair(self, code: str, player: str) -> bool:
        """Give the display showing `code` to `player`; False if no display shows it."""
        with self._lock:
            target = next((d for d in self._displays.values() if d.code == code), None)
            if target is None:
                return False
            # A new random key for this pairing: from now on the display must prove it holds it.
            dropped = self._handshake.pair(target, player)
            log.info("display %s paired with %s", shown(target.hello.identity), player)
            target.page = 0
            for display in self._displays.values():
                if display is target or display.hello.identity in dropped:
                    self._refresh(display)
        self._notify()
        return True

    def unpair(self, player: str) -> None:
        """Forget `player`'s display; it shows a pairing code again."""
        with self._lock:
            identity = self.pairings.identity_of(player)
            if identity is None:
                return
            self.pairings.unbind(identity)
            for display in self._displays.values():
                if display.hello.identity == identity:
                    self._refresh(display)
        self._notify()

    # -- what the shared screen shows ------------------------------------------------

    def status(self, players: Sequence[str] | None = None) -> list[DisplayStatus]:
        """Each player's display (connected, unplugged or unpaired), then unpaired displays. The players are the
        game's shown (or else everyone paired), or `players`: a game's screen made before its game is shown shows
        what it will show then."""
        with self._lock:
            live = {
                d.hello.identity: d for d in self._displays.values() if d.link.is_open and self._handshake.proven(d)
            }
            if players is None:
                players = _names(self._session) or tuple(sorted(set(self.pairings.as_dict().values())))
            out = []
            for player in players:
                identity = self.pairings.identity_of(player)
                if identity is None:
                    out.append(DisplayStatus(player, DisplayState.UNPAIRED))
                elif identity in live:
                    out.append(DisplayStatus(player, DisplayState.CONNECTED, identity, live[identity].link.port))
                else:
                    out.append(DisplayStatus(player, DisplayState.UNPLUGGED, identity))
            for display in self._displays.values():
                if display.code is not None:
                    hello, port = display.hello, display.link.port
                    unpaired = DisplayState.UNPAIRED
                    out.append(DisplayStatus(None, unpaired, hello.identity, port, display.code, display.claims))
            return out

    def displays(self) -> list[tuple[DisplayLink, str | None]]:
        """Every display that said HELLO, with the player whose view it shows (None: no secret)."""
        with self._lock:
            return [(d.link, d.shown_for) for d in self._displays.values()]

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener()` (through the dispatcher) whenever `status()` or the pending codes change."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def on_key(self, listener: Callable[[str, str], None]) -> Callable[[], None]:
        """Call `listener(player, key)` (through the dispatcher) for keys a paired display sends.

        Keys that a menu on that display takes, or that turn its pages, stay on the display.
        """
        self._key_listeners.append(listener)
        return lambda: self._key_listeners.remove(listener) if listener in self._key_listeners else None

    def _notify(self) -> None:
        """Tell the listeners through the dispatcher: at once, or (beyond a few a second) once at the second's end."""
        now = time.monotonic()
        with self._notify_lock:
            if self._notify_pending:
                return  # a call is on its way already: it will read the newest status
            if now - self._notify_window >= 1.0:
                self._notify_window, self._notify_count = now, 0
            self._notify_pending = True
            self._notify_count += 1
            delay = 0.0 if self._notify_count <= NOTIFY_PER_SECOND else self._notify_window + 1.0 - now
        if delay <= 0:
            self._call_soon(self._tell_listeners)
        else:
            timer = threading.Timer(delay, self._call_soon, (self._tell_listeners,))
            timer.daemon = True
            timer.start()

    def _tell_listeners(self) -> None:
        with self._notify_lock:
            self._notify_pending = False
        for listener in list(self._listeners):
            try:
                listener()
            except Exception:
                log.exception("a display status listener failed")

    # -- from the links (reader and scanner threads) -------------------------------------

    def _hello(self, link: DisplayLink, hello: Hello) -> None:
        now = time.monotonic()
        with self._lock:
            display = self._displays.get(id(link))
            fresh = display is None or display.hello != hello
            if display is None or fresh:
                display = _Display(link, hello, hello_logged_at=now)
                self._displays[id(link)] = display
                self._handshake.challenge(display)
                self._refresh(display)
            else:
                # The same device again: it may have restarted, even in the middle of a frame, so it gets the
                # whole current screen; a flood of HELLOs costs a resend each, one log line a burst, no UI work.
                if display.nonce is not None and now - display.challenged_at >= CHALLENGE_AGAIN_AFTER:
                    self._handshake.challenge(display)  # it may have restarted before answering
                if display.last_frame is not None:
                    display.link.show(display.last_frame)
                display.hellos_unlogged += 1
                if now - display.hello_logged_at < HELLO_LOG_EVERY:
                    return
                repeats, display.hellos_unlogged, display.hello_logged_at = display.hellos_unlogged, 0, now
                log.info(
                    "display %s on %s said HELLO again (%d times since last noted)",
                    shown(hello.identity),
                    shown(link.port, PORT_LIMIT),
                    repeats,
                )
                return
        port = shown(link.port, PORT_LIMIT)
        said = f"display {shown(hello.identity)} ({hello.cols}x{hello.rows}) on {port}"
        self._said.note(f"HELLOs with new identities on {port}", said, port)
        self._notify()

    def _proof(self, link: DisplayLink, answer: bytes) -> None:
        with self._lock:
            display = self._displays.get(id(link))
            if display is None:
                return
            pairing = self._handshake.answer(display, answer)
            if pairing is None:
                return  # not asked, asked again since, or unpaired while the answer was on its way
            identity, port = display.hello.identity, shown(link.port, PORT_LIMIT)
            if display.claims is None:
                log.info("display %s on %s proved it is %s's", shown(identity), port, pairing.player)
            else:
                self._said.note(
                    f"failed proofs on {port}",
                    f"display {shown(identity)} on {port} claims to be {pairing.player}'s but could not prove it",
                    port,
                    logging.WARNING,
                )
            self._refresh(display)
        self._notify()

    def _key(self, link: DisplayLink, key: str) -> None:
        with self._lock:
            display = self._displays.get(id(link))
            if display is None:
                return
            player, session = display.shown_for, self._session
            if player is not None and session is not None and display.in_menu and key in MENU_KEYS:
                # The menu may make an action: that is played on the UI thread, like a tap on the screen.
                self._call_soon(lambda: self._menu_key(session, player, display, key))
                return
            if key in UP or key in DOWN:
                step = -1 if key in UP else 1
                display.page = (display.page + step) % max(display.pages, 1)
                self._refresh(display)
                return
        if player is not None:
            for listener in list(self._key_listeners):
                self._call_soon(partial(listener, player, key))

    def _lost(self, link: DisplayLink, error: BaseException | None) -> None:
        with self._lock:
            display = self._displays.pop(id(link), None)
        if display is not None:
            log.info("display %s unplugged from %s", shown(display.hello.identity), shown(link.port, PORT_LIMIT))
            self._notify()

    # -- menus (on the UI thread) ------------------------------------------------------------

    def _menu_key(self, session: TableSession, player: str, display: _Display, key: str) -> None:
        """A key on `player`'s display while it showed their menu: move the menu, play what it chose."""
        shows = session.game.display
        with self._lock:
            if self._session is not session or shows is None or player not in _names(session):
                return  # the game changed while the key was on its way
            try:
                view = session.own_view(player)  # typed: the game's menu reads its fields
                menu = shows.menu_for(view, self._menus.get(player))
                if menu is None:
                    action = None  # the menu went away before the key arrived: nothing to choose
                else:
                    menu, action = menu.press(view, key, display.hello.cols, display.hello.rows)
                    self._menus[player] = menu
            except Exception:
                log.exception("%s's display menu failed on the key %s", player, shown(repr(key)))
                return
            if action is None:
                self._refresh_player(player)
                return
        self._play(session, player, action)  # redrawn once the game has changed, or with the refusal

    def _play(self, session: TableSession, player: str, action: Any) -> None:
        """Play `action`, chosen on `player`'s own display; a refusal is shown on that display only.

        A display acts for its own player only: an action naming anyone else
        is refused before the rules see it.
        """
        if _player_of(action) != player:
            log.warning("%s's display made an action for %s; refused", player, shown(repr(_player_of(action))))
            self._refuse(player, f"This display is {player}'s: it can only make {player}'s choices.")
            return
        try:
            session.act(action)  # the session tells its observers, this hub among them
        except Refusal as refusal:
            self._refuse(player, str(refusal))

    def _refuse(self, player: str, sentence: str) -> None:
        with self._lock:
            menu = self._menus.get(player)
            if menu is not None:
                self._menus[player] = menu.refused(sentence)
                self._refresh_player(player)

    # -- drawing ------------------------------------------------------------------------

    def _refresh_all(self) -> None:
        for display in list(self._displays.values()):
            self._refresh(display)

    def _refresh_player(self, player: str) -> None:
        for display in list(self._displays.values()):
            if display.shown_for == player:
                self._refresh(display)

    def _refresh(self, display: _Display) -> None:
        """Send `display` what it may show now (nothing if it shows that already). Lock held."""
        frame = self._frame_for(display)
        if frame != display.last_frame:
            display.last_frame = frame
            display.link.show(frame)

    def _frame_for(self, display: _Display) -> bytes:
        hello = display.hello
        display.in_menu = False
        player = self._handshake.player_of(display)
        session = self._session
        if player is None and display.nonce is not None:
            # It says it is a paired display and has not answered yet: nothing private, no code either.
            display.shown_for = None
            return protocol.encode_frame(protocol.SCREEN, protocol.pack_screen(checking(hello.cols, hello.rows)))
        if player is not None and (session is None or player in _names(session)):
            display.code = None
            if session is None:
                display.shown_for = None
                lines = neutral(hello.cols, hello.rows, f"{player}'s display", "Waiting for a game.")
                return protocol.encode_frame(protocol.SCREEN, protocol.pack_screen(lines))
            try:
                shown, display.in_menu = self._screens(session, player, hello.cols, hello.rows)
            except Exception:
                log.exception("could not show %s's view", player)
                shown = [neutral(hello.cols, hello.rows, f"{player}'s display", "Cannot show this view.")]
            display.pages = len(shown)
            display.page = min(display.page, len(shown) - 1)
            display.shown_for = player
            return protocol.encode_frame(protocol.SCREEN, _payload(shown[display.page]))
        # Nobody's (in this game): a pairing code, nothing else.
        display.shown_for = None
        display.page = 0
        if display.code is None:
            display.code = self._handshake.new_code({d.code for d in self._displays.values()})
        return protocol.encode_frame(protocol.PAIR_CODE, protocol.pack_text(display.code))

    def _screens(self, session: TableSession, player: str, cols: int, rows: int) -> tuple[list[Page], bool]:
        """What `player`'s display shows: their menu (one screen, True), or their view's pages (False)."""
        view = session.own_view(player)
        shows = session.game.display
        menu = shows.menu_for(view, self._menus.get(player)) if shows is not None else None
        if menu is None:
            return pages_for(view, cols, rows, shows), False
        return [menu.lines(view, cols, rows)], True


def checking(cols: int, rows: int) -> Page:
    """What a display that says it is a paired one shows until it has proved it."""
    return neutral(cols, rows, "Display", "Checking it is paired...")


def _names(session: TableSession | None) -> tuple[str, ...]:
    return tuple(session.options.names) if session is not None else ()


def _player_of(action: Any) -> object:
    """The player an action is for: its ``player`` field (typed or JSON), or None."""
    return action.get("player") if isinstance(action, Mapping) else getattr(action, "player", None)


def _payload(lines: Sequence[str]) -> bytes:
    lines = list(lines)
    payload = protocol.pack_screen(lines)
    while len(payload) > protocol.MAX_PAYLOAD and lines:
        lines = lines[:-1]  # a screen too big for one frame loses its last rows, never the frame
        payload = protocol.pack_screen(lines)
    return payload
