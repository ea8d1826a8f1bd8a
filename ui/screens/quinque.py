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
from kivy.graphics import Ellipse, PopMatrix, PushMatrix, Rectangle, Rotate
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

from companion.game import Action, GameView
from companion.games.quinque.board import Corner, Pos
from ui import quiet_gc, theme
from ui.presenters.quinque import CellShown, QuinqueShown, Tap, empty_ring, present
from ui.screens.base import AHEAD_SECONDS, GameScreen
from ui.widgets.layer import StillBox
from ui.widgets.shapes import CLEAR, WhileSeen, outline

WHITE = (1.0, 1.0, 1.0, 1.0)
CUT = "Part of the formation is past the board's side: tap Centre to see it all."
FITS_AGAIN = "The formation fits the right way round again: tap Centre to turn it."
Origin = Callable[[Pos], tuple[float, float]]
EDGE_WIDTH = 2.5
"""How wide a lit space's edge is (dp)."""
SPACES_GROWN = 5
"""Empty spaces a tile added can bring to the formation's ring at most (its neighbours that were not there)."""


def cell_size() -> float:
    """One tile on screen: two skydivers of 48 px each way, 8 px between them and 4 px at each edge (so the
    skydivers of two tiles side by side are 8 px apart too)."""
    return 2 * spot_size() + spot_gap() + 2 * edge()


def spot_size() -> float:
    """One skydiver on screen: a touch target of at least 48 px."""
    size: float = dp(48)
    return size


def spot_gap() -> float:
    """The least room between two targets (skydivers, spaces): a finger aimed at one never lands on the next."""
    gap: float = dp(8)
    return gap


def edge() -> float:
    """A tile's (or a space's) margin inside its cell: half the gap, so neighbours are a whole gap apart."""
    return spot_gap() / 2


class QuinqueSpot(ButtonBehavior, Label):
    """One skydiver: a ring when free, a disc in the player's colour (with an initial) when marked.

    It draws only what shows (issue 26). A formation has a hundred skydivers and more, and under software GL each
    drawing instruction costs about as much as its pixels: a clear glow, a clear fill and an empty initial, drawn
    anyway as a kv rule draws them, were most of the board's drawing. A free skydiver is one ring.
    """

    fill = ColorProperty(CLEAR)
    ring = ColorProperty(theme.MUTED)
    glow = ColorProperty(CLEAR)  # when this skydiver is part of the winning line
    corner: Corner = "nw"  # which of its tile's four it is (the tile says where)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # its kv rule ("<-QuinqueSpot>") draws nothing: what shows is drawn here
        segments = theme.CIRCLE_SEGMENTS
        self._glow = WhileSeen(self.canvas, Ellipse(segments=segments))
        self._fill = WhileSeen(self.canvas, Ellipse(segments=segments))
        self._ring = WhileSeen(self.canvas, outline(width=dp(1.5)))
        self._initial = WhileSeen(self.canvas, Rectangle())
        for name in ("pos", "size", "glow", "fill", "ring", "texture", "texture_size"):
            self.fbind(name, self._draw)
        self._draw()

    def _draw(self, *_args: Any) -> None:
        x, y, w, h = self.x, self.y, self.width, self.height
        self._glow.draw(self.glow, pos=(x + dp(1), y + dp(1)), size=(w - dp(2), h - dp(2)))
        self._fill.draw(self.fill, pos=(x + dp(6), y + dp(6)), size=(w - dp(12), h - dp(12)))
        self._ring.draw(self.ring, circle=(self.center_x, self.center_y, w / 2 - dp(6), 0, 360, theme.CIRCLE_SEGMENTS))
        tw, th = self.texture_size
        self._initial.draw(
            WHITE if self.text and self.texture is not None else CLEAR,  # the texture has the text's colour in it
            texture=self.texture,
            pos=(int(self.center_x - tw / 2), int(self.center_y - th / 2)),
            size=(tw, th),
        )


class QuinqueTile(StillBox):
    """A placed tile (or a faint space where one may be added) holding four `QuinqueSpot`s.

    Drawn into a buffer of its own (`StillBox`): a tap changes a tile or two, and the board then draws the other
    tiles' pictures as they were, one instruction each, not their skydivers again (issue 26)."""

    back = ColorProperty(theme.TILE)
    edge = ColorProperty(theme.TILE_EDGE)
    edge_width = NumericProperty(1.2)
    dashed = BooleanProperty(False)

    def __init__(self, at: Pos, **kwargs: Any) -> None:
        self.at = at  # its place on the grid: a tile moved elsewhere is another widget there
        self.spots: list[QuinqueSpot] = []  # its skydivers, kept from one drawing to the next
        self.drawn_as: object = None  # what it was last laid out as (`QuinqueScreen._add_tile`)
        super().__init__(**kwargs)


class QuinqueSpace(ButtonBehavior, StillBox):
    """An empty space in the move step: lit, and edged, when the chosen tile may go there.

    Drawn into a buffer of its own (`StillBox`), as a tile is: choosing a tile lights the spaces it may go to,
    and the board then draws again only those (issue 26). Its edge lies inside it, as the buffer holds it."""

    back = ColorProperty(theme.SPACE)
    edge = ColorProperty(CLEAR)

    def __init__(self, at: Pos, **kwargs: Any) -> None:
        self.at = at
        self.drawn_as: object = None  # what it was last laid out as (`QuinqueScreen._add_space`)
        super().__init__(**kwargs)
        self._edge = WhileSeen(self.fbo, outline(width=dp(EDGE_WIDTH)))  # over its back (quinque.kv)
        for name in ("size", "edge"):
            self.fbind(name, self._draw_edge)
        self._draw_edge()

    def _draw_edge(self, *_args: Any) -> None:
        # A line reaches half its width each side of its path, and its soft edge half a pixel more.
        inset = dp(EDGE_WIDTH) / 2 + 0.5
        width, height = self.width - 2 * inset, self.height - 2 * inset
        self._edge.draw(self.edge, rounded_rectangle=(inset, inset, width, height, dp(10) - inset))


class QuinqueFormation(RelativeLayout):
    """The grid the tiles sit on; rings the winning line over everything, once there is one."""

    line_on = BooleanProperty(False)
    line_centre = ListProperty([0.0, 0.0])
    line_length = NumericProperty(0.0)
    line_angle = NumericProperty(0.0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas.after:
            PushMatrix()
            self._turn = Rotate()
        self._line = WhileSeen(self.canvas.after, outline(width=dp(3)))
        self.canvas.after.add(PopMatrix())
        for name in ("line_on", "line_centre", "line_length", "line_angle"):
            self.fbind(name, self._draw_line)

    def _draw_line(self, *_args: Any) -> None:
        (x, y), length = self.line_centre, self.line_length
        self._turn.angle, self._turn.origin = self.line_angle, (x, y)
        self._line.draw(
            theme.WINNING_LINE if self.line_on else CLEAR,
            rounded_rectangle=(x - length / 2, y - dp(28), length, dp(56), dp(27)),
        )


class QuinquePlayerRow(BoxLayout):
    """A player's colour, name and what they have left."""

    name = StringProperty("")
    colour = ColorProperty((1, 1, 1, 1))
    counts = StringProperty("")
    active = BooleanProperty(False)


class QuinquePanel(StillBox):
    """The side panel: the players, the hint, Centre and Skip. Drawn into a buffer of its own (`StillBox`): a tap
    on the formation changes the panel too, most times, and the board then draws again only the panel and the
    tiles that changed, not the whole formation (issue 26)."""


class QuinqueBoard(BoxLayout):
    """The body of the screen: the scrollable formation and the side panel."""

    screen = ObjectProperty(None)
    hint = StringProperty("")
    note = StringProperty("")
    can_skip = BooleanProperty(False)
    can_centre = BooleanProperty(False)  # part of the formation is out of sight sideways: centring shows it


class QuinqueScreen(GameScreen):
    """Quinque at the table: the formation, the parachutes left, Skip, the winning line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.selected: Pos | None = None  # the tile chosen to move: the one thing the screen remembers
        self.shown: QuinqueShown | None = None
        self.spots: dict[tuple[Pos, str], QuinqueSpot] = {}
        self.tile_views: dict[Pos, QuinqueTile] = {}
        self.spaces: dict[Pos, QuinqueSpace] = {}
        self._view: GameView | None = None
        self._legal: Sequence[Action] = ()
        self._anchor: tuple[float, float] | None = None  # where the grid's (0, 0) lies on the formation
        self._fitted_for: tuple[float, float] = (0.0, 0.0)  # the board area's size the anchor was set for
        self._turned = False  # the formation shown turned a quarter: it was wider than the board when centred
        self._news = ""  # what the banner last said about centring
        self._spare_tiles: dict[Pos, QuinqueTile] = {}
        self._spare_spaces: dict[Pos, QuinqueSpace] = {}
        self._colours: object = None  # what a tile's colours and corners are drawn from (`draw`)
        # Spaces let go, kept to be placed again: each is a buffer, which costs a new space more than its drawing.
        # Made ahead too, one a frame while the board waits: the first tap that showed the spaces (the first move
        # step) made some twenty-six itself: 59 ms, where a later tap takes 10.
        self._idle_spaces: list[QuinqueSpace] = []
        self._spaces_ahead = Clock.create_trigger(self._make_space_ahead, AHEAD_SECONDS)
        # Drawn before the next frame (-1): a tap's change after the touch has been dispatched, in the very frame
        # that answers it, and a new screen's formation in its first frame. On the next tick, the old formation
        # would be drawn once more first, and a new screen drawn once with an empty board. A new screen is drawn
        # again at each size its layout passes through in that frame: its tiles are kept, only placed again.
        self._redraw = Clock.create_trigger(lambda _dt: self.draw(), -1)
        super().__init__(*args, **kwargs)

    # -- from the session to the presenter --------------------------------------------------

    def build_body(self) -> Widget:
        self.board = QuinqueBoard(screen=self)
        self.board.ids.scroller.bind(size=lambda *_: self._redraw())
        return self.board

    def render(self, view: GameView) -> None:
        player = self.session.current_player
        self._view = view
        self._legal = self.session.legal_actions(player) if player else ()
        self._present()

    def _present(self) -> None:
        self.shown = present(
            self.session.view(),  # typed: the presenter reads its fields
            self._legal,
            chosen=self.selected,
            outcome=self.session.outcome,
            colours=[p.colour for p in self.session.options.players],
        )
        self.selected = self.shown.chosen
        # Widgets are rebuilt after the touch that changed them, never inside it: before that touch's frame is drawn.
        self._redraw()

    # -- drawing ---------------------------------------------------------------------------

    def draw(self) -> None:
        """Lay the formation out again from the last `shown`, and the side panel with it.

        Issue 21: "one tap apart on the same screen, every tappable that is still there keeps its position and
        size [...] A list that grows grows away from the finger", and "No sideways scrolling". So the formation
        is anchored: whatever a tap does (add a tile, mark, move, Skip, Undo, the turn passing), every tile
        already shown stays where it is on screen, and the board grows away from it, up and down by scrolling.
        Sideways the board never scrolls, so a formation grown past the board's side edge is partly out of
        sight; it is then never moved for the players (a tap aimed at a skydiver would land on another), but
        **Centre** (beside Skip) lights up and the banner says so: one deliberate tap there centres it (and
        turns it a quarter when it is wider than the board, as a player on the next side of the table sees
        it). A second tap on that button does nothing more, so a double tap cannot misfire. The formation is
        centred by itself only when nothing aims at it: the first drawing, and a change of the board's size.
        """
        shown = self.shown
        if shown is None:
            return
        self._draw_panel(shown)
        formation: QuinqueFormation = self.board.ids.formation
        scroller = self.board.ids.scroller
        size = cell_size()
        area = (scroller.width, scroller.height)
        if self._anchor is None or self._fitted_for != area:
            self._turn_to(self._should_turn(shown, area[0]))
            ox, oy = self._fitted(shown, area)
        else:
            # Where the grid's (0, 0) sits in the board area now: its place on the formation, as scrolled.
            # (The scroller moves its content by a translation, not by the formation's pos.)
            ox = self._anchor[0]
            oy = self._anchor[1] - scroller.scroll_y * max(0.0, formation.height - area[1])
        self._fitted_for = area
        placed = [self._place(c.at) for c in shown.cells] or [(0, 0)]
        rows = [r for _, r in placed]
        # Up and down the formation grows away from what is shown: the scroller keeps every tile in its place.
        min_y, max_y = min(0.0, oy - max(rows) * size), max(area[1], oy - min(rows) * size + size)
        formation.size = (area[0], max_y - min_y)
        self._anchor = (ox, oy - min_y)
        spare_y = formation.height - area[1]
        scroller.scroll_x = 0
        scroller.scroll_y = -min_y / spare_y if spare_y > 0 else 0
        self._offer_centring(shown, ox, area)
        anchor_x, anchor_y = self._anchor

        def origin(at: Pos) -> tuple[float, float]:
            col, row = self._place(at)
            return anchor_x + col * size, anchor_y - row * size

        # A drawing keeps the widgets of the last one where a place is drawn again, where they are on the formation
        # (what a move changes is a tile or two: making every skydiver anew cost a late game's move most of its time),
        # and lays out again only those whose cell, place or colours changed (most taps change two or three).
        self._spare_tiles, self._spare_spaces = self.tile_views, self.spaces
        self._colours = (tuple(p.colour for p in shown.players), tuple(theme.SEAT_COLOURS), self._turned)
        formation.ids.clear()
        self.spots, self.tile_views, self.spaces = {}, {}, {}
        for cell in shown.cells:
            if cell.kind == "space":
                self._add_space(formation, cell, origin(cell.at))
            else:
                self._add_tile(formation, cell, origin(cell.at))
        for gone in (*self._spare_tiles.values(), *self._spare_spaces.values()):
            formation.remove_widget(gone)  # those not drawn again are let go
        self._idle_spaces.extend(self._spare_spaces.values())
        self._spare_tiles, self._spare_spaces = {}, {}
        self._ring_line(formation, shown.line_ends, origin)
        self._spaces_ahead()

    def centre(self) -> None:
        """Centre the formation in the board (turned a quarter if it is wider than the board): the one way it
        moves sideways, and only on this deliberate tap (issue 21: nothing moves under a finger)."""
        if self.shown is None or not self.board.can_centre:
            return  # a double tap's second half: the formation is centred already, nothing moves again
        self._anchor = None  # the next drawing fits it again
        self.board.can_centre = False
        self.say("")
        self._redraw()

    def _turn_to(self, turned: bool) -> None:
        if turned != self._turned:
            self.say(
                "The formation is wider than the board: it is shown turned a quarter, as from the next side "
                "of the table, and scrolls up and down."
                if turned
                else "The formation is shown the right way round again."
            )
        self._turned = turned

    def _offer_centring(self, shown: QuinqueShown, ox: float, area: tuple[float, float]) -> None:
        """Light **Centre** when centring would show more: part of the formation lies past the
        board's side, or a formation shown turned fits the right way round again; or when it sits a whole
        column or more off the board's middle (the banner says nothing then: all of it is in sight)."""
        size = cell_size()
        cols = [self._place(c.at)[0] for c in shown.cells] or [0]
        cut = ox + min(cols) * size < -1 or ox + (max(cols) + 1) * size > area[0] + 1
        turned = self._should_turn(shown, area[0])
        back = self._turned and not turned and shown.columns * size <= area[0] + 1
        off = abs(self._fitted(shown, area, turned=turned)[0] - ox)
        helps = back or turned != self._turned or off > (1 if cut else size - 1)  # or a whole column off middle
        news = CUT if cut and helps else FITS_AGAIN if back else ""
        if news and news != self._news:
            self.say(news)  # once, when it becomes true
        elif not news and self.banner in (CUT, FITS_AGAIN):
            self.say("")  # nothing past the side any more (undone, or the faint spaces gone): the banner says no more
        self._news = news
        self.board.can_centre = helps

    def _place(self, at: Pos, turned: bool | None = None) -> Pos:
        """A grid cell's column and row on screen: as on the table, or turned a quarter clockwise."""
        return (-at[1], at[0]) if (self._turned if turned is None else turned) else at

    def _corner_place(self, i: int) -> tuple[int, int]:
        """Where a tile's `i`th skydiver (nw, ne, sw, se) sits in the tile on screen: column, row (0 top)."""
        x, y = i % 2, i // 2
        return (1 - y, x) if self._turned else (x, y)

    def _span(self, shown: QuinqueShown, turned: bool) -> tuple[int, int, int, int]:
        """The first column and row on screen, and how many columns and rows the formation takes."""
        placed = [self._place(c.at, turned) for c in shown.cells] or [(0, 0)]
        left, top = min(c for c, _ in placed), min(r for _, r in placed)
        return left, top, max(c for c, _ in placed) - left + 1, max(r for _, r in placed) - top + 1

    def _should_turn(self, shown: QuinqueShown, width: float) -> bool:
        """Shown turned a quarter when the formation is wider than the board and turning it makes it fit."""
        size = cell_size()
        return shown.columns * size > width + 1 and shown.rows * size <= width + 1

    def _fitted(
        self, shown: QuinqueShown, area: tuple[float, float], *, turned: bool | None = None
    ) -> tuple[float, float]:
        """Where the grid's (0, 0) goes in the board area for the formation to sit in its middle."""
        size = cell_size()
        left, top, columns, rows = self._span(shown, self._turned if turned is None else turned)
        width, height = columns * size, rows * size
        return (area[0] - width) / 2 - left * size, (area[1] - height) / 2 + (top + rows - 1) * size

    def _add_space(self, formation: QuinqueFormation, cell: CellShown, pos: tuple[float, float]) -> None:
        inset = edge()
        space = self._spare_spaces.pop(cell.at, None)
        if space is None and self._idle_spaces:
            space = self._idle_spaces.pop()
            space.at = cell.at
        if space is None:
            space = self._new_space(cell.at)
        if space.drawn_as != (cell, pos):
            space.pos, space.size = (pos[0] + inset, pos[1] + inset), (cell_size() - 2 * inset,) * 2
            space.back, space.edge = (theme.LIT_SPACE, theme.ACCENT) if cell.lit else (theme.SPACE, CLEAR)
            space.drawn_as = (cell, pos)
        if space.parent is None:
            formation.add_widget(space, index=len(formation.children))  # under every tile
        self.spaces[cell.at] = space
        formation.ids[f"space_{cell.at[0]}_{cell.at[1]}"] = space  # named by its place: a moved tile is another place

    def _new_space(self, at: Pos) -> QuinqueSpace:
        space = QuinqueSpace(at, size=(cell_size() - 2 * edge(),) * 2)
        space.bind(on_press=lambda w: self.touch_space(w.at))
        return space

    def spaces_wanted(self) -> int:
        """How many spaces the next taps may show: the ring of empty places around the tiles, and those a tile
        added would bring."""
        tiles = [cell.at for cell in self.shown.cells if cell.kind == "tile"] if self.shown else []
        return len(empty_ring(tiles)) + SPACES_GROWN

    def _make_space_ahead(self, _dt: float) -> None:
        """One space a frame, drawn into its buffer, until there are as many as the next taps may show. A touch
        waits for one space's making at most; none is begun while a touch waits for its answer."""
        if self._closed or len(self.spaces) + len(self._idle_spaces) >= self.spaces_wanted():
            return
        if quiet_gc.answered():
            space = self._new_space((0, 0))
            space.draw_now()
            self._idle_spaces.append(space)
        Clock.schedule_once(self._make_space_ahead, 0)

    def _add_tile(self, formation: QuinqueFormation, cell: CellShown, pos: tuple[float, float]) -> None:
        tile = self._spare_tiles.pop(cell.at, None) or QuinqueTile(cell.at)
        if tile.drawn_as != (cell, pos, self._colours):
            self._lay_out_tile(tile, cell, pos)
            tile.drawn_as = (cell, pos, self._colours)
        for skydiver, spot in zip(cell.skydivers, tile.spots, strict=True):
            self.spots[(cell.at, skydiver.corner)] = spot
            formation.ids[f"spot_{cell.at[0]}_{cell.at[1]}_{skydiver.corner}"] = spot
        if tile.parent is None:
            formation.add_widget(tile)  # over every space
        self.tile_views[cell.at] = tile

    def _lay_out_tile(self, tile: QuinqueTile, cell: CellShown, pos: tuple[float, float]) -> None:
        size = cell_size()
        tile.pos, tile.size = pos, (size, size)
        look: tuple[theme.RGBA, theme.RGBA, bool, float] = (theme.TILE, theme.TILE_EDGE, False, 1.2)
        if cell.kind == "open":
            look = (theme.OPEN_SPACE, (*theme.ACCENT[:3], 0.7), True, 1)
        elif cell.chosen:
            look = (theme.TILE_CHOSEN, theme.TEXT, False, 3)
        elif cell.outlined:
            look = (theme.TILE, (*theme.ACCENT[:3], 0.7), False, 1.6)
        fill, line, dashed, line_width = look
        if line_width > 1:  # a wide line is opaque (`theme.solid`); a dashed one is a plain line, one px wide
            line = theme.solid(line, theme.BG)
        # Set once, each to its last value: a tile whose look is unchanged is not drawn again into its buffer.
        tile.back, tile.edge, tile.dashed, tile.edge_width = fill, line, dashed, line_width
        back = theme.solid(tile.back, theme.BG)  # what a skydiver's ring is seen over
        pad, step = edge(), spot_size() + spot_gap()
        while len(tile.spots) < len(cell.skydivers):
            spot = QuinqueSpot(size=(spot_size(), spot_size()))
            spot.bind(on_press=lambda w, at=cell.at: self.touch_skydiver(at, w.corner))
            tile.spots.append(spot)
            tile.add_widget(spot)
        for spot in tile.spots[len(cell.skydivers) :]:
            tile.remove_widget(spot)
        del tile.spots[len(cell.skydivers) :]
        for i, (skydiver, spot) in enumerate(zip(cell.skydivers, tile.spots, strict=True)):
            col, row = self._corner_place(i)
            spot.pos = (pad + col * step, pad + (1 - row) * step)
            spot.text, spot.corner = skydiver.initial, skydiver.corner
            if skydiver.seat is not None:
                spot.fill, spot.ring = self._colour(skydiver.seat), theme.solid((*theme.TEXT[:3], 0.9), back)
            else:
                faint = theme.solid((*theme.ACCENT[:3], 0.6), back)
                spot.fill, spot.ring = CLEAR, faint if cell.kind == "open" else theme.MUTED
            spot.glow = theme.WINNING_LINE if skydiver.in_line else CLEAR

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
        col, row = self._corner_place(x % 2 + 2 * (y % 2))
        pad, step, half = edge(), spot_size() + spot_gap(), spot_size() / 2
        return ox + pad + col * step + half, oy + pad + (1 - row) * step + half

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
