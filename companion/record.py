"""A game's story: its public record, step by step, as the Log screen, the replay and `companion export` read it.

A `Story` is folded from the store alone (no session needed, nothing written):
each live move (undone ones left out) becomes a `Step` with its time, who made
it, the sentences the table reads (each game's ``tell``), its events as anyone
may read them (``public_event``) and the public view after it, drawn only when
asked (the Log reads sentences, the replay one step's view at a time, an
export the last view: a thousand views drawn for nobody were most of the
story's cost; issue 26, "The story of a 1,000-move game within 2× folding the
same events bare"). Nothing hidden
is in it, except that a finished game is revealed in full: once a game is over
nothing in it is secret any more, so each step shows the game's
``revealed_view`` and the story adds each player's own view at the end.

Each player's thinking time is read from the steps alone (`thinking_of`), the same way for every game
(issue 27: "the engine already knows whose turn it is, so each game's Log and export show each player's
thinking time (total and longest turn), with no setting needed"): a turn runs on the game clock (pauses and
time the app was off left out) from the moment it became that player's turn to the move that passed it on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property, partial
from typing import Any

from companion.game import Event, Options, Outcome, TurnEnded, View
from companion.games import game as game_named
from companion.session import clock_of
from companion.store import Store

EXPORT_FORMAT = "tabletop-companion game"
EXPORT_VERSION = 2
"""Raised when a field changes meaning or goes away, and when fields are added (issue 25: "The JSON printed by
companion play and export stays the same (or its version goes up, with a note)"). Version 2 (issue 27) added
``thinking`` and each move's ``clock``; nothing of version 1 changed meaning (docs/command-line.md)."""


@dataclass(frozen=True, eq=False)
class Step:
    """One live move of the game, as the table saw it.

    Its `view` is drawn by `shows` the first time it is read, then kept. `shows` holds the state after the
    step, secrets and all, in memory only: nothing but the view it draws (public, or revealed once the game
    is over) ever leaves it.
    """

    number: int  # 1-based, live moves only (undone moves left out)
    at: float  # seconds since 1970 when the move was made
    player: str | None  # who made it (the action's player, if it names one)
    sentences: tuple[str, ...]  # what the table reads, in order (none for a move it does not read)
    events: tuple[dict[str, Any], ...]  # each event's public form
    shows: Callable[[], View] = field(repr=False)  # draws `view`
    clock: float | None = None  # the game clock when it was made (pauses left out); None if stored before it was kept
    turn: str | None = None  # whose turn it was made in: the engine's current player before it
    passes: bool = False  # the turn passed with it (a `TurnEnded`, or another player's turn, or the end)
    in_play: bool = True  # play had begun by its end (choosing who starts, a private setup: not yet)

    @cached_property
    def view(self) -> View:
        """The public view after this step (the revealed view, for a finished game)."""
        return self.shows()

    def __eq__(self, other: object) -> bool:
        """Steps are equal when everything the table sees of them is, their views included."""
        if not isinstance(other, Step):
            return NotImplemented
        return self._told() == other._told() and self.view == other.view

    def _told(self) -> tuple[Any, ...]:
        return (self.number, self.at, self.player, self.sentences, self.events, self.clock, self.turn, self.passes,
                self.in_play)  # fmt: skip

    __hash__ = None  # type: ignore[assignment]  # a view is a dict: no step is hashable


@dataclass(frozen=True)
class ThinkingTime:
    """One player's thinking time: every turn of theirs on the game clock, and the longest one."""

    player: str
    total: float  # seconds, every finished turn of theirs together
    longest: float  # seconds, their longest turn (0 before their first one ends)
    turns: int  # their turns that ended with a move and were timed


def passes_turn(turn: str | None, now: str | None, events: Sequence[Event]) -> bool:
    """Whether a move made in `turn`'s turn (the engine's current player before it) passed the turn on, `now`
    being the current player after it: another player's turn, the end of the game (None), or a `TurnEnded`,
    which passes a turn even to the same player (Quintet's extra turn)."""
    return now != turn or any(isinstance(e, TurnEnded) for e in events)


@dataclass(frozen=True)
class TurnTally:
    """Thinking times folded up to some step: `after` one more step costs that step alone (the Log that follows
    a game in play keeps one per step, so an undo goes back to the one before)."""

    players: tuple[str, ...]
    taken: tuple[tuple[float, float, int], ...]  # (total, longest, turns) per player, in seat order
    began: float | None = 0.0  # the game clock when the turn running now began (it starts at 0 with the game)
    any_turn: bool = False  # a step was made in someone's turn: the game has turns

    @classmethod
    def start(cls, players: Sequence[str]) -> TurnTally:
        return cls(tuple(players), ((0.0, 0.0, 0),) * len(players))

    def after(self, step: Step) -> TurnTally:
        """The tally with `step` made: a step that passes the turn on ends the turn running (timed where both
        its ends have a clock) and begins the next; before play begins, nobody's turn has begun."""
        any_turn = self.any_turn or step.turn is not None
        if not step.in_play:  # choosing who starts, a private setup
            return TurnTally(self.players, self.taken, step.clock, any_turn)
        if not step.passes:
            return self if any_turn == self.any_turn else TurnTally(self.players, self.taken, self.began, any_turn)
        taken = self.taken
        if step.turn in self.players and self.began is not None and step.clock is not None:
            seat = self.players.index(step.turn)
            total, longest, turns = taken[seat]
            spent = max(0.0, step.clock - self.began)
            taken = (*taken[:seat], (total + spent, max(longest, spent), turns + 1), *taken[seat + 1 :])
        return TurnTally(self.players, taken, step.clock, any_turn)

    @property
    def thinking(self) -> tuple[ThinkingTime, ...]:
        """Each player's thinking time so far, in seat order; () in a game without turns."""
        if not self.any_turn:
            return ()
        return tuple(
            ThinkingTime(name, round(total, 3), round(longest, 3), turns)
            for name, (total, longest, turns) in zip(self.players, self.taken, strict=True)
        )


def thinking_of(players: Sequence[str], steps: Sequence[Step]) -> tuple[ThinkingTime, ...]:
    """Each player's thinking time over `steps` (in seat order); () when no step was made in anyone's turn.

    A turn is the game-clock time from the moment it became that player's turn (the move that passed it to
    them, the last step before play began, or the start) to the move that passed it on. A turn still running,
    or one whose start or end was stored before the clock was kept, is not counted.
    """
    tally = TurnTally.start(players)
    for step in steps:
        tally = tally.after(step)
    return tally.thinking


@dataclass(frozen=True)
class Story:
    """A game's whole public record, from its start to its end or to now."""

    id: int
    game: str  # the registry name, e.g. "quantum-link"
    title: str  # what the table calls it, e.g. "Quantum Link"
    players: tuple[str, ...]
    settings: dict[str, Any]
    started_at: float
    finished_at: float | None
    elapsed: float  # seconds of play, pauses left out
    outcome: dict[str, Any] | None  # as stored (an abandoned game's too)
    finished: bool  # finished and not abandoned: nothing in it is secret any more
    start_view: View  # before the first step
    steps: tuple[Step, ...]
    revealed: dict[str, View] | None  # each player's own view at the end, finished games only
    thinking: tuple[ThinkingTime, ...] = ()  # each player's, in seat order; none in a game without turns

    @property
    def ended(self) -> Outcome | None:
        """The outcome typed (its `termination` says a tie or an abandoned game), None while in play."""
        return None if self.outcome is None else Outcome.from_json(self.outcome)

    @property
    def final_view(self) -> View:
        """The view after the last step (the start view if there is none)."""
        return self.steps[-1].view if self.steps else self.start_view


def story(store: Store, game_id: int) -> Story:
    """Game `game_id`'s story, read from `store` (changing nothing).

    `LookupError` with one sentence if there is no such game; `ValueError` for a stored event its game
    does not know, `SetupError` for options it cannot start from (a file written by another version).
    """
    found = store.game(game_id)
    if found is None:
        raise LookupError(f"There is no game number {game_id} in this games file.")
    game = game_named(found.game)
    options = Options.from_json(found.options)
    outcome = found.outcome
    ended = None if outcome is None else Outcome.from_json(outcome)
    finished = ended is not None and not ended.abandoned
    show = game.revealed_view if finished else game.public_view
    state = game.setup(options, stored=True)
    start_view = show(state)
    steps: list[Step] = []
    in_play = False
    turn = game.current_player(state)  # whose turn it is: asked once a move, the one after it is the next's before
    for move in store.moves(game_id):
        if move.undone:
            continue
        sentences: list[str] = []
        events: list[dict[str, Any]] = []
        folded: list[Event] = []
        for stored in move.events:
            event = game.event_from_json(stored)
            folded.append(event)
            state = game.evolve(state, event)
            events.append(game.public_event(event))
            said = game.tell(event, state)
            if said:
                sentences.append(said)
        in_play = in_play or any(type(e).begins_play for e in folded)
        made_in, turn = turn, game.current_player(state)
        player = move.action.get("player")
        steps.append(
            Step(
                number=len(steps) + 1,
                at=move.at,
                player=player if isinstance(player, str) else None,
                sentences=tuple(sentences),
                events=tuple(events),
                shows=partial(show, state),
                clock=clock_of(move.action),
                turn=made_in,
                passes=passes_turn(made_in, turn, folded),
                in_play=in_play,
            )
        )
    return Story(
        id=found.id,
        game=game.name,
        title=game.title,
        players=options.names,
        settings=dict(options.settings),
        started_at=found.started_at,
        finished_at=found.finished_at,
        elapsed=found.elapsed,
        outcome=outcome,
        finished=finished,
        start_view=start_view,
        steps=tuple(steps),
        revealed={name: game.private_view(state, name) for name in options.names} if finished else None,
        thinking=thinking_of(options.names, steps),
    )


def to_json(told: Story) -> dict[str, Any]:
    """The story as `companion export` writes it (the README describes the format)."""
    record: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": {"id": told.id, "name": told.game, "title": told.title},
        "players": list(told.players),
        "settings": dict(told.settings),
        "started_at": when(told.started_at),
        "finished_at": when(told.finished_at) if told.finished_at is not None else None,
        "elapsed": round(told.elapsed, 3),
        "outcome": told.outcome,
        "moves": [
            {
                "number": s.number,
                "at": when(s.at),
                "clock": s.clock,
                "events": list(s.events),
                "sentences": list(s.sentences),
            }
            for s in told.steps
        ],
        "thinking": [
            {"player": t.player, "total": t.total, "longest": t.longest, "turns": t.turns} for t in told.thinking
        ],
        "final_view": told.final_view,
    }
    if told.revealed is not None:
        record["revealed"] = told.revealed
    return record


def text_lines(told: Story) -> list[str]:
    """The story as the table reads it: a heading, the start, each move's time and sentences, the end."""
    lines = [f"{told.title} (game {told.id}): {', '.join(told.players)}.", f"Started {_local(told.started_at)}."]
    for step in told.steps:
        said = " ".join(s for s in step.sentences if s)
        if said:  # a step the table reads nothing of (a Quin player's private setup) has no line
            lines.append(f"{_local(step.at)[-8:]}  {step.number}. {said}")
    outcome = told.ended
    if outcome is None:
        lines.append("Not finished.")
    else:
        winners = ", ".join(outcome.winners) or "nobody"
        detail = f" {outcome.detail}" if outcome.detail else ""
        ended = f"Ended {_local(told.finished_at)}: " if told.finished_at is not None else ""
        lines.append(f"{ended}won by {winners} ({outcome.reason}).{detail}")
    thought = thinking_words(told)
    if thought:
        lines.append(thought)
    return lines


NOT_KEPT = "Thinking time was not kept: this game was played before it was."
"""What the Log and the text export say of a game whose moves were stored before their game clock was."""


def thinking_words(told: Story) -> str:
    """Each player's thinking time in the table's words, "" where there is nothing to say.

    "Thinking time: Ann 6:10 (longest turn 0:45), Bo 5:02 (longest turn 1:30)." A game without turns says
    nothing; nor does one whose first turn is still running.
    """
    if not told.thinking:
        return ""
    if not any(t.turns for t in told.thinking):
        kept = all(step.clock is not None for step in told.steps)
        return "" if kept else NOT_KEPT
    none = "no turn yet" if told.outcome is None else "had no turn"
    each = [
        f"{t.player} {duration(t.total)} (longest turn {duration(t.longest)})" if t.turns else f"{t.player} {none}"
        for t in told.thinking
    ]
    return f"Thinking time: {', '.join(each)}."


def duration(seconds: float) -> str:
    """``1:02:03`` or ``12:34`` or ``0:07``: a span of the game clock, to the whole second."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def when(at: float) -> str:
    """A stored time (seconds since 1970) as ISO 8601 with this machine's UTC offset."""
    return datetime.fromtimestamp(at).astimezone().isoformat(timespec="seconds")


def _local(at: float) -> str:
    """'2026-11-23 19:24:28': a stored time on this machine's clock, for the text format."""
    return when(at)[:19].replace("T", " ")
