"""The home screen: who is at the table, which game, resume, and the history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen

from companion.game import Options, Player, Refusal, SetupError
from companion.games import names, rules_for
from ui.screens.base import format_clock

if TYPE_CHECKING:
    from ui.app import CompanionApp

# A game's variant the table may pick on the home screen: the setting it
# sets, the words on the toggle for each value, and the value when off.
VARIANTS: dict[str, tuple[str, dict[object, str]]] = {
    "quin": ("capture_rule", {"key": "Captures: the Key", "arcade": "Captures: Arcade"}),
    "quinque": ("advanced", {False: "Moves: basic", True: "Moves: advanced"}),
}

# Five clearly different colours, one per seat, that read on a dark screen.
PALETTE = ("#e53935", "#1e88e5", "#43a047", "#fdd835", "#8e24aa")
MAX_SEATS = 5
MIN_SEATS = 2


def hex_to_rgba(colour: str) -> tuple[float, float, float, float]:
    value = colour.lstrip("#")
    r, g, b = (int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b, 1.0


class PlayerRow(BoxLayout):
    """One seat: a name and a colour (tap the swatch to change it)."""

    name = StringProperty("")
    colour = StringProperty(PALETTE[0])
    seat = StringProperty("1")
    home = ObjectProperty(None)


class GameChoice(BoxLayout):
    """A big button for one game, and a toggle for its variant where it has one."""

    game = StringProperty("")
    title = StringProperty("")
    seats = StringProperty("")
    variant_text = StringProperty("")
    home = ObjectProperty(None)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.variant: object = None
        if self.game in VARIANTS:
            _setting, words = VARIANTS[self.game]
            self.variant = next(iter(words))
            self.variant_text = words[self.variant]
        else:
            self.remove_widget(self.ids.variant_button)

    def choose(self, value: object) -> None:
        """Show `value` (e.g. the config file's choice) if it is one of this game's variants."""
        words = VARIANTS[self.game][1] if self.game in VARIANTS else {}
        if value in words:
            self.variant = value
            self.variant_text = words[value]

    def next_variant(self) -> None:
        values = list(VARIANTS[self.game][1])
        self.choose(values[(values.index(self.variant) + 1) % len(values)])

    def settings(self) -> dict[str, object]:
        """The variant chosen here, as the game's setting (nothing for games without one)."""
        return {VARIANTS[self.game][0]: self.variant} if self.game in VARIANTS else {}


class HomeScreen(Screen):
    """Seats, games, resume and results. Rows here are plain data until Start."""

    notice = StringProperty("")
    resume_text = StringProperty("")
    has_resume = BooleanProperty(False)
    wins_text = StringProperty("")
    history_text = StringProperty("")
    games = ListProperty([])

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        self.app = app
        super().__init__(name="home", **kwargs)
        for name in names():
            try:
                rules = rules_for(name)
            except (ImportError, AttributeError):  # a game still on its way: not listed yet
                continue
            choice = GameChoice(game=name, title=rules.title, home=self)
            if name in VARIANTS:
                choice.choose(self.app.table.config.settings_for(name).get(VARIANTS[name][0]))
            low, high = rules.min_players, rules.max_players
            choice.seats = f"{low} players" if low == high else f"{low}–{high} players"
            self.ids.games.add_widget(choice)
        for player in self.app.last_players() or (Player("Player 1", PALETTE[0]), Player("Player 2", PALETTE[1])):
            self.add_player(player.name, player.colour)
        self.refresh()

    # -- seats -----------------------------------------------------------------

    @property
    def rows(self) -> list[PlayerRow]:
        return list(reversed(self.ids.players.children))

    def add_player(self, name: str = "", colour: str = "") -> None:
        rows = self.rows
        if len(rows) >= MAX_SEATS:
            self.notice = f"At most {MAX_SEATS} players fit around the table."
            return
        taken = {row.colour for row in rows}
        colour = colour or next(c for c in PALETTE if c not in taken)
        row = PlayerRow(name=name or f"Player {len(rows) + 1}", colour=colour, home=self)
        self.ids.players.add_widget(row)
        self._renumber()

    def remove_player(self, row: PlayerRow) -> None:
        self.ids.players.remove_widget(row)
        self._renumber()

    def next_colour(self, row: PlayerRow) -> None:
        taken = {r.colour for r in self.rows if r is not row}
        start = PALETTE.index(row.colour) if row.colour in PALETTE else -1
        for step in range(1, len(PALETTE) + 1):
            candidate = PALETTE[(start + step) % len(PALETTE)]
            if candidate not in taken:
                row.colour = candidate
                return

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

    def resume(self) -> None:
        self.app.resume_game()

    def discard(self) -> None:
        self.app.discard_unfinished()
        self.refresh()

    def refresh(self) -> None:
        store = self.app.table.store
        record = store.unfinished()
        self.has_resume = record is not None
        if record is not None:
            players = ", ".join(p["name"] for p in record.options.get("players", []))
            try:
                title = rules_for(record.game).title
            except (LookupError, ImportError):
                title = record.game
            moves = store.move_count(record.id)
            self.resume_text = f"{title} with {players}: {moves} moves, {format_clock(record.elapsed)} played"
        wins = store.win_counts()
        self.wins_text = "   ".join(f"{name} {count}" for name, count in list(wins.items())[:8]) or "No games yet."
        lines = []
        for game in store.finished(limit=30):
            winners = ", ".join((game.outcome or {}).get("winners", []))
            players = ", ".join(p["name"] for p in game.options.get("players", []))
            result = f"won by {winners}" if winners else "a tie"
            lines.append(f"[b]{_title(game.game)}[/b]  {players}: {result}, {format_clock(game.elapsed)}")
        self.history_text = "\n".join(lines) or "No finished games yet."
        if store.notice and store.notice not in self.notice:  # damage found (and salvaged) since the start
            self.notice = f"{self.notice} {store.notice}".strip()

    def show_history(self) -> None:
        HistoryPopup(text=self.history_text).open()


class HistoryPopup(Popup):
    """Finished games, newest first: game, players, winner and length."""

    text = StringProperty("")


def _title(game: str) -> str:
    try:
        return rules_for(game).title
    except (LookupError, ImportError, AttributeError):
        return game
