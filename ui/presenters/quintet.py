"""What the Quintet screen shows, and what a tap on it sends: plain Python, tested without a window.

`QuintetPresenter` watches one session. `show()` turns its public view, the
legal actions of the player whose turn it is, the last event's news and the
screen's one piece of its own state (the capturing circle being tapped, in
`picked`) into a `QuintetShown`: the texts, the dice, the circle to draw,
whether the big Roll button works, and the rows of buttons under it.

Every button carries its `Tap`: a typed action to send (a capture, Safety,
the end of a turn, the answer to the rule 8 question: each one of the legal
actions, never built from words), or a step in setting the circle (`Pick`,
`StartOver`). `tap()` answers with the action to send, if any. The screen
(`ui.screens.quintet`) draws the circle and the dice and copies the rest onto
its widgets.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.dicestats import rolls_in
from companion.game import LEFT, Action
from companion.games.quintet import views
from companion.games.quintet.rules import (
    RULE7,
    AllianceCapture,
    Capture,
    EndTurn,
    NoAllianceCaptures,
    QuintetState,
    Roll,
    Safety,
    SetCircle,
)
from companion.games.quintet.views import QuintetOwnView, QuintetView
from companion.session import Session
from ui.presenters import on_screen

PICKS_PER_ROW = 3
"""Players' buttons in one row while the circle is set: wide enough for a name, five and Start over fit in two rows."""

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


@dataclass(frozen=True)
class PlayerShown:
    """One player's disc on the circle: their colour and how many of their two tokens are still on the board."""

    name: str
    colour: str  # ``"#e53935"``: the player's own colour (data, not theme)
    tokens: int
    out: bool


@dataclass(frozen=True)
class Pick:
    """A tap on a player while the capturing circle is set: the next one in capturing order."""

    name: str


@dataclass(frozen=True)
class StartOver:
    """A tap on Start over: forget the players tapped so far."""


Tap = Action | Pick | StartOver
"""What a button does: send a typed action, or take a step in tapping the circle."""


@dataclass(frozen=True)
class ButtonShown:
    """One button under the dice: its words, what a tap does, and whether it is the one to tap."""

    text: str
    tap: Tap
    accent: bool = False
    enabled: bool = True  # greyed in place (a player already tapped into the circle), never taken away
    slot: int = -1  # in the turn row, its fixed place (Token to Safety, Both to Safety, Turn done): it never slides


@dataclass(frozen=True)
class QuintetShown:
    """Everything the Quintet screen shows at one moment."""

    phase: str
    news: str  # what just happened, and what the table is asked
    news_tone: str  # "warn" while a double-fives extra roll is due, else "text"
    roll_text: str  # the big button's words: whose roll it is, or why nobody may roll
    can_roll: bool
    dice: tuple[int, int] | None  # the last roll to show, None before the first
    dice_text: str  # ``5 + 4 = 9``
    rolls: int  # how many rolls so far: more than last time means the dice just rolled
    players: tuple[PlayerShown, ...]
    circle: tuple[str, ...]  # the capturing circle, or the order tapped so far while it is set
    circle_closed: bool  # the circle is set: draw the arrow from the last back to the first
    highlighted: str  # whose disc is ringed: the player on turn, or the winner ("" for nobody)
    out_note: str  # ``Out: Bo, Ann`` ("" while everyone is in)
    order_text: str  # while the circle is set: the capturing order tapped so far, shown apart from the buttons
    note: str  # the words above the buttons: how this phase works, or how the game ended
    rows: tuple[tuple[ButtonShown, ...], ...]  # the buttons, row by row

    def buttons(self) -> list[ButtonShown]:
        """Every button, row after row."""
        return [button for row in self.rows for button in row]


class QuintetPresenter:
    """The Quintet screen's logic over one session: what it shows, and the circle being tapped."""

    def __init__(self, session: Session[QuintetState, QuintetView, QuintetOwnView]) -> None:
        self.session = session
        self.picked: tuple[str, ...] = ()  # the capturing order tapped so far (while the circle is set)

    # -- showing ---------------------------------------------------------------------------------

    def show(self) -> QuintetShown:
        """What the screen shows now. A half-tapped circle is forgotten once the circle is no longer being set."""
        view = self.session.view()
        phase = view.phase
        over = view.over
        if phase != "circle" or over:
            self.picked = ()
        # A finished game (also one ended by players leaving, whatever its phase) offers nothing to tap.
        due = None if over else view.due_to_roll
        dice = self.last_roll()
        gone = set(view.gone)
        # A player who left is off the circle like one knocked out, and named apart.
        players = tuple(
            PlayerShown(p.name, p.colour, p.tokens, p.out or p.name in gone) for p in view.players
        )
        out = [name for name in view.out if name not in gone]
        left = [p.name for p in players if p.name in gone]
        out_note = "  ·  ".join(
            part
            for part in ("Out: " + ", ".join(out) if out else "", "Left: " + ", ".join(left) if left else "")
            if part
        )
        return QuintetShown(
            phase=phase,
            news=on_screen(self.news()),
            news_tone="warn" if view.extra_turn else "text",
            roll_text="Game over" if over else _roll_words(phase, due, view.extra_turn),
            can_roll=due is not None,
            dice=dice,
            dice_text=f"{dice[0]} + {dice[1]} = {dice[0] + dice[1]}" if dice else "",
            rolls=view.rolls,
            players=players,
            circle=view.circle or self.picked,
            circle_closed=bool(view.circle),
            highlighted=_highlighted(view),
            out_note=out_note,
            order_text=self._order_text(view) if not over else "",
            note=self._note(view),
            rows=() if over else self._rows(view),
        )

    def last_roll(self) -> tuple[int, int] | None:
        """The dice on show: the last roll of this game, whatever happened since (None before the first).

        The view's own dice are this turn's only: after a turn ends or a player leaves they are cleared,
        and an older roll (a roll on) must not show as if it were the last one.
        """
        rolls = rolls_in(self.session.events)
        return rolls[-1] if rolls else None

    def news(self) -> str:
        """The sentence about the last thing that happened (how the game opens, before anything has)."""
        moves = self.session.moves
        return views.news(moves[-1].events[-1] if moves else None, self.session.state)

    def _note(self, view: QuintetView) -> str:
        phase = view.phase
        if phase == "over" or view.over:
            # How it ended in full; a game won by the others leaving is told by the news above alone.
            outcome = view.outcome
            return "" if outcome is None or outcome.termination is LEFT else on_screen(outcome.detail)
        if phase == "opening":
            rolls = [f"{r.player} {r.total}" for r in view.opening]
            return "Opening roll, in seat order: the highest total plays first; on a tie, whoever rolled it first. " + (
                "So far: " + "  ·  ".join(rolls) if rolls else ""
            )
        if phase == "circle":
            return ""  # the order line says it (`_order_text`); the news says who sets the circle
        if phase == "rolling_on":
            entries = [f"{r.player}: {r.dice[0]} and {r.dice[1]}" for r in view.rolled_on]
            return (
                "Rolling on: a token on each space the dice name (a double: both on one space, a barricade). "
                + "  ·  ".join(entries)
            )
        return ""

    def _order_text(self, view: QuintetView) -> str:
        if view.phase != "circle":
            return ""
        if not self.picked:
            # The one instruction: with five long names the column has no room for a second (it ran under the buttons).
            return "Capturing order: tap who captures first; each captures the next."
        return on_screen("Capturing order so far: " + " → ".join(self.picked))

    def _rows(self, view: QuintetView) -> tuple[tuple[ButtonShown, ...], ...]:
        if view.phase == "circle":
            return self._circle_rows(view)
        current = view.current
        if view.phase != "play" or current is None:
            return ()
        legal = self.session.legal_actions(current)
        captures = [(_capture_words(a), a) for a in legal if isinstance(a, Capture | AllianceCapture)]
        rows: list[tuple[ButtonShown, ...]] = [(ButtonShown(words, action),) for words, action in captures]
        if any(isinstance(a, NoAllianceCaptures) for a in legal):
            rows.append((ButtonShown("No old allies on one space", NoAllianceCaptures(), accent=True),))
        turn = [ButtonShown(_turn_words(a), a, slot=_turn_slot(a)) for a in legal if isinstance(a, Safety | EndTurn)]
        if turn:
            rows.append(tuple(turn))
        return tuple(rows)

    def _circle_rows(self, view: QuintetView) -> tuple[tuple[ButtonShown, ...], ...]:
        """One button per player in seat order, then Start over: every one keeps its slot after each tap.

        A player tapped already stays where they were, greyed and marked with their place in the order
        (a button taken away let the next one slide under the finger: aiming at Bo gave Ann › Cy › Bo).
        """
        buttons = []
        for name in _circle_players(view):
            if name in self.picked:
                place = ORDINALS[self.picked.index(name)]
                buttons.append(ButtonShown(f"{name}: {place}", Pick(name), enabled=False))
            else:
                buttons.append(ButtonShown(name, Pick(name)))
        buttons.append(ButtonShown("Start over", StartOver(), enabled=bool(self.picked)))
        return tuple(tuple(buttons[i : i + PICKS_PER_ROW]) for i in range(0, len(buttons), PICKS_PER_ROW))

    # -- tapping ---------------------------------------------------------------------------------

    def roll(self) -> Roll:
        """The big button: the very roll a GPIO button sends (whoever is due rolls)."""
        return Roll()

    def tap(self, tap: Tap) -> Action | None:
        """What a button's tap sends (None: only the circle being tapped changed)."""
        match tap:
            case Pick(name=name):
                return self.pick(name)
            case StartOver():
                self.picked = ()
                return None
        return tap

    def pick(self, name: str) -> SetCircle | None:
        """Tap the next player of the capturing circle; the last one is obvious and added for you.

        The finished order is the action to send (and the taps are forgotten: a
        refused order is tapped again from the start).
        """
        view = self.session.view()
        players = _circle_players(view)
        if view.phase != "circle" or view.over or name not in players or name in self.picked:
            return None
        picked = [*self.picked, name]
        left = [p for p in players if p not in picked]
        if len(left) == 1:
            picked.append(left[0])
        if len(picked) < len(players):
            self.picked = tuple(picked)
            return None
        self.picked = ()
        return SetCircle(tuple(picked))


# -- words ----------------------------------------------------------------------------------------


def _circle_players(view: QuintetView) -> list[str]:
    """Who goes into the capturing circle: every seat but those who left."""
    return [p.name for p in view.players if p.name not in view.gone]


def _highlighted(view: QuintetView) -> str:
    """Whose disc is ringed: the player on turn, or once the game is over its winner (also one by leaving)."""
    if view.outcome is not None:
        winners = view.outcome.winners or (view.winner or "",)
        return winners[0]
    return view.current or ""


def _roll_words(phase: str, due: str | None, extra_turn: bool) -> str:
    if due is None:
        return {"circle": "Set the circle first", "over": "Game over"}.get(phase, "Old allies first (rule 8)")
    if phase == "opening":
        return f"{due}: opening roll"
    if phase == "rolling_on":
        return f"{due}: roll on"
    if extra_turn:
        return f"{due}: roll again"
    return f"Roll for {due}"


def _capture_words(action: Capture | AllianceCapture) -> str:
    if isinstance(action, AllianceCapture):
        return f"{action.by} captured {action.of}: old allies (rule 8)"
    if action.rule == RULE7:
        return f"{action.by} captured {action.of}: {action.of} landed on {action.by} (rule 7)"
    return f"{action.by} captured {action.of}"


TURN_SLOTS = 3
"""The turn row's places: Token to Safety, Both to Safety, Turn done."""


def _turn_slot(action: Safety | EndTurn) -> int:
    if isinstance(action, EndTurn):
        return 2
    return 1 if action.tokens == 2 else 0


def _turn_words(action: Safety | EndTurn) -> str:
    if isinstance(action, EndTurn):
        return "Turn done"
    return "Both to Safety" if action.tokens == 2 else "Token to Safety"


# -- the dice statistics popup ------------------------------------------------------------------


class StoredMove(Protocol):
    """A move as the store keeps it (`companion.store.MoveRecord`): its JSON events and when it was made."""

    @property
    def events(self) -> Sequence[Mapping[str, Any]]: ...

    @property
    def undone(self) -> bool: ...

    @property
    def at(self) -> float: ...


def last_roll_note(moves: Iterable[StoredMove]) -> str:
    """``Last roll logged at 20:15:03.`` for the game's stored moves ("" before the first roll)."""
    rolled = [m for m in moves if not m.undone and any("dice" in e for e in m.events)]
    if not rolled:
        return ""
    return "Last roll logged at " + time.strftime("%H:%M:%S", time.localtime(rolled[-1].at)) + "."
