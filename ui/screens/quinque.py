"""The Quinque screen: the skydiver formation, scrollable, mirrored from the table.

The screen renders the public view and sends actions; the rules decide. In
the first part of a turn a tap on a free skydiver marks it, and a tap on a
skydiver of a faint space adds a tile there and marks it. In the second part
a tap on a tile selects it, its legal destinations light up, and a tap on one
moves it there (a tap on any other space sends the move anyway, so the rules
say why it is refused). Skip ends the turn without a move.
"""

from __future__ import annotations

import math
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
from kivy.utils import get_color_from_hex

from companion.game import View
from ui.screens.base import GameScreen

Pos = tuple[int, int]
CORNERS = ("nw", "ne", "sw", "se")  # as in the view: corner i sits at column i % 2, row i // 2 of its tile
FALLBACK_COLOURS = ("#e53935", "#1e88e5")
CLEAR = (0.0, 0.0, 0.0, 0.0)
GOLD = (1.0, 0.84, 0.2, 1.0)
TILE_BACK = (0.20, 0.23, 0.29, 1.0)
SPACE_BACK = (0.31, 0.76, 0.97, 0.10)
EMPTY_BACK = (1.0, 1.0, 1.0, 0.025)
ACCENT = (0.31, 0.76, 0.97, 1.0)
MUTED = (0.65, 0.68, 0.74, 1.0)


def cell_size() -> float:
    """One tile on screen: two skydivers of at least 48 px each way, plus a margin."""
    return dp(112)


class QuinqueSpot(ButtonBehavior, Label):
    """One skydiver: a ring when free, a disc in the player's colour (with an initial) when marked."""

    fill = ColorProperty(CLEAR)
    ring = ColorProperty(MUTED)
    glow = ColorProperty(CLEAR)  # gold when this skydiver is part of the winning line


class QuinqueTile(RelativeLayout):
    """A placed tile (or a faint space where one may be added) holding four `QuinqueSpot`s."""

    back = ColorProperty(TILE_BACK)
    edge = ColorProperty((1, 1, 1, 0.18))
    edge_width = NumericProperty(1.2)
    dashed = BooleanProperty(False)


class QuinqueSpace(ButtonBehavior, Widget):
    """An empty space in the move step: lit when the selected tile may go there."""

    back = ColorProperty(EMPTY_BACK)
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
        self.selected: Pos | None = None
        self.spots: dict[tuple[Pos, str], QuinqueSpot] = {}
        self.tile_views: dict[Pos, QuinqueTile] = {}
        self.spaces: dict[Pos, QuinqueSpace] = {}
        self._view: View = {}
        self._redraw = Clock.create_trigger(lambda _dt: self.draw())
        super().__init__(*args, **kwargs)

    # -- building and rendering ----------------------------------------------------------

    def build_body(self) -> Widget:
        self.board = QuinqueBoard(screen=self)
        self.board.ids.scroller.bind(size=lambda *_: self._redraw())
        Clock.schedule_once(lambda _dt: self._centre(), 0)
        return self.board

    def render(self, view: View) -> None:
        self._view = view
        movable = {tuple(m["from"]) for m in view["moves"]}
        if self.selected not in movable:
            self.selected = None
        self._redraw()  # widgets are rebuilt on the next frame, never inside the touch that changed them

    @property
    def colours(self) -> list[tuple[float, ...]]:
        chosen = [p.colour for p in self.session.options.players]
        if len(set(chosen)) < len(chosen):
            chosen = list(FALLBACK_COLOURS)
        return [tuple(get_color_from_hex(c)) for c in chosen]

    def draw(self) -> None:
        """Lay the formation out again from the last view, and the side panel with it."""
        view = self._view
        if not view:
            return
        names = [p["name"] for p in view["players"]]
        colours = dict(zip(names, self.colours, strict=True))
        initials = _initials(names)
        self._draw_panel(view, names, colours)

        tiles = {tuple(t["at"]): t for t in view["tiles"]}
        moves = {tuple(m["from"]): {tuple(p) for p in m["to"]} for m in view["moves"]}
        lit = moves.get(self.selected, set()) if self.selected else set()
        opens = [tuple(p) for p in view["open_spaces"]]
        empties: set[Pos] = set()
        if view["step"] == "move" and tiles:
            empties = {(c + dc, r + dr) for c, r in tiles for dc in (-1, 0, 1) for dr in (-1, 0, 1)} - set(tiles)
        cells = set(tiles) | set(opens) | empties
        if not cells:
            cells = {(0, 0)}

        formation: QuinqueFormation = self.board.ids.formation
        scroller = self.board.ids.scroller
        size = cell_size()
        min_c, max_c = min(c for c, _ in cells), max(c for c, _ in cells)
        min_r, max_r = min(r for _, r in cells), max(r for _, r in cells)
        width, height = (max_c - min_c + 1) * size, (max_r - min_r + 1) * size
        formation.size = (max(width, scroller.width), max(height, scroller.height))
        off_x, off_y = (formation.width - width) / 2, (formation.height - height) / 2

        def origin(at: Pos) -> tuple[float, float]:
            return off_x + (at[0] - min_c) * size, off_y + (max_r - at[1]) * size

        formation.clear_widgets()
        self.spots, self.tile_views, self.spaces = {}, {}, {}
        line = {tuple(p) for p in view["line"]}
        for at in sorted(empties):
            space = QuinqueSpace(pos=origin(at), size=(size, size))
            if at in lit:
                space.back, space.edge = (*ACCENT[:3], 0.35), ACCENT
            space.bind(on_press=lambda _w, at=at: self.touch_space(at))
            formation.add_widget(space)
            self.spaces[at] = space
        for at in opens:
            self._add_tile_view(formation, at, origin(at), None, colours, initials, line)
        for at, tile in tiles.items():
            self._add_tile_view(formation, at, origin(at), tile, colours, initials, line)
        self._ring_line(formation, sorted(line), origin)

    def _add_tile_view(
        self,
        formation: QuinqueFormation,
        at: Pos,
        pos: tuple[float, float],
        tile: dict[str, Any] | None,
        colours: dict[str, tuple[float, ...]],
        initials: dict[str, str],
        line: set[Pos],
    ) -> None:
        size = cell_size()
        view = QuinqueTile(pos=pos, size=(size, size))
        if tile is None:  # a faint space where a new tile may be added
            view.back, view.edge, view.dashed, view.edge_width = SPACE_BACK, (*ACCENT[:3], 0.7), True, 1
        elif at == self.selected:
            view.back, view.edge, view.edge_width = (0.30, 0.34, 0.42, 1), (1, 1, 1, 1), 3
        elif self._view["step"] == "move" and tile["stays"] is None and self.selected is None:
            # Outlined = may move; a tap on any other tile says why it stays.
            view.edge, view.edge_width = (*ACCENT[:3], 0.7), 1.6
        pad = (size - 2 * _spot_size()) / 2
        for i, corner in enumerate(CORNERS):
            owner = tile["skydivers"][corner] if tile else None
            spot = QuinqueSpot(
                size_hint=(None, None),
                size=(_spot_size(), _spot_size()),
                pos=(pad + (i % 2) * _spot_size(), pad + (1 - i // 2) * _spot_size()),
                text=initials.get(owner, "") if owner else "",
            )
            if owner:
                spot.fill, spot.ring = colours[owner], (1, 1, 1, 0.9)
            elif tile is None:
                spot.ring = (*ACCENT[:3], 0.6)
            skydiver = (2 * at[0] + i % 2, 2 * at[1] + i // 2)
            if skydiver in line:
                spot.glow = GOLD
            spot.bind(on_press=lambda _w, at=at, corner=corner: self.touch_skydiver(at, corner))
            view.add_widget(spot)
            self.spots[(at, corner)] = spot
        formation.add_widget(view)
        self.tile_views[at] = view

    def _ring_line(self, formation: QuinqueFormation, line: list[Pos], origin: Any) -> None:
        """A gold capsule around the five skydivers of the winning line (it leaves their letters readable)."""
        formation.line_on = bool(line)
        if not line:
            return
        (x0, y0), (x1, y1) = self._spot_centre(line[0], origin), self._spot_centre(line[-1], origin)
        formation.line_centre = [(x0 + x1) / 2, (y0 + y1) / 2]
        formation.line_length = math.hypot(x1 - x0, y1 - y0) + _spot_size()
        formation.line_angle = math.degrees(math.atan2(y1 - y0, x1 - x0))

    def _spot_centre(self, skydiver: Pos, origin: Any) -> tuple[float, float]:
        x, y = skydiver
        ox, oy = origin((x // 2, y // 2))
        pad = (cell_size() - 2 * _spot_size()) / 2
        half = _spot_size() / 2
        return ox + pad + (x % 2) * _spot_size() + half, oy + pad + (1 - y % 2) * _spot_size() + half

    def _draw_panel(self, view: View, names: list[str], colours: dict[str, tuple[float, ...]]) -> None:
        board = self.board
        for i, player in enumerate(view["players"]):
            row: QuinquePlayerRow = board.ids[f"player{i}"]
            row.name = player["name"]
            row.colour = colours[player["name"]]
            row.counts = f"{player['parachutes_left']} parachutes · {player['tiles_left']} tiles"
            row.active = player["name"] == view["current"]
        board.can_skip = view["step"] == "move"
        board.note = (
            "Advanced moves: 1 parachute, one space along row or column; 2, along row or column; "
            "3, diagonally; 4, any line. Tiles may pass over tiles."
            if view["advanced"]
            else "Moves: along a row, column or diagonal, over other tiles if need be."
        )
        board.hint = self._hint(view)

    def _hint(self, view: View) -> str:
        outcome = self.session.outcome
        if outcome is not None:
            return outcome.detail
        who = view["current"]
        if view["step"] == "mark":
            if not view["tiles"]:
                return f"{who}: tap a skydiver on the first tile to place it with a parachute."
            extra = ", or one in a faint space to add a tile" if view["open_spaces"] else ""
            return f"{who}: tap a free skydiver to give it a parachute{extra}."
        if self.selected is not None:
            return "Tap a lit space to move the tile there, or the tile again to let it go."
        if view["moves"]:
            return f"{who}: tap a tile to move it (outlined ones can), or Skip."
        return f"{who}: no tile can move now; tap Skip."

    def _centre(self) -> None:
        scroller = self.board.ids.scroller
        scroller.scroll_x = scroller.scroll_y = 0.5

    # -- taps -----------------------------------------------------------------------------

    def touch_skydiver(self, at: Pos, corner: str) -> None:
        """A tap on a skydiver: mark it (or add its tile) in the first part of a turn, else pick its tile."""
        view = self._view
        player = view.get("current")
        if view.get("step") == "move":
            self.touch_tile(at)
            return
        placed = any(tuple(t["at"]) == at for t in view["tiles"])
        kind = "mark" if placed else "add"
        self.send({"type": kind, "player": player, "tile": list(at), "skydiver": corner})

    def touch_tile(self, at: Pos) -> None:
        """Select the tile to move (or let it go); say why when it cannot move."""
        tile = next((t for t in self._view["tiles"] if tuple(t["at"]) == at), None)
        if tile is None:
            return
        if self.selected == at:
            self.selected = None
        elif tile["stays"] is not None:
            self.selected = None
            self.say(tile["stays"], error=True)
        else:
            self.selected = at
            self.say("")
        self.board.hint = self._hint(self._view)
        self._redraw()

    def touch_space(self, at: Pos) -> None:
        """A tap on an empty space: move the selected tile there (the rules may refuse, with a reason)."""
        if self.selected is None:
            self.say("Tap the tile you want to move first, then where it goes.")
            return
        start, self.selected = self.selected, None
        if not self.send({"type": "move", "player": self._view["current"], "from": list(start), "to": list(at)}):
            self._redraw()

    def skip(self) -> None:
        """End the turn without moving a tile."""
        self.selected = None
        self.send({"type": "skip", "player": self._view.get("current")})


def _spot_size() -> float:
    return dp(50)


def _initials(names: list[str]) -> dict[str, str]:
    """A letter per player, shown on their parachutes (two letters if both names start alike)."""
    firsts = [n[:1].upper() for n in names]
    if len(set(firsts)) == len(firsts):
        return dict(zip(names, firsts, strict=True))
    return {n: n[:2].title() for n in names}
