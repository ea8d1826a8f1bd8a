"""The turn clock's rules: whose time runs, what a turn took, who ran out.

Every time is the game's seconds of play (`Session.elapsed`: pauses left out),
carried by each action as ``at``. The rules keep what the finished turns took
and when the running one began; what the running turn has taken so far is
``now - turn_began``, worked out by whoever shows it (the presenter), so the
stored log holds every time a view needs, and a game resumed after a power cut
goes on from its last saved second of play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum

from companion.dice import Dice
from companion.game import (
    Action,
    Event,
    FirstPlayerChosen,
    Options,
    Outcome,
    RuleError,
    Seat,
    TurnEnded,
    UnknownEvent,
    require,
)
from companion.games.turn_clock.settings import ClockSettings

# -- the vocabulary ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Start(Action):
    """Start (or, after someone left in their turn, start again) the clock of the player whose turn it is."""

    type = "start"
    at: float


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """`player` ends their turn at `at`; the clock passes on in seat order."""

    type = "end_turn"
    whose_turn = True
    player: Seat
    at: float


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """The table is done: the clock stops for good at `at`, the running turn counted."""

    type = "stop"
    at: float


ACTIONS: tuple[type[Action], ...] = (Start, EndTurn, Stop)


@dataclass(frozen=True, slots=True)
class ClockStarted(Event):
    type = "clock_started"
    player: str
    at: float


@dataclass(frozen=True, slots=True)
class TurnTimed(TurnEnded):
    """The engine's `turn_ended` with the turn's times: when it ended, how long it took, whether time ran out in it."""

    at: float = 0.0
    used: float = 0.0
    ran_out: bool = False


@dataclass(frozen=True, slots=True)
class ClockStopped(Event):
    """The clock stopped at `at`; `player`'s running turn (if one ran) took `used`."""

    type = "clock_stopped"
    at: float
    player: str | None = None
    used: float = 0.0
    ran_out: bool = False


EVENTS: tuple[type[Event], ...] = (ClockStarted, TurnTimed, ClockStopped)


class Ending(StrEnum):
    STOPPED = "clock stopped"


# -- the state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerClock:
    """One player's times so far (finished turns only)."""

    name: str
    used: float = 0.0  # seconds of all their finished turns
    turns: int = 0
    longest: float = 0.0
    out_of_time: bool = False  # the flag fell (a total time ran out; with a time per turn, once a turn ran over)
    overs: int = 0  # turns that took longer than they had
    gone: bool = False  # left the game


@dataclass(frozen=True)
class ClockState:
    settings: ClockSettings
    players: tuple[PlayerClock, ...]
    turn: int = 0  # whose clock runs (or runs next, once started)
    running: bool = False  # a turn is being timed
    turn_began: float = 0.0  # seconds of play when the running turn began
    last_at: float = 0.0  # the latest time an action carried: times never go back
    stopped: bool = False

    @property
    def current(self) -> PlayerClock:
        return self.players[self.turn]

    def index(self, name: str) -> int:
        return next(i for i, p in enumerate(self.players) if p.name == name)


def setup(options: Options, settings: ClockSettings) -> ClockState:
    return ClockState(settings, tuple(PlayerClock(name) for name in options.names))


def budget(settings: ClockSettings, player: PlayerClock) -> float:
    """Seconds `player` had left when their running (or next) turn began: a total time with its increments
    less what they used, or the time per turn."""
    if settings.mode == "turn":
        return settings.seconds
    return settings.seconds + settings.increment * player.turns - player.used


def next_in(state: ClockState, after: int) -> int:
    """The next seat after `after` whose player is still in (seat order, round again)."""
    count = len(state.players)
    for step in range(1, count + 1):
        seat = (after + step) % count
        if not state.players[seat].gone:
            return seat
    return after


# -- deciding -------------------------------------------------------------------------------------


def _time(state: ClockState, at: float) -> None:
    require(math.isfinite(at) and at >= 0, "A time is a number of seconds of play, 0 or more.")
    require(at >= state.last_at, f"The clock cannot go back: its last time was {state.last_at:g} s of play.")


def _ran_out(state: ClockState, used: float) -> bool:
    """Whether a turn of `used` seconds by the current player makes their flag fall now (it falls once)."""
    player = state.current
    if state.settings.mode == "total" and player.out_of_time:
        return False
    return used > budget(state.settings, player)


def decide(state: ClockState, action: Action, dice: Dice) -> list[Event]:
    require(not state.stopped, "The clock has stopped; start a new one to time another game.")
    match action:
        case Start(at=at):
            require(not state.running, f"{state.current.name}'s clock is already running.")
            _time(state, at)
            return [ClockStarted(state.current.name, at)]
        case EndTurn(player=player, at=at):
            require(state.running, f"Start the clock first: tap it to start {state.current.name}'s time.")
            _time(state, at)
            used = at - state.turn_began
            following = state.players[next_in(state, state.turn)].name
            return [TurnTimed(player, following, at=at, used=used, ran_out=_ran_out(state, used))]
        case Stop(at=at):
            _time(state, at)
            if not state.running:
                return [ClockStopped(at)]
            used = at - state.turn_began
            return [ClockStopped(at, state.current.name, used, _ran_out(state, used))]
    raise RuleError(f"The turn clock has no action {action.type!r}.")


# -- folding ----------------------------------------------------------------------------------------


def _timed(state: ClockState, used: float, ran_out: bool) -> tuple[PlayerClock, ...]:
    """The players with the current player's turn of `used` seconds counted."""
    player = state.current
    over = used > budget(state.settings, player)
    timed = replace(
        player,
        used=player.used + used,
        turns=player.turns + 1,
        longest=max(player.longest, used),
        out_of_time=player.out_of_time or ran_out,
        overs=player.overs + over,
    )
    return tuple(timed if i == state.turn else p for i, p in enumerate(state.players))


def evolve(state: ClockState, event: Event) -> ClockState:
    match event:
        case FirstPlayerChosen(player=player):
            return replace(state, turn=state.index(player))
        case ClockStarted(at=at):
            return replace(state, running=True, turn_began=at, last_at=at)
        case TurnTimed(next_player=following, at=at, used=used, ran_out=ran_out):
            players = _timed(state, used, ran_out)
            return replace(state, players=players, turn=state.index(following), turn_began=at, last_at=at)
        case ClockStopped(at=at, player=player, used=used, ran_out=ran_out):
            players = _timed(state, used, ran_out) if player is not None else state.players
            return replace(state, players=players, running=False, last_at=at, stopped=True)
    raise UnknownEvent("Turn clock", event)


# -- asking -----------------------------------------------------------------------------------------


def outcome(state: ClockState) -> Outcome | None:
    """Once stopped: nobody wins (it is a clock); the detail names who ran out of time."""
    if not state.stopped:
        return None
    out = [p.name for p in state.players if p.out_of_time and not p.gone]
    detail = f"Out of time: {', '.join(out)}." if out else "Nobody ran out of time."
    return Outcome((), Ending.STOPPED, detail)


def current_player(state: ClockState) -> str | None:
    return None if state.stopped else state.current.name


def legal_actions(state: ClockState, player: str) -> list[Action]:
    """What `player` may do now, each at the earliest moment it may be done (a table's taps carry their own time)."""
    if state.stopped:
        return []
    if not state.running:
        return [Start(state.last_at), Stop(state.last_at)]
    ends: list[Action] = [EndTurn(player, state.last_at)] if player == state.current.name else []
    return [*ends, Stop(state.last_at)]


def players_in(state: ClockState) -> tuple[str, ...]:
    return tuple(p.name for p in state.players if not p.gone)


def left(state: ClockState, player: str) -> ClockState:
    """`player` left: out of the round. In their own turn the clock passes on and waits for a tap
    (nobody knows when they left), their running turn uncounted."""
    seat = state.index(player)
    players = tuple(replace(p, gone=True) if i == seat else p for i, p in enumerate(state.players))
    gone = replace(state, players=players)
    if seat != state.turn:
        return gone
    return replace(gone, turn=next_in(gone, seat), running=False)
