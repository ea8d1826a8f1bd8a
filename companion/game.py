"""The contract every game follows: actions in, events out, state folded.

A game is a definition, not an object with a life of its own. The engine
(`companion.engine.RegisteredGame`) runs it, and the `Session` runs the engine:

    state  = rules.setup(options, settings)
    events = rules.decide(state, action, dice)   # may raise RuleError
    state  = rules.evolve(state, event)          # for each event; raises only on an event it does not know

Actions and events are typed, frozen dataclasses (subclasses of `Action` and
`Event` with a ``type`` word), converted to and from JSON objects
(``{"type": "roll", ...}``) only at the edges by `companion.codec`. State is
an immutable value (frozen dataclasses and tuples): history is the event log
and undo is folding it again.

Each game is a package ``companion/games/<name>/`` with the same modules for
the same roles (see `companion.engine`): ``__init__`` (its `Facts`),
``rules``, ``views``, ``settings`` and, if it has private views, ``display``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Literal, TypeVar

View = dict[str, Any]
"""A view as JSON, at the edges (the store, `companion play`, export, the phone socket): `companion.codec.plain`
of a game's typed view (a `GameView`), or what a game that keeps its views as dicts builds itself."""

SEAT = "seat"
Seat = Annotated[str, SEAT]
"""A field holding a seated player's name: the codec refuses any other name."""


class Refusal(ValueError):
    """An action that was not taken, and nothing changed. ``str(error)`` is a sentence for players."""


class RuleError(Refusal):
    """An action the rules do not allow. ``str(error)`` is a sentence for players."""


class SetupError(ValueError):
    """Options a game cannot start with (too many players, a bad setting). ``str(error)`` is one sentence."""


class UnknownEvent(TypeError):
    """`evolve` was handed an event its game never makes: a programming error, never a player's."""

    def __init__(self, game: str, event: object) -> None:
        super().__init__(f"{game} does not know the event {event!r}.")


@dataclass(frozen=True, slots=True)
class Message:
    """What actions and events share: a ``type`` word that names them in JSON."""

    type: ClassVar[str] = ""
    json_order: ClassVar[tuple[str, ...]] = ()
    """The JSON keys' order, when it is not the fields' (a subclass adding fields before its base's): names."""


@dataclass(frozen=True, slots=True)
class Action(Message):
    """A player's request, e.g. ``Capture(by="Ann", of="Bo")``.

    An action whose `whose_turn` is true must carry a ``player`` field, and
    the engine refuses it unless it is that player's turn.

    An action whose `private` is true is a player's secret business (a private
    setup, a hidden bet): why it was refused may name their secrets, so only
    that player (the ``player`` field) may read the sentence.
    """

    whose_turn: ClassVar[bool] = False
    private: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Event(Message):
    """An accepted fact, e.g. ``Rolled(player="Ann", dice=(5, 5))``.

    Play has begun once an event whose `begins_play` is true is accepted
    (choosing who starts, and a game's private setup, do not begin it).
    """

    begins_play: ClassVar[bool] = True


# -- what every game shares ---------------------------------------------------------

HowChosen = Literal["race", "loser", "table", "fingers"]


@dataclass(frozen=True, slots=True)
class ChooseFirst(Action):
    """The table says who starts: after a race on the buttons, the last game's loser, or by agreement."""

    type = "choose_first"
    player: Seat
    chosen_by: Seat
    how: HowChosen


@dataclass(frozen=True, slots=True)
class FirstPlayerChosen(Event):
    """Who starts; a game that lets the table choose handles it in `evolve`."""

    type = "first_player_chosen"
    begins_play = False
    player: str
    chosen_by: str
    how: str


@dataclass(frozen=True, slots=True)
class Leave(Action):
    """A player leaves the game for good, by their own wish, at any moment (not bound to their turn)."""

    type = "leave"
    player: Seat


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    """Someone left; the game's ``left`` hook says what that does to its state, the engine who then wins."""

    type = "player_left"
    player: str


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """`player`'s turn is over and `next_player` has it: the one turn event of every game that has turns.

    A game whose turn's end says more (Quintet's extra turn, Quark's hand count) subclasses it with its own
    fields; the type word stays ``turn_ended``, so anything that asks "whose turn now?" of the log reads one class.
    """

    type = "turn_ended"
    player: str
    next_player: str = field(metadata={"key": "next"})  # `companion.codec.key("next")`; the codec imports us


class Termination(StrEnum):
    """How a game ended, as the engine knows ends: what the store and the history ask of an `Outcome`.

    A game's own words for a win (``"five in a row"``) are its `Outcome.reason`, declared by the game as an
    enum of its own (a `StrEnum`); the engine's own ends are their own reasons.
    """

    WIN = "win"  # by the game's own rules (its reason says how)
    TIE = "tie"  # nobody won
    LEFT = "left"  # won because everyone else left: the engine's, in every game
    ABANDONED = "abandoned"  # the table left it unfinished for good: the store's

    @classmethod
    def of(cls, reason: str) -> Termination:
        """The termination a stored `reason` word means (a game saved before terminations were stored)."""
        try:
            return cls(str(reason))
        except ValueError:
            return cls.WIN


LEFT = Termination.LEFT
"""The `Outcome.reason` of a game won because everyone else left: the engine's, in every game."""

TIE = Termination.TIE
"""The `Outcome.reason` of a game nobody won."""

ABANDONED = Termination.ABANDONED
"""The `Outcome.reason` the store gives a game the table left unfinished for good."""


SEAT_COLOURS: tuple[str, ...] = ("#e53935", "#006ef2", "#63f2bb", "#ffdc37", "#b0589a")
"""The table's colours, one per seat in seat order: what a player has unless they choose their own (hex).

Red, blue, green, yellow and plum, every pair at least ΔE 42 apart (CIE76) to normal eyes and to
deuteranopes, protanopes and tritanopes (`companion.palette`), each at least 3:1 against the theme's
background and panels, under ink or light text that reads. Found once by a search near Okabe–Ito's
colours and the table's old ones; `tests/core/test_palette.py` measures them.
"""


def seat_colour(seat: int) -> str:
    """The table's colour for seat `seat` (0 is the first), round again past the fifth."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


@dataclass(frozen=True)
class Player:
    """Someone at the table: a name and a colour, in seat order."""

    name: str
    colour: str = SEAT_COLOURS[0]


@dataclass(frozen=True)
class Options:
    """What a game starts from: the seated players and game-specific settings (as written in the config)."""

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
        players = tuple(Player(p["name"], p.get("colour", seat_colour(i))) for i, p in enumerate(data["players"]))
        return cls(players, dict(data.get("settings", {})))

    @classmethod
    def for_names(cls, *names: str, **settings: Any) -> Options:
        """The players `names` in seat order, each in their seat's table colour: ``Options.for_names("Ann", "Bo")``."""
        return cls(tuple(Player(n, seat_colour(i)) for i, n in enumerate(names)), settings)


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who won (several on a shared win, none on a tie), how (`termination`) and why.

    `reason` is the game's own word for its win, a member of its own `StrEnum` (``Ending.FIVE_IN_A_ROW``),
    or the engine's `Termination` for the ends it owns (`TIE`, `LEFT`, `ABANDONED`). `termination` follows
    from `reason` unless given: the game's own words are a `Termination.WIN`.
    """

    winners: tuple[str, ...]
    reason: str
    detail: str = ""
    termination: Termination = field(default=None, compare=True)  # type: ignore[assignment]  # set below
    title: str = ""
    """The game the table played, where it is not this game itself: a tool for any board game (the score pad)
    names it ("Carcassonne"), and the wins count under that name (`companion.store.tally`). Empty otherwise."""

    def __post_init__(self) -> None:
        if self.termination is None:
            object.__setattr__(self, "termination", Termination.of(self.reason))

    @property
    def is_tie(self) -> bool:
        return self.termination is Termination.TIE

    @property
    def abandoned(self) -> bool:
        return self.termination is Termination.ABANDONED

    def to_json(self) -> dict[str, Any]:
        """As a view and `companion play` show it: winners, reason and detail (and the `title`, if it has one)."""
        shown = {"winners": list(self.winners), "reason": str(self.reason), "detail": self.detail}
        return {**shown, "title": self.title} if self.title else shown

    def to_stored(self) -> dict[str, Any]:
        """As the store keeps it: `to_json` and the termination, which the history's queries ask for."""
        return {**self.to_json(), "termination": self.termination.value}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """An outcome as stored, or as an earlier version stored it (no ``termination``: it follows from the reason)."""
        reason = str(data.get("reason", ""))
        stored = data.get("termination")
        known = {t.value for t in Termination}
        termination = Termination(stored) if isinstance(stored, str) and stored in known else Termination.of(reason)
        title = data.get("title")
        winners = tuple(data.get("winners") or ())
        return cls(winners, reason, str(data.get("detail", "")), termination, title if isinstance(title, str) else "")


TITLED = "\x1f"
"""Between a tool's name and the title of the game the table played on it, where wins are kept (`wins_under`):
a control character, which no normalised name or title holds (`companion.names.normal_name`)."""


def wins_under(game: str, title: str = "") -> str:
    """What wins are kept under (`Store.wins_by_game`): the game's registry name, or for a game the table named on
    a tool (`Outcome.title`), the tool's name and that title, so "Carcassonne" counts apart from "Catan"."""
    return f"{game}{TITLED}{title}" if title else game


def played(under: str) -> tuple[str, str]:
    """What `wins_under` joined: the game's registry name and the title the table gave it ("" for none)."""
    game, _, title = under.partition(TITLED)
    return game, title


@dataclass(frozen=True, kw_only=True)
class GameView:
    """What every game's typed view ends with: the end as the engine knows it (`RegisteredGame._with_end` fills it in).

    A game's public and private views are frozen dataclasses of this kind, with fields named as their JSON keys
    (`companion.codec.key` where a key is no Python name): presenters and displays read fields, and
    `companion.codec.plain` makes the JSON at the edges.
    """

    over: bool = False  # true exactly when there is an `outcome`
    outcome: Outcome | None = None


V = TypeVar("V", bound=GameView)


def addressed(view: GameView, own: type[V], **more: Any) -> V:
    """`view` as the game's own-view class `own` (a subclass adding fields, such as ``you``), with `more` filled in."""
    return own(**{f.name: getattr(view, f.name) for f in fields(view)}, **more)


def require(condition: bool, sentence: str) -> None:
    """Raise `RuleError(sentence)` unless `condition` holds: keeps `decide` readable."""
    if not condition:
        raise RuleError(sentence)
