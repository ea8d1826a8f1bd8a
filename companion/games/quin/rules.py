"""Quin's referee: private setup, flashes, powers and their limits, the two ways to win.

`decide` checks an action and returns events; `evolve` applies them. A
refusal whose reason depends on a hidden identity never names that identity:
it says what the action would need ("that takes one of your Memories with a
swap left"), so a refused bluff tells the table no more than that it was
refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.game import Action, Event, RuleError, action_type, first_player_chosen, require
from companion.games.quin.pieces import (
    ADJUSTABLE,
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
    SHADOW,
    STARTING_POINTS,
    TIME,
    VOID,
    ZERO_G_AT_START,
    counts,
    flash_result,
    flash_sentence,
    parse_kind,
)
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
    TurnSoFar,
)

FIRST_SIGHT = "First Sight"
MAX_TEXT = 60
REASON_CAPTURED_LIGHT = "captured_light"
REASON_FIRST_SIGHT = "first_sight"

SETUP_ACTIONS = ("clone", "assign", "unassign", "setup_done", "setup")
PLAY_ACTIONS = (
    "move",
    "flash",
    "swap",
    "time",
    "resurrect",
    "bring_in",
    "gravity",
    "reflect",
    "pass",
    "first_sight",
)


# -- reading an action's fields ------------------------------------------------------------


def _player(state: QuinState, action: Action, key: str = "player") -> str:
    name = action.get(key)
    require(
        isinstance(name, str) and name in state.names,
        f'"{key}" must name a player at the table: {state.names[0]} or {state.names[1]}.',
    )
    return str(name)


def _label(action: Action, key: str) -> str:
    value = action.get(key)
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str):
        value = value.strip()
    require(
        isinstance(value, str) and value in LABELS,
        f'"{key}" must be a piece label, {LABELS[0]} to {LABELS[-1]}.',
    )
    return str(value)


def _labels(action: Action, key: str) -> list[str]:
    value = action.get(key)
    if not isinstance(value, list) or not value:
        raise RuleError(f'"{key}" must be a list of piece labels, e.g. ["12", "13"].')
    labels = [_label({key: item}, key) for item in value]
    require(len(set(labels)) == len(labels), f'"{key}" names the same piece twice.')
    return labels


def _text(action: Action, key: str) -> str | None:
    """An optional free-text board point ("Gateway 2", "Iris"): what the table calls the space."""
    value = action.get(key)
    if value is None:
        return None
    require(
        isinstance(value, str) and len(value.strip()) <= MAX_TEXT,
        f'"{key}" must be the name of a space, in at most {MAX_TEXT} characters.',
    )
    return str(value).strip() or None


def _count(n: int, kind: str) -> str:
    return f"{n} {kind if n == 1 else PLURALS[kind]}"


def _join(labels: Sequence[str]) -> str:
    ordered = sorted(labels, key=int)  # numeric order, so the order never hints at anything
    return ordered[0] if len(ordered) == 1 else ", ".join(ordered[:-1]) + " and " + ordered[-1]


def _is_first_sight(text: str | None) -> bool:
    return text is not None and " ".join(text.replace("-", " ").lower().split()) == "first sight"


# -- the referee ---------------------------------------------------------------------------


def decide(state: QuinState, action: Action, _dice: object = None) -> list[Event]:
    """The events `action` causes, or `RuleError` with the reason."""
    kind = action_type(action)
    if state.phase == OVER:
        raise RuleError("The game is over; every identity is now shown on the table's screen.")
    handler = _HANDLERS.get(kind)
    if handler is None:
        words = ", ".join(("choose_first", *SETUP_ACTIONS, *PLAY_ACTIONS))
        raise RuleError(f'Quin has no action "{kind}"; the actions are {words}.')
    return handler(state, action)


def _choose_first(state: QuinState, action: Action) -> list[Event]:
    require(not state.play_begun, "Who goes first can only be chosen before the first turn is played.")
    return [first_player_chosen(action, state.names)]


# -- private setup -----------------------------------------------------------------------------


def _setting_up(state: QuinState, action: Action) -> str:
    require(state.phase == SETUP, "Setup is over: the game is being played.")
    player = _player(state, action)
    require(not state.side(player).ready, f"{player} has already finished their setup.")
    return player


def _clone(state: QuinState, action: Action) -> list[Event]:
    player = _setting_up(state, action)
    taken, made = parse_kind(action.get("from")), parse_kind(action.get("to"))
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
    return [{"type": "clone_chosen", "player": player, "from": taken, "to": made}]


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


def _place(value: object) -> str:
    text = " ".join(str(value).replace("_", "-").lower().split()) if isinstance(value, str) else ""
    place = {"board": BOARD, "zero-g": ZERO_G, "zerog": ZERO_G, "zero-gravity": ZERO_G, "zero gravity": ZERO_G}
    require(text in place, '"where" must be "board" (a starting point) or "zero-g" (the Zero-G card).')
    return place[text]


def _assign(state: QuinState, action: Action) -> list[Event]:
    player = _setting_up(state, action)
    side = state.side(player)
    require(
        side.clone is not None,
        "Choose your Clone first: one piece (not your Light or a Shadow) becomes Time, Memory, Void "
        "or an Artificial Light.",
    )
    label = _label(action, "label")
    identity = parse_kind(action.get("identity"))
    require(identity is not None, f'"identity" must be one of: {", ".join(KINDS)}.')
    assert identity is not None
    where = _place(action.get("where"))
    have = state.counts_for(player)
    others = _assigned(state, player, leaving_out=label)
    same = sorted((p.label for p in others if p.identity == identity), key=int)
    require(
        len(same) < have[identity],
        f"You have {_count(have[identity], identity)}"
        + (f", already labelled {_join(same)}." if same else ", so none can be given a label."),
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
    return [{"type": "piece_assigned", "player": player, "label": label, "identity": identity, "where": where}]


def _unassign(state: QuinState, action: Action) -> list[Event]:
    player = _setting_up(state, action)
    label = _label(action, "label")
    require(state.piece(player, label).identity is not None, f"Label {label} has no identity to take back.")
    return [{"type": "piece_unassigned", "player": player, "label": label}]


def setup_problems(state: QuinState, player: str) -> list[str]:
    """What still keeps `player`'s setup from being finished (empty when it is ready)."""
    side = state.side(player)
    problems: list[str] = []
    if side.clone is None:
        problems.append("choose your Clone")
    pieces = state.pieces_of(player)
    missing = [p.label for p in pieces if p.identity is None]
    if missing:
        problems.append(f"give an identity to {'label' if len(missing) == 1 else 'labels'} {_join(missing)}")
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


def _setup_done(state: QuinState, action: Action) -> list[Event]:
    player = _setting_up(state, action)
    problems = setup_problems(state, player)
    require(not problems, "Your setup is not finished: " + "; ".join(problems) + ".")
    events: list[Event] = [{"type": "setup_finished", "player": player}]
    if state.side(state.rival(player)).ready:
        events.append({"type": "play_started", "player": state.first or state.names[0]})
    return events


def _setup_all(state: QuinState, action: Action) -> list[Event]:
    """The whole setup in one action: Clone, every label, and (unless ``"done": false``) finished."""
    player = _setting_up(state, action)
    clone = action.get("clone")
    require(
        isinstance(clone, Mapping),
        '"clone" must say which face the Clone replaces and what it becomes, '
        'e.g. {"from": "Peripheral", "to": "Time"}.',
    )
    assert isinstance(clone, Mapping)
    places: dict[str, tuple[str, object]] = {}
    for key, where in (("board", "board"), ("zero_g", "zero-g")):
        group = action.get(key)
        require(isinstance(group, Mapping), f'"{key}" must map labels to identities, e.g. {{"1": "Light"}}.')
        assert isinstance(group, Mapping)
        for label, identity in group.items():
            clean = _label({"label": label}, "label")
            require(clean not in places, f"Label {clean} is given twice.")
            places[clean] = (where, identity)
    steps: list[Action] = [
        *({"type": "unassign", "player": player, "label": p.label} for p in _assigned(state, player)),
        {"type": "clone", "player": player, "from": clone.get("from"), "to": clone.get("to")},
        *(
            {"type": "assign", "player": player, "label": label, "identity": identity, "where": where}
            for label, (where, identity) in sorted(places.items(), key=lambda item: int(item[0]))
        ),
    ]
    finish = action.get("done", True)
    require(isinstance(finish, bool), '"done" must be true (finish the setup) or false (keep adjusting it).')
    if finish:
        steps.append({"type": "setup_done", "player": player})
    events: list[Event] = []
    for step in steps:
        try:
            made = _HANDLERS[str(step["type"])](state, step)
        except RuleError as refusal:
            label = step.get("label")
            raise RuleError(
                f"Label {label}: {refusal}" if label and step["type"] == "assign" else str(refusal)
            ) from None
        for event in made:
            state = evolve(state, event)
        events.extend(made)
    return events


# -- play -----------------------------------------------------------------------------------------


def _on_turn(state: QuinState, action: Action) -> str:
    require(state.phase == PLAY, "Play starts once both players have finished their private setup.")
    player = _player(state, action)
    require(player == state.turn, f"It is {state.turn}'s turn.")
    return player


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
    return {"type": "turn_ended", "player": player, "next": state.rival(player)}


def _move(state: QuinState, action: Action) -> list[Event]:
    player = _on_turn(state, action)
    label = _label(action, "label")
    piece = _own_on_board(state, player, label, ", so it cannot move")
    _free_to_move(state, piece)
    start, to = _text(action, "from"), _text(action, "to")
    if _is_first_sight(to):
        return _reach_first_sight(state, player, piece, start)
    moved = {"type": "piece_moved", "player": player, "label": label, "from": start, "to": to}
    return [moved, _turn_ends(state, player)]


def _first_sight(state: QuinState, action: Action) -> list[Event]:
    player = _on_turn(state, action)
    label = _label(action, "label")
    piece = _own_on_board(state, player, label, ", so it cannot reach First Sight")
    _free_to_move(state, piece)
    return _reach_first_sight(state, player, piece, _text(action, "from"))


def _reach_first_sight(state: QuinState, player: str, piece: Piece, start: str | None) -> list[Event]:
    # Refused in words that hold for every piece that is not the Light: a bluff learns nothing more.
    require(
        piece.identity == LIGHT,
        f"The claim is refused: {player}'s {piece.label} may not stand on First Sight. Play on.",
    )
    detail = f"{player}'s {piece.label} (Light) reached First Sight."
    return [
        {"type": "first_sight_reached", "player": player, "label": piece.label, "from": start},
        {"type": "game_won", "player": player, "reason": REASON_FIRST_SIGHT, "detail": detail},
    ]


def _flash(state: QuinState, action: Action) -> list[Event]:
    player = _on_turn(state, action)
    rival = state.rival(player)
    attacker = state.piece(player, _label(action, "attacker"))
    defender = state.piece(rival, _label(action, "defender"))
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
    if action.get("reflector") is not None:
        reflector = _label(action, "reflector")
        mirror = _own_on_board(state, player, reflector, ", so it cannot reflect")
        require(
            mirror.identity == REFLECTOR and attacker.identity in (LIGHT, ARTIFICIAL_LIGHT),
            f"Your {reflector} cannot send your {attacker.label} that way: a Reflector's power takes your "
            "Reflector on the board sending your Light or an Artificial Light.",
        )
    a, d = attacker.identity, defender.identity
    assert a is not None and d is not None
    result = flash_result(a, d, state.capture_rule)
    wins = d == LIGHT and result in (LIGHT_TAKES_LIGHT, CAPTURE)
    sentence = flash_sentence(
        f"{player}'s {attacker.label} ({a})",
        f"{rival}'s {defender.label} ({d})",
        result,
        winner=player if wins else None,
    )
    flashed = {
        "type": "flashed",
        "player": player,
        "attacker": attacker.label,
        "defender": defender.label,
        "attacker_identity": a,
        "defender_identity": d,
        "result": result,
        "sentence": sentence,
        "reflector": reflector,
        "from": _text(action, "from"),
        "to": _text(action, "to"),
    }
    if wins:
        return [flashed, {"type": "game_won", "player": player, "reason": REASON_CAPTURED_LIGHT, "detail": sentence}]
    return [flashed, _turn_ends(state, player)]


def _swap(state: QuinState, action: Action) -> list[Event]:
    player = _on_turn(state, action)
    memory = _own_on_board(state, player, _label(action, "memory"), ", so it cannot swap")
    other = _own_on_board(state, player, _label(action, "with"), ", so it cannot be swapped")
    require(memory.label != other.label, "A Memory swaps places with another of your pieces, not with itself.")
    require(
        memory.identity == MEMORY and memory.swaps_left > 0 and memory.label not in state.this_turn.swapped,
        f"Your {memory.label} cannot make a Memory swap now: that takes one of your Memories with a swap left "
        "that has not swapped this turn.",
    )
    return [{"type": "memory_swapped", "player": player, "memory": memory.label, "with": other.label}]


def _time(state: QuinState, action: Action) -> list[Event]:
    player = _on_turn(state, action)
    rival = state.rival(player)
    time = _own_on_board(state, player, _label(action, "time"), ", so it cannot use a power")
    target = state.piece(rival, _label(action, "target"))
    require(target.where == BOARD, f"{rival}'s {target.label} is not on the board, so Time cannot move it.")
    require(
        time.identity == TIME,
        f"Your {time.label} cannot use the power of Time: that takes your Time, on the board.",
    )
    return [
        {"type": "time_used", "player": player, "time": time.label, "target": target.label, "to": _text(action, "to")}
    ]


def _resurrect(state: QuinState, action: Action) -> list[Event]:
    player = _on_turn(state, action)
    rival = state.rival(player)
    require(not state.side(player).totem_used, "Your Resurrection Totem has been used; it works once per game.")
    piece = state.piece(player, _label(action, "label"))
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
    return [{"type": "resurrected", "player": player, "label": piece.label, "to": _text(action, "to")}]


def _bring_in(state: QuinState, action: Action) -> list[Event]:
    player = _on_turn(state, action)
    labels = _labels(action, "labels") if "labels" in action else [_label(action, "label")]
    pieces = [state.piece(player, label) for label in labels]
    for piece in pieces:
        require(piece.where == ZERO_G, f"Your {piece.label} is not on your Zero-G card ({_where_words(piece)}).")
    require(
        len(pieces) == 1 or all(p.identity == ARTIFICIAL_LIGHT for p in pieces),
        "Only Artificial Lights may come in together, one on each open Gateway; other pieces come in one a turn.",
    )
    return [
        {"type": "brought_in", "player": player, "labels": labels, "to": _text(action, "to")},
        _turn_ends(state, player),
    ]


def _gravity(state: QuinState, action: Action) -> list[Event]:
    player = _on_turn(state, action)
    caster = _own_on_board(state, player, _label(action, "void"), ", so it cannot cast Void Gravity")
    moved = [
        _own_on_board(state, player, label, ", so Void Gravity cannot move it") for label in _labels(action, "voids")
    ]
    require(caster.label not in [p.label for p in moved], "The Void casting Gravity stays where it is.")
    for piece in moved:
        _free_to_move(state, piece)
    require(
        caster.identity == VOID and all(p.identity == VOID for p in moved),
        "Void Gravity is refused: it takes your Void on the board casting it, and moves only your other Voids "
        "on the board.",
    )
    return [
        {
            "type": "gravity_cast",
            "player": player,
            "void": caster.label,
            "voids": [p.label for p in moved],
            "to": _text(action, "to"),
        },
        _turn_ends(state, player),
    ]


def _reflect(state: QuinState, action: Action) -> list[Event]:
    player = _on_turn(state, action)
    mirror = _own_on_board(state, player, _label(action, "reflector"), ", so it cannot reflect")
    piece = _own_on_board(state, player, _label(action, "piece"), ", so it cannot be sent")
    require(mirror.label != piece.label, "A Reflector sends another of your pieces, not itself.")
    _free_to_move(state, piece)
    require(
        mirror.identity == REFLECTOR and piece.identity in (LIGHT, ARTIFICIAL_LIGHT),
        f"Your {mirror.label} cannot send your {piece.label}: a Reflector's power takes your Reflector on the "
        "board sending your Light or an Artificial Light.",
    )
    return [
        {
            "type": "reflected",
            "player": player,
            "reflector": mirror.label,
            "piece": piece.label,
            "to": _text(action, "to"),
        },
        _turn_ends(state, player),
    ]


def _pass(state: QuinState, action: Action) -> list[Event]:
    player = _on_turn(state, action)
    return [{"type": "passed", "player": player}, _turn_ends(state, player)]


_HANDLERS: dict[str, Callable[[QuinState, Action], list[Event]]] = {
    "choose_first": _choose_first,
    "clone": _clone,
    "assign": _assign,
    "unassign": _unassign,
    "setup_done": _setup_done,
    "setup": _setup_all,
    "move": _move,
    "first_sight": _first_sight,
    "flash": _flash,
    "swap": _swap,
    "time": _time,
    "resurrect": _resurrect,
    "bring_in": _bring_in,
    "gravity": _gravity,
    "reflect": _reflect,
    "pass": _pass,
}


# -- applying events ---------------------------------------------------------------------------------


def _where_to(text: Any) -> str:
    return f" to {text}" if text else ""


def _take(state: QuinState, key: PieceKey, how: str) -> QuinState:
    piece = state.piece(*key)
    where = CAPTURED if how == HOW_CAPTURED else REMOVED
    return state.with_piece(replace(piece, where=where, how=how, revealed=True, taken_on_turn=state.turn_number))


def _reveal(state: QuinState, key: PieceKey) -> QuinState:
    return state.with_piece(replace(state.piece(*key), revealed=True))


def evolve(state: QuinState, event: Event) -> QuinState:
    """The state after `event`. Pure; never fails on an event `decide` made."""
    kind = event["type"]
    player: str = event.get("player", "")
    if kind == "first_player_chosen":
        turn = event["player"] if state.phase == PLAY and not state.play_begun else state.turn
        return replace(state, first=event["player"], turn=turn)
    if kind == "clone_chosen":
        side = state.side(player)
        return state.with_side(replace(side, clone=(event["from"], event["to"])))
    if kind == "piece_assigned":
        piece = state.piece(player, event["label"])
        return state.with_piece(replace(piece, identity=event["identity"], where=event["where"]))
    if kind == "piece_unassigned":
        piece = state.piece(player, event["label"])
        return state.with_piece(replace(piece, identity=None, where=OFF))
    if kind == "setup_finished":
        return state.with_side(replace(state.side(player), ready=True))
    if kind == "play_started":
        return replace(state, phase=PLAY, turn=event["player"], turn_number=1)
    if kind == "turn_ended":
        flash = state.this_turn.flash
        return replace(
            state,
            turn=event["next"],
            turn_number=state.turn_number + 1,
            last_move=(player, state.this_turn.steps),
            flash_back_ban=(flash[1], flash[0]) if flash else None,
            this_turn=TurnSoFar(),
        )
    if kind == "game_won":
        return replace(
            state,
            phase=OVER,
            turn=None,
            pieces=tuple(replace(p, revealed=True) for p in state.pieces),
            result=Result(player, event["reason"], event["detail"]),
            last_move=(player, state.this_turn.steps),
            this_turn=TurnSoFar(),
            flash_back_ban=None,
        )
    return _evolve_play(state, event)


def _evolve_play(state: QuinState, event: Event) -> QuinState:
    kind = event["type"]
    player: str = event["player"]
    rival = state.rival(player)
    if kind == "piece_moved":
        start = f" from {event['from']}" if event.get("from") else ""
        return state.with_step(f"{player} moved {event['label']}{start}{_where_to(event.get('to'))}.")
    if kind == "first_sight_reached":
        state = _reveal(state, (player, event["label"]))
        return state.with_step(f"{player} moved {event['label']} (Light) to First Sight.")
    if kind == "passed":
        return state.with_step(f"{player} passed.")
    if kind == "flashed":
        return _evolve_flash(state, event)
    if kind == "memory_swapped":
        memory = state.piece(player, event["memory"])
        state = state.with_piece(replace(memory, swaps_left=memory.swaps_left - 1))
        side = state.side(player)
        state = state.with_side(replace(side, memory_swaps=side.memory_swaps + 1))
        turn = state.this_turn
        state = replace(
            state,
            this_turn=replace(
                turn,
                swapped=(*turn.swapped, event["memory"]),
                held=(*turn.held, event["memory"], event["with"]),
            ),
        )
        return state.with_step(
            f"{player} made a Memory swap: {_join([event['memory'], event['with']])} swapped places."
        )
    if kind == "time_used":
        state = _take(state, (player, event["time"]), HOW_USED)
        side = state.side(player)
        state = state.with_side(replace(side, times_used=side.times_used + 1))
        return state.with_step(
            f"{player}'s {event['time']} (Time) moved {rival}'s {event['target']} back{_where_to(event.get('to'))}, "
            f"then went to {rival}'s Zero-G card."
        )
    if kind == "resurrected":
        piece = state.piece(player, event["label"])
        state = state.with_piece(
            replace(piece, where=BOARD, how="", taken_on_turn=0, swaps_left=MEMORY_SWAPS, resurrected=True)
        )
        side = state.side(player)
        state = state.with_side(
            replace(side, totem_used=True, shadow_resurrected=side.shadow_resurrected or piece.identity == SHADOW)
        )
        at = f" on {event['to']}" if event.get("to") else " on a Gateway"
        return state.with_step(
            f"{player} used the Resurrection Totem: {event['label']} ({piece.identity}) is back{at}."
        )
    if kind == "brought_in":
        for label in event["labels"]:
            state = state.with_piece(replace(state.piece(player, label), where=BOARD))
        at = f" on {event['to']}" if event.get("to") else ""
        return state.with_step(f"{player} brought {_join(event['labels'])} in{at}.")
    if kind == "gravity_cast":
        side = state.side(player)
        state = state.with_side(replace(side, gravity_casts=side.gravity_casts + 1))
        return state.with_step(
            f"{player} cast Void Gravity: {_join(event['voids'])} moved{_where_to(event.get('to'))}."
        )
    if kind == "reflected":
        side = state.side(player)
        state = state.with_side(replace(side, reflector_uses=side.reflector_uses + 1))
        return state.with_step(f"{player} used a Reflector: {event['piece']} moved{_where_to(event.get('to'))}.")
    return state  # an event this version does not know changes nothing


def _evolve_flash(state: QuinState, event: Event) -> QuinState:
    player: str = event["player"]
    rival = state.rival(player)
    attacker: PieceKey = (player, event["attacker"])
    defender: PieceKey = (rival, event["defender"])
    state = _reveal(_reveal(state, attacker), defender)
    result = event["result"]
    if result in (LIGHT_TAKES_LIGHT, CAPTURE):
        state = _take(state, defender, HOW_CAPTURED)
    elif result == MUTUAL_DESTRUCTION:
        state = _take(_take(state, attacker, HOW_DESTROYED), defender, HOW_DESTROYED)
    elif result == ANNIHILATION:
        state = _take(_take(state, attacker, HOW_ANNIHILATED), defender, HOW_ANNIHILATED)
    step = event["sentence"]
    if event.get("reflector"):
        side = state.side(player)
        state = state.with_side(replace(side, reflector_uses=side.reflector_uses + 1))
        step = f"{player} used a Reflector. {step}"
    last = LastFlash(
        attacker, defender, event["attacker_identity"], event["defender_identity"], result, event["sentence"]
    )
    state = replace(state, last_flash=last, this_turn=replace(state.this_turn, flash=(attacker, defender)))
    return state.with_step(step)


__all__ = ["ADJUSTABLE", "decide", "evolve", "setup_problems"]
