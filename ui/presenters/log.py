"""What the Log screen and the replay show: plain Python, tested without a window.

`present_log` turns a game's story (`companion.record.story`) into the Log's
heading and its lines, each with its local time ("21:04  12. Ann rolled 3
and 4."), oldest first. `Replay` is the slider's side of a finished game:
position 0 is the board before the first move, position k the board after
step k; `go`, `back` and `forward` answer with a `StepShown`, the caption and
the view to draw at that position. Every view comes from the story, which
holds public views only (a finished game's are revealed in full: nothing in
it is secret any more).

`LiveStory` keeps the story of a game in play up with its session while the
Log is open (issue 14's closing note: "The Log is a snapshot taken when it
opens; it does not follow moves made while it is open."). A move adds a step
folded from the last state, an undo drops the last; the whole story is read
again only when the game ends or comes back from its end (every view is then
revealed, or hidden again) or the session moved where the Log cannot follow.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from companion.game import View
from companion.record import Step, TurnTally, passes_turn, story, thinking_words
from ui.presenters import format_clock, on_screen

if TYPE_CHECKING:
    from companion.record import Story
    from companion.session import AnySession, Move

NOTHING_READ = "(nothing the table reads)"
"""A step whose events the table does not read aloud still has its line: its number and time."""


def clock_time(at: float) -> str:
    """`at` (epoch seconds) as the local time of day, ``21:04``."""
    return time.strftime("%H:%M", time.localtime(at))


def step_text(step: Step) -> str:
    """``12. Ann rolled 3 and 4.``: the step's number and its sentences."""
    return on_screen(f"{step.number}. {' '.join(s for s in step.sentences if s) or NOTHING_READ}")


@dataclass(frozen=True)
class LineShown:
    """One line of the Log: a step, its time and what the table read."""

    step: int  # the step's number: the replay position that shows the board after it
    time: str
    text: str

    @property
    def label(self) -> str:
        return f"{self.time}  {self.text}"


@dataclass(frozen=True)
class LogShown:
    """The Log screen's heading and lines."""

    title: str  # "Quinque, game 3"
    players: str  # "Ann, Bo"
    status: str  # how the game stands or ended
    lines: tuple[LineShown, ...]  # oldest first: the newest is at the bottom
    empty: str  # shown instead of the lines when there are none
    can_replay: bool  # a finished game can be replayed step by step


def moves_words(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def status_of(told: Story) -> str:
    """How the game stands (in play, ended without a result, a tie, or who won and why), then each player's
    thinking time on a line of its own (issue 27), where the game has turns."""
    thought = thinking_words(told)
    return f"{_standing(told)}\n{thought}" if thought else _standing(told)


def _standing(told: Story) -> str:
    count = moves_words(len(told.steps))
    outcome = told.ended
    if outcome is None:
        return f"In play: {count} so far, {format_clock(told.elapsed)} of play."
    if outcome.abandoned:
        return f"Ended without a result after {count}."
    detail = f" {outcome.detail}" if outcome.detail else ""
    winners = ", ".join(outcome.winners)
    result = "A tie" if outcome.is_tie or not winners else f"Won by {winners} ({outcome.reason})"
    return f"{result}, {count} in {format_clock(told.elapsed)}.{detail}"


def line_of(step: Step) -> LineShown:
    """The Log's line for `step`: its number, local time and sentences."""
    return LineShown(step.number, clock_time(step.at), step_text(step))


def is_read(step: Step) -> bool:
    """Whether the table reads anything for `step` (a Quin player's private setup steps it does not)."""
    return any(step.sentences)


def lines_of(steps: Sequence[Step]) -> tuple[LineShown, ...]:
    """The Log's lines for `steps`: one for each step the table reads, with its number (the replay still has all)."""
    return tuple(line_of(step) for step in steps if is_read(step))


def present_log(told: Story) -> LogShown:
    """The Log of `story`: a heading and one line per step the table reads, with its local time."""
    lines = lines_of(told.steps)
    return LogShown(
        title=f"{told.title}, game {told.id}",
        players=", ".join(told.players),
        status=status_of(told),
        lines=lines,
        empty=f"No moves yet: the game began at {clock_time(told.started_at)}.",
        can_replay=told.finished and bool(told.steps),
    )


@dataclass(frozen=True)
class StepShown:
    """The replay at one position: the caption and the board's view."""

    position: int  # 0 = before the first move, k = after step k
    count: int  # the number of steps: the slider's end
    time: str
    text: str
    counter: str  # "Step 3 of 20"
    view: View

    @property
    def can_back(self) -> bool:
        return self.position > 0

    @property
    def can_forward(self) -> bool:
        return self.position < self.count


class Replay:
    """A finished game step by step: the slider's position to its step, one step back or forward."""

    def __init__(self, story: Story, position: int | None = None) -> None:
        self.story = story
        self.position = len(story.steps) if position is None else self.position_of(position)

    @property
    def count(self) -> int:
        return len(self.story.steps)

    def position_of(self, value: float) -> int:
        """The step a slider value stands for: the nearest whole one, within 0..count."""
        return max(0, min(len(self.story.steps), round(value)))

    def go(self, value: float) -> StepShown:
        self.position = self.position_of(value)
        return self.shown()

    def back(self) -> StepShown:
        return self.go(self.position - 1)

    def forward(self) -> StepShown:
        return self.go(self.position + 1)

    def shown(self) -> StepShown:
        story, position = self.story, self.position
        if position == 0:
            return StepShown(
                0, self.count, clock_time(story.started_at), "The start: nothing played yet.",
                f"Start, 0 of {self.count}", story.start_view,
            )  # fmt: skip
        step = story.steps[position - 1]
        return StepShown(
            position, self.count, clock_time(step.at), step_text(step), f"Step {position} of {self.count}", step.view
        )


@dataclass(frozen=True)
class Followed:
    """What a change of the session did to the story: the steps that stayed, and the story now."""

    story: Story
    kept: int  # the first `kept` steps (and lines) are as they were; the ones after are new
    retold: bool  # the whole story was read again (the game ended, or came back from its end)


class LiveStory:
    """The story of a game in play, kept up with its session step by step (the Log that follows the game).

    A new step's time is the one the session stored it with (`Move.at`), so a Log that catches up with
    moves made while it was closed (a kept Log) tells them at their own times; `clock` (the session's own, the
    table's) only stands in for a move that has none. A step undone and redone keeps its first time (one undone
    before the Log opened has it in the games file only: the story is read again for it).
    """

    def __init__(self, session: AnySession, told: Story, clock: Callable[[], float] = time.time) -> None:
        self.session = session
        self.story = told
        self._clock = clock
        moves = session.moves
        self._moves: list[Move] = list(moves)
        # The state after each step, where known: folding a new move needs the state before it.
        self._states: list[Any] = [None] * len(moves) + [session.state]
        self._lost = len(moves) != len(told.steps)  # the session moved between reading and here: read again
        self._undone: list[tuple[Move, Step]] = []  # the steps an undo dropped, next redo first (as the session)
        self._undone_before = session.redo_moves  # undone before the Log opened: their times are in the file
        self._tallies = _tallies(told)  # the thinking times after each step: one more step costs one step

    def update(self) -> Followed | None:
        """Bring the story up to the session; None if no step changed (the clock alone: the elapsed time)."""
        session, moves = self.session, self.session.moves
        kept = 0
        for old, new in zip(self._moves, moves, strict=False):
            if old is not new:
                break
            kept += 1
        finished = session.outcome is not None
        if not self._lost and kept == len(self._moves) == len(moves) and finished == self.story.finished:
            self.story = replace(self.story, elapsed=session.elapsed)
            return None
        if (
            self._lost
            or finished
            or self.story.finished
            or (self._states[kept] is None and kept < len(moves))
            or any(move is old for move in moves[kept:] for old in self._undone_before)
        ):
            return self._retell()
        steps = list(self.story.steps)
        # An undo: the dropped steps wait for a redo, which puts back the very move at the very place.
        self._undone[:0] = zip(self._moves[kept:], steps[kept:], strict=True)
        del steps[kept:], self._moves[kept:], self._states[kept + 1 :], self._tallies[kept + 1 :]
        if kept == len(moves):
            self._states[kept] = session.state  # the state after an undo is the session's own
        for move in moves[kept:]:
            if self._undone and self._undone[0][0] is move:  # a redo: the step as it was, with its first time
                step = self._undone.pop(0)[1]
                state = self._states[-1]
                for event in move.events:
                    state = self.session.game.evolve(state, event)
            else:
                self._undone.clear()  # a new move: the session forgot what could be redone
                self._undone_before = ()
                state, step = self._fold(self._states[-1], move, bool(steps) and steps[-1].in_play)
            steps.append(step)
            self._moves.append(move)
            self._states.append(state)
            self._tallies.append(self._tallies[-1].after(step))
        thinking = self._tallies[-1].thinking
        self.story = replace(self.story, steps=tuple(steps), elapsed=session.elapsed, thinking=thinking)
        return Followed(self.story, kept, retold=False)

    def _fold(self, state: Any, move: Move, in_play: bool) -> tuple[Any, Step]:
        """The state after `move` and its step, told as `companion.record.story` tells it (`in_play`: play had
        begun before it)."""
        game = self.session.game
        before = state
        sentences: list[str] = []
        events: list[dict[str, Any]] = []
        for event in move.events:
            state = game.evolve(state, event)
            events.append(game.public_event(event))
            said = game.tell(event, state)
            if said:
                sentences.append(said)
        player = game.to_json(move.action).get("player")
        turn = game.current_player(before)
        step = Step(
            number=len(self._moves) + 1,
            at=move.at if move.at is not None else self._clock(),
            player=player if isinstance(player, str) else None,
            sentences=tuple(sentences),
            events=tuple(events),
            shows=partial(game.public_view, state),
            clock=move.clock,
            turn=turn,
            passes=passes_turn(turn, game.current_player(state), move.events),
            in_play=in_play or move.begins_play,
        )
        return state, step

    def _retell(self) -> Followed:
        """The whole story read again from the games file (`story` may raise as it says)."""
        session = self.session
        told = story(session.store, session.game_id)
        moves = session.moves
        self.story = told
        self._moves = list(moves)
        self._states = [None] * len(moves) + [session.state]
        self._lost = len(moves) != len(told.steps)
        self._undone.clear()
        self._undone_before = session.redo_moves
        self._tallies = _tallies(told)
        return Followed(told, 0, retold=True)


def _tallies(told: Story) -> list[TurnTally]:
    """The thinking times after each step of `told` (index k: after k steps)."""
    tallies = [TurnTally.start(told.players)]
    for step in told.steps:
        tallies.append(tallies[-1].after(step))
    return tallies
