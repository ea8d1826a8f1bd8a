"""Quin's views: the private view's shape (a contract with the player displays) and what the public view shows."""

from __future__ import annotations

import json
import re

from companion.games.quin.examples import example_setup
from companion.games.quin.pieces import KINDS
from companion.games.quin.views import news
from tests.support.quin import (
    ANN,
    BO,
    GAME,
    act,
    as_text,
    bring_in,
    events_of,
    flash,
    identity_words,
    new_game,
    pass_,
    started,
)

WHERE = {"board", "zero-g", "captured", "removed", "off"}


def check_private_shape(view, player, phase):
    """Exactly the shape promised to the displays helper (more keys are allowed)."""
    assert view["game"] == "quin" and view["player"] == player and view["phase"] == phase
    assert re.fullmatch(r"#[0-9a-f]{6}", view["colour"])
    assert view["turn"] in (None, ANN, BO)
    assert len(view["pieces"]) == 17
    for piece in view["pieces"]:
        assert isinstance(piece["label"], str)
        assert piece["identity"] in (None, *KINDS)
        assert piece["where"] in WHERE
        assert piece["moves"] is None or isinstance(piece["moves"], int)
        assert isinstance(piece["revealed"], bool)
    powers = view["powers"]
    assert all(isinstance(k, str) and isinstance(v, int) for k, v in powers["memory_swaps_left"].items())
    assert powers["time"] in ("ready", "used", "none")
    assert powers["totem"] in ("ready", "used")
    assert view["artificial_light_moves"] in (2, 5)
    assert view["last_flash"] is None or isinstance(view["last_flash"], str)
    setup = view["setup"]
    if phase == "setup":
        assert set(setup) >= {"clone", "unassigned", "done"}
        assert setup["clone"] in (None, "Time", "Memory", "Void", "Artificial Light")
        assert isinstance(setup["unassigned"], list) and isinstance(setup["done"], bool)
    else:
        assert setup is None
    json.dumps(view)  # JSON-ready


def test_private_view_shape_in_every_phase():
    state = new_game()
    check_private_shape(GAME.private_view(state, ANN), ANN, "setup")
    setup = GAME.private_view(state, ANN)["setup"]
    assert (setup["clone"], setup["unassigned"], setup["done"]) == (None, [str(n) for n in range(1, 18)], False)
    state = act(state, example_setup(ANN))
    check_private_shape(GAME.private_view(state, ANN), ANN, "setup")
    state = act(state, example_setup(BO))
    view = GAME.private_view(state, BO)
    check_private_shape(view, BO, "play")
    assert view["turn"] == ANN and view["colour"] == "#1e88e5"
    assert view["pieces"][0] == {"label": "1", "identity": "Light", "where": "board", "moves": 2, "revealed": False}
    assert view["powers"] == {"memory_swaps_left": {"6": 2, "7": 2}, "time": "ready", "totem": "ready"}
    state = act(state, flash(ANN, "1", "1"))
    check_private_shape(GAME.private_view(state, ANN), ANN, "over")
    assert GAME.private_view(state, BO)["last_flash"] == "Ann's 1 (Light) takes Bo's 1 (Light); Ann wins."


def test_private_view_holds_only_the_players_own_pieces():
    state = act(started(), flash(ANN, "8", "2"))  # Ann's Peripheral and Bo's Shadow are revealed
    ann = GAME.private_view(state, ANN)
    assert [p["identity"] for p in ann["pieces"]][:3] == ["Light", "Shadow", "Shadow"]
    bo = GAME.private_view(state, BO)
    assert bo["pieces"][7]["identity"] == "Peripheral"  # Bo's own 8, not Ann's
    assert "Ann's 8 (Peripheral)" in bo["last_flash"]


def test_public_view_during_setup_shows_nothing_but_who_is_ready():
    state = act(new_game(), example_setup(ANN))
    view = GAME.public_view(state)
    assert identity_words(as_text(view)) == set()
    assert [p["ready"] for p in view["players"]] == [True, False]
    assert all(p["where"] == "off" for side in view["players"] for p in side["pieces"])
    assert view["players"][0]["zero_g"]["face_down"] == []


def test_public_view_in_play_shows_where_labels_are_but_no_identity():
    view = GAME.public_view(started())
    assert identity_words(as_text(view)) == set()
    ann = view["players"][0]
    assert ann["zero_g"]["face_down"] == [str(n) for n in range(11, 18)]
    assert ann["pieces"][0] == {"label": "1", "where": "board", "revealed": False}
    assert ann["powers_used"] == {"memory_swaps": 0, "time": 0, "totem": False, "void_gravity": 0, "reflector": 0}


def test_public_last_flash_names_both_pieces():
    state = act(started(), flash(ANN, "8", "2"), pass_(BO))
    flash_view = GAME.public_view(state)["last_flash"]
    assert flash_view == {
        "sentence": "Ann's 8 (Peripheral) captures Bo's 2 (Shadow).",
        "result": "capture",
        "attacker": {"owner": ANN, "label": "8", "identity": "Peripheral"},
        "defender": {"owner": BO, "label": "2", "identity": "Shadow"},
    }


def test_unknown_player_private_view_is_empty_of_secrets():
    view = GAME.private_view(started(), "Cy")
    assert identity_words(as_text(view)) == set() and "pieces" not in view


def test_public_events_tell_what_happened_but_not_what_a_piece_is():
    state = act(new_game(), example_setup(ANN))
    shown = [GAME.public_event(e) for e in events_of(state, example_setup(BO))]
    assert shown[0] == {"type": "clone_chosen", "player": BO}
    assert shown[1] == {"type": "piece_assigned", "player": BO, "label": "1", "where": "board"}
    assert identity_words(as_text(shown)) == set()
    state = act(state, example_setup(BO), bring_in(ANN, "11"), pass_(BO))
    swap = events_of(state, {"type": "swap", "player": ANN, "memory": "6", "with": "2"})
    assert GAME.public_event(swap[0]) == {"type": "memory_swapped", "player": ANN, "labels": ["2", "6"]}
    sent = GAME.public_event(events_of(state, flash(ANN, "11", "8", reflector="5"))[0])
    assert sent["reflector"] is True  # a Reflector sent it; which of Ann's pieces is one stays hidden
    assert "5" not in {str(v) for v in sent.values()}
    gravity = events_of(state, {"type": "gravity", "player": ANN, "void": "9", "voids": ["10"]})
    assert GAME.public_event(gravity[0]) == {"type": "gravity_cast", "player": ANN, "voids": ["10"], "to": None}


def test_news_tells_each_step_of_a_turn():
    state = act(started(), {"type": "swap", "player": ANN, "memory": "6", "with": "2"})
    assert [news(state, step) for step in state.this_turn.steps] == ["Ann made a Memory swap: 2 and 6 swapped places."]


# -- names and messages the game does not know --------------------------------------------------------


def test_a_name_not_at_the_table_may_do_nothing():
    """Only the two players at the table act; anyone else is offered no action, in setup or in play."""
    assert GAME.legal_actions(new_game(), "Zed") == []
    assert GAME.legal_actions(started(), "Zed") == []


def test_the_rules_module_named_directly_refuses_what_the_engine_keeps_from_it():
    """The engine answers `leave` and `player_left` itself; the rules module handed them says it has none,
    and the table is told no step of a turn Quin never makes."""
    import pytest

    from companion.game import Event, Leave, PlayerLeft, RuleError, UnknownEvent
    from companion.games.quin import rules

    class Stray(Event):
        type = "stray"

    with pytest.raises(RuleError, match=r"^Quin has no action 'leave'\.$"):
        rules.decide(started(), Leave(ANN))
    with pytest.raises(UnknownEvent, match=r"^Quin does not know the event PlayerLeft"):
        rules.evolve(started(), PlayerLeft(ANN))
    with pytest.raises(UnknownEvent, match=r"^Quin does not know the event .*Stray"):
        news(started(), Stray())
