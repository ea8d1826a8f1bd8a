"""The dice tray's rules: its words (actions and events) and what they do to a tray.

There is no turn and nobody wins: the table rolls whenever it likes. The rules keep what a tray of real dice
would: which dice are in it, which face each shows, which are held (kept aside while the rest are rolled again),
and how often each face has come (the statistics). A roll rolls every die not held; its values are in its event,
so undo takes the roll back without rolling, and redo puts back the very same faces. Dice are numbered from 1,
left to right, as the table sees them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from companion.codec import optional
from companion.dice import Dice
from companion.game import Action, Event, Options, Outcome, RuleError, Termination, UnknownEvent, require
from companion.games.dice_tray.kinds import MAX_DICE, Die, Spec, describe, read_dice, read_die, set_name
from companion.games.dice_tray.settings import TraySettings


class Ending(StrEnum):
    """The tray's own end: the table puts the dice away (nobody wins a dice tray)."""

    PUT_AWAY = "dice put away"


PUT_AWAY = Ending.PUT_AWAY


# -- what the table says -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Roll every die that is not held (the one big button)."""

    type = "roll"


@dataclass(frozen=True, slots=True)
class Hold(Action):
    """Keep die `die` (1 is the first) aside: the next roll leaves it as it is."""

    type = "hold"
    die: int


@dataclass(frozen=True, slots=True)
class Release(Action):
    """Put held die `die` back among the dice the next roll rolls."""

    type = "release"
    die: int


@dataclass(frozen=True, slots=True)
class ReleaseAll(Action):
    """Every held die back into the roll."""

    type = "release_all"


@dataclass(frozen=True, slots=True)
class AddDie(Action):
    """One more die in the tray, at the right end: ``"d8"`` or a list of its faces."""

    type = "add_die"
    die: Spec


@dataclass(frozen=True, slots=True)
class RemoveDie(Action):
    """Take die `die` (1 is the first) out of the tray."""

    type = "remove_die"
    die: int


@dataclass(frozen=True, slots=True)
class ChooseSet(Action):
    """Put a whole set in the tray instead of the dice in it: a saved set, or one the table makes."""

    type = "choose_set"
    name: str
    dice: tuple[Spec, ...]


@dataclass(frozen=True, slots=True)
class PutAway(Action):
    """The table is done with the tray: it ends (undo takes it back)."""

    type = "put_away"


ACTIONS = (Roll, Hold, Release, ReleaseAll, AddDie, RemoveDie, ChooseSet, PutAway)


# -- what happened ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """Dice `rolled` (numbers from 1) were rolled and came up `faces` (each die's face number, 1 the first)."""

    type = "rolled"
    rolled: tuple[int, ...]
    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DieHeld(Event):
    type = "die_held"
    die: int


@dataclass(frozen=True, slots=True)
class DieReleased(Event):
    type = "die_released"
    die: int


@dataclass(frozen=True, slots=True)
class AllReleased(Event):
    type = "all_released"
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DieAdded(Event):
    type = "die_added"
    die: Spec


@dataclass(frozen=True, slots=True)
class DieRemoved(Event):
    """Die number `die` left the tray; `was` says which kind it was (for the log)."""

    type = "die_removed"
    die: int
    was: Spec


@dataclass(frozen=True, slots=True)
class SetChosen(Event):
    type = "set_chosen"
    name: str
    dice: tuple[Spec, ...]


@dataclass(frozen=True, slots=True)
class PutAwayDone(Event):
    """The tray ended after `rolls` rolls."""

    type = "dice_put_away"
    rolls: int = optional(0)


EVENTS = (Rolled, DieHeld, DieReleased, AllReleased, DieAdded, DieRemoved, SetChosen, PutAwayDone)


# -- the state --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """How often each face of one kind of die has come in this tray (live rolls: an undone one is not counted)."""

    die: Die
    counts: tuple[int, ...]  # index 0 is face 1


@dataclass(frozen=True)
class TrayState:
    """Everything the tray knows. Immutable. `showing[i]` is die i's face number (0: not rolled yet)."""

    seats: tuple[str, ...]
    name: str
    dice: tuple[Die, ...]
    showing: tuple[int, ...]
    held: tuple[bool, ...]
    rolls: int = 0
    tallies: tuple[Tally, ...] = ()  # in the order the kinds were first rolled
    gone: tuple[str, ...] = ()
    put_away: bool = False


def setup(options: Options, settings: TraySettings) -> TrayState:
    """The tray with the settings' set, nothing rolled yet."""
    dice = settings.dice
    return TrayState(options.names, describe(dice), dice, (0,) * len(dice), (False,) * len(dice))


# -- decide -----------------------------------------------------------------------------------------------


def decide(state: TrayState, action: Action, dice: Dice) -> list[Event]:
    """The events `action` causes now; `RuleError` with the reason if the tray cannot do it."""
    match action:
        case Roll():
            return [_roll(state, dice)]
        case Hold(die=number):
            index = _die(state, number)
            require(state.showing[index] > 0, f"Die {number} has not been rolled yet: roll first, then hold it.")
            require(not state.held[index], f"Die {number} is held already.")
            return [DieHeld(number)]
        case Release(die=number):
            index = _die(state, number)
            require(state.held[index], f"Die {number} is not held.")
            return [DieReleased(number)]
        case ReleaseAll():
            held = tuple(i + 1 for i, h in enumerate(state.held) if h)
            require(bool(held), "No die is held.")
            return [AllReleased(held)]
        case AddDie(die=spec):
            require(len(state.dice) < MAX_DICE, f"The tray holds at most {MAX_DICE} dice; remove one first.")
            return [DieAdded(read_die(spec).spec)]
        case RemoveDie(die=number):
            index = _die(state, number)
            return [DieRemoved(number, state.dice[index].spec)]
        case ChooseSet(name=name, dice=specs):
            chosen = read_dice(specs)
            return [SetChosen(set_name(name), tuple(die.spec for die in chosen))]
        case PutAway():
            return [PutAwayDone(state.rolls)]
    raise RuleError(f"The dice tray has no action {type(action).type!r}.")


def _die(state: TrayState, number: int) -> int:
    """The index of die `number` (1 is the first); `RuleError` naming the dice there are."""
    if not state.dice:
        raise RuleError("The tray is empty: add a die first.")
    count = len(state.dice)
    require(1 <= number <= count, f"There is no die {number}: the tray holds {_dice_words(count)}, 1 to {count}.")
    return number - 1


def _roll(state: TrayState, dice: Dice) -> Rolled:
    require(bool(state.dice), "The tray is empty: add a die first.")
    rolled = tuple(i + 1 for i, held in enumerate(state.held) if not held)
    require(bool(rolled), "Every die is held: release one to roll it.")
    return Rolled(rolled, tuple(dice.roll(state.dice[number - 1].sides) for number in rolled))


def _dice_words(count: int) -> str:
    return "1 die" if count == 1 else f"{count} dice"


# -- evolve -----------------------------------------------------------------------------------------------


def evolve(state: TrayState, event: Event) -> TrayState:
    """The state after `event`; `UnknownEvent` for an event the tray never makes."""
    match event:
        case Rolled(rolled=rolled, faces=faces):
            showing = list(state.showing)
            tallies = list(state.tallies)
            for number, face in zip(rolled, faces, strict=True):
                showing[number - 1] = face
                tallies = _counted(tallies, state.dice[number - 1], face)
            return replace(state, showing=tuple(showing), tallies=tuple(tallies), rolls=state.rolls + 1)
        case DieHeld(die=number):
            return replace(state, held=_set_at(state.held, number - 1, True))
        case DieReleased(die=number):
            return replace(state, held=_set_at(state.held, number - 1, False))
        case AllReleased():
            return replace(state, held=(False,) * len(state.dice))
        case DieAdded(die=spec):
            dice = (*state.dice, read_die(spec))
            return replace(
                state,
                dice=dice,
                showing=(*state.showing, 0),
                held=(*state.held, False),
                name=describe(dice),
            )
        case DieRemoved(die=number):
            i = number - 1
            dice = state.dice[:i] + state.dice[i + 1 :]
            return replace(
                state,
                dice=dice,
                showing=state.showing[:i] + state.showing[i + 1 :],
                held=state.held[:i] + state.held[i + 1 :],
                name=describe(dice),
            )
        case SetChosen(name=name, dice=specs):
            dice = read_dice(specs)
            return replace(state, name=name, dice=dice, showing=(0,) * len(dice), held=(False,) * len(dice))
        case PutAwayDone():
            return replace(state, put_away=True)
        case _:
            raise UnknownEvent("The dice tray", event)


def _set_at(values: tuple[bool, ...], index: int, value: bool) -> tuple[bool, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _counted(tallies: list[Tally], die: Die, face: int) -> list[Tally]:
    for i, tally in enumerate(tallies):
        if tally.die == die:
            counts = list(tally.counts)
            counts[face - 1] += 1
            tallies[i] = Tally(die, tuple(counts))
            return tallies
    counts = [0] * die.sides
    counts[face - 1] = 1
    return [*tallies, Tally(die, tuple(counts))]


# -- a player leaves --------------------------------------------------------------------------------------


def players_in(state: TrayState) -> tuple[str, ...]:
    """Everyone seated who has not left (the tray goes on with whoever is there)."""
    return tuple(p for p in state.seats if p not in state.gone)


def left(state: TrayState, player: str) -> TrayState:
    return replace(state, gone=(*state.gone, player))


# -- questions --------------------------------------------------------------------------------------------


def outcome(state: TrayState) -> Outcome | None:
    """Once the dice are put away, or everyone has left (nobody is there to roll or put them away, as a score pad
    ends then): nobody won (a tie, as the store counts it), and how many rolls there were."""
    if not state.put_away and players_in(state):
        return None
    rolls = "1 roll" if state.rolls == 1 else f"{state.rolls} rolls"
    why = "The dice were put away" if state.put_away else "Everyone left; the dice were put away"
    return Outcome((), PUT_AWAY, f"{why} after {rolls}.", Termination.TIE)


def current_player(state: TrayState) -> str | None:
    """Nobody: anyone at the table may roll at any time."""
    return None


def legal_actions(state: TrayState, player: str) -> list[Action]:
    """What may be done now (by anyone at the table; `player` changes nothing)."""
    if state.put_away:
        return []
    actions: list[Action] = []
    if state.dice and not all(state.held):
        actions.append(Roll())
    for i, (face, held) in enumerate(zip(state.showing, state.held, strict=True)):
        if held:
            actions.append(Release(i + 1))
        elif face:
            actions.append(Hold(i + 1))
    if any(state.held):
        actions.append(ReleaseAll())
    if len(state.dice) < MAX_DICE:
        actions.append(AddDie("d6"))
    actions.extend(RemoveDie(i + 1) for i in range(len(state.dice)))
    actions.append(PutAway())
    return actions
