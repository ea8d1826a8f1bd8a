"""Which display belongs to whom, and showing each player their own secrets only.

The hub keeps a `PortScanner` on the configured ports. When a display says
HELLO, its device identity (never its port) decides what it gets:

- an identity paired with a player of the game in progress gets that
  player's `private_view`, rendered for its screen size;
- any other display gets a pairing code (and the shared screen asks whose
  display shows it), or a neutral screen: never anything secret.

Pairings live in a small JSON file. The hub observes the session, so every
change reaches every display at once, and a display that comes back (on any
port) is sent its view as soon as it says HELLO. Unplugging one blocks
nothing: `status()` tells the shared screen, and the game goes on.

Once the app listens with `on_action`, a display shows its player's Quin
setup menu (`quin_setup`) instead of the paged view while that player's
private setup is unfinished: its keys move the menu, a confirmed choice
reaches the listeners as ``(player, action)``, and the app plays it and hands
a refusal back with `show_refusal`.

Threads (the readers, the scanner) reach the UI only through the `call_soon`
dispatcher given to the hub; its listeners are called through it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import tempfile
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from companion.dispatch import Dispatcher
from hardware.display import protocol, quin_setup
from hardware.display.link import BAUDRATE, DisplayLink, Hello, PortScanner
from hardware.display.render import neutral, render_view

log = logging.getLogger(__name__)

Renderer = Callable[[Mapping[str, Any] | None, int, int], list[list[str]]]

PREVIOUS_PAGE = frozenset({"up", "prev", "left"})
NEXT_PAGE = frozenset({"down", "next", "right"})


def call_now(fn: Callable[[], None]) -> None:
    """The synchronous dispatcher, for tests and scripts: call right away."""
    fn()


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


class Pairings:
    """Device identity → player name, kept in a JSON file whose path is given."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._players: dict[str, str] = {}
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            displays = data["displays"]
            if not isinstance(displays, dict):
                raise TypeError("displays is not an object")
            self._players = {str(k): str(v) for k, v in displays.items()}
        except FileNotFoundError:
            self._players = {}
        except (OSError, ValueError, KeyError, TypeError) as error:
            log.warning("display pairings in %s cannot be read (%s); starting with none", self.path, error)
            self._players = {}

    def player_of(self, identity: str) -> str | None:
        return self._players.get(identity)

    def identity_of(self, player: str) -> str | None:
        return next((i for i, p in self._players.items() if p == player), None)

    def bind(self, identity: str, player: str) -> list[str]:
        """Pair `identity` with `player` (a player has one display); returns the identities unbound."""
        dropped = [i for i, p in self._players.items() if p == player and i != identity]
        for old in dropped:
            del self._players[old]
        self._players[identity] = player
        self._save()
        return dropped

    def unbind(self, identity: str) -> None:
        if self._players.pop(identity, None) is not None:
            self._save()

    def as_dict(self) -> dict[str, str]:
        return dict(self._players)

    def _save(self) -> None:
        # Write a new file and rename it over the old one: a pulled plug leaves one or the other.
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps({"version": 1, "displays": self._players}, indent=2, sort_keys=True)
        fd, tmp = tempfile.mkstemp(prefix=".pairings-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


@dataclass(eq=False)
class _Display:
    link: DisplayLink
    hello: Hello
    code: str | None = None
    page: int = 0
    last_frame: bytes | None = None
    pages: int = 1
    shown_for: str | None = field(default=None)  # the player whose view it shows, if any
    menu_view: Mapping[str, Any] | None = None  # the view its setup menu shows, while it shows one


class DisplayHub:
    """Binds displays to players and keeps each one showing what its player may see."""

    def __init__(
        self,
        pairings_path: str | os.PathLike[str],
        *,
        call_soon: Dispatcher = call_now,
        ports: Iterable[str] = (),
        scan_interval: float = 0.2,
        baudrate: int = BAUDRATE,
        render: Renderer = render_view,
        rng: random.Random | None = None,
    ) -> None:
        self.pairings = Pairings(pairings_path)
        self._call_soon = call_soon
        self._render = render
        self._rng = rng or random.SystemRandom()
        self._lock = threading.RLock()
        self._displays: dict[int, _Display] = {}  # by id(link)
        self._source: tuple[Any, Any, tuple[str, ...]] | None = None  # rules, state, players
        self._unsubscribe: Callable[[], None] | None = None
        self._listeners: list[Callable[[], None]] = []
        self._key_listeners: list[Callable[[str, str], None]] = []
        self._action_listeners: list[Callable[[str, Mapping[str, Any]], None]] = []
        self._menus: dict[str, quin_setup.SetupMenu] = {}  # by player
        self.scanner = PortScanner(
            ports, on_hello=self._hello, on_key=self._key, on_lost=self._lost, interval=scan_interval, baudrate=baudrate
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

    def attach(self, session: Any) -> None:
        """Show `session`'s private views from now on (any object with `subscribe`, `rules`, `state`, `options`)."""
        self.detach()
        self._on_session(session)
        self._unsubscribe = session.subscribe(self._on_session)

    def detach(self) -> None:
        """No game any more: every display goes back to a neutral screen."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._lock:
            self._source = None
            self._menus.clear()
            self._refresh_all()
        self._notify()

    def _on_session(self, session: Any) -> None:
        # Runs in the thread that changed the session (the UI's); never raises into it.
        try:
            with self._lock:
                self._source = (session.rules, session.state, tuple(session.options.names))
                self._refresh_all()
        except Exception:
            log.exception("could not update the player displays")

    @property
    def players(self) -> tuple[str, ...]:
        with self._lock:
            return self._source[2] if self._source else ()

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
            dropped = self.pairings.bind(target.hello.identity, player)
            log.info("display %s paired with %s", target.hello.identity, player)
            target.code = None
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

    def status(self) -> list[DisplayStatus]:
        """Each player's display (connected, unplugged or unpaired), then unpaired displays."""
        with self._lock:
            live = {d.hello.identity: d for d in self._displays.values() if d.link.is_open}
            players = self._source[2] if self._source else tuple(sorted(set(self.pairings.as_dict().values())))
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
                    out.append(DisplayStatus(None, DisplayState.UNPAIRED, hello.identity, port, display.code))
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
        """Call `listener(player, key)` (through the dispatcher) for keys a paired display sends."""
        self._key_listeners.append(listener)
        return lambda: self._key_listeners.remove(listener) if listener in self._key_listeners else None

    def on_action(self, listener: Callable[[str, Mapping[str, Any]], None]) -> Callable[[], None]:
        """Call `listener(player, action)` (through the dispatcher) for a choice made on `player`'s own display.

        While someone listens, displays offer Quin's setup menu (without a
        listener its choices would go nowhere, so they show the plain pages).
        """

        def listen(on: bool) -> None:
            with self._lock:
                if on:
                    self._action_listeners.append(listener)
                elif listener in self._action_listeners:
                    self._action_listeners.remove(listener)
                self._refresh_all()

        listen(True)
        return lambda: listen(False)

    def show_refusal(self, player: str, sentence: str) -> None:
        """Show the rules' `sentence` on `player`'s display only, until they press ok or back."""
        with self._lock:
            if player not in self.players:
                return
            self._menus[player] = self._menus.get(player, quin_setup.SetupMenu()).refused(sentence)
            for display in self._displays.values():
                if display.shown_for == player:
                    self._refresh(display)

    def _notify(self) -> None:
        for listener in list(self._listeners):
            self._call_soon(listener)

    # -- from the links (reader and scanner threads) -------------------------------------

    def _hello(self, link: DisplayLink, hello: Hello) -> None:
        with self._lock:
            display = self._displays.get(id(link))
            if display is None or display.hello != hello:
                display = _Display(link, hello)
                self._displays[id(link)] = display
            display.last_frame = None  # it may have restarted: draw again
            self._refresh(display)
        log.info("display %s (%dx%d) on %s", hello.identity, hello.cols, hello.rows, link.port)
        self._notify()

    def _key(self, link: DisplayLink, key: str) -> None:
        with self._lock:
            display = self._displays.get(id(link))
            if display is None:
                return
            player = display.shown_for
            if player is not None and display.menu_view is not None and key in quin_setup.MENU_KEYS:
                self._menu_key(display, player, key)
                return
            if key in PREVIOUS_PAGE or key in NEXT_PAGE:
                step = -1 if key in PREVIOUS_PAGE else 1
                display.page = (display.page + step) % max(display.pages, 1)
                self._refresh(display)
                return
        if player is not None:
            for listener in list(self._key_listeners):
                self._call_soon(lambda listener=listener: listener(player, key))

    def _menu_key(self, display: _Display, player: str, key: str) -> None:
        """A key on a display showing its player's setup menu. Lock held."""
        assert display.menu_view is not None
        menu = self._menus.get(player, quin_setup.SetupMenu())
        menu, action = menu.press(display.menu_view, key, display.hello.cols, display.hello.rows)
        self._menus[player] = menu
        if action is not None and action.get("player") != player:
            log.error("%s's display made an action for %r; dropped", player, action.get("player"))
        elif action is not None:
            # Queued before the redraw, so whoever sees the new screen finds the action already on its way.
            for listener in list(self._action_listeners):
                self._call_soon(lambda listener=listener: listener(player, action))
        self._refresh(display)

    def _lost(self, link: DisplayLink, error: BaseException | None) -> None:
        with self._lock:
            display = self._displays.pop(id(link), None)
        if display is not None:
            log.info("display %s unplugged from %s", display.hello.identity, link.port)
            self._notify()

    # -- drawing ------------------------------------------------------------------------

    def _refresh_all(self) -> None:
        for display in list(self._displays.values()):
            self._refresh(display)

    def _refresh(self, display: _Display) -> None:
        """Send `display` what it may show now (nothing if it shows that already). Lock held."""
        frame = self._frame_for(display)
        if frame != display.last_frame:
            display.last_frame = frame
            display.link.show(frame)

    def _frame_for(self, display: _Display) -> bytes:
        hello = display.hello
        display.menu_view = None
        player = self.pairings.player_of(hello.identity)
        source = self._source
        if player is not None and (source is None or player in source[2]):
            display.code = None
            if source is None:
                display.shown_for = None
                lines = neutral(hello.cols, hello.rows, f"{player}'s display", "Waiting for a game.")
                return protocol.encode_frame(protocol.SCREEN, protocol.pack_screen(lines))
            rules, state, _players = source
            try:
                view = rules.private_view(state, player)
                menu = self._menus.get(player)
                if quin_setup.shows_menu(view, menu, setup=bool(self._action_listeners)):
                    pages = [(menu or quin_setup.SetupMenu()).lines(view, hello.cols, hello.rows)]
                    display.menu_view = view
                else:
                    pages = self._render(view, hello.cols, hello.rows)
            except Exception:
                log.exception("could not render %s's view", player)
                display.menu_view = None
                pages = [neutral(hello.cols, hello.rows, f"{player}'s display", "Cannot show this view.")]
            display.pages = len(pages)
            display.page = min(display.page, len(pages) - 1)
            display.shown_for = player
            return protocol.encode_frame(protocol.SCREEN, _payload(pages[display.page]))
        # Nobody's (in this game): a pairing code, nothing else.
        display.shown_for = None
        display.page = 0
        if display.code is None:
            display.code = self._new_code()
        return protocol.encode_frame(protocol.PAIR_CODE, protocol.pack_text(display.code))

    def _new_code(self) -> str:
        taken = {d.code for d in self._displays.values()}
        while True:
            code = "".join(str(self._rng.randint(1, 9)) for _ in range(3))
            if code not in taken:
                return code


def _payload(lines: list[str]) -> bytes:
    payload = protocol.pack_screen(lines)
    while len(payload) > protocol.MAX_PAYLOAD and lines:
        lines = lines[:-1]  # a screen too big for one frame loses its last rows, never the frame
        payload = protocol.pack_screen(lines)
    return payload
