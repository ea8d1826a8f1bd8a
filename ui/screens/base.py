"""What every game screen shares: the top bar, the banner, undo/redo, the menu.

A game's screen subclasses `GameScreen`, builds its own content in
`build_body()` and draws it in `render(view)`. `render` receives the public
view only, so the shared screen cannot show a secret by accident. Actions go
through `send(action)`, which shows a refused action's sentence in the banner.

Session changes may come from any thread (a race button, a display key);
they reach the screen only through the table's dispatcher.

The game clock costs an idle screen as little as it can (issue 14): it is
woken just after the shown second changes, never while paused, and its
label keeps one width per pattern of digits ("8:88"), so a tick redraws one
label and never lays the top bar out again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock, ClockEvent
from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.game import Action, Refusal, View
from ui.kv import beside, load_kv
from ui.presenters import format_clock

if TYPE_CHECKING:
    from companion.session import Session
    from ui.table import Table

KV = beside(__file__)
CLOCK_LATE = 0.02
"""Seconds after the shown second changes that the clock is woken: Kivy's Clock may fire a frame early."""
CLOCK_PADDING = 16
"""Room beside the clock's digits, in dp."""


def next_tick(elapsed: float) -> float:
    """Seconds from `elapsed` until just after the shown clock (whole seconds) changes: at most a second."""
    return 1.0 - elapsed % 1.0 + CLOCK_LATE


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
    session: Session = ObjectProperty(None, rebind=True)

    def __init__(self, session: Session, table: Table, *, on_home: Callable[[], None], **kwargs: Any) -> None:
        load_kv(KV)
        self.table = table
        self._on_home = on_home
        super().__init__(name=f"game:{session.game.name}", **kwargs)
        self.session = session
        self.title = session.game.title
        body = self.build_body()
        if body is not None:
            self.ids.body.add_widget(body)
        self._unsubscribe = session.subscribe(lambda _s: table.dispatch(self.refresh))
        self._ticker: ClockEvent | None = None
        self.refresh()

    # -- for subclasses --------------------------------------------------------

    def build_body(self) -> Widget | None:
        """The game's own content, placed under the top bar. Called once."""
        return Factory.BodyLabel(text=f"{self.title}: the board for this game is on its way.", font_size="22sp")

    def render(self, view: View) -> None:
        """Draw the public view. Called after every change (and undo/redo)."""

    # -- the shared parts --------------------------------------------------------

    def refresh(self) -> None:
        session = self.session
        self.can_undo = session.can_undo
        self.can_redo = session.can_redo
        self.paused = session.paused
        outcome = session.outcome
        if outcome is not None:
            self.turn_text = "Game over"
        elif session.current_player:
            self.turn_text = f"{session.current_player} to play"
        else:
            self.turn_text = ""
        self._tick()
        self.show_store_news()
        self.render(session.public_view())

    _notice_shown: str | None = None
    _fresh_news = False

    def show_store_news(self) -> None:
        """Damage the store found and salvaged (at any read), or why nothing is being saved, in the banner."""
        store = self.session.store
        if store.notice and store.notice != self._notice_shown:
            self._notice_shown = store.notice
            self._fresh_news = True
            self.say(store.notice, error=True)
        elif store.problem and not self.banner:
            self.say(store.problem, error=True)  # e.g. a read-only card: the table plays, nothing is saved

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
        """Show one sentence in the banner under the top bar (empty text hides it)."""
        self.banner = text
        self.banner_is_error = error

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

    def open_menu(self) -> None:
        GameMenu(screen=self).open()

    @property
    def can_race(self) -> bool:
        """Who goes first is chosen before the first move, in games that let the table choose."""
        return self.session.game.chooses_first and not self.session.moves

    def open_race(self) -> None:
        """The water race (or the previous loser's choice) for who goes first."""
        from ui.screens.race import open_race  # loaded when first wanted: the home screen starts without it

        open_race(self)

    def toggle_clock(self) -> None:
        if self.session.paused:
            self.session.resume_clock()
        else:
            self.session.pause_clock()
        self.refresh()

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

    def close(self) -> None:
        """Stop listening to the session (the screen is being thrown away)."""
        self._unsubscribe()
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None


class GameMenu(Popup):
    """The game menu: pause the clock, go home keeping the game, or end it.

    As tall as its title and buttons need (issue 14: with a fixed share of a
    480-pixel screen, the first button covered the title): `frame_height` is
    Popup's own part, its padding, title and separator, measured from Kivy's
    Popup rule; the kv adds the buttons' height.
    """

    screen = ObjectProperty(None)
    frame_height = NumericProperty(0)

    def on_kv_post(self, base_widget: Any) -> None:
        super().on_kv_post(base_widget)
        frame = self._container.parent  # Popup's column: title, separator, then the container for our buttons
        for part in frame.children:
            part.bind(height=self._measure)
        frame.bind(padding=self._measure, spacing=self._measure)
        self._measure()

    def _measure(self, *_: Any) -> None:
        frame = self._container.parent
        parts = [part for part in frame.children if part.size_hint_y is None]  # all but the container
        _, top, _, bottom = frame.padding
        self.frame_height = top + bottom + sum(part.height for part in parts) + frame.spacing[1] * len(parts)


class TopBar(BoxLayout):
    """Menu, title, clock, turn, Undo, Redo: the same on every game screen."""
