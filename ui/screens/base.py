"""What every game screen shares: the top bar, the banner, undo/redo, the menu.

A game's screen subclasses `GameScreen`, builds its own content in
`build_body()` and draws it in `render(view)`. `render` receives the public
view only, so the shared screen cannot show a secret by accident. Actions go
through `send(action)`, which shows a refused action's sentence in the banner.

The banner lies over the top bar's middle, where the title and whose turn
it is are shown and nothing is tapped: it appears and goes without moving
anything (issue 14: nothing moves while a finger is on its way). A refusal
stays until it is tapped or an action is accepted; a plain sentence ("Undone.")
goes by itself after `PLAIN_SECONDS`, so whose turn it is shows again.

Session changes may come from any thread (a race button, a display key);
they reach the screen only through the table's dispatcher.

The game clock costs an idle screen as little as it can (issue 14): it is
woken just after the shown second changes, never while paused, and its
slot in the top bar keeps one width per pattern of digits ("8:88"), so a
tick never lays the top bar out again. Everything else on the screen draws
into buffers (`ui.widgets.layer.StillLayer`), the top bar's, the board's and,
for a game with a row of actions under its board (`build_foot`), the foot's,
each drawn again only when something in it changes; the clock's label draws
over them, so a tick costs the window a texture a buffer and one label,
however big the board. A finger on Menu draws the bar's buffer again, and one
on Quark's Create the foot's, not the board's (issue 26). The banner draws
over them, and only while it says something: hidden, it is out of the screen.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from kivy.clock import Clock, ClockEvent
from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.game import Action, GameView, Refusal
from ui.kv import beside, load_kv
from ui.presenters import format_clock
from ui.presenters.leave import Leaver, leavers
from ui.widgets.fitted_popup import FittedPopup, KeptPopups
from ui.widgets.fitting import fit_text
from ui.widgets.layer import StillLayer

if TYPE_CHECKING:
    from companion.session import AnySession
    from ui.screens.leave import LeavePicker
    from ui.screens.log import LogView
    from ui.screens.race import RaceScreen
    from ui.table import Table

KV = beside(__file__)
CLOCK_LATE = 0.02
"""Seconds after the shown second changes that the clock is woken: Kivy's Clock may fire a frame early."""
CLOCK_PADDING = 16
"""Room beside the clock's digits, in dp."""
CLOCK_WIDEST = "0:00:00"
"""The widest the clock gets (a game of an hour or more; paused, "paused" goes under it, smaller): its slot is
always this wide, so nothing in the top bar (the banner, a tappable, above all) changes size one tap to the next."""
CLOCK_FONT = 20
"""The clock's font size in sp (16 while paused, two lines)."""
TURN_FONTS = (20, 17, 15)
"""Whose turn it is, in the top bar: its font sizes in sp, largest first (see `fit_text`)."""
PLAIN_SECONDS = 8.0
"""How long a plain sentence (not a refusal) stays in the banner, covering whose turn it is."""
BANNER_FONTS = (18, 15)
"""The banner's font sizes in sp, largest first: the largest at which the sentence fits the bar is used."""
BANNER_PADDING = 12
"""Room around the banner's text, in dp: half above and half below it, and as much each side."""
CONFIRM_MARGIN = 8
"""Room above the question "End this game without a result?", in dp: it opens at the top of the screen."""
AHEAD_SECONDS = 0.4
"""A screen's popups (`popups_made_ahead`) are made this long after it shows, while the table looks at the board
(issue 26: made on the first tap on Menu, the Menu was most of that tap)."""


FOOT_MARGIN = 6
"""dp under a game's foot, and beside it: the board's own margin."""


def _foot_layer(foot: Widget) -> StillLayer:
    """The buffer a game's foot (`GameScreen.build_foot`) is drawn into, as tall as the foot and its margin."""
    margin = dp(FOOT_MARGIN)
    holder = BoxLayout(pos_hint={"x": 0, "y": 0}, padding=(margin, 0, margin, margin))
    holder.add_widget(foot)
    layer = StillLayer(size_hint_y=None, height=foot.height + margin)
    layer.add_widget(holder)
    foot.fbind("height", lambda *_: setattr(layer, "height", foot.height + margin))
    return layer


def next_tick(elapsed: float) -> float:
    """Seconds from `elapsed` until just after the shown clock (whole seconds) changes: at most a second."""
    return 1.0 - elapsed % 1.0 + CLOCK_LATE


def whose_turn(session: AnySession) -> str:
    """The top bar's turn line: "Ann to play", "Game over", or nothing (nobody has a turn)."""
    if session.outcome is not None:
        return "Game over"
    return f"{session.current_player} to play" if session.current_player else ""


@lru_cache(maxsize=32)
def clock_room(text: str, font_size: float, font_name: str, bold: bool) -> float:
    """The clock label's width for `text`: that of its pattern with every digit an 8, plus padding.

    Every time of one pattern ("0:07" and "9:59") gets the same width, so the
    top bar is laid out again only when the pattern changes (at 10:00, at
    1:00:00, on pausing), not at every tick.
    """
    from kivy.metrics import dp

    probe = CoreLabel(text=re.sub(r"\d", "8", text), font_size=font_size, font_name=font_name, bold=bold)
    probe.refresh()
    return float(probe.content_width + dp(CLOCK_PADDING))


class GameScreen(Screen):
    """A screen for one game in progress. Subclasses override `build_body` and `render`."""

    title = StringProperty("")
    clock_text = StringProperty("0:00")
    turn_text = StringProperty("")
    banner = StringProperty("")
    banner_is_error = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    paused = BooleanProperty(False)
    over = BooleanProperty(False)  # the game has ended: nothing left to pause, end or keep for later
    session: AnySession = ObjectProperty(None, rebind=True)
    owns_turn_words: ClassVar[bool] = False
    """Whether `render` writes the top bar's turn line itself (Quark's actions left, the score pad's wins): then
    `refresh` leaves it to `render`, so that it changes once a refresh, not twice (each change fits it anew, and
    draws the top bar's buffer again)."""
    board_shows_the_clock: ClassVar[bool] = False
    """Whether `render` draws from the game's clock (the turn clock's times), so that a pause draws it again."""
    kept_off_screen: ClassVar[bool] = True
    """Whether home may keep this screen for Resume, and make it ahead (`ui.kept_screens`): not if it holds a
    device from its making to its closing (the turn clock's table buttons)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # base.kv's "<-GameScreen>" drops the rules loaded before it that match a game screen (there: the
        # theme's <Screen> background, under the still layer): so it is loaded before any game's own rules.
        super().__init_subclass__(**kwargs)
        load_kv(KV)

    def __init__(self, session: AnySession, table: Table, *, on_home: Callable[[], None], **kwargs: Any) -> None:
        load_kv(KV)
        self.table = table
        self._on_home = on_home
        self.phone_choices: set[str] = set()  # display seats whose player chose a phone too, while this game shows
        self._open_views: dict[str, ModalView] = {}  # the popup of each kind that is open (`open_once`)
        self._kept = KeptPopups()  # the Menu (and a game's own `popups_made_ahead`), made once
        super().__init__(name=f"game:{session.game.name}", **kwargs)
        turn = self.ids.get("turn_label")
        if turn is not None:  # a screen with rules of its own may have no top bar of ours
            fit_text(turn, TURN_FONTS, room=0)
        banner = self.ids.get("banner")
        # Held here: while hidden it is out of the screen, and ids hold only weak references.
        self._banner_widget: Widget | None = banner.__self__ if banner is not None else None
        self.fbind("banner", self._show_banner)
        self._show_banner()
        self.session = session
        self.title = session.game.title
        body = self.build_body()
        if body is not None:
            self.ids.body.add_widget(body)
        foot = self.build_foot()
        self.foot_layer: StillLayer | None = None if foot is None else _foot_layer(foot)
        self.show_foot(True)
        self._unsubscribe = session.subscribe(lambda _s: table.dispatch(self._session_changed))
        self._ticker: ClockEvent | None = None
        self.refresh()

    # -- for subclasses --------------------------------------------------------

    def build_body(self) -> Widget | None:
        """The game's own content, placed under the top bar. Called once."""
        return Factory.BodyLabel(text=f"{self.title}: the board for this game is on its way.", font_size="22sp")

    def build_foot(self) -> Widget | None:
        """A row of the game's own buttons under its board (Quark's actions), or None. Called once.

        It is drawn into a buffer of its own: a finger on one of its buttons draws that strip again, and not the
        whole board (issue 26: Quark's Create popup waited on the board's buffer, drawn again for the pressed
        button's look)."""
        return None

    def show_foot(self, shown: bool) -> None:
        """Put the game's foot (`build_foot`) under the board, or take it away and its room with it (a game over
        has no actions): out of the tree, it neither shows nor catches a touch, and the window draws nothing
        for it."""
        layer, board = self.foot_layer, self.ids.get("still")
        if layer is None or board is None or (layer.parent is not None) == shown:
            return
        column = board.parent
        if shown:
            column.add_widget(layer)  # index 0: the bottom of the screen's column
        else:
            column.remove_widget(layer)

    def render(self, view: GameView) -> None:
        """Draw the public view, typed (the game's frozen dataclass). Called after every change (and undo/redo)."""

    # -- the shared parts --------------------------------------------------------

    def refresh(self) -> None:
        """Everything shown again from the session: the top bar, and the board from the public view."""
        self._refresh_bar()
        session = self.session
        if self._race_ahead is not None and not self.can_race:
            self._race_ahead = None  # the first move is made: nobody races for it now
        self._drawn_state = session.state
        self.render(session.view())

    _drawn_state: object = None
    """The game's state the board was last drawn from (`refresh`)."""

    def _session_changed(self) -> None:
        """The session's news. Only a move, an undo or a redo gives the game a new state: the clock paused or
        started leaves the board as it was drawn (a screen kept for Resume shows its buffer from before, issue 26),
        unless the board shows the clock itself (`board_shows_the_clock`)."""
        if self.session.state is self._drawn_state and not self.board_shows_the_clock:
            self._refresh_bar()
        else:
            self.refresh()

    def _refresh_bar(self) -> None:
        """The top bar: Undo, Redo, the clock, whose turn it is, and the store's news in the banner."""
        session = self.session
        self.can_undo = session.can_undo
        self.can_redo = session.can_redo
        self.paused = session.paused
        self.over = session.outcome is not None
        if not self.owns_turn_words:
            self.turn_text = whose_turn(session)
        self._tick()
        self.show_store_news()

    _notice_shown: str | None = None
    _fresh_news = False
    _problem_put_away: str | None = None  # the store's standing trouble, once tapped away: it covers whose turn

    def show_store_news(self) -> None:
        """Damage the store found and salvaged (at any read), or why nothing is being saved, in the banner."""
        store = self.session.store
        if store.problem != self._problem_put_away:
            self._problem_put_away = None  # saving again, or other trouble: a new one shows, once more
        if store.notice and store.notice != self._notice_shown:
            self._notice_shown = store.notice
            self._fresh_news = True
            self.say(store.notice, error=True)
        elif store.problem and not self.banner and store.problem != self._problem_put_away:
            self.say(store.problem, error=True)  # e.g. a read-only card: the table plays, nothing is saved

    _banner_timer: ClockEvent | None = None
    _making_ahead: ClockEvent | None = None
    _race_ahead: RaceScreen | None = None  # made before its tap (`_make_race_ahead`), begun by `open_race`
    _closed = False  # set by `close`: the screen is put away (or only drawn, in a replay)

    def send(self, action: Action) -> bool:
        """Apply `action`; on refusal show the rules' sentence and return False."""
        try:
            self.session.act(action)
        except Refusal as refusal:  # the rules said no, or the card would not take it (`NotSaved`)
            self.say(str(refusal), error=True)
            return False
        if self._fresh_news:
            self._fresh_news = False  # news from the store that this very action brought stays up until the next
        elif self.banner_is_error:
            self.say(self.session.store.problem or "", error=bool(self.session.store.problem))
        return True

    def say(self, text: str, *, error: bool = False) -> None:
        """Show one sentence in the banner over the top bar (empty text hides it).

        A refusal (`error`) stays until it is tapped or an action is accepted;
        a plain sentence goes by itself after `PLAIN_SECONDS`.
        """
        self.banner = text
        self.banner_is_error = error
        if self._banner_timer is not None:
            self._banner_timer.cancel()
            self._banner_timer = None
        if text and not error and not self._closed:  # a closed screen (a replay's) is drawn, never waited on
            self._banner_timer = Clock.schedule_once(lambda _dt: self._plain_gone(text), PLAIN_SECONDS)

    def _show_banner(self, *_: Any) -> None:
        # Hidden, the banner would still be drawn (invisibly) over the window at every clock tick: out it goes.
        banner = self._banner_widget
        if banner is None:
            return
        if self.banner and banner.parent is None:
            self.add_widget(banner, index=1)  # under the clock's label, over the two buffers
        elif not self.banner and banner.parent is self:
            self.remove_widget(banner)

    def _plain_gone(self, text: str) -> None:
        self._banner_timer = None
        if self.banner == text and not self.banner_is_error:
            self.say("")

    def put_away_banner(self) -> None:
        """A tap on the banner: it goes; the store's standing trouble, once read, stays away until it changes."""
        if self.banner and self.banner == self.session.store.problem:
            self._problem_put_away = self.banner
        self.say("")

    def undo(self) -> None:
        try:
            if self.session.undo():
                self.say("Undone. Redo puts it back exactly as it was.")
        except Refusal as refusal:
            self.say(str(refusal), error=True)

    def redo(self) -> None:
        try:
            if self.session.redo():
                self.say("Redone.")
        except Refusal as refusal:
            self.say(str(refusal), error=True)

    def _tick(self) -> None:
        """Show the clock; while it runs, come back just after the shown second changes."""
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        elapsed = self.session.elapsed
        self.clock_text = format_clock(elapsed)  # a property: an unchanged text redraws nothing
        if not self.session.paused:
            self._ticker = Clock.schedule_once(lambda _dt: self._tick(), next_tick(elapsed))

    def popups_made_ahead(self) -> list[tuple[str, Callable[[], ModalView | None]]]:
        """The popups this screen keeps (`KeptPopups`), each made a moment after the screen shows; a game whose
        own popups are kept adds them. The Log is made caught up with the game, and catches up as it opens."""
        made: list[tuple[str, Callable[[], ModalView | None]]] = [("menu", self._new_menu)]
        made.append(("log", self._log_made_ahead))
        if self.can_show_phones:
            made.append(("phones", self._new_phones_panel))
        if self.can_leave:
            made.append(("leave", self._new_leave_picker))
        return made

    def on_enter(self, *_args: Any) -> None:
        if self._making_ahead is None:
            waiting = self.popups_made_ahead()
            self._making_ahead = Clock.schedule_once(lambda _dt: self._make_ahead(waiting, None), AHEAD_SECONDS)
        elif self.can_race and self._race_ahead is None:  # back from a race left without a choice
            self._making_ahead = Clock.schedule_once(lambda _dt: self._make_race_ahead(), AHEAD_SECONDS)

    def _make_ahead(self, waiting: list[tuple[str, Callable[[], ModalView | None]]], made: str | None) -> None:
        """One popup a frame: a tap meanwhile waits for one popup's making at most, never for all of them. The
        popup `made` in the frame before has its words drawn now (`KeptPopups.draw_ahead`). Then the race's
        screen, while the table may still race for who goes first."""
        if self._closed:
            return
        if made is not None:
            self._kept.draw_ahead(made)
        if not waiting:
            self._make_race_ahead()
            return
        kind, make = waiting[0]
        self._kept.make_ahead(kind, make)
        self._making_ahead = Clock.schedule_once(lambda _dt: self._make_ahead(waiting[1:], kind), 0)

    def open_menu(self) -> GameMenu | None:
        menu: GameMenu | None = self.open_once("menu", lambda: self._kept.get("menu", self._new_menu))
        return menu

    def _new_menu(self) -> GameMenu:
        menu = GameMenu(screen=self)
        menu.refresh()  # made ahead, its words are drawn as it will open (`KeptPopups.draw_ahead`)
        return menu

    def open_once(self, kind: str, make: Callable[[], ModalView | None]) -> Any:
        """Open the popup `make` gives, unless one of the same `kind` is open (issue 21: "Popups that stack").

        Returns the popup opened, or None when one of its kind was open already (or `make` gave none).
        """
        if kind in self._open_views:
            return None
        view = make()
        if view is None:
            return None
        self.hold(kind, view)
        if not view._is_open:  # some openers open their popup themselves
            view.open()
        return view

    def hold(self, kind: str, view: ModalView) -> None:
        """`view` is this screen's popup of `kind` until it is dismissed (a picker hands over to its question)."""
        self._open_views[kind] = view

        def gone(*_args: Any) -> None:
            view.funbind("on_dismiss", gone)  # a kept popup is held again at its next opening
            if self._open_views.get(kind) is view:
                del self._open_views[kind]

        view.fbind("on_dismiss", gone)

    def ask_abandon(self) -> AbandonConfirm | None:
        """The Menu's "End without a result": asked first, since it cannot be taken back from this screen."""
        if self.session.outcome is not None:
            return None
        return self.open_once("end", lambda: AbandonConfirm(screen=self))  # type: ignore[no-any-return]

    @property
    def can_race(self) -> bool:
        """Who goes first is chosen before the first move, in games that let the table choose."""
        return self.session.game.chooses_first and not self.session.moves

    def open_race(self) -> None:
        """The water race (or the previous loser's choice) for who goes first; once, however many taps. Its screen
        made ahead is begun, if there is one."""
        from ui.screens.race import RaceScreen, open_race  # loaded when first wanted: not at start

        if self.manager is None or isinstance(self.manager.current_screen, RaceScreen):
            return  # a second tap of the Menu's button: the race showing is not begun again
        ahead, self._race_ahead = self._race_ahead, None  # a race screen is begun once
        open_race(self, ahead=ahead)

    def _make_race_ahead(self) -> None:
        """The race's screen, made while the table looks at the board (`ui.screens.race.race_made_ahead`), if
        the table may still race for who goes first."""
        if self._closed or not self.can_race or self._race_ahead is not None:
            return
        from ui.screens.race import race_made_ahead

        self._race_ahead = race_made_ahead(self)

    @property
    def can_leave(self) -> bool:
        """Someone may still leave: the game is on (and it has a `leave`)."""
        return bool(self.leavers())

    def leavers(self) -> tuple[Leaver, ...]:
        """Who may leave now, in seat order, each with the question asked first."""
        session = self.session
        return leavers(session.options.players, session.players_in, over=session.outcome is not None)

    def open_leave(self) -> None:
        """Someone leaves: pick who, then confirm; Yes sends their `leave`."""
        from ui.screens.leave import open_leave  # loaded with the picker made ahead, or now

        self.open_once("leave", lambda: open_leave(self, self._kept.get("leave", self._new_leave_picker)))

    def _new_leave_picker(self) -> LeavePicker:
        from ui.screens.leave import new_picker

        return new_picker(self)

    def leave(self, leaver: Leaver) -> bool:
        """Send `leaver`'s `leave` (a refusal shows in the banner), then say what followed."""
        if not self.send(leaver.action):
            return False
        self.say(leaver.done_text)
        return True

    @property
    def can_show_phones(self) -> bool:
        """The phones are on, and this game has private views for them (its display module)."""
        from ui.phone_switch import switch_of

        return switch_of(self.table).wanted.on and self.session.game.display is not None

    def open_phones(self) -> Any:
        """The phones panel: a code per seat, one at a time, on its own tap; a seat with a display may add a phone.

        Once: None while it is open already (the board's Phones button and the Menu's both open it).
        """
        return self.open_once("phones", self._phones_panel)

    def _phones_panel(self) -> Any:
        """The panel this screen keeps (made ahead, or now), set to the phones and displays as they are now."""
        link = self.table.phones  # None until the phones have started (or when they could not)
        if link is not None:
            link.attach(self.session)  # this game's seats get their codes
        panel = self._kept.get("phones", self._new_phones_panel)
        panel.phones, panel.paired = getattr(link, "server", None), self._paired()  # it shows them as it opens
        return panel

    def _new_phones_panel(self) -> Any:
        from ui.widgets.phones import PhonesPanel  # loaded when first wanted

        names = [p.name for p in self.session.options.players]
        link = self.table.phones
        server = getattr(link, "server", None)
        return PhonesPanel(phones=server, players=names, paired=self._paired(), chosen=self.phone_choices)

    def _paired(self) -> list[str]:
        """The seats whose player display is paired: their players may choose a phone too."""
        hub = self.table.displays
        return [s.player for s in hub.status() if s.player and s.state != "unpaired"] if hub is not None else []

    def open_log(self) -> None:
        """The game's story: its public events, each with its time (`ui.screens.log`); kept, as the Menu is."""
        from ui.screens.log import open_log

        self.open_once("log", lambda: open_log(self, self._kept_log))

    def _kept_log(self) -> LogView:
        from ui.screens.log import new_log

        return self._kept.get("log", lambda: new_log(self))

    def _log_made_ahead(self) -> ModalView | None:
        from ui.screens.log import log_made_ahead

        return log_made_ahead(self)

    def toggle_clock(self) -> None:
        if self.session.paused:
            self.session.resume_clock()
        else:
            self.session.pause_clock()
        self._refresh_bar()  # a pause changes nothing on the board

    def go_home(self) -> None:
        """Leave the game on the shelf: it is offered for resume on the home screen."""
        self.session.pause_clock()
        self._on_home()

    def abandon(self) -> None:
        try:
            self.session.abandon()
        except Refusal as refusal:
            self.say(str(refusal), error=True)
            return
        self._on_home()

    def put_aside(self) -> None:
        """The screen is kept off the window for Resume (`ui.kept_screens`): its display strips stop following the
        hub, which home detaches from every game; its popups still to be made ahead wait for it to show again."""
        for strip in self._display_strips():
            strip.following = False
        if self._making_ahead is not None and self._making_ahead.is_triggered:
            self._making_ahead.cancel()
            self._making_ahead = None  # `on_enter` goes on with them; those made already are not made again

    def taken_back(self) -> None:
        """The kept screen shows again: its strips follow the hub, and it takes the hardware opened meanwhile."""
        for strip in self._display_strips():
            strip.following = True
        self.hardware_opened()

    def _display_strips(self) -> list[Any]:
        displays = sys.modules.get("ui.widgets.displays")  # loaded by the screens that show a strip
        if displays is None:
            return []
        return [w for w in self.walk(restrict=True) if isinstance(w, displays.DisplayStatusStrip)]

    def hardware_opened(self) -> None:
        """The table's hardware opened after this screen did (a game resumed at start-up is on screen before it).
        A screen that took stand-ins for a device then (simulated buttons) takes the table's own now; most hold
        none."""

    def close(self) -> None:
        """Stop listening to the session (the screen is being thrown away), and its display strips to the hub."""
        self._closed = True
        self._unsubscribe()
        for strip in self._display_strips():
            strip.close()  # a screen put away asks nothing: its strip's questions die with it
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        if self._banner_timer is not None:
            self._banner_timer.cancel()
            self._banner_timer = None
        if self._making_ahead is not None:
            self._making_ahead.cancel()
        self._race_ahead = None  # never begun: it opened nothing


class GameMenu(FittedPopup):
    """The game menu: the clock, who goes first, the log, someone leaving, home keeping the game, or ending it;
    and the phones, in a game with private views while they are on.

    Two columns of big buttons, so that all of them fit 480 pixels, and as
    tall as its title and buttons need (`FittedPopup`; issue 14: with a fixed
    share of the screen, the first button covered the title). Phones has a
    slot of its own beside "Back to the game", left empty when it is not
    offered, so no button moves with it (issue 21).
    """

    screen = ObjectProperty(None)
    can_race = BooleanProperty(False)
    can_leave = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        self._chosen = False
        super().__init__(**kwargs)
        # Held here: taken out of its slot, and ids hold only weak references.
        self._phones_button: Widget = self.ids.phones_button.__self__

    def on_pre_open(self) -> None:
        self._chosen = False
        self.refresh()

    def refresh(self) -> None:
        """Brought up to date at every opening: the screen keeps one Menu (`KeptPopups`), and what it may offer
        changes with the game (`can_race` and `can_leave` are the screen's plain properties: kv cannot watch
        them)."""
        screen = self.screen
        self.can_race, self.can_leave = screen.can_race, screen.can_leave
        slot, button = self.ids.phones_slot, self._phones_button
        if screen.can_show_phones and button.parent is None:
            slot.add_widget(button)
        elif not screen.can_show_phones and button.parent is not None:  # taken out, not greyed: most games
            slot.remove_widget(button)  # never have phones

    def choose(self, then: Callable[[], Any]) -> None:
        """One of its buttons: the menu goes, then `then` runs, once; a second tap while it fades does nothing.

        Issue 21, "Popups that stack": a fading menu still takes touches, so a double tap opened twice.
        """
        if self._chosen:
            return
        self._chosen = True
        self.dismiss()
        then()


class AbandonConfirm(FittedPopup):
    """ "End this game without a result? It will count for nobody." Yes ends it, No goes back to the game.

    It opens at the top of the screen, so neither of its buttons lies where the Menu's "End without a
    result" was (issue 21: a double tap must not confirm).
    """

    screen = ObjectProperty(None)

    def _align_center(self, *_args: Any) -> None:  # Kivy's ModalView centres itself here
        if self._is_open:
            window = self._window
            self.center_x = window.width / 2
            self.top = window.height - dp(CONFIRM_MARGIN)

    def confirm(self) -> None:
        self.dismiss()
        self.screen.abandon()


class TopBar(BoxLayout):
    """Menu, title, clock, turn, Undo, Redo: the same on every game screen."""


class Banner(Button):
    """One sentence over the top bar's middle: as large as fits the bar, growing down over the board if need be.

    Its font is the largest of `BANNER_FONTS` at which the wrapped sentence
    fits `room` (the bar's height), so nearly every sentence stays in the bar;
    a longer one keeps the smallest font and grows down, never cut.
    """

    error = BooleanProperty(False)
    room = NumericProperty(0)
    """The height it fills when the sentence fits: the top bar's, inside its padding."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # A new sentence is fitted at once, so it never shows a frame in the wrong size; the layout settling the
        # width and the bar's height may change them several times in a frame, fitted once after.
        self.fbind("text", lambda *_a: self.fit())
        fit = Clock.create_trigger(lambda _dt: self.fit())
        self.fbind("width", fit)
        self.fbind("room", fit)

    def fit(self) -> None:
        """Wrap the sentence to the width and use the largest font at which it fits the bar."""
        self.text_size = (max(1.0, self.width - dp(BANNER_PADDING)), None)
        for size in BANNER_FONTS:
            self.font_size = sp(size)
            if not self.text:
                return
            self.texture_update()
            if self.texture_size[1] + dp(BANNER_PADDING) <= self.room:
                return
