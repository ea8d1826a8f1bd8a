"""The score pad screen: name the game, then a grid of rounds × players, a big number pad, totals and End.

Thin over its presenter (`ui.presenters.score_pad`): the presenter says what every cell, total and button
shows and builds each action; this module lays them out and passes taps back. The grid's cells are made once
and their words changed in place (a round added adds one row), so a tap on a long pad (20 rounds × 5 players)
is answered as quickly as on a short one (`bench/bench_score_pad.py`).

Each round's row, the totals and the row of Add round and End are drawn into buffers of their own
(`ui.widgets.layer.StillBox`): OK on the number pad changes a cell, its player's total and who leads, and the
board then draws again only those three strips, not every cell of the pad (issue 26).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.game import GameView
from companion.games.score_pad.views import ScorePadView
from ui import theme
from ui.presenters import score_pad as presenter
from ui.presenters.score_pad import CellShown, NumberPad, PadShown
from ui.screens.base import CONFIRM_MARGIN, GameScreen
from ui.theme import rgba
from ui.widgets.fitted_popup import FittedPopup
from ui.widgets.layer import StillBox
from ui.widgets.lists import FitScroll  # noqa: F401  (score_pad.kv's grid: a tap on a cell that fits is not held back)

ROUND_WIDTH = 64
"""The round numbers' column, in dp."""
CELL_HEIGHT = 52
"""A round's row, in dp: a finger wide, and five rounds in sight under the heads at 800×480."""
COLUMN_SPACING = 8
"""dp between the columns: the round numbers', each player's; the heads and totals keep it too (score_pad.kv)."""
EAGER_ROWS = 5
"""Rows of cells made at once when many are missing: more than the grid shows at 800×480."""
LATER_ROWS = 4
"""Rows made a frame, after those, below the fold."""


def _cell_font(widget: Any, *_: Any) -> None:
    """Six digits and a minus fit the narrowest column (eight players): the font follows the room."""
    widget.font_size = min(sp(24), (widget.width - dp(8)) / max(3.0, 0.62 * len(widget.text)))


class PadCell(ButtonBehavior, Label):
    """One cell of the grid: a player's points in one round; a tap opens the number pad for it.

    A label that takes taps, drawn and styled here, not a Kivy `Button` under a kv rule: a pad of 20 rounds × 5
    players makes a hundred of them as it opens, and a Button's own rules cost each one more than the cell itself
    (`bench/bench_score_pad.py`)."""

    cell: CellShown | None = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(size_hint_y=None, height=dp(CELL_HEIGHT), bold=True, color=theme.TEXT, **kwargs)
        with self.canvas.before:
            self._paint = Color(*theme.BUTTON)
            self._box = Rectangle(pos=self.pos, size=self.size)
        self.fbind("pos", self._place)
        self.fbind("size", self._place)
        self.fbind("state", self._shade)
        self.fbind("width", _cell_font, self)
        self.fbind("text", _cell_font, self)
        _cell_font(self)

    def _place(self, *_: Any) -> None:
        self._box.pos, self._box.size = self.pos, self.size

    def _shade(self, *_: Any) -> None:
        self._paint.rgba = theme.PRESSED if self.state == "down" else theme.BUTTON


class RoundNumber(Label):
    """A round's number, beside its row."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            size_hint=(None, None), width=dp(ROUND_WIDTH), height=dp(CELL_HEIGHT), color=theme.MUTED,
            font_size=sp(18), **kwargs,
        )  # fmt: skip


class PadRow(StillBox):
    """A round's row: its number, then a cell per player (`cells`), drawn into a buffer of its own (`StillBox`)."""

    def __init__(self, number: int, players: int, on_cell: Callable[[PadCell], object]) -> None:
        super().__init__(size_hint_y=None, height=dp(CELL_HEIGHT))
        line = BoxLayout(spacing=dp(COLUMN_SPACING))
        line.add_widget(RoundNumber(text=str(number)))
        self.cells: list[PadCell] = []
        for _ in range(players):
            cell = PadCell()
            # On press: a grid that scrolls hands a tap on to its cell only once the finger is up, and its
            # release 0.2 s after that (Kivy's ScrollView): the pad opens as soon as the tap is known.
            cell.bind(on_press=on_cell)
            line.add_widget(cell)
            self.cells.append(cell)
        self.add_widget(line)


class PadStrip(StillBox):
    """A strip of the board drawn into a buffer of its own (`StillBox`): the totals, and Add round and End with who
    leads between them. OK on a cell changes both, and the board draws again only them and the cell's row."""


class ColumnHead(Label):
    """A player's name over their column, on a strip of their colour (the name is there: never colour alone).

    Drawn here, not by a kv rule, as the cells are: the heads and totals are made as the pad opens."""

    def __init__(self, name: str, colour: Any, **kwargs: Any) -> None:
        super().__init__(text=name, bold=True, color=theme.TEXT, halign="center", valign="middle", **kwargs)
        with self.canvas.after:
            Color(*colour)
            self._strip = Rectangle(pos=self.pos, size=(self.width, dp(6)))
        self.fbind("pos", self._fit)
        self.fbind("size", self._fit)

    def _fit(self, *_: Any) -> None:
        """The name whole on at most two lines above the strip: wrapped at its spaces, its font as large as its
        longest word allows (worked out once per size, not font by font)."""
        self._strip.pos, self._strip.size = self.pos, (self.width, dp(6))
        longest = max((len(word) for word in self.text.split()), default=1)
        room, tall = max(1.0, self.width - dp(4)), max(1.0, self.height - dp(8))
        size = min(sp(18), room / (0.62 * longest))  # the longest word on one line
        lines = 1 if 0.62 * size * len(self.text) <= room else 2
        self.font_size = max(sp(11), min(size, tall / (1.5 * lines)))  # and every line in the box
        self.text_size = (room, tall)
        self.padding = (0, dp(8), 0, 0)


class TotalCell(Label):
    """A player's total under their column; the leader's is lit and says "leads" (never colour alone)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(markup=True, halign="center", valign="middle", **kwargs)
        with self.canvas.before:
            self._paint = Color(*theme.PANEL)
            self._box = Rectangle(pos=self.pos, size=self.size)
        self.fbind("pos", self._place)
        self.fbind("size", self._place)
        self.show("", leads=False, left=False)

    def _place(self, *_: Any) -> None:
        self._box.pos, self._box.size = self.pos, self.size

    def show(self, total: str, *, leads: bool, left: bool) -> None:
        """The total (or "left"), and "leads" under the leader's, on the accent."""
        self.total, self.leads, self.left = total, leads, left
        size = min(sp(22 if not left else 17), (self.width - dp(8)) / max(3.0, 0.62 * len(total)))
        self.font_size = size
        self.text = f"[b]{total}[/b]" + ("\n[size=13sp]leads[/size]" if leads else "")
        self.color = theme.INK if leads else (theme.MUTED if left else theme.TEXT)
        self._paint.rgba = theme.ACCENT if leads else theme.PANEL

    def on_size(self, *_: Any) -> None:
        if hasattr(self, "total"):
            self.show(self.total, leads=self.leads, left=self.left)


class ScorePadBoard(BoxLayout):
    """The grid face: column heads, the rounds (scrolling), the totals, Add round and End."""

    screen = ObjectProperty(None)
    leader = StringProperty("")
    can_add_round = BooleanProperty(False)
    can_end = BooleanProperty(False)
    wins_words = StringProperty("")


class NamingBoard(BoxLayout):
    """The first face: "What are you playing?", the names played before, highest or lowest wins, Start."""

    screen = ObjectProperty(None)
    wins = StringProperty("highest")


class NumberPadPopup(FittedPopup):
    """The big number pad for one cell: digits, minus, Clear, Cancel and OK."""

    screen = ObjectProperty(None)
    shown = StringProperty("")
    hint = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for key in presenter.KEYS:
            button = Factory.PadKey(text=key)
            button.bind(on_release=lambda _b, k=key: self.press(k))
            self.ids.pad_keys.add_widget(button)
        self.pad: NumberPad | None = None  # the cell's, from `ready`, before the pad opens

    def ready(self, pad: NumberPad) -> None:
        """Set for the cell tapped, as a pad made for it: the screen keeps one pad (made ahead) for every cell."""
        self.pad = pad
        self.title = pad.heading
        self._show(pad)

    def press(self, key: str) -> None:
        if self.pad is not None:
            self.pad.press(key)
            self._show(self.pad)

    def _show(self, pad: NumberPad) -> None:
        self.shown = pad.shown
        self.hint = pad.hint

    def ok(self) -> None:
        if self.pad is None:
            return
        action = self.pad.ok()
        if action is None or self.screen.send(action):
            self.dismiss()


class EndConfirm(FittedPopup):
    """ "End the game? Ann wins with 83." Cancel, or End. Opens at the top of the screen, away from End."""

    screen = ObjectProperty(None)
    question = StringProperty("")

    def _align_center(self, *_args: Any) -> None:  # Kivy's ModalView centres itself here
        if self._is_open:
            window = self._window
            self.center_x = window.width / 2
            self.top = window.height - dp(CONFIRM_MARGIN)

    def confirm(self) -> None:
        self.dismiss()
        self.screen.send(presenter.end())


class ScorePadScreen(GameScreen):
    """The score pad: its naming face until the game has a name, then the grid."""
    owns_turn_words = True

    columns = NumericProperty(1)

    def build_body(self) -> Widget | None:
        self.area = BoxLayout()
        self._naming: NamingBoard | None = None  # made only while the game has no name: a resumed pad has one
        self.board = ScorePadBoard(screen=self)
        self.shown: PadShown | None = None
        self._rows: list[PadRow] = []
        self._totals: list[TotalCell] = []
        self._built_for = 0
        self._growing: Any = None
        return self.area

    @property
    def naming(self) -> NamingBoard:
        """The naming face: "What are you playing?", the names played here before, highest or lowest wins."""
        if self._naming is None:
            self._naming = NamingBoard(screen=self)
            try:
                titles = presenter.past_titles(self.session.store.wins_by_game())
            except Exception:  # a games file that cannot be read still lets the table name its game by typing
                titles = []
            for title in titles:
                button = Factory.PastTitle(text=title)
                button.bind(on_release=lambda _b, t=title: self.choose_title(t))
                self._naming.ids.past.add_widget(button)
            self._naming.ids.past_heading.text = "Played here before:" if titles else ""
        return self._naming

    # -- drawing -----------------------------------------------------------------------------

    def render(self, view: GameView) -> None:
        colours = {p.name: p.colour for p in self.session.options.players}
        # typed: the presenter reads its fields (a replay hands the story's view as JSON; its session is there too)
        typed = view if isinstance(view, ScorePadView) else self.session.view()
        shown = presenter.present(typed, colours)
        self.shown = shown
        face = self.board if shown.named else self.naming
        if face.parent is None:
            self.area.clear_widgets()
            self.area.add_widget(face)
        if not shown.named:  # not yet, or its name undone
            self.title, self.turn_text = self.session.game.title, ""
            return
        self.title = shown.title
        self.turn_text = "Game over" if shown.over else shown.wins_words
        board = self.board
        self._build_columns(shown)
        self._fit_rows(len(shown.rows), len(shown.columns))
        self._fill(shown)
        for column, total in zip(shown.columns, self._totals, strict=True):
            total.show(column.total, leads=column.leads, left=column.left)
        board.leader = shown.leader
        board.can_add_round = shown.can_add_round
        board.can_end = shown.can_end
        board.wins_words = shown.wins_words

    def _build_columns(self, shown: PadShown) -> None:
        if self._built_for:
            return
        self._built_for = len(shown.columns)
        board = self.board
        for column in shown.columns:
            board.ids.heads.add_widget(ColumnHead(column.player, rgba(column.colour or "#3d4557")))
            total = TotalCell()
            self._totals.append(total)
            board.ids.totals.add_widget(total)

    def _fit_rows(self, rounds: int, count: int) -> None:
        """As many rows of cells as there are rounds: made when first needed, then only their words change.

        Many rounds at once (a long pad resumed) are made `EAGER_ROWS` now, the screen's first frame showing
        the top of the grid, and `LATER_ROWS` a frame after that, below the fold: a pad opens as quickly with
        20 rounds as with 5, and the rows in sight never move.
        """
        grid = self.board.ids.grid
        wanted = rounds if rounds - len(self._rows) <= EAGER_ROWS else len(self._rows) + EAGER_ROWS
        while len(self._rows) < wanted:
            row = PadRow(len(self._rows) + 1, count, self.open_pad)
            grid.add_widget(row)
            self._rows.append(row)
        while len(self._rows) > rounds:  # an undone round goes again
            grid.remove_widget(self._rows.pop())
        if len(self._rows) < rounds and self._growing is None:
            self._growing = Clock.schedule_once(lambda _dt: self._grow(), 0)

    def _grow(self) -> None:
        """The rows still missing, `LATER_ROWS` a frame, each filled in from what is shown now."""
        self._growing = None
        shown = self.shown
        if shown is None or self._closed:
            return
        target = min(len(shown.rows), len(self._rows) + LATER_ROWS)
        while len(self._rows) < target:
            self._fit_rows(len(self._rows) + 1, len(shown.columns))
        self._fill(shown)
        if len(self._rows) < len(shown.rows):
            self._growing = Clock.schedule_once(lambda _dt: self._grow(), 0)

    def _fill(self, shown: PadShown) -> None:
        for cells, row in zip(shown.rows, self._rows, strict=False):
            for cell, widget in zip(cells, row.cells, strict=True):
                widget.cell = cell
                widget.text = cell.text
                widget.disabled = not shown.tappable

    # -- taps ----------------------------------------------------------------------------------

    def open_pad(self, cell: PadCell) -> NumberPadPopup | None:
        """A tap on a cell: the number pad for that player and round."""
        if cell.cell is None:
            return None
        pad = presenter.pad_for(cell.cell)
        popup: NumberPadPopup | None = self.open_once("pad", lambda: self._pad_for(pad))
        return popup

    def popups_made_ahead(self) -> list[tuple[str, Callable[[], ModalView | None]]]:
        return [*super().popups_made_ahead(), ("pad", self._new_pad)]

    def _new_pad(self) -> NumberPadPopup:
        return NumberPadPopup(screen=self)

    def _pad_for(self, pad: NumberPad) -> NumberPadPopup:
        """The screen's number pad (made ahead, or now), set for the cell tapped."""
        popup = self._kept.get("pad", self._new_pad)
        popup.ready(pad)
        return popup

    def add_round(self) -> None:
        """Add round: a new empty row at the bottom, brought into sight (the table asked for it; a round that
        appears otherwise, an undo or a replay, moves nothing under a finger)."""
        if self.send(presenter.add_round()):
            self.board.ids.scroll.scroll_y = 0

    def ask_end(self) -> EndConfirm | None:
        """End asks first: "End the game? Ann wins with 83."."""
        if self.shown is None or not self.shown.can_end:
            return None
        question = self.shown.end_question
        popup: EndConfirm | None = self.open_once("end_pad", lambda: EndConfirm(screen=self, question=question))
        return popup

    def choose_title(self, title: str) -> None:
        self.naming.ids.title_input.text = title

    def choose_wins(self, wins: str) -> None:
        self.naming.wins = wins

    def start_scoring(self) -> bool:
        """Start: the game's name as typed and how it is won, sent as the first move (a refusal says why)."""
        action = presenter.name_action(self.naming.ids.title_input.text, self.naming.wins)
        return self.send(action)


SCREEN = ScorePadScreen
