"""The Quinque screen: the skydiver formation, scrollable, mirrored from the table.

Thin over its presenter (`ui.presenters.quinque`): the presenter says what
each cell looks like and what a tap sends; this module only lays the cells
out in pixels, colours them from the theme, and passes taps back. In the
first part of a turn a tap on a skydiver marks it (or adds its faint tile);
in the second a tap chooses the tile to move, and a tap on a space moves it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
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
from kivy.uix.label import Label
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.widget import Widget

from companion.game import Action, View
from companion.games.quinque.board import Corner, Pos
from ui import theme
from ui.presenters.quinque import CellShown, QuinqueShown, Tap, present
from ui.screens.base import GameScreen

CLEAR = (0.0, 0.0, 0.0, 0.0)
Origin = Callable[[Pos], tuple[float, float]]


def cell_size() -> float:
    """One tile on screen: two skydivers of at least 48 px each way, plus a margin."""
    return dp(112)


def spot_size() -> float:
    """One skydiver on screen: a touch target of at least 48 px."""
    return dp(50)


class QuinqueSpot(ButtonBehavior, Label):
    """One skydiver: a ring when free, a disc in the player's colour (with an initial) when marked."""

    fill = ColorProperty(CLEAR)
    ring = ColorProperty(theme.MUTED)
    glow = ColorProperty(CLEAR)  # when this skydiver is part of the winning line


class QuinqueTile(RelativeLayout):
    """A placed tile (or a faint space where one may be added) holding four `QuinqueSpot`s."""

    back = ColorProperty(theme.TILE)
    edge = ColorProperty(theme.TILE_EDGE)
    edge_width = NumericProperty(1.2)
    dashed = BooleanProperty(False)


class QuinqueSpace(ButtonBehavior, Widget):
    """An empty space in the move step: lit when the chosen tile may go there."""

    back = ColorProperty(theme.SPACE)
    edge = ColorProperty(CLEAR)


class QuinqueFormation(RelativeLayout):
    """The grid the tiles sit on; rings the winning line over everything."""

    line_on = BooleanProperty(False)
    line_centre = ListProperty([0.0, 0.0])
    line_length = NumericProperty(0.0)
    line_angle = NumericProperty(0.0)


class QuinquePlayerRow(BoxLayout):
    """A player's colour, name and what they have left."""

    name = StringProperty("")
    colour = ColorProperty((1, 1, 1, 1))
    counts = StringProperty("")
    active = BooleanProperty(False)


class QuinqueBoard(BoxLayout):
    """The body of the screen: the scrollable formation and the side panel."""

    screen = ObjectProperty(None)
    hint = StringProperty("")
    note = StringProperty("")
    can_skip = BooleanProperty(False)


class QuinqueScreen(GameScreen):
    """Quinque at the table: the formation, the parachutes left, Skip, the winning line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.selected: Pos | None = None  # the tile chosen to move: the one thing the screen remembers
        self.shown: QuinqueShown | None = None
        self.spots: dict[tuple[Pos, str], QuinqueSpot] = {}
        self.tile_views: dict[Pos, QuinqueTile] = {}
        self.spaces: dict[Pos, QuinqueSpace] = {}
        self._view: View = {}
        self._legal: Sequence[Action] = ()
        self._anchor: tuple[float, float] | None = None  # where the grid's (0, 0) lies on the formation
        self._fitted_for: tuple[float, float] = (0.0, 0.0)  # the board area's size the anchor was set for
        self._drawn_player: str | None = None  # whose turn the last drawing showed
        self._redraw = Clock.create_trigger(lambda _dt: self.draw())
        super().__init__(*args, **kwargs)

    # -- from the session to the presenter --------------------------------------------------

    def build_body(self) -> Widget:
        self.board = QuinqueBoard(screen=self)
        self.board.ids.scroller.bind(size=lambda *_: self._redraw())
        return self.board

    def render(self, view: View) -> None:
        player = self.session.current_player
        self._view = view
        self._legal = self.session.legal_actions(player) if player else ()
        self._present()

    def _present(self) -> None:
        self.shown = present(
            self._view,
            self._legal,
            chosen=self.selected,
            outcome=self.session.outcome,
            colours=[p.colour for p in self.session.options.players],
        )
        self.selected = self.shown.chosen
        self._redraw()  # widgets are rebuilt on the next frame, never inside the touch that changed them

    # -- drawing ---------------------------------------------------------------------------

    def draw(self) -> None:
        """Lay the formation out again from the last `shown`, and the side panel with it.

        What is on the board stays where it is on screen: a tile added (or the spaces of the move step)
        grows the formation away from the finger, scrolling the rest so nothing already shown moves.
        The formation is fitted (centred) again only when the board area changes size, or between
        turns when a tile has drifted out of sight, and the banner says so.
        """
        shown = self.shown
        if shown is None:
            return
        self._draw_panel(shown)
        formation: QuinqueFormation = self.board.ids.formation
        scroller = self.board.ids.scroller
        size = cell_size()
        area = (scroller.width, scroller.height)
        new_turn = self._drawn_player is not None and shown.player != self._drawn_player
        self._drawn_player = shown.player
        if self._anchor is None or self._fitted_for != area:
            ox, oy = self._fitted(shown, area)
        else:
            # Where the grid's (0, 0) sits in the board area now: its place on the formation, as scrolled.
            # (The scroller moves its content by a translation, not by the formation's pos.)
            ox = self._anchor[0] - scroller.scroll_x * max(0.0, formation.width - area[0])
            oy = self._anchor[1] - scroller.scroll_y * max(0.0, formation.height - area[1])
            if new_turn and not self._all_tiles_in_sight(shown, ox, oy, area) and self._tiles_fit(shown, area):
                ox, oy = self._fitted(shown, area)
                self.say("New turn: the formation is centred again, so every tile is in sight.")
        self._fitted_for = area
        cols = [c.at[0] for c in shown.cells] or [0]
        rows = [c.at[1] for c in shown.cells] or [0]
        min_x, max_x = min(0.0, ox + min(cols) * size), max(area[0], ox + (max(cols) + 1) * size)
        min_y, max_y = min(0.0, oy - max(rows) * size), max(area[1], oy - min(rows) * size + size)
        formation.size = (max_x - min_x, max_y - min_y)
        self._anchor = (ox - min_x, oy - min_y)
        # Scroll so the part of the formation that was in view stays exactly where it was.
        spare_x, spare_y = formation.width - area[0], formation.height - area[1]
        scroller.scroll_x = -min_x / spare_x if spare_x > 0 else 0
        scroller.scroll_y = -min_y / spare_y if spare_y > 0 else 0
        anchor_x, anchor_y = self._anchor

        def origin(at: Pos) -> tuple[float, float]:
            return anchor_x + at[0] * size, anchor_y - at[1] * size

        formation.clear_widgets()
        self.spots, self.tile_views, self.spaces = {}, {}, {}
        for cell in shown.cells:  # spaces first, tiles last: what is drawn later lies on top
            if cell.kind == "space":
                self._add_space(formation, cell, origin(cell.at))
            else:
                self._add_tile(formation, cell, origin(cell.at))
        self._ring_line(formation, shown.line_ends, origin)

    @staticmethod
    def _fitted(shown: QuinqueShown, area: tuple[float, float]) -> tuple[float, float]:
        """Where the grid's (0, 0) goes in the board area for the formation to sit in its middle."""
        size = cell_size()
        width, height = shown.columns * size, shown.rows * size
        return (area[0] - width) / 2 - shown.left * size, (area[1] - height) / 2 + (shown.top + shown.rows - 1) * size

    @staticmethod
    def _tiles_fit(shown: QuinqueShown, area: tuple[float, float]) -> bool:
        """Whether the placed tiles fit the board area at all (if not, centring again would not help: scroll)."""
        tiles = [c.at for c in shown.cells if c.kind == "tile"] or [(0, 0)]
        columns = max(c for c, _ in tiles) - min(c for c, _ in tiles) + 1
        rows = max(r for _, r in tiles) - min(r for _, r in tiles) + 1
        return columns * cell_size() <= area[0] and rows * cell_size() <= area[1]

    @staticmethod
    def _all_tiles_in_sight(shown: QuinqueShown, ox: float, oy: float, area: tuple[float, float]) -> bool:
        size = cell_size()
        return all(
            ox + c.at[0] * size >= 0
            and ox + (c.at[0] + 1) * size <= area[0] + 1
            and oy - c.at[1] * size >= 0
            and oy - c.at[1] * size + size <= area[1] + 1
            for c in shown.cells
            if c.kind == "tile"
        )

    def _add_space(self, formation: QuinqueFormation, cell: CellShown, pos: tuple[float, float]) -> None:
        space = QuinqueSpace(pos=pos, size=(cell_size(), cell_size()))
        if cell.lit:
            space.back, space.edge = theme.LIT_SPACE, theme.ACCENT
        space.bind(on_press=lambda _w, at=cell.at: self.touch_space(at))
        formation.add_widget(space)
        self.spaces[cell.at] = space

    def _add_tile(self, formation: QuinqueFormation, cell: CellShown, pos: tuple[float, float]) -> None:
        size = cell_size()
        tile = QuinqueTile(pos=pos, size=(size, size))
        if cell.kind == "open":
            tile.back, tile.edge, tile.dashed, tile.edge_width = theme.OPEN_SPACE, (*theme.ACCENT[:3], 0.7), True, 1
        elif cell.chosen:
            tile.back, tile.edge, tile.edge_width = theme.TILE_CHOSEN, theme.TEXT, 3
        elif cell.outlined:
            tile.edge, tile.edge_width = (*theme.ACCENT[:3], 0.7), 1.6
        pad = (size - 2 * spot_size()) / 2
        for i, skydiver in enumerate(cell.skydivers):
            spot = QuinqueSpot(
                size=(spot_size(), spot_size()),
                pos=(pad + (i % 2) * spot_size(), pad + (1 - i // 2) * spot_size()),
                text=skydiver.initial,
            )
            if skydiver.seat is not None:
                spot.fill, spot.ring = self._colour(skydiver.seat), (*theme.TEXT[:3], 0.9)
            elif cell.kind == "open":
                spot.ring = (*theme.ACCENT[:3], 0.6)
            if skydiver.in_line:
                spot.glow = theme.WINNING_LINE
            spot.bind(on_press=lambda _w, at=cell.at, corner=skydiver.corner: self.touch_skydiver(at, corner))
            tile.add_widget(spot)
            self.spots[(cell.at, skydiver.corner)] = spot
        formation.add_widget(tile)
        self.tile_views[cell.at] = tile

    def _colour(self, seat: int) -> theme.RGBA:
        assert self.shown is not None
        own = self.shown.players[seat].colour
        return theme.rgba(own if own else theme.SEAT_COLOURS[seat % len(theme.SEAT_COLOURS)])

    def _ring_line(self, formation: QuinqueFormation, ends: tuple[Pos, Pos] | None, origin: Origin) -> None:
        """A capsule around the five skydivers of the winning line (it leaves their letters readable)."""
        formation.line_on = ends is not None
        if ends is None:
            return
        (x0, y0), (x1, y1) = (self._spot_centre(end, origin) for end in ends)
        formation.line_centre = [(x0 + x1) / 2, (y0 + y1) / 2]
        formation.line_length = math.hypot(x1 - x0, y1 - y0) + spot_size()
        formation.line_angle = math.degrees(math.atan2(y1 - y0, x1 - x0))

    def _spot_centre(self, skydiver: Pos, origin: Origin) -> tuple[float, float]:
        x, y = skydiver
        ox, oy = origin((x // 2, y // 2))
        pad = (cell_size() - 2 * spot_size()) / 2
        half = spot_size() / 2
        return ox + pad + (x % 2) * spot_size() + half, oy + pad + (1 - y % 2) * spot_size() + half

    def _draw_panel(self, shown: QuinqueShown) -> None:
        board = self.board
        for seat, player in enumerate(shown.players):
            row: QuinquePlayerRow = board.ids[f"player{seat}"]
            row.name, row.counts, row.active = player.name, player.counts, player.active
            row.colour = self._colour(seat)
        board.can_skip = shown.can_skip
        board.note = shown.note
        board.hint = shown.hint

    # -- taps, answered by the presenter ---------------------------------------------------

    def touch_skydiver(self, at: Pos, corner: Corner) -> None:
        """A tap on a skydiver: mark it (or add its tile) in the first part of a turn, else choose its tile."""
        if self.shown is not None:
            self._follow(self.shown.tap_skydiver(at, corner))

    def touch_space(self, at: Pos) -> None:
        """A tap on an empty space: move the chosen tile there (the rules may refuse, with a reason)."""
        if self.shown is not None:
            self._follow(self.shown.tap_space(at))

    def skip(self) -> None:
        """End the turn without moving a tile."""
        if self.shown is not None:
            self._follow(self.shown.skip())

    def _follow(self, tap: Tap) -> None:
        self.selected = tap.chosen
        if tap.say is not None:
            self.say(tap.say, error=tap.error)
        if tap.action is not None:
            self.send(tap.action)  # a refusal's sentence goes to the banner
        self._present()


SCREEN = QuinqueScreen
