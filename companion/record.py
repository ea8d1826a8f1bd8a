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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property, partial
from typing import Any

from companion.game import Options, Outcome, View
from companion.games import game as game_named
from companion.store import Store

EXPORT_FORMAT = "tabletop-companion game"
EXPORT_VERSION = 1
"""Raised only when a field changes meaning or goes away; new fields may appear in any version."""


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

    @cached_property
    def view(self) -> View:
        """The public view after this step (the revealed view, for a finished game)."""
        return self.shows()

    def __eq__(self, other: object) -> bool:
        """Steps are equal when everything the table sees of them is, their views included."""
        if not isinstance(other, Step):
            return NotImplemented
        mine = (self.number, self.at, self.player, self.sentences, self.events)
        return mine == (other.number, other.at, other.player, other.sentences, other.events) and (
            self.view == other.view
        )

    __hash__ = None  # type: ignore[assignment]  # a view is a dict: no step is hashable


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
    for move in store.moves(game_id):
        if move.undone:
            continue
        sentences: list[str] = []
        events: list[dict[str, Any]] = []
        for stored in move.events:
            event = game.event_from_json(stored)
            state = game.evolve(state, event)
            events.append(game.public_event(event))
            said = game.tell(event, state)
            if said:
                sentences.append(said)
        player = move.action.get("player")
        steps.append(
            Step(
                number=len(steps) + 1,
                at=move.at,
                player=player if isinstance(player, str) else None,
                sentences=tuple(sentences),
                events=tuple(events),
                shows=partial(show, state),
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
            {"number": s.number, "at": when(s.at), "events": list(s.events), "sentences": list(s.sentences)}
            for s in told.steps
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
    return lines


def when(at: float) -> str:
    """A stored time (seconds since 1970) as ISO 8601 with this machine's UTC offset."""
    return datetime.fromtimestamp(at).astimezone().isoformat(timespec="seconds")


def _local(at: float) -> str:
    """'2026-11-23 19:24:28': a stored time on this machine's clock, for the text format."""
    return when(at)[:19].replace("T", " ")
