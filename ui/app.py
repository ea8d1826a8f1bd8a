"""The Kivy application: a ScreenManager with the home screen and one screen per game.

The app is thin on purpose: it switches screens and starts or resumes
sessions. Rules live in `companion`, devices in `hardware`; everything it
works with arrives in a `Table`.

Start-up loads only what home draws (issue 26): the sessions, the game
screens and their rules files, the phones' switch are imported when first
needed. After the first frame, with `warm_up`, what a tap will need is loaded
in the background, a few milliseconds a frame (`ui.screens.warm_ups`), so the
first tap on a game finds its screen ready and a tap is never held up for long.
With `rest`, Kivy's loop rests between frames while nobody touches the screen
(`ui.resting`). `companion run` asks for both; most tests for neither.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.uix.screenmanager import ScreenManager

from companion.game import Options, Player, Refusal
from companion.store import Store
from ui import quiet_gc, resting, systemd_notify
from ui.kept_screens import KeptScreens
from ui.kv import THEME_KV, load_kv
from ui.screens.home import HomeScreen
from ui.table import Table
from ui.widgets.switch import Instant

if TYPE_CHECKING:  # each loaded when first needed: not on the way to home's first frame
    from companion.session import AnySession
    from ui.phone_switch import PhoneSwitch
    from ui.screens.base import GameScreen

log = logging.getLogger(__name__)

WARM_SLICE = 0.008
"""Seconds of loading ahead a frame at most (one piece may take longer: a module is loaded whole)."""


class CompanionApp(App):
    """Tabletop Companion. Build it with a `Table`; `run()` it, or drive it in tests."""

    title = "Tabletop Companion"

    def __init__(
        self,
        table: Table,
        *,
        on_first_frame: Callable[[], None] | None = None,
        start_hardware: Callable[[Table], list[str]] | None = None,
        load_hardware: Callable[[Table], None] | None = None,
        resume_on_start: bool = False,
        warm_up: bool = False,
        rest: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.table = table
        self.resume_on_start = resume_on_start
        self.session: AnySession | None = None
        self._on_first_frame = on_first_frame
        self._start_hardware = start_hardware
        self._load_hardware = load_hardware
        self._stopped = False
        self._warm_up = warm_up
        self.warming: Iterator[Callable[[], object]] | None = None
        """What is still to be loaded in the background after the first frame (None: nothing, or done)."""
        self.kept = KeptScreens(self)
        """The screens of unfinished games and new ones while home shows, for Resume and Start (`ui.kept_screens`)."""
        self._rest = rest
        """Whether Kivy's loop rests between frames while nobody touches the screen (`ui.resting`): in the app
        `companion run` makes; the tests' frames keep Kivy's pace."""
        self.making_ahead = warm_up
        """Whether home makes game screens ahead (`KeptScreens.home_shows`): with the loading ahead, in the
        appliance; most tests make each screen on its tap."""

    # -- Kivy's hooks ------------------------------------------------------------

    def load_kv(self, filename: str | None = None) -> bool:
        """Kivy would look for a kv file named after the class; ours are loaded explicitly."""
        return False

    def build(self) -> ScreenManager:
        load_kv(THEME_KV)  # each screen and widget loads its own rules when first made
        self.screens = ScreenManager(transition=Instant())  # the screen going out leaves in the tap's frame
        # Kivy clips the screens with a stencil for its sliding transitions; ours never slide, and that stencil
        # cost every clock tick two more passes over the whole window (issue 26: idle).
        self.screens.canvas.before.clear()
        self.screens.canvas.after.clear()
        self.home = self._home_screen()
        self.home.notice = " ".join(self.table.notices)
        self.screens.add_widget(self.home)
        return self.screens

    def _home_screen(self) -> HomeScreen:
        """The home screen; it reads the games file (the past games, the unfinished ones, the wins).

        If that raises, the table still gets a home screen, on a store in memory, and a sentence (issue 22:
        never a crash loop); the games file is left as it is.
        """
        try:
            return HomeScreen(self)
        except Exception:
            log.exception("the home screen could not read the games file")
            sentence = "The games file could not be read (the log says more); games are played but not saved."
            self.table.store = Store.in_memory(problem=sentence)
            self.table.notices.append(sentence)
            return HomeScreen(self)

    def on_start(self) -> None:
        if self.resume_on_start:
            try:
                self.start_where_left()
            except Exception:  # resume_game catches its own; this is the store asked which game was left
                log.exception("looking for the unfinished game failed")
                self.home.notice = "The unfinished games could not be looked up (the log says more)."
        Clock.schedule_once(self._first_frame_drawn, 0)
        quiet_gc.start()  # Python's full collections wait for a quiet moment, not in a tap (issue 26)
        if self._rest:
            resting.start()  # the loop rests between frames while nobody touches the screen (issue 26: idle)
        interval = systemd_notify.watchdog_interval()
        if interval:
            Clock.schedule_interval(lambda _dt: systemd_notify.notify("WATCHDOG=1"), interval)

    def _first_frame_drawn(self, _dt: float) -> None:
        if self.home.notice:  # the journal says what the screen said, for an appliance nobody watched start
            log.info("The home screen says: %s", self.home.notice)
        systemd_notify.notify("READY=1")
        if self._on_first_frame:
            self._on_first_frame()
        if self._start_hardware and not self._load_hardware:
            Clock.schedule_once(lambda _dt: self._hardware(), 0)
        if self._warm_up:
            from ui.screens import warm_ups

            self.warming = warm_ups()
            Clock.schedule_once(self._warm_next, 0)
        else:
            self._load_hardware_ahead()

    def _load_hardware_ahead(self) -> None:
        """The hardware's modules, loaded on a thread of their own, once start-up's loading ahead is done.

        On a thread of their own they still take the interpreter from the UI thread in turns (Python runs one
        thread at a time): loaded from the first frame on, they made a tap on that frame 50 ms slower, the time
        of a tap on a settled screen (issue 26). The loading ahead is over 0.4 s after the first frame here, and
        the devices open a moment after that."""
        if self._start_hardware and self._load_hardware:
            self._hardware_after_loading(self._load_hardware)

    def _warm_next(self, _dt: float) -> None:
        """Pieces of what a tap will need (a module, a rules file) for `WARM_SLICE` seconds at most (a piece
        is never cut), then the rest from the next frame on: a touch waits for one slice at most, one begun before
        it; none begins until a frame has shown its answer."""
        if not quiet_gc.answered():  # a touch's answer is being made: it gets the frame, and the loading waits
            Clock.schedule_once(self._warm_next, 0)
            return
        started = time.perf_counter()
        while self.warming is not None and time.perf_counter() - started < WARM_SLICE:
            piece = next(self.warming, None)
            if piece is None:
                self.warming = None
                log.debug("start-up's loading ahead is done")
                self._load_hardware_ahead()
                if self.session is None:
                    self._keep_for_home()
                return
            try:
                piece()
            except Exception:  # a piece that fails now fails again, and is said, when a tap needs it
                log.exception("loading ahead of a tap failed")
        if self.warming is not None:
            Clock.schedule_once(self._warm_next, 0)

    def _hardware_after_loading(self, load: Callable[[Table], None]) -> None:
        """The hardware's modules load on a thread of their own (gpiozero, the display hub, the phones' server
        if wanted: 0.1–0.4 s), so a tap on the first frame does not wait behind them; the devices open on the
        UI thread once they have, as they did before."""

        def loading() -> None:
            try:
                load(self.table)
            except Exception:  # opening imports them again, on the UI thread, and says what failed
                log.debug("the hardware's modules did not load ahead", exc_info=True)
            self.table.dispatch(self._hardware)

        threading.Thread(target=loading, name="hardware-load", daemon=True).start()

    def _hardware(self) -> None:
        if self._stopped:  # the app stopped while the modules loaded: nothing to open them for
            return
        try:
            notices = self._start_hardware(self.table) if self._start_hardware else []
        except Exception as error:  # a file or a device nothing foresaw: the table plays by hand, and is told
            log.exception("starting the hardware failed")
            notices = [f"The hardware could not be started ({type(error).__name__}; the log says more)."]
        self.table.notices.extend(notices)
        self.home.notice = " ".join(self.table.notices)
        if notices:
            log.info("The home screen says: %s", self.home.notice)
        if self.table.displays is not None and self.session is not None:
            # Each player's display shows their own view, and plays their choices made on it (a game's menu).
            self.table.displays.attach(self.session)
        if self.session is not None:
            self._phones_follow(self.session)
            self._game_screens_hardware_opened()

    def _game_screens_hardware_opened(self) -> None:
        """A game resumed at start-up came on screen before the hardware opened: it takes the table's own now."""
        base = sys.modules.get("ui.screens.base")
        if base is None:
            return  # no game screen was ever made
        for screen in self.screens.screens:
            if isinstance(screen, base.GameScreen):
                screen.hardware_opened()

    def on_stop(self) -> None:
        self._stopped = True
        if self.session is not None:
            self.session.pause_clock()
        for device in (self.table.displays, self.table.race):
            if device is not None:
                device.close()
        self.warming = None
        if self.table.phone_switch is not None or self.table.phones is not None:  # else no phones were ever on
            self._phones().stop()
        systemd_notify.notify("STOPPING=1")

    def reset(self, table: Table) -> None:
        """Start over with another table: a fresh home screen, no game (tests use this)."""
        self.screens.current = "home"
        self._drop_game_screen()
        self.kept.drop_all()
        self.screens.remove_widget(self.home)
        self.table = table
        self.session = None
        self.home = self._home_screen()
        self.home.notice = " ".join(table.notices)
        self.screens.add_widget(self.home)
        self.screens.current = "home"
        self._keep_for_home()

    # -- moving between screens ------------------------------------------------------

    def last_players(self) -> tuple[Player, ...]:
        """The most recent table's players, so nobody types their name twice."""
        store = self.table.store
        record = store.unfinished() or next(iter(store.finished(limit=1)), None)
        return Options.from_json(record.options).players if record else ()

    def start_game(self, game: str, options: Options) -> GameScreen:
        """Start a new game (raises `SetupError` for options it cannot take, `NotSaved` if it cannot be written):
        on the screen made ahead for it, if there is one for these options."""
        options = self._with_config(game, options)
        from companion.session import Session

        if self.session is not None and self.session.outcome is None:
            self.session.pause_clock()
        made = self.kept.take_new(game, options)
        if made is None:
            session = Session.start(self.table.store, game, options, dice=self.table.dice, clock=self.table.clock)
            return self.show(session)
        try:
            made.session.begin()
        except Exception:
            made.close()  # home makes it again; the table hears why the game did not start
            raise
        return self.show(made.session, made)

    def _with_config(self, game: str, options: Options) -> Options:
        """`options` with the config file's settings for `game` under the table's own choices (the variant)."""
        return Options(options.players, {**self.table.config.settings_for(game), **options.settings})

    def start_where_left(self) -> GameScreen | None:
        """After a restart (power cut, watchdog) the appliance goes straight back into the game."""
        return self.resume_game() if self.table.store.unfinished() else None

    def resume_game(self, game_id: int | None = None) -> GameScreen | None:
        """Open unfinished game `game_id` (the most recent one if None), exactly where it was left.

        Whatever goes wrong here must not stop the app (under systemd that would be a restart loop with
        no screen): the table gets the home screen and one sentence, and the game stays in the file.
        """
        store, dice, clock = self.table.store, self.table.dice, self.table.clock
        try:
            from companion.session import Session

            if game_id is None:
                newest = store.unfinished()
                if newest is None:
                    return None
                game_id = newest.id
            kept = self.kept.take(game_id)
            if kept is not None:  # as it was left, or made ahead while home showed
                return self.show(kept.session, kept)
            return self.show(Session.load(store, game_id, dice=dice, clock=clock))
        except Exception as error:
            log.exception("Resuming the unfinished game failed")
            self.screens.current = "home"
            self.session = None
            # The shared screen names only causes that carry no game state (an unknown game, the disk):
            # a replay error could quote a hidden identity.
            plain = isinstance(error, LookupError | OSError) and not isinstance(error, KeyError)
            reason = str(error) if plain else "its saved moves did not replay; the log says more"
            self.home.notice = f"The unfinished game could not be resumed ({reason}); it is kept in the games file."
            return None

    def discard(self, game_id: int) -> None:
        """End unfinished game `game_id` without a result (the home screen has asked first); the others stay."""
        self.kept.drop(game_id)
        try:
            self.table.store.abandon(game_id, self.table.clock())
        except Refusal as refusal:
            self.home.notice = str(refusal)

    def take_back(self, game_id: int) -> str | None:
        """Game `game_id`, ended without a result, back among the unfinished games; None, or why it is not."""
        try:
            self.table.store.take_back(game_id)
        except Refusal as refusal:
            return str(refusal)
        return None

    def show(self, session: AnySession, screen: GameScreen | None = None) -> GameScreen:
        """Show `session`'s game on `screen` (its own kept screen), or on a new one."""
        self.screens.current = "home"  # so that any earlier game screen can go, even one of the same game
        self._drop_game_screen()
        self.kept.stop()  # nothing more is made ahead while a game is played
        self.session = session
        session.resume_clock()  # a kept screen hears it, and shows its clock running before the next frame
        if self.table.displays is not None:
            self.table.displays.attach(session)  # each player display shows its own player's view
        self._phones_follow(session)
        if screen is None:
            screen = self._new_screen(session)
        else:
            screen.taken_back()
        self.screens.add_widget(screen)
        self.screens.current = screen.name
        return screen

    def go_home(self) -> None:
        # A game left half-way waits on home's Unfinished page, at the top with Resume; after a finished one, or
        # one ended without a result (which that page no longer offers), home opens on the new games.
        left_unfinished = self.session is not None and self.session.unfinished
        self.home.show_tab("unfinished" if left_unfinished else "games")
        self.screens.current = "home"
        self._drop_game_screen()
        self.session = None
        if self.table.displays is not None:
            self.table.displays.detach()
        if self.table.phones is not None:
            self.table.phones.detach()
        self.home.refresh()
        self._keep_for_home()

    def _keep_for_home(self) -> None:
        """Home shows: the screens of the unfinished games it lists are kept (and made ahead) for Resume."""
        self.kept.home_shows(self.home.unfinished_ids, make_ahead=self.making_ahead)

    def _new_screen(self, session: AnySession) -> GameScreen:
        from ui.screens import screen_class

        return screen_class(session.game.name)(session, self.table, on_home=self.go_home)

    # -- screens made ahead (`KeptScreens`) ---------------------------------------------

    def screen_made_ahead(self, game_id: int) -> GameScreen | None:
        """Game `game_id`'s screen, made as Resume would make it (its clock still paused), at the window's size."""
        from companion.session import Session

        table = self.table
        return self._aside(Session.load(table.store, game_id, dice=table.dice, clock=table.clock, running=False))

    def new_game_made_ahead(self, game: str, options: Options) -> GameScreen | None:
        """A new game's screen, made as its Start would make it, but with its session not written (None: the
        options do not seat this game)."""
        from companion.game import SetupError
        from companion.session import Session

        table = self.table
        try:
            session = Session.ahead(table.store, game, options, dice=table.dice, clock=table.clock)
        except SetupError:
            return None  # its Start says why, on the tap
        return self._aside(session)

    def new_games(self) -> list[tuple[str, Options]]:
        return [(game, self._with_config(game, options)) for game, options in self.home.new_games()]

    def choices_changed(self) -> None:
        """Home's seats or a game's variant changed: the new games' screens made ahead follow."""
        self.kept.choices_changed()

    def _aside(self, session: AnySession) -> GameScreen | None:
        """`session`'s screen at the window's size, off it; None for a screen that cannot be kept off it."""
        from ui.screens import screen_class

        if not screen_class(session.game.name).kept_off_screen:
            return None  # the turn clock: its screen takes the table's buttons
        screen = self._new_screen(session)
        screen.size = self.screens.size
        return screen

    def _phones_follow(self, session: AnySession) -> None:
        if self.table.phones is not None:  # phones off: nothing to follow (and their switch not loaded for it)
            self._phones().follow(session)

    def choose_phones(self, listen: str | None) -> None:
        """Settings: phones off (None) or on at `listen` (a network's name or an address); a problem is a notice."""
        notices = self._phones().choose(listen, self.session)
        self.home.notice = " ".join(notices)

    def _phones(self) -> PhoneSwitch:
        from ui.phone_switch import switch_of

        return switch_of(self.table)

    def _drop_game_screen(self) -> None:
        base = sys.modules.get("ui.screens.base")
        if base is None:
            return  # no game screen was ever made
        for screen in list(self.screens.screens):
            if isinstance(screen, base.GameScreen) and screen.name != self.screens.current:
                self.screens.remove_widget(screen)
                session = self.session
                if session is not None and screen.session is session and session.unfinished:
                    self.kept.keep(screen)  # left unfinished: Resume shows it again as it was
                else:
                    screen.close()
