"""Quin powers and their limits, bringing pieces in, passing, the last move, and winning on First Sight."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.dice import RandomDice
from companion.game import Options, RuleError
from companion.games.quin.examples import EXAMPLE_BOARD, EXAMPLE_ZERO_G, example_setup
from companion.games.quin.pieces import ARTIFICIAL_LIGHT, KINDS, LABELS, LIGHT, MEMORY, TIME
from companion.games.quin.rules import (
    LIGHT_ON_FIRST_SIGHT,
    BringIn,
    ClaimFirstSight,
    Clone,
    Flash,
    Gravity,
    Move,
    Pass,
    Reflect,
    Resurrect,
    SetupDone,
    Swap,
    Unassign,
    UseTime,
)
from companion.session import Session
from companion.store import Store
from tests.support.quin import (
    ANN,
    BO,
    GAME,
    act,
    bring_in,
    events_of,
    flash,
    identity_words,
    move,
    new_game,
    pass_,
    refused,
    started,
    where,
)


def swap(memory, other, player=ANN):
    return {"type": "swap", "player": player, "memory": memory, "with": other}


def time(label, target, player=ANN, **extra):
    return {"type": "time", "player": player, "time": label, "target": target, **extra}


def resurrect(label, player=ANN, **extra):
    return {"type": "resurrect", "player": player, "label": label, **extra}


def gravity(void, *voids, player=ANN):
    return {"type": "gravity", "player": player, "void": void, "voids": list(voids)}


def reflect(reflector, piece, player=ANN, **extra):
    return {"type": "reflect", "player": player, "reflector": reflector, "piece": piece, **extra}


def rounds(state, n):
    """`n` full rounds of passing, starting with whoever is to play."""
    for _ in range(2 * n):
        state = act(state, pass_(state.turn))
    return state


def no_identity_leaks(sentence):
    """A refusal about a hidden piece names at most the power asked for, never what the piece is."""
    return identity_words(sentence) <= {MEMORY, TIME, "Void", "Reflector", LIGHT, ARTIFICIAL_LIGHT}


# -- Memory ---------------------------------------------------------------------------------------


def test_memory_swap_does_not_end_the_turn_and_is_public_without_naming_the_memory():
    state = act(started(), swap("6", "2"))
    assert state.turn == ANN
    view = GAME.public_view(state)
    assert view["this_turn"] == ["Ann made a Memory swap: 2 and 6 swapped places."]
    assert view["players"][0]["powers_used"]["memory_swaps"] == 1
    assert not state.piece(ANN, "6").revealed
    # Which of the two is the Memory never shows: the sentence is the same the other way round.
    mirror = act(started(), swap("6", "2"))
    assert GAME.public_view(mirror) == view


def test_memory_swaps_twice_per_game_per_memory():
    state = act(started(), swap("6", "2"), pass_(ANN), pass_(BO), swap("6", "3"), pass_(ANN), pass_(BO))
    assert GAME.private_view(state, ANN)["powers"]["memory_swaps_left"] == {"6": 0, "7": 2}
    sentence = refused(state, swap("6", "2"), "cannot make a Memory swap now")
    assert no_identity_leaks(sentence)
    act(state, swap("7", "2"))  # the other Memory has its own two


def test_memory_swaps_once_per_turn_per_memory():
    state = act(started(), swap("6", "2"))
    refused(state, swap("6", "3"), "cannot make a Memory swap now")
    act(state, swap("7", "3"))  # another Memory may swap on the same turn


def test_a_memory_that_swapped_does_not_move_that_turn_nor_does_the_swapped_piece():
    state = act(started(), swap("6", "2"))
    refused(state, move(ANN, "6"), "Memory swap this turn")
    refused(state, move(ANN, "2"), "Memory swap this turn")
    after = act(state, move(ANN, "3"))  # any other piece may still move
    assert after.turn == BO
    # Next turn both may move again.
    act(after, pass_(BO), move(ANN, "6"))


def test_the_swapped_piece_may_still_use_a_power_that_turn():
    state = act(started(), swap("6", "4"), time("4", "8"))
    assert where(state, ANN, "4") == "removed"


def test_only_a_memory_swaps_and_the_refusal_does_not_say_what_the_piece_is():
    state = started()
    sentence = refused(state, swap("2", "3"), "cannot make a Memory swap now")
    assert no_identity_leaks(sentence) and "Shadow" not in sentence
    refused(state, swap("6", "6"), "not with itself")
    refused(state, swap("6", "12"), "Your 12 is not on the board")
    refused(state, swap("6", "2", player=BO), "It is Ann's turn")


# -- Time -------------------------------------------------------------------------------------------


def test_time_moves_a_rival_piece_then_goes_face_up_to_the_rival_card():
    state = act(started(), time("4", "8", to="Ring 2"))
    assert state.turn == ANN  # Time does not end the turn
    piece = state.piece(ANN, "4")
    assert (piece.where, piece.how, piece.revealed) == ("removed", "used", True)
    view = GAME.public_view(state)
    assert {"owner": ANN, "label": "4", "identity": TIME, "how": "used"} in view["players"][1]["zero_g"]["face_up"]
    assert view["this_turn"] == ["Ann's 4 (Time) moved Bo's 8 back to Ring 2, then went to Bo's Zero-G card."]
    assert view["players"][0]["powers_used"]["time"] == 1
    act(state, move(ANN, "2"))  # the turn goes on


def test_time_is_used_once():
    state = act(started(), time("4", "8"))
    refused(state, time("4", "8"), "Your 4 is not on the board")
    assert GAME.private_view(state, ANN)["powers"]["time"] == "used"


def test_a_cloned_time_has_its_own_use():
    state = act(started(), time("4", "8"), bring_in(ANN, "15"), pass_(BO))
    assert GAME.private_view(state, ANN)["powers"]["time"] == "ready"
    state = act(state, time("15", "2"))
    assert where(state, ANN, "15") == "removed"


def test_time_is_refused_for_other_pieces_and_off_board_targets():
    state = started()
    sentence = refused(state, time("2", "8"), "cannot use the power of Time")
    assert no_identity_leaks(sentence) and "Shadow" not in sentence
    refused(state, time("4", "12"), "Bo's 12 is not on the board")
    refused(state, time("15", "8"), "Your 15 is not on the board")


# -- the Resurrection Totem ---------------------------------------------------------------------------


def test_totem_brings_back_a_captured_piece_on_a_gateway_and_the_turn_goes_on():
    state = act(started(), pass_(ANN), flash(BO, "8", "2"), pass_(ANN), pass_(BO))  # Ann's Shadow 2 captured
    state = act(state, resurrect("2", to="Bo's Gateway 1"))
    assert where(state, ANN, "2") == "board" and state.turn == ANN
    view = GAME.public_view(state)
    assert view["this_turn"] == ["Ann used the Resurrection Totem: 2 (Shadow) is back on Bo's Gateway 1."]
    assert view["players"][0]["powers_used"]["totem"] is True
    assert view["players"][1]["zero_g"]["face_up"] == []
    assert GAME.private_view(state, ANN)["powers"]["totem"] == "used"
    # The resurrected piece may attack at once.
    after = act(state, flash(ANN, "2", "6"))
    assert where(after, BO, "6") == "captured"


def test_totem_refuses_the_piece_captured_on_the_very_last_move():
    state = act(started(), pass_(ANN), flash(BO, "8", "2"))
    refused(state, resurrect("2"), "taken on the very last move")
    act(rounds(state, 1), resurrect("2"))  # one turn later it may come back


def test_totem_once_per_game():
    state = act(started(), pass_(ANN), flash(BO, "8", "2"), pass_(ANN), flash(BO, "10", "3"), pass_(ANN), pass_(BO))
    state = act(state, resurrect("2"), pass_(ANN), pass_(BO))
    refused(state, resurrect("3"), "once per game")


def test_totem_only_for_pieces_the_rival_took():
    state = started()
    refused(state, resurrect("2"), "not on Bo's Zero-G card")
    refused(state, resurrect("12"), "not on Bo's Zero-G card")
    used = act(state, time("4", "8"), pass_(ANN), pass_(BO))
    refused(used, resurrect("4"), "by using its power")


def test_totem_brings_back_a_destroyed_piece_too():
    state = act(started(), flash(ANN, "6", "6"), pass_(BO))  # Memories destroy each other
    state = act(state, resurrect("6"))
    assert where(state, ANN, "6") == "board"


def test_resurrected_memory_swaps_as_a_new_piece():
    state = act(started(), swap("6", "2"), pass_(ANN), pass_(BO), swap("6", "3"), pass_(ANN), pass_(BO))
    state = act(state, flash(ANN, "6", "6"))  # Memories destroy each other
    assert state.piece(ANN, "6").swaps_left == 0
    state = act(state, pass_(BO), resurrect("6"))
    assert GAME.private_view(state, ANN)["powers"]["memory_swaps_left"]["6"] == 2
    act(state, swap("6", "2"))


def test_a_light_brought_back_by_the_totem_is_a_light_again():
    # Taking a Light ends the game, so this cannot happen in play; the ruling still holds if it did.
    state = rounds(started(), 1)
    light = state.piece(ANN, "1")
    state = state.with_piece(replace(light, where="captured", how="captured", revealed=True, taken_on_turn=1))
    state = act(state, resurrect("1"))
    assert state.piece(ANN, "1").identity == LIGHT
    assert GAME.private_view(state, ANN)["pieces"][0]["moves"] == 2
    assert GAME.outcome(act(state, {"type": "first_sight", "player": ANN, "label": "1"})).winners == (ANN,)


# -- Artificial Lights -----------------------------------------------------------------------------------


def test_artificial_lights_accelerate_while_both_shadows_are_gone():
    state = started()
    assert GAME.private_view(state, ANN)["artificial_light_moves"] == 2
    state = act(state, pass_(ANN), flash(BO, "8", "2"), pass_(ANN))
    assert GAME.private_view(state, ANN)["artificial_light_moves"] == 2  # one Shadow is not enough
    state = act(state, flash(BO, "10", "3"))  # Bo's Void takes Ann's other Shadow
    view = GAME.private_view(state, ANN)
    assert view["artificial_light_moves"] == 5
    assert {p["label"]: p["moves"] for p in view["pieces"]}["11"] == 5
    assert GAME.private_view(state, BO)["artificial_light_moves"] == 2


def test_a_shadow_lost_to_annihilation_counts_as_gone():
    state = act(started(), flash(ANN, "2", "9"), pass_(BO), flash(ANN, "3", "10"))
    assert GAME.private_view(state, ANN)["artificial_light_moves"] == 5


ACCELERATION = (
    "After both of your Shadows have been captured, your Artificial Lights' Moves # is Accelerated to 5, "
    "for the remainder of the game, or until your Shadow is Resurrected."
)
"""The rules text; RULINGS.md reads it as: 5 whenever both Shadows are off the board, a resurrected
Shadow ends it, and it starts again if both are captured again."""


def al_moves(state, player=ANN):
    return GAME.private_view(state, player)["artificial_light_moves"]


def test_a_resurrected_shadow_ends_the_acceleration_until_both_are_captured_again():
    """ACCELERATION: "... or until your Shadow is Resurrected"; captured again, both gone, 5 again."""
    state = act(started(), pass_(ANN), flash(BO, "8", "2"), pass_(ANN), flash(BO, "10", "3"), pass_(ANN), pass_(BO))
    assert al_moves(state) == 5
    state = act(state, resurrect("2"))
    assert al_moves(state) == 2  # the Resurrection ends it
    state = act(state, pass_(ANN), flash(BO, "4", "2"))  # resurrected, then captured again
    assert all(state.piece(ANN, label).taken for label in ("2", "3"))
    assert al_moves(state) == 5
    assert {p["label"]: p["moves"] for p in GAME.private_view(state, ANN)["pieces"]}["11"] == 5


def test_losing_both_shadows_after_one_was_resurrected_while_the_other_stood_accelerates():
    """ACCELERATION: "After both of your Shadows have been captured" counts from any moment, even after
    the Totem brought one Shadow back while the other was still on the board (issue 14)."""
    state = act(started(), pass_(ANN), flash(BO, "8", "2"), pass_(ANN), pass_(BO))  # Shadow 2 captured, 3 stands
    state = act(state, resurrect("2"), pass_(ANN))  # back while Shadow 3 is still on the board
    assert al_moves(state) == 2
    state = act(state, flash(BO, "10", "3"), pass_(ANN))  # Bo's Void takes Shadow 3
    assert al_moves(state) == 2  # one Shadow is not enough
    state = act(state, flash(BO, "4", "2"))  # and his Time the resurrected Shadow 2
    assert al_moves(state) == 5
    assert al_moves(state, BO) == 2


def test_undo_takes_the_acceleration_back_and_redo_brings_it_again(tmp_path):
    """ACCELERATION read from the board: undoing the capture of the second Shadow gives back Moves # 2,
    undoing the Resurrection gives back 5, through a real Session and its store."""
    with Store.open(tmp_path / "quin.sqlite") as store:
        session = Session.start(store, "quin", Options.for_names(ANN, BO), dice=RandomDice.seeded(7))
        for action in (
            example_setup(ANN),
            example_setup(BO),
            pass_(ANN),
            flash(BO, "8", "2"),
            pass_(ANN),
            flash(BO, "10", "3"),
            pass_(ANN),
            pass_(BO),
        ):
            session.act(action)
        assert session.private_view(ANN)["artificial_light_moves"] == 5
        session.act(resurrect("2"))
        assert session.private_view(ANN)["artificial_light_moves"] == 2
        session.undo()
        assert session.private_view(ANN)["artificial_light_moves"] == 5
        session.redo()
        assert session.private_view(ANN)["artificial_light_moves"] == 2
        for action in (pass_(ANN), flash(BO, "4", "2")):
            session.act(action)
        assert session.private_view(ANN)["artificial_light_moves"] == 5
        session.undo()
        assert session.private_view(ANN)["artificial_light_moves"] == 2


# -- Void Gravity and Reflector ----------------------------------------------------------------------------


def test_void_gravity_moves_other_voids_and_ends_the_turn():
    state = act(started(), gravity("9", "10"))
    assert state.turn == BO
    view = GAME.public_view(state)
    assert view["last_move"]["steps"] == ["Ann cast Void Gravity: 10 moved."]
    assert view["players"][0]["powers_used"]["void_gravity"] == 1
    refused(state, gravity("9", "10"), "It is Bo's turn")  # once per turn: the cast was the turn
    again = act(state, pass_(BO), gravity("10", "9"))  # as often as you like in a game
    assert GAME.public_view(again)["players"][0]["powers_used"]["void_gravity"] == 2


def test_void_gravity_needs_voids_and_does_not_say_which_piece_is_not_one():
    state = started()
    sentence = refused(state, gravity("2", "10"), "Void Gravity is refused")
    assert identity_words(sentence) == {"Void"}
    refused(state, gravity("9", "3"), "Void Gravity is refused")
    refused(state, gravity("9", "9"), "stays where it is")
    refused(state, {"type": "gravity", "player": ANN, "void": "9", "voids": []}, "list of piece labels")


def test_reflector_sends_a_light_and_ends_the_turn():
    state = act(started(), reflect("5", "1", to="Line 3"))
    assert state.turn == BO
    view = GAME.public_view(state)
    assert view["last_move"]["steps"] == ["Ann used a Reflector: 1 moved to Line 3."]
    assert view["players"][0]["powers_used"]["reflector"] == 1
    refused(state, reflect("5", "1"), "It is Bo's turn")  # once per turn: it was the turn


def test_reflector_refusals():
    state = started()
    sentence = refused(state, reflect("5", "2"), "cannot send your 2")
    assert "Shadow" not in sentence
    refused(state, reflect("6", "1"), "cannot send your 1")
    refused(state, reflect("5", "5"), "not itself")
    refused(state, reflect("5", "11"), "Your 11 is not on the board")


# -- bringing pieces in, passing, the last move --------------------------------------------------------------


def test_several_artificial_lights_may_come_in_on_one_turn():
    state = act(started(), bring_in(ANN, "11", "12", "13"))
    assert [where(state, ANN, label) for label in ("11", "12", "13", "14")] == ["board"] * 3 + ["zero-g"]
    assert state.turn == BO
    assert GAME.public_view(state)["last_move"]["steps"] == ["Ann brought 11, 12 and 13 in."]


def test_other_pieces_come_in_one_a_turn():
    state = started()
    sentence = refused(state, bring_in(ANN, "11", "15"), "Only Artificial Lights may come in together")
    assert identity_words(sentence) == {ARTIFICIAL_LIGHT}
    after = act(state, {"type": "bring_in", "player": ANN, "label": "15", "to": "Gateway 2"})
    assert where(after, ANN, "15") == "board"
    refused(state, bring_in(ANN, "2"), "not on your Zero-G card")
    refused(state, bring_in(ANN, "11", "11"), "names the same piece twice")


def test_pass_ends_the_turn_and_last_move_is_the_previous_turn():
    state = act(started(), swap("6", "2"), move(ANN, "3", to="Iris"))
    view = GAME.public_view(state)
    assert view["last_move"] == {
        "player": ANN,
        "steps": ["Ann made a Memory swap: 2 and 6 swapped places.", "Ann moved 3 to Iris."],
    }
    state = act(state, pass_(BO))
    assert GAME.public_view(state)["last_move"] == {"player": BO, "steps": ["Bo passed."]}


def test_moving_a_piece_not_on_the_board_is_refused():
    refused(started(), move(ANN, "12"), "Your 12 is not on the board")


# -- First Sight ------------------------------------------------------------------------------------------------


def test_light_on_first_sight_wins():
    state = act(started(), {"type": "first_sight", "player": ANN, "label": "1", "from": "Iris"})
    outcome = GAME.outcome(state)
    assert outcome.winners == (ANN,) and outcome.reason == LIGHT_ON_FIRST_SIGHT
    assert all(p.revealed for p in state.pieces)
    assert GAME.public_view(state)["last_move"]["steps"] == ["Ann moved 1 (Light) to First Sight."]


def test_a_move_to_first_sight_is_the_same_claim():
    state = act(started(), move(ANN, "1", to="first sight"))
    assert GAME.outcome(state).reason == LIGHT_ON_FIRST_SIGHT


@pytest.mark.parametrize("label", [str(n) for n in range(2, 11)])
def test_a_bluff_is_refused_without_revealing_anything(label):
    state = started()
    for action in (
        {"type": "first_sight", "player": ANN, "label": label},
        move(ANN, label, to="First Sight"),
    ):
        sentence = refused(state, action, "claim is refused")
        assert sentence == f"The claim is refused: Ann's {label} may not stand on First Sight. Play on."
        assert identity_words(sentence, KINDS) == set()


def test_a_light_off_the_board_cannot_claim_first_sight():
    board, zero_g = {**EXAMPLE_BOARD, "1": "Peripheral"}, {**EXAMPLE_ZERO_G, "17": LIGHT}
    state = act(new_game(), example_setup(ANN, board=board, zero_g=zero_g), example_setup(BO))
    refused(state, {"type": "first_sight", "player": ANN, "label": "17"}, "Your 17 is not on the board")
    state = act(state, bring_in(ANN, "17"), pass_(BO))
    assert GAME.outcome(act(state, {"type": "first_sight", "player": ANN, "label": "17"})).winners == (ANN,)


def test_first_sight_claim_is_a_move_and_needs_the_turn():
    refused(started(), {"type": "first_sight", "player": BO, "label": "1"}, "It is Ann's turn")
    state = act(started(), swap("6", "1"))
    refused(state, {"type": "first_sight", "player": ANN, "label": "1"}, "Memory swap this turn")


# -- every action's fields are checked --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        {"type": "move", "player": ANN},
        {"type": "move", "player": ANN, "label": 99},
        {"type": "move", "player": ANN, "label": True},
        {"type": "move", "player": ANN, "label": "1", "to": 5},
        {"type": "move", "player": ANN, "label": "1", "to": "x" * 61},
        {"type": "flash", "player": ANN, "attacker": "1"},
        {"type": "flash", "player": ANN, "attacker": None, "defender": "1"},
        {"type": "flash", "player": ANN, "attacker": "1", "defender": "1", "reflector": []},
        {"type": "swap", "player": ANN, "memory": "6"},
        {"type": "time", "player": ANN, "time": "4"},
        {"type": "resurrect", "player": ANN},
        {"type": "bring_in", "player": ANN},
        {"type": "bring_in", "player": ANN, "labels": "11"},
        {"type": "gravity", "player": ANN, "void": "9"},
        {"type": "reflect", "player": ANN, "reflector": "5"},
        {"type": "pass"},
        {"type": "pass", "player": 3},
        {"type": "pass", "player": "Cy"},
        {"type": "dance", "player": ANN},
        {"player": ANN},
        {"type": "setup", "player": ANN},
        {"type": "assign", "player": ANN, "label": "1"},
    ],
)
def test_malformed_actions_are_refused_in_words(action):
    refused(started(), action)  # read as a script line is, then decided


def test_integer_labels_are_read_as_labels():
    events = events_of(started(), {"type": "move", "player": ANN, "label": 3})
    assert events[0].label == "3"


def test_a_memory_that_moved_cannot_swap_that_turn():
    state = act(started(), move(ANN, "6"))  # a move ends the turn, so the swap has no turn left to happen in
    refused(state, swap("6", "2"), "It is Bo's turn")


# -- what a player may do now (legal_actions) ---------------------------------------------------------------------


def _accepted(state, action):
    try:
        events_of(state, action)
    except RuleError:
        return False
    return True


def _every_single_piece_action(state, player):
    """Every play action naming one or two labels (no "to", no lists), legal or not."""
    for a in LABELS:
        yield from (Move(player, a), ClaimFirstSight(player, a), Resurrect(player, a), BringIn(player, label=a))
        for b in LABELS:
            yield from (Flash(player, a, b), Swap(player, a, b), UseTime(player, a, b), Reflect(player, a, b))
    yield Pass(player)


@pytest.mark.parametrize(
    "moves",
    [
        [],
        [swap("6", "2")],
        [time("4", "8")],
        [pass_(ANN), flash(BO, "8", "2"), pass_(ANN), pass_(BO)],  # Ann's Shadow 2 captured, the Totem may bring it
        [flash(ANN, "8", "4")],  # Bo may not flash back Ann's 8 with his 4
    ],
)
def test_legal_actions_are_exactly_the_accepted_ones(moves):
    state = act(started(), *moves)
    player = state.turn
    listed = set(GAME.legal_actions(state, player))
    assert all(_accepted(state, action) for action in listed)
    for action in _every_single_piece_action(state, player):
        assert (action in listed) == _accepted(state, action), action
    assert GAME.legal_actions(state, state.rival(player)) == []  # not their turn


def test_legal_actions_follow_the_players_own_identities():
    state = started()
    listed = GAME.legal_actions(state, ANN)
    assert {a.memory for a in listed if isinstance(a, Swap)} == {"6", "7"}
    assert {a.label for a in listed if isinstance(a, ClaimFirstSight)} == {"1"}
    together = {a.labels for a in listed if isinstance(a, BringIn) and a.labels}
    assert ("11", "12", "13", "14") in together and all(set(t) <= {"11", "12", "13", "14"} for t in together)
    assert {a.voids for a in listed if isinstance(a, Gravity)} == {("10",), ("9",)}


def test_legal_actions_in_the_private_setup():
    state = new_game()
    listed = GAME.legal_actions(state, ANN)
    assert listed and all(isinstance(a, Clone) for a in listed)  # the Clone comes first
    assert len(listed) == 6 * 4
    state = act(state, {**example_setup(ANN), "done": False})
    listed = GAME.legal_actions(state, ANN)
    assert SetupDone(ANN) in listed and Unassign(ANN, "1") in listed
    assert all(_accepted(state, action) for action in listed)
    assert GAME.legal_actions(act(state, {"type": "setup_done", "player": ANN}), ANN) == []
