"""What the table sees of the turn clock, and the sentences its log reads.

The views hold the times as of the running turn's start (`turn_began`);
`live` adds what the running turn has taken by a given second of play, so the
screen and the log read one arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import everything_public, told_first, told_left
from companion.game import Event, FirstPlayerChosen, GameView, PlayerLeft
from companion.games.turn_clock.rules import (
    ClockStarted,
    ClockState,
    ClockStopped,
    PlayerClock,
    TurnTimed,
    budget,
    players_in,
)

public_event = everything_public  # a clock has no secrets


def clock_words(seconds: float) -> str:
    """``1:02:03`` or ``12:34`` (whole seconds, rounded down); a negative time gets a minus sign."""
    sign = "-" if seconds < 0 else ""
    whole = int(abs(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}" if hours else f"{sign}{minutes}:{secs:02d}"


@dataclass(frozen=True)
class PlayerTime:
    """One player's clock as of the running turn's start."""

    name: str
    used: float  # seconds of their finished turns
    turns: int
    longest: float
    left: float  # seconds they had left when their running (or next) turn began
    out_of_time: bool
    overs: int
    gone: bool


@dataclass(frozen=True, kw_only=True)
class TurnClockView(GameView):
    mode: str  # "total" (a time for the whole game) or "turn" (a time per turn)
    seconds: float
    increment: float
    time_words: str  # "20:00 each", "1:00 a turn"
    players: tuple[PlayerTime, ...]
    current: str | None  # whose clock runs, or runs next once started
    running: bool
    turn_began: float
    stopped: bool


def _player(state: ClockState, player: PlayerClock) -> PlayerTime:
    left = budget(state.settings, player)
    return PlayerTime(
        player.name, player.used, player.turns, player.longest, left, player.out_of_time, player.overs, player.gone
    )


def public_view(state: ClockState) -> TurnClockView:
    settings = state.settings
    return TurnClockView(
        mode=settings.mode,
        seconds=settings.seconds,
        increment=settings.increment,
        time_words=settings.words,
        players=tuple(_player(state, p) for p in state.players),
        current=None if state.stopped else state.current.name,
        running=state.running,
        turn_began=state.turn_began,
        stopped=state.stopped,
    )


def private_view(state: ClockState, player: str) -> TurnClockView:
    return public_view(state)


revealed_view = public_view


@dataclass(frozen=True)
class LiveTime:
    """A player's clock at one second of play: what the screen shows."""

    name: str
    left: float  # time left (a total time) or left in this turn (a time per turn); below 0 once the flag fell
    used: float  # all their time so far, the running turn included
    longest: float
    turns: int
    running: bool
    out_of_time: bool  # the flag has fallen (now, or earlier and for good)
    overs: int
    gone: bool


def live(view: TurnClockView, now: float) -> tuple[LiveTime, ...]:
    """Each player's clock at `now` (seconds of play): the running turn counted for the player whose time runs."""
    shown = []
    for p in view.players:
        running = view.running and p.name == view.current
        spent = max(0.0, now - view.turn_began) if running else 0.0
        left = p.left - spent
        if view.mode == "turn" and not running:
            left = view.seconds
        flag = p.out_of_time if view.mode == "total" else False
        shown.append(
            LiveTime(
                p.name,
                left,
                p.used + spent,
                max(p.longest, spent),
                p.turns,
                running,
                flag or (running and left < 0),
                p.overs + (1 if running and left < 0 else 0),
                p.gone,
            )
        )
    return tuple(shown)


def totals(players: tuple[PlayerTime, ...] | tuple[PlayerClock, ...]) -> str:
    """Each player's total and longest turn: "Ann 12:03 in 7 turns, longest 3:10; Bo …"."""
    parts = []
    for p in players:
        turns = "1 turn" if p.turns == 1 else f"{p.turns} turns"
        parts.append(f"{p.name} {clock_words(p.used)} in {turns}, longest {clock_words(p.longest)}")
    return "; ".join(parts) + "."


def tell(event: Event, state: ClockState) -> str:
    match event:
        case FirstPlayerChosen():
            return f"{told_first(event)} Their clock runs first."
        case ClockStarted(player=player):
            return f"{player}'s clock is running."
        case TurnTimed(player=player, next_player=following, used=used, ran_out=ran_out):
            flag = f" {player} ran out of time!" if ran_out else ""
            return f"{player}'s turn took {clock_words(used)}.{flag} {following}'s clock runs."
        case ClockStopped(player=player, ran_out=ran_out):
            flag = f" {player} ran out of time!" if ran_out else ""
            return f"The clock stopped.{flag} Times: {totals(state.players)}"
        case PlayerLeft():
            said = told_left(event, players_in(state))
            if len(players_in(state)) > 1 and not state.running:
                said += f" Tap the clock to start {state.current.name}'s time."
            return said
    return ""
