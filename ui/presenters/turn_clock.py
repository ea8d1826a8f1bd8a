"""What the turn clock's screen shows, what a tap or a button press sends, and when it buzzes: plain Python.

Every time is the game's seconds of play (`Session.elapsed`), which the
session keeps with pauses left out; a tap's action carries it as ``at``.
`keep_time` saves that second to the games file while the clock runs, so a
power cut loses at most the running second.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from companion.game import Action
from companion.games.turn_clock.rules import EndTurn, Start, Stop
from companion.games.turn_clock.views import LiveTime, TurnClockView, clock_words, live, totals
from companion.store import NotSaved

if TYPE_CHECKING:
    from companion.games.turn_clock.rules import ClockState
    from companion.session import Session

WARN_AT = 10.0
"""Seconds left at which the clock buzzes once, before it buzzes again at zero."""

Tone = Literal["text", "muted", "warn", "out"]
Alert = Literal["ten", "zero"]


@dataclass(frozen=True)
class Tile:
    """One player's clock in small, beside the big one."""

    seat: int  # their seat (their colour)
    name: str
    time: str
    note: str  # "out of time", "left", ""
    tone: Tone
    running: bool


@dataclass(frozen=True)
class ClockShown:
    """The whole screen at one second of play."""

    seat: int | None  # whose clock is big (their colour); None once stopped
    name: str  # "Ann"
    time: str  # "12:34" (or "-0:12" past zero)
    note: str  # what a tap does now, or why it does nothing
    tone: Tone
    tiles: tuple[Tile, ...]  # every other player, in seat order from the one after the big clock (none once stopped)
    summary: str  # once stopped: each player's total and longest turn
    can_tap: bool
    pause_text: str
    can_pause: bool
    can_stop: bool


class TurnClockPresenter:
    def __init__(self, session: Session[ClockState, TurnClockView, TurnClockView]) -> None:
        self.session = session
        self._heard: tuple[object, float] | None = None  # (the turn, the time left) when last asked for an alert

    @property
    def view(self) -> TurnClockView:
        return self.session.view()

    def now(self) -> float:
        """The game's seconds of play, to the millisecond (what an action's ``at`` carries)."""
        return round(self.session.elapsed, 3)

    def times(self) -> tuple[LiveTime, ...]:
        return live(self.view, self.now())

    # -- what shows ----------------------------------------------------------------------------

    def shown(self) -> ClockShown:
        view, paused = self.view, self.session.paused
        times = self.times()
        names = [t.name for t in times]
        if view.stopped or view.current is None:
            return ClockShown(
                None, "Clock stopped", "", "", "text", (),  # the summary names every player's times
                summary_of(view), True, "Pause", False, False,  # the summary in full colour: a tap does nothing
            )  # fmt: skip
        seat = names.index(view.current)
        mine = times[seat]
        if paused:
            note = "Paused: tap Resume to go on."
        elif not view.running:
            note = f"Tap anywhere to start {mine.name}'s clock."
        elif mine.out_of_time:
            note = f"{mine.name} is out of time! Tap anywhere to end the turn."
        else:
            note = f"Tap anywhere to end {mine.name}'s turn."
        return ClockShown(
            seat,
            mine.name,
            time_text(mine.left),
            note,
            tone_of(mine, view.running),
            self._tiles(times, seat),
            "",
            not paused,
            "Resume" if paused else "Pause",
            view.running or paused,
            True,
        )

    def _tiles(self, times: tuple[LiveTime, ...], big: int) -> tuple[Tile, ...]:
        order = [(big + step) % len(times) for step in range(1, len(times) + 1) if (big + step) % len(times) != big]
        tiles = []
        for seat in order:
            t = times[seat]
            note = "left" if t.gone else "out of time" if t.out_of_time else ""
            tone: Tone = "muted" if t.gone else "out" if t.out_of_time else "text"
            tiles.append(Tile(seat, t.name, time_text(t.left), note, tone, t.running))
        return tuple(tiles)

    # -- what a tap or a press sends ---------------------------------------------------------------

    def tap(self, view: TurnClockView | None = None) -> Action | None:
        """A tap anywhere on the big clock: start the clock, or end the running turn (nothing while paused)."""
        view = view or self.view
        if view.stopped or view.current is None or self.session.paused:
            return None
        if not view.running:
            return Start(self.now())
        return EndTurn(view.current, self.now())

    def press(self, index: int, buttons: int) -> Action | None:
        """Button `index` pressed, on a table of `buttons` buttons.

        With a button per player (two and two), each player's own button ends only their own turn; with more
        players than buttons, any button is "next". Before the start, any button starts the clock.
        """
        view = self.view
        own = len(view.players) <= buttons  # every player has a button of their own
        if view.running and own and (index >= len(view.players) or view.players[index].name != view.current):
            return None  # another player's button: it ends only its player's turn
        return self.tap(view)

    def own_buttons(self, buttons: int) -> bool:
        """Whether every player has a button of their own."""
        return len(self.session.options.players) <= buttons

    def stop(self) -> Action:
        return Stop(self.now())

    def lights(self, buttons: int) -> tuple[int | None, bool]:
        """Which LED is lit: (the running player's button, False), (None, True) for every "next" button, or
        (None, False): none, while no time runs."""
        view = self.view
        if view.stopped or not view.running or self.session.paused or view.current is None:
            return None, False
        if not self.own_buttons(buttons):
            return None, True
        return [p.name for p in view.players].index(view.current), False

    # -- the buzz and the saved second ----------------------------------------------------------------

    def alert(self) -> Alert | None:
        """"ten" when the running clock has just gone down to 10 s left, "zero" when it has just reached zero;
        each once a turn, asked as the clock ticks (a clock resumed past a mark does not buzz again)."""
        view = self.view
        if not view.running or view.current is None or self.session.paused:
            return None
        mine = next(t for t in self.times() if t.name == view.current)
        turn = (view.current, view.turn_began)
        before = self._heard
        self._heard = (turn, mine.left)
        if before is None or before[0] != turn:
            return None
        if before[1] > 0 >= mine.left:
            return "zero"
        if before[1] > WARN_AT >= mine.left:
            return "ten"
        return None

    def keep_time(self) -> None:
        """Save the second of play reached to the games file (a power cut then loses at most the running second)."""
        session = self.session
        if session.paused or session.outcome is not None:
            return
        with contextlib.suppress(NotSaved):  # a full or read-only card: the banner says so at the next move
            session.store.save_clock(session.game_id, session.elapsed)


def time_text(seconds: float) -> str:
    """The time left as the clock shows it: counting down, whole seconds rounded up (0:00 only at zero)."""
    if seconds >= 0:
        return clock_words(-(-seconds // 1))
    return clock_words(seconds)


def tone_of(time: LiveTime, running: bool) -> Tone:
    if time.out_of_time or time.left < 0:
        return "out"
    if running and time.left <= WARN_AT:
        return "warn"
    return "text"


def summary_of(view: TurnClockView) -> str:
    """Each player's total and longest turn, one line each, and who ran out of time."""
    lines = [totals((p,)).rstrip(".") + (" (out of time)" if p.out_of_time else "") for p in view.players]
    return "\n".join(lines)
