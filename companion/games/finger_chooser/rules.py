"""The finger chooser's rules: choose one of the fingers on the screen, or split them into teams, from the dice.

Every finger on the screen wears a ring numbered 1 to 10 (the screen gives the lowest number free, so a finger
lifted and put back takes its old number). An action names the rings present when the fingers fell still; its
event holds what the dice said. There is no turn and nobody wins: the table chooses as often as it likes, then
puts the chooser away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from companion.dice import Dice
from companion.game import Action, Event, Options, Outcome, Termination, UnknownEvent, require
from companion.games.finger_chooser.settings import ChooserSettings

MAX_FINGERS = 10
"""The most fingers the screen tells apart: the official 7-inch panel reports ten touch points."""
FEWEST = 2
"""A choice needs two fingers at least: one finger has nobody to be chosen against."""
MAX_TEAMS = 5
"""The most teams: each wears a letter, A to E, and a colour of the table's five."""


class Ending(StrEnum):
    """The chooser's own end: the table puts it away (nobody wins a chooser)."""

    PUT_AWAY = "chooser put away"


PUT_AWAY = Ending.PUT_AWAY


# -- what the table says -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """The fingers wearing rings `fingers` have been still: choose one of them."""

    type = "choose"
    fingers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SplitTeams(Action):
    """The fingers wearing rings `fingers` have been still: split them into `teams` teams, as even as can be."""

    type = "split_teams"
    fingers: tuple[int, ...]
    teams: int


@dataclass(frozen=True, slots=True)
class PutAway(Action):
    """The table is done choosing: the chooser goes into the history."""

    type = "put_away"


ACTIONS = (Choose, SplitTeams, PutAway)


# -- what happened ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FingerChosen(Event):
    """Of the rings `fingers`, the dice chose ring `chosen`."""

    type = "finger_chosen"
    fingers: tuple[int, ...]
    chosen: int


@dataclass(frozen=True, slots=True)
class TeamsMade(Event):
    """The rings `fingers`, split by the dice into `teams` (each team's rings in order; the bigger teams first)."""

    type = "teams_made"
    fingers: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class ChooserPutAway(Event):
    """The chooser is put away after `choices` choices."""

    type = "chooser_put_away"
    choices: int


EVENTS = (FingerChosen, TeamsMade, ChooserPutAway)


# -- the state ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Round:
    """One choice: the rings present, and the ring chosen (a choice) or the teams (a split)."""

    fingers: tuple[int, ...]
    chosen: int | None = None
    teams: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class ChooserState:
    """Who is at the table, every choice so far, and whether the chooser is put away."""

    seats: tuple[str, ...]
    rounds: tuple[Round, ...] = ()
    gone: tuple[str, ...] = ()
    put_away: bool = False


def setup(options: Options, settings: ChooserSettings) -> ChooserState:
    """A chooser with nothing chosen yet."""
    return ChooserState(options.names)


# -- the draw: the dice's part, also used by a game's "Who goes first?" ----------------------------------


def draw(fingers: Sequence[int], dice: Dice) -> int:
    """One of `fingers`, each as likely as the others: one roll of a die with as many sides as fingers."""
    return fingers[dice.roll(len(fingers)) - 1]


def split(fingers: Sequence[int], teams: int, dice: Dice) -> tuple[tuple[int, ...], ...]:
    """`fingers` shuffled by the dice (every order as likely), then dealt round into `teams` teams.

    Dealing round makes the teams as even as can be (sizes differ by one at most, the bigger first); the
    shuffle is Fisher and Yates's, one roll per finger but the last, so every split is as likely as its
    mirror.
    """
    order = list(fingers)
    for last in range(len(order) - 1, 0, -1):
        other = dice.roll(last + 1) - 1
        order[last], order[other] = order[other], order[last]
    return tuple(tuple(sorted(order[team::teams])) for team in range(teams))


# -- decide -----------------------------------------------------------------------------------------------


def _check_fingers(fingers: Sequence[int]) -> None:
    require(len(fingers) >= FEWEST, "Put at least two fingers on the screen: one finger has nobody to beat.")
    require(len(fingers) <= MAX_FINGERS, f"The screen tells at most {MAX_FINGERS} fingers apart.")
    require(all(1 <= f <= MAX_FINGERS for f in fingers), f"Rings are numbered 1 to {MAX_FINGERS}.")
    require(len(set(fingers)) == len(fingers), "Each ring is on one finger only: a ring number came twice.")


def decide(state: ChooserState, action: Action, dice: Dice) -> list[Event]:
    """The events `action` causes now; `RuleError` with the reason if the chooser cannot do it."""
    match action:
        case Choose(fingers=fingers):
            _check_fingers(fingers)
            return [FingerChosen(fingers, draw(fingers, dice))]
        case SplitTeams(fingers=fingers, teams=teams):
            _check_fingers(fingers)
            require(teams >= 2, "Teams means two teams at least; to choose one finger, choose without teams.")
            require(teams <= MAX_TEAMS, f"The chooser makes {MAX_TEAMS} teams at most.")
            require(teams <= len(fingers), f"{teams} teams need {teams} fingers at least; {len(fingers)} are down.")
            return [TeamsMade(fingers, split(fingers, teams, dice))]
        case PutAway():
            return [ChooserPutAway(len(state.rounds))]
    raise TypeError(f"not a finger chooser action: {action!r}")  # the engine passes only ours


def evolve(state: ChooserState, event: Event) -> ChooserState:
    """The chooser after `event`."""
    match event:
        case FingerChosen(fingers=fingers, chosen=chosen):
            return replace(state, rounds=(*state.rounds, Round(fingers, chosen=chosen)))
        case TeamsMade(fingers=fingers, teams=teams):
            return replace(state, rounds=(*state.rounds, Round(fingers, teams=teams)))
        case ChooserPutAway():
            return replace(state, put_away=True)
    raise UnknownEvent("Finger chooser", event)


# -- leaving --------------------------------------------------------------------------------------------


def players_in(state: ChooserState) -> tuple[str, ...]:
    """Everyone seated who has not left (the chooser goes on with whoever is there)."""
    return tuple(p for p in state.seats if p not in state.gone)


def left(state: ChooserState, player: str) -> ChooserState:
    return replace(state, gone=(*state.gone, player))


# -- questions --------------------------------------------------------------------------------------------


def outcome(state: ChooserState) -> Outcome | None:
    """Once put away, or everyone has left (nobody is there to put it away, as a score pad ends then): nobody won
    (a tie, as the store counts it), and how many choices were made."""
    if not state.put_away and players_in(state):
        return None
    count = len(state.rounds)
    made = "1 choice" if count == 1 else f"{count} choices"
    why = "The chooser was put away" if state.put_away else "Everyone left; the chooser was put away"
    return Outcome((), PUT_AWAY, f"{why} after {made}.", Termination.TIE)


def current_player(state: ChooserState) -> str | None:
    """Nobody: every finger counts the same, whoever it belongs to."""
    return None


def legal_actions(state: ChooserState, player: str) -> list[Action]:
    """What may be listed now: putting the chooser away (a choice needs the fingers, which only the screen knows)."""
    return [] if state.put_away else [PutAway()]
