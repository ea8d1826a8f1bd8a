"""The Log screen: a game's public events in the table's words, each with its time; a finished game's replay.

Opened from a game's Menu (`open_log`) or from the home screen's past games
(`open_past_game`). It reads the game's story (`companion.record.story`) and
never writes to the games file.

The replay draws the board with the game's own screen, so it looks exactly
as the game did: the game's record is copied into a store in memory, a
throwaway session loads it, and the game's `GameScreen` subclass runs over
that session with its top bar taken away and every touch kept from it.
Moving the slider undoes or redoes the throwaway session to the chosen step
(the screen's presenter reads the session: whose turn, what may be done)
and draws that step's view from the story, which is public (a finished
game's is revealed in full: nothing in it is secret any more).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, OptionProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.dispatch import immediate
from companion.record import Story, story
from companion.session import Session
from companion.store import Store
from ui.kv import beside, load_kv
from ui.presenters.log import LogShown, Replay, StepShown, present_log
from ui.table import Table

if TYPE_CHECKING:
    from ui.screens.base import GameScreen

KV = beside(__file__)
ScreenClass = Callable[[str], "type[GameScreen]"]
"""The screen class that draws a game, by the game's name (`ui.screens.screen_class`)."""
UNREADABLE = (LookupError, ValueError, TypeError)
"""What reading a game's story may raise: no such game, options or events this version cannot fold."""


class LogLine(ButtonBehavior, Label):
    """One step of the Log: its time and sentences; in a finished game a tap replays up to it."""

    step = NumericProperty(0)
    odd = BooleanProperty(False)


class ReplayStage(Widget):
    """Holds the replayed game's screen, drawn smaller if need be, and keeps every touch from it.

    The screen is laid out at the height it has in the game (`natural_height`) and drawn scaled to fit, so
    the board looks as it did at the table rather than squeezed. A replay is looked at, not played.
    """

    scale = NumericProperty(1.0)
    natural_height = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fbind("size", self._fit)
        self.fbind("natural_height", self._fit)

    def show(self, screen: Widget, natural_height: float) -> None:
        self.clear_widgets()
        screen.size_hint = (None, None)
        screen.pos = (0, 0)  # the canvas is moved to the stage's corner (log.kv)
        self.add_widget(screen)
        self.natural_height = natural_height
        self._fit()

    def _fit(self, *_: Any) -> None:
        self.scale = min(1.0, self.height / self.natural_height) if self.natural_height > 0 else 1.0
        for child in self.children:
            child.size = (self.width / self.scale, self.height / self.scale)

    def on_touch_down(self, touch: Any) -> bool:
        return bool(self.collide_point(*touch.pos))

    def on_touch_move(self, touch: Any) -> bool:
        return bool(self.collide_point(*touch.pos))

    def on_touch_up(self, touch: Any) -> bool:
        return bool(self.collide_point(*touch.pos))


class ReplayBoard:
    """The game's own screen over a copy of its record in memory, moved to any step of the story."""

    def __init__(self, store: Store, told: Story, screen_class: ScreenClass) -> None:
        record = store.game(told.id)
        if record is None:
            raise LookupError(f"There is no game number {told.id} in this games file.")
        copy = Store.in_memory()
        copy_id = copy.new_game(record.game, record.options, record.started_at)
        live = [move for move in store.moves(told.id) if not move.undone]  # the story leaves undone moves out
        for seq, move in enumerate(live):
            copy.record(
                copy_id, seq, move.action, move.events, move.draws,
                now=move.at, elapsed=0.0, outcome=None, pending_draws=(),
            )  # fmt: skip
        if len(live) != len(told.steps):
            raise LookupError(f"Game {told.id} changed while its log was being read: open it again.")
        # A clock that stands still: the replay has no game clock, so no tick ever wakes it.
        self.session = Session.load(copy, copy_id, clock=lambda: record.started_at)
        self.session.pause_clock()
        self.story = told
        self.screen: GameScreen = screen_class(record.game)(
            self.session, Table(store=copy, dispatch=immediate), on_home=lambda: None
        )
        self.screen.close()  # the replay moves the session itself and draws once per step, not once per undo
        self.chrome = _drop_top_bar(self.screen)

    def show(self, position: int, view: Any) -> None:
        """The board after `position` steps: the session moved there (undo/redo in memory), then `view` drawn."""
        session = self.session
        while len(session.moves) > position and session.undo():
            pass
        while len(session.moves) < position and session.redo():
            pass
        session.pause_clock()  # undoing the last move of a finished game starts its clock again
        self.screen.render(view)


def _drop_top_bar(screen: GameScreen) -> float:
    """Take the game screen's top bar and clock away (Menu, Undo, Redo and the clock mean nothing in a replay).

    Returns the height they took, with the spacing under them: what the board had less in the game.
    """
    taken = 0.0
    bar = screen.ids.menu_button.parent  # the top bar is the Menu button's row
    clock = screen.ids.get("clock_label")
    clock = clock.__self__ if clock is not None else None  # ids hold weak proxies: compare the widget itself
    for widget in (bar, clock):
        if widget is not None and widget.parent is not None:
            if widget is bar:
                taken += widget.height + widget.parent.spacing
            widget.parent.remove_widget(widget)
    return taken


class LogView(ModalView):
    """The whole-screen Log of one game; for a finished game, its replay with a slider."""

    title_text = StringProperty("")
    status_text = StringProperty("")
    empty_text = StringProperty("")
    mode = OptionProperty("log", options=["log", "replay"])
    can_replay = BooleanProperty(False)
    caption = StringProperty("")
    step_time = StringProperty("")
    counter = StringProperty("")
    position = NumericProperty(0)
    count = NumericProperty(0)
    can_back = BooleanProperty(False)
    can_forward = BooleanProperty(False)

    def __init__(
        self,
        store: Store,
        told: Story,
        screen_class: ScreenClass,
        *,
        on_close: Callable[[], None] | None = None,
        **kw: Any,
    ) -> None:
        load_kv(KV)
        self.store = store
        self._screen_class = screen_class
        self.story = told
        self.replay = Replay(told)
        self._on_close = on_close
        self._board: ReplayBoard | None = None
        super().__init__(**kw)
        self.shown: LogShown = present_log(told)
        self.title_text = f"{self.shown.title}: {self.shown.players}"
        self.status_text = self.shown.status
        self.empty_text = "" if self.shown.lines else self.shown.empty
        self.can_replay = self.shown.can_replay
        self.count = self.replay.count
        self._fill_lines()
        # ids are weak references: a page off screen is kept here.
        self._pages = {"log": self.ids.log_page.__self__, "replay": self.ids.replay_page.__self__}
        self.ids.pages.remove_widget(self.ids.replay_page)

    def on_mode(self, _view: LogView, mode: str) -> None:
        """Show the one page the mode names."""
        pages, page = self.ids.pages, self._pages[mode]
        if page.parent is not pages:
            pages.clear_widgets()
            pages.add_widget(page)

    # -- the Log ---------------------------------------------------------------------------------

    def _fill_lines(self) -> None:
        box = self.ids.lines
        box.clear_widgets()
        for i, line in enumerate(self.shown.lines):
            widget = LogLine(text=line.label, step=line.step, odd=bool(i % 2))
            widget.bind(on_release=lambda w: self.replay_to(int(w.step)))
            box.add_widget(widget)
        box.bind(height=lambda *_: self.scroll_to_newest())  # once laid out (heights come a frame later)

    def scroll_to_newest(self) -> None:
        """The newest line is at the bottom: show it."""
        self.ids.scroller.scroll_y = 0

    def show_log(self) -> None:
        self.mode = "log"
        Clock.schedule_once(lambda _dt: self.scroll_to_newest(), 0)

    # -- the replay ------------------------------------------------------------------------------------

    def replay_to(self, position: int) -> None:
        """Open the replay at `position` (a finished game only)."""
        if not self.can_replay:
            return
        if self._board is None:
            try:
                self._board = ReplayBoard(self.store, self.story, self._screen_class)
            except UNREADABLE as trouble:  # the file changed under us, or holds what this version cannot fold
                self.status_text = str(trouble)
                return
            window = self.get_root_window()
            height = window.height if window is not None else self.height
            self.ids.stage.show(self._board.screen, height - self._board.chrome)
        self.mode = "replay"
        self._show(self.replay.go(position))

    def toggle(self) -> None:
        if self.mode == "log":
            self.replay_to(self.replay.position)
        else:
            self.show_log()

    def slide(self, value: float) -> None:
        """The slider moved: show the step it stands on (nothing if it is the one shown)."""
        if self.mode == "replay" and self.replay.position_of(value) != self.replay.position:
            self._show(self.replay.go(value))

    def back(self) -> None:
        self._show(self.replay.back())

    def forward(self) -> None:
        self._show(self.replay.forward())

    def _show(self, shown: StepShown) -> None:
        self.caption, self.step_time, self.counter = shown.text, shown.time, shown.counter
        self.can_back, self.can_forward = shown.can_back, shown.can_forward
        self.position = shown.position  # the slider follows (and its own on_value then finds nothing to do)
        if self._board is not None:
            self._board.show(shown.position, shown.view)

    @property
    def replay_screen(self) -> GameScreen | None:
        """The game screen that draws the replayed board (None until the replay is opened)."""
        return self._board.screen if self._board is not None else None

    # -- closing ---------------------------------------------------------------------------------------

    def close(self) -> None:
        self.dismiss()
        if self._board is not None:
            self._board.session.store.close()
            self._board = None
        if self._on_close is not None:
            self._on_close()


def open_past_game(
    store: Store, game_id: int, screen_class: ScreenClass, *, on_close: Callable[[], None] | None = None
) -> LogView | None:
    """Open the Log (and, if finished, the replay) of game `game_id`; `screen_class` draws its board
    (`ui.screens.screen_class`, given by the caller: this module is imported by the screens it draws with).

    A game that cannot be read (there is no such game; it holds what this version cannot fold) gets a
    popup with the one sentence that says why, and None is returned.
    """
    try:
        told = story(store, game_id)
    except UNREADABLE as trouble:
        from kivy.uix.popup import Popup

        Popup(
            title="Game log", title_size="20sp", size_hint=(0.7, 0.4),
            content=Label(text=str(trouble), font_size="18sp", halign="center", text_size=(dp(480), None)),
        ).open()  # fmt: skip
        return None
    view = LogView(store, told, screen_class, on_close=on_close)
    view.open()
    return view


def open_log(screen: GameScreen) -> LogView | None:
    """Open the Log of the game `screen` shows (its Menu's "Game log")."""
    session = screen.session
    try:
        told = story(session.store, session.game_id)
    except UNREADABLE as trouble:  # e.g. the games file could not be read back
        screen.say(str(trouble), error=True)
        return None
    view = LogView(session.store, told, lambda _game: type(screen))  # the replay draws with the game's own screen
    view.open()
    return view


__all__ = ["LogView", "open_log", "open_past_game"]
