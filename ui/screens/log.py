"""The Log screen: a game's public events in the table's words, each with its time; a finished game's replay.

Opened from a game's Menu (`open_log`) or from the home screen's past games
(`open_past_game`). It reads the game's story (`companion.record.story`) and
never writes to the games file.

The replay draws the board with the game's own screen, laid out at the
replay's size and drawn pixel for pixel (never scaled: its text stays
crisp): the game's record is copied into a store in memory, a
throwaway session loads it, and the game's `GameScreen` subclass runs over
that session with its top bar taken away and every touch kept from it.
Moving the slider undoes or redoes the throwaway session to the chosen step
(the screen's presenter reads the session: whose turn, what may be done)
and draws that step's view from the story, which is public (a finished
game's is revealed in full: nothing in it is secret any more). Every button
of the replayed screen is held disabled, drawn in the theme's disabled
colours, whatever the game's own rules say at each step: a replay is looked
at, not played, and a button that looks live but does nothing looks broken.

The Log of a game in play follows it (`LiveStory`): a move made while it is
open, by a phone or a player's display, adds its line; an undo takes it away.
A game's screen keeps its Log (`KeptPopups`, made a moment after the screen
shows): closed, the Log listens to nothing; opened again, it catches up with
the moves made meanwhile, each told at the time it was stored, and shows what
a new Log would.
"""

from __future__ import annotations

import math
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, Protocol

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, OptionProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.dispatch import Dispatcher, immediate
from companion.record import Story, story
from companion.session import AnySession, Session
from companion.store import Store
from ui import theme
from ui.kv import beside, load_kv
from ui.presenters.log import Followed, LiveStory, LogShown, Replay, StepShown, lines_of, present_log, status_of
from ui.table import Table
from ui.widgets.fitted_popup import KeptPopups
from ui.widgets.layer import StillLayer
from ui.widgets.lists import FitScroll  # noqa: F401  (log.kv's lines)

KV = beside(__file__)


class GameShown(Protocol):
    """What the Log needs of a game's screen (`ui.screens.base.GameScreen`): the one it is opened over, and the one
    that draws the replayed board.

    Named here rather than imported: the game screen opens the Log, so its module imports this one.
    """

    session: AnySession
    table: Table
    ids: Any  # Kivy's ids of the screen's rules

    def say(self, text: str, *, error: bool = False) -> None: ...
    def render(self, view: Any) -> None: ...  # the game's view
    def close(self) -> None: ...
    def walk(self, restrict: bool = False) -> Iterator[Widget]: ...


ScreenClass = Callable[[str], Callable[..., GameShown]]
"""The screen class that draws a game, by the game's name (`ui.screens.screen_class`)."""
UNREADABLE = (LookupError, ValueError, TypeError)
"""What reading a game's story may raise: no such game, options or events this version cannot fold."""


class LogLine(ButtonBehavior, Label):
    """One step of the Log: its time and sentences; in a finished game a tap replays up to it."""

    step = NumericProperty(0)
    odd = BooleanProperty(False)


class ReplayStage(Widget):
    """Holds the replayed game's screen at the stage's own size, pixel for pixel, and keeps every touch from it.

    Issue 21: the board was laid out at the height it had in the game and drawn scaled down, and its text
    came out garbled ('L ght', 'Vcid', '1 4 1 5' for 14 15): the game's screen draws into a buffer shown
    pixel for pixel, which a scale (or half a pixel of offset) breaks. The screen is laid out at the stage's
    size instead, on whole pixels, and drawn as it is: crisp. A replay is looked at, not played.
    """

    origin = ListProperty([0, 0])
    """Where the replayed screen is drawn: the stage's corner, on a whole pixel."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fbind("size", self._fit)
        self.fbind("pos", self._fit)

    def show(self, screen: Widget) -> None:
        self.clear_widgets()
        screen.size_hint = (None, None)
        screen.pos = (0, 0)  # the canvas is moved to the stage's corner (log.kv)
        self.add_widget(screen)
        self._fit()

    def _fit(self, *_: Any) -> None:
        self.origin = [round(self.x), round(self.y)]
        for child in self.children:
            child.size = (math.floor(self.width), math.floor(self.height))

    def on_touch_down(self, touch: Any) -> bool:
        return bool(self.collide_point(*touch.pos))

    def on_touch_move(self, touch: Any) -> bool:
        return bool(self.collide_point(*touch.pos))

    def on_touch_up(self, touch: Any) -> bool:
        return bool(self.collide_point(*touch.pos))


LINE_AT_LEAST: float = dp(56)
"""A line's least height: the theme's `theme_target` (theme.kv), a finger's."""
OLDER_PER_FRAME = 12
"""Older lines made a frame, once the Log shows its newest (about 15 ms of a frame here)."""
PREPARE_SECONDS = 0.05
"""After the Log has opened (and is drawn), when its replay's board is built ahead: a few frames, before any
finger can reach Replay."""
DRAW_AHEAD_FRAMES = 10
"""The most frames the replay's board is drawn ahead in, until a frame finds nothing in it changed."""


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
        self.screen: GameShown = screen_class(record.game)(
            self.session, Table(store=copy, dispatch=immediate), on_home=lambda: None
        )
        self.screen.close()  # the replay moves the session itself and draws once per step, not once per undo
        # Kept: the screen's rules still name the top bar (the banner sits over it), by weak reference.
        self._taken_away = _drop_top_bar(self.screen)
        self._held: weakref.WeakSet[Button] = weakref.WeakSet()
        self._hold_buttons()
        self._position: int | None = None  # the step drawn (at the end, the live session's view: not the story's)

    def show(self, position: int, view: Any) -> None:
        """The board after `position` steps: the session moved there (undo/redo in memory), then `view` drawn
        (unless that step is drawn already: the board drawn ahead, `LogView._prepare_board`)."""
        if position == self._position:
            return
        self._position = position
        session = self.session
        while len(session.moves) > position and session.undo():
            pass
        while len(session.moves) < position and session.redo():
            pass
        session.pause_clock()  # undoing the last move of a finished game starts its clock again
        self.screen.render(view)
        self._hold_buttons()
        Clock.schedule_once(lambda _dt: self._hold_buttons(), 0)  # and any a screen builds on its next frame

    def _hold_buttons(self) -> None:
        """Disable every button of the replayed screen for good, in the theme's disabled colours.

        The game's rules set a button's `disabled` from its state at every step (``disabled: not
        root.can_skip``); a disabled count added from outside, the way a disabled parent adds its own,
        outlives them, so the button stays disabled whatever they set. The board's pieces are no buttons:
        they keep their look (and the stage keeps every touch from them).
        """
        for widget in self.screen.walk(restrict=True):
            if isinstance(widget, Button) and widget not in self._held:
                self._held.add(widget)
                widget.inc_disabled()
                widget.background_disabled_normal = widget.background_disabled_down = ""
                widget.disabled_color = theme.DISABLED_TEXT
                widget.background_color = theme.DISABLED_BUTTON
                widget.fbind("background_color", _keep_disabled_colour)  # a rule may colour it again at a step


def _keep_disabled_colour(button: Button, colour: Any) -> None:
    if tuple(colour) != theme.DISABLED_BUTTON:
        button.background_color = theme.DISABLED_BUTTON


def _drop_top_bar(screen: GameShown) -> tuple[Widget, ...]:
    """Take the game screen's top bar and clock away (Menu, Undo, Redo and the clock mean nothing in a replay).

    Returns the widgets taken away: whoever keeps the screen keeps them too, since the screen's kv rules
    name them by weak reference (the banner's place is the top bar's).
    """
    taken: list[Widget] = []
    bar = screen.ids.bar_layer.__self__  # the top bar's own buffer, the bar in it (ids hold weak proxies)
    clock = screen.ids.get("clock_label")
    clock = clock.__self__ if clock is not None else None  # ids hold weak proxies: compare the widget itself
    for widget in (bar, clock):
        if widget is not None and widget.parent is not None:
            widget.parent.remove_widget(widget)
            taken.append(widget)
    return tuple(taken)


def _lay_out_now(widget: Widget) -> None:
    """Lay `widget` and everything in it out at once, from the top down (Kivy would do so over the next frame)."""
    if isinstance(widget, Layout):
        widget.do_layout()
    elif isinstance(widget, ScrollView):
        widget.update_from_scroll()  # sizes its content to its width
    for child in widget.children:
        _lay_out_now(child)


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
        follow: AnySession | None = None,
        dispatch: Dispatcher = immediate,
        clock: Callable[[], float] = time.time,
        **kw: Any,
    ) -> None:
        """`follow`: the session of the game in play the Log shows, whose moves it follows while open (and
        catches up with as it opens again); each change reaches the Log through `dispatch` (it may come from
        another thread). `clock` is the session's own: the time of a move stored without one."""
        load_kv(KV)
        self.store = store
        self._screen_class = screen_class
        self.story = told
        self.replay = Replay(told)
        self._on_close = on_close
        self._board: ReplayBoard | None = None
        self._older = 0  # the lines before this one are still to be made (`_add_older`)
        self._spare: list[LogLine] = []  # lines made for a story told before (`tell`), to be used again
        super().__init__(**kw)
        from kivy.core.window import Window

        # ids are weak references: a page off screen is kept here.
        self._pages = {"log": self.ids.log_page.__self__, "replay": self.ids.replay_page.__self__}
        self.ids.pages.remove_widget(self.ids.replay_page)
        # Laid out now, at the size it opens at (the window's), before its lines are made: each line's text is
        # wrapped once, at its width (Kivy's layouts, left to the next frame, pass the lines through the 100 px
        # of a widget not laid out yet, and each line was wrapped there first, word by word: issue 26).
        self.size = Window.size
        _lay_out_now(self)
        self.ids.lines.bind(height=lambda *_: self.scroll_to_newest())  # once laid out (heights come a frame later)
        self.shown: LogShown = present_log(told)
        self.title_text = f"{self.shown.title}: {self.shown.players}"
        self._show_status()
        self._fill_lines()
        self.live: LiveStory | None = LiveStory(follow, told, clock) if follow is not None else None
        self._dispatch = dispatch
        self._unsubscribe: Callable[[], None] | None = None

    def _show_status(self) -> None:
        shown = self.shown
        self.status_text = shown.status
        self.empty_text = "" if shown.lines else shown.empty
        self.can_replay = shown.can_replay
        self.count = self.replay.count

    def on_mode(self, _view: LogView, mode: str) -> None:
        """Show the one page the mode names: before the next frame, once the heading row has its new height (a
        finger's, in the replay: its rule follows the mode after this), so that the page is laid out once, at
        its own size (a replayed board drawn ahead is not laid out, and drawn, again at a passing size)."""
        Clock.schedule_once(lambda _dt: self._show_page(), -1)

    def _show_page(self) -> None:
        pages, page = self.ids.pages, self._pages[self.mode]
        if page.parent is not pages:
            pages.parent.do_layout()
            pages.clear_widgets()
            pages.add_widget(page)

    # -- the Log ---------------------------------------------------------------------------------

    def _fill_lines(self) -> None:
        """The newest lines at once (those the Log opens on), the older ones over the frames after it opens
        (`_add_older`, begun by `on_pre_open`): a Log made ahead makes none while it waits, and its first frame
        draws only its newest lines (a line is drawn, its words rendered, scrolled out of view too).

        Issue 26: a widget for each of a long game's 150 lines was most of the wait for the Log; the Log
        opens at its newest lines, and about a screenful of them is all its first frame shows.
        """
        box = self.ids.lines
        self._spare.extend(box.children)
        box.clear_widgets()
        count = len(self.shown.lines)
        self._older = max(0, count - self._lines_at_once())
        self._add_lines(self._older)

    def _lines_at_once(self) -> int:
        """Enough lines to fill the Log's page, each at least a finger high (`theme_target`), and one more: every
        line made is drawn on the Log's first frame (its words rendered), in view or not (issue 26: twice as many
        were a third of a past game's tap), and the older ones come over the next frames."""
        return math.ceil(float(self.ids.scroller.height) / LINE_AT_LEAST) + 1

    def _add_older(self, _dt: float = 0.0, *, all_of_them: bool = False) -> None:
        """Older lines above those made, `OLDER_PER_FRAME` a frame (or all that are left), until every one is."""
        if not self._older:
            return
        start = 0 if all_of_them else max(0, self._older - OLDER_PER_FRAME)
        width = self._line_width()
        box = self.ids.lines
        for i in range(self._older - 1, start - 1, -1):  # each goes on top of the lines made before it
            box.add_widget(self._line(i, width), index=len(box.children))
        self._older = start
        if self._older:
            Clock.schedule_once(self._add_older, 0)

    def finish_lines(self) -> None:
        """Every line made now (the rest were coming over the next frames)."""
        self._add_older(all_of_them=True)

    def _add_lines(self, start: int) -> None:
        """A widget for each line from the `start`-th on (the box holds the ones before)."""
        box = self.ids.lines
        width = self._line_width()
        for i in range(start, len(self.shown.lines)):
            box.add_widget(self._line(i, width))

    def _line(self, i: int, width: float) -> LogLine:
        line = self.shown.lines[i]
        if self._spare:
            widget = self._spare.pop()
            widget.text, widget.step, widget.odd, widget.width = line.label, line.step, bool(i % 2), width
            return widget
        widget = LogLine(text=line.label, step=line.step, odd=bool(i % 2), width=width)
        widget.bind(on_release=lambda w: self.replay_to(int(w.step)))
        return widget

    def tell(self, told: Story) -> None:
        """Show another game's story (home keeps one Log for its past games, issue 26), as a new Log would: on
        its newest lines, its replay (if finished) at the last step. The lines made for the last story are used
        again for this one's."""
        if self.live is not None:
            raise ValueError("The Log of a game in play follows that game: it tells no other.")
        self._drop_board()
        self.story = told
        self.replay = Replay(told)
        self.mode = "log"
        self.shown = present_log(told)
        self.title_text = f"{self.shown.title}: {self.shown.players}"
        self._show_status()
        self._fill_lines()
        self.scroll_to_newest()

    def _line_width(self) -> float:
        """The lines' width: the box's (laid out since `__init__`), so that each line is made at its own width."""
        return float(self.ids.lines.width)

    # -- following a game in play ------------------------------------------------------------------

    @property
    def following(self) -> bool:
        """Whether the Log listens to its game's moves: only while it is open."""
        return self._unsubscribe is not None

    def on_pre_open(self) -> None:
        """Opened (again: a game's screen keeps its Log): it listens to the game, catches up with the moves made
        since it last showed, and shows what a new Log would (its newest lines; the replay at the last step)."""
        if self._older:
            Clock.schedule_once(self._add_older, 0)  # after the first frame (`_add_older`)
        live = self.live
        if live is not None and self._unsubscribe is None:
            self._unsubscribe = live.session.subscribe(lambda _session: self._dispatch(self.follow))
            self.follow()
        if self.mode != "log" or self.replay.position != self.replay.count:
            self._drop_board()  # a replay left half-way is not where a new Log opens
            self.replay = Replay(self.story)
            self.show_log()
        self.scroll_to_newest()

    def follow(self) -> None:
        """The game changed while the Log is open: its lines and status follow (only the lines that changed)."""
        if self.live is None or self._unsubscribe is None:
            return  # closed: the next opening catches up (a change may have been on its way to the dispatcher)
        try:
            followed = self.live.update()
        except UNREADABLE as trouble:  # the story read again from a file this version cannot fold
            self.status_text = str(trouble)
            return
        if followed is None:  # the clock alone: the status says how long it has been played
            self.story = self.live.story
            self.shown = replace(self.shown, status=status_of(self.story))
            self.status_text = self.shown.status
            return
        self._changed(followed)

    def _changed(self, followed: Followed) -> None:
        told, old = followed.story, self.shown.lines
        if followed.retold:  # read again: most lines are still the same (the end reveals views, not words)
            self.shown = present_log(told)
            kept = next((i for i, (a, b) in enumerate(zip(old, self.shown.lines, strict=False)) if a != b), None)
            kept = min(len(old), len(self.shown.lines)) if kept is None else kept
        else:
            kept = len(lines_of(told.steps[: followed.kept]))  # the lines of the steps that stayed
            lines = old[:kept] + lines_of(told.steps[followed.kept :])
            self.shown = replace(self.shown, lines=lines, status=status_of(told), can_replay=False)
        self.finish_lines()  # the lines kept are counted from the oldest
        box = self.ids.lines
        for widget in box.children[: len(box.children) - kept]:  # children are newest first
            box.remove_widget(widget)
        self._add_lines(kept)
        self.story = told
        position = self.replay.position
        self.replay = Replay(told)
        self._show_status()
        if self._board is not None:  # the replay showed another story: it is built again if it is still wanted
            self._drop_board()
            if self.mode == "replay":
                if self.can_replay:
                    self.replay_to(min(position, self.replay.count))
                else:
                    self.show_log()

    def scroll_to_newest(self) -> None:
        """The newest line is at the bottom: show it."""
        self.ids.scroller.scroll_y = 0

    def show_log(self) -> None:
        self.mode = "log"
        Clock.schedule_once(lambda _dt: self.scroll_to_newest(), 0)

    # -- the replay ------------------------------------------------------------------------------------

    def on_open(self) -> None:
        """A finished game's replay is made ready a moment after the Log shows, while the table reads it."""
        if self.can_replay:
            Clock.schedule_once(lambda _dt: self._prepare_board(ahead=True), PREPARE_SECONDS)

    def _prepare_board(self, *, ahead: bool = False) -> bool:
        """The replay's board, built (once) and on the stage, off screen until the replay shows; whether it is.

        Issue 26: building it (the game read again into memory, the game's own screen) made the tap on Replay
        wait. Built ahead, the tap only shows it; a tap sooner builds it then, as before.
        """
        if self._board is not None:
            return True
        if not self.can_replay or (ahead and self.parent is None):
            return False  # a game in play has no replay; a Log closed meanwhile needs none
        try:
            self._board = ReplayBoard(self.store, self.story, self._screen_class)
        except UNREADABLE as trouble:  # the file changed under us, or holds what this version cannot fold
            if not ahead:
                self.status_text = str(trouble)  # said on the tap, as before (ahead, the tap will try again)
            return False
        self.ids.stage.show(self._board.screen)
        if ahead:  # the board as the tap on Replay will show it, drawn (`_draw_board_ahead`)
            self._lay_out_replay_page()
            self._board.show(self.replay.position, self.replay.shown().view)
            Clock.schedule_once(lambda _dt: self._draw_board_ahead(), 0)
        return True

    def _lay_out_replay_page(self) -> None:
        """The replay page, off the window, laid out as it will be in the replay: where the pages are, up to the
        heading row, which in the replay is a finger high (`theme_target`, as its buttons are)."""
        pages, page = self.ids.pages, self._pages["replay"]
        column = pages.parent
        heading_bottom = float(column.top) - float(column.padding[1]) - float(self.ids.mode_button.height)
        page.pos = pages.pos
        page.size = (pages.width, heading_bottom - float(column.spacing) - float(pages.y))
        _lay_out_now(page)

    def _draw_board_ahead(self, frames: int = DRAW_AHEAD_FRAMES) -> None:
        """The replayed screen's buffers drawn now, not on the tap on Replay; again on the next frame while the
        last drawing found something changed (its words' textures come a frame after its layout), up to
        `frames` frames."""
        board = self._board
        if board is None or self.mode != "log":
            return
        layers = [w for w in board.screen.walk(restrict=True) if isinstance(w, StillLayer)]
        drew = [layer.draw_now() for layer in layers]
        if any(drew) and frames > 1:
            Clock.schedule_once(lambda _dt: self._draw_board_ahead(frames - 1), 0)

    def replay_to(self, position: int) -> None:
        """Open the replay at `position` (a finished game only)."""
        if not self._prepare_board():
            return
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
    def replay_screen(self) -> GameShown | None:
        """The game screen that draws the replayed board (None until the replay is opened)."""
        return self._board.screen if self._board is not None else None

    # -- closing ---------------------------------------------------------------------------------------

    def close(self) -> None:
        self.dismiss()
        self._stop_following()
        self._drop_board()
        if self._on_close is not None:
            self._on_close()

    def on_dismiss(self) -> None:
        self._stop_following()  # however the Log goes away, it stops listening to the game

    def on_parent(self, _view: LogView, parent: Widget | None) -> None:
        if parent is None and self.live is None:  # faded out; home's Log of past games tells another story next
            Clock.schedule_once(lambda _dt: self._put_older_lines_aside(), 0)

    def _put_older_lines_aside(self) -> None:
        """Closed, the Log keeps only its newest lines, as `_fill_lines` makes them (the older ones come again
        over the frames after it opens): the next story's tap does not wait to take a long game's lines
        down (issue 26: that was half of the tap, 13 → 6 ms)."""
        if self.parent is not None:  # opened again meanwhile
            return
        box = self.ids.lines
        keep = min(len(box.children), self._lines_at_once())
        older = box.children[keep:]  # the newest line is the last added, the first child
        for line in older:
            box.remove_widget(line)
        self._spare.extend(older)
        self._older += len(older)

    def _stop_following(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _drop_board(self) -> None:
        if self._board is not None:
            self._board.session.store.close()
            self._board = None


def open_past_game(
    store: Store,
    game_id: int,
    screen_class: ScreenClass,
    *,
    on_close: Callable[[], None] | None = None,
    kept: KeptPopups | None = None,
    told: Story | None = None,
) -> LogView | None:
    """Open the Log (and, if finished, the replay) of game `game_id`; `screen_class` draws its board
    (`ui.screens.screen_class`, given by the caller: this module is imported by the screens it draws with).
    With `kept` (home's), the Log is made once and tells each game's story in turn. `told` is the game's story
    if the caller has read it already (Past games reads ahead); otherwise it is read now.

    A game that cannot be read (there is no such game; it holds what this version cannot fold) gets a
    popup with the one sentence that says why, and None is returned.
    """
    try:
        told = told if told is not None and told.id == game_id else story(store, game_id)
    except UNREADABLE as trouble:
        from kivy.uix.popup import Popup

        Popup(
            title="Game log", title_size="20sp", size_hint=(0.7, 0.4),
            content=Label(text=str(trouble), font_size="18sp", halign="center", text_size=(dp(480), None)),
        ).open()  # fmt: skip
        return None

    def make() -> LogView:
        return LogView(store, told, screen_class, on_close=on_close)

    view = make() if kept is None else kept.get("past game", make)
    if view.story is not told:  # the kept one, last opened on another game (or this one, since changed)
        view.tell(told)
    view.open()
    return view


def new_log(screen: GameShown) -> LogView:
    """The Log of the game `screen` shows, not yet open (raises as `story` does, for a game it cannot read)."""
    session = screen.session
    told = story(session.store, session.game_id)
    return LogView(
        session.store, told, lambda _game: type(screen),  # the replay draws with the game's own screen
        follow=session, dispatch=screen.table.dispatch, clock=screen.table.clock,
    )  # fmt: skip


def log_made_ahead(screen: GameShown) -> LogView | None:
    """`new_log`, made before its tap; None if the game cannot be read (the tap will say why)."""
    try:
        return new_log(screen)
    except UNREADABLE:
        return None


def open_log(screen: GameShown, make: Callable[[], LogView] | None = None) -> LogView | None:
    """Open the Log of the game `screen` shows (its Menu's "Game log"): the one `make` gives (a kept one), or a
    new one. A game that cannot be read gets the one sentence that says why, in the screen's banner."""
    try:
        view = make() if make is not None else new_log(screen)
    except UNREADABLE as trouble:  # e.g. the games file could not be read back
        screen.say(str(trouble), error=True)
        return None
    view.open()
    return view


__all__ = ["LogView", "log_made_ahead", "new_log", "open_log", "open_past_game"]
