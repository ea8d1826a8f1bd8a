"""Quin's secrets, checked over random games (hypothesis).

Random setups, then random sequences of legal and illegal actions (and
undos) through a real `Session`. After every step:

- the public view and the rival's private view never name an identity that is
  still hidden, searched in their JSON text: a kind held by some hidden piece
  may appear there only if it was made public some other way (a revealed
  piece of that kind, or its power announced, e.g. "a Memory swap");
- a stronger twin check: swapping the identities of two hidden pieces of the
  same player changes neither the public view nor the rival's private view;
- a piece entry in the public view carries an identity exactly when revealed;
- what `companion play` prints of an event (`public_event`) names no hidden kind, nor
  which piece used a power its owner keeps secret (the Memory, the casting Void, the
  Reflector), nor a Clone's faces or an assigned identity;
- a refusal during play names no hidden kind except the power it was asked for,
  and changes nothing;
- replay of the stored log (Session.load) equals the live game.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st

from companion.game import Options, Player, RuleError
from companion.games.quin.pieces import (
    ARTIFICIAL_LIGHT,
    CLONE_FROM,
    CLONE_TO,
    KINDS,
    LABELS,
    LIGHT,
    MEMORY,
    REFLECTOR,
    TIME,
    VOID,
    ZERO_G_AT_START,
    counts,
)
from companion.games.quin.state import QuinState
from companion.session import Session
from companion.store import Store
from tests.support.depth import examples
from tests.support.quin import ANN, BO, GAME, identity_words

NAMES = (ANN, BO)
TOLD = re.compile(r"(?<!\d)(\d+) \((" + "|".join(KINDS) + r")\)")
PLAY_TYPES = (
    "flash",
    "flash",
    "flash",
    "move",
    "pass",
    "swap",
    "swap",
    "time",
    "resurrect",
    "bring_in",
    "bring_in",
    "gravity",
    "reflect",
    "first_sight",
    "choose_first",
    "assign",
    "garbage",
    "undo",
)
# Kinds a refusal may name because the action itself asked for that power.
ASKED = {
    "swap": {MEMORY},
    "time": {TIME},
    "gravity": {VOID},
    "reflect": {REFLECTOR, LIGHT, ARTIFICIAL_LIGHT},
    "flash": {REFLECTOR, LIGHT, ARTIFICIAL_LIGHT},
    "bring_in": {ARTIFICIAL_LIGHT},
}


# -- drawing games ------------------------------------------------------------------------------------


@st.composite
def table_settings(draw: st.DrawFn) -> dict[str, Any]:
    reflector = draw(st.integers(0, 4))
    memory = draw(st.integers(0, 9 - reflector))
    void = draw(st.integers(0, 9 - reflector - memory))
    return {
        "capture_rule": draw(st.sampled_from(["key", "arcade"])),
        "pieces": {"Reflector": reflector, "Memory": memory, "Void": void, "Peripheral": 9 - reflector - memory - void},
    }


def random_setup(data: st.DataObject, state: QuinState, player: str) -> dict[str, Any]:
    """A legal one-action setup with a random Clone and a random layout."""
    adjustable = dict(state.adjustable)
    base = counts(adjustable, None)
    taken = data.draw(st.sampled_from([k for k in CLONE_FROM if base[k] > 0]))
    made = data.draw(st.sampled_from(CLONE_TO))
    have = counts(adjustable, (taken, made))
    kinds = [k for k in KINDS for _ in range(have[k])]
    lights = [k for k in kinds if k == ARTIFICIAL_LIGHT]
    others = data.draw(st.permutations([k for k in kinds if k != ARTIFICIAL_LIGHT]))
    room = ZERO_G_AT_START - len(lights)
    zero_g_kinds, board_kinds = lights + list(others[:room]), list(others[room:])
    labels = data.draw(st.permutations(LABELS))
    return {
        "type": "setup",
        "player": player,
        "clone": {"from": taken, "to": made},
        "board": dict(zip(labels[: len(board_kinds)], board_kinds, strict=True)),
        "zero_g": dict(zip(labels[len(board_kinds) :], zero_g_kinds, strict=True)),
    }


def _pick(data: st.DataObject, labels: list[str]) -> str:
    if labels and data.draw(st.integers(0, 9)) > 0:
        return data.draw(st.sampled_from(labels))
    return data.draw(st.sampled_from(LABELS))


def random_action(data: st.DataObject, state: QuinState) -> dict[str, Any]:
    """An action that is often legal and often not."""
    kind = data.draw(st.sampled_from(PLAY_TYPES))
    turn = state.turn or ANN
    player = turn if data.draw(st.integers(0, 9)) > 0 else data.draw(st.sampled_from(NAMES))
    rival = BO if player == ANN else ANN
    own = state.pieces_of(player)
    board = [p.label for p in own if p.where == "board"]
    card = [p.label for p in own if p.where == "zero-g"]
    taken = [p.label for p in own if p.taken]
    theirs = [p.label for p in state.pieces_of(rival) if p.where == "board"]
    if kind == "flash":
        action = {"type": "flash", "player": player, "attacker": _pick(data, board), "defender": _pick(data, theirs)}
        if data.draw(st.integers(0, 5)) == 0:
            action["reflector"] = _pick(data, board)
        return action
    if kind == "move":
        to = data.draw(st.sampled_from([None, "Ring 2", "First Sight", "Iris"]))
        return {"type": "move", "player": player, "label": _pick(data, board), "to": to}
    if kind == "first_sight":
        return {"type": "first_sight", "player": player, "label": _pick(data, board)}
    if kind == "swap":
        return {"type": "swap", "player": player, "memory": _pick(data, board), "with": _pick(data, board)}
    if kind == "time":
        return {"type": "time", "player": player, "time": _pick(data, board), "target": _pick(data, theirs)}
    if kind == "resurrect":
        return {"type": "resurrect", "player": player, "label": _pick(data, taken)}
    if kind == "bring_in":
        count = data.draw(st.integers(1, 3))
        return {"type": "bring_in", "player": player, "labels": [_pick(data, card) for _ in range(count)]}
    if kind == "gravity":
        return {"type": "gravity", "player": player, "void": _pick(data, board), "voids": [_pick(data, board)]}
    if kind == "reflect":
        return {"type": "reflect", "player": player, "reflector": _pick(data, board), "piece": _pick(data, board)}
    if kind == "choose_first":
        return {"type": "choose_first", "player": player, "chosen_by": rival, "how": "table"}
    if kind == "assign":
        return {"type": "assign", "player": player, "label": _pick(data, []), "identity": "Light", "where": "board"}
    if kind == "undo":
        return {"type": "undo"}
    if kind == "garbage":
        return data.draw(
            st.dictionaries(
                st.sampled_from(["type", "player", "label", "attacker", "defender", "labels", "memory"]),
                st.one_of(st.none(), st.integers(-2, 20), st.text(max_size=4), st.lists(st.integers(0, 18))),
            )
        )
    return {"type": "pass", "player": player}


# -- the checks ------------------------------------------------------------------------------------------


def made_public(state: QuinState) -> set[str]:
    """Kinds the table knows of some other way: revealed pieces, and powers announced by name."""
    known = {p.identity for p in state.pieces if p.revealed and p.identity}
    for side in state.sides:
        if side.memory_swaps:
            known.add(MEMORY)
        if side.gravity_casts:
            known.add(VOID)
        if side.reflector_uses:
            known.add(REFLECTOR)
        if side.times_used:
            known.add(TIME)
    return known


def hidden_kinds(state: QuinState, owner: str) -> set[str]:
    return {p.identity for p in state.pieces_of(owner) if not p.revealed and p.identity} - made_public(state)


def without_own_secrets(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("pieces", "powers", "setup")}


def twins(state: QuinState, owner: str) -> list[QuinState]:
    """States that differ from `state` only in which hidden piece of `owner` is which."""
    hidden = [p for p in state.pieces_of(owner) if not p.revealed and p.identity]
    made = []
    for a in hidden:
        for b in hidden:
            if a.identity != b.identity and a.label < b.label and len(made) < 4:
                swapped = state.with_piece(replace(a, identity=b.identity)).with_piece(replace(b, identity=a.identity))
                made.append(swapped)
    return made


def check_views(state: QuinState) -> None:
    public = GAME.public_view(state)
    public_text = json.dumps(public)
    for owner in NAMES:
        rival = BO if owner == ANN else ANN
        secret = hidden_kinds(state, owner)
        assert not identity_words(public_text, secret), f"public view names a hidden kind of {owner}'s: {secret}"
        rival_text = json.dumps(without_own_secrets(GAME.private_view(state, rival)))
        assert not identity_words(rival_text, secret), f"{rival}'s private view names a hidden kind of {owner}'s"
        rival_view = GAME.private_view(state, rival)
        told = set(TOLD.findall(public_text)) | set(TOLD.findall(rival_text))  # "7 (Shadow)" and the like
        for piece in state.pieces_of(owner):
            twin = state.piece(rival, piece.label)  # the same label on the other side
            if piece.identity and not piece.revealed and not (twin.revealed and twin.identity == piece.identity):
                assert (piece.label, piece.identity) not in told, f"{owner}'s {piece.label} is told"
        for twin in twins(state, owner):
            assert GAME.public_view(twin) == public
            assert GAME.private_view(twin, rival) == rival_view
        for piece, entry in zip(state.pieces_of(owner), public["players"][state.seat(owner)]["pieces"], strict=True):
            assert ("identity" in entry) == piece.revealed
            if piece.revealed:
                assert entry["identity"] == piece.identity
    # A player's own private view has every one of their pieces, and only theirs.
    for player in NAMES:
        view = GAME.private_view(state, player)
        assert [p["identity"] for p in view["pieces"]] == [p.identity for p in state.pieces_of(player)]


# What each event type may never show the table (the owner's own display knows it already).
SECRET_KEYS = {
    "clone_chosen": {"from", "to"},
    "piece_assigned": {"identity"},
    "memory_swapped": {"memory", "with"},
    "gravity_cast": {"void"},
    "reflected": {"reflector"},
}


def check_events(state: QuinState, events: Any) -> None:
    """What `companion play` prints of each event names no kind still hidden after it, and no secret key."""
    public = [GAME.public_event(event) for event in events]
    for shown in public:
        assert not SECRET_KEYS.get(shown["type"], set()) & set(shown), f"a public event keeps a secret: {shown}"
        if shown["type"] == "flashed":
            assert shown["reflector"] in (None, True), "a flash names the Reflector that sent the attacker"
    if state.result is not None:
        return  # the game is over: every identity is shown to the table
    text = json.dumps(public)
    secret = hidden_kinds(state, ANN) | hidden_kinds(state, BO)
    assert not identity_words(text, secret), f"public events name a hidden kind: {text}"


def check_refusal(state: QuinState, action: dict[str, Any], refusal: RuleError) -> None:
    if state.phase != "play":
        return  # setup refusals go to the player setting up, in private
    allowed = ASKED.get(str(action.get("type")), set())
    secret = (hidden_kinds(state, ANN) | hidden_kinds(state, BO)) - allowed
    assert not identity_words(str(refusal), secret), f"refusal {refusal} names a hidden kind"


@settings(
    max_examples=examples(60),  # whole random games: TEST_DEPTH=5 plays 300 (tests/support/depth.py)
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(table=table_settings(), data=st.data())
def test_random_games_keep_every_hidden_identity_hidden(table, data):
    store = Store.in_memory()
    options = Options((Player(ANN, "#e53935"), Player(BO, "#1e88e5")), table)
    session = Session.start(store, "quin", options, clock=lambda: 0.0)
    check_views(session.state)
    # A few stray setup actions, legal or not, then each side's setup (maybe in either order).
    for _ in range(data.draw(st.integers(0, 4))):
        player = data.draw(st.sampled_from(NAMES))
        kind = data.draw(st.sampled_from(["clone", "assign", "unassign", "setup_done"]))
        action = {
            "type": kind,
            "player": player,
            "from": data.draw(st.sampled_from(KINDS)),
            "to": data.draw(st.sampled_from(KINDS)),
            "label": data.draw(st.sampled_from(LABELS)),
            "identity": data.draw(st.sampled_from(KINDS)),
            "where": data.draw(st.sampled_from(["board", "zero-g"])),
        }
        with contextlib.suppress(RuleError):
            events = session.act(action)
            check_events(session.state, events)
        check_views(session.state)
    for player in data.draw(st.permutations(NAMES)):
        events = session.act(random_setup(data, session.state, player))
        check_events(session.state, events)
        check_views(session.state)
    assert session.state.phase == "play"
    for _ in range(data.draw(st.integers(5, 80))):
        if session.outcome is not None:
            break
        action = random_action(data, session.state)
        if action.get("type") == "undo":
            session.undo()
        else:
            before, moves = session.state, len(session.moves)
            try:
                events = session.act(action)
                check_events(session.state, events)
            except RuleError as refusal:
                assert session.state == before and len(session.moves) == moves, "a refusal changed the game"
                check_refusal(before, action, refusal)
        check_views(session.state)
    revealed = sum(p.revealed for p in session.state.pieces) // 5 * 5
    note(f"{'won' if session.outcome else 'still in play'}; {revealed}+ revealed")
    again = Session.load(store, session.game_id, clock=lambda: 0.0)
    assert again.state == session.state
    if session.outcome is not None:
        assert all(p["revealed"] for side in session.public_view()["players"] for p in side["pieces"])


@settings(max_examples=200, deadline=None)
@given(
    action=st.dictionaries(
        st.sampled_from(
            [
                "type",
                "player",
                "label",
                "labels",
                "attacker",
                "defender",
                "memory",
                "with",
                "time",
                "target",
                "void",
                "voids",
                "reflector",
                "piece",
                "to",
                "from",
                "identity",
                "where",
                "clone",
                "board",
                "zero_g",
                "how",
                "chosen_by",
            ]
        ),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-3, 30),
            st.sampled_from(["Ann", "Bo", "1", "9", "17", "Light", "board", "setup", "flash", "swap", "bring_in"]),
            st.lists(st.sampled_from(["1", "2", 3, None]), max_size=3),
            st.dictionaries(st.sampled_from(["1", "from", "to"]), st.sampled_from(["Light", "Time", 2])),
        ),
    ),
    phase=st.sampled_from(["setup", "play"]),
)
def test_any_json_action_is_either_accepted_or_refused_in_words(action, phase):
    from tests.support.quin import events_of, new_game, started

    state = started() if phase == "play" else new_game()
    try:
        events = events_of(state, action)  # read as a script line is, then decided
    except RuleError:
        return
    for event in events:
        state = GAME.evolve(state, event)
    json.dumps(GAME.public_view(state))
