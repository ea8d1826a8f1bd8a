"""The home screen: who is at the table, which game, every unfinished game, wins and past games.

The games listed come from the registry through the home presenter
(`ui.presenters.home`); this screen names no game. It works with the app
only through `Shell`, so it does not import the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen

from companion.game import Options, Player, Refusal, SetupError
from ui.kv import beside, load_kv
from ui.presenters import home as presenter
from ui.presenters.home import Bar, GameEntry, PastGame, PastPage, UnfinishedEntry, Variant, WinsRow
from ui.theme import SEAT_COLOURS

if TYPE_CHECKING:
    from ui.table import Table

KV = beside(__file__)


class Shell(Protocol):
    """What the home screen needs from the app around it."""

    table: Table

    def last_players(self) -> tuple[Player, ...]: ...

    def start_game(self, game: str, options: Options) -> object: ...

    def resume_game(self, game_id: int | None = None) -> object: ...

    def discard(self, game_id: int) -> None: ...

    def choose_phones(self, listen: str | None) -> None: ...


class PlayerRow(BoxLayout):
    """One seat: a name and a colour (tap the swatch to change it)."""

    name = StringProperty("")
    colour = StringProperty(SEAT_COLOURS[0])
    seat = StringProperty("1")
    home = ObjectProperty(None)


class GameChoice(BoxLayout):
    """A big button for one game, and a toggle for its variant where it has one."""

    game = StringProperty("")
    title = StringProperty("")
    seats = StringProperty("")
    variant_text = StringProperty("")
    home = ObjectProperty(None)

    def __init__(self, entry: GameEntry, **kwargs: Any) -> None:
        super().__init__(game=entry.game, title=entry.title, seats=entry.seats, **kwargs)
        self.spec: Variant | None = entry.variant
        self.variant: object = None
        if self.spec is not None:
            self.choose(self.spec.default)
        else:
            self.remove_widget(self.ids.variant_button)

    def choose(self, value: object) -> None:
        """Show `value` (e.g. the config file's choice) if it is one of this game's variants."""
        if self.spec is not None and self.spec.has(value):
            self.variant = value
            self.variant_text = self.spec.words(value)

    def next_variant(self) -> None:
        if self.spec is not None:
            self.choose(self.spec.after(self.variant))

    def settings(self) -> dict[str, object]:
        """The variant chosen here, as the game's setting (nothing for games without one)."""
        return {self.spec.setting: self.variant} if self.spec is not None else {}


class UnfinishedRow(BoxLayout):
    """One unfinished game: game, players, moves, last played; Resume, and Discard (which asks first)."""

    game_id = NumericProperty(0)
    title = StringProperty("")
    players = StringProperty("")
    detail = StringProperty("")
    question = StringProperty("")
    home = ObjectProperty(None)

    def __init__(self, entry: UnfinishedEntry, **kwargs: Any) -> None:
        super().__init__(
            game_id=entry.game_id,
            title=entry.title,
            players=entry.players,
            detail=entry.detail,
            question=entry.question,
            **kwargs,
        )


class DiscardPopup(Popup):
    """Asks before an unfinished game is discarded: a tap on Discard in passing must not lose an evening."""

    question = StringProperty("")
    game_id = NumericProperty(0)
    home = ObjectProperty(None)


class HomeScreen(Screen):
    """Seats, games, unfinished games, wins and past games. Rows here are plain data until Start.

    The unfinished games sit in a fixed-height area under the seats, so the game buttons stay exactly where
    they are whether there are none or five (issue 14: a resume bar above them once turned "Quin" into "Quintet").
    The wins strip and Past games sit in a fixed-height bar under both panels, for the same reason.
    """

    notice = StringProperty("")
    has_unfinished = BooleanProperty(False)
    wins_text = StringProperty("")
    """The wins strip in words (`presenter.wins_line`): its bars' names and counts."""
    history_text = StringProperty("")
    """The newest past games in words, one a line."""
    games = ListProperty([])

    def __init__(self, app: Shell, **kwargs: Any) -> None:
        load_kv(KV)
        self.app = app
        super().__init__(name="home", **kwargs)
        for entry in presenter.game_entries():
            choice = GameChoice(entry, home=self)
            if entry.variant is not None:
                choice.choose(self.app.table.config.settings_for(entry.game).get(entry.variant.setting))
            self.ids.games.add_widget(choice)
        defaults = (Player("Player 1", SEAT_COLOURS[0]), Player("Player 2", SEAT_COLOURS[1]))
        for player in self.app.last_players() or defaults:
            self.add_player(player.name, player.colour)
        self.refresh()

    # -- seats -----------------------------------------------------------------

    @property
    def rows(self) -> list[PlayerRow]:
        return list(reversed(self.ids.players.children))

    def add_player(self, name: str = "", colour: str = "") -> None:
        rows = self.rows
        if len(rows) >= presenter.MAX_SEATS:
            self.notice = f"At most {presenter.MAX_SEATS} players fit around the table."
            return
        colour = colour or presenter.free_colour(row.colour for row in rows)
        row = PlayerRow(name=name or f"Player {len(rows) + 1}", colour=colour, home=self)
        self.ids.players.add_widget(row)
        self._renumber()

    def remove_player(self, row: PlayerRow) -> None:
        self.ids.players.remove_widget(row)
        self._renumber()

    def next_colour(self, row: PlayerRow) -> None:
        row.colour = presenter.next_colour(row.colour, (r.colour for r in self.rows if r is not row))

    def _renumber(self) -> None:
        for seat, row in enumerate(self.rows, start=1):
            row.seat = str(seat)

    def options(self) -> Options:
        return Options(tuple(Player(row.name.strip(), row.colour) for row in self.rows))

    # -- games ---------------------------------------------------------------

    def start(self, game: str, settings: dict[str, object] | None = None) -> None:
        try:
            self.app.start_game(game, Options(self.options().players, settings or {}))
        except (SetupError, Refusal) as problem:
            self.notice = str(problem)

    def resume(self, game_id: int) -> None:
        self.app.resume_game(game_id)

    def ask_discard(self, row: UnfinishedRow) -> DiscardPopup:
        popup = DiscardPopup(question=row.question, game_id=row.game_id, home=self)
        popup.open()
        return popup

    def discard(self, game_id: int) -> None:
        self.app.discard(game_id)
        self.refresh()

    @property
    def unfinished_rows(self) -> list[UnfinishedRow]:
        return list(reversed(self.ids.unfinished.children))

    def refresh(self) -> None:
        store = self.app.table.store
        entries = presenter.unfinished_entries(store.unfinished_games(), self.app.table.clock())
        self.ids.unfinished.clear_widgets()
        for entry in entries:
            self.ids.unfinished.add_widget(UnfinishedRow(entry, home=self))
        self.has_unfinished = bool(entries)
        # The tally and one page: both cost the same after 10 games as after 10,000 (bench/bench_store.py).
        wins = store.win_counts()
        self.wins_text = presenter.wins_line(wins)
        self.ids.wins_button.show(presenter.wins_strip(wins))
        newest = presenter.past_games(store.finished(limit=presenter.PAST_PER_PAGE), self.app.table.clock())
        self.history_text = "\n".join(entry.line for entry in newest)
        if store.notice and store.notice not in self.notice:  # damage found (and salvaged) since the start
            self.notice = f"{self.notice} {store.notice}".strip()

    # -- wins and past games -------------------------------------------------------

    def show_wins(self) -> WinsPopup:
        popup = WinsPopup()
        popup.show(presenter.wins_chart(self.app.table.store.wins_by_game()))
        popup.open()
        return popup

    def show_past_games(self) -> PastGamesPopup:
        popup = PastGamesPopup(home=self)
        popup.go(1)
        popup.open()
        return popup

    def show_settings(self) -> Any:
        from ui.widgets.settings import SettingsPopup  # loaded on the tap: not needed to start

        popup = SettingsPopup(app=self.app)
        popup.open()
        return popup

    def past_page(self, page: int) -> tuple[PastPage, list[PastGame]]:
        """Page `page` of the finished games, newest first: only its rows are read."""
        store = self.app.table.store
        where = PastPage(1, store.finished_count()).to(page)
        records = store.finished(limit=where.per_page, offset=where.offset)
        return where, presenter.past_games(records, self.app.table.clock())

    def open_past_game(self, game_id: int) -> object | None:
        """The game's Log, to read and replay (the Log screen is loaded only now: it is not needed to start).

        A game that cannot be read gets the Log's own sentence, and None.
        """
        from ui.screens import screen_class
        from ui.screens.log import open_past_game

        return open_past_game(self.app.table.store, game_id, screen_class)


class WinsStrip(ButtonBehavior, BoxLayout):
    """The wins on home: the players with the most wins as small bars; a tap opens the wins per game."""

    empty = BooleanProperty(True)

    def show(self, bars: tuple[Bar, ...]) -> None:
        self.ids.bars.clear_widgets()
        for bar in bars:
            self.ids.bars.add_widget(WinsBar(name=bar.name, count=bar.count, share=bar.share, colour=bar.colour))
        self.empty = not bars


class WinsBar(BoxLayout):
    """One player's bar: name and count above, a bar as long as their share of the best."""

    name = StringProperty("")
    count = NumericProperty(0)
    share = NumericProperty(0.0)
    colour = StringProperty(SEAT_COLOURS[0])


class WinsGameRow(BoxLayout):
    """One game in the wins chart: its title, then its top players' bars side by side."""

    title = StringProperty("")
    more = StringProperty("")


class WinsPopup(Popup):
    """Wins per game per player: one row per game, a bar per player."""

    empty = BooleanProperty(True)

    def show(self, rows: list[WinsRow], columns: int = presenter.CHART_PLAYERS) -> None:
        self.ids.rows.clear_widgets()
        for row in rows:
            line = WinsGameRow(title=row.title, more=row.more_words)
            for bar in row.bars:
                line.ids.bars.add_widget(WinsBar(name=bar.name, count=bar.count, share=bar.share, colour=bar.colour))
            for _ in range(columns - len(row.bars)):  # empty cells keep every row's bars in the same columns
                line.ids.bars.add_widget(BoxLayout())
            self.ids.rows.add_widget(line)
        self.empty = not rows

    @property
    def game_rows(self) -> list[WinsGameRow]:
        return list(reversed(self.ids.rows.children))


class PastGameRow(ButtonBehavior, BoxLayout):
    """One finished game: game and players, result and when; a tap opens its Log."""

    game_id = NumericProperty(0)
    title = StringProperty("")
    players = StringProperty("")
    detail = StringProperty("")
    popup = ObjectProperty(None)


class PastGamesPopup(Popup):
    """Finished games, newest first, a few to a page: each opens its Log and replay."""

    home = ObjectProperty(None)
    page = NumericProperty(1)
    words = StringProperty("")
    has_newer = BooleanProperty(False)
    has_older = BooleanProperty(False)
    text = StringProperty("")
    """The page in words, one game a line."""

    def go(self, page: int) -> None:
        where, entries = self.home.past_page(page)
        self.page, self.words = where.page, where.words
        self.has_newer, self.has_older = where.has_newer, where.has_older
        self.ids.rows.clear_widgets()
        for entry in entries:
            detail = f"{entry.result} · {entry.when}" if entry.when else entry.result
            row = PastGameRow(game_id=entry.game_id, title=entry.title, players=entry.players, detail=detail)
            row.popup = self
            self.ids.rows.add_widget(row)
        self.text = "\n".join(entry.line for entry in entries)

    def open_game(self, game_id: int) -> object | None:
        return self.home.open_past_game(game_id)

    @property
    def game_rows(self) -> list[PastGameRow]:
        return list(reversed(self.ids.rows.children))
