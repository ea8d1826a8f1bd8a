"""A game in progress: decide, store, then show; undo and redo; resume after a crash.

The order inside `act` is the whole point: the rules decide, the store writes
the action and its events in one synchronous transaction, and only then does
the state change and do observers (the screens, the displays) hear of it. An
event the table has seen is an event on disk.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from companion.dice import Dice, RandomDice, Tape
from companion.engine import RegisteredGame
from companion.game import Action, Event, Options, Outcome, View
from companion.games import game as game_named
from companion.store import NotSaved, Store

S = TypeVar("S")
PV = TypeVar("PV")
OV = TypeVar("OV")

Clock = Callable[[], float]
Observer = Callable[["Session[Any, Any, Any]"], None]

MOVE_CLOCK = "@clock"
"""The key under which a move's game clock is kept beside its action in the games file (issue 27: each
player's thinking time). No action field is ever named so, and a stored action is read field by field, so
every version reads the action as it was."""


def clock_of(stored_action: Mapping[str, Any]) -> float | None:
    """The game clock a stored move was made at (`MOVE_CLOCK`); None for a move stored before it was kept."""
    clock = stored_action.get(MOVE_CLOCK)
    return float(clock) if isinstance(clock, int | float) and not isinstance(clock, bool) else None


@dataclass(frozen=True)
class Move:
    """One accepted action with the events it caused and the dice it used."""

    action: Action
    events: tuple[Event, ...]
    draws: tuple[tuple[int, int], ...]
    # The game clock when it was made (pauses left out); None if stored before it was kept. Not part of what the
    # move is: a game resumed from a file without clocks is the very same game.
    clock: float | None = field(default=None, compare=False)
    # When it was stored, by the table's clock (the time its line in the Log shows); None if not stored. Not part
    # of what the move is either.
    at: float | None = field(default=None, compare=False)

    @property
    def begins_play(self) -> bool:
        return any(type(e).begins_play for e in self.events)


class Session(Generic[S, PV, OV]):
    """Owns one game: its rules, its log, its state, its clock. Start or resume one.

    Generic over its game's state, public view and own view: a presenter declares the session it takes
    (``Session[QuintetState, QuintetView, QuintetView]``) and mypy checks every field it reads. `start` and
    `load` hand out ``Session[Any, Any, Any]``: the game is named by a word.
    """

    def __init__(
        self,
        store: Store,
        game: RegisteredGame[S, Any, Any, PV, OV],
        game_id: int,
        options: Options,
        *,
        dice: Dice,
        clock: Clock,
        elapsed: float = 0.0,
        running: bool = True,
    ) -> None:
        self.store = store
        self.game = game
        self.game_id = game_id
        self.options = options
        self._dice = dice
        self._clock = clock
        self._states: list[S] = [game.setup(options, stored=True)]  # checked at the door (`start`)
        self._moves: list[Move] = []
        self._redo: list[Move] = []
        self._pending_draws: list[tuple[int, int]] = []
        self._observers: list[Observer] = []
        self._viewed: tuple[S, PV] | None = None  # the last state's view (`view`)
        self._elapsed = elapsed
        self._running_since: float | None = clock() if running else None
        self.abandoned = False
        """Whether the table ended it without a result (`abandon`): it is over, though it has no outcome."""

    # -- starting ----------------------------------------------------------

    @classmethod
    def start(
        cls,
        store: Store,
        game: str,
        options: Options,
        *,
        dice: Dice | None = None,
        clock: Clock = time.time,
    ) -> Session[Any, Any, Any]:
        """A new game of `game` (a registry name), written, its clock running. Raises `SetupError` for bad
        options (nothing is written)."""
        session = cls.ahead(store, game, options, dice=dice, clock=clock)
        session.begin()
        session.resume_clock()
        return session

    @classmethod
    def ahead(
        cls,
        store: Store,
        game: str,
        options: Options,
        *,
        dice: Dice | None = None,
        clock: Clock = time.time,
    ) -> Session[Any, Any, Any]:
        """A new game of `game` not written yet, its clock stopped: its screen is made before the table chooses it
        (`ui.kept_screens`). `begin` writes it when the table does (`start` is the two at once); until then it has
        no number (0) and takes no move. Raises `SetupError` for bad options."""
        entry = game_named(game)
        entry.setup(options)  # seats, names and settings checked before anything is written
        return cls(store, entry, 0, options, dice=dice or RandomDice(), clock=clock, running=False)

    def begin(self) -> None:
        """The game made `ahead` is chosen: written to the store now, and numbered (raises `NotSaved` if the card
        will not take it: it stays unwritten, to begin later). Its clock starts with `resume_clock`, when its screen
        shows."""
        if self.game_id:
            raise RuntimeError(f"game {self.game_id} has begun already")
        self.game_id = self.store.new_game(self.game.name, self.options.to_json(), self._clock())

    @classmethod
    def resume(
        cls, store: Store, *, dice: Dice | None = None, clock: Clock = time.time
    ) -> Session[Any, Any, Any] | None:
        """The unfinished game in `store`, exactly where it was; None if there is none."""
        record = store.unfinished()
        if record is None:
            return None
        return cls.load(store, record.id, dice=dice, clock=clock)

    @classmethod
    def load(
        cls,
        store: Store,
        game_id: int,
        *,
        dice: Dice | None = None,
        clock: Clock = time.time,
        running: bool = True,
    ) -> Session[Any, Any, Any]:
        """Rebuild game `game_id` by folding its stored events again; without `running`, its clock stays stopped
        (and nothing is written) until `resume_clock`: a screen made ahead of its Resume (`ui.kept_screens`)."""
        record = store.game(game_id)
        if record is None:
            raise LookupError(f"There is no saved game number {game_id}.")
        game = game_named(record.game)
        options = Options.from_json(record.options)
        session = cls(
            store,
            game,
            record.id,
            options,
            dice=dice or RandomDice(),
            clock=clock,
            elapsed=record.elapsed,
            running=running,
        )
        state = session._states[0]
        names = options.names
        for move in store.moves(record.id):
            events = tuple([game.event_from_json(e) for e in move.events])
            action = game.parse_action(move.action, names, stored=True)
            kept = Move(action, events, tuple(move.draws), clock_of(move.action), at=move.at)
            if move.undone:
                session._redo.append(kept)  # stored in seq order: the next redo is the earliest undone move
                continue
            for event in kept.events:
                state = game.evolve(state, event)
            session._moves.append(kept)
            session._states.append(state)
        session._pending_draws = list(record.pending_draws)
        return session

    # -- what the table sees -----------------------------------------------

    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def events(self) -> list[Event]:
        return [event for move in self._moves for event in move.events]

    def view(self) -> PV:
        """The public view, typed: what the table's screen shows (presenters read its fields). Made once a state:
        views are frozen, and a screen, its presenter and the phones each ask for it after a move."""
        state = self.state
        if self._viewed is None or self._viewed[0] is not state:
            self._viewed = (state, self.game.view(state))
        return self._viewed[1]

    def own_view(self, player: str) -> OV:
        """`player`'s own view, typed: what their private display and phone show, nothing of anyone else's."""
        return self.game.own_view(self.state, player)

    def public_view(self) -> View:
        """`view` as JSON (the edges)."""
        return self.game.public_view(self.state)

    def private_view(self, player: str) -> View:
        """`own_view` as JSON (the edges)."""
        return self.game.private_view(self.state, player)

    def public_event(self, event: Event) -> dict[str, Any]:
        """`event` as anyone at the table may read it."""
        return self.game.public_event(event)

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    @property
    def unfinished(self) -> bool:
        """Whether the game waits to be carried on: no outcome yet, and not ended without a result."""
        return self.outcome is None and not self.abandoned

    @property
    def current_player(self) -> str | None:
        return self.game.current_player(self.state)

    @property
    def players_in(self) -> tuple[str, ...]:
        """Who is still playing (not gone, not knocked out): who may still `leave`; () in a game without it."""
        if "leave" not in self.game.action_types:
            return ()
        return self.game.players_in(self.state)

    @property
    def play_has_begun(self) -> bool:
        """Whether an action other than choosing who starts (or a private setup) has been taken."""
        return any(move.begins_play for move in self._moves)

    def legal_actions(self, player: str) -> Sequence[Action]:
        """What `player` may do now, where the choices can be listed."""
        return self.game.legal_actions(self.state, player)

    def refusal(self, action: Action) -> str | None:
        """Why `action` would be refused now, or None: asks without acting or rolling."""
        return self.game.refusal(self.state, action, begun=self.play_has_begun)

    def parse(self, data: Mapping[str, Any]) -> Action:
        """A typed action from its JSON object (a script line, a stored move); `RuleError` if malformed."""
        return self.game.parse_action(data, self.options.names)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """The undone moves, next to be redone first."""
        return tuple(self._redo)

    @property
    def pending_draws(self) -> tuple[tuple[int, int], ...]:
        """Dice an undone action rolled that the next action will be handed first."""
        return tuple(self._pending_draws)

    @property
    def can_undo(self) -> bool:
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # -- changing it --------------------------------------------------------

    def act(self, action: Action | Mapping[str, Any]) -> Sequence[Event]:
        """Apply a player's action (typed, or its JSON object from an edge). Raises `RuleError` if
        illegal, `NotSaved` if it could not be stored; either way nothing changes."""
        if not self.game_id:
            raise RuntimeError("a game made ahead takes its first move once it has begun (`begin`)")
        if isinstance(action, Mapping):
            action = self.parse(action)
        tape = Tape(self._dice, self._pending_draws + [d for move in self._redo for d in move.draws])
        events = tuple(self.game.decide(self.state, action, tape, begun=self.play_has_begun))
        state = self.state
        for event in events:
            state = self.game.evolve(state, event)
        now, elapsed = self._clock(), self.elapsed
        move = Move(action, events, tuple(tape.drawn), round(elapsed, 3), at=now)
        outcome = self.game.outcome(state)
        self.store.record(
            self.game_id,
            len(self._moves),
            {**self.game.to_json(move.action), MOVE_CLOCK: move.clock},
            [self.game.to_json(e) for e in move.events],
            move.draws,
            now=now,
            elapsed=elapsed,
            outcome=outcome.to_stored() if outcome else None,
            pending_draws=tape.unused,
        )
        self._moves.append(move)
        self._states.append(state)
        self._redo.clear()
        self._pending_draws = tape.unused
        if outcome is not None:
            self.pause_clock()
        self._notify()
        return events

    def undo(self) -> bool:
        """Take back the last action (its dice stay rolled). False if there is none."""
        if not self._moves:
            return False
        seq = len(self._moves) - 1
        ended_the_game = self.outcome is not None
        outcome = self.game.outcome(self._states[-2])
        self._store_undone(seq, True, outcome)
        self._redo.insert(0, self._moves.pop())
        self._states.pop()
        if ended_the_game and outcome is None:
            self.resume_clock()  # the game is on again (a pause the table chose stays)
        self._notify()
        return True

    def redo(self) -> bool:
        """Put back the last undone action with the very events (and dice) it had."""
        if not self._redo:
            return False
        move = self._redo[0]
        state = self.state
        for event in move.events:
            state = self.game.evolve(state, event)
        outcome = self.game.outcome(state)
        self._store_undone(len(self._moves), False, outcome)
        self._moves.append(self._redo.pop(0))
        self._states.append(state)
        if outcome is not None:
            self.pause_clock()
        self._notify()
        return True

    def _store_undone(self, seq: int, undone: bool, outcome: Outcome | None) -> None:
        self.store.set_undone(
            self.game_id,
            seq,
            undone,
            now=self._clock(),
            elapsed=self.elapsed,
            outcome=outcome.to_stored() if outcome else None,
            pending_draws=self._pending_draws,
        )

    def abandon(self) -> None:
        """Leave the game unfinished for good (it is no longer offered for resume)."""
        self.store.abandon(self.game_id, self._clock())
        self.abandoned = True

    # -- the game clock -----------------------------------------------------

    @property
    def elapsed(self) -> float:
        """Seconds of play, pauses left out."""
        running = self._clock() - self._running_since if self._running_since is not None else 0.0
        return self._elapsed + max(0.0, running)

    @property
    def paused(self) -> bool:
        return self._running_since is None

    def pause_clock(self) -> None:
        if self._running_since is not None:
            self._elapsed = self.elapsed
            self._running_since = None
            with contextlib.suppress(NotSaved):  # saved again with the next move; `store.problem` says why
                self.store.save_clock(self.game_id, self._elapsed)
            self._notify()

    def resume_clock(self) -> None:
        if self._running_since is None and self.outcome is None:
            self._running_since = self._clock()
            self._notify()

    # -- observers ------------------------------------------------------------

    def subscribe(self, observer: Observer) -> Callable[[], None]:
        """Call `observer(session)` after every change; returns the unsubscribe function."""
        self._observers.append(observer)
        return lambda: self._observers.remove(observer) if observer in self._observers else None

    def _notify(self) -> None:
        for observer in list(self._observers):
            observer(self)


AnySession = Session[Any, Any, Any]
"""A session of any game: what the shell, the log and the phones hold, which never look inside a game's views."""
