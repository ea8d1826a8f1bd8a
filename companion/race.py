"""The water race that decides who goes first: pure logic, no I/O, no clocks of its own.

Quin's rule: both players drink a glass of water; whoever finishes first
chooses who goes first, and in later games the previous loser chooses. The
companion gives each player a button. A `Race` is an immutable value that
moves through its phases as the hardware layer reports what happened:

    ARMED --start--> COUNTDOWN (3, 2, 1) --count_down--> SET --go--> GO --press...--> DONE
      ^                     |                             |           |
      +---- false start ----+-----------------------------+-----------+

Every time is an *edge time*: seconds on the pin factory's clock at which the
button's line first changed, as close to the pin as the factory reports it.
The race decides only by those times, never by the order in which reports
arrive: a press delivered late but stamped earlier still wins, and a press
stamped before GO is a false start even if its report comes after GO.

The random wait between the countdown and GO is drawn from a `random.Random`
passed in, and recorded in `Race.delays`.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

DEFAULT_TIE_WINDOW_MS = 5.0
DEFAULT_COUNTDOWN = 3
DEFAULT_DELAY_RANGE = (1.0, 3.0)
"""Seconds between "1" and GO, drawn afresh for every start so nobody can anticipate GO."""

_EPSILON_MS = 1e-6  # float noise when a gap equals the tie window exactly

HOW = ("race", "loser", "table", "fingers")
"""How a first player may be chosen (the ``how`` of a ``choose_first`` action)."""

log = logging.getLogger(__name__)


class RaceError(ValueError):
    """A step the race cannot take now. ``str(error)`` is a sentence for the table."""


class News(Enum):
    """The latest thing to tell the table about a race (`Race.news`); `Race.notice` says it in words."""

    NONE = "none"
    FALSE_START = "false start"  # `news_about` started too early once: once more and they lose
    OUT = "out"  # `news_about` started too early twice and is out; the others race on
    STOPPED = "stopped"  # Stop was tapped before the race was decided
    RESULT = "result"  # the race is decided: see `Race.result`

    @property
    def is_false_start(self) -> bool:
        """A racer jumped the gun (once, or a second time and is out)."""
        return self in (News.FALSE_START, News.OUT)


class Phase(Enum):
    ARMED = "armed"  # waiting for Start; buttons may be tested freely
    COUNTDOWN = "countdown"  # 3, 2, 1: any press is a false start
    SET = "set"  # the random wait before GO: any press is a false start
    GO = "go"  # racing: the first press of each racer counts
    DONE = "done"  # `result` holds the outcome


@dataclass(frozen=True)
class Press:
    """One racer's button going down, at its edge time (seconds, pin factory clock)."""

    racer: str
    at: float


@dataclass(frozen=True)
class Result:
    """How a race ended. ``winner`` is None on a tie (race again)."""

    winner: str | None
    times_ms: tuple[tuple[str, float | None], ...]  # seat order; ms after GO, None if no valid press
    how: str  # "first", "tie", "false starts" or "stopped"
    sentence: str
    tied: tuple[str, ...] = ()

    @property
    def is_tie(self) -> bool:
        return self.winner is None

    def time_ms(self, racer: str) -> float | None:
        return dict(self.times_ms).get(racer)


@dataclass(frozen=True)
class Race:
    """One race between `racers` (seat order). Build with `Race.new`; every step returns a new value."""

    racers: tuple[str, ...]
    tie_window_ms: float = DEFAULT_TIE_WINDOW_MS
    countdown_from: int = DEFAULT_COUNTDOWN
    delay_range: tuple[float, float] = DEFAULT_DELAY_RANGE
    phase: Phase = Phase.ARMED
    count: int = 0  # the number showing during COUNTDOWN
    started_at: float | None = None  # edge-clock time of the current attempt's start
    go_at: float | None = None  # edge-clock time GO was given
    delays: tuple[float, ...] = ()  # every random wait drawn in this race, in order
    presses: tuple[Press, ...] = ()  # valid presses after GO (first of each racer)
    false_starts: tuple[Press, ...] = ()  # every false start in this race
    out: tuple[str, ...] = ()  # racers who lost the race by starting too early twice
    result: Result | None = None
    news: News = News.NONE  # the latest thing to tell the table; `notice` is its sentence
    news_about: str | None = None  # the racer the news is about (a false start), if any
    # The attempt as it stood before its false start was charged: a press stamped
    # earlier than the charged one, reported later, is charged instead.
    before_charge: Race | None = field(default=None, repr=False, compare=False)

    # -- building ------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        racers: Sequence[str],
        *,
        tie_window_ms: float = DEFAULT_TIE_WINDOW_MS,
        countdown_from: int = DEFAULT_COUNTDOWN,
        delay_range: tuple[float, float] = DEFAULT_DELAY_RANGE,
    ) -> Race:
        """A race armed and waiting for Start. Raises `RaceError` for impossible settings."""
        names = tuple(racers)
        if len(names) < 2:
            raise RaceError("A race needs at least two players.")
        if len(set(names)) != len(names) or not all(isinstance(n, str) and n.strip() for n in names):
            raise RaceError("Every racer needs a different name.")
        if isinstance(tie_window_ms, bool) or not isinstance(tie_window_ms, int | float) or tie_window_ms < 0:
            raise RaceError(f"The tie window must be zero or more milliseconds, not {tie_window_ms!r}.")
        if not isinstance(countdown_from, int) or countdown_from < 0:
            raise RaceError(f"The countdown must start from zero or more, not {countdown_from!r}.")
        low, high = delay_range
        if not 0 <= low <= high:
            raise RaceError(f"The wait before GO must be a range like (1.0, 3.0) seconds, not {delay_range!r}.")
        return cls(names, float(tie_window_ms), countdown_from, (float(low), float(high)))

    def again(self) -> Race:
        """A fresh race between the same racers with the same settings (after a tie, say)."""
        return Race(self.racers, self.tie_window_ms, self.countdown_from, self.delay_range)

    # -- what the table sees -----------------------------------------------------------

    @property
    def active(self) -> tuple[str, ...]:
        """Racers still in this race, in seat order."""
        return tuple(r for r in self.racers if r not in self.out)

    @property
    def delay(self) -> float | None:
        """The random wait before GO of the current attempt (None before the first start)."""
        return self.delays[-1] if self.delays else None

    @property
    def notice(self) -> str:
        """`news` as a sentence for the table ("False start by Bo! ..."); empty when there is none."""
        racer = self.news_about
        if self.news is News.FALSE_START:
            return f"False start by {racer}! Once more and {racer} loses the race."
        if self.news is News.OUT:
            return f"{racer} started too early twice and is out of this race."
        if self.news is News.STOPPED:
            return "Race stopped."
        if self.news is News.RESULT and self.result is not None:
            return self.result.sentence
        return ""

    def false_starts_by(self, racer: str) -> int:
        return sum(1 for p in self.false_starts if p.racer == racer)

    def time_ms(self, racer: str) -> float | None:
        """`racer`'s time after GO in milliseconds, once they have pressed (None before)."""
        if self.go_at is None:
            return None
        for press in self.presses:
            if press.racer == racer:
                return (press.at - self.go_at) * 1000.0
        return None

    # -- the steps -----------------------------------------------------------------------

    def start(self, rng: random.Random, at: float) -> Race:
        """Begin the countdown at edge-clock time `at`, drawing the wait before GO from `rng`."""
        if self.phase is not Phase.ARMED:
            raise RaceError("The race has already started." if self.phase is not Phase.DONE else "The race is over.")
        low, high = self.delay_range
        delay = round(rng.uniform(low, high), 3)
        return replace(
            self,
            phase=Phase.COUNTDOWN if self.countdown_from > 0 else Phase.SET,
            count=self.countdown_from,
            started_at=at,
            go_at=None,
            delays=(*self.delays, delay),
            presses=(),
            news=News.NONE,
            news_about=None,
            before_charge=None,
        )

    def count_down(self) -> Race:
        """The next number of the countdown; after 1 comes the random wait (SET)."""
        if self.phase is not Phase.COUNTDOWN:
            raise RaceError("There is no countdown running.")
        count = self.count - 1
        return replace(self, count=count, phase=Phase.COUNTDOWN if count > 0 else Phase.SET)

    def go(self, at: float) -> Race:
        """GO was given at edge-clock time `at` (the moment the lights and buzzer came on)."""
        if self.phase is not Phase.SET:
            raise RaceError("GO comes only after the countdown and the wait.")
        return replace(self, phase=Phase.GO, go_at=at)

    def press(self, racer: str, at: float) -> Race:
        """`racer`'s button went down at edge time `at`. Returns the race after it (maybe unchanged)."""
        if racer not in self.racers:
            raise RaceError(f"{racer!r} is not in this race.")
        if self.phase is Phase.ARMED or (
            self.phase is Phase.DONE and self.result and self.result.how == "false starts"
        ):
            return self._maybe_recharge(racer, at)
        if self.phase is Phase.DONE or racer in self.out:
            return self
        if self.started_at is not None and at < self.started_at:
            return self  # pressed before this attempt began: testing, not racing
        if self.phase in (Phase.COUNTDOWN, Phase.SET) or (self.go_at is not None and at < self.go_at):
            return self._false_start(racer, at)
        if any(p.racer == racer for p in self.presses):
            return self  # only the first press counts
        raced = replace(self, presses=(*self.presses, Press(racer, at)))
        if all(any(p.racer == r for p in raced.presses) for r in raced.active):
            return raced._decide("first")
        return raced

    def stop(self) -> Race:
        """End the race now: decided by the presses so far, or back to ARMED if nobody pressed."""
        if self.phase is Phase.GO and self.presses:
            return self._decide("stopped")
        if self.phase is Phase.DONE:
            return self
        return replace(
            self,
            phase=Phase.ARMED,
            count=0,
            go_at=None,
            presses=(),
            news=News.STOPPED,
            news_about=None,
            before_charge=None,
        )

    # -- inside ----------------------------------------------------------------------------

    def _false_start(self, racer: str, at: float) -> Race:
        charged = (*self.false_starts, Press(racer, at))
        times = sum(1 for p in charged if p.racer == racer)
        base = replace(
            self,
            phase=Phase.ARMED,
            count=0,
            go_at=None,
            presses=(),
            false_starts=charged,
            news_about=racer,
            before_charge=self,
        )
        if times < 2:
            return replace(base, news=News.FALSE_START)
        out = (*self.out, racer)
        remaining = tuple(r for r in self.racers if r not in out)
        if len(remaining) == 1:
            winner = remaining[0]
            sentence = f"{racer} started too early twice and loses the race: {winner} wins."
            result = Result(winner, tuple((r, None) for r in self.racers), "false starts", sentence)
            _log_result(self.racers, result)
            return replace(base, phase=Phase.DONE, out=out, result=result, news=News.RESULT)
        return replace(base, out=out, news=News.OUT)

    def _maybe_recharge(self, racer: str, at: float) -> Race:
        """A press reported after a false start stopped the attempt, but stamped before it."""
        base = self.before_charge
        charged = self.false_starts[-1] if self.false_starts else None
        if base is None or charged is None or racer == charged.racer or racer in base.out:
            return self
        if base.started_at is not None and at < base.started_at:
            return self
        if at >= charged.at:
            return self  # after the race had already been stopped: not charged
        return base.press(racer, at)

    def _decide(self, how: str) -> Race:
        assert self.go_at is not None
        go_at = self.go_at
        times = tuple((r, self.time_ms(r)) for r in self.racers)
        # Equal times fall back to seat order, never to the order the reports came in.
        order = sorted(self.presses, key=lambda p: (p.at, self.racers.index(p.racer)))
        first = order[0]
        close = [p for p in order if (p.at - first.at) * 1000.0 <= self.tie_window_ms + _EPSILON_MS]
        tied = tuple(r for r in self.racers if any(p.racer == r for p in close))
        if len(tied) > 1:
            gap = (close[-1].at - first.at) * 1000.0
            sentence = (
                f"A tie: {_join(tied)} pressed {format_ms(gap)} apart, within the {format_ms(self.tie_window_ms)} "
                "tie window. Race again!"
            )
            result = Result(None, times, "tie", sentence, tied)
        else:
            winner = first.racer
            mine = format_ms((first.at - go_at) * 1000.0)
            others = [f"{p.racer} {format_ms((p.at - go_at) * 1000.0)}" for p in order[1:]]
            missing = [r for r in self.active if r != winner and all(p.racer != r for p in order)]
            behind = ", ".join(others + [f"{r} did not press" for r in missing])
            sentence = f"{winner} finished first, {mine} after GO" + (f" (then {behind})." if behind else ".")
            result = Result(winner, times, how, sentence)
        _log_result(self.racers, result)
        return replace(self, phase=Phase.DONE, result=result, news=News.RESULT, news_about=None)


def _log_result(racers: Sequence[str], result: Result) -> None:
    # The only line a race leaves in the app's log; a press stamped earlier but reported later may decide
    # the race again, and then the corrected result follows.
    log.info("race between %s decided (%s): %s", _join(racers), result.how, result.sentence)


def format_ms(ms: float) -> str:
    """A time to the millisecond, e.g. ``412 ms`` (``0.4 ms`` below one)."""
    if ms < 1 and ms != 0:
        return f"{ms:.1f} ms"
    return f"{round(ms):d} ms"


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# -- who chooses next time ------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """Who picks the first player of a new game: the previous loser, or a race."""

    chooser: str | None  # None: race for it
    how: str  # "loser" or "race"
    sentence: str


def previous_loser(records: Iterable[Any], players: Sequence[str], game: str | None = None) -> str | None:
    """The loser of the most recent finished game by exactly these players (of `game`, if given).

    `records` are `companion.store.GameRecord` values, newest first, as
    `Store.finished()` returns them. None when that game was a tie, had
    several losers, or these players have not finished a game together.
    """
    seated = set(players)
    for record in records:
        if game is not None and record.game != game:
            continue
        names = {p.get("name") for p in _players(record.options)}
        if names != seated:
            continue
        winners = set((record.outcome or {}).get("winners") or ())
        losers = [name for name in players if name not in winners]
        return losers[0] if winners and len(losers) == 1 else None
    return None


def first_choice(records: Iterable[Any], players: Sequence[str], game: str | None = None) -> Offer:
    """What to offer at the start of a game: the previous loser chooses, else a race."""
    loser = previous_loser(records, players, game)
    if loser is not None:
        return Offer(loser, "loser", f"{loser} lost the last game, so {loser} chooses who goes first.")
    return Offer(None, "race", "Race for it: whoever finishes their water first chooses who goes first.")


def choose_first(player: str, chosen_by: str, how: str) -> dict[str, str]:
    """The game action that records the choice (every game but Quintet accepts it first)."""
    if how not in HOW:
        raise RaceError(f"A first player is chosen by {', '.join(HOW)}, not {how!r}.")
    return {"type": "choose_first", "player": player, "chosen_by": chosen_by, "how": how}


def _players(options: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    players = options.get("players", []) if isinstance(options, Mapping) else []
    return [p for p in players if isinstance(p, Mapping)]
