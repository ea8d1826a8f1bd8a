"""What the Log screen and the replay show: plain Python, tested without a window.

`present_log` turns a game's story (`companion.record.story`) into the Log's
heading and its lines, each with its local time ("21:04  12. Ann rolled 3
and 4."), oldest first. `Replay` is the slider's side of a finished game:
position 0 is the board before the first move, position k the board after
step k; `go`, `back` and `forward` answer with a `StepShown`, the caption and
the view to draw at that position. Every view comes from the story, which
holds public views only (a finished game's are revealed in full: nothing in
it is secret any more).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.game import ABANDONED, TIE, View
from ui.presenters import format_clock, on_screen

if TYPE_CHECKING:
    from companion.record import Step, Story

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


def status_of(story: Story) -> str:
    """How the game stands: in play, ended without a result, a tie, or who won and why."""
    count = moves_words(len(story.steps))
    outcome: dict[str, Any] | None = story.outcome
    if outcome is None:
        return f"In play: {count} so far, {format_clock(story.elapsed)} of play."
    if outcome.get("reason") == ABANDONED:
        return f"Ended without a result after {count}."
    detail = f" {outcome['detail']}" if outcome.get("detail") else ""
    winners = ", ".join(outcome.get("winners", []))
    if outcome.get("reason") == TIE or not winners:
        result = "A tie"
    else:
        result = f"Won by {winners} ({outcome.get('reason', '')})"
    return f"{result}, {count} in {format_clock(story.elapsed)}.{detail}"


def present_log(story: Story) -> LogShown:
    """The Log of `story`: a heading and one line per step, with its local time."""
    lines = tuple(LineShown(step.number, clock_time(step.at), step_text(step)) for step in story.steps)
    return LogShown(
        title=f"{story.title}, game {story.id}",
        players=", ".join(story.players),
        status=status_of(story),
        lines=lines,
        empty=f"No moves yet: the game began at {clock_time(story.started_at)}.",
        can_replay=story.finished and bool(story.steps),
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
