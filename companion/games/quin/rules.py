"""Quin's referee: flashes, powers and their limits, the two ways to win; the private setup before play is
`private_setup`'s, whose actions and events are named here too.

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

from collections.abc import Iterator, Sequence
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
    LABELS,
    LIGHT,
    LIGHT_TAKES_LIGHT,
    MEMORY,
    MEMORY_SWAPS,
    MUTUAL_DESTRUCTION,
    REFLECTOR,
    TIME,
    VOID,
    flash_result,
)

# The setup's actions and events are this game's too: importers find every one here.
from companion.games.quin.private_setup import (
    Assign as Assign,
)
from companion.games.quin.private_setup import (
    Clone as Clone,
)
from companion.games.quin.private_setup import (
    CloneChosen as CloneChosen,
)
from companion.games.quin.private_setup import (
    PieceAssigned as PieceAssigned,
)
from companion.games.quin.private_setup import (
    PieceLabel as PieceLabel,
)
from companion.games.quin.private_setup import (
    PieceUnassigned as PieceUnassigned,
)
from companion.games.quin.private_setup import (
    PlayStarted as PlayStarted,
)
from companion.games.quin.private_setup import (
    Setup as Setup,
)
from companion.games.quin.private_setup import (
    SetupDone as SetupDone,
)
from companion.games.quin.private_setup import (
    SetupFinished as SetupFinished,
)
from companion.games.quin.private_setup import (
    Unassign as Unassign,
)
from companion.games.quin.private_setup import decide_setup, evolve_setup, read_label, setup_candidates
from companion.games.quin.private_setup import (
    join_labels as join_labels,
)
from companion.games.quin.private_setup import (
    setup_problems as setup_problems,
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


def _labels(values: Sequence[PieceLabel], name: str) -> list[str]:
    if not values:
        raise RuleError(f'"{name}" must be a list of piece labels, e.g. ["12", "13"].')
    labels = [read_label(value, name) for value in values]
    require(len(set(labels)) == len(labels), f'"{name}" names the same piece twice.')
    return labels


def _text(value: str | None, name: str) -> str | None:
    """An optional free-text board point ("Gateway 2", "Iris"): what the table calls the space."""
    if value is None:
        return None
    require(len(value.strip()) <= MAX_TEXT, f'"{name}" must be the name of a space, in at most {MAX_TEXT} characters.')
    return value.strip() or None


def _is_first_sight(text: str | None) -> bool:
    return text is not None and " ".join(text.replace("-", " ").lower().split()) == "first sight"


# -- the referee ---------------------------------------------------------------------------


def decide(state: QuinState, action: Action, dice: Dice | None = None) -> list[Event]:
    """The events `action` causes, or `RuleError` with the reason. Quin rolls no dice."""
    match action:
        case Clone() | Assign() | Unassign() | SetupDone() | Setup():
            return decide_setup(state, action)
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
    piece = _own_on_board(state, player, read_label(action.label, "label"), ", so it cannot move")
    _free_to_move(state, piece)
    start, to = _text(action.start, "from"), _text(action.to, "to")
    if _is_first_sight(to):
        return _reach_first_sight(state, player, piece, start)
    return [PieceMoved(player, piece.label, start, to), _turn_ends(state, player)]


def _first_sight(state: QuinState, action: ClaimFirstSight) -> list[Event]:
    _in_play(state)
    piece = _own_on_board(state, action.player, read_label(action.label, "label"), ", so it cannot reach First Sight")
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
    attacker = state.piece(player, read_label(action.attacker, "attacker"))
    defender = state.piece(rival, read_label(action.defender, "defender"))
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
        reflector = read_label(action.reflector, "reflector")
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
    memory = _own_on_board(state, player, read_label(action.memory, "memory"), ", so it cannot swap")
    other = _own_on_board(state, player, read_label(action.other, "with"), ", so it cannot be swapped")
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
    time = _own_on_board(state, player, read_label(action.time, "time"), ", so it cannot use a power")
    target = state.piece(rival, read_label(action.target, "target"))
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
    piece = state.piece(player, read_label(action.label, "label"))
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
    labels = _labels(action.labels, "labels") if action.labels is not None else [read_label(action.label, "label")]
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
    caster = _own_on_board(state, player, read_label(action.void, "void"), ", so it cannot cast Void Gravity")
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
    mirror = _own_on_board(state, player, read_label(action.reflector, "reflector"), ", so it cannot reflect")
    piece = _own_on_board(state, player, read_label(action.piece, "piece"), ", so it cannot be sent")
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
        candidates = setup_candidates(state, player)
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
        case CloneChosen() | PieceAssigned() | PieceUnassigned() | SetupFinished() | PlayStarted():
            return evolve_setup(state, event)
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
