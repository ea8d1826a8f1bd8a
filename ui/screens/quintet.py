"""The Quintet screen: the dice, the capturing circle, and one tap per thing that happened.

The screen renders the public view and sends actions; the rules decide.
Everything the table taps is one action: a roll (the same single
``{"type": "roll"}`` a GPIO button would send), a capture of one token, a
token into Safety, the answer to the alliance question. Setting the circle is
the one place the screen gathers taps before sending: the players are tapped
in capturing order and the finished order goes out as one ``set_circle``.
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
from kivy.utils import get_color_from_hex

from companion.dicestats import DiceStats
from companion.game import View
from ui.screens.base import GameScreen

ROLL_ANIMATION = 0.4
"""Seconds the dice tumble after a roll (the issue allows at most half a second)."""

TEXT = (0.95, 0.95, 0.95, 1)
MUTED = (0.65, 0.68, 0.74, 1)
ACCENT = (0.31, 0.76, 0.97, 1)
WARN = (1.0, 0.72, 0.30, 1)
PANEL = (0.15, 0.17, 0.21, 1)

PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.73), (0.73, 0.27)],
    3: [(0.27, 0.73), (0.5, 0.5), (0.73, 0.27)],
    4: [(0.27, 0.27), (0.27, 0.73), (0.73, 0.27), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.27, 0.73), (0.5, 0.5), (0.73, 0.27), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.27, 0.5), (0.27, 0.75), (0.73, 0.25), (0.73, 0.5), (0.73, 0.75)],
}


def on_screen(text: str) -> str:
    """`text` with the arrows our font lacks (→) drawn as one it has (›)."""
    return text.replace("→", "›")


def _text(text: str, size: float, *, bold: bool = False) -> Any:
    """A texture holding `text` (for drawing names and numbers on a canvas)."""
    label = CoreLabel(text=text, font_size=size, bold=bold)
    label.refresh()
    return label.texture


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
            Color(0.96, 0.96, 0.93, 1 if self.value else 0.25)
            RoundedRectangle(pos=(x, y), size=(side, side), radius=[side * 0.16])
            Color(0.1, 0.1, 0.12, 1)
            pip = side * 0.17
            for px, py in PIPS.get(int(self.value), []):
                Ellipse(pos=(x + px * side - pip / 2, y + py * side - pip / 2), size=(pip, pip))
            PopMatrix()


class CaptureCircle(Widget):
    """The capturing circle: each player a disc, an arrow from each predator to its prey.

    Before the circle is set it shows the seats (and the order tapped so far);
    players who are out are listed underneath.
    """

    players = ListProperty()  # the view's players
    order = ListProperty()  # the circle, or the order being tapped
    closed = BooleanProperty(False)  # draw the arrow from the last back to the first
    current = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, players=self._draw, order=self._draw, current=self._draw)
        self.bind(closed=self._draw)

    def positions(self) -> dict[str, tuple[float, float]]:
        """Where each player's disc sits: the circle's order if set, else the seats."""
        shown = [p["name"] for p in self.players if not p["out"]]
        ring = list(self.order) + [n for n in shown if n not in self.order] if self.closed else shown
        radius = max(10.0, min(self.width, self.height - dp(24)) / 2 - dp(48))
        cx, cy = self.center_x, self.center_y + dp(6)
        spots = {}
        for i, name in enumerate(ring):
            a = math.pi / 2 - 2 * math.pi * i / max(1, len(ring))
            spots[name] = (cx + radius * math.cos(a), cy + radius * math.sin(a))
        return spots

    def _draw(self, *_args: Any) -> None:
        self.canvas.clear()
        spots = self.positions()
        disc = dp(27)
        by_name = {p["name"]: p for p in self.players}
        arrows = list(zip(self.order, self.order[1:], strict=False))
        if self.closed and len(self.order) > 1:
            arrows.append((self.order[-1], self.order[0]))
        labels = {name: _text(name, sp(18), bold=name == self.current) for name in spots}
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
                player = by_name.get(name, {"colour": "#888888", "tokens": 0})
                if name == self.current:
                    Color(*ACCENT)
                    Line(circle=(x, y, disc + dp(5)), width=dp(2.5))
                Color(*get_color_from_hex(player["colour"]))
                Ellipse(pos=(x - disc, y - disc), size=(2 * disc, 2 * disc))
                for k in range(2):  # the two tokens on the board: filled while still there
                    tx, ty = x - dp(9) + k * dp(18), y - dp(10)
                    Color(1, 1, 1, 1)
                    if k < player["tokens"]:
                        Ellipse(pos=(tx - dp(6), ty - dp(6)), size=(dp(12), dp(12)))
                    else:
                        Line(circle=(tx, ty, dp(6)), width=dp(1.3))
                if name in self.order and not self.closed:
                    number = _text(str(list(self.order).index(name) + 1), sp(18), bold=True)
                    Color(0, 0, 0, 1)
                    Rectangle(texture=number, pos=(x - number.width / 2, y + dp(1)), size=number.size)
                label = labels[name]
                Color(*TEXT)
                below = y - disc - dp(4) - label.height
                Rectangle(texture=label, pos=(x - label.width / 2, below), size=label.size)
            out = [p["name"] for p in self.players if p["out"]]
            if out:
                note = _text("Out: " + ", ".join(out), sp(15))
                Color(*MUTED)
                Rectangle(texture=note, pos=(self.x + dp(4), self.top - note.height - dp(2)), size=note.size)

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
        Color(*MUTED)
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
                Color(*ACCENT)
                Rectangle(pos=(x, self.y + axis), size=(w, h))
                Color(*WARN)
                Line(rectangle=(x, self.y + axis, w, usable * bar.expected / top), width=dp(1.2))
                total = _text(str(bar.total), sp(15))
                Color(*TEXT)
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


class QuintetScreen(GameScreen):
    """Quintet: roll, set the circle, record captures, answer the alliance question."""

    phase = StringProperty("")
    news = StringProperty("")
    roll_text = StringProperty("Roll")
    can_roll = BooleanProperty(False)
    die_a = NumericProperty(0)
    die_b = NumericProperty(0)
    dice_text = StringProperty("")
    extra_turn = BooleanProperty(False)
    tumbling = BooleanProperty(False)
    picked = ListProperty()  # the capturing order tapped so far (circle phase only)

    def build_body(self) -> Widget:
        self.view: View = {}
        self._shown_rolls = -1
        return QuintetBoard(screen=self)

    @property
    def board(self) -> QuintetBoard:
        return self.ids.body.children[0]

    # -- drawing ------------------------------------------------------------------

    def render(self, view: View) -> None:
        first_render = not self.view
        self.view = view
        self.phase = view["phase"]
        self.news = on_screen(view["news"])
        self.extra_turn = view["extra_turn"]
        due = view["due_to_roll"]
        self.can_roll = due is not None
        self.roll_text = self._roll_words(view, due)
        if view["phase"] != "circle":
            self.picked = []
        self._show_dice(view, animate=not first_render)
        circle = self.board.ids.circle
        circle.players = view["players"]
        circle.closed = bool(view["circle"])
        circle.order = view["circle"] or list(self.picked)
        circle.current = view["current"] or view["winner"] or ""
        self._fill_actions(view)

    def _roll_words(self, view: View, due: str | None) -> str:
        if due is None:
            return {"circle": "Set the circle first", "over": "Game over"}.get(view["phase"], "Settle rule 8 first")
        if view["phase"] == "opening":
            return f"{due}: opening roll"
        if view["phase"] == "rolling_on":
            return f"{due}: roll on"
        if view["extra_turn"]:
            return f"{due}: roll again"
        return f"Roll for {due}"

    def _last_dice(self, view: View) -> list[int] | None:
        if view["dice"]:
            return list(view["dice"])
        for key in ("rolled_on", "opening"):
            if view[key] and (view["phase"] != "play" or key == "rolled_on"):
                return list(view[key][-1]["dice"])
        return None

    def _show_dice(self, view: View, *, animate: bool) -> None:
        dice = self._last_dice(view)
        rolled_now = view["rolls"] > self._shown_rolls >= 0 and dice is not None
        self._shown_rolls = view["rolls"]
        if dice is None:
            self._set_dice(0, 0)
            self.dice_text = ""
            return
        self.dice_text = f"{dice[0]} + {dice[1]} = {dice[0] + dice[1]}"
        if rolled_now and animate:
            self._tumble(dice)
        elif not self.tumbling:
            self._set_dice(*dice)

    def _set_dice(self, a: int, b: int) -> None:
        # The faces are also written directly: the tumble shows passing faces on them.
        self.die_a, self.die_b = a, b
        self.board.ids.die_a.value, self.board.ids.die_b.value = a, b

    def _tumble(self, dice: list[int]) -> None:
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

    def _fill_actions(self, view: View) -> None:
        box = self.board.ids.actions
        box.clear_widgets()
        phase = view["phase"]
        if phase == "opening":
            rolls = [f"{r['player']} {r['total']}" for r in view["opening"]]
            self._note(
                box,
                "Opening roll, in seat order: the highest total plays first; on a tie, whoever rolled it first. "
                + ("So far: " + "  ·  ".join(rolls) if rolls else ""),
            )
        elif phase == "circle":
            self._circle_buttons(box, view)
        elif phase == "rolling_on":
            entries = [f"{r['player']}: {r['dice'][0]} and {r['dice'][1]}" for r in view["rolled_on"]]
            self._note(
                box,
                "Rolling on: a token on each space the dice name (a double: both on one space, a barricade). "
                + "  ·  ".join(entries),
            )
        elif phase == "play":
            self._play_buttons(box, view)
        else:
            self._note(box, on_screen(view["news"]))

    def _note(self, box: Widget, text: str, *, fixed: bool = False) -> None:
        label = Factory.Label(text=text, font_size="17sp", color=MUTED, halign="left", valign="top")
        if fixed:
            label.size_hint_y = None
            label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
            label.bind(texture_size=lambda w, ts: setattr(w, "height", ts[1] + dp(4)))
        else:
            label.bind(size=lambda w, size: setattr(w, "text_size", size))
        box.add_widget(label)

    def _row(self, box: Widget) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
        box.add_widget(row)
        return row

    def _button(self, row: Widget, text: str, action: dict[str, Any] | None = None, *, accent: bool = False) -> Any:
        button = Factory.AccentButton(text=text) if accent else Factory.BigButton(text=text)
        if action is not None:
            button.bind(on_release=lambda _b: self.send(action))
        row.add_widget(button)
        return button

    def _circle_buttons(self, box: Widget, view: View) -> None:
        self._note(box, f"{view['first']}: tap the players in capturing order; each captures the next.", fixed=True)
        names = [p["name"] for p in view["players"] if p["name"] not in self.picked]
        if self.picked:
            names.append("")  # room for "Start over"
        for start in range(0, len(names), 3):
            row = self._row(box)
            for name in names[start : start + 3]:
                if name:
                    button = self._button(row, name)
                    button.bind(on_release=lambda _b, name=name: self.pick(name))
                else:
                    again = self._button(row, "Start over")
                    again.bind(on_release=lambda _b: self.start_over())
        box.add_widget(Widget())

    def _play_buttons(self, box: Widget, view: View) -> None:
        for capture in view["captures"]:
            by, of = capture["by"], capture["of"]
            words = {"order": "", "rule7": " (rule 7)"}.get(capture.get("rule", ""), " (alliance, rule 8)")
            self._button(self._row(box), f"{by} captured {of}{words}", dict(capture))
        if view["alliances"]:
            self._button(self._row(box), "No alliance captures", {"type": "no_alliance_captures"}, accent=True)
        elif view["dice"] is not None:
            current = view["current"]
            row = self._row(box)
            if view["safety_offer"] and not view["safety_taken"] and view["landings"]:
                self._button(row, "Token to Safety", {"type": "safety", "player": current, "tokens": 1})
                if view["safety_offer"] == 2 and view["landings"] >= 2:
                    self._button(row, "Both to Safety", {"type": "safety", "player": current, "tokens": 2})
            self._button(row, "Turn done", {"type": "end_turn", "player": current})
        box.add_widget(Widget())

    # -- what the table taps ---------------------------------------------------------

    def roll(self) -> None:
        """The big button (a GPIO button would send the very same action).

        A tap while the dice still tumble is a double tap, not the next player's roll: ignored.
        """
        if not self.tumbling:
            self.send({"type": "roll"})

    def pick(self, name: str) -> None:
        """Tap the next player of the capturing circle; the last one is obvious and added for you."""
        players = [p["name"] for p in self.view["players"]]
        picked = [*self.picked, name]
        left = [p for p in players if p not in picked]
        if len(left) == 1:
            picked.append(left[0])
        if len(picked) == len(players):
            self.picked = []
            self.send({"type": "set_circle", "order": picked})
        else:
            self.picked = picked
            self.render(self.view)

    def start_over(self) -> None:
        self.picked = []
        self.render(self.view)

    def show_stats(self) -> DiceStatsPopup:
        """The dice statistics popup: this game and all Quintet games on this appliance."""
        store = self.session.store
        popup = DiceStatsPopup(
            game_stats=DiceStats.of_events(self.session.events),
            all_stats=DiceStats.of_moves(store.all_moves(self.session.rules.name)),
            last_roll=self._last_roll_time(),
        )
        popup.open()
        self.show_store_news()  # reading every game's rolls may have found (and salvaged) damage
        return popup

    def _last_roll_time(self) -> str:
        moves = self.session.store.moves(self.session.game_id)
        rolled = [m for m in moves if not m.undone and any("dice" in e for e in m.events)]
        if not rolled:
            return ""
        return "Last roll logged at " + time.strftime("%H:%M:%S", time.localtime(rolled[-1].at)) + "."
