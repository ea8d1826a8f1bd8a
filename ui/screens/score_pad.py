"""The score pad screen: name the game, then a grid of rounds × players, a big number pad, totals and End.

Thin over its presenter (`ui.presenters.score_pad`): the presenter says what every cell, total and button
shows and builds each action; this module lays them out and passes taps back. The grid's cells are made once
and their words changed in place (a round added adds one row), so a tap on a long pad (20 rounds × 5 players)
is answered as quickly as on a short one (`bench/bench_score_pad.py`).
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.widget import Widget

from companion.game import GameView
from companion.games.score_pad.views import ScorePadView
from ui.presenters import score_pad as presenter
from ui.presenters.score_pad import CellShown, NumberPad, PadShown
from ui.screens.base import CONFIRM_MARGIN, GameScreen
from ui.theme import rgba
from ui.widgets.fitted_popup import FittedPopup
from ui.widgets.fitting import fit_text

ROUND_WIDTH = 64
"""The round numbers' column, in dp."""


class PadCell(Button):
    """One cell of the grid: a player's points in one round; a tap opens the number pad for it."""

    cell: CellShown | None = None


class ColumnHead(BoxLayout):
    """A player's name over their column, on a strip of their colour (the name is there: never colour alone)."""

    name = StringProperty("")
    colour = ListProperty([0, 0, 0, 0])

    def on_kv_post(self, base_widget: Any) -> None:
        fit_text(self.ids.name_label, (18, 16, 14, 13), room=4)


class TotalCell(BoxLayout):
    """A player's total under their column; the leader's is lit and says "leads" (never colour alone)."""

    total = StringProperty("")
    leads = BooleanProperty(False)
    left = BooleanProperty(False)


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

    def __init__(self, pad: NumberPad, **kwargs: Any) -> None:
        self.pad = pad
        super().__init__(title=pad.heading, **kwargs)
        for key in presenter.KEYS:
            button = Factory.PadKey(text=key)
            button.bind(on_release=lambda _b, k=key: self.press(k))
            self.ids.pad_keys.add_widget(button)
        self._show()

    def press(self, key: str) -> None:
        self.pad.press(key)
        self._show()

    def _show(self) -> None:
        self.shown = self.pad.shown
        self.hint = self.pad.hint

    def ok(self) -> None:
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

    columns = NumericProperty(1)

    def build_body(self) -> Widget | None:
        self.area = BoxLayout()
        self.naming = NamingBoard(screen=self)
        self.board = ScorePadBoard(screen=self)
        self.shown: PadShown | None = None
        self._rows: list[list[PadCell]] = []
        self._totals: list[TotalCell] = []
        self._built_for = 0
        titles: list[str] = []
        try:
            titles = presenter.past_titles(self.session.store.wins_by_game())
        except Exception:  # a games file that cannot be read still lets the table name its game by typing
            titles = []
        for title in titles:
            button = Factory.PastTitle(text=title)
            button.bind(on_release=lambda _b, t=title: self.choose_title(t))
            self.naming.ids.past.add_widget(button)
        self.naming.ids.past_heading.text = "Played here before:" if titles else ""
        return self.area

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
        if not shown.named:
            self.naming.wins = self.naming.wins or "highest"
            return
        self.title = shown.title
        self.turn_text = "Game over" if shown.over else shown.wins_words
        board = self.board
        self._build_columns(shown)
        self._fit_rows(len(shown.rows), len(shown.columns))
        for cells, row in zip(shown.rows, self._rows, strict=True):
            for cell, widget in zip(cells, row[1:], strict=True):
                widget.cell = cell
                widget.text = cell.text
                widget.disabled = not shown.tappable
        for column, total in zip(shown.columns, self._totals, strict=True):
            total.total = column.total
            total.leads = column.leads
            total.left = column.left
        board.leader = shown.leader
        board.can_add_round = shown.can_add_round
        board.can_end = shown.can_end
        board.wins_words = shown.wins_words

    def _build_columns(self, shown: PadShown) -> None:
        if self._built_for:
            return
        self._built_for = count = len(shown.columns)
        board = self.board
        board.ids.grid.cols = count + 1
        for column in shown.columns:
            board.ids.heads.add_widget(ColumnHead(name=column.player, colour=rgba(column.colour or "#3d4557")))
            total = TotalCell()
            self._totals.append(total)
            board.ids.totals.add_widget(total)

    def _fit_rows(self, rounds: int, count: int) -> None:
        grid = self.board.ids.grid
        while len(self._rows) < rounds:
            number = len(self._rows) + 1
            row: list[Any] = [Factory.RoundNumber(text=str(number))]
            for _ in range(count):
                cell = PadCell()
                cell.bind(on_release=self.open_pad)
                row.append(cell)
            for widget in row:
                grid.add_widget(widget)
            self._rows.append(row)
        while len(self._rows) > rounds:  # an undone round goes again
            for widget in self._rows.pop():
                grid.remove_widget(widget)

    # -- taps ----------------------------------------------------------------------------------

    def open_pad(self, cell: PadCell) -> NumberPadPopup | None:
        """A tap on a cell: the number pad for that player and round."""
        if cell.cell is None:
            return None
        pad = presenter.pad_for(cell.cell)
        popup: NumberPadPopup | None = self.open_once("pad", lambda: NumberPadPopup(pad, screen=self))
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
