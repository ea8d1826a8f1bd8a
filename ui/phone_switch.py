"""Turning the phones on and off: at start (Settings' choice, else the config file) and from Settings.

The config file says where and how the server listens (`[phones]`); Settings
on the home screen can turn the phones on or off and choose the network, and
that choice is kept (`companion.choices`) and wins over the config file's
``enabled`` and ``interface``. A network chosen by name ("wlan0") that has no
address yet (the Pi starts before its Wi-Fi joins) is looked at again every
few seconds, and the phones start when it has one. Every problem is one
sentence; the app goes on without phones.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

from kivy.clock import Clock

from companion.choices import PhonesChoice, TableChoices
from companion.config import Config
from companion.dispatch import Dispatcher

if TYPE_CHECKING:
    from companion.session import AnySession
    from ui.phones import PhoneTable

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
"""How often a chosen network without an address is looked at again (only while waiting for it)."""


class PhonesTable(Protocol):
    """What the phones need of the table (`ui.table.Table`, which keeps its switch: named here, not imported)."""

    choices: TableChoices | None
    phones: PhoneTable | None
    phone_switch: PhoneSwitch | None

    @property
    def config(self) -> Config: ...
    @property
    def dispatch(self) -> Dispatcher: ...


class PhoneSwitch:
    """The phones of one `Table`: what is wanted, and the server when it runs (``table.phones``)."""

    def __init__(self, table: PhonesTable) -> None:
        self.table = table
        self.note = ""  # why the phones are not on as wanted ("" when they are, or are off)
        self.url: str | None = None  # where the server answers while it runs ("http://192.168.1.20:8470")
        self._codes: Any = None  # the seat codes kept over a restart (`hardware.phones.codes.SeatCodes`), one a run
        self._retry: Any = None

    @property
    def wanted(self) -> PhonesChoice:
        """Settings' choice if one was made, else the config file's `[phones]`."""
        chosen = self.table.choices.phones if self.table.choices is not None else None
        if chosen is not None:
            return chosen
        config = self.table.config.phones
        return PhonesChoice(config.enabled, config.interface if config.enabled else "")

    def start(self) -> list[str]:
        """Start as wanted (stopping what runs first); the sentences the table should read (none: all well)."""
        self.stop()
        wanted = self.wanted
        if not wanted.on:
            return []
        from hardware.phones.networks import address_of, networks

        address = address_of(wanted.listen)
        if address is None:
            self.note = f"Phones wait for {wanted.listen} to join a network; they start when it has an address."
            self._retry = Clock.schedule_interval(lambda _dt: self._try_again(), RETRY_SECONDS)
            return [self.note]
        config = wanted.applied_to(self.table.config.phones, address)
        from companion import paths
        from hardware.phones.codes import SeatCodes
        from hardware.phones.server import PhoneServer
        from ui.phones import PhoneTable

        if self._codes is None:  # one a run: codes kept only in memory (the file not ours) outlive a restart here
            self._codes = SeatCodes(paths.phone_codes_path())
        link = PhoneTable(codes=self._codes)
        try:
            link.server = PhoneServer(
                host=config.interface,
                port=config.port,
                render=link.render,
                act=link.act,
                call_soon=self.table.dispatch,
                tls=config.tls,
                on_news=_tell_the_table,
                on_codes=link.codes_changed,
            ).start()
        except Exception as error:  # a port in use, an address this machine does not have, a bad certificate
            self.note = f"Phones could not start on {config.interface}:{config.port} ({error})."
            return [self.note]
        self.table.phones = link
        host, port = link.server.address
        if host == "0.0.0.0":  # every network: name the one a phone most likely shares with the table
            host = next((n.address for n in networks() if not n.loopback), "127.0.0.1")
        self.url = f"{'https' if config.tls else 'http'}://{host}:{port}"
        return [self._codes.problem] if self._codes.problem else []  # a codes file that is not ours (issue 22)

    def stop(self, *, turned_off: bool = False) -> None:
        """No phones any more: every connected page is told (to keep trying, unless `turned_off` in
        Settings), and waiting for a network ends."""
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        self.note, self.url = "", None
        if self.table.phones is not None:
            self.table.phones.close(turned_off=turned_off)
            self.table.phones = None

    def choose(self, listen: str | None, session: AnySession | None = None) -> list[str]:
        """Settings: phones off (`listen` None) or on at `listen`, kept for the next start; then start as chosen
        and follow `session`, the game in play if any. The sentences the table should read."""
        choice = PhonesChoice(listen is not None, listen or "")
        if self.table.choices is None:
            from companion import paths

            self.table.choices = TableChoices.load(paths.table_choices_path())
        kept = self.table.choices.choose_phones(choice)
        self.stop(turned_off=True)  # a page left on a network no longer served stops trying; a new one is scanned
        notices = self.start()
        if session is not None:
            self.follow(session)
        return [*notices, *([kept] if kept else [])]

    def follow(self, session: AnySession) -> None:
        """Phones show the game in play, if it has private views (a game without them has nothing to send)."""
        if self.table.phones is not None and session.game.display is not None:
            self.table.phones.attach(session)

    def _try_again(self) -> None:
        from hardware.phones.networks import address_of

        if address_of(self.wanted.listen) is None:
            return
        self.start()
        from kivy.app import App

        session = getattr(App.get_running_app(), "session", None)
        if session is not None:
            self.follow(session)


def switch_of(table: PhonesTable) -> PhoneSwitch:
    """The table's phone switch (made on first use: a table built by a test has none yet)."""
    if table.phone_switch is None:
        table.phone_switch = PhoneSwitch(table)
    switch: PhoneSwitch = table.phone_switch
    return switch


def start_phones(table: PhonesTable) -> list[str]:
    """Phones on at start, if Settings or the config file want them; a notice if they cannot start."""
    return switch_of(table).start()


def _tell_the_table(sentence: str) -> None:
    """News from the phones ("A second phone tried Ann's page") on the shared screen, if a game screen shows."""
    from kivy.app import App

    app = App.get_running_app()
    screen = getattr(getattr(app, "screens", None), "current_screen", None)
    say = getattr(screen, "say", None)
    if say is not None:
        say(sentence, error=True)
