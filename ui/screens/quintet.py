"""The Quintet screen: the dice, the capturing circle, and one tap per thing that happened.

Thin over its presenter (`ui.presenters.quintet`): the presenter says what
the screen shows (texts, the dice, the circle, the buttons and what each one
sends) and keeps the circle being tapped; this module draws the dice and the
circle, lays the buttons out and passes taps back. Every tap is one action:
a roll (the same `Roll` a GPIO button sends), a capture of one token, a token
into Safety, the answer to the alliance question; setting the circle gathers
taps, and the finished order goes out as one `SetCircle`.
"""

from __future__ import annotations

import math
import time
from typing import Any

from kivy.animation import Animation
from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.graphics import Color, Ellipse, Line, PopMatrix, PushMatrix, Rectangle, Rotate, RoundedRectangle, Triangle
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.uix.widget import Widget

from companion.dicestats import DiceStats
from companion.game import GameView
from companion.palette import is_light
from ui import theme
from ui.presenters.quintet import (
    TURN_SLOTS,
    ButtonShown,
    PlayerShown,
    QuintetPresenter,
    QuintetShown,
    Tap,
    last_roll_note,
)
from ui.screens.base import GameScreen
from ui.widgets.fitting import fit_text
from ui.widgets.shapes import outline

ROLL_ANIMATION = 0.4
"""Seconds the dice tumble after a roll (the issue allows at most half a second)."""

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.73), (0.73, 0.27)],
    3: [(0.27, 0.73), (0.5, 0.5), (0.73, 0.27)],
    4: [(0.27, 0.27), (0.27, 0.73), (0.73, 0.27), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.27, 0.73), (0.5, 0.5), (0.73, 0.27), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.27, 0.5), (0.27, 0.75), (0.73, 0.25), (0.73, 0.5), (0.73, 0.75)],
}


def _text(text: str, size: float, *, bold: bool = False, width: float | None = None, halign: str = "left") -> Any:
    """A texture holding `text` (for drawing names and numbers on a canvas), wrapped to `width` if given."""
    label = CoreLabel(text=text, font_size=size, bold=bold, text_size=(width, None), halign=halign)
    label.refresh()
    return label.texture


NAME_SIZES = (18, 17, 16, 15, 14)
"""A player's name under their disc, in sp: the largest that fits between the discs beside it."""
NAME_BAND = 44
"""Discs whose centres are less than this many dp apart up or down have their names side by side."""


def _name(name: str, room: float, *, bold: bool) -> Any:
    """`name` as a texture at most `room` wide: a smaller font first, then wrapped (a 16-letter name, five
    players round the circle: their names ran into each other)."""
    for size in NAME_SIZES:
        texture = _text(name, sp(size), bold=bold)
        if texture.width <= room:
            return texture
    return _text(name, sp(NAME_SIZES[-1]), bold=bold, width=room, halign="center")


class DieFace(Widget):
    """One die drawn large: a rounded square with pips; blank before the first roll."""

    value = NumericProperty(0)
    angle = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, value=self._draw, angle=self._draw)

    def _draw(self, *_args: Any) -> None:
        self.canvas.clear()
        side = min(self.width, self.height)
        x = self.center_x - side / 2
        y = self.center_y - side / 2
        with self.canvas:
            PushMatrix()
            Rotate(angle=self.angle, origin=self.center)
            Color(*theme.DIE[:3], 1 if self.value else 0.25)
            RoundedRectangle(pos=(x, y), size=(side, side), radius=[side * 0.16])
            Color(*theme.PIP)
            pip = side * 0.17
            for px, py in PIPS.get(int(self.value), []):
                Ellipse(
                    pos=(x + px * side - pip / 2, y + py * side - pip / 2),
                    size=(pip, pip),
                    segments=theme.CIRCLE_SEGMENTS,
                )
            PopMatrix()


class CaptureCircle(Widget):
    """The capturing circle: each player a disc, an arrow from each predator to its prey.

    Before the circle is set it shows the seats (and the order tapped so far);
    players who are out are listed underneath.
    """

    players = ListProperty()  # `PlayerShown`s, in seat order
    order = ListProperty()  # the circle, or the order being tapped
    closed = BooleanProperty(False)  # draw the arrow from the last back to the first
    current = StringProperty("")
    out_note = StringProperty("")  # who is out, written above the circle

    NOTE_ROOM = 24
    """The room above the circle for one line of the out note, in dp; a longer note wraps and the circle makes room."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._note: Any = None  # the out note's texture, wrapped to the circle's width (`_draw`)
        self.bind(pos=self._draw, size=self._draw, players=self._draw, order=self._draw, current=self._draw)
        self.bind(closed=self._draw, out_note=self._draw)

    def positions(self) -> dict[str, tuple[float, float]]:
        """Where each player's disc sits: the circle's order if set, else the seats; under the out note."""
        shown = [p.name for p in self.players if not p.out]
        ring = list(self.order) + [n for n in shown if n not in self.order] if self.closed else shown
        one_line = dp(self.NOTE_ROOM)
        room = max(one_line, self._note.height + dp(6) if self._note is not None else 0)
        radius = max(10.0, min(self.width, self.height - room) / 2 - dp(48))
        cx, cy = self.center_x, self.center_y + dp(6) - (room - one_line) / 2
        spots = {}
        for i, name in enumerate(ring):
            a = math.pi / 2 - 2 * math.pi * i / max(1, len(ring))
            spots[name] = (cx + radius * math.cos(a), cy + radius * math.sin(a))
        return spots

    def _draw(self, *_args: Any) -> None:
        self.canvas.clear()
        # Five long names do not fit one line beside the dice: the note wraps to the circle's own width.
        self._note = _text(self.out_note, sp(15), width=max(1.0, self.width - dp(8))) if self.out_note else None
        spots = self.positions()
        disc = dp(27)
        by_name: dict[str, PlayerShown] = {p.name: p for p in self.players}
        arrows = list(zip(self.order, self.order[1:], strict=False))
        if self.closed and len(self.order) > 1:
            arrows.append((self.order[-1], self.order[0]))
        labels = {name: _name(name, self._name_room(spots, name), bold=name == self.current) for name in spots}
        # Each player's disc and name, as boxes the arrows keep out of.
        boxes = {
            name: (x - max(disc, labels[name].width / 2) - dp(4), y - disc - dp(6) - labels[name].height, x, y)
            for name, (x, y) in spots.items()
        }
        with self.canvas:
            for predator, prey in arrows:
                if predator in spots and prey in spots:
                    self._arrow(boxes[predator], boxes[prey], disc)
            for name, (x, y) in spots.items():
                player = by_name[name]
                if name == self.current:
                    Color(*theme.ACCENT)
                    outline(circle=(x, y, disc + dp(5), 0, 360, theme.CIRCLE_SEGMENTS), width=dp(2.5))
                Color(*theme.rgba(player.colour))
                Ellipse(pos=(x - disc, y - disc), size=(2 * disc, 2 * disc), segments=theme.CIRCLE_SEGMENTS)
                ink = theme.INK if is_light(player.colour) else theme.TEXT  # tokens that read on the disc
                for k in range(2):  # the two tokens on the board: filled while still there
                    tx, ty = x - dp(9) + k * dp(18), y - dp(10)
                    Color(*ink)
                    if k < player.tokens:
                        Ellipse(pos=(tx - dp(6), ty - dp(6)), size=(dp(12), dp(12)), segments=theme.CIRCLE_SEGMENTS)
                    else:
                        outline(circle=(tx, ty, dp(6), 0, 360, theme.CIRCLE_SEGMENTS), width=dp(1.3))
                if name in self.order and not self.closed:
                    number = _text(str(list(self.order).index(name) + 1), sp(18), bold=True)
                    Color(0, 0, 0, 1)
                    Rectangle(texture=number, pos=(x - number.width / 2, y + dp(1)), size=number.size)
                label = labels[name]
                Color(*theme.TEXT)
                below = y - disc - dp(4) - label.height
                left = min(max(x - label.width / 2, self.x + dp(2)), self.right - dp(2) - label.width)
                Rectangle(texture=label, pos=(left, below), size=label.size)
            note = self._note
            if note is not None:
                Color(*theme.MUTED)
                Rectangle(texture=note, pos=(self.x + dp(4), self.top - note.height - dp(2)), size=note.size)

    def _name_room(self, spots: dict[str, tuple[float, float]], name: str) -> float:
        """How wide `name` may be under its disc: the column, less what the discs beside it at about its height
        take (a name is centred under its disc, and its neighbours' names are as wide at most)."""
        x, y = spots[name]
        beside = [abs(other_x - x) for other, (other_x, other_y) in spots.items() if abs(other_y - y) < dp(NAME_BAND)]
        room = min([float(self.width), *(gap for gap in beside if gap > 0)]) - dp(8)
        return float(max(room, dp(40)))

    def _arrow(self, start: tuple[float, ...], end: tuple[float, ...], disc: float) -> None:
        """An arrow between two players' discs that stops short of both discs and names."""
        x1, y1 = start[2], start[3]
        x2, y2 = end[2], end[3]
        length = math.hypot(x2 - x1, y2 - y1)
        if length < 1:
            return
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        # Shift each arrow a little to its own right, so A→B and B→A (two players) do not overlap.
        ox, oy = uy * dp(5), -ux * dp(5)

        def inside(box: tuple[float, ...], px: float, py: float) -> bool:
            left, bottom, cx, cy = box
            in_disc = math.hypot(px - cx, py - cy) < disc + dp(7)
            in_name = left <= px <= 2 * cx - left and bottom - dp(3) <= py <= cy
            return in_disc or in_name

        steps = 100
        t0 = next(
            (
                i / steps
                for i in range(steps)
                if not inside(start, x1 + ox + ux * length * i / steps, y1 + oy + uy * length * i / steps)
            ),
            1.0,
        )
        t1 = next(
            (
                i / steps
                for i in range(steps, 0, -1)
                if not inside(end, x1 + ox + ux * length * i / steps, y1 + oy + uy * length * i / steps)
            ),
            0.0,
        )
        if t1 - t0 < dp(20) / length:
            return
        ax, ay = x1 + ox + ux * length * t0, y1 + oy + uy * length * t0
        bx, by = x1 + ox + ux * length * t1, y1 + oy + uy * length * t1
        head = dp(13)
        Color(*theme.MUTED)
        Line(points=[ax, ay, bx - ux * head * 0.6, by - uy * head * 0.6], width=dp(2))
        Triangle(
            points=[
                bx,
                by,
                bx - ux * head - uy * head * 0.55,
                by - uy * head + ux * head * 0.55,
                bx - ux * head + uy * head * 0.55,
                by - uy * head - ux * head * 0.55,
            ]
        )


class Histogram(Widget):
    """Two-dice totals 2..12: bars for what came, outlined boxes for what fair dice would bring."""

    stats = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, stats=self._draw)

    def _draw(self, *_args: Any) -> None:
        self.canvas.clear()
        stats: DiceStats | None = self.stats
        if stats is None:
            return
        bars = stats.bars
        top = max([b.count for b in bars] + [b.expected for b in bars] + [1])
        axis = dp(22)
        count_room = dp(20)
        slot = self.width / len(bars)
        usable = max(1.0, self.height - axis - count_room)
        with self.canvas:
            for i, bar in enumerate(bars):
                x = self.x + i * slot + slot * 0.15
                w = slot * 0.7
                h = usable * bar.count / top
                Color(*theme.ACCENT)
                Rectangle(pos=(x, self.y + axis), size=(w, h))
                Color(*theme.WARN)
                outline(rectangle=(x, self.y + axis, w, usable * bar.expected / top), width=dp(1.2))
                total = _text(str(bar.total), sp(15))
                Color(*theme.TEXT)
                Rectangle(texture=total, pos=(x + w / 2 - total.width / 2, self.y), size=total.size)
                if bar.count:
                    count = _text(str(bar.count), sp(13))
                    Rectangle(
                        texture=count,
                        pos=(x + w / 2 - count.width / 2, self.y + axis + h + dp(2)),
                        size=count.size,
                    )


class DiceStatsPopup(Popup):
    """This game's dice and every Quintet game's dice on this appliance, side by side."""

    game_stats = ObjectProperty(None)
    all_stats = ObjectProperty(None)
    last_roll = StringProperty("")


class QuintetBoard(BoxLayout):
    """The body of the Quintet screen (laid out in quintet.kv)."""

    screen = ObjectProperty(None)


class QuintetRow(BoxLayout):
    """One row of buttons under the dice (laid out in quintet.kv)."""


class QuintetScreen(GameScreen):
    """Quintet: roll, set the circle, record captures, answer the alliance question."""

    phase = StringProperty("")
    news = StringProperty("")
    news_tone = StringProperty("text")
    note = StringProperty("")
    roll_text = StringProperty("Roll")
    can_roll = BooleanProperty(False)
    die_a = NumericProperty(0)
    die_b = NumericProperty(0)
    dice_text = StringProperty("")
    tumbling = BooleanProperty(False)

    def build_body(self) -> Widget:
        self.presenter = QuintetPresenter(self.session)
        self.view: GameView | None = None
        self.shown: QuintetShown | None = None
        self._shown_rolls = -1
        return QuintetBoard(screen=self)

    @property
    def board(self) -> QuintetBoard:
        board: QuintetBoard = self.ids.body.children[0]
        return board

    @property
    def picked(self) -> list[str]:
        """The capturing order tapped so far (kept by the presenter)."""
        return list(self.presenter.picked)

    # -- drawing ------------------------------------------------------------------

    def render(self, view: GameView) -> None:
        first_render = self.shown is None
        self.view = view
        shown = self.shown = self.presenter.show()
        self.phase = shown.phase
        self.news = shown.news
        self.news_tone = shown.news_tone
        self.note = shown.note
        self.roll_text = shown.roll_text
        self.can_roll = shown.can_roll
        self._show_dice(shown, animate=not first_render)
        circle = self.board.ids.circle
        circle.players = list(shown.players)
        circle.closed = shown.circle_closed
        circle.order = list(shown.circle)
        circle.current = shown.highlighted
        circle.out_note = shown.out_note
        self._lay_out_buttons(shown.rows)

    def _show_dice(self, shown: QuintetShown, *, animate: bool) -> None:
        dice = shown.dice
        rolled_now = shown.rolls > self._shown_rolls >= 0 and dice is not None
        self._shown_rolls = shown.rolls
        self.dice_text = shown.dice_text
        if dice is None:
            self._set_dice(0, 0)
        elif rolled_now and animate:
            self._tumble(dice)
        elif not self.tumbling:
            self._set_dice(*dice)

    def _set_dice(self, a: int, b: int) -> None:
        # The faces are also written directly: the tumble shows passing faces on them.
        self.die_a, self.die_b = a, b
        self.board.ids.die_a.value, self.board.ids.die_b.value = a, b

    def _tumble(self, dice: tuple[int, int]) -> None:
        """Spin the dice briefly, showing passing faces, and land on the real values."""
        board = self.board
        faces = [board.ids.die_a, board.ids.die_b]
        for face in faces:
            Animation.cancel_all(face)
            face.angle = 0
        self.tumbling = True
        start = time.monotonic()

        def step(face: DieFace, real: int, offset: int) -> None:
            if self.tumbling:
                ticks = int((time.monotonic() - start) / 0.07)
                face.value = (real + offset + ticks) % 6 + 1  # passing faces, for show only

        def land(*_args: Any) -> None:
            self.tumbling = False
            self._set_dice(*dice)
            for face in faces:
                face.angle = 0

        for face, real, offset, turn in ((faces[0], dice[0], 2, 360), (faces[1], dice[1], 4, -360)):
            spin = Animation(angle=turn, duration=ROLL_ANIMATION, t="out_cubic")
            spin.bind(on_progress=lambda _a, _w, _p, f=face, r=real, o=offset: step(f, r, o))
            if face is faces[0]:
                spin.bind(on_complete=land)
            spin.start(face)

    def _lay_out_buttons(self, rows: tuple[tuple[ButtonShown, ...], ...]) -> None:
        """The captures from the top down; the turn row (Safety, Turn done) at the bottom in fixed places.

        Each of Token to Safety, Both to Safety and Turn done keeps its own third of the bottom row whichever
        of them the rules offer, so Turn done never slides under a finger aimed at another button.
        """
        box = self.board.ids.actions
        box.clear_widgets()
        turn_row: QuintetRow | None = None
        for row in rows:
            line = QuintetRow()
            if row and row[0].slot >= 0:
                slots: list[Widget] = [Widget() for _ in range(TURN_SLOTS)]
                for button in row:
                    slots[button.slot] = self._button(button)
                for slot in slots:
                    line.add_widget(slot)
                turn_row = line
                continue
            for button in row:
                line.add_widget(self._button(button))
            box.add_widget(line)
        if self.shown is not None and self.shown.order_text:
            # Below the buttons, so its words never push a button from under a finger.
            box.add_widget(Factory.QuintetOrder(text=self.shown.order_text))
        box.add_widget(Widget())  # the rows sit at the top
        if turn_row is not None:
            box.add_widget(turn_row)

    def _button(self, button: ButtonShown) -> Widget:
        widget = (Factory.AccentButton if button.accent else Factory.BigButton)(
            text=button.text,
            disabled=not button.enabled,
            background_disabled_normal="",
            disabled_color=theme.DISABLED_TEXT,
        )
        if not button.enabled:
            widget.background_color = theme.DISABLED_BUTTON
        fit_text(widget, smallest=14)  # a long capture wraps (or steps its font down), never ends in "…"
        widget.bind(on_release=lambda _w, tap=button.tap: self.tap(tap))
        return widget

    # -- what the table taps ---------------------------------------------------------

    def roll(self) -> None:
        """The big button (a GPIO button would send the very same action).

        A tap while the dice still tumble is a double tap, not the next player's roll: ignored.
        """
        if not self.tumbling:
            self.send(self.presenter.roll())

    def tap(self, tap: Tap) -> None:
        """A button under the dice: send its action, or take a step in tapping the circle."""
        action = self.presenter.tap(tap)
        if action is None or not self.send(action):
            self.render(self.session.view())  # the taps so far changed (or were forgotten)

    def show_stats(self) -> DiceStatsPopup:
        """The dice statistics popup: this game and all Quintet games on this appliance."""
        store = self.session.store
        popup = DiceStatsPopup(
            game_stats=DiceStats.of_events(self.session.events),
            all_stats=store.dice_stats(self.session.game.name),
            last_roll=last_roll_note(store.moves(self.session.game_id)),
        )
        popup.open()
        self.show_store_news()  # reading every game's rolls may have found (and salvaged) damage
        return popup


SCREEN = QuintetScreen
