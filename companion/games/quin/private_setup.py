"""Quin's private setup: before play each player, alone, picks a Clone and gives every label an identity and a
place. The actions and events of that setup, its referee and how its events change the state; `rules` hands
these actions and events here and keeps play (moves, flashes, the powers) to itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from companion.codec import key, optional
from companion.game import Action, Event, RuleError, Seat, UnknownEvent, require
from companion.games.quin.pieces import (
    ARTIFICIAL_LIGHT,
    CLONE_FROM,
    CLONE_TO,
    KINDS,
    LABELS,
    PLURALS,
    STARTING_POINTS,
    ZERO_G_AT_START,
    counts,
    parse_kind,
)
from companion.games.quin.state import BOARD, OFF, PLAY, SETUP, ZERO_G, Piece, QuinState

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


def read_label(value: PieceLabel | None, name: str) -> str:
    """An action's piece label as the companion keeps it: ``7`` and ``" 7"`` are ``"7"``."""
    text = str(value).strip() if value is not None else ""
    require(text in LABELS, f'"{name}" must be a piece label, {LABELS[0]} to {LABELS[-1]}.')
    return text


def count_of(n: int, kind: str) -> str:
    """``"1 Time"``, ``"2 Memories"``."""
    return f"{n} {kind if n == 1 else PLURALS[kind]}"


def join_labels(labels: Sequence[str]) -> str:
    """``"2, 6 and 11"``: in numeric order, so the order never hints at anything."""
    ordered = sorted(labels, key=int)
    return ordered[0] if len(ordered) == 1 else ", ".join(ordered[:-1]) + " and " + ordered[-1]


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
            f"{count_of(have, kind)} already have labels; with this Clone you would have only {after[kind]}. "
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
        f"{count_of(have[ARTIFICIAL_LIGHT], ARTIFICIAL_LIGHT)} must be among them, "
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
    label = read_label(action.label, "label")
    identity = parse_kind(action.identity)
    require(identity is not None, f'"identity" must be one of: {", ".join(KINDS)}.')
    assert identity is not None
    where = _place(action.where)
    have = state.counts_for(player)
    others = _assigned(state, player, leaving_out=label)
    same = [p.label for p in others if p.identity == identity]
    require(
        len(same) < have[identity],
        f"You have {count_of(have[identity], identity)}"
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
    label = read_label(action.label, "label")
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
    # Nothing else to check: `_clone` and `_assign` already hold each kind to its count, the starting
    # points to 10, the Zero-G card to 7 and Artificial Lights off the board, so 17 labels make a whole layout.
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
            clean = read_label(label, "label")
            require(clean not in places, f"Label {clean} is given twice.")
            places[clean] = (where, identity)
    steps: list[SetupAction] = [
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
            made = decide_setup(state, step)
        except RuleError as refusal:
            raise RuleError(f"Label {step.label}: {refusal}" if isinstance(step, Assign) else str(refusal)) from None
        for event in made:
            state = evolve_setup(state, event)
        events.extend(made)
    return events


def setup_candidates(state: QuinState, player: str) -> Iterator[Action]:
    """The setup actions worth asking `decide` about (the one-action `Setup` is not among them)."""
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


SetupAction = Clone | Assign | Unassign | SetupDone | Setup
SetupEvent = CloneChosen | PieceAssigned | PieceUnassigned | SetupFinished | PlayStarted


def decide_setup(state: QuinState, action: SetupAction) -> list[Event]:
    """The events a setup action causes, or `RuleError` with the reason."""
    match action:
        case Clone():
            return _clone(state, action)
        case Assign():
            return _assign(state, action)
        case Unassign():
            return _unassign(state, action)
        case SetupDone():
            return _setup_done(state, action)
        case _:  # the one left: Setup
            return _setup_all(state, action)


def evolve_setup(state: QuinState, event: Event) -> QuinState:
    """The state after a setup event."""
    match event:
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
    raise UnknownEvent("Quin", event)
