"""The popups home opens: every name of a game, discard an unfinished game, wins per game, past games.

None is on the way to home's first frame (issue 26): this module and its rules are loaded when a popup is
first opened, or ahead of that tap after the first frame (`ui.screens.warm_ups`).
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock, ClockEvent
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.utils import escape_markup

from ui.kv import beside, load_kv
from ui.presenters import home as presenter
from ui.widgets.players import NamesLabel, WinsBar  # noqa: F401  (NamesLabel: a past game's names, in the rules)

if TYPE_CHECKING:
    from companion.record import Story
    from ui.presenters.home import WinsRow

load_kv(beside(__file__))

READ_AHEAD_SECONDS = 0.3
"""Past games reads its page's stories this long after it shows (one a frame), while the table looks for the
game: a tap on a row then finds its story read (issue 26: reading it was a third of that tap)."""


class NamesPopup(Popup):
    """Every player of one game, one name a line, whole."""

    heading = StringProperty("")
    text = StringProperty("")


class DiscardPopup(Popup):
    """Asks before an unfinished game is discarded: a tap on Discard in passing must not lose an evening."""

    question = StringProperty("")
    game_id = NumericProperty(0)
    home = ObjectProperty(None)


class WinsGameRow(BoxLayout):
    """One game in the wins chart: its title, then its top players' bars side by side."""

    title = StringProperty("")
    more = StringProperty("")

    def on_kv_post(self, base_widget: Any) -> None:
        from ui.widgets.fitting import fit_text  # loaded with the wins popup: not needed to start

        fit_text(self.ids.title_label, (19, 17, 15, 14), room=0)


class WinsPopup(Popup):
    """Wins per game per player: one row per game, a bar per player."""

    empty = BooleanProperty(True)

    def show(self, rows: list[WinsRow], columns: int = presenter.CHART_PLAYERS) -> None:
        self.ids.rows.clear_widgets()
        for row in rows:
            line = WinsGameRow(title=row.title, more=row.more_words)
            for bar in row.bars:
                line.ids.bars.add_widget(WinsBar(bar))
            for _ in range(columns - len(row.bars)):  # empty cells keep every row's bars in the same columns
                line.ids.bars.add_widget(BoxLayout())
            self.ids.rows.add_widget(line)
        self.empty = not rows

    @property
    def game_rows(self) -> list[WinsGameRow]:
        return list(reversed(self.ids.rows.children))


class PastGameRow(ButtonBehavior, BoxLayout):
    """One past game: game, result and when, players; a tap opens its Log.

    A game ended without a result has Take back: a tap, and it is unfinished again; the same button then
    resumes it. The row stays where it is (the next tap may aim at the row under it). A finished game's row has
    no such button (and no hidden target): it is taken out. Rows are used again for other games (`go`).
    """

    game_id = NumericProperty(0)
    title = StringProperty("")
    players = StringProperty("")
    names = ListProperty([])
    detail = StringProperty("")
    abandoned = BooleanProperty(False)
    taken_back = BooleanProperty(False)
    popup = ObjectProperty(None)

    def on_kv_post(self, base_widget: Any) -> None:
        # Held here: taken out for a finished game, and ids hold only weak references.
        self._take_back_button = self.ids.take_back_button.__self__
        self.on_abandoned(self, self.abandoned)

    def on_abandoned(self, _row: PastGameRow, abandoned: bool) -> None:
        button = getattr(self, "_take_back_button", None)  # None while its rules are being applied
        if button is None:
            return
        if abandoned and button.parent is None:
            self.add_widget(button)  # last: its place, at the right
        elif not abandoned and button.parent is self:
            self.remove_widget(button)


class PastGamesPopup(Popup):
    """Finished games, newest first, a few to a page: each opens its Log and replay.

    Home keeps it (issue 26): each opening and each page sets the rows it has to other games, and makes only the
    rows it lacks. A moment after, it reads the page's stories, one a frame, for their rows' taps; they are read
    again at the next opening (a game taken back and played on is another story).
    """

    home = ObjectProperty(None)
    page = NumericProperty(1)
    words = StringProperty("")
    has_newer = BooleanProperty(False)
    has_older = BooleanProperty(False)
    text = StringProperty("")
    """The page in words, one game a line."""

    def __init__(self, **kwargs: Any) -> None:
        self._made: list[PastGameRow] = []  # every row made, in page order; those in the box come first
        self.stories: dict[int, Story] = {}  # the page's stories read so far (`READ_AHEAD_SECONDS`)
        self._reading: ClockEvent | None = None
        super().__init__(**kwargs)

    def go(self, page: int) -> None:
        where, entries = self.home.past_page(page)
        self.page, self.words = where.page, where.words
        self.has_newer, self.has_older = where.has_newer, where.has_older
        box, made = self.ids.rows, self._made
        for i, entry in enumerate(entries):
            detail = f"{entry.result} · {entry.when}" if entry.when else entry.result
            shown = {
                "game_id": entry.game_id, "title": escape_markup(entry.title), "players": entry.players,
                "names": list(entry.names), "detail": escape_markup(detail), "abandoned": entry.abandoned,
                "taken_back": False,
            }  # fmt: skip
            if i == len(made):
                made.append(PastGameRow(popup=self, **shown))
            else:
                for name, value in shown.items():
                    setattr(made[i], name, value)
            if made[i].parent is None:
                box.add_widget(made[i])  # the rows before it are in: it goes under them
        for row in made[len(entries) :]:
            if row.parent is not None:
                box.remove_widget(row)
        self.text = "\n".join(entry.line for entry in entries)
        self._read_ahead([entry.game_id for entry in entries])

    def _read_ahead(self, game_ids: list[int]) -> None:
        """Read the stories of `game_ids` (this page's), one a frame, from a moment on; forget those read before."""
        self._stop_reading()
        self.stories = {}
        if game_ids:
            self._reading = Clock.schedule_once(lambda _dt: self._read_next(game_ids), READ_AHEAD_SECONDS)

    def _read_next(self, game_ids: list[int]) -> None:
        from companion.record import story
        from ui.screens.log import UNREADABLE

        game_id, rest = game_ids[0], game_ids[1:]
        with suppress(*UNREADABLE):  # its tap reads it again, and says why it cannot be read
            self.stories[game_id] = story(self.home.app.table.store, game_id)
        self._reading = Clock.schedule_once(lambda _dt: self._read_next(rest), 0) if rest else None

    def _stop_reading(self) -> None:
        if self._reading is not None:
            self._reading.cancel()
            self._reading = None

    def on_dismiss(self) -> None:
        self._stop_reading()

    def open_game(self, game_id: int) -> object | None:
        opened: object | None = self.home.open_past_game(game_id, self.stories.get(game_id))
        return opened

    def take_back(self, row: PastGameRow) -> None:
        """Take back: the game is unfinished again (the row stays, and says Resume); Resume: play it now."""
        if row.taken_back:
            self.dismiss()
            self.home.resume(row.game_id)
        elif self.home.take_back(row.game_id):
            row.taken_back = True
            self.stories.pop(row.game_id, None)  # unfinished again: its Log reads it as it is now
        else:  # the card refused the write: said here, where the table is looking
            self.words = self.home.notice

    @property
    def game_rows(self) -> list[PastGameRow]:
        return list(reversed(self.ids.rows.children))
