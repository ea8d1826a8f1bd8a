"""Quinque: setup, the shape of a turn, adding tiles and marking skydivers."""

from __future__ import annotations

import json

import pytest

from companion.engine import RegisteredGame
from companion.game import ChooseFirst, FirstPlayerChosen, Options, RuleError, SetupError
from companion.games import game
from companion.games.quinque import settings as quinque_settings
from companion.games.quinque.board import open_spaces
from companion.games.quinque.rules import (
    Add,
    Mark,
    Move,
    MoveSkipped,
    Skip,
    SkydiverMarked,
    TileAdded,
    TurnEnded,
    legal_actions,
)
from companion.session import Session
from companion.store import Store
from tests.support.quinque import ANN, BO, GAME, act, add, board, mark, move, new_game, play, skip

# -- setup --------------------------------------------------------------------------------


def test_registered_under_its_name():
    assert isinstance(GAME, RegisteredGame) and game("quinque") is GAME
    assert (GAME.title, GAME.min_players, GAME.max_players) == ("Quinque", 2, 2)
    assert GAME.chooses_first
    assert GAME.action_types == ("mark", "add", "move", "skip", "choose_first", "leave")


def test_the_published_supplies_by_default():
    state = new_game()
    assert state.tiles == ()
    assert state.tiles_left == (16, 16)
    assert state.parachutes_left == (18, 18)
    assert state.advanced is False
    assert GAME.current_player(state) == ANN


def test_the_settings_table_is_read_with_defaults():
    assert quinque_settings.read({}) == quinque_settings.QuinqueSettings(advanced=False, tiles=16, parachutes=18)
    assert quinque_settings.read({"advanced": True, "tiles": 9}) == quinque_settings.QuinqueSettings(True, 9, 18)


@pytest.mark.parametrize("names", [("Ann",), ("Ann", "Bo", "Cy")])
def test_exactly_two_players(names):
    with pytest.raises(SetupError, match="exactly 2"):
        GAME.setup(Options.for_names(*names))


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"advanced": "yes"}, "advanced"),
        ({"advanced": 1}, "advanced"),
        ({"tiles": 0}, "tiles"),
        ({"tiles": "16"}, "tiles"),
        ({"parachutes": True}, "parachutes"),
        ({"parachutes": -3}, "parachutes"),
        ({"tiles": 4, "parachutes": 9}, "parachutes"),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(settings, named):
    with pytest.raises(SetupError, match=f'"{named}"'):
        new_game(**settings)


def test_settings_change_the_supplies():
    state = new_game(advanced=True, tiles=5, parachutes=7)
    assert state.advanced is True
    assert state.tiles_left == (5, 5)
    assert state.parachutes_left == (7, 7)


# -- who goes first -----------------------------------------------------------------------


def test_choose_first_before_the_first_tile():
    state, events = act(new_game(), {"type": "choose_first", "player": BO, "chosen_by": ANN, "how": "race"})
    assert events == [FirstPlayerChosen(BO, ANN, "race")]
    assert GAME.current_player(state) == BO
    state = play(state, [add(BO, (0, 0), "nw")])
    assert state.tiles[0].marks[0] == BO


def test_choose_first_is_refused_once_play_has_begun(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, "quinque", Options.for_names(ANN, BO), clock=lambda: 0.0)
        session.act(ChooseFirst(BO, ANN, "race"))  # choosing does not begin play: the table may choose again
        session.act(ChooseFirst(ANN, BO, "table"))
        session.act(add(ANN, (0, 0), "nw"))
        session.act(skip(ANN))
        with pytest.raises(RuleError, match="only before play begins"):
            session.act({"type": "choose_first", "player": BO, "chosen_by": ANN, "how": "table"})


@pytest.mark.parametrize(
    "action",
    [
        {"type": "choose_first", "player": "Cy", "chosen_by": ANN, "how": "race"},
        {"type": "choose_first", "player": BO, "chosen_by": None, "how": "race"},
        {"type": "choose_first", "player": BO, "chosen_by": ANN, "how": "coin"},
        {"type": "choose_first", "player": BO, "chosen_by": ANN},
    ],
)
def test_choose_first_checks_every_field(action):
    with pytest.raises(RuleError):
        act(new_game(), action)


# -- the first tile and adding tiles ------------------------------------------------------


def test_the_first_tile_goes_at_the_origin_with_a_parachute():
    state, events = act(new_game(), add(ANN, (0, 0), "se"))
    assert events == [TileAdded(ANN, (0, 0)), SkydiverMarked(ANN, (0, 0), "se")]
    assert [GAME.public_event(e) for e in events] == [  # as `companion play` prints them
        {"type": "tile_added", "player": ANN, "tile": [0, 0]},
        {"type": "skydiver_marked", "player": ANN, "tile": [0, 0], "skydiver": "se"},
    ]
    assert state.tiles[0].marks == (None, None, None, ANN)
    assert state.tiles_left == (15, 16)
    assert state.parachutes_left == (17, 18)
    assert state.step == "move"


def test_the_first_tile_elsewhere_is_refused():
    with pytest.raises(RuleError, match=r"first tile goes at \[0, 0\]"):
        act(new_game(), add(ANN, (3, 1), "nw"))


def test_nothing_to_mark_before_the_first_tile():
    with pytest.raises(RuleError, match=r"no tile at \[0, 0\]. To put a new tile there, use add"):
        act(new_game(), mark(ANN, (0, 0), "nw"))


def test_a_new_tile_must_touch_the_formation_edge_to_edge():
    state = board("A.", "..", turn=BO, step="mark")
    for diagonal in [(1, 1), (-1, -1), (1, -1)]:
        with pytest.raises(RuleError, match="must touch the formation edge to edge"):
            act(state, add(BO, diagonal, "nw"))
    with pytest.raises(RuleError, match="must touch"):
        act(state, add(BO, (2, 0), "nw"))
    for side in [(1, 0), (-1, 0), (0, 1), (0, -1)]:
        after, _ = act(state, add(BO, side, "nw"))
        assert after.tile_at(side) is not None


def test_open_spaces_are_the_free_spaces_along_the_edges():
    state = board("A...", "....", turn=BO, step="mark")
    assert set(open_spaces(state.occupied)) == {(-1, 0), (2, 0), (0, -1), (1, -1), (0, 1), (1, 1)}


def test_adding_on_a_tile_is_refused():
    state = board("A.", "..", turn=BO, step="mark")
    with pytest.raises(RuleError, match="already a tile at"):
        act(state, add(BO, (0, 0), "ne"))


def test_only_the_player_on_turn_has_legal_actions():
    state = new_game()
    assert {type(a) for a in legal_actions(state, ANN)} == {Add}
    assert legal_actions(state, BO) == []


def test_no_tiles_left_means_marking_on_the_formation():
    state = board("A.B.", "....", turn=ANN, step="mark", tiles_left=(0, 3))
    with pytest.raises(RuleError, match="Ann has no tiles left"):
        act(state, add(ANN, (2, 0), "nw"))
    assert not any(isinstance(a, Add) for a in legal_actions(state, ANN))
    assert any(isinstance(a, Mark) for a in legal_actions(state, ANN))
    after, _ = act(state, mark(ANN, (1, 0), "se"))
    assert after.tiles_left == (0, 3)


# -- marking --------------------------------------------------------------------------


def test_marking_a_free_skydiver_uses_one_parachute():
    state = board("A.B.", "....", turn=ANN, step="mark")
    after, events = act(state, mark(ANN, (1, 0), "sw"))
    assert events[0] == SkydiverMarked(ANN, (1, 0), "sw")
    assert after.tile_at((1, 0)).marks == (BO, None, ANN, None)
    assert after.parachutes_left == (state.parachutes_left[0] - 1, state.parachutes_left[1])
    assert after.tiles_left == state.tiles_left


@pytest.mark.parametrize("corner", ["nw", "ne"])
def test_a_skydiver_wears_one_parachute_only(corner):
    state = board("AB..", "....", turn=ANN, step="mark")
    with pytest.raises(RuleError, match="already wears"):
        act(state, mark(ANN, (0, 0), corner))


# -- the shape of a turn ----------------------------------------------------------------


def test_a_turn_is_a_mark_then_a_move_or_a_skip():
    state = play(new_game(), [add(ANN, (0, 0), "nw")])
    assert GAME.current_player(state) == ANN
    with pytest.raises(RuleError, match="marked a skydiver this turn already"):
        act(state, mark(ANN, (0, 0), "ne"))
    with pytest.raises(RuleError, match="marked a skydiver this turn already"):
        act(state, add(ANN, (1, 0), "ne"))
    state, events = act(state, skip(ANN))
    assert events == [MoveSkipped(ANN), TurnEnded(ANN, BO)]
    assert GAME.public_event(events[1]) == {"type": "turn_ended", "player": ANN, "next": BO}
    assert (GAME.current_player(state), state.step, state.marked_tile) == (BO, "mark", None)


def test_a_move_ends_the_turn():
    state = play(new_game(), [add(ANN, (0, 0), "nw"), skip(ANN), add(BO, (1, 0), "nw"), skip(BO)])
    state = play(state, [add(ANN, (2, 0), "nw")])
    state, events = act(state, move(ANN, (0, 0), (1, 1)))
    assert [e.type for e in events] == ["tile_moved", "turn_ended"]
    assert GAME.current_player(state) == BO


FIRST_ACTION = "First action (mandatory): you must either mark a skydiver or move a tile."
SECOND_ACTION = "Second action (optional, you may skip this step): you may move a tile."


def test_no_skip_before_the_first_action():
    """FIRST_ACTION: the first action is mandatory, so the turn cannot be skipped before it."""
    state = board("A.B.", "....", turn=ANN, step="mark")
    with pytest.raises(RuleError, match="must first mark a skydiver, add a tile or move a tile"):
        act(state, skip(ANN))


def test_the_first_action_may_be_a_tile_move_and_the_second_a_move_too():
    """FIRST_ACTION and SECOND_ACTION: move-then-move is a legal turn (issue 14: a move first was refused)."""
    state = board("A.B.", "....", turn=ANN, step="mark")
    state, events = act(state, move(ANN, (0, 0), (1, 1)))
    assert [e.type for e in events] == ["tile_moved"]  # the turn goes on: the optional second action is due
    assert GAME.current_player(state) == ANN and state.step == "move" and state.marked_tile is None
    assert state.parachutes_left == (17, 17)  # nothing marked
    with pytest.raises(RuleError, match="Ann has moved a tile this turn already; the second action is a tile move"):
        act(state, mark(ANN, (1, 0), "se"))
    with pytest.raises(RuleError, match="the second action is a tile move"):
        act(state, add(ANN, (2, 0), "nw"))
    assert {type(a) for a in legal_actions(state, ANN)} == {Move, Skip}
    state, events = act(state, move(ANN, (1, 0), (2, 1)))  # the second action: the other tile moves too
    assert [e.type for e in events] == ["tile_moved", "turn_ended"]
    assert GAME.current_player(state) == BO and state.step == "mark"


def test_a_move_first_then_skip_ends_the_turn():
    """SECOND_ACTION: "you may skip this step" after a first action that was a move."""
    state, _ = act(board("A.B.", "....", turn=ANN, step="mark"), move(ANN, (0, 0), (1, 1)))
    state, events = act(state, skip(ANN))
    assert [e.type for e in events] == ["move_skipped", "turn_ended"]
    assert GAME.current_player(state) == BO


def test_a_mark_first_still_forbids_a_second_mark():
    """FIRST_ACTION then SECOND_ACTION: after a mark, the second action may only be a move."""
    state, _ = act(board("A.B.", "....", turn=ANN, step="mark"), mark(ANN, (0, 0), "ne"))
    with pytest.raises(RuleError, match="Ann has marked a skydiver this turn already"):
        act(state, mark(ANN, (1, 0), "se"))


def test_a_first_move_that_lines_up_five_wins_at_once():
    """FIRST_ACTION may be a move, and "The player who successfully lines up five ... immediately wins"."""
    state = board("AAAA", "....", "  A.", "  ..", turn=ANN, step="mark")
    state, events = act(state, move(ANN, (1, 1), (2, 0)))  # its Ann skydiver ends the row of four
    assert [e.type for e in events] == ["tile_moved", "lined_up"]
    assert GAME.outcome(state).winners == (ANN,)


def test_out_of_parachutes_the_first_action_is_a_move():
    """FIRST_ACTION: "either mark a skydiver or move a tile"; with no parachute left only a move is open."""
    state = board("A.B.", "....", turn=ANN, step="mark", parachutes_left=(0, 3))
    assert {type(a) for a in legal_actions(state, ANN)} == {Move}
    with pytest.raises(RuleError, match="must first mark a skydiver, add a tile or move a tile"):
        act(state, skip(ANN))


def test_only_the_player_whose_turn_it_is_acts():
    state = board("A.B.", "....", turn=ANN, step="mark")
    with pytest.raises(RuleError, match="It is Ann's turn, not Bo's"):
        act(state, mark(BO, (0, 0), "ne"))


@pytest.mark.parametrize(
    "action",
    [
        {"type": "mark", "tile": [0, 0], "skydiver": "ne"},
        {"type": "mark", "player": "Cy", "tile": [0, 0], "skydiver": "ne"},
        {"type": "mark", "player": ANN, "skydiver": "ne"},
        {"type": "mark", "player": ANN, "tile": [0], "skydiver": "ne"},
        {"type": "mark", "player": ANN, "tile": "0,0", "skydiver": "ne"},
        {"type": "mark", "player": ANN, "tile": [0.0, 0], "skydiver": "ne"},
        {"type": "mark", "player": ANN, "tile": [True, 0], "skydiver": "ne"},
        {"type": "mark", "player": ANN, "tile": [0, 0], "skydiver": "north"},
        {"type": "mark", "player": ANN, "tile": [0, 0]},
        {"type": "add", "player": ANN, "tile": None, "skydiver": "nw"},
        {"type": "fly", "player": ANN},
        {"player": ANN},
    ],
)
def test_malformed_actions_are_refused_with_a_sentence(action):
    state = board("A.B.", "....", turn=ANN, step="mark")
    with pytest.raises(RuleError) as refusal:
        act(state, action)
    assert str(refusal.value).endswith(".")


@pytest.mark.parametrize(
    "action",
    [
        {"type": "move", "player": ANN, "to": [0, 1]},
        {"type": "move", "player": ANN, "from": [0, 0], "to": {"x": 0}},
        {"type": "skip"},
    ],
)
def test_malformed_moves_are_refused_with_a_sentence(action):
    state = board("A.B.", "....", turn=ANN, step="move")
    with pytest.raises(RuleError):
        act(state, action)


def test_nothing_is_allowed_after_the_game_is_over():
    state = board("AAAA.B", "BBB...", turn=ANN, step="mark")
    state, _ = act(state, mark(ANN, (2, 0), "nw"))
    assert state.winner == ANN
    assert GAME.current_player(state) is None
    assert legal_actions(state, ANN) == [] and legal_actions(state, BO) == []
    for action in [skip(ANN), mark(BO, (2, 0), "sw"), move(ANN, (0, 0), (0, 1))]:
        with pytest.raises(RuleError, match="game is over"):
            act(state, action)


# -- views --------------------------------------------------------------------------------


def test_public_view_shows_supplies_tiles_and_what_may_happen_next():
    state = board("A.B.", "....", turn=BO, step="mark")
    view = GAME.public_view(state)
    json.dumps(view)  # JSON-ready
    assert view["players"] == [
        {"name": ANN, "parachutes_left": 17, "tiles_left": 15},
        {"name": BO, "parachutes_left": 17, "tiles_left": 15},
    ]
    assert view["current"] == BO
    assert view["step"] == "mark"
    assert view["tiles"][1] == {
        "id": 1,
        "at": [1, 0],
        "skydivers": {"nw": BO, "ne": None, "sw": None, "se": None},
        "parachutes": 1,
        "marked_this_turn": False,
        "stays": None,
    }
    assert [1, -1] in view["open_spaces"]
    # The first action may be a tile move, so the moves are shown before the mark too.
    assert view["moves"] == [
        {"from": [0, 0], "to": [[1, -1], [2, 0], [1, 1]]},
        {"from": [1, 0], "to": [[0, -1], [-1, 0], [0, 1]]},
    ]
    assert view["line"] == [] and view["winner"] is None and not view["tied"]
    assert GAME.private_view(state, ANN) == view  # no secrets in Quinque


def test_public_view_lists_the_legal_moves_during_the_move_step():
    state = board("A.B.", "....", turn=BO, step="move", marked=(1, 0))
    view = GAME.public_view(state)
    assert view["open_spaces"] == []
    assert view["moves"] == [{"from": [0, 0], "to": [[1, -1], [2, 0], [1, 1]]}]
    assert view["tiles"][0]["stays"] is None
    assert view["tiles"][1]["stays"] == "That tile was marked this turn, so it stays where it is."


def test_every_event_reads_back_from_its_json():
    state = board("AAAA.B", "BBB...", turn=BO, step="mark")
    for action in [add(BO, (3, 0), "nw"), skip(BO), mark(ANN, (2, 0), "nw")]:
        state, events = act(state, action)
        for event in events:
            assert GAME.event_from_json(GAME.to_json(event)) == event


def test_the_log_names_a_space_from_where_the_first_tile_was_laid():
    """The formation has no edge to count from and its first tile may move away: the log counts from the
    start, right and down as the screen draws it."""
    from companion.games.quinque.views import place

    assert place((0, 0)) == "at the start"
    assert place((1, 0)) == "1 right of the start"
    assert place((0, -2)) == "2 up from the start"
    assert place((-2, 1)) == "2 left and 1 down from the start"


# -- the views' helpers, and the rules module named directly ----------------------------------------


def test_each_skydiver_is_read_by_its_corner():
    """ "Choose a free skydiver on an already-played tile and put a parachute on his back": whose is at each corner."""
    from companion.games.quinque.views import Skydivers

    owners = Skydivers(nw=ANN, ne=None, sw=BO, se=None)
    assert [owners.at(corner) for corner in ("nw", "ne", "sw", "se")] == [ANN, None, BO, None]


def test_the_note_beside_the_formation_says_the_move_rule_in_play():
    """Basic: "any free space on a horizontal, vertical, or diagonal line"; advanced: by the tile's parachutes."""
    from companion.games.quinque.views import how_tiles_move

    assert how_tiles_move(False) == "Moves: along a row, column or diagonal, over other tiles if need be."
    assert how_tiles_move(True).startswith("Advanced moves: 1 parachute, one space along row or column; 2,")


def test_the_rules_module_named_directly_refuses_what_the_engine_keeps_from_it():
    """The engine answers `leave` and `player_left` itself; the rules module handed them says it has none."""
    from companion.dice import RandomDice
    from companion.game import Event, Leave, PlayerLeft, UnknownEvent
    from companion.games.quinque import rules, views

    class Stray(Event):
        type = "stray"

    with pytest.raises(RuleError, match=r"^Quinque has no action 'leave'\.$"):
        rules.decide(new_game(), Leave(ANN), RandomDice.seeded(0))
    with pytest.raises(UnknownEvent, match=r"^Quinque does not know the event PlayerLeft"):
        rules.evolve(new_game(), PlayerLeft(ANN))
    with pytest.raises(UnknownEvent, match=r"^Quinque does not know the event .*Stray"):
        views.tell(Stray(), new_game())
