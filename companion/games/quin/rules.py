"""Quin's referee: private setup, flashes, powers and their limits, the two ways to win.

The vocabulary first (what the table may ask, what the referee says
happened), then `decide`, which checks an action and returns events, and
`evolve`, which applies them.

A refusal whose reason depends on a hidden identity never names that
identity: it says what the action would need ("that takes one of your
Memories with a swap left"), so a refused bluff tells the table no more than
that it was refused. Events name identities freely (the state holds every
secret); `views.public_event` strips them before anyone else reads an event.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import combinations

from companion.codec import key, optional
from companion.dice import Dice
from companion.game import (
    LEFT,
    Action,
    Event,
    FirstPlayerChosen,
    Options,
    Outcome,
    RuleError,
    Seat,
    TurnEnded,
    UnknownEvent,
    require,
)
from companion.games.quin.pieces import (
    ANNIHILATION,
    ARTIFICIAL_LIGHT,
    CAPTURE,
    CLONE_FROM,
    CLONE_TO,
    KINDS,
    LABELS,
    LIGHT,
    LIGHT_TAKES_LIGHT,
    MEMORY,
    MEMORY_SWAPS,
    MUTUAL_DESTRUCTION,
    PLURALS,
    REFLECTOR,
    STARTING_POINTS,
    TIME,
    VOID,
    ZERO_G_AT_START,
    counts,
    flash_result,
    parse_kind,
)
from companion.games.quin.settings import QuinSettings
from companion.games.quin.state import (
    BOARD,
    CAPTURED,
    HOW_ANNIHILATED,
    HOW_CAPTURED,
    HOW_DESTROYED,
    HOW_USED,
    OFF,
    OVER,
    PLAY,
    REMOVED,
    SETUP,
    ZERO_G,
    LastFlash,
    Piece,
    PieceKey,
    QuinState,
    Result,
    Side,
    TurnSoFar,
)

FIRST_SIGHT = "First Sight"
MAX_TEXT = 60
"""The longest name of a space ("Gateway 2", "Line 2, next to Iris") an action may carry."""



class Ending(StrEnum):
    """Why a game of Quin was won: `Outcome.reason` (the words stored with a finished game)."""

    CAPTURED_LIGHT = "captured the rival's Light"
    LIGHT_ON_FIRST_SIGHT = "brought their Light to First Sight"


CAPTURED_LIGHT = Ending.CAPTURED_LIGHT
LIGHT_ON_FIRST_SIGHT = Ending.LIGHT_ON_FIRST_SIGHT

# The same two, as a `GameWon` event and the public view's outcome say them.
WON_BY_CAPTURE = "captured_light"
WON_ON_FIRST_SIGHT = "first_sight"

PieceLabel = str | int
"""A piece's label as an action may write it: ``"7"`` or ``7``."""


# -- the actions: private setup ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Clone(Action):
    """Choose the Clone: the face it replaces (any but Light and Shadow) and what it becomes."""

    type = "clone"
    private = True
    player: Seat
    taken: str = key("from")
    made: str = key("to")


@dataclass(frozen=True, slots=True)
class Assign(Action):
    """Give a label an identity and a place: ``"board"`` (a starting point) or ``"zero-g"``."""

    type = "assign"
    private = True
    player: Seat
    label: PieceLabel
    identity: str
    where: str


@dataclass(frozen=True, slots=True)
class Unassign(Action):
    """Take a label's identity back."""

    type = "unassign"
    private = True
    player: Seat
    label: PieceLabel


@dataclass(frozen=True, slots=True)
class SetupDone(Action):
    """Finish one's private setup (it cannot be changed afterwards)."""

    type = "setup_done"
    private = True
    player: Seat


@dataclass(frozen=True, slots=True)
class Setup(Action):
    """A whole private setup at once: the Clone, each label's identity by place, and (unless `done` is
    false) finished. ``clone`` is ``{"from": ..., "to": ...}``; ``board`` and ``zero_g`` map labels to
    identities."""

    type = "setup"
    private = True
    player: Seat
    clone: Mapping[str, str]
    board: Mapping[str, str]
    zero_g: Mapping[str, str]
    done: bool = optional(True)


# -- the actions: play (each only on the player's own turn) ---------------------------------------------
# "from" and "to" are what the table calls the spaces, as free text; the companion keeps no board.


@dataclass(frozen=True, slots=True)
class Move(Action):
    """A piece moved on the board; a move to First Sight is a claim that it is the Light."""

    type = "move"
    whose_turn = True
    player: Seat
    label: PieceLabel
    start: str | None = optional(key="from")
    to: str | None = optional()


@dataclass(frozen=True, slots=True)
class ClaimFirstSight(Action):
    """The player's Light stands on First Sight: the referee checks the claim."""

    type = "first_sight"
    whose_turn = True
    player: Seat
    label: PieceLabel
    start: str | None = optional(key="from")


@dataclass(frozen=True, slots=True)
class Flash(Action):
    """The attacker flashes a rival piece (sent there by the player's Reflector, if `reflector` names it)."""

    type = "flash"
    whose_turn = True
    player: Seat
    attacker: PieceLabel
    defender: PieceLabel
    reflector: PieceLabel | None = optional()
    start: str | None = optional(key="from")
    to: str | None = optional()


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """A Memory swaps places with another of the player's pieces (the turn goes on)."""

    type = "swap"
    whose_turn = True
    player: Seat
    memory: PieceLabel
    other: PieceLabel = key("with")


@dataclass(frozen=True, slots=True)
class UseTime(Action):
    """Time moves a rival piece back, then goes to the rival's Zero-G card (the turn goes on)."""

    type = "time"
    whose_turn = True
    player: Seat
    time: PieceLabel
    target: PieceLabel
    to: str | None = optional()


@dataclass(frozen=True, slots=True)
class Resurrect(Action):
    """The Resurrection Totem brings a taken piece back onto a Gateway (once a game; the turn goes on)."""

    type = "resurrect"
    whose_turn = True
    player: Seat
    label: PieceLabel
    to: str | None = optional()


@dataclass(frozen=True, slots=True)
class BringIn(Action):
    """Pieces come in from the Zero-G card: one `label`, or several Artificial Lights as `labels`."""

    type = "bring_in"
    whose_turn = True
    player: Seat
    label: PieceLabel | None = optional()
    labels: tuple[PieceLabel, ...] | None = optional()
    to: str | None = optional()


@dataclass(frozen=True, slots=True)
class Gravity(Action):
    """A Void casts Void Gravity, moving the player's other Voids named in `voids`."""

    type = "gravity"
    whose_turn = True
    player: Seat
    void: PieceLabel
    voids: tuple[PieceLabel, ...]
    to: str | None = optional()


@dataclass(frozen=True, slots=True)
class Reflect(Action):
    """A Reflector sends the player's Light or an Artificial Light."""

    type = "reflect"
    whose_turn = True
    player: Seat
    reflector: PieceLabel
    piece: PieceLabel
    to: str | None = optional()


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """The player does nothing more this turn."""

    type = "pass"
    whose_turn = True
    player: Seat


ACTIONS: tuple[type[Action], ...] = (
    Clone,
    Assign,
    Unassign,
    SetupDone,
    Setup,
    Move,
    ClaimFirstSight,
    Flash,
    Swap,
    UseTime,
    Resurrect,
    BringIn,
    Gravity,
    Reflect,
    Pass,
)


# -- the events: private setup (none of them begins play: who starts may still be chosen) -----------------


@dataclass(frozen=True, slots=True)
class CloneChosen(Event):
    """The player's Clone: the face it replaces (`taken`) and what it becomes (`made`). Secret."""

    type = "clone_chosen"
    begins_play = False
    player: str
    taken: str = key("from")
    made: str = key("to")


@dataclass(frozen=True, slots=True)
class PieceAssigned(Event):
    """A label was given an identity (secret) and a place."""

    type = "piece_assigned"
    begins_play = False
    player: str
    label: str
    identity: str
    where: str


@dataclass(frozen=True, slots=True)
class PieceUnassigned(Event):
    """A label's identity was taken back."""

    type = "piece_unassigned"
    begins_play = False
    player: str
    label: str


@dataclass(frozen=True, slots=True)
class SetupFinished(Event):
    """The player finished their private setup."""

    type = "setup_finished"
    begins_play = False
    player: str


@dataclass(frozen=True, slots=True)
class PlayStarted(Event):
    """Both setups are finished; `player` has the first turn (until someone takes a step, it may change)."""

    type = "play_started"
    begins_play = False
    player: str


# -- the events: play ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PieceMoved(Event):
    """A piece moved (between the spaces the table named, if it did)."""

    type = "piece_moved"
    player: str
    label: str
    start: str | None = key("from")
    to: str | None = key("to")  # `key` too, only so that a type checker lets it follow `start`


@dataclass(frozen=True, slots=True)
class FirstSightReached(Event):
    """The player's Light reached First Sight (the claim held)."""

    type = "first_sight_reached"
    player: str
    label: str
    start: str | None = key("from")


@dataclass(frozen=True, slots=True)
class Flashed(Event):
    """A flash and what it came to (both identities are revealed by it)."""

    type = "flashed"
    player: str
    attacker: str
    defender: str
    attacker_identity: str
    defender_identity: str
    result: str
    reflector: str | None
    start: str | None = key("from")
    to: str | None = key("to")  # `key` too, only so that a type checker lets it follow `start`


@dataclass(frozen=True, slots=True)
class MemorySwapped(Event):
    """A Memory swapped places with another of the player's pieces (which is the Memory is secret)."""

    type = "memory_swapped"
    player: str
    memory: str
    other: str = key("with")


@dataclass(frozen=True, slots=True)
class TimeUsed(Event):
    """Time moved a rival piece back and went, face up, to the rival's Zero-G card."""

    type = "time_used"
    player: str
    time: str
    target: str
    to: str | None


@dataclass(frozen=True, slots=True)
class Resurrected(Event):
    """The Resurrection Totem brought a taken piece back."""

    type = "resurrected"
    player: str
    label: str
    to: str | None


@dataclass(frozen=True, slots=True)
class BroughtIn(Event):
    """Pieces came in from the player's Zero-G card."""

    type = "brought_in"
    player: str
    labels: tuple[str, ...]
    to: str | None


@dataclass(frozen=True, slots=True)
class GravityCast(Event):
    """A Void (secret which) cast Void Gravity, moving the player's other Voids in `voids`."""

    type = "gravity_cast"
    player: str
    void: str
    voids: tuple[str, ...]
    to: str | None


@dataclass(frozen=True, slots=True)
class Reflected(Event):
    """A Reflector (secret which) sent the player's Light or an Artificial Light."""

    type = "reflected"
    player: str
    reflector: str
    piece: str
    to: str | None


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """The player did nothing more this turn."""

    type = "passed"
    player: str


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    """`player` won; `reason` is `WON_BY_CAPTURE` or `WON_ON_FIRST_SIGHT`."""

    type = "game_won"
    player: str
    reason: str


EVENTS: tuple[type[Event], ...] = (
    CloneChosen,
    PieceAssigned,
    PieceUnassigned,
    SetupFinished,
    PlayStarted,
    PieceMoved,
    FirstSightReached,
    Flashed,
    MemorySwapped,
    TimeUsed,
    Resurrected,
    BroughtIn,
    GravityCast,
    Reflected,
    Passed,
    TurnEnded,
    GameWon,
)

Step = (
    PieceMoved
    | FirstSightReached
    | Flashed
    | MemorySwapped
    | TimeUsed
    | Resurrected
    | BroughtIn
    | GravityCast
    | Reflected
    | Passed
)
"""The events that are steps of a turn: what "the last move" tells."""


# -- starting, and the facts the engine asks for ------------------------------------------------------------------


def setup(options: Options, settings: QuinSettings) -> QuinState:
    """Two sides of 17 unlabelled pieces, each waiting for its owner's private setup."""
    sides = tuple(Side(p.name, p.colour) for p in options.players)
    every = tuple(Piece(side.name, label) for side in sides for label in LABELS)
    return QuinState(
        sides=(sides[0], sides[1]),
        pieces=every,
        adjustable=settings.adjustable,
        capture_rule=settings.capture_rule,
    )


def current_player(state: QuinState) -> str | None:
    """Whose turn it is; None during the private setup and once the game is over."""
    return state.turn


def outcome(state: QuinState) -> Outcome | None:
    """Who won and how, once a Light is captured or reaches First Sight, or the rival left."""
    result = state.result
    if result is None:
        return None
    if result.reason == LEFT:
        return Outcome((result.winner,), LEFT, f"{state.rival(result.winner)} left the game.")
    if result.reason == WON_BY_CAPTURE and state.last_flash is not None:
        return Outcome((result.winner,), CAPTURED_LIGHT, state.last_flash.sentence)
    light = next(p.label for p in state.pieces_of(result.winner) if p.identity == LIGHT)
    detail = f"{result.winner}'s {light} (Light) reached First Sight."
    return Outcome((result.winner,), LIGHT_ON_FIRST_SIGHT, detail)


def players_in(state: QuinState) -> tuple[str, ...]:
    """Both players, until one leaves."""
    result = state.result
    return (result.winner,) if result is not None and result.reason == LEFT else state.names


def left(state: QuinState, player: str) -> QuinState:
    """`player` left: the rival wins, and the game ends as on a win, every piece revealed."""
    return replace(
        state,
        phase=OVER,
        turn=None,
        pieces=tuple(replace(p, revealed=True) for p in state.pieces),
        result=Result(state.rival(player), LEFT),
        this_turn=TurnSoFar(),
        flash_back_ban=None,
    )


# -- reading an action's fields ------------------------------------------------------------------


def _label(value: PieceLabel | None, name: str) -> str:
    text = str(value).strip() if value is not None else ""
    require(text in LABELS, f'"{name}" must be a piece label, {LABELS[0]} to {LABELS[-1]}.')
    return text


def _labels(values: Sequence[PieceLabel], name: str) -> list[str]:
    if not values:
        raise RuleError(f'"{name}" must be a list of piece labels, e.g. ["12", "13"].')
    labels = [_label(value, name) for value in values]
    require(len(set(labels)) == len(labels), f'"{name}" names the same piece twice.')
    return labels


def _text(value: str | None, name: str) -> str | None:
    """An optional free-text board point ("Gateway 2", "Iris"): what the table calls the space."""
    if value is None:
        return None
    require(len(value.strip()) <= MAX_TEXT, f'"{name}" must be the name of a space, in at most {MAX_TEXT} characters.')
    return value.strip() or None


def _count(n: int, kind: str) -> str:
    return f"{n} {kind if n == 1 else PLURALS[kind]}"


def join_labels(labels: Sequence[str]) -> str:
    """``"2, 6 and 11"``: in numeric order, so the order never hints at anything."""
    ordered = sorted(labels, key=int)
    return ordered[0] if len(ordered) == 1 else ", ".join(ordered[:-1]) + " and " + ordered[-1]


def _is_first_sight(text: str | None) -> bool:
    return text is not None and " ".join(text.replace("-", " ").lower().split()) == "first sight"


# -- the referee ---------------------------------------------------------------------------


def decide(state: QuinState, action: Action, dice: Dice | None = None) -> list[Event]:
    """The events `action` causes, or `RuleError` with the reason. Quin rolls no dice."""
    match action:
        case Clone():
            return _clone(state, action)
        case Assign():
            return _assign(state, action)
        case Unassign():
            return _unassign(state, action)
        case SetupDone():
            return _setup_done(state, action)
        case Setup():
            return _setup_all(state, action)
        case Move():
            return _move(state, action)
        case ClaimFirstSight():
            return _first_sight(state, action)
        case Flash():
            return _flash(state, action)
        case Swap():
            return _swap(state, action)
        case UseTime():
            return _time(state, action)
        case Resurrect():
            return _resurrect(state, action)
        case BringIn():
            return _bring_in(state, action)
        case Gravity():
            return _gravity(state, action)
        case Reflect():
            return _reflect(state, action)
        case Pass():
            _in_play(state)
            return [Passed(action.player), _turn_ends(state, action.player)]
    raise RuleError(f"Quin has no action {type(action).type!r}.")


# -- private setup -----------------------------------------------------------------------------


def _setting_up(state: QuinState, player: str) -> None:
    require(state.phase == SETUP, "Setup is over: the game is being played.")
    require(not state.side(player).ready, f"{player} has already finished their setup.")


def _clone(state: QuinState, action: Clone) -> list[Event]:
    player = action.player
    _setting_up(state, player)
    taken, made = parse_kind(action.taken), parse_kind(action.made)
    require(
        taken in CLONE_FROM,
        '"from" must be the piece whose face the Clone replaces: any kind but Light and Shadow '
        "(Artificial Light, Time, Reflector, Memory, Peripheral or Void).",
    )
    require(made in CLONE_TO, '"to" must be what the Clone becomes: Time, Memory, Void or Artificial Light.')
    assert taken is not None and made is not None
    adjustable = dict(state.adjustable)
    require(counts(adjustable, None)[taken] > 0, f"This table plays without {PLURALS[taken]}, so none can be cloned.")
    after = counts(adjustable, (taken, made))
    assigned = _assigned(state, player)
    for kind in KINDS:
        have = sum(1 for p in assigned if p.identity == kind)
        require(
            have <= after[kind],
            f"{_count(have, kind)} already have labels; with this Clone you would have only {after[kind]}. "
            "Take one back first.",
        )
    _zero_g_room(assigned, after)
    return [CloneChosen(player, taken, made)]


def _assigned(state: QuinState, player: str, *, leaving_out: str | None = None) -> list[Piece]:
    return [p for p in state.pieces_of(player) if p.identity is not None and p.label != leaving_out]


def _zero_g_room(assigned: Sequence[Piece], have: Mapping[str, int]) -> None:
    """All Artificial Lights must fit on the Zero-G card beside the others put there."""
    room = ZERO_G_AT_START - have[ARTIFICIAL_LIGHT]
    others = sum(1 for p in assigned if p.where == ZERO_G and p.identity != ARTIFICIAL_LIGHT)
    require(
        others <= room,
        f"Your Zero-G card holds {ZERO_G_AT_START} pieces and all your "
        f"{_count(have[ARTIFICIAL_LIGHT], ARTIFICIAL_LIGHT)} must be among them, "
        f"so only {room} other pieces fit there.",
    )


_PLACES = {"board": BOARD, "zero-g": ZERO_G, "zerog": ZERO_G, "zero-gravity": ZERO_G, "zero gravity": ZERO_G}


def _place(value: str) -> str:
    text = " ".join(value.replace("_", "-").lower().split())
    require(text in _PLACES, '"where" must be "board" (a starting point) or "zero-g" (the Zero-G card).')
    return _PLACES[text]


def _assign(state: QuinState, action: Assign) -> list[Event]:
    player = action.player
    _setting_up(state, player)
    require(
        state.side(player).clone is not None,
        "Choose your Clone first: one piece (not your Light or a Shadow) becomes Time, Memory, Void "
        "or an Artificial Light.",
    )
    label = _label(action.label, "label")
    identity = parse_kind(action.identity)
    require(identity is not None, f'"identity" must be one of: {", ".join(KINDS)}.')
    assert identity is not None
    where = _place(action.where)
    have = state.counts_for(player)
    others = _assigned(state, player, leaving_out=label)
    same = [p.label for p in others if p.identity == identity]
    require(
        len(same) < have[identity],
        f"You have {_count(have[identity], identity)}"
        + (f", already labelled {join_labels(same)}." if same else ", so none can be given a label."),
    )
    if where == BOARD:
        require(
            identity != ARTIFICIAL_LIGHT,
            "Artificial Lights start on your Zero-G card; they come onto the board later, on open Gateways.",
        )
        on_board = sum(1 for p in others if p.where == BOARD)
        require(
            on_board < STARTING_POINTS,
            f"All {STARTING_POINTS} starting points are taken: put this piece on your Zero-G card, "
            "or take another back first.",
        )
    else:
        on_card = sum(1 for p in others if p.where == ZERO_G)
        require(
            on_card < ZERO_G_AT_START,
            f"Your Zero-G card already holds {ZERO_G_AT_START} pieces: put this one on a starting point, "
            "or take another back first.",
        )
        _zero_g_room([*others, Piece(player, label, identity, ZERO_G)], have)
    return [PieceAssigned(player, label, identity, where)]


def _unassign(state: QuinState, action: Unassign) -> list[Event]:
    _setting_up(state, action.player)
    label = _label(action.label, "label")
    require(state.piece(action.player, label).identity is not None, f"Label {label} has no identity to take back.")
    return [PieceUnassigned(action.player, label)]


def setup_problems(state: QuinState, player: str) -> list[str]:
    """What still keeps `player`'s setup from being finished (empty when it is ready)."""
    side = state.side(player)
    problems: list[str] = []
    if side.clone is None:
        problems.append("choose your Clone")
    pieces = state.pieces_of(player)
    missing = [p.label for p in pieces if p.identity is None]
    if missing:
        problems.append(f"give an identity to {'label' if len(missing) == 1 else 'labels'} {join_labels(missing)}")
    have = state.counts_for(player)
    for kind in KINDS:
        n = sum(1 for p in pieces if p.identity == kind)
        if not missing and n != have[kind]:
            problems.append(f"you need {_count(have[kind], kind)}, not {n}")
    on_board = sum(1 for p in pieces if p.where == BOARD)
    if not missing and on_board != STARTING_POINTS:
        problems.append(f"put exactly {STARTING_POINTS} pieces on your starting points (now {on_board})")
    if any(p.identity == ARTIFICIAL_LIGHT and p.where == BOARD for p in pieces):
        problems.append("move your Artificial Lights to your Zero-G card")
    return problems


def _setup_done(state: QuinState, action: SetupDone) -> list[Event]:
    player = action.player
    _setting_up(state, player)
    problems = setup_problems(state, player)
    require(not problems, "Your setup is not finished: " + "; ".join(problems) + ".")
    events: list[Event] = [SetupFinished(player)]
    if state.side(state.rival(player)).ready:
        events.append(PlayStarted(state.first or state.names[0]))
    return events


def _setup_all(state: QuinState, action: Setup) -> list[Event]:
    """The whole setup as the single steps it stands for: take every label back, Clone, each label, done."""
    player = action.player
    _setting_up(state, player)
    clone = action.clone
    require(
        "from" in clone and "to" in clone,
        '"clone" must say which face the Clone replaces and what it becomes, '
        'e.g. {"from": "Peripheral", "to": "Time"}.',
    )
    places: dict[str, tuple[str, str]] = {}
    for group, where in ((action.board, BOARD), (action.zero_g, ZERO_G)):
        for label, identity in group.items():
            clean = _label(label, "label")
            require(clean not in places, f"Label {clean} is given twice.")
            places[clean] = (where, identity)
    steps: list[Action] = [
        *(Unassign(player, p.label) for p in _assigned(state, player)),
        Clone(player, clone["from"], clone["to"]),
        *(
            Assign(player, label, identity, where)
            for label, (where, identity) in sorted(places.items(), key=lambda item: int(item[0]))
        ),
    ]
    if action.done:
        steps.append(SetupDone(player))
    events: list[Event] = []
    for step in steps:
        try:
            made = decide(state, step)
        except RuleError as refusal:
            raise RuleError(f"Label {step.label}: {refusal}" if isinstance(step, Assign) else str(refusal)) from None
        for event in made:
            state = evolve(state, event)
        events.extend(made)
    return events


# -- play -----------------------------------------------------------------------------------------


def _in_play(state: QuinState) -> None:
    # Whose turn it is the engine checks; before play starts nobody's turn has come.
    require(state.phase == PLAY, "Play starts once both players have finished their private setup.")


def _where_words(piece: Piece) -> str:
    return {
        ZERO_G: "it is on your Zero-G card",
        OFF: "it has not been placed",
        CAPTURED: "it has been taken",
        REMOVED: "it has been taken",
    }.get(piece.where, "")


def _own_on_board(state: QuinState, player: str, label: str, doing: str = "") -> Piece:
    piece = state.piece(player, label)
    require(piece.where == BOARD, f"Your {label} is not on the board ({_where_words(piece)}){doing}.")
    return piece


def _free_to_move(state: QuinState, piece: Piece) -> None:
    require(
        piece.label not in state.this_turn.held,
        f"Your {piece.label} took part in a Memory swap this turn, so it cannot move again until your next turn.",
    )


def _turn_ends(state: QuinState, player: str) -> Event:
    return TurnEnded(player, state.rival(player))


def _move(state: QuinState, action: Move) -> list[Event]:
    _in_play(state)
    player = action.player
    piece = _own_on_board(state, player, _label(action.label, "label"), ", so it cannot move")
    _free_to_move(state, piece)
    start, to = _text(action.start, "from"), _text(action.to, "to")
    if _is_first_sight(to):
        return _reach_first_sight(state, player, piece, start)
    return [PieceMoved(player, piece.label, start, to), _turn_ends(state, player)]


def _first_sight(state: QuinState, action: ClaimFirstSight) -> list[Event]:
    _in_play(state)
    piece = _own_on_board(state, action.player, _label(action.label, "label"), ", so it cannot reach First Sight")
    _free_to_move(state, piece)
    return _reach_first_sight(state, action.player, piece, _text(action.start, "from"))


def _reach_first_sight(state: QuinState, player: str, piece: Piece, start: str | None) -> list[Event]:
    # Refused in words that hold for every piece that is not the Light: a bluff learns nothing more.
    require(
        piece.identity == LIGHT,
        f"The claim is refused: {player}'s {piece.label} may not stand on First Sight. Play on.",
    )
    return [FirstSightReached(player, piece.label, start), GameWon(player, WON_ON_FIRST_SIGHT)]


def _flash(state: QuinState, action: Flash) -> list[Event]:
    _in_play(state)
    player = action.player
    rival = state.rival(player)
    attacker = state.piece(player, _label(action.attacker, "attacker"))
    defender = state.piece(rival, _label(action.defender, "defender"))
    require(
        attacker.where == BOARD,
        f"Your {attacker.label} is not on the board ({_where_words(attacker)}), so it cannot flash.",
    )
    require(defender.where == BOARD, f"{rival}'s {defender.label} is not on the board, so it cannot be flashed.")
    _free_to_move(state, attacker)
    require(
        state.flash_back_ban != (attacker.key, defender.key),
        f"Your {attacker.label} may not flash back {rival}'s {defender.label}, which flashed it on the very last turn.",
    )
    reflector: str | None = None
    if action.reflector is not None:
        reflector = _label(action.reflector, "reflector")
        mirror = _own_on_board(state, player, reflector, ", so it cannot reflect")
        require(
            mirror.identity == REFLECTOR and attacker.identity in (LIGHT, ARTIFICIAL_LIGHT),
            f"Your {reflector} cannot send your {attacker.label} that way: a Reflector's power takes your "
            "Reflector on the board sending your Light or an Artificial Light.",
        )
    a, d = attacker.identity, defender.identity
    assert a is not None and d is not None
    result = flash_result(a, d, state.capture_rule)
    start, to = _text(action.start, "from"), _text(action.to, "to")
    flashed = Flashed(player, attacker.label, defender.label, a, d, result, reflector, start, to)
    if d == LIGHT and result in (LIGHT_TAKES_LIGHT, CAPTURE):
        return [flashed, GameWon(player, WON_BY_CAPTURE)]
    return [flashed, _turn_ends(state, player)]


def _swap(state: QuinState, action: Swap) -> list[Event]:
    _in_play(state)
    player = action.player
    memory = _own_on_board(state, player, _label(action.memory, "memory"), ", so it cannot swap")
    other = _own_on_board(state, player, _label(action.other, "with"), ", so it cannot be swapped")
    require(memory.label != other.label, "A Memory swaps places with another of your pieces, not with itself.")
    require(
        memory.identity == MEMORY and memory.swaps_left > 0 and memory.label not in state.this_turn.swapped,
        f"Your {memory.label} cannot make a Memory swap now: that takes one of your Memories with a swap left "
        "that has not swapped this turn.",
    )
    return [MemorySwapped(player, memory.label, other.label)]


def _time(state: QuinState, action: UseTime) -> list[Event]:
    _in_play(state)
    player = action.player
    rival = state.rival(player)
    time = _own_on_board(state, player, _label(action.time, "time"), ", so it cannot use a power")
    target = state.piece(rival, _label(action.target, "target"))
    require(target.where == BOARD, f"{rival}'s {target.label} is not on the board, so Time cannot move it.")
    require(
        time.identity == TIME,
        f"Your {time.label} cannot use the power of Time: that takes your Time, on the board.",
    )
    return [TimeUsed(player, time.label, target.label, _text(action.to, "to"))]


def _resurrect(state: QuinState, action: Resurrect) -> list[Event]:
    _in_play(state)
    player = action.player
    rival = state.rival(player)
    require(not state.side(player).totem_used, "Your Resurrection Totem has been used; it works once per game.")
    piece = state.piece(player, _label(action.label, "label"))
    require(piece.taken, f"Your {piece.label} is not on {rival}'s Zero-G card, so the Totem cannot bring it back.")
    require(
        piece.how != HOW_USED,
        f"Your {piece.label} (Time) went to {rival}'s Zero-G card by using its power; the Totem brings back "
        "pieces taken in a flash.",
    )
    require(
        piece.taken_on_turn < state.turn_number - 1,
        f"Your {piece.label} was taken on the very last move; the Totem may bring it back from your next turn on.",
    )
    return [Resurrected(player, piece.label, _text(action.to, "to"))]


def _bring_in(state: QuinState, action: BringIn) -> list[Event]:
    _in_play(state)
    player = action.player
    labels = _labels(action.labels, "labels") if action.labels is not None else [_label(action.label, "label")]
    pieces = [state.piece(player, label) for label in labels]
    for piece in pieces:
        require(piece.where == ZERO_G, f"Your {piece.label} is not on your Zero-G card ({_where_words(piece)}).")
    require(
        len(pieces) == 1 or all(p.identity == ARTIFICIAL_LIGHT for p in pieces),
        "Only Artificial Lights may come in together, one on each open Gateway; other pieces come in one a turn.",
    )
    return [BroughtIn(player, tuple(labels), _text(action.to, "to")), _turn_ends(state, player)]


def _gravity(state: QuinState, action: Gravity) -> list[Event]:
    _in_play(state)
    player = action.player
    caster = _own_on_board(state, player, _label(action.void, "void"), ", so it cannot cast Void Gravity")
    moved = [
        _own_on_board(state, player, label, ", so Void Gravity cannot move it")
        for label in _labels(action.voids, "voids")
    ]
    require(caster.label not in [p.label for p in moved], "The Void casting Gravity stays where it is.")
    for piece in moved:
        _free_to_move(state, piece)
    require(
        caster.identity == VOID and all(p.identity == VOID for p in moved),
        "Void Gravity is refused: it takes your Void on the board casting it, and moves only your other Voids "
        "on the board.",
    )
    voids = tuple(p.label for p in moved)
    return [GravityCast(player, caster.label, voids, _text(action.to, "to")), _turn_ends(state, player)]


def _reflect(state: QuinState, action: Reflect) -> list[Event]:
    _in_play(state)
    player = action.player
    mirror = _own_on_board(state, player, _label(action.reflector, "reflector"), ", so it cannot reflect")
    piece = _own_on_board(state, player, _label(action.piece, "piece"), ", so it cannot be sent")
    require(mirror.label != piece.label, "A Reflector sends another of your pieces, not itself.")
    _free_to_move(state, piece)
    require(
        mirror.identity == REFLECTOR and piece.identity in (LIGHT, ARTIFICIAL_LIGHT),
        f"Your {mirror.label} cannot send your {piece.label}: a Reflector's power takes your Reflector on the "
        "board sending your Light or an Artificial Light.",
    )
    return [Reflected(player, mirror.label, piece.label, _text(action.to, "to")), _turn_ends(state, player)]


# -- what a player may do now --------------------------------------------------------------------------


def legal_actions(state: QuinState, player: str) -> list[Action]:
    """Every action `player` may take now, with no "from" or "to" filled in (the one-action `Setup` is
    not listed: its single steps are).

    The list follows `player`'s hidden identities (only a Memory is offered a swap), so it is as
    private as their private view: show it only where that view may go.
    """
    if player not in state.names or state.result is not None:
        return []
    if state.phase == SETUP:
        candidates = _setup_candidates(state, player)
    elif state.phase == PLAY and state.turn == player:
        candidates = _play_candidates(state, player)
    else:
        return []
    return [action for action in candidates if _allowed(state, action)]


def _allowed(state: QuinState, action: Action) -> bool:
    try:
        decide(state, action)
    except RuleError:
        return False
    return True


def _setup_candidates(state: QuinState, player: str) -> Iterator[Action]:
    if state.side(player).ready:
        return
    for taken in CLONE_FROM:
        for made in CLONE_TO:
            yield Clone(player, taken, made)
    for piece in state.pieces_of(player):
        for kind in KINDS:
            for where in (BOARD, ZERO_G):
                if (piece.identity, piece.where) != (kind, where):
                    yield Assign(player, piece.label, kind, where)
        if piece.identity is not None:
            yield Unassign(player, piece.label)
    yield SetupDone(player)


def _play_candidates(state: QuinState, player: str) -> Iterator[Action]:
    # Candidates are narrowed by the player's own identities; `decide` has the last word on each.
    own = state.pieces_of(player)
    board = [p for p in own if p.where == BOARD]
    rivals = [p.label for p in state.pieces_of(state.rival(player)) if p.where == BOARD]

    def of(*kinds: str) -> list[str]:
        return [p.label for p in board if p.identity in kinds]

    for piece in board:
        yield Move(player, piece.label)
        yield ClaimFirstSight(player, piece.label)
        for defender in rivals:
            yield Flash(player, piece.label, defender)
    for reflector in of(REFLECTOR):
        for light in of(LIGHT, ARTIFICIAL_LIGHT):
            yield Reflect(player, reflector, light)
            for defender in rivals:
                yield Flash(player, light, defender, reflector=reflector)
    for memory in of(MEMORY):
        for piece in board:
            yield Swap(player, memory, piece.label)
    for time in of(TIME):
        for target in rivals:
            yield UseTime(player, time, target)
    for piece in own:
        if piece.taken:
            yield Resurrect(player, piece.label)
        if piece.where == ZERO_G:
            yield BringIn(player, label=piece.label)
    waiting = [p.label for p in own if p.where == ZERO_G and p.identity == ARTIFICIAL_LIGHT]
    for size in range(2, len(waiting) + 1):
        for together in combinations(waiting, size):
            yield BringIn(player, labels=together)
    voids = of(VOID)
    for caster in voids:
        others = [v for v in voids if v != caster]
        for size in range(1, len(others) + 1):
            for moved in combinations(others, size):
                yield Gravity(player, caster, moved)
    yield Pass(player)


# -- applying events ---------------------------------------------------------------------------------


def _take(state: QuinState, key: PieceKey, how: str) -> QuinState:
    piece = state.piece(*key)
    where = CAPTURED if how == HOW_CAPTURED else REMOVED
    return state.with_piece(replace(piece, where=where, how=how, revealed=True, taken_on_turn=state.turn_number))


def _reveal(state: QuinState, key: PieceKey) -> QuinState:
    return state.with_piece(replace(state.piece(*key), revealed=True))


def evolve(state: QuinState, event: Event) -> QuinState:
    """The state after `event`. Pure; never fails on an event `decide` made."""
    match event:
        case FirstPlayerChosen(player=first):
            # The engine takes this only before play begins: in play it is still the first turn.
            return replace(state, first=first, turn=first if state.phase == PLAY else state.turn)
        case CloneChosen():
            side = state.side(event.player)
            return state.with_side(replace(side, clone=(event.taken, event.made)))
        case PieceAssigned():
            piece = state.piece(event.player, event.label)
            return state.with_piece(replace(piece, identity=event.identity, where=event.where))
        case PieceUnassigned():
            piece = state.piece(event.player, event.label)
            return state.with_piece(replace(piece, identity=None, where=OFF))
        case SetupFinished():
            return state.with_side(replace(state.side(event.player), ready=True))
        case PlayStarted():
            return replace(state, phase=PLAY, turn=event.player, turn_number=1)
        case TurnEnded():
            flash = state.this_turn.flash
            return replace(
                state,
                turn=event.next_player,
                turn_number=state.turn_number + 1,
                last_move=(event.player, state.this_turn.steps),
                flash_back_ban=(flash[1], flash[0]) if flash else None,
                this_turn=TurnSoFar(),
            )
        case GameWon():
            return replace(
                state,
                phase=OVER,
                turn=None,
                pieces=tuple(replace(p, revealed=True) for p in state.pieces),
                result=Result(event.player, event.reason),
                last_move=(event.player, state.this_turn.steps),
                this_turn=TurnSoFar(),
                flash_back_ban=None,
            )
        case (
            PieceMoved()
            | FirstSightReached()
            | Flashed()
            | MemorySwapped()
            | TimeUsed()
            | Resurrected()
            | BroughtIn()
            | GravityCast()
            | Reflected()
            | Passed()
        ):
            return _evolve_step(state, event).with_step(event)
    raise UnknownEvent("Quin", event)


def _evolve_step(state: QuinState, event: Step) -> QuinState:
    """What a step of a turn changes besides being told as part of the turn."""
    player = event.player
    match event:
        case FirstSightReached():
            return _reveal(state, (player, event.label))
        case Flashed():
            return _evolve_flash(state, event)
        case MemorySwapped():
            memory = state.piece(player, event.memory)
            state = state.with_piece(replace(memory, swaps_left=memory.swaps_left - 1))
            side = state.side(player)
            state = state.with_side(replace(side, memory_swaps=side.memory_swaps + 1))
            turn = state.this_turn
            swapped, held = (*turn.swapped, event.memory), (*turn.held, event.memory, event.other)
            return replace(state, this_turn=replace(turn, swapped=swapped, held=held))
        case TimeUsed():
            state = _take(state, (player, event.time), HOW_USED)
            side = state.side(player)
            return state.with_side(replace(side, times_used=side.times_used + 1))
        case Resurrected():
            piece = state.piece(player, event.label)
            state = state.with_piece(
                replace(piece, where=BOARD, how="", taken_on_turn=0, swaps_left=MEMORY_SWAPS, resurrected=True)
            )
            return state.with_side(replace(state.side(player), totem_used=True))
        case BroughtIn():
            for label in event.labels:
                state = state.with_piece(replace(state.piece(player, label), where=BOARD))
            return state
        case GravityCast():
            side = state.side(player)
            return state.with_side(replace(side, gravity_casts=side.gravity_casts + 1))
        case Reflected():
            side = state.side(player)
            return state.with_side(replace(side, reflector_uses=side.reflector_uses + 1))
    return state  # a move or a pass changes nothing the companion keeps, but the record of the turn


def _evolve_flash(state: QuinState, event: Flashed) -> QuinState:
    attacker: PieceKey = (event.player, event.attacker)
    defender: PieceKey = (state.rival(event.player), event.defender)
    state = _reveal(_reveal(state, attacker), defender)
    if event.result in (LIGHT_TAKES_LIGHT, CAPTURE):
        state = _take(state, defender, HOW_CAPTURED)
    elif event.result == MUTUAL_DESTRUCTION:
        state = _take(_take(state, attacker, HOW_DESTROYED), defender, HOW_DESTROYED)
    elif event.result == ANNIHILATION:
        state = _take(_take(state, attacker, HOW_ANNIHILATED), defender, HOW_ANNIHILATED)
    if event.reflector:
        side = state.side(event.player)
        state = state.with_side(replace(side, reflector_uses=side.reflector_uses + 1))
    last = LastFlash(attacker, defender, event.attacker_identity, event.defender_identity, event.result)
    return replace(state, last_flash=last, this_turn=replace(state.this_turn, flash=(attacker, defender)))
