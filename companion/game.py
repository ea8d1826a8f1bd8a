"""The contract every game follows: actions in, events out, state folded.

A game is a definition, not an object with a life of its own. The `Session`
runs it:

    state  = rules.setup(options)
    events = rules.decide(state, action, dice)   # may raise RuleError
    state  = rules.evolve(state, event)          # for each event; never fails

Actions and events are plain JSON objects (``{"type": "roll", ...}``) so that
the headless driver, the database and the screens all speak the same words.
State is an immutable value (frozen dataclasses and tuples): history is the
event log and undo is folding it again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol, TypeVar

from companion.dice import Dice

Action = Mapping[str, Any]
"""A player's request, e.g. ``{"type": "capture", "by": "Ann", "of": "Bo"}``."""

Event = Mapping[str, Any]
"""An accepted fact, e.g. ``{"type": "rolled", "player": "Ann", "dice": [5, 5]}``."""

View = dict[str, Any]
"""A JSON-ready picture of the state for one audience."""

S = TypeVar("S")


class Refusal(ValueError):
    """An action that was not taken, and nothing changed. ``str(error)`` is a sentence for players."""


class RuleError(Refusal):
    """An action the rules do not allow. ``str(error)`` is a sentence for players."""


class SetupError(ValueError):
    """Options a game cannot start with (too many players, a bad variant)."""


@dataclass(frozen=True)
class Player:
    """Someone at the table: a name and a colour, in seat order."""

    name: str
    colour: str = "#4fc3f7"


@dataclass(frozen=True)
class Options:
    """What a game starts from: the seated players and game-specific settings."""

    players: tuple[Player, ...]
    settings: Mapping[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [{"name": p.name, "colour": p.colour} for p in self.players],
            "settings": dict(self.settings),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Options:
        players = tuple(Player(p["name"], p.get("colour", "#4fc3f7")) for p in data["players"])
        return cls(players, dict(data.get("settings", {})))

    @classmethod
    def for_names(cls, *names: str, **settings: Any) -> Options:
        """Shorthand for tests and scripts: ``Options.for_names("Ann", "Bo")``."""
        return cls(tuple(Player(n) for n in names), settings)


class Reason(Enum):
    """Why a game ended."""

    LAST_STANDING = "last player standing"
    CAPTURED_LIGHT = "captured the rival's Light"
    LIGHT_ON_FIRST_SIGHT = "brought their Light to First Sight"
    FIVE_IN_A_ROW = "five in a row"
    SCORE = "highest score"
    TIE = "tie"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who won (several on a shared win, none on a tie) and why."""

    winners: tuple[str, ...]
    reason: Reason
    detail: str = ""

    @property
    def is_tie(self) -> bool:
        return self.reason is Reason.TIE

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason.value, "detail": self.detail}


class Rules(Protocol[S]):
    """What a game module provides. Each module under ``companion.games`` is one."""

    name: str  # registry key and CLI word, e.g. "quantum-link"
    title: str  # what the table calls it, e.g. "Quantum Link"
    min_players: int
    max_players: int

    def setup(self, options: Options) -> S:
        """The starting state. Raises `SetupError` for options the game cannot use."""
        ...

    def decide(self, state: S, action: Action, dice: Dice) -> Sequence[Event]:
        """The events an action causes. Raises `RuleError`; never changes anything."""
        ...

    def evolve(self, state: S, event: Event) -> S:
        """The state after an accepted event. Pure; never fails."""
        ...

    def public_view(self, state: S) -> View:
        """What everyone at the table may see."""
        ...

    def private_view(self, state: S, player: str) -> View:
        """What `player` alone may see (their secrets included)."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else None."""
        ...

    def current_player(self, state: S) -> str | None:
        """Whose turn it is, or None when the game is over or nobody in particular."""
        ...


HOW_FIRST_IS_CHOSEN = ("race", "loser", "table")


def first_player_chosen(action: Action, players: Sequence[str]) -> Event:
    """The event for a ``choose_first`` action, every field checked.

    Every game where the table decides who starts accepts it; the game itself
    checks that no move has been made yet.
    """
    names = ", ".join(players)
    for key in ("player", "chosen_by"):
        name = action.get(key)
        require(isinstance(name, str) and name in players, f'"{key}" must name a player at the table ({names}).')
    how = action.get("how")
    require(
        isinstance(how, str) and how in HOW_FIRST_IS_CHOSEN,
        f'"how" must be "race", "loser" or "table"; it is {how!r}.',
    )
    return {"type": "first_player_chosen", "player": action["player"], "chosen_by": action["chosen_by"], "how": how}


def public_event(rules: object, event: Event) -> Event:
    """`event` as everyone may read it (a headless log, a history screen).

    Events are the whole truth, secrets included. A game with hidden
    information defines ``public_event(event)`` to strip them; for the others
    every event is public as it is.
    """
    strip = getattr(rules, "public_event", None)
    return strip(event) if strip is not None else event


def require(condition: bool, sentence: str) -> None:
    """Raise `RuleError(sentence)` unless `condition` holds: keeps `decide` readable."""
    if not condition:
        raise RuleError(sentence)


def action_type(action: Action) -> str:
    """The action's ``type``, or a `RuleError` a script writer understands."""
    kind = action.get("type") if isinstance(action, Mapping) else None
    if not isinstance(kind, str):
        raise RuleError('Every action needs a "type", for example {"type": "pass"}.')
    return kind
