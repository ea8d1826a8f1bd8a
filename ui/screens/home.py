"""The home screen: who is at the table, which game, every unfinished game, and the history.

The games listed come from the registry through the home presenter
(`ui.presenters.home`); this screen names no game. It works with the app
only through `Shell`, so it does not import the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen

from companion.game import Options, Player, Refusal, SetupError
from ui.kv import beside, load_kv
from ui.presenters import home as presenter
from ui.presenters.home import GameEntry, UnfinishedEntry, Variant
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
    """Seats, games, unfinished games and results. Rows here are plain data until Start.

    The unfinished games sit in a fixed-height area under the seats, so the game buttons stay exactly where
    they are whether there are none or five (issue 14: a resume bar above them once turned "Quin" into "Quintet").
    """

    notice = StringProperty("")
    has_unfinished = BooleanProperty(False)
    wins_text = StringProperty("")
    history_text = StringProperty("")
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
        self.wins_text = presenter.wins_line(store.win_counts())
        self.history_text = presenter.history_text(list(store.finished(limit=30)))
        if store.notice and store.notice not in self.notice:  # damage found (and salvaged) since the start
            self.notice = f"{self.notice} {store.notice}".strip()

    def show_history(self) -> None:
        HistoryPopup(text=self.history_text).open()


class HistoryPopup(Popup):
    """Finished games, newest first: game, players, winner and length."""

    text = StringProperty("")
