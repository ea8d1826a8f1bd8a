"""The engine: what every game shares, run over a game's package.

A game package ``companion/games/<name>/`` has the same modules for the same
roles, and `RegisteredGame.from_package` assembles them into the registry entry:

- ``__init__.py``: ``FACTS = Facts(...)``: its name, title, seat range and
  whether the table chooses who starts.
- ``rules.py``: ``ACTIONS`` and ``EVENTS`` (its vocabulary, as classes);
  ``setup(options, settings) -> state``; ``decide(state, action, dice) ->
  list[Event]`` (raises `RuleError`); ``evolve(state, event) -> state``
  (raises `UnknownEvent` on an event it does not make); ``outcome(state)``;
  ``current_player(state)``; ``legal_actions(state, player)``: the actions
  that player may take now, where they can be listed (an action with a number
  the table types in is asked with `RegisteredGame.refusal` instead); and for `Leave`,
  ``players_in(state)`` (who is still playing: not gone, not knocked out) and
  ``left(state, player) -> state`` (what a player leaving does to its state:
  the turn passes on if it was theirs, their things go where the rules say).
  Every game in the registry has both; a rules module without them (a bench
  or test game) simply has no ``leave`` action.
- ``views.py``: ``public_view(state)``, ``private_view(state, player)`` and
  ``public_event(event) -> dict`` (required: a game without secrets says so
  with ``public_event = everything_public``); ``tell(event, state) -> str``:
  the sentence the table reads for one event in the state it led to ("" for
  one the table does not read), never naming anything `public_event` hides;
  and ``revealed_view(state)``: the public view once nothing is secret any
  more (a finished game), which for a game without secrets is ``public_view``.
  `told_first` and `told_left` word the engine's own events for any game.
- ``settings.py``: ``read(raw) -> settings``: its ``[games.<name>]`` table
  parsed and checked (`SetupError` with one sentence), defaults filled in.
  Optionally ``DEFAULTS`` (its settings as the config file writes them, so a
  misspelt key is named and a bad value falls back to the game's own) and
  ``EACH_ENTRY_ALONE`` (tables whose entries are checked one by one, like
  Quark's atoms); see `companion.config.game_settings`.
- ``display.py`` (only a game with private views): what a small player
  display shows, and which display keys become which actions.

The engine itself checks the seats and names, refuses every action once the
game is over, refuses an action out of turn (`Action.whose_turn`),
handles `ChooseFirst` for a game whose table chooses who starts, until play
has begun, and handles `Leave` in every game: a player still in may leave at
any moment, the game's ``left`` hook folds it into the state, and whenever one
player remains and the game's own rules have not ended it, that player wins
(reason `LEFT`; a game that may be played alone, ``min_players == 1``, ends
itself instead).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, Generic, Protocol, TypeVar, cast

from companion import codec
from companion.dice import Dice, RandomDice
from companion.game import (
    LEFT,
    Action,
    ChooseFirst,
    Event,
    FirstPlayerChosen,
    GameView,
    Leave,
    Options,
    Outcome,
    PlayerLeft,
    Refusal,
    RuleError,
    SetupError,
    Termination,
    UnknownEvent,
    View,
    require,
)
from companion.names import normal_name, table_problem

Json = Mapping[str, Any]

S = TypeVar("S")  # the game's state
A = TypeVar("A", bound=Action)  # its actions (a union of its own `Action` classes)
E = TypeVar("E", bound=Event)  # its events
PV = TypeVar("PV")  # its public view (a frozen `GameView` dataclass; a dict in a game not typed yet)
OV = TypeVar("OV")  # a player's own (private) view


@dataclass(frozen=True)
class Variant:
    """A setting the table may pick when it starts the game (on the home screen), with the words for each value.

    The first choice is the default (what a game starts with when nobody touches the toggle).
    """

    setting: str
    choices: tuple[tuple[Any, str], ...]

    @property
    def default(self) -> Any:
        return self.choices[0][0]

    def has(self, value: object) -> bool:
        return any(value == known and type(value) is type(known) for known, _words in self.choices)

    def words(self, value: object) -> str:
        return next(words for known, words in self.choices if known == value)

    def after(self, value: object) -> Any:
        """The value a tap on the toggle moves to from `value` (round and round)."""
        values = [known for known, _words in self.choices]
        return values[(values.index(value) + 1) % len(values)]


@dataclass(frozen=True)
class Facts:
    """What a game declares about itself; the engine acts on them."""

    name: str  # registry key and command-line word, e.g. "quantum-link"
    title: str  # what the table calls it, e.g. "Quantum Link"
    min_players: int
    max_players: int
    chooses_first: bool = False  # the table says who starts (a race, the last loser, agreement)
    variant: Variant | None = None  # the one setting the table picks when it starts, if any
    tool: bool = False  # a tool for any board game (score pad, dice tray, ...): home lists it under "Any game"


class RulesModule(Protocol):
    """What a game's ``rules.py`` provides."""

    ACTIONS: tuple[type[Action], ...]
    EVENTS: tuple[type[Event], ...]

    def setup(self, options: Options, settings: Any, /) -> Any: ...
    def decide(self, state: Any, action: Any, dice: Dice, /) -> Sequence[Event]: ...
    def evolve(self, state: Any, event: Any, /) -> Any: ...
    def outcome(self, state: Any, /) -> Outcome | None: ...
    def current_player(self, state: Any, /) -> str | None: ...
    def legal_actions(self, state: Any, player: str, /) -> Sequence[Action]: ...
    def players_in(self, state: Any, /) -> Sequence[str]: ...
    def left(self, state: Any, player: str, /) -> Any: ...


class ViewsModule(Protocol):
    """What a game's ``views.py`` provides. Its views are typed (`GameView`s); a bench or test game's may be dicts."""

    def public_view(self, state: Any, /) -> GameView | View: ...
    def private_view(self, state: Any, player: str, /) -> GameView | View: ...
    def public_event(self, event: Any, /) -> dict[str, Any]: ...
    def tell(self, event: Any, state: Any, /) -> str: ...
    def revealed_view(self, state: Any, /) -> GameView | View: ...


class SettingsModule(Protocol):
    """What a game's ``settings.py`` provides."""

    def read(self, raw: Mapping[str, Any], /) -> Any: ...


def everything_public(event: Event) -> dict[str, Any]:
    """`public_event` for a game with no secrets: every event is shown as it is."""
    return codec.to_json(event)


_HOW_CHOSEN = {
    "race": "{player} was first to press and starts.",
    "loser": "{player} lost the last game and starts.",
    "table": "The table chose {player} to start.",
    "fingers": "The finger chooser chose {player}, who starts.",
}


def told_first(event: FirstPlayerChosen) -> str:
    """The sentence for who starts (`ChooseFirst`), in any game whose table chooses."""
    return _HOW_CHOSEN.get(event.how, "{player} starts.").format(player=event.player)


def told_left(event: PlayerLeft, still_in: Sequence[str]) -> str:
    """The sentence for a player leaving, given who is still in after it ("Bo is the only player left...")."""
    said = f"{event.player} left the game."
    if len(still_in) == 1:
        said += f" {still_in[0]} is the only player left and wins!"
    return said


class RegisteredGame(Generic[S, A, E, PV, OV]):
    """One game's registry entry: its facts and modules, with the checks every game shares.

    Generic over the game's state, action, event, public view and own-view types, so that a presenter typed
    against ``RegisteredGame[QuintetState, QuintetAction, QuintetEvent, QuintetView, QuintetView]`` is checked by mypy
    against that game's fields. The registry hands out ``RegisteredGame[Any, ...]``.
    """

    def __init__(
        self,
        facts: Facts,
        rules: RulesModule,
        views: ViewsModule,
        settings: SettingsModule,
        display: Any = None,
    ) -> None:
        self.facts = facts
        self.rules = rules
        self.views = views
        self.settings = settings
        self.display = display  # the game's ``display`` module, or None: it has nothing private to show
        # Leaving needs the game's two hooks; without them (a bench or test game) there is no `leave`.
        self._leaving = hasattr(rules, "players_in") and hasattr(rules, "left")
        leaving: list[Any] = [Leave] if self._leaving else []
        vocabulary = [*rules.ACTIONS, *([ChooseFirst] if facts.chooses_first else []), *leaving]
        self._actions: dict[str, type[Action]] = _by_type(facts.title, vocabulary)
        events = [*rules.EVENTS, FirstPlayerChosen, *([PlayerLeft] if self._leaving else [])]
        self._events: dict[str, type[Event]] = _by_type(facts.title, events)
        # Resuming reads back every stored action and event: each class gets a quick reader, made once.
        self._stored: dict[type[Any], Callable[[Json], Any]] = {
            cls: codec.stored_reader(cls, facts.title) for cls in [*vocabulary, *self._events.values()]
        }

    @classmethod
    def from_package(cls, package: str | ModuleType) -> RegisteredGame[Any, Any, Any, Any, Any]:
        """The entry for the game package `package` (``"companion.games.quinque"`` or the module)."""
        root = importlib.import_module(package) if isinstance(package, str) else package
        base = root.__name__

        def part(name: str, required: bool = True) -> Any:
            try:
                return importlib.import_module(f"{base}.{name}")
            except ModuleNotFoundError as missing:
                if required or missing.name != f"{base}.{name}":
                    raise
                return None

        return cls(root.FACTS, part("rules"), part("views"), part("settings"), part("display", required=False))

    # -- facts ---------------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.facts.name

    @property
    def title(self) -> str:
        return self.facts.title

    @property
    def min_players(self) -> int:
        return self.facts.min_players

    @property
    def max_players(self) -> int:
        return self.facts.max_players

    @property
    def chooses_first(self) -> bool:
        return self.facts.chooses_first

    @property
    def endings(self) -> tuple[str, ...]:
        """Every `Outcome.reason` this game may end with: its own (its rules' ``Ending`` enum), then the engine's."""
        own = getattr(self.rules, "Ending", None)
        return (*(own or ()), *(t for t in Termination if t is not Termination.WIN))

    def read_outcome(self, data: Json) -> Outcome:
        """A stored outcome (`Outcome.to_stored`, or an earlier version's JSON) back, its reason one of `endings`."""
        read = Outcome.from_json(data)
        reason = next((known for known in self.endings if known == read.reason), read.reason)
        return replace(read, reason=reason)

    @property
    def action_types(self) -> tuple[str, ...]:
        """Every action word this game takes, for help texts and refusals."""
        return tuple(self._actions)

    # -- starting --------------------------------------------------------------------------

    def read_settings(self, raw: Mapping[str, Any]) -> Any:
        """The game's settings from its config table; `SetupError` with one sentence."""
        return self.settings.read(raw or {})

    def setup(self, options: Options, *, stored: bool = False) -> Any:
        """The starting state; `SetupError` for seats, names or settings the game cannot use.

        Names are checked at the door (`companion.names`): present, at most `MAX_NAME_LENGTH` characters,
        already in their normal form, none looking like another. A game read back from the games file
        (`stored`) keeps the names it was started with: a file written before a rule changed still resumes.
        """
        count = len(options.players)
        if not self.min_players <= count <= self.max_players:
            seats = (
                f"exactly {self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise SetupError(f"{self.title} is for {seats} players; {count} are seated.")
        if not stored:
            problem = table_problem(options.names)
            if problem is not None:
                raise SetupError(problem)
            for name in options.names:
                if normal_name(name) != name:
                    raise SetupError(
                        f"The name {normal_name(name)!r} was given with extra spaces or invisible characters; "
                        "give it plainly."
                    )
        return self.rules.setup(options, self.read_settings(options.settings))

    # -- playing ---------------------------------------------------------------------------

    def decide(self, state: Any, action: Action, dice: Dice, *, begun: bool = False) -> Sequence[Event]:
        """The events `action` causes; `RuleError` with a sentence if it is not allowed. Changes nothing.

        `begun` says whether play has begun (the session knows from its log).
        """
        if self.outcome(state) is not None:
            raise RuleError("The game is over; start a new one to play again.")
        if type(action).type not in self._actions or self._actions[type(action).type] is not type(action):
            raise RuleError(f"{self.title} has no action {type(action).type!r}.")
        if isinstance(action, Leave):
            # By their own wish, at any moment: not bound to whose turn it is.
            require(action.player in self.rules.players_in(state), f"{action.player} is no longer in the game.")
            return [PlayerLeft(action.player)]
        if isinstance(action, ChooseFirst):
            require(not begun, "Who starts can be chosen only before play begins.")
            return [FirstPlayerChosen(action.player, action.chosen_by, action.how)]
        if type(action).whose_turn:
            turn = self.rules.current_player(state)
            player = getattr(action, "player", None)
            require(turn is None or player == turn, f"It is {turn}'s turn, not {player}'s.")
        return self.rules.decide(state, action, dice)

    def evolve(self, state: Any, event: Event) -> Any:
        """The state after `event`; `UnknownEvent` if this game never makes it."""
        if self._events.get(type(event).type) is not type(event):
            raise UnknownEvent(self.title, event)
        if isinstance(event, PlayerLeft):
            return self.rules.left(state, event.player)
        return self.rules.evolve(state, event)

    def refusal(self, state: Any, action: Action, *, begun: bool = False) -> str | None:
        """Why `action` would be refused now, or None if it would be taken. Rolls no real dice."""
        try:
            self.decide(state, action, RandomDice.seeded(0), begun=begun)
        except Refusal as refused:
            return str(refused)
        return None

    def legal_actions(self, state: Any, player: str) -> Sequence[Action]:
        """What `player` may do now, where the choices can be listed."""
        if self.outcome(state) is not None:
            return []
        return self.rules.legal_actions(state, player)

    def outcome(self, state: Any) -> Outcome | None:
        """The game's own end if its rules have one; else, once only one player remains, that player wins."""
        ended = self.rules.outcome(state)
        if ended is not None or not self._leaving or self.min_players < 2:
            return ended
        remaining = tuple(self.rules.players_in(state))
        if len(remaining) == 1:  # the game seats two or more: the others left
            return Outcome(remaining, LEFT, f"{remaining[0]} is the only player left.")
        return None

    def players_in(self, state: Any) -> tuple[str, ...]:
        """Who is still playing: not gone, not knocked out (only for a game with `leave`)."""
        if not self._leaving:
            raise TypeError(f"{self.title} has no players_in: it has no leave action.")
        return tuple(self.rules.players_in(state))

    def current_player(self, state: Any) -> str | None:
        return None if self.outcome(state) is not None else self.rules.current_player(state)

    # -- seeing -----------------------------------------------------------------------------

    def view(self, state: S) -> PV:
        """The game's public view, typed, with the engine's `over` and `outcome` (see `_with_end`)."""
        return cast(PV, self._with_end(self.views.public_view(state), state))

    def own_view(self, state: S, player: str) -> OV:
        """`player`'s own view, typed: what their private display and phone show, and nothing of anyone else's."""
        return cast(OV, self._with_end(self.views.private_view(state, player), state))

    def revealed(self, state: S) -> PV:
        """The public view with every secret shown, typed: for a finished game, where nothing is secret any more."""
        return cast(PV, self._with_end(self.views.revealed_view(state), state))

    def public_view(self, state: S) -> View:
        """`view` as JSON (the edges: `companion play`, export)."""
        return codec.view_json(self.view(state))

    def private_view(self, state: S, player: str) -> View:
        """`own_view` as JSON."""
        return codec.view_json(self.own_view(state, player))

    def _with_end(self, view: Any, state: S) -> Any:
        """`view` saying the end as the engine knows it, in every game and every view.

        ``over`` is true exactly when there is an ``outcome``: a game's rules
        know their own ends, but only the engine knows the end by leaving.
        A typed view (a `GameView`) gets its two fields; a game whose views are
        dicts (a bench or test game) gets the two keys.
        """
        ended = self.outcome(state)
        if isinstance(view, GameView):
            return replace(view, over=ended is not None, outcome=ended)
        return {**view, "over": ended is not None, "outcome": ended.to_json() if ended else None}

    def public_event(self, event: Event) -> dict[str, Any]:
        """`event` as everyone may read it (a headless log, a history screen): secrets stripped."""
        return self.views.public_event(event)

    def tell(self, event: Event, state: Any) -> str:
        """The sentence the table reads for `event` in the `state` it led to ("" for one it does not read).

        It names nothing `public_event` hides: a log of sentences is as public as the events themselves.
        """
        return self.views.tell(event, state)

    def revealed_view(self, state: S) -> View:
        """`revealed` as JSON: the public view with every secret shown, for a finished game."""
        return codec.view_json(self.revealed(state))

    def phone_page(self, view: OV) -> dict[str, Any] | None:
        """A player's own `view` (`own_view`, typed) as a phone page (what ``hardware.phones`` renders), or None.

        The game's own ``display.phone_page`` if it has one; a game with a
        display but no phone page gets its view as plain rows under the
        player's name; a game without a display module has nothing private to
        show: None. The page is JSON: the phone socket sends it as it is.
        """
        if self.display is None:
            return None
        own = getattr(self.display, "phone_page", None)
        if own is not None:
            return cast(dict[str, Any], own(view))
        # Imported here: only a seat with a phone needs it, and start-up does not (issue 26).
        from companion.small_display import OwnView, plain_lines, player_of

        shown = cast(OwnView, view)  # whatever the game's own views are: the plain layout reads any
        rows = [{"text": line, "note": "", "tone": "normal"} for line in plain_lines(shown, 60)]
        title = f"{player_of(shown)} · {self.title}"
        return {"title": title, "status": "", "notice": "", "sections": [{"heading": "", "rows": rows}], "choices": []}

    # -- the edges: JSON in and out -----------------------------------------------------------

    def parse_action(self, data: Json, players: Sequence[str], *, stored: bool = False) -> Action:
        """A typed action from its JSON object; `RuleError` naming what is wrong.

        `stored`: it comes from the games file, perhaps written by an earlier version (see `codec.from_json`).
        """
        kind = data.get("type") if isinstance(data, dict | Mapping) else None
        cls = self._actions.get(kind) if isinstance(kind, str) else None
        if cls is not None and stored:
            return cast(Action, self._stored[cls](data))
        if not isinstance(kind, str):
            raise RuleError('Every action needs a "type", for example {"type": "pass"}.')
        if cls is None:
            words = ", ".join(f'"{k}"' for k in self._actions)
            raise RuleError(f'{self.title} has no action "{kind}"; the actions are {words}.')
        return codec.from_json(cls, data, seats=players, title=self.title)

    def is_private(self, data: Json) -> bool:
        """Whether the JSON object `data` names a private action (`Action.private`), read or not.

        Asked of the ``type`` word alone, so that even a malformed private action's refusal stays its player's.
        """
        kind = data.get("type") if isinstance(data, dict | Mapping) else None
        cls = self._actions.get(kind) if isinstance(kind, str) else None
        return cls is not None and cls.private

    def event_from_json(self, data: Json) -> Event:
        """A stored event back as its class; `ValueError` if this game never made such an event."""
        cls = self._events.get(data.get("type"))  # type: ignore[arg-type]
        if cls is None:
            raise ValueError(f"{self.title} has no event {data.get('type')!r}.")
        try:
            return cast(Event, self._stored[cls](data))
        except RuleError as wrong:
            raise ValueError(str(wrong)) from None

    @staticmethod
    def to_json(message: Action | Event) -> dict[str, Any]:
        return codec.to_json(message)


AnyGame = RegisteredGame[Any, Any, Any, Any, Any]
"""A registry entry of a game not named: what `companion.games.game` hands out."""


def _by_type(title: str, classes: Sequence[type[Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for cls in classes:
        if not cls.type or cls.type in found:
            raise TypeError(f"{title}: {cls.__name__} needs a type word of its own (have {cls.type!r}).")
        found[cls.type] = cls
    return found
