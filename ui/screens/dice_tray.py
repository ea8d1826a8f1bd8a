"""The dice tray's screen: the dice big, a tap on a die holds or releases it, one big Roll button.

Thin over its presenter (`ui.presenters.dice_tray`): the presenter says what shows and which action each tap
sends; this module lays the dice out (as big as the tray's count allows, each a finger wide), draws the
statistics' bars and opens the tray's popups: the set picker (with the table's saved sets), adding and taking
out dice, the statistics, and the question before the dice are put away.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.animation import Animation
from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.popup import Popup
from kivy.uix.widget import Widget

from companion.game import GameView, RuleError
from companion.games.dice_tray.kinds import MAX_DICE
from companion.games.dice_tray.saved import SavedSets
from ui import theme
from ui.presenters.dice_tray import DiceTrayPresenter, DieShown, KindShown, SetShown, TrayShown
from ui.screens.base import GameScreen
from ui.widgets.fitted_popup import FittedPopup
from ui.widgets.fitting import fit_text

ROLL_FLASH = 0.3
"""Seconds a rolled die's face takes to come up: a roll that shows the same faces again is still seen."""
GAP = 12
"""Room between two dice, in dp: more than the 8 px two targets need."""
LARGEST = 170
"""The largest a die is drawn, in dp (one to three dice): big, and still a die."""
FAIR_LINE, DASH, DASH_GAP = 2, 8, 5
"""The statistics' fair-dice line, in dp: its thickness, each dash and the room between two."""


def grid(count: int) -> tuple[int, int]:
    """The rows and columns of places for `count` dice: 1×3 up to three, 2×3 up to six, 2×5 up to ten."""
    if count <= 3:
        return 1, 3
    return (2, 3) if count <= 6 else (2, MAX_DICE // 2)


class DieTile(ButtonBehavior, FloatLayout):
    """One die, big: its face, its kind under it, and "HELD" over it (with a thick frame) while it is held."""

    number = NumericProperty(0)
    face = StringProperty("")
    kind = StringProperty("")
    held = BooleanProperty(False)
    rolled = BooleanProperty(False)
    face_size = NumericProperty(20)
    screen = ObjectProperty(None, rebind=True)

    def show(self, die: DieShown) -> None:
        self.number, self.face, self.kind, self.held, self.rolled = die.number, die.face, die.kind, die.held, die.rolled
        self._fit()

    def on_size(self, *_args: Any) -> None:
        self._fit()

    def _fit(self) -> None:
        # A number fills half the die; a named face ("Moon") as much as its letters leave room for.
        side = min(self.width, self.height)
        self.face_size = max(sp(14), min(side * 0.5, side * 1.5 / max(2, len(self.face))))

    def on_release(self) -> None:
        if self.screen is not None:
            self.screen.tap_die(int(self.number))

    def flash(self) -> None:
        """The face comes up from faint: this die was just rolled."""
        face = self.ids.face_label
        Animation.cancel_all(face, "opacity")
        face.opacity = 0.15
        Animation(opacity=1.0, d=ROLL_FLASH, t="out_quad").start(face)


class DiceField(Widget):
    """The tray's dice in fixed places, so that a tap (a hold, a roll, a die taken out) moves none of them.

    The places come in three sizes (`grid`): up to three dice in one row of large places, four to six in two
    rows of three, seven to ten in two rows of five. Die k always sits in place k: a die added takes the next
    free place, and when one is taken out the dice after it show in the places before (nothing slides under a
    finger). Only a count that needs other places changes them: that happens in the Add or remove popup or the
    set picker, never under a finger aimed at the tray.
    """

    screen = ObjectProperty(None, rebind=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.places: list[DieTile] = []  # one per place, made once
        self.tiles: list[DieTile] = []  # the places in use, die 1 first
        self.bind(pos=self._lay_out, size=self._lay_out)

    def show(self, dice: tuple[DieShown, ...]) -> None:
        if not self.places:
            self.places = [DieTile(screen=self.screen, size_hint=(None, None)) for _ in range(MAX_DICE)]
        moved = grid(len(dice)) != grid(len(self.tiles)) or not self.tiles
        for i, tile in enumerate(self.places):
            if i < len(dice):
                if tile.parent is None:
                    self.add_widget(tile)
                tile.show(dice[i])
            elif tile.parent is not None:
                self.remove_widget(tile)
        self.tiles = self.places[: len(dice)]
        if moved:
            self._lay_out()

    def _lay_out(self, *_args: Any) -> None:
        gap = dp(GAP)
        rows, cols = grid(len(self.tiles))
        side = min((self.width - (cols - 1) * gap) / cols, (self.height - (rows - 1) * gap) / rows, dp(LARGEST))
        span = cols * side + (cols - 1) * gap
        block = rows * side + (rows - 1) * gap
        left, top = self.center_x - span / 2, self.center_y + block / 2
        for i, tile in enumerate(self.places):
            row, col = divmod(i, cols)
            tile.size = (side, side)
            tile.pos = (round(left + col * (side + gap)), round(top - (row + 1) * side - row * gap))


class FaceBars(Widget):
    """One kind of die's faces: a bar per face (its count above it), and a line where a fair die's count lies."""

    kind = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, kind=self._draw)

    def _draw(self, *_args: Any) -> None:
        self.canvas.clear()
        kind: KindShown | None = self.kind
        if kind is None or not kind.bars:
            return
        axis, room = dp(24), dp(20)
        slot = self.width / len(kind.bars)
        usable = max(1.0, self.height - axis - room)
        font = sp(15) if slot >= dp(30) else sp(12)
        widest = max(_texture(bar.face, font).width for bar in kind.bars) + dp(6)
        every = max(1, math.ceil(widest / slot))  # a d100's faces: every fifth named, so none lies over another
        with self.canvas:
            for i, bar in enumerate(kind.bars):
                x, w = self.x + i * slot + slot * 0.15, slot * 0.7
                h = usable * bar.share
                Color(*theme.ACCENT)
                Rectangle(pos=(x, self.y + axis), size=(w, h))
                Color(*theme.TEXT)
                if i % every == 0:
                    face = _texture(bar.face, font)
                    Rectangle(texture=face, pos=(x + w / 2 - face.width / 2, self.y), size=face.size)
                count = _texture(str(bar.count), font)
                if count.width + dp(4) <= slot:  # a d100's bars are too narrow to carry their counts
                    Rectangle(
                        texture=count, pos=(x + w / 2 - count.width / 2, self.y + axis + h + dp(2)), size=count.size
                    )
            # Kivy dashes a Line only at width 1, too thin to see beside the bars: each dash is its own rectangle,
            # so the line the title calls dashed is dashed.
            Color(*theme.WARN)
            line_y = self.y + axis + usable * kind.expected_share
            thick = dp(FAIR_LINE)
            for start, end in dashes(self.x, self.right, dp(DASH), dp(DASH_GAP)):
                Rectangle(pos=(start, line_y - thick / 2), size=(end - start, thick))


def dashes(start: float, end: float, dash: float, gap: float) -> list[tuple[float, float]]:
    """The (start, end) of each dash of a dashed line from `start` to `end`: a dash first and last, the last cut."""
    out: list[tuple[float, float]] = []
    at = start
    while at < end:
        out.append((at, min(at + dash, end)))
        at += dash + gap
    return out


def _texture(text: str, size: float) -> Any:
    label = CoreLabel(text=text, font_size=size)
    label.refresh()
    return label.texture


class DiceTrayBoard(BoxLayout):
    """The body of the tray's screen (laid out in dice_tray.kv)."""

    screen = ObjectProperty(None)


class DiceTrayScreen(GameScreen):
    """The dice tray: roll, hold and release, choose and save sets, add and take out dice, see the statistics."""
    owns_turn_words = True

    total_text = StringProperty("")
    detail_text = StringProperty("")
    roll_text = StringProperty("Roll")
    can_roll = BooleanProperty(False)
    can_release_all = BooleanProperty(False)
    can_change = BooleanProperty(True)
    over_text = StringProperty("")

    def build_body(self) -> Widget:
        self.presenter = DiceTrayPresenter(self.session)
        self.shown: TrayShown | None = None
        self._rolls_shown = -1
        return DiceTrayBoard(screen=self)

    @property
    def board(self) -> DiceTrayBoard:
        board: DiceTrayBoard = self.ids.body.children[0]
        return board

    @property
    def tiles(self) -> list[DieTile]:
        """The dice on the screen, die 1 first."""
        return list(self.board.ids.field.tiles)

    def render(self, view: GameView) -> None:
        shown = self.shown = self.presenter.show()
        # The top bar names the set in the tray (nobody has a turn), or says the dice are put away.
        self.turn_text = "Dice put away" if self.over else shown.name
        self.total_text = shown.total_text
        self.detail_text = shown.detail_text
        self.roll_text = shown.roll_text
        self.can_roll = shown.can_roll
        self.can_release_all = shown.can_release_all
        self.can_change = shown.can_change
        self.over_text = shown.over_text
        self.board.ids.field.show(shown.dice)
        if 0 <= self._rolls_shown < shown.rolls:  # a new roll (not the first drawing, not an undo)
            for tile in self.tiles:
                if not tile.held:
                    tile.flash()
        self._rolls_shown = shown.rolls

    # -- what the table taps --------------------------------------------------------------------------------

    def roll(self) -> None:
        self.send(self.presenter.roll())

    def tap_die(self, number: int) -> None:
        if self.can_change:
            self.send(self.presenter.tap_die(number))

    def release_all(self) -> None:
        self.send(self.presenter.release_all())

    def tried(self, action: Any) -> str:
        """Send `action`; "" if it was taken, else the sentence refusing it (a popup shows it too)."""
        return "" if self.send(action) else self.banner

    def open_sets(self) -> Any:
        return self.open_once("sets", lambda: SetsPopup(screen=self))

    def open_dice(self) -> Any:
        return self.open_once("dice", lambda: DicePopup(screen=self))

    def open_stats(self) -> Any:
        return self.open_once("stats", lambda: StatsPopup(screen=self, kinds=list(self.presenter.stats())))

    def ask_put_away(self) -> Any:
        if self.over:
            return None
        return self.open_once("put_away", lambda: PutAwayConfirm(screen=self))

    def put_away(self) -> None:
        self.send(self.presenter.put_away())


class SetsPopup(Popup):
    """The set picker: every tray's sets and the table's own (each may be forgotten), and saving the tray's dice."""

    screen = ObjectProperty(None)
    note = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.saved = SavedSets.load()
        self.fill()

    def fill(self) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        for shown in self.screen.presenter.sets(self.saved):
            rows.add_widget(SetRow(popup=self, shown=shown))

    def choose(self, shown: SetShown) -> None:
        said = self.screen.tried(self.screen.presenter.choose(shown.dice_set))
        if said:
            self.note = said
            return
        self.dismiss()

    def save(self, name: str) -> None:
        """Keep the tray's dice as set `name` for every tray from now on; the tray takes that name too."""
        specs = self.screen.presenter.specs()
        try:
            problem = self.saved.save(name, specs)
        except RuleError as refused:
            self.note = str(refused)
            return
        self.screen.send(self.screen.presenter.choose(self.saved.sets[-1]))
        self.dismiss()
        self.screen.say(problem or f"Saved: every tray now offers {self.saved.sets[-1].name}.", error=bool(problem))

    def ask_forget(self, shown: SetShown) -> None:
        ForgetConfirm(popup=self, shown=shown).open()

    def forget(self, shown: SetShown) -> None:
        problem = self.saved.forget(shown.name)
        self.note = problem or f"{shown.name} is forgotten: trays no longer offer it."
        self.fill()


class SetRow(BoxLayout):
    """One set in the picker: its button (name and dice), and Forget for a set the table saved."""

    popup = ObjectProperty(None)
    shown = ObjectProperty(None)

    def on_kv_post(self, base_widget: Any) -> None:
        super().on_kv_post(base_widget)
        fit_text(self.ids.choose_button, smallest=14)  # a long name with many kinds of dice wraps, never cut


class ForgetConfirm(FittedPopup):
    """ "Forget the set Catan?" asked first: a saved set is the table's, and forgetting it cannot be undone."""

    popup = ObjectProperty(None)
    shown = ObjectProperty(None)

    def confirm(self) -> None:
        self.dismiss()
        self.popup.forget(self.shown)


class DicePopup(Popup):
    """Add a die (one tap for d4 to d20, or faces typed) or take one out; it stays open for several."""

    screen = ObjectProperty(None)
    note = StringProperty("")

    def on_kv_post(self, base_widget: Any) -> None:
        super().on_kv_post(base_widget)
        for spec in self.screen.presenter.common:
            button = Factory.BigButton(text=spec)
            button.bind(on_release=lambda _b, s=spec: self.add(s))
            self.ids.common.add_widget(button)
        self.fill()

    def fill(self) -> None:
        out = self.ids.remove_grid
        out.clear_widgets()
        dice = self.screen.shown.dice if self.screen.shown else ()
        for die in dice:
            button = Factory.BigButton(text=f"{die.number}: {die.kind}")
            fit_text(button, smallest=12)  # "10: Sun/Moon/Star" wraps or steps down, never ends in "…"
            button.bind(on_release=lambda _b, n=die.number: self.remove(n))
            out.add_widget(button)
        for _ in range(MAX_DICE - len(dice)):  # every place kept: a button keeps its size as dice come and go
            out.add_widget(Widget())

    def add(self, typed: str) -> None:
        self.note = self.screen.tried(self.screen.presenter.add(typed))  # a die the tray refuses: its sentence
        self.fill()

    def add_typed(self) -> None:
        typed = self.ids.faces_input.text
        if not typed.strip():
            self.note = "Type the faces with commas between them, such as: Sun, Moon, Star."
            return
        self.add(typed)
        if not self.note:
            self.ids.faces_input.text = ""

    def remove(self, number: int) -> None:
        self.note = self.screen.tried(self.screen.presenter.remove(number))
        self.fill()


class StatsPopup(Popup):
    """The tray's statistics: for each kind of die, its faces' counts and the chi-square check."""

    screen = ObjectProperty(None)
    kinds = ObjectProperty([])

    def on_kv_post(self, base_widget: Any) -> None:
        super().on_kv_post(base_widget)
        blocks = self.ids.blocks
        for kind in self.kinds:
            blocks.add_widget(KindBlock(kind=kind))
        if not self.kinds:
            blocks.add_widget(Factory.Muted(text="No dice rolled yet: the counts start with the first roll."))


class KindBlock(BoxLayout):
    """One kind of die in the statistics (laid out in dice_tray.kv)."""

    kind = ObjectProperty(None)


class PutAwayConfirm(FittedPopup):
    """ "Put the dice away?" asked first: it ends the tray (Undo takes it back)."""

    screen = ObjectProperty(None)

    def confirm(self) -> None:
        self.dismiss()
        self.screen.put_away()


SCREEN = DiceTrayScreen
