"""Quantum Link on the touchscreen: the hex board, two taps per die, covers and scores live.

The screen draws `public_view` and sends actions; every count, cover and
score comes from the rules. A placement is two taps: the hex, then the face
from the big picker beside the board.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Ellipse, Line, Mesh, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.game import View
from ui.screens.base import GameScreen
from ui.screens.home import hex_to_rgba

Cell = tuple[int, int]
RGBA = tuple[float, float, float, float]

SQRT3 = math.sqrt(3.0)
EMPTY = (0.20, 0.22, 0.27, 1.0)
EMPTY_EDGE = (0.32, 0.35, 0.42, 1.0)
ACCENT = (0.31, 0.76, 0.97, 1.0)
WARN = (1.0, 0.72, 0.30, 1.0)
DEAD = (1.0, 0.45, 0.45, 1.0)
SECOND_COLOUR = "#fdd835"  # used when both players chose the same colour


def _shade(colour: RGBA, factor: float) -> RGBA:
    r, g, b, a = colour
    return (r * factor, g * factor, b * factor, a)


def _ink_on(colour: RGBA) -> RGBA:
    """Black or white, whichever reads better on `colour`."""
    r, g, b, _ = colour
    return (0.0, 0.0, 0.0, 1.0) if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else (1.0, 1.0, 1.0, 1.0)


def _hex_points(cx: float, cy: float, radius: float) -> list[float]:
    points: list[float] = []
    for i in range(6):
        angle = math.radians(60 * i - 30)  # pointy tops: rows are horizontal
        points += [cx + radius * math.cos(angle), cy + radius * math.sin(angle)]
    return points


class HexCell(Label):
    """One hex of the board with whatever sits on it; the face value is its text."""

    cell = ListProperty([0, 0])
    hex_radius = NumericProperty(10.0)

    def paint(self, entry: dict[str, Any], colours: dict[str, RGBA], marks: dict[str, bool]) -> None:
        """Draw this cell from its entry in the public view."""
        cx, cy = self.center
        s = self.hex_radius
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*(_shade(EMPTY, 1.5) if marks["selected"] else EMPTY))
            Mesh(vertices=_mesh(_hex_points(cx, cy, s * 0.95)), indices=list(range(6)), mode="triangle_fan")
            edge, width = EMPTY_EDGE, 1.0
            if marks["selected"]:
                edge, width = ACCENT, 3.0
            elif marks["just_covered"]:
                edge, width = WARN, 3.0
            elif marks["last"]:
                edge, width = ACCENT, 2.0
            Color(*edge)
            Line(points=_hex_points(cx, cy, s * 0.95), close=True, width=width)
            die = entry["die"]
            self.text = ""
            if die is None:
                return
            colour = colours[die["player"]]
            side = s * 1.12
            if die["covered"]:
                # The counter: a round chip of the die's colour over a dimmed die, so it never looks like a die.
                Color(*_shade(colour, 0.35))
                RoundedRectangle(pos=(cx - side / 2, cy - side / 2), size=(side, side), radius=[side * 0.2])
                chip = s * 1.3
                Color(*_shade(colour, 0.6))
                Ellipse(pos=(cx - chip / 2, cy - chip / 2), size=(chip, chip))
                Color(0.05, 0.05, 0.07, 1)
                Line(circle=(cx, cy, chip / 2 - dp(1.5)), width=dp(1.6))
                Color(*colour)
                Line(circle=(cx, cy, chip * 0.32), width=dp(1.6))
                self.color = (1, 1, 1, 0.55)
                self.font_size = s * 0.5
                self.bold = False
            else:
                Color(*colour)
                RoundedRectangle(pos=(cx - side / 2, cy - side / 2), size=(side, side), radius=[side * 0.2])
                if die["scoring"]:
                    Color(1, 1, 1, 1)
                    Line(rounded_rectangle=(cx - side / 2, cy - side / 2, side, side, side * 0.2), width=dp(2))
                self.color = _ink_on(colour)
                self.font_size = s * 0.95
                self.bold = True
                if marks["show_dead"] and die["dead"]:
                    # Dimmed and crossed out, with a dark edge to the cross so it shows on any die colour.
                    Color(0, 0, 0, 0.5)
                    RoundedRectangle(pos=(cx - side / 2, cy - side / 2), size=(side, side), radius=[side * 0.2])
                    k = side * 0.46
                    for colour, width in (((0.05, 0.05, 0.07, 1), dp(3.6)), (DEAD, dp(2))):
                        Color(*colour)
                        Line(points=[cx - k, cy - k, cx + k, cy + k], width=width)
                        Line(points=[cx - k, cy + k, cx + k, cy - k], width=width)
                    self.color = (*self.color[:3], 0.6)
            self.text = str(die["face"])


def _mesh(points: list[float]) -> list[float]:
    vertices: list[float] = []
    for i in range(0, len(points), 2):
        vertices += [points[i], points[i + 1], 0.0, 0.0]
    return vertices


class HexBoard(Widget):
    """The 61 hexes, as large as the space allows; a tap anywhere in a hex picks that hex."""

    screen = ObjectProperty(None)
    hex_radius = NumericProperty(10.0)
    radius = NumericProperty(4)  # cells from the centre to the edge

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cells: dict[Cell, HexCell] = {}
        self._last: tuple[View, Cell | None, bool] | None = None
        self.bind(pos=self._place, size=self._place)

    def show(self, view: View, selected: Cell | None, show_dead: bool) -> None:
        if not self.cells:
            self.radius = view["radius"]
            for entry in view["cells"]:
                cell = (entry["cell"][0], entry["cell"][1])
                self.cells[cell] = HexCell(cell=list(cell), size_hint=(None, None))
                self.add_widget(self.cells[cell])
        self._last = (view, selected, show_dead)
        self._place()

    def _place(self, *_args: Any) -> None:
        if self._last is None:
            return
        rows = 2 * self.radius + 1
        # Pointy-top hexes: the board is rows*sqrt3*s wide and (1.5*(rows-1)+2)*s high.
        self.hex_radius = max(1.0, min(self.width / (rows * SQRT3), self.height / (1.5 * (rows - 1) + 2)))
        for cell, widget in self.cells.items():
            widget.hex_radius = self.hex_radius
            widget.size = (SQRT3 * self.hex_radius, 2 * self.hex_radius)
            widget.center = self.cell_centre(cell)
        self._paint()

    def _paint(self) -> None:
        assert self._last is not None
        view, selected, show_dead = self._last
        colours = _player_colours(view)
        just = {(c[0], c[1]) for c in view["just_covered"]}
        last = tuple(view["last_placed"]) if view["last_placed"] else None
        for entry in view["cells"]:
            cell = (entry["cell"][0], entry["cell"][1])
            marks = {"selected": cell == selected, "just_covered": cell in just, "last": cell == last}
            self.cells[cell].paint(entry, colours, {**marks, "show_dead": show_dead})

    def cell_centre(self, cell: Cell) -> tuple[float, float]:
        q, r = cell
        s = self.hex_radius
        return (self.center_x + SQRT3 * s * (q + r / 2), self.center_y - 1.5 * s * r)

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The hex under window point (x, y), or None off the board."""
        s = self.hex_radius
        fx, fy = (x - self.center_x) / s, (self.center_y - y) / s
        q, r = SQRT3 / 3 * fx - fy / 3, 2 / 3 * fy
        # Round cube coordinates to the nearest hex.
        cq, cr, cs = round(q), round(r), round(-q - r)
        dq, dr, ds = abs(cq - q), abs(cr - r), abs(cs - (-q - r))
        if dq > dr and dq > ds:
            cq = -cr - cs
        elif dr > ds:
            cr = -cq - cs
        cell = (int(cq), int(cr))
        return cell if cell in self.cells else None

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        cell = self.cell_at(*touch.pos)
        if cell is not None and self.screen is not None:
            self.screen.tap_cell(cell)
        return True


def _player_colours(view: View) -> dict[str, RGBA]:
    first, second = view["players"]
    colours = [first["colour"], second["colour"]]
    if colours[0].lower() == colours[1].lower():
        colours[1] = SECOND_COLOUR if colours[0].lower() != SECOND_COLOUR else "#1e88e5"
    return {first["name"]: hex_to_rgba(colours[0]), second["name"]: hex_to_rgba(colours[1])}


class PlayerCard(BoxLayout):
    """One player's colour, name, live score and dice left; lit while it is their turn."""

    name = StringProperty("")
    score = StringProperty("0")
    detail = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    active = BooleanProperty(False)


class QuantumLinkBody(BoxLayout):
    """The board on the left, scores and the face picker on the right (see quantum_link.kv)."""

    screen = ObjectProperty(None)


class QuantumLinkScreen(GameScreen):
    """Quantum Link: tap a hex, then the face; the companion covers and counts."""

    mode = OptionProperty("play", options=["play", "pick", "over"])
    show_dead = BooleanProperty(False)
    dead_count = NumericProperty(0)
    info = StringProperty("")
    info_is_news = BooleanProperty(False)
    prompt = StringProperty("")
    pass_text = StringProperty("Pass")
    result_text = StringProperty("")
    rematch_text = StringProperty("")
    turn_colour = ListProperty([0.24, 0.27, 0.34, 1])  # the picker wears the colour of the die being placed
    turn_ink = ListProperty([1, 1, 1, 1])

    def build_body(self) -> Widget:
        self.selected: Cell | None = None
        self.view: View | None = None
        self.body = QuantumLinkBody(screen=self)
        return self.body

    @property
    def board(self) -> HexBoard:
        board: HexBoard = self.body.ids.board
        return board

    def render(self, view: View) -> None:
        self.view = view
        if view["over"] or view["turn"] is None:
            self.selected = None
        if self.selected is not None and self._die_at(self.selected) is not None:
            self.selected = None  # someone else filled it (redo, a display)
        self.mode = "over" if view["over"] else ("pick" if self.selected else "play")
        colours = _player_colours(view)
        for card, player in zip((self.body.ids.card_0, self.body.ids.card_1), view["players"], strict=True):
            card.name = player["name"]
            card.colour = list(colours[player["name"]])
            card.score = str(player["score"])
            covered = f", {player['covered']} covered" if player["covered"] else ""
            card.detail = f"{player['dice_left']} dice left{covered}"
            card.active = view["turn"] == player["name"]
        self.pass_text = f"{view['turn']} passes" if view["turn"] else "Pass"
        if view["turn"]:
            self.turn_colour = list(colours[view["turn"]])
            self.turn_ink = list(_ink_on(colours[view["turn"]]))
        self.dead_count = sum(1 for c in view["cells"] if c["die"] and c["die"]["dead"] and not c["die"]["covered"])
        covered_now = len(view["just_covered"])
        if covered_now > 3:
            self.info = f"Cover the {covered_now} dice ringed in orange on the table too."
        else:
            self.info = view["news"]
        self.info_is_news = bool(self.info)
        if not self.info and not view["over"]:
            self.info = "Tap a hex, then the face of the die placed there. A white frame marks a die that scores now."
        result = view["result"]
        self.result_text = result["detail"] if result else ""
        self.rematch_text = f"New game, {view['rematch']['opener']} opens" if view["rematch"] else ""
        self._update_prompt()
        self.board.show(view, self.selected, self.show_dead)

    def _die_at(self, cell: Cell) -> dict[str, Any] | None:
        assert self.view is not None
        for entry in self.view["cells"]:
            if (entry["cell"][0], entry["cell"][1]) == cell:
                return entry["die"]  # type: ignore[no-any-return]
        return None

    def _name_of(self, cell: Cell) -> str:
        assert self.view is not None
        return next(e["name"] for e in self.view["cells"] if (e["cell"][0], e["cell"][1]) == cell)

    def _update_prompt(self) -> None:
        if self.selected is not None and self.view is not None and self.view["turn"]:
            self.prompt = f"{self.view['turn']}'s die at {self._name_of(self.selected)}: which face is up?"
        else:
            self.prompt = ""

    # -- taps --------------------------------------------------------------------

    def tap_cell(self, cell: Cell) -> None:
        """First tap: choose the hex (or learn about the die on it)."""
        if self.view is None:
            return
        die = self._die_at(cell)
        if die is not None:
            state = "covered" if die["covered"] else ("scoring now" if die["scoring"] else "not scoring now")
            n = die["friends"]
            self.info = (
                f"{self._name_of(cell)}: {die['player']}'s {die['face']}, "
                f"{n} friendly neighbour{'s' if n != 1 else ''}, {state}."
            )
            self.info_is_news = False
            return
        if self.view["over"]:
            return
        self.selected = None if self.selected == cell else cell
        self.mode = "pick" if self.selected else "play"
        self._update_prompt()
        self.board.show(self.view, self.selected, self.show_dead)

    def pick_face(self, face: int) -> None:
        """Second tap: the face value; the placement goes to the rules."""
        if self.selected is None or self.view is None or not self.view["turn"]:
            return
        cell, self.selected = self.selected, None
        if not self.send({"type": "place", "player": self.view["turn"], "cell": list(cell), "face": face}):
            self.refresh()  # refused: back to the board, the banner says why

    def cancel_pick(self) -> None:
        self.selected = None
        if self.view is not None:
            self.render(self.view)

    def pass_turn(self) -> None:
        if self.view is not None and self.view["turn"]:
            self.selected = None
            self.send({"type": "pass", "player": self.view["turn"]})

    def toggle_dead(self) -> None:
        self.show_dead = not self.show_dead
        if self.view is not None:
            self.board.show(self.view, self.selected, self.show_dead)

    def rematch(self) -> None:
        """After a tie: the same players again, the other one opening (as the rules ask)."""
        if self.view is None or not self.view["rematch"]:
            return
        opener = self.view["rematch"]["opener"]
        previous = self.view["opener"]
        app = App.get_running_app()
        options = self.session.options
        app.go_home()  # leave this screen first: the new game's screen has the same name
        screen = app.start_game(self.session.rules.name, options)
        screen.send({"type": "choose_first", "player": opener, "chosen_by": previous, "how": "table"})
