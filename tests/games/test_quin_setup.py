"""Quin setup: the settings, the Clone, the private placing of 17 labelled pieces, who goes first."""

from __future__ import annotations

import pytest

from companion.game import Options, SetupError
from companion.games.quin.examples import EXAMPLE_BOARD, EXAMPLE_ZERO_G, example_setup
from companion.games.quin.pieces import (
    ARTIFICIAL_LIGHT,
    LIGHT,
    MEMORY,
    PERIPHERAL,
    REFLECTOR,
    SHADOW,
    TIME,
    VOID,
)
from companion.games.quin.rules import PlayStarted
from tests.support.quin import ANN, BO, GAME, act, events_of, new_game, refused, started


def clone(player=ANN, taken=PERIPHERAL, made=TIME):
    return {"type": "clone", "player": player, "from": taken, "to": made}


def assign(label, identity, where="board", player=ANN):
    return {"type": "assign", "player": player, "label": label, "identity": identity, "where": where}


def done(player=ANN):
    return {"type": "setup_done", "player": player}


def layout_actions(player=ANN):
    return [
        *(assign(label, kind, "board", player) for label, kind in EXAMPLE_BOARD.items()),
        *(assign(label, kind, "zero-g", player) for label, kind in EXAMPLE_ZERO_G.items()),
    ]


# -- settings ------------------------------------------------------------------------------------


def test_default_counts_are_the_rulings_table():
    state = new_game()
    assert state.capture_rule == "key"
    assert state.counts_for(ANN) == {
        LIGHT: 1,
        ARTIFICIAL_LIGHT: 4,
        SHADOW: 2,
        TIME: 1,
        REFLECTOR: 2,
        MEMORY: 2,
        PERIPHERAL: 3,
        VOID: 2,
    }
    assert sum(state.counts_for(ANN).values()) == 17


def test_adjustable_counts_come_from_the_settings():
    state = new_game(pieces={"Reflector": 1, "Memory": 3, "Peripheral": 3, "Void": 2})
    assert state.counts_for(ANN)[REFLECTOR] == 1 and state.counts_for(ANN)[MEMORY] == 3


def test_partial_counts_keep_the_other_defaults():
    state = new_game(pieces={"memory": 1, "peripheral": 4})
    assert state.counts_for(ANN)[MEMORY] == 1 and state.counts_for(ANN)[PERIPHERAL] == 4


@pytest.mark.parametrize(
    ("settings", "match"),
    [
        ({"pieces": {"Reflector": 3, "Memory": 2, "Peripheral": 3, "Void": 2}}, "add up to 9"),
        ({"pieces": {"Shadow": 3}}, "only Reflector, Memory, Peripheral and Void"),
        ({"pieces": {"Memory": -1, "Void": 5}}, "whole number"),
        ({"pieces": {"Memory": 2.5}}, "whole number"),
        ({"pieces": {"Memory": True}}, "whole number"),
        ({"pieces": [2, 2, 3, 2]}, '"pieces" must map'),
        ({"capture_rule": "chess"}, '"capture_rule"'),
        ({"capture_rule": 3}, '"capture_rule"'),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(settings, match):
    with pytest.raises(SetupError, match=match):
        new_game(**settings)


def test_arcade_is_a_setting():
    assert new_game(capture_rule="Arcade").capture_rule == "arcade"


def test_quin_is_for_two():
    with pytest.raises(SetupError, match="exactly 2"):
        GAME.setup(Options.for_names("Ann", "Bo", "Cy"))


# -- the Clone ---------------------------------------------------------------------------------------


def test_the_clone_changes_the_counts():
    state = act(new_game(), clone(ANN, PERIPHERAL, VOID))
    assert state.counts_for(ANN)[PERIPHERAL] == 2 and state.counts_for(ANN)[VOID] == 3
    assert state.counts_for(BO)[PERIPHERAL] == 3  # the rival's counts are their own business
    view = GAME.private_view(state, ANN)["setup"]
    assert view["clone"] == VOID and view["clone_from"] == PERIPHERAL


@pytest.mark.parametrize(("made", "now"), [(TIME, 2), (MEMORY, 3), (VOID, 3), (ARTIFICIAL_LIGHT, 5)])
def test_the_four_clone_faces(made, now):
    state = act(new_game(), clone(ANN, REFLECTOR, made))
    assert state.counts_for(ANN)[made] == now and state.counts_for(ANN)[REFLECTOR] == 1
    assert sum(state.counts_for(ANN).values()) == 17


@pytest.mark.parametrize("taken", [LIGHT, SHADOW])
def test_light_and_shadow_cannot_be_cloned(taken):
    refused(new_game(), clone(ANN, taken, TIME), "not .*Light and Shadow|any kind but Light and Shadow")


@pytest.mark.parametrize("made", [LIGHT, SHADOW, REFLECTOR, PERIPHERAL, "Dragon"])
def test_a_clone_becomes_only_time_memory_void_or_artificial_light(made):
    refused(new_game(), clone(ANN, PERIPHERAL, made), "Time, Memory, Void or Artificial Light")


def test_a_kind_the_table_plays_without_cannot_be_cloned():
    state = new_game(pieces={"Reflector": 0, "Memory": 3, "Peripheral": 4, "Void": 2})
    refused(state, clone(ANN, REFLECTOR, TIME), "without Reflectors")


def test_changing_the_clone_may_not_strand_an_assigned_label():
    state = act(new_game(), clone(ANN, REFLECTOR, TIME), assign("1", PERIPHERAL), assign("2", PERIPHERAL))
    state = act(state, assign("3", PERIPHERAL))
    refused(state, clone(ANN, PERIPHERAL, TIME), "3 Peripherals already have labels.*only 2")


def test_a_clone_artificial_light_must_still_fit_on_the_zero_g_card():
    state = act(new_game(), clone(ANN, PERIPHERAL, TIME))
    state = act(state, *(assign(str(n), kind, "zero-g") for n, kind in ((1, LIGHT), (2, TIME), (3, VOID))))
    refused(state, clone(ANN, PERIPHERAL, ARTIFICIAL_LIGHT), "all your 5 Artificial Lights.*only 2 other")


# -- placing pieces ------------------------------------------------------------------------------------


def test_clone_first():
    refused(new_game(), assign("1", LIGHT), "Choose your Clone first")


def test_a_kind_cannot_be_given_to_more_labels_than_there_are_pieces():
    state = act(new_game(), clone(), assign("1", LIGHT))
    refused(state, assign("2", LIGHT), "You have 1 Light, already labelled 1")


def test_artificial_lights_start_on_the_zero_g_card():
    state = act(new_game(), clone())
    refused(state, assign("11", ARTIFICIAL_LIGHT, "board"), "start on your Zero-G card")
    act(state, assign("11", ARTIFICIAL_LIGHT, "zero-g"))


def test_ten_starting_points():
    state = act(new_game(), clone())
    kinds = [LIGHT, SHADOW, SHADOW, TIME, TIME, REFLECTOR, REFLECTOR, MEMORY, MEMORY, VOID]
    state = act(state, *(assign(str(n), kind) for n, kind in enumerate(kinds, start=1)))
    refused(state, assign("11", VOID), "All 10 starting points are taken")


def test_the_zero_g_card_keeps_room_for_every_artificial_light():
    state = act(new_game(), clone(), assign("1", LIGHT, "zero-g"), assign("2", TIME, "zero-g"))
    state = act(state, assign("3", VOID, "zero-g"))
    refused(state, assign("4", MEMORY, "zero-g"), "all your 4 Artificial Lights must be among them, so only 3")


def test_the_light_may_stay_off_the_board():
    state = act(new_game(), clone())
    board = {**EXAMPLE_BOARD, "1": PERIPHERAL}
    zero_g = {**EXAMPLE_ZERO_G, "17": LIGHT}
    state = act(state, example_setup(ANN, board=board, zero_g=zero_g))
    assert state.piece(ANN, "17").where == "zero-g" and state.piece(ANN, "17").identity == LIGHT


def test_reassigning_a_label_replaces_its_identity():
    state = act(new_game(), clone(), assign("1", LIGHT), assign("1", SHADOW, "zero-g"))
    assert state.piece(ANN, "1").identity == SHADOW and state.piece(ANN, "1").where == "zero-g"
    act(state, assign("2", LIGHT))  # the Light is free again


def test_unassign_takes_a_label_back():
    state = act(new_game(), clone(), assign("1", LIGHT))
    state = act(state, {"type": "unassign", "player": ANN, "label": "1"})
    assert state.piece(ANN, "1").identity is None and state.piece(ANN, "1").where == "off"
    refused(state, {"type": "unassign", "player": ANN, "label": "1"}, "no identity to take back")


def test_setup_done_is_refused_with_what_is_missing():
    state = act(new_game(), clone(), *layout_actions()[:-2])
    sentence = refused(state, done(), "not finished")
    assert "labels 16 and 17" in sentence
    refused(new_game(), done(), "choose your Clone")


def test_finished_setup_is_closed():
    state = act(new_game(), clone(), *layout_actions(), done())
    assert GAME.private_view(state, ANN)["setup"]["done"] is True
    refused(state, assign("1", SHADOW), "already finished")


def test_step_by_step_setup_equals_the_one_action_setup():
    one = act(new_game(), example_setup(ANN))
    steps = act(new_game(), clone(), *layout_actions(), done())
    assert one.pieces == steps.pieces and one.sides == steps.sides


def test_one_action_setup_refusals_name_the_label():
    board = {**EXAMPLE_BOARD, "10": ARTIFICIAL_LIGHT}
    refused(new_game(), example_setup(ANN, board=board), "Label 10: Artificial Lights start")
    refused(new_game(), example_setup(ANN, board={**EXAMPLE_BOARD, "11": VOID}), "Label 11 is given twice")
    refused(new_game(), {**example_setup(ANN), "clone": "Time"}, '"clone" must be an object')
    refused(new_game(), {**example_setup(ANN), "clone": {"to": "Time"}}, '"clone" must say')


def test_private_setup_view_tracks_progress():
    state = act(new_game(), clone(), assign("1", LIGHT), assign("11", ARTIFICIAL_LIGHT, "zero-g"))
    setup = GAME.private_view(state, ANN)["setup"]
    assert setup["unassigned"] == [str(n) for n in range(2, 18) if n != 11]
    assert setup["on_board"] == 1 and setup["on_zero_g"] == 1 and setup["done"] is False
    assert setup["needed"][TIME] == 2 and setup["assigned"][LIGHT] == 1
    assert GAME.private_view(state, BO)["setup"]["clone"] is None


def test_play_starts_when_both_are_done_with_the_first_seat():
    state = act(new_game(), example_setup(ANN))
    assert state.phase == "setup" and GAME.current_player(state) is None
    events = events_of(state, example_setup(BO))
    assert events[-1] == PlayStarted(ANN)
    state = act(state, example_setup(BO))
    assert state.phase == "play" and GAME.current_player(state) == ANN


def test_play_actions_wait_for_setup_and_setup_actions_end_with_it():
    state = act(new_game(), example_setup(ANN))
    refused(state, {"type": "pass", "player": ANN}, "both players have finished their private setup")
    refused(started(), clone(), "Setup is over")


# -- who goes first ------------------------------------------------------------------------------------


def test_choose_first_before_or_during_setup():
    state = started(first=BO)
    assert state.turn == BO


def test_choose_first_after_setup_but_before_any_turn():
    state = act(started(), {"type": "choose_first", "player": BO, "chosen_by": BO, "how": "race"})
    assert state.turn == BO


def test_choose_first_is_refused_once_play_has_begun():
    state = act(started(), {"type": "pass", "player": ANN})
    refused(state, {"type": "choose_first", "player": BO, "chosen_by": BO, "how": "race"}, "only before play begins")


@pytest.mark.parametrize(
    ("action", "match"),
    [
        ({"type": "choose_first", "player": "Cy", "chosen_by": ANN, "how": "race"}, '"player" must name'),
        ({"type": "choose_first", "player": ANN, "how": "race"}, 'needs "chosen_by"'),
        ({"type": "choose_first", "player": ANN, "chosen_by": "Cy", "how": "race"}, '"chosen_by" must name'),
        ({"type": "choose_first", "player": ANN, "chosen_by": ANN, "how": "dice"}, '"how" must be'),
    ],
)
def test_choose_first_fields_are_checked(action, match):
    refused(new_game(), action, match)


# -- dealing a random layout (the hand-off screen's "Deal at random") --------------------------------------


@pytest.mark.parametrize("seed", range(25))
def test_a_dealt_layout_is_always_legal_and_stays_open(seed):
    import random

    from companion.games.quin.examples import dealt_setup

    adjustable = {"Reflector": 1, "Memory": 3, "Peripheral": 3, "Void": 2}
    state = act(new_game(pieces=adjustable), dealt_setup(ANN, adjustable, random.Random(seed)))
    assert GAME.private_view(state, ANN)["setup"]["problems"] == []
    assert not state.side(ANN).ready  # "done": false leaves the player free to adjust
    state = act(state, {"type": "unassign", "player": ANN, "label": "5"})
    assert GAME.private_view(state, ANN)["setup"]["unassigned"] == ["5"]


def test_setup_done_flag_must_be_a_boolean():
    refused(new_game(), {**example_setup(ANN), "done": "yes"}, '"done" must be true')


# -- the helpers and the rules module named directly -------------------------------------------------


def test_a_dealt_layout_keeps_the_clone_it_is_given():
    """Rules: "Choose what piece your Clone will become"; a layout dealt for a chosen Clone keeps it."""
    import random

    from companion.games.quin.examples import dealt_setup
    from companion.games.quin.pieces import DEFAULT_ADJUSTABLE

    dealt = dealt_setup(ANN, DEFAULT_ADJUSTABLE, random.Random(1), clone=(MEMORY, VOID))
    assert dealt["clone"] == {"from": MEMORY, "to": VOID}
    state = act(new_game(), dealt)
    assert GAME.private_view(state, ANN)["setup"]["problems"] == []


def test_a_pieces_setting_that_names_no_piece_is_refused_with_its_name():
    """RULINGS: "The last four counts must add up to 9; the config may change them": only those four, by name."""
    from companion.games.quin.pieces import parse_kind

    assert parse_kind(3) is None
    with pytest.raises(SetupError, match=r"may set only Reflector, Memory, Peripheral and Void; 3 is not one of them"):
        new_game(pieces={3: 2})


def test_a_setup_event_of_play_is_not_the_private_setups():
    """The private setup's evolve knows only its own five events; a step of play handed to it is a programming error."""
    from companion.game import UnknownEvent
    from companion.games.quin.private_setup import evolve_setup
    from companion.games.quin.rules import Passed

    with pytest.raises(UnknownEvent, match=r"^Quin does not know the event Passed"):
        evolve_setup(new_game(), Passed(ANN))
