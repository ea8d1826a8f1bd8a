"""The home screen: who is at the table, which game, every unfinished game, wins and past games.

The games listed come from the registry through the home presenter
(`ui.presenters.home`); this screen names no game. It works with the app
only through `Shell`, so it does not import the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.graphics import Color, Line
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion.game import Options, Player, Refusal, SetupError
from companion.names import name_problem, normal_name
from ui import theme
from ui.kv import beside, load_kv
from ui.presenters import Variant
from ui.presenters import home as presenter
from ui.presenters.home import Bar, GameEntry, PastGame, PastPage, UnfinishedEntry
from ui.theme import SEAT_COLOURS
from ui.widgets.lists import FitScroll  # noqa: F401  (home.kv's lists: a tap on a row that fits is not held back)
from ui.widgets.players import NamesLabel, WinsBar  # noqa: F401  (NamesLabel: an unfinished game's names, in home.kv)
from ui.widgets.shapes import outline

if TYPE_CHECKING:  # the popups are loaded when first opened: not on the way to home's first frame
    from companion.record import Story
    from ui.screens.home_popups import DiscardPopup, NamesPopup, PastGamesPopup, WinsPopup
    from ui.table import Table
    from ui.widgets.fitted_popup import KeptPopups

KV = beside(__file__)


class Shell(Protocol):
    """What the home screen needs from the app around it."""

    table: Table

    def last_players(self) -> tuple[Player, ...]: ...

    def start_game(self, game: str, options: Options) -> object: ...

    def resume_game(self, game_id: int | None = None) -> object: ...

    def discard(self, game_id: int) -> None: ...

    def take_back(self, game_id: int) -> str | None: ...

    def choose_phones(self, listen: str | None) -> None: ...

    def choices_changed(self) -> None: ...


NOTICE_SECONDS = 8.0
"""How long a notice on home stays before it goes by itself."""


class NameField(TextInput):
    """A seat's name field, flat, and framed in the accent colour while it is typed into.

    Kivy's own field draws from its theme's images, whose atlas home's first frame would load for the name
    fields alone (issue 26: start-up). The frame is on the canvas only while the field has the focus: a line
    in a clear colour would be built again at every size the layout passes through (docs/architecture.md,
    "Drawing only what shows")."""

    background_normal = StringProperty("")
    background_active = StringProperty("")
    background_disabled_normal = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._frame: tuple[Color, Line] | None = None
        self.fbind("focus", self._show_frame)
        self.fbind("pos", self._place_frame)
        self.fbind("size", self._place_frame)

    def _show_frame(self, *_: Any) -> None:
        if self.focus and self._frame is None:
            with self.canvas.after:
                self._frame = (Color(*theme.ACCENT), outline(width=dp(2)))
            self._place_frame()
        elif not self.focus and self._frame is not None:
            for instruction in self._frame:
                self.canvas.after.remove(instruction)
            self._frame = None

    def _place_frame(self, *_: Any) -> None:
        if self._frame is not None:
            self._frame[1].rectangle = (self.x + dp(1), self.y + dp(1), self.width - dp(2), self.height - dp(2))


class PlayerRow(BoxLayout):
    """One seat: its number on its colour (tap it to change the colour), the name, and × to remove it."""

    name = StringProperty("")
    colour = StringProperty(SEAT_COLOURS[0])
    seat = StringProperty("1")
    problem = StringProperty("")
    """Why the name as typed cannot be used (one sentence), or empty."""
    ink = StringProperty("#ffffff")
    """The chip's number: black or white, whichever reads on the colour."""
    home = ObjectProperty(None)

    def on_kv_post(self, base_widget: Any) -> None:
        self.ink = presenter.ink_on(self.colour)

    def on_colour(self, *_: Any) -> None:
        self.ink = presenter.ink_on(self.colour)


class RemovedRow(BoxLayout):
    """A seat just removed, kept in its place as "Bo removed · Undo" until the table does something else."""

    words = StringProperty("")
    home = ObjectProperty(None)

    def __init__(self, row: PlayerRow, **kwargs: Any) -> None:
        self.row = row
        super().__init__(words=f"{normal_name(row.name) or 'A player'} removed", **kwargs)


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
        self.variant_button: Widget | None = None
        if self.spec is not None:
            self.variant_button = Factory.VariantButton(on_release=lambda _button: self.next_variant())
            self.fbind("variant_text", self.variant_button.setter("text"))
            self.add_widget(self.variant_button)
            self.choose(self.spec.default)

    def choose(self, value: object) -> None:
        """Show `value` (e.g. the config file's choice) if it is one of this game's variants."""
        if self.spec is not None and self.spec.has(value):
            self.variant = value
            self.variant_text = self.spec.words(value)

    def next_variant(self) -> None:
        if self.spec is not None:
            self.choose(self.spec.after(self.variant))
            self.home.app.choices_changed()

    def settings(self) -> dict[str, object]:
        """The variant chosen here, as the game's setting (nothing for games without one)."""
        return {self.spec.setting: self.variant} if self.spec is not None else {}


class UnfinishedRow(BoxLayout):
    """One unfinished game: game, moves, last played, players; Resume, and Discard (which asks first)."""

    game_id = NumericProperty(0)
    title = StringProperty("")
    players = StringProperty("")
    names = ListProperty([])
    """Every player's name (a tap on the row's words shows them whole, one a line)."""
    detail = StringProperty("")
    plain_title = StringProperty("")
    """The game's title and its moves and when, as they are (the row's words show them as markup)."""
    plain_detail = StringProperty("")
    question = StringProperty("")
    home = ObjectProperty(None)

    def __init__(self, entry: UnfinishedEntry, **kwargs: Any) -> None:
        super().__init__(
            game_id=entry.game_id,
            title=escape_markup(entry.title),
            players=entry.players,
            names=list(entry.names),
            detail=escape_markup(entry.detail),
            plain_title=entry.title,
            plain_detail=entry.detail,
            question=entry.question,
            **kwargs,
        )


class UnfinishedView(RelativeLayout):
    """The unfinished games page of home: every game left for later, newest first, to resume or discard."""

    home = ObjectProperty(None)


class NamesButton(ButtonBehavior, BoxLayout):
    """A row's words: a tap shows every name whole when they are too many for the row."""


class HomeScreen(Screen):
    """Seats, games, unfinished games, wins and past games. Rows here are plain data until Start.

    The right panel has two pages a tap apart, new games and unfinished games, each in a fixed place, so
    the game buttons stay exactly where they are whether there are none or five unfinished games (issue 14:
    a resume bar above them once turned "Quin" into "Quintet"). Five seats fit whole in the left panel.
    Notices have a line of their own above the wins, covering nothing, and go by themselves (issue 21).
    """

    notice = StringProperty("")
    """The latest notice (a refusal, the card's weather); it goes by itself after `NOTICE_SECONDS`."""
    name_problem = StringProperty("")
    """Why a name as typed cannot be used: shown under the seats until it is fixed."""
    shown_notice = StringProperty("")
    colour_problem = StringProperty("")
    """Two seated colours hard to tell apart, in one sentence (issue 28); shown while no other notice is."""
    notice_too_long = BooleanProperty(False)
    """The shown notice is longer than its two lines: it is shortened, and a tap shows it whole."""
    has_unfinished = BooleanProperty(False)
    unfinished_words = StringProperty("Unfinished")
    tab = StringProperty("games")
    wins_text = StringProperty("")
    """The wins strip in words (`presenter.wins_line`): its bars' names and counts."""
    history_text = StringProperty("")
    """The newest past games in words, one a line."""
    games = ListProperty([])
    tools_hint = StringProperty("")
    """The cue on the notice line, while no notice is shown, that the tools wait below the games ("More below,
    under Any game: Dice tray, ..."); "" once their heading is in sight, on the Unfinished page, or with no tool."""

    def __init__(self, app: Shell, **kwargs: Any) -> None:
        load_kv(KV)
        self.app = app
        self._notice_clock: Any = None
        self._store_notices: set[str] = set()
        self._names_notice = ""
        self._colours_read: set[frozenset[str]] = set()  # pairs of colours a tap on the colour sentence put away
        self._wins: tuple[Bar, ...] = ()
        self._bars_shown: tuple[Bar, ...] | None = None
        self._kept: KeptPopups | None = None  # Settings, Past games and a past game's Log, once first opened
        super().__init__(name="home", **kwargs)
        self._unfinished_view: UnfinishedView | None = None  # made when first shown (`unfinished_view`)
        self._unfinished: list[UnfinishedEntry] = []
        self.ids.notice.bind(width=self._fit_notice)  # two lines hold more on a wider screen
        # Held here: off screen, a page is no one's child, and `ids` holds only weak references.
        self.games_view = self.ids.games_view.__self__
        for entry in presenter.game_entries():
            choice = GameChoice(entry, home=self)
            if entry.variant is not None:
                choice.choose(self.app.table.config.settings_for(entry.game).get(entry.variant.setting))
            (self.ids.tools if entry.tool else self.ids.games).add_widget(choice)  # tools under "Any game"
        if not self.ids.tools.children:
            self.ids.any_game_heading.parent.remove_widget(self.ids.any_game_heading)
        self._tools_words = escape_markup(presenter.tools_hint(presenter.game_entries()))
        # whether the tools are in sight changes with the list's scrolling and size, and with the page shown
        # (measured on the next frame, once the list is laid out)
        self._hint_trigger = Clock.create_trigger(self._place_hint)
        self.games_view.bind(scroll_y=self._hint_trigger, size=self._hint_trigger, pos=self._hint_trigger)
        self.ids.tools.bind(pos=self._hint_trigger)
        defaults = (Player("Player 1", SEAT_COLOURS[0]), Player("Player 2", SEAT_COLOURS[1]))
        for player in self.app.last_players() or defaults:
            self.add_player(player.name, player.colour)
        self._seats_changed()  # names (or colours) from a game saved before today's rules are said so at once
        self.refresh()

    # -- notices -------------------------------------------------------------------

    def on_notice(self, *_: Any) -> None:
        self._time_notice()
        self._show_notice()

    def _time_notice(self) -> None:
        """A notice goes after `NOTICE_SECONDS` of being on screen: the clock runs only while home is shown, so
        a notice made while a game is on (damage found at a restart that went straight back into the game)
        waits for the table's return home."""
        if self._notice_clock is not None:
            self._notice_clock.cancel()
            self._notice_clock = None
        if self.notice and self.manager is not None and self.manager.current == self.name:
            self._notice_clock = Clock.schedule_once(lambda _dt: self.clear_notice(), NOTICE_SECONDS)

    def on_enter(self, *_: Any) -> None:
        self._time_notice()

    def on_leave(self, *_: Any) -> None:
        if self._notice_clock is not None:
            self._notice_clock.cancel()
            self._notice_clock = None

    def on_name_problem(self, *_: Any) -> None:
        if self._names_notice and self.notice == self._names_notice:  # the name it repeated is fixed or changed
            self.notice = ""
        self._show_notice()

    def on_colour_problem(self, *_: Any) -> None:
        self._show_notice()

    def _show_notice(self) -> None:
        self.shown_notice = self.name_problem or self.notice or self.colour_problem
        self._fit_notice()

    def _fit_notice(self, *_: Any) -> None:
        self.notice_too_long = not self._fits_notice_line(self.shown_notice)

    def _fits_notice_line(self, text: str) -> bool:
        """Whether `text` fits the notice line's two lines, wrapped."""
        label = self.ids.notice
        room = label.width - dp(16)
        if not text or room <= 0:
            return True
        core = CoreLabel(text=text, font_size=label.font_size, font_name=label.font_name, text_size=(room, None))
        core.refresh()
        line = CoreLabel(text="Ag", font_size=label.font_size, font_name=label.font_name)
        line.refresh()
        return bool(core.content_height <= 2 * line.content_height + 1)

    def clear_notice(self) -> None:
        self.notice = ""

    def _place_hint(self, *_: Any) -> None:
        """The tools' cue shows while the "Any game" heading is not wholly in sight in the games list."""
        heading = self.ids.get("any_game_heading")
        if not self._tools_words or heading is None or heading.parent is None or self.tab != "games":
            self.tools_hint = ""
            return
        view = self.games_view
        bottom = view.to_window(view.x, view.y)[1]
        below = heading.to_window(heading.x, heading.y)[1] < bottom - 1  # a pixel of rounding
        self.tools_hint = self._tools_words if below else ""

    def show_tools(self) -> None:
        """The games list scrolled to its end: the "Any game" heading and the tools under it."""
        if self.tab != "games":
            self.show_tab("games")
        self.games_view.scroll_y = 0

    def read_notice(self) -> NamesPopup | None:
        """A tap on the notice line puts it away; one too long for its two lines is shown whole first. With no
        notice, a tap on the tools' cue shows the tools.

        The colour sentence is put away for those colours: a table that chose them on purpose is not told
        again (another pair of colours alike is said).
        """
        text = self.shown_notice
        if not text:
            if self.tools_hint:
                self.show_tools()
            return None
        if text == self.colour_problem:
            self._colours_read |= presenter.colour_pairs(self._seat_colours())
            self._seats_changed()
        self.notice = ""
        self._show_notice()
        if self._fits_notice_line(text):
            return None
        from ui.screens.home_popups import NamesPopup

        popup = NamesPopup(heading="Notice", text=text)
        popup.open()
        return popup

    # -- seats -----------------------------------------------------------------

    @property
    def slots(self) -> list[Any]:
        """Every row in the seats' panel, top to bottom: seats and seats just removed."""
        return list(reversed(self.ids.players.children))

    @property
    def rows(self) -> list[PlayerRow]:
        """The seated players' rows, top to bottom."""
        return [row for row in self.slots if isinstance(row, PlayerRow)]

    def add_player(self, name: str = "", colour: str = "") -> None:
        rows = self.rows
        if len(rows) >= presenter.MAX_SEATS:
            self.notice = f"At most {presenter.MAX_SEATS} players fit around the table."
            return
        colour = colour or presenter.free_colour(row.colour for row in rows)
        row = PlayerRow(name=name or self._free_name(), colour=colour, home=self)
        removed = next((slot for slot in self.slots if isinstance(slot, RemovedRow)), None)
        if removed is not None:  # the new seat takes a removed one's place: nothing else moves
            index = self.ids.players.children.index(removed)
            self.ids.players.remove_widget(removed)
            self.ids.players.add_widget(row, index=index)
        else:
            self.ids.players.add_widget(row)
        self._renumber()
        self._seats_changed()

    def _free_name(self) -> str:
        taken = {normal_name(row.name) for row in self.rows}
        return next(f"Player {n}" for n in range(1, presenter.MAX_SEATS + 2) if f"Player {n}" not in taken)

    def remove_player(self, row: PlayerRow) -> None:
        """Remove a seat: its row stays in its place as "Bo removed · Undo" until a game starts, so nothing
        moves under a finger (not even when a second seat is removed); a new seat takes its place."""
        index = self.ids.players.children.index(row)
        row = self.ids.players.children[index]  # the row itself: kv hands over a weak proxy, and Undo must keep it
        self.ids.players.remove_widget(row)
        self.ids.players.add_widget(RemovedRow(row, home=self), index=index)
        self._renumber()
        self._seats_changed()

    def undo_remove(self, removed: RemovedRow) -> None:
        if len(self.rows) >= presenter.MAX_SEATS:
            self.notice = f"At most {presenter.MAX_SEATS} players fit around the table."
            return
        index = self.ids.players.children.index(removed)
        self.ids.players.remove_widget(removed)
        self.ids.players.add_widget(removed.row, index=index)
        self._renumber()
        self._seats_changed()

    def _settle_removed(self) -> None:
        """Seats removed go for good once a game starts (home is not on screen then: nothing moves in sight)."""
        for slot in self.slots:
            if isinstance(slot, RemovedRow):
                self.ids.players.remove_widget(slot)

    def next_colour(self, row: PlayerRow) -> None:
        row.colour = presenter.next_colour(row.colour, (r.colour for r in self.rows if r is not row))
        self._seats_changed()

    def name_typed(self, row: PlayerRow, text: str) -> None:
        """A name as it is typed: kept as typed (nothing lost), and checked against the table's other names."""
        row.name = text
        self._seats_changed()

    def _seats_changed(self) -> None:
        """Names checked, colours compared, and the wins strip's bars in the seats' colours again."""
        self._check_names()
        self.colour_problem = presenter.colour_warning(self._seat_colours(), self._colours_read)
        self._show_wins()
        self.app.choices_changed()

    def _seat_colours(self) -> list[tuple[str, str]]:
        return [(row.name, row.colour) for row in self.rows]

    def _show_wins(self) -> None:
        seats = [(normal_name(row.name), row.colour) for row in self.rows]
        bars = presenter.in_seat_colours(self._wins, seats)
        if bars != self._bars_shown:  # a keystroke that changes no bar redraws none
            self._bars_shown = bars
            self.ids.wins_button.show(bars)

    def name_focus(self, row: PlayerRow, focus: bool) -> None:
        if not focus and not row.problem:  # the field left: the name as the table keeps it
            row.name = normal_name(row.name)
            row.ids.name_input.text = row.name

    def _check_names(self) -> None:
        rows = self.rows
        for seat, row in enumerate(rows):
            row.problem = name_problem(row.name, [r.name for r in rows[:seat]]) or ""
        self.name_problem = next((f"Seat {row.seat}: {row.problem}" for row in rows if row.problem), "")

    def _renumber(self) -> None:
        for seat, row in enumerate(self.rows, start=1):
            row.seat = str(seat)

    def options(self) -> Options:
        return Options(tuple(Player(normal_name(row.name), row.colour) for row in self.rows))

    def new_games(self) -> list[tuple[str, Options]]:
        """Each game on the list (not the tools) with the options its Start would give it now; none while a
        name stands in the way of every Start."""
        if self.name_problem:
            return []
        players = self.options().players
        choices = reversed(self.ids.games.children)
        return [(choice.game, Options(players, choice.settings())) for choice in choices]

    # -- games ---------------------------------------------------------------

    def show_tab(self, tab: str) -> None:
        """Show the new games ("games") or the unfinished games ("unfinished") in the right panel."""
        self.tab = tab
        area = self.ids.tab_area
        area.clear_widgets()
        area.add_widget(self.games_view if tab == "games" else self.unfinished_view)
        self.ids.games_tab.state = "down" if tab == "games" else "normal"
        self.ids.unfinished_tab.state = "normal" if tab == "games" else "down"
        self._hint_trigger()  # once the page shown is laid out

    def start(self, game: str, settings: dict[str, object] | None = None) -> None:
        self._check_names()
        if self.name_problem:
            self.notice = self._names_notice = self.name_problem  # the tap is answered: the same sentence
            return
        try:
            self.app.start_game(game, Options(self.options().players, settings or {}))
        except (SetupError, Refusal) as problem:
            self.notice = str(problem)  # shown now, for this tap; it goes by itself
            return
        self._settle_removed()
        self.notice = ""  # it answered an earlier tap: it does not come back on the next return home

    def resume(self, game_id: int) -> None:
        self.notice = ""
        self.app.resume_game(game_id)

    def ask_discard(self, row: UnfinishedRow) -> DiscardPopup:
        from ui.screens.home_popups import DiscardPopup

        popup = DiscardPopup(question=row.question, game_id=row.game_id, home=self)
        popup.open()
        return popup

    def discard(self, game_id: int) -> None:
        self.app.discard(game_id)
        self.refresh()

    def take_back(self, game_id: int) -> bool:
        """A game ended without a result, back among the unfinished games; whether it is."""
        refused = self.app.take_back(game_id)
        self.refresh()
        if refused:
            self.notice = refused
        return not refused

    def show_game(self, title: str, detail: str, names: list[str]) -> NamesPopup:
        """An unfinished game's row whole: its moves and when, then every player, one a line."""
        from ui.screens.home_popups import NamesPopup

        popup = NamesPopup(heading=f"{title}: {len(names)} players", text="\n".join([detail, "", *names]))
        popup.open()
        return popup

    @property
    def unfinished_view(self) -> UnfinishedView:
        """The Unfinished page, made when first shown: home's first frame shows New game (issue 26)."""
        if self._unfinished_view is None:
            self._unfinished_view = UnfinishedView(home=self)
            self._list_unfinished()
        return self._unfinished_view

    @property
    def unfinished_ids(self) -> list[int]:
        """The unfinished games listed, newest first (as last read by `refresh`)."""
        return [entry.game_id for entry in self._unfinished]

    @property
    def unfinished_rows(self) -> list[UnfinishedRow]:
        return list(reversed(self.unfinished_view.ids.unfinished.children))

    def _list_unfinished(self) -> None:
        if self._unfinished_view is None:
            return  # listed when the page is first shown
        rows = self._unfinished_view.ids.unfinished
        rows.clear_widgets()
        for entry in self._unfinished:
            rows.add_widget(UnfinishedRow(entry, home=self))

    def refresh(self) -> None:
        store = self.app.table.store
        entries = presenter.unfinished_entries(store.unfinished_games(), self.app.table.clock())
        self._unfinished = entries
        self._list_unfinished()
        self.has_unfinished = bool(entries)
        self.unfinished_words = f"Unfinished · {len(entries)}" if entries else "Unfinished"
        self.show_tab(self.tab)
        # The tally and one page: both cost the same after 10 games as after 10,000 (bench/bench_store.py).
        wins = store.win_counts()
        self.wins_text = presenter.wins_line(wins)
        self._wins = presenter.wins_strip(wins)
        self._show_wins()
        newest = presenter.past_games(store.past(limit=presenter.PAST_PER_PAGE), self.app.table.clock())
        self.history_text = "\n".join(entry.line for entry in newest)
        # damage found (and salvaged) since the start: said once, not again on every return home
        if store.notice and store.notice not in self._store_notices:
            self._store_notices.add(store.notice)
            self.notice = f"{self.notice} {store.notice}".strip()

    # -- wins and past games -------------------------------------------------------

    def show_wins(self) -> WinsPopup:
        from ui.screens.home_popups import WinsPopup

        popup = WinsPopup()
        popup.show(presenter.wins_chart(self.app.table.store.wins_by_game()))
        popup.open()
        return popup

    def show_past_games(self) -> PastGamesPopup:
        """Past games, on their newest page: made at the first tap, then the same popup (issue 26)."""
        from ui.screens.home_popups import PastGamesPopup

        popup = self._kept_popups().get("past games", lambda: PastGamesPopup(home=self))
        popup.go(1)
        popup.open()
        return popup

    def show_settings(self) -> Any:
        """Settings: made at the first tap, then the same popup, up to date, at every tap after (issue 26)."""
        from ui.widgets.settings import SettingsPopup  # loaded on the tap: not needed to start

        popup = self._kept_popups().get("settings", lambda: SettingsPopup(app=self.app))
        popup.open()
        return popup

    def _kept_popups(self) -> KeptPopups:
        """Home's kept popups (Settings, Past games, a past game's Log): none until the first of them is tapped."""
        from ui.widgets.fitted_popup import KeptPopups  # loaded on that tap: not needed to start

        if self._kept is None:
            self._kept = KeptPopups()
        return self._kept

    def past_page(self, page: int) -> tuple[PastPage, list[PastGame]]:
        """Page `page` of the past games (ended without a result too), newest first: only its rows are read."""
        store = self.app.table.store
        where = PastPage(1, store.past_count()).to(page)
        records = store.past(limit=where.per_page, offset=where.offset)
        return where, presenter.past_games(records, self.app.table.clock())

    def open_past_game(self, game_id: int, told: Story | None = None) -> object | None:
        """The game's Log, to read and replay (the Log screen is loaded only now: it is not needed to start); its
        story `told` if Past games has read it already.

        A game that cannot be read gets the Log's own sentence, and None.
        """
        from ui.screens import screen_class
        from ui.screens.log import open_past_game

        return open_past_game(self.app.table.store, game_id, screen_class, kept=self._kept_popups(), told=told)


class WinsStrip(ButtonBehavior, BoxLayout):
    """The wins on home: the players with the most wins as small bars; a tap opens the wins per game."""

    empty = BooleanProperty(True)

    def show(self, bars: tuple[Bar, ...]) -> None:
        self.ids.bars.clear_widgets()
        for bar in bars:
            self.ids.bars.add_widget(WinsBar(bar))
        for _ in range(presenter.STRIP_PLAYERS - len(bars)) if bars else ():  # a bar's width is the same for 1 or 3
            self.ids.bars.add_widget(Widget())
        if not bars:
            self.ids.bars.add_widget(Factory.NoWins())
        self.empty = not bars


