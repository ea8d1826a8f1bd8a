"""The Quin screen: the shared table view, and a private hand-off mode for each player's setup.

Thin over its presenter (`ui.presenters.quin`), which says what every piece,
line and button shows and which action a tap sends; this module copies that
onto widgets, colours pieces from the players' colours and the theme, and
passes taps back. The pieces' widgets are made once and then only updated.

Shared mode shows the public view only. Private mode is for one player's
setup on this screen: it first asks the rival to look away, then shows that
player's private view and nothing else, and blanks itself when the player is
done, hides it, stays idle for a while, or the screen is left. The private
widgets are thrown away when it blanks.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Literal, cast

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.graphics import Line
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import get_hex_from_color

from companion import codec
from companion.game import Action, GameView, Refusal
from companion.games.quin.views import QuinOwnView, QuinView
from companion.palette import is_light
from ui import theme
from ui.presenters.quin import (
    Chip,
    PieceKey,
    PieceShown,
    QuinShown,
    Selection,
    SetupPicks,
    SetupShown,
    SetupTap,
    SideShown,
    Tap,
    look_away,
    present,
    present_setup,
    setup_hidden,
)
from ui.screens.base import GameScreen
from ui.widgets.shapes import CLEAR, WhileSeen, outline

PRIVATE_IDLE_SECONDS = 90.0
"""A private setup left alone this long blanks itself (someone walked away from the screen)."""

FADE = {"board": 1.0, "off": 1.0, "waiting": 0.35, "taken": 0.12, "unassigned": 1.0}
"""How strongly a piece shows its player's colour: face down on the Zero-G card fainter, taken fainter still."""


def ink_on(fill: theme.RGBA) -> theme.RGBA:
    """The theme's dark or light text, whichever reads on `fill` (`companion.palette.is_light`: the one rule)."""
    return theme.INK if is_light(get_hex_from_color(fill)[:7]) else theme.TEXT


class QuinPiece(ButtonBehavior, Label):
    """One labelled piece: its label big, its identity small once known; tap to select.

    Its edge (the attacker, a selected piece) and its cross (taken) are drawn only while they show: a kv `Line`
    is built again at every size and place the layout passes through, seen or not, and 34 clear ones made the
    table's first frame about 25 ms slower (bench_taps). Its owner's initial is one texture per mark, shared by
    every piece of that owner, not a Label of its own (about 10 ms more).
    """

    fill = ColorProperty(theme.PANEL)
    edge = ColorProperty(CLEAR)
    crossed = BooleanProperty(False)
    owner_mark = StringProperty("")  # the owner's initial in the corner: whose piece it is, without colour
    mark_texture = ObjectProperty(None, allownone=True)  # owner_mark drawn (quin.kv), or None without a mark

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._edge = WhileSeen(self.canvas.before, outline(width=dp(2.5)))  # over the fill, under the words
        self._cross = WhileSeen(self.canvas.after, Line(width=dp(1.5)))
        for name in ("pos", "size", "edge", "crossed", "fill"):
            self.fbind(name, self._draw_lines)

    def show(self, text: str, colour: theme.RGBA, look: str, owner_mark: str = "") -> None:
        """The piece's words, in its player's `colour` as strong as its `look` says."""
        self.text = text
        self.owner_mark = owner_mark
        strength = FADE[look]
        self.fill = theme.PANEL if look == "unassigned" else (*colour[:3], strength)
        self.color = ink_on(colour) if strength == 1.0 and look != "unassigned" else theme.TEXT
        self.crossed = look == "taken"

    def on_owner_mark(self, _piece: QuinPiece, mark: str) -> None:
        self.mark_texture = owner_mark_texture(mark) if mark else None

    def _draw_lines(self, *_args: Any) -> None:
        x, y, right, top = self.x, self.y, self.right, self.top
        self._edge.draw(self.edge, rounded_rectangle=(x + dp(2), y + dp(2), right - x - dp(4), top - y - dp(4), dp(8)))
        # Opaque, as it shows over the piece on its side's panel: Kivy draws a wide line that is not opaque through a
        # stencil of its own.
        cross = theme.solid((*theme.TEXT[:3], 0.55), theme.solid(self.fill, theme.PANEL)) if self.crossed else CLEAR
        self._cross.draw(cross, points=[x + dp(8), y + dp(8), right - dp(8), top - dp(8)])


_MARK_LABELS: dict[str, CoreLabel] = {}
"""The marks' labels, kept: a texture holds only a weak reference to the label that draws it again when GL
reloads its textures, so without its label a mark would come back blank."""


def owner_mark_texture(mark: str) -> Any:
    """The texture of an owner's initial in a piece's corner, made once per mark (white: tinted by its Color)."""
    if mark not in _MARK_LABELS:
        label = CoreLabel(text=mark, font_size=sp(10))
        label.refresh()
        _MARK_LABELS[mark] = label
    return _MARK_LABELS[mark].texture


class QuinChip(ButtonBehavior, Label):
    """A toggle in the private setup (a Clone face, an identity, a place)."""

    chosen = BooleanProperty(False)


class QuinSide(BoxLayout):
    """One player's side: name, powers used, their 17 labels, and their Zero-G card."""

    name = StringProperty("")
    colour = ColorProperty(theme.TEXT)
    status = StringProperty("")
    powers = StringProperty("")
    card = StringProperty("")
    active = BooleanProperty(False)
    row = NumericProperty(dp(48))  # a row of pieces' height: at least 48 px (set in quin.kv from the side's height)
    least = NumericProperty(0)  # the height below which something would be cut (quin.kv)


class QuinPlayActions(GridLayout):
    """The buttons of play: what the selected pieces do; all greyed and off once the game is over."""

    screen = ObjectProperty(None)
    over = BooleanProperty(False)


class QuinResult(Label):
    """A line set as large as fits its box, smaller for a long sentence, never cut at the top or bottom.

    `least` is the whole text's height at the smallest size: the box is never given less (see quin.kv).
    """

    largest = NumericProperty(sp(22))
    smallest = NumericProperty(sp(12))
    least = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._fit_later = Clock.create_trigger(lambda _dt: self.fit())
        super().__init__(**kwargs)
        self.bind(text=lambda *_a: self._fit_later(), size=lambda *_a: self._fit_later())

    def fit(self) -> None:
        """The largest font size (in whole sp) at which the whole text fits the box."""
        self.text_size = (max(self.width - dp(8), 1), None)
        self.font_size = self.smallest
        self.texture_update()
        self.least = self.texture_size[1]
        size = self.largest
        while True:
            self.font_size = size
            self.texture_update()
            if self.texture_size[1] <= self.height or size <= self.smallest:
                break
            size -= sp(1)
        if self.valign == "top" and self.texture_size[1] <= self.height:
            self.text_size = (self.text_size[0], self.height)  # the card's line under the pieces, not mid-box


class QuinSetupActions(BoxLayout):
    """Before play: one button per player to open their private setup."""

    screen = ObjectProperty(None)
    lines = ListProperty([])
    first_text = StringProperty("")  # who goes first, or the offer to race for it
    race_open = BooleanProperty(False)


class QuinTable(BoxLayout):
    """The shared body: both sides on the left; the result, the hint and the buttons on the right."""

    screen = ObjectProperty(None)
    result = StringProperty("")
    hint = StringProperty("")


class QuinCover(BoxLayout):
    """A blank page with one message and a button (look away / setup hidden)."""

    screen = ObjectProperty(None)
    message = StringProperty("")
    go_text = StringProperty("")
    back_text = StringProperty("")
    go = ObjectProperty(None)
    back = ObjectProperty(None, allownone=True)


class QuinSetupPanel(BoxLayout):
    """One player's private setup, drawn from their private view only."""

    screen = ObjectProperty(None)
    title = StringProperty("")
    colour = ColorProperty(theme.TEXT)
    message = StringProperty("")
    message_is_error = BooleanProperty(False)


class QuinScreen(GameScreen):
    """Quin at the table: a referee that keeps every identity and shows only what may be seen."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._view: QuinView | None = None
        self.selection = Selection()
        self.mode = "table"  # "table", "cover" (look away), "private" (one player's setup), "hidden"
        self.private_player: str | None = None
        self.setup_panel: QuinSetupPanel | None = None
        self.picks = SetupPicks()
        self.pieces: dict[PieceKey, QuinPiece] = {}  # the shared screen's pieces, made once
        self._setup_pieces: dict[str, QuinPiece] = {}  # the private panel's, made with it
        self._chips: dict[tuple[str, str], QuinChip] = {}
        self._idle = Clock.create_trigger(lambda _dt: self.hide_private(), PRIVATE_IDLE_SECONDS)
        # Before the next frame (-1): a tap's answer, and the move the dispatcher brings after it, are drawn in the
        # frame that answers the touch (on the next tick, that frame would draw the old table once more). The table
        # only sets words and colours: nothing in it waits for the layout.
        self._redraw = Clock.create_trigger(lambda _dt: self.draw(), -1)
        self._rng = random.SystemRandom()
        self._watching = Clock.create_trigger(lambda _dt: None)
        self._screens_seen: dict[str, str] = {}
        super().__init__(*args, **kwargs)

    # -- building ---------------------------------------------------------------------------

    def build_body(self) -> Widget:
        self.holder = BoxLayout()
        self.table_view = QuinTable(screen=self)
        self.play_actions = QuinPlayActions(screen=self)
        self.setup_actions = QuinSetupActions(screen=self)
        self.holder.add_widget(self.table_view)
        self._add_display_strip()
        self._add_phones_button()
        return self.holder

    def _add_display_strip(self) -> None:
        # The strip shows whose display is connected and asks "Whose display shows 4 7 1?"
        # for a new one. It carries names and states only, never a secret.
        hub = getattr(self.table, "displays", None)
        if hub is None:
            return
        from ui.widgets.displays import DisplayStatusStrip

        strip = DisplayStatusStrip(players=self.session.options.names, hub=hub)
        self.table_view.ids.display_spot.add_widget(strip)

    def _add_phones_button(self) -> None:
        # With the phones on, one tap opens the phones panel (it is in the Menu too, as for every such game).
        if not self.can_show_phones:
            return
        # As narrow as its word: the display strip beside it keeps room for its names on fewer lines.
        button = Factory.BigButton(text="Phones", size_hint_x=None, width=dp(104))
        button.bind(on_release=lambda _b: self.open_phones())
        self.table_view.ids.display_spot.add_widget(button)

    def _shown(self) -> QuinShown:
        players = self.session.options.players
        assert self._view is not None  # drawn only once a view came
        return present(
            self._view,
            self.selection,
            colours=[p.colour for p in players],
            can_race=self.can_race,
            screens=self.private_screens(),
        )

    @property
    def can_race(self) -> bool:
        """Who goes first may be chosen during the private setups too, until the first action of play (README)."""
        session = self.session
        return session.game.chooses_first and session.outcome is None and not session.play_has_begun

    def private_screens(self) -> dict[str, str]:
        """Each seat with its own private screen in use: a connected, paired display, or a phone showing its page."""
        names = {p.name for p in self.session.options.players}
        found: dict[str, str] = {}
        hub = getattr(self.table, "displays", None)
        if hub is not None:
            for status in hub.status():
                if status.player in names and str(status.state) == "connected":
                    found[status.player] = "display"
        server = getattr(getattr(self.table, "phones", None), "server", None)
        if server is not None:
            for player, state in server.status().items():
                if player in names and state == "connected":
                    found[player] = "phone"
        return found

    def on_enter(self, *_args: Any) -> None:
        super().on_enter(*_args)
        # A display or a phone comes and goes without a move: the setup's words follow it within a second.
        self._watching.cancel()
        self._watching = Clock.schedule_interval(lambda _dt: self._watch_screens(), 1.0)

    def _watch_screens(self) -> None:
        if self.mode == "table" and self._view is not None and self._view.phase == "setup":
            screens = self.private_screens()
            if screens != self._screens_seen:
                self._screens_seen = screens
                self._redraw()

    def _colour(self, shown: QuinShown, name: str) -> theme.RGBA:
        seat = next(i for i, side in enumerate(shown.sides) if side.name == name)
        own = shown.sides[seat].colour
        return theme.rgba(own or theme.SEAT_COLOURS[seat % len(theme.SEAT_COLOURS)])

    # -- the shared table -----------------------------------------------------------------------

    def render(self, view: GameView | Mapping[str, Any]) -> None:
        """Keep the public view; widgets are updated before the next frame, never inside a touch."""
        # The log replays a story, whose views are JSON (the revealed view, for a finished game): read back typed.
        read_back: Any = codec.from_json  # typed for actions and events; a view's JSON reads back the same way
        self._view = read_back(QuinView, view) if isinstance(view, Mapping) else cast(QuinView, view)
        self._redraw()

    def draw(self) -> None:
        if self.mode == "private":
            self._draw_private()
        elif self.mode == "table" and self._view:
            self._draw_table(self._shown())

    def _draw_table(self, shown: QuinShown) -> None:
        table = self.table_view
        for i, side in enumerate(shown.sides):
            self._draw_side(table.ids[f"side{i}"], side, self._colour(shown, side.name))
        actions = table.ids.actions
        wanted = self.setup_actions if shown.phase == "setup" else self.play_actions
        if wanted.parent is not actions:
            actions.clear_widgets()
            actions.add_widget(wanted)
        self.setup_actions.lines = list(shown.setup_lines)
        self.setup_actions.first_text = shown.first_text
        self.setup_actions.race_open = shown.race_open
        self.play_actions.over = shown.over
        if shown.over:
            self.selection = shown.selection
        table.result = shown.result
        table.hint = shown.hint

    def _draw_side(self, widget: QuinSide, side: SideShown, colour: theme.RGBA) -> None:
        widget.name = side.name
        widget.colour = colour
        widget.active = side.active
        widget.status = side.status
        widget.powers = side.powers
        widget.card = side.card
        for piece in side.pieces:
            self._piece_widget(widget, piece).show(piece.text, colour, piece.look, piece.owner_mark)
            self.pieces[piece.key].edge = {"attacker": theme.TEXT, "selected": theme.ACCENT}.get(piece.mark, CLEAR)

    def _piece_widget(self, side: QuinSide, piece: PieceShown) -> QuinPiece:
        button = self.pieces.get(piece.key)
        if button is None:
            button = QuinPiece(markup=True)
            button.bind(on_release=lambda _w, key=piece.key: self.tap_piece(key))
            side.ids.pieces.add_widget(button)
            self.pieces[piece.key] = button
        return button

    def tap_piece(self, key: PieceKey) -> None:
        """First tap selects (your own pieces, in order); a tap on the rival's piece flashes or aims Time."""
        if self.mode == "table" and self._view:
            self._take(self._shown().tap_piece(key))

    def verb(self, name: str) -> None:
        """A play button: the presenter composes the action from the selection; the rules decide."""
        if self.mode == "table" and self._view:
            self._take(self._shown().verb(name))

    def _take(self, tap: Tap) -> None:
        self.selection = tap.selection
        if tap.say is not None:
            self.say(tap.say, error=tap.error)
        if tap.action is not None:
            self.send(tap.action)
        self._redraw()

    # -- private hand-off setup ------------------------------------------------------------------------

    def _rival(self, name: str) -> str:
        names = [p.name for p in self.session.options.players]
        return names[1] if name == names[0] else names[0]

    def open_private(self, index: int) -> None:
        """Step 1: ask the rival to look away before anything private is drawn."""
        names = [p.name for p in self.session.options.players]
        if not 0 <= index < len(names):
            return
        player = names[index]
        self.selection = Selection()
        self.private_player = player
        go = f"Show {player}'s setup"
        self._show_cover(look_away(player, self._rival(player)), go, self.show_private, "Back", self.close_private)
        self.mode = "cover"

    def show_private(self) -> None:
        """Step 2: the player's own setup, from their private view alone."""
        if self.private_player is None:
            return
        self.mode = "private"
        self.picks = SetupPicks()
        shown = self._setup_shown()
        panel = self.setup_panel = QuinSetupPanel(screen=self, title=shown.title)
        panel.colour = self._colour(self._shown(), shown.player)
        for chip in shown.clone_from:
            self._add_chip(panel.ids.clone, "from", chip, lambda kind: self.pick_clone("from", kind))
        panel.ids.clone.add_widget(Factory.BodyLabel(text="into", size_hint_x=0.5, font_size="15sp"))
        for chip in shown.clone_to:
            self._add_chip(panel.ids.clone, "to", chip, lambda kind: self.pick_clone("to", kind))
        for chip in shown.kinds:
            self._add_chip(panel.ids.kinds, "kind", chip, self.pick_kind)
        self._swap_body(panel)
        self._keep_private()
        self._draw_private()

    def _add_chip(self, row: Widget, group: str, chip: Chip, on_tap: Callable[[str], None]) -> None:
        widget = QuinChip(text=chip.text)
        if group in ("from", "to"):
            widget.font_size = sp(13)  # ten Clone faces share one row: "Peripheral" still fits whole
        widget.bind(on_release=lambda _w, value=chip.value: on_tap(value))
        row.add_widget(widget)
        self._chips[(group, chip.value)] = widget

    def hide_private(self, *, finished: bool = False) -> None:
        """Step 3: blank everything private; the table comes back only on a tap."""
        if self.mode not in ("private", "cover"):
            return
        player = self.private_player or ""
        self._drop_private()
        self._show_cover(setup_hidden(player, finished=finished), "Back to the table", self.close_private)
        self.mode = "hidden"

    def close_private(self) -> None:
        self._drop_private()
        self.private_player = None
        self.mode = "table"
        self._swap_body(self.table_view)
        self._redraw()

    def _drop_private(self) -> None:
        self._idle.cancel()
        if self.setup_panel is not None:
            # Nothing private outlives the private mode: the widgets go, and their words with them.
            for row in ("pieces", "kinds", "clone"):
                self.setup_panel.ids[row].clear_widgets()
            self.setup_panel.message = ""
            self.setup_panel = None
        self._setup_pieces.clear()
        self._chips.clear()
        self.picks = SetupPicks()

    def _show_cover(
        self,
        message: str,
        go_text: str,
        go: Callable[[], None],
        back_text: str = "",
        back: Callable[[], None] | None = None,
    ) -> None:
        cover = QuinCover(screen=self, message=message, go_text=go_text, back_text=back_text, go=go, back=back)
        self._swap_body(cover)

    def _keep_private(self) -> None:
        """Restart the idle countdown: the private setup blanks itself after a while untouched."""
        self._idle.cancel()
        self._idle()

    def _swap_body(self, widget: Widget) -> None:
        self.holder.clear_widgets()
        self.holder.add_widget(widget)

    def on_leave(self, *_args: Any) -> None:
        """Leaving the screen never leaves a private setup behind."""
        self._watching.cancel()
        if self.mode != "table":
            self.close_private()

    def private_act(self, action: Action) -> bool:
        """Send a setup action; a refusal shows inside the private panel, never in the shared banner."""
        self._keep_private()
        panel = self.setup_panel
        try:
            self.session.act(action)
        except Refusal as refusal:
            if panel is not None:
                panel.message, panel.message_is_error = str(refusal), True
            return False
        if panel is not None:
            panel.message, panel.message_is_error = "", False
        return True

    def _setup_shown(self) -> SetupShown:
        assert self.private_player is not None
        own = self.session.own_view(self.private_player)
        assert isinstance(own, QuinOwnView)  # a seated player's own view, never `NotPlaying`
        return present_setup(own, self.picks)

    def _draw_private(self) -> None:
        panel = self.setup_panel
        if panel is None or self.private_player is None:
            return
        shown = self._setup_shown()
        for group, chips in (("from", shown.clone_from), ("to", shown.clone_to), ("kind", shown.kinds)):
            for chip in chips:
                widget = self._chips[(group, chip.value)]
                widget.text, widget.chosen, widget.disabled = chip.text, chip.chosen, not chip.allowed
        panel.ids.board_chip.chosen = shown.place == "board"
        panel.ids.zero_g_chip.chosen = shown.place == "zero-g"
        colour = self._colour(self._shown(), shown.player)
        for piece in shown.pieces:
            button = self._setup_pieces.get(piece.label)
            if button is None:
                button = QuinPiece(markup=True)
                button.bind(on_release=lambda _w, label=piece.label: self.tap_setup_label(label))
                panel.ids.pieces.add_widget(button)
                self._setup_pieces[piece.label] = button
            button.show(piece.text, colour, piece.look)
        if not panel.message_is_error:
            panel.message = shown.message

    def _take_setup(self, tap: SetupTap) -> None:
        self.picks = tap.picks
        if tap.action is not None:
            self.private_act(tap.action)
        self._redraw()

    def pick_clone(self, part: Literal["from", "to"], kind: str) -> None:
        """Clone faces: the one replaced, then what it becomes; sent once both are picked."""
        if self.mode == "private":
            self._keep_private()
            self._take_setup(self._setup_shown().pick_clone(part, kind))

    def pick_kind(self, kind: str) -> None:
        if self.mode == "private":
            self._keep_private()
            self._take_setup(self._setup_shown().pick_kind(kind))

    def pick_place(self, place: str) -> None:
        if self.mode == "private":
            self._keep_private()
            self._take_setup(self._setup_shown().pick_place(place))

    def tap_setup_label(self, label: str) -> None:
        """Give the tapped label the chosen identity and place (or take it back)."""
        if self.mode == "private":
            self._take_setup(self._setup_shown().tap_label(label))

    def deal_at_random(self) -> None:
        """A random legal layout (the Clone too, unless chosen), to adjust or accept."""
        if self.mode == "private":
            settings = self.session.game.read_settings(self.session.options.settings)
            self.private_act(self._setup_shown().deal(settings, self._rng))
            self._redraw()

    def finish_private(self) -> None:
        if self.mode != "private":
            return
        if self.private_act(self._setup_shown().finish()):
            self.hide_private(finished=True)
        else:
            self._redraw()


SCREEN = QuinScreen
