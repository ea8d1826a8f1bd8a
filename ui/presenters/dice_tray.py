"""What the dice tray's screen shows, and what a tap on it sends: plain Python, tested without a window.

`DiceTrayPresenter` watches one tray's session. `show()` turns its public view into a `TrayShown`: each die
big (its face, its kind, whether it is held: said in words, never by colour alone), the sum, the words on the
big Roll button, and which buttons work now. Each tap has its method, answering with the typed action to send
(a roll, a hold or a release, a die added or taken out, a set chosen, the dice put away). `stats()` gives the
statistics as bars; `sets()` the sets the picker offers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.game import Action
from companion.games.dice_tray.kinds import COMMON, MAX_DICE, DiceSet, describe, faces_typed
from companion.games.dice_tray.rules import (
    AddDie,
    ChooseSet,
    Hold,
    PutAway,
    Release,
    ReleaseAll,
    RemoveDie,
    Roll,
    TrayState,
)
from companion.games.dice_tray.saved import SavedSets
from companion.games.dice_tray.views import TrayView
from companion.session import Session

NOT_ROLLED = "–"
"""A die's face before its first roll."""


@dataclass(frozen=True)
class DieShown:
    """One die on the screen: its number, the face it shows (big), its kind and, if held, the word that says so."""

    number: int
    face: str
    kind: str
    held: bool
    rolled: bool

    @property
    def caption(self) -> str:
        """Under the face: the kind, and "held" in words (the frame's colour is never the only cue)."""
        return f"{self.kind} · HELD" if self.held else self.kind


@dataclass(frozen=True)
class TrayShown:
    """Everything the tray's screen shows now."""

    name: str  # the set's name: "2d6", "Quintet's dice"
    dice: tuple[DieShown, ...]
    total_text: str  # "Sum 17" (numbered dice rolled), else ""
    detail_text: str  # "12 rolls · 2 held"
    roll_text: str
    can_roll: bool
    can_release_all: bool
    can_change: bool  # dice may be added, taken out or a set chosen (not once put away)
    over_text: str
    rolls: int


@dataclass(frozen=True)
class BarShown:
    """One face in a kind's bar chart: how often it came, and its bar's length against the chart's highest."""

    face: str
    count: int
    share: float  # 0..1 of the chart's height


@dataclass(frozen=True)
class KindShown:
    """One kind of die in the statistics: a heading, a bar per face with fair dice's count marked, and the check."""

    title: str
    bars: tuple[BarShown, ...]
    expected_share: float  # where a fair die's count lies on the same scale
    expected_text: str
    summary: str


@dataclass(frozen=True)
class SetShown:
    """One set in the picker: its button's words, and whether the table saved it (and so may forget it)."""

    name: str
    words: str
    own: bool
    dice_set: DiceSet


def roll_words(view: TrayView) -> str:
    if not view.dice:
        return "Add a die"
    free = len(view.dice) - view.held
    if free == 0:
        return "All held"
    if view.held == 0:
        return "Roll"
    return "Roll 1 die" if free == 1 else f"Roll {free} dice"


def present(view: TrayView) -> TrayShown:
    """The screen's words and flags for the tray `view`."""
    dice = tuple(DieShown(d.number, d.face or NOT_ROLLED, d.kind, d.held, bool(d.face)) for d in view.dice)
    total = f"Sum {view.total}" if view.total is not None and any(d.value is not None for d in view.dice) else ""
    rolls = "no rolls yet" if view.rolls == 0 else ("1 roll" if view.rolls == 1 else f"{view.rolls} rolls")
    detail = rolls + (f" · {view.held} held" if view.held else "")
    live = not view.over
    return TrayShown(
        name=view.name,
        dice=dice,
        total_text=total,
        detail_text=detail,
        roll_text=roll_words(view),
        can_roll=live and bool(view.dice) and view.held < len(view.dice),
        can_release_all=live and view.held > 0,
        can_change=live,
        over_text=(view.outcome.detail + " Undo takes them out again.") if view.outcome else "",
        rolls=view.rolls,
    )


def kinds_shown(view: TrayView) -> tuple[KindShown, ...]:
    """The statistics as bars: per kind of die, each face's count on a scale that fits the highest bar."""
    shown = []
    for kind in view.stats:
        top = max([f.count for f in kind.faces] + [kind.expected, 1.0])
        bars = tuple(BarShown(f.face, f.count, f.count / top) for f in kind.faces)
        times = "1 time" if kind.rolled == 1 else f"{kind.rolled} times"
        title = f"{kind.kind}: rolled {times}"
        expected = f"A fair die: about {kind.expected:.1f} of each face (the line)."
        shown.append(KindShown(title, bars, kind.expected / top, expected, kind.summary))
    return tuple(shown)


class DiceTrayPresenter:
    """The tray's screen logic for one session: what shows, and the action each tap sends."""

    def __init__(self, session: Session[TrayState, TrayView, TrayView]) -> None:
        self.session = session

    @property
    def view(self) -> TrayView:
        return self.session.view()

    def show(self) -> TrayShown:
        return present(self.view)

    def roll(self) -> Action:
        return Roll()

    def tap_die(self, number: int) -> Action:
        """A tap on a die: hold it, or release it if it is held."""
        die = self.view.dice[number - 1]
        return Release(number) if die.held else Hold(number)

    def release_all(self) -> Action:
        return ReleaseAll()

    def add(self, typed: str) -> Action:
        """A die as the picker's button or the table's typing gives it (``"d8"``, ``"Sun, Moon, Star"``)."""
        return AddDie(faces_typed(typed))

    def remove(self, number: int) -> Action:
        return RemoveDie(number)

    def choose(self, dice_set: DiceSet) -> Action:
        return ChooseSet(dice_set.name, dice_set.specs)

    def put_away(self) -> Action:
        return PutAway()

    def stats(self) -> tuple[KindShown, ...]:
        return kinds_shown(self.view)

    @property
    def common(self) -> tuple[str, ...]:
        """The dice one tap adds."""
        return COMMON

    @property
    def room(self) -> bool:
        return len(self.view.dice) < MAX_DICE

    def specs(self) -> tuple[Any, ...]:
        """The dice in the tray as a set would keep them."""
        return tuple(die.spec for die in self.session.state.dice)

    def sets(self, saved: SavedSets) -> tuple[SetShown, ...]:
        """Every set the picker offers: every tray's, then the table's own."""
        own = {s.name for s in saved.sets}
        return tuple(SetShown(s.name, describe(s.dice), s.name in own, s) for s in saved.offered)
