"""Quantum Link on the touchscreen: the hex board, two taps per die, covers and scores live.

Thin over `ui.presenters.quantum_link`: the presenter says what every hex,
card and button shows and builds the actions a tap sends; this module lays
the hexes out in pixels, paints them in the theme's colours and wires the
taps. A placement is two taps: the hex, then the face from the big picker
beside the board.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from kivy.app import App
from kivy.clock import Clock
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
from kivy.utils import get_hex_from_color

from companion.game import Action, GameView
from companion.palette import is_light
from ui import theme
from ui.presenters import quantum_link as presenter
from ui.presenters.quantum_link import Cell, HexShown, QuantumLinkShown, Selection
from ui.screens.base import GameScreen
from ui.widgets import shapes
from ui.widgets.fitted_popup import FittedPopup
from ui.widgets.fitting import fit_text

RGBA = theme.RGBA
SQRT3 = math.sqrt(3.0)
LEAST_SQUASH = 0.9
"""How much flatter than a regular hex a hex may be drawn: a board short of height (the 800x480 panel) keeps
its hexes 48 px across (a finger's width) by drawing them up to a tenth flatter, which the eye hardly sees."""

# A hex's outline: its colour and width, by what the presenter marks it as.
OUTLINES: dict[str, tuple[RGBA, float]] = {
    "": (theme.HEX_EDGE, 1.0),
    "selected": (theme.ACCENT, 3.0),
    "just covered": (theme.WARN, 3.0),
    "last": (theme.ACCENT, 2.0),
}


def _shade(colour: RGBA, factor: float) -> RGBA:
    r, g, b, a = colour
    return (r * factor, g * factor, b * factor, a)


def _ink_on(colour: RGBA) -> RGBA:
    """Black or white, whichever reads better on `colour` (`companion.palette.is_light`: the one rule)."""
    return theme.INK if is_light(get_hex_from_color(colour)[:7]) else (1.0, 1.0, 1.0, 1.0)


def _hex_points(cx: float, cy: float, radius: float, squash: float = 1.0) -> list[float]:
    points: list[float] = []
    for i in range(6):
        angle = math.radians(60 * i - 30)  # pointy tops: rows are horizontal
        points += [cx + radius * math.cos(angle), cy + radius * squash * math.sin(angle)]
    return points


def _mesh(points: list[float]) -> list[float]:
    vertices: list[float] = []
    for i in range(0, len(points), 2):
        vertices += [points[i], points[i + 1], 0.0, 0.0]
    return vertices


class HexCell(Label):
    """One hex of the board with whatever sits on it; the face value is its text.

    A tap anywhere in the hex picks it (`HexBoard.on_touch_down` hands it over): the layout audit checks it by
    the hex grid's rule (`tap_shape`: its inscribed circle at least 48 px across at 800x480).
    """

    is_tap_target = True
    tap_shape = "hex"
    cell = ListProperty([0, 0])
    hex_radius = NumericProperty(10.0)
    squash = NumericProperty(1.0)  # its height over a regular hex's

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # The owner's initial in the die's corner, a label of its own: who owns a die is never told by colour
        # alone, and the initial is text a reader (or the layout audit) finds, not only pixels. Made when the
        # hex first holds a die: most hexes of a new board never do, and 61 labels more cost a resume 20 ms.
        self.mark: Label | None = None

    def paint(self, shown: HexShown) -> None:
        """Draw this hex as the presenter shows it."""
        cx, cy = self.center
        s = self.hex_radius
        if self.mark is not None:
            self.mark.text = ""
        outline = _hex_points(cx, cy, s * 0.95, self.squash)
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*(_shade(theme.HEX, 1.5) if shown.outline == "selected" else theme.HEX))
            Mesh(vertices=_mesh(outline), indices=list(range(6)), mode="triangle_fan")
            edge, width = OUTLINES[shown.outline]
            Color(*edge)
            shapes.outline(points=outline, close=True, width=width)
            die = shown.die
            self.text = ""
            if die is None:
                return
            colour = theme.rgba(die.colour)
            side = s * 1.12
            square = {"pos": (cx - side / 2, cy - side / 2), "size": (side, side), "radius": [side * 0.2]}
            if die.covered:
                # The counter: a round chip of the die's colour over a dimmed die, so it never looks like a die.
                Color(*_shade(colour, 0.35))
                RoundedRectangle(**square)
                chip = s * 1.3
                Color(*_shade(colour, 0.6))
                Ellipse(pos=(cx - chip / 2, cy - chip / 2), size=(chip, chip), segments=theme.CIRCLE_SEGMENTS)
                Color(*theme.CHIP_LINE)
                shapes.outline(circle=(cx, cy, chip / 2 - dp(1.5), 0, 360, theme.CIRCLE_SEGMENTS), width=dp(1.6))
                Color(*colour)
                shapes.outline(circle=(cx, cy, chip * 0.32, 0, 360, theme.CIRCLE_SEGMENTS), width=dp(1.6))
                self.color = (1.0, 1.0, 1.0, 0.55)
                self.font_size = s * 0.5
                self.bold = False
            else:
                Color(*colour)
                RoundedRectangle(**square)
                if die.scoring:
                    Color(*theme.SCORING_FRAME)
                    corner = side * 0.2
                    shapes.outline(rounded_rectangle=(cx - side / 2, cy - side / 2, side, side, corner), width=dp(2))
                self.color = _ink_on(colour)
                self.font_size = s * 0.95
                self.bold = True
                if die.crossed_out:
                    # Dimmed and crossed out, with a dark edge to the cross so it shows on any die colour.
                    Color(*theme.DIMMED)
                    RoundedRectangle(**square)
                    k = side * 0.46
                    for ink, width in ((theme.CHIP_LINE, dp(3.6)), (theme.DEAD, dp(2))):
                        Color(*ink)
                        Line(points=[cx - k, cy - k, cx + k, cy + k], width=width)
                        Line(points=[cx - k, cy + k, cx + k, cy - k], width=width)
                    self.color = (*self.color[:3], 0.6)
            self.text = str(die.face)
            if die.mark:
                if self.mark is None:
                    self.mark = Label(size_hint=(None, None), bold=True)
                    self.add_widget(self.mark)
                mark = self.mark
                mark.text, mark.font_size, mark.color = die.mark, max(dp(10), s * 0.36), (*self.color[:3], 0.9)
                mark.texture_update()
                mark.size = mark.texture_size
                left, top = cx - side / 2 + side * 0.07, cy + side / 2 - side * 0.04
                mark.pos = (left, top - mark.height)


class HexBoard(Widget):
    """The 61 hexes, as large as the space allows; a tap anywhere in a hex picks that hex."""

    screen = ObjectProperty(None)
    hex_radius = NumericProperty(10.0)
    squash = NumericProperty(1.0)  # the hexes' height over a regular hex's (LEAST_SQUASH at the least)
    radius = NumericProperty(4)  # cells from the centre to the edge

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cells: dict[Cell, HexCell] = {}
        self._shown: QuantumLinkShown | None = None
        # Placed and painted again once per frame at most, before it is drawn: laying the screen out moves and
        # sizes the board several times in one frame, and each time all 61 hexes were painted (issue 26).
        self._place_soon = Clock.create_trigger(self._place, -1)
        self.bind(pos=self._place_soon, size=self._place_soon)

    def show(self, shown: QuantumLinkShown) -> None:
        if not self.cells:
            self.radius = shown.radius
            for hex_ in shown.hexes:
                self.cells[hex_.cell] = HexCell(cell=list(hex_.cell), size_hint=(None, None))
                self.add_widget(self.cells[hex_.cell])
        self._shown = shown
        if self.get_root_window() is None:
            self._place_soon()  # not on screen yet (the screen is being built): painted once laid out
        else:
            self._place()  # a move: shown at once

    def _place(self, *_args: Any) -> None:
        # No room yet: the layout is still working down from the screen (it gives the board its room within
        # the same frame, through a size or two of nothing, each of which would paint all 61 hexes).
        if self._shown is None or self.width <= 0 or self.height <= 0:
            return
        rows = 2 * self.radius + 1
        # Pointy-top hexes: the board is rows*sqrt3*s wide and (1.5*(rows-1)+2)*s high.
        by_height = self.height / (1.5 * (rows - 1) + 2)
        self.hex_radius = max(1.0, min(self.width / (rows * SQRT3), by_height / LEAST_SQUASH))
        self.squash = min(1.0, by_height / self.hex_radius)
        for cell, widget in self.cells.items():
            widget.hex_radius, widget.squash = self.hex_radius, self.squash
            widget.size = (SQRT3 * self.hex_radius, 2 * self.hex_radius * self.squash)
            widget.center = self.cell_centre(cell)
        for hex_ in self._shown.hexes:
            self.cells[hex_.cell].paint(hex_)

    def cell_centre(self, cell: Cell) -> tuple[float, float]:
        q, r = cell
        s = self.hex_radius
        return (self.center_x + SQRT3 * s * (q + r / 2), self.center_y - 1.5 * s * self.squash * r)

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The hex under window point (x, y), or None off the board."""
        s = self.hex_radius
        fx, fy = (x - self.center_x) / s, (self.center_y - y) / (s * self.squash)
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


class PlayerCard(BoxLayout):
    """One player's colour, name, live score and dice left; lit while it is their turn."""

    name = StringProperty("")
    score = StringProperty("0")
    detail = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    ink = ListProperty([0, 0, 0, 1])  # the initial on the swatch: dark or light, whichever reads on the colour
    mark = StringProperty("")  # the initial this player's dice wear
    active = BooleanProperty(False)


class PassConfirm(FittedPopup):
    """The pass that would end the game asks first; its confirm lies nowhere near the Pass button.

    Pass stays in one place for both players, so a double tap used to pass twice and end the game.
    """

    question = StringProperty("")
    screen = ObjectProperty(None)

    def confirm(self) -> None:
        self.dismiss()
        self.screen.pass_turn(confirmed=True)


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
    turn_colour = ListProperty(list(theme.BUTTON))  # the picker wears the colour of the die being placed
    turn_ink = ListProperty(list(theme.TEXT))

    def build_body(self) -> Widget:
        self.selection = Selection()
        self.view: GameView | None = None
        self.shown: QuantumLinkShown | None = None
        self.body = QuantumLinkBody(screen=self)
        fit_text(self.body.ids.rematch_button)  # "New game, <a long name> opens" wraps rather than ends in "…"
        return self.body

    @property
    def board(self) -> HexBoard:
        board: HexBoard = self.body.ids.board
        return board

    def render(self, view: GameView) -> None:
        self.view = view
        self.selection = replace(self.selection, looking_at=None)  # the board changed: back to its news
        self._show()

    def _show(self) -> None:
        """Ask the presenter what to show now, and show it."""
        assert self.view is not None
        view = self.session.view()  # typed: the presenter reads its fields (the log moved the session to its step)
        turn = view.turn
        legal = self.session.legal_actions(turn) if turn else []
        shown = presenter.present(view, legal, self.selection, spare_colours=theme.SEAT_COLOURS)
        self.shown, self.selection = shown, shown.selection
        self.mode = shown.mode
        for card, player in zip((self.body.ids.card_0, self.body.ids.card_1), shown.players, strict=True):
            card.name, card.score, card.detail, card.active = player.name, player.score, player.detail, player.active
            card.colour = list(theme.rgba(player.colour))
            card.ink, card.mark = list(_ink_on(theme.rgba(player.colour))), player.mark
        if shown.turn_colour is not None:
            self.turn_colour = list(theme.rgba(shown.turn_colour))
            self.turn_ink = list(_ink_on(theme.rgba(shown.turn_colour)))
        self.info, self.info_is_news, self.prompt = shown.info, shown.info_is_news, shown.prompt
        self.pass_text, self.dead_count, self.show_dead = shown.pass_text, shown.dead_count, shown.show_dead
        self.result_text, self.rematch_text = shown.result_text, shown.rematch_text
        self.board.show(shown)

    # -- taps --------------------------------------------------------------------

    def tap_cell(self, cell: Cell) -> None:
        """First tap: choose the hex (or hear what the die on it is doing)."""
        if self.shown is not None:
            self.selection = presenter.tap_hex(self.shown, cell)
            self._show()

    def pick_face(self, face: int) -> None:
        """Second tap: the face value; the placement goes to the rules."""
        action = presenter.place(self.shown, face) if self.shown is not None else None
        if action is not None:
            self._send_and_let_go(action)

    def cancel_pick(self) -> None:
        self.selection = replace(self.selection, cell=None)
        self._show()

    def pass_turn(self, *, confirmed: bool = False) -> PassConfirm | None:
        """Pass; the pass that ends the game asks first (the popup it opens is returned)."""
        if self.shown is None or self.shown.pass_action is None:
            return None
        if self.shown.pass_ends_game and not confirmed:
            popup = PassConfirm(question=presenter.pass_question(self.shown), screen=self)
            popup.open()
            return popup
        self._send_and_let_go(self.shown.pass_action)
        return None

    def toggle_dead(self) -> None:
        self.selection = replace(self.selection, show_dead=not self.selection.show_dead)
        self._show()

    def _send_and_let_go(self, action: Action) -> None:
        self.selection = replace(self.selection, cell=None)
        if not self.send(action):
            self._show()  # refused: back to the board, the banner says why

    def rematch(self) -> None:
        """After a tie: the same players again, the other one opening (as the rules ask)."""
        if self.shown is None or self.shown.rematch is None:
            return
        opening = self.shown.rematch
        app = App.get_running_app()
        options = self.session.options
        app.go_home()  # leave this screen first: the new game's screen has the same name
        screen = app.start_game(self.session.game.name, options)
        screen.send(opening)


SCREEN = QuantumLinkScreen
