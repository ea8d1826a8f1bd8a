"""What the table sees of the tray and reads of it. The tray has no secrets: every view is the public one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.engine import everything_public, told_first
from companion.game import Event, FirstPlayerChosen, GameView, PlayerLeft, UnknownEvent
from companion.games.dice_tray.kinds import describe, read_dice, read_die
from companion.games.dice_tray.rules import (
    AllReleased,
    DieAdded,
    DieHeld,
    DieReleased,
    DieRemoved,
    PutAwayDone,
    Rolled,
    SetChosen,
    TrayState,
)
from companion.games.dice_tray.stats import KindStats, tray_stats

public_event = everything_public


@dataclass(frozen=True)
class DieSeen:
    """One die as the table sees it: its number (1 is the leftmost), its kind, the face it shows, whether held."""

    number: int
    kind: str  # "d6", "Sun/Moon/Star"
    face: str  # "" until it is first rolled
    value: int | None  # what it counts for in the sum (None: a named face, or not rolled yet)
    held: bool


@dataclass(frozen=True, kw_only=True)
class TrayView(GameView):
    """The tray: its set's name, each die, the sum of the numbered faces showing, and the statistics."""

    name: str
    dice: tuple[DieSeen, ...]
    total: int | None  # the sum of every die showing a number; None while none does
    rolls: int
    held: int  # how many dice are held
    players: tuple[str, ...]
    stats: tuple[KindStats, ...]
    put_away: bool


def public_view(state: TrayState) -> TrayView:
    dice = tuple(
        DieSeen(
            i + 1,
            die.name,
            die.faces[face - 1] if face else "",
            die.value(face) if face else None,
            held,
        )
        for i, (die, face, held) in enumerate(zip(state.dice, state.showing, state.held, strict=True))
    )
    values = [d.value for d in dice if d.value is not None]
    return TrayView(
        name=state.name,
        dice=dice,
        total=sum(values) if values else None,
        rolls=state.rolls,
        held=sum(state.held),
        players=tuple(p for p in state.seats if p not in state.gone),
        stats=tray_stats(state.tallies),
        put_away=state.put_away,
    )


def private_view(state: TrayState, player: str) -> TrayView:
    """Nothing is private in a dice tray."""
    return public_view(state)


revealed_view = public_view


def and_words(words: Sequence[str]) -> str:
    """``"3"``, ``"3 and 5"``, ``"3, 5 and Moon"``."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def tell(event: Event, state: TrayState) -> str:
    """The sentence the table reads for `event`, in the tray it led to."""
    match event:
        case Rolled(rolled=rolled):
            view = public_view(state)
            came = and_words([view.dice[number - 1].face for number in rolled])
            kept = len(view.dice) - len(rolled)
            said = f"Rolled {came}" + (f" ({kept} held)" if kept else "")
            return said + (f": sum {view.total}." if view.total is not None and len(view.dice) > 1 else ".")
        case DieHeld(die=number):
            return f"Die {number} ({public_view(state).dice[number - 1].face}) is held."
        case DieReleased(die=number):
            return f"Die {number} is back in the roll."
        case AllReleased():
            return "Every die is back in the roll."
        case DieAdded(die=spec):
            return f"A {read_die(spec).name} joined the tray as die {len(state.dice)}."
        case DieRemoved(die=number, was=spec):
            return f"Die {number} ({read_die(spec).name}) left the tray."
        case SetChosen(name=name, dice=specs):
            kinds = describe(read_dice(specs))
            return f"The tray holds {name}." if kinds == name else f"The tray holds {name}: {kinds}."
        case PutAwayDone():
            rolls = "1 roll" if state.rolls == 1 else f"{state.rolls} rolls"
            return f"The dice were put away after {rolls}."
        case FirstPlayerChosen():
            return told_first(event)
        case PlayerLeft(player=player):
            return f"{player} left the game."  # nobody wins a dice tray: the engine's sentence would say so
    raise UnknownEvent("The dice tray", event)
