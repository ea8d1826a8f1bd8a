"""Quantum Link rules: the board's shape, covering, scoring, the end, and every refusal."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.game import (
    TIE,
    Action,
    ChooseFirst,
    Event,
    Leave,
    Options,
    PlayerLeft,
    RuleError,
    SetupError,
    UnknownEvent,
)
from companion.games import game
from companion.games.quantum_link import rules as ql
from companion.games.quantum_link import settings, views
from companion.games.quantum_link.rules import (
    CELLS,
    Cell,
    Covered,
    GameEnded,
    Pass,
    Passed,
    Place,
    Placed,
    QuantumLinkState,
)
from companion.session import Session
from companion.store import Store

GAME = game("quantum-link")
DICE = RandomDice.seeded(0)

CORNERS: tuple[Cell, ...] = ((4, -4), (4, 0), (0, 4), (-4, 4), (-4, 0), (0, -4))
# The rim's 18 edge cells: the middle one of each of the six sides, and the two beside the corners on each side.
EDGE_MIDDLES: tuple[Cell, ...] = ((4, -2), (2, 2), (-2, 4), (-4, 2), (-2, -2), (2, -4))
EDGES_BY_CORNER: tuple[Cell, ...] = (
    (4, -3), (3, -4), (4, -1), (3, 1), (1, 3), (-1, 4), (-3, 4), (-4, 3), (-4, 1), (-3, -1), (-1, -3), (1, -4),
)  # fmt: skip


def new(*names: str) -> QuantumLinkState:
    state: QuantumLinkState = GAME.setup(Options.for_names(*(names or ("Ann", "Bo"))))
    return state


def typed(state: QuantumLinkState, action: Action | Mapping[str, Any]) -> Action:
    """`action` as the engine takes it: a JSON object is parsed first, as at the command line."""
    return GAME.parse_action(action, state.players) if isinstance(action, Mapping) else action


def act(state: QuantumLinkState, action: Action | Mapping[str, Any]) -> tuple[QuantumLinkState, list[Event]]:
    events = list(GAME.decide(state, typed(state, action), DICE))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def play(state: QuantumLinkState, *moves: tuple[str, Cell, int] | str) -> QuantumLinkState:
    """Play moves in turn: ``(player, cell, face)`` places, a bare name passes."""
    for move in moves:
        if isinstance(move, str):
            state, _ = act(state, Pass(move))
        else:
            state, _ = act(state, Place(*move))
    return state


def lay(state: QuantumLinkState, dice: Iterable[tuple[str, Cell, int]], then: str = "") -> QuantumLinkState:
    """Put dice on the board directly (no turns, no covering), then give `then` (or the first seat) the turn."""
    for player, cell, face in dice:
        state = ql.evolve(state, Placed(player, cell, face))
    return replace(state, turn=state.players.index(then) if then else 0)


def place(player: str, cell: Cell, face: int) -> dict[str, Any]:
    """A placement as a JSON object, the way a script or a screen of old wrote it."""
    return {"type": "place", "player": player, "cell": list(cell), "face": face}


def covered_cells(events: Iterable[Event]) -> set[Cell]:
    return {e.cell for e in events if isinstance(e, Covered)}


def refusal(state: QuantumLinkState, action: Action | Mapping[str, Any]) -> str:
    """The sentence `action` is refused with (parsing included); fails the test if it is taken."""
    with pytest.raises(RuleError) as refused:
        GAME.decide(state, typed(state, action), DICE)
    return str(refused.value)


def ring(cell: Cell) -> tuple[Cell, ...]:
    """The on-board neighbours, computed independently with cube distance."""
    q, r = cell
    return tuple((a, b) for a, b in CELLS if max(abs(a - q), abs(b - r), abs((a + b) - (q + r))) == 1)


# -- the board -----------------------------------------------------------------------


def test_the_board_has_61_cells_in_a_hexagon_of_side_5() -> None:
    assert len(CELLS) == 61
    assert len(set(CELLS)) == 61
    rows = [sum(1 for _, r in CELLS if r == row) for row in range(-4, 5)]
    assert rows == [5, 6, 7, 8, 9, 8, 7, 6, 5]


def test_cells_are_named_by_row_and_place_in_row() -> None:
    assert ql.cell_name((0, 0)) == "E5"
    assert ql.cell_name((0, -4)) == "A1"
    assert ql.cell_name((4, -4)) == "A5"
    assert ql.cell_name((-4, 4)) == "I1"
    assert ql.cell_name((4, 0)) == "E9"
    assert len({ql.cell_name(c) for c in CELLS}) == 61


@pytest.mark.parametrize("cell", CORNERS)
def test_a_corner_has_three_neighbours(cell: Cell) -> None:
    assert len(ql.neighbours(cell)) == 3
    assert set(ql.neighbours(cell)) == set(ring(cell))


@pytest.mark.parametrize("cell", EDGE_MIDDLES + EDGES_BY_CORNER)
def test_an_edge_cell_has_four_neighbours(cell: Cell) -> None:
    assert len(ql.neighbours(cell)) == 4
    assert set(ql.neighbours(cell)) == set(ring(cell))


def test_the_rim_has_six_corners_and_eighteen_edge_cells_and_the_rest_have_six_neighbours() -> None:
    counts = {n: sum(1 for c in CELLS if len(ql.neighbours(c)) == n) for n in (3, 4, 6)}
    assert counts == {3: 6, 4: 18, 6: 37}
    assert {c for c in CELLS if len(ql.neighbours(c)) == 3} == set(CORNERS)
    assert all(set(ql.neighbours(c)) == set(ring(c)) for c in CELLS)


def test_neighbourhood_is_symmetric() -> None:
    for cell in CELLS:
        for other in ql.neighbours(cell):
            assert cell in ql.neighbours(other)


SURROUND_CASES = [*CORNERS, *EDGE_MIDDLES, *EDGES_BY_CORNER, (0, 0), (3, -3), (-1, 2)]


@pytest.mark.parametrize("cell", SURROUND_CASES)
def test_surrounded_means_every_on_board_neighbour_holds_a_die(cell: Cell) -> None:
    around = ql.neighbours(cell)
    full = lay(new(), [("Ann", cell, 1), *(("Bo", n, 1) for n in around)])
    assert ql.surrounded(full, cell)
    for missing in around:  # any one gap and the die is not surrounded
        gap = lay(new(), [("Ann", cell, 1), *(("Bo", n, 1) for n in around if n != missing)])
        assert not ql.surrounded(gap, cell)


@pytest.mark.parametrize("cell", [*CORNERS, *EDGE_MIDDLES, *EDGES_BY_CORNER])
def test_on_the_rim_the_board_edge_counts_as_surrounding(cell: Cell) -> None:
    """A rim die with all its on-board neighbours filled, none friendly, face 1: covered by the last one."""
    around = ql.neighbours(cell)
    state = lay(new(), [("Ann", cell, 1), *(("Bo", n, 2) for n in around[:-1])], then="Bo")
    after, events = act(state, place("Bo", around[-1], 2))
    assert cell in covered_cells(events)
    die = after.die(cell)
    assert die is not None and die.covered


@pytest.mark.parametrize("cell", CORNERS)
def test_a_corner_die_whose_three_neighbours_are_friends_scores_a_three(cell: Cell) -> None:
    around = ql.neighbours(cell)
    state = lay(new(), [("Ann", cell, 3), *(("Ann", n, 6) for n in around)])
    assert ql.surrounded(state, cell)
    assert ql.friends(state, cell) == 3
    assert ql.scoring(state, cell)
    assert ql.to_cover(state) == ()  # the 6s beside it still have empty sides


# -- covering ----------------------------------------------------------------------------


def example_from_the_rules() -> QuantumLinkState:
    """Green's 4 in the middle with three green neighbours; Black is about to close its last side."""
    state = new("Green", "Black")
    return play(
        state,
        ("Green", (0, 0), 4),
        ("Black", (-1, 0), 2),
        ("Green", (1, 0), 3),
        ("Black", (-1, 1), 2),
        ("Green", (1, -1), 3),
        ("Black", (-4, 4), 3),
        ("Green", (0, -1), 2),
    )


def test_the_example_in_the_rules_black_s_1_gets_green_s_4_covered() -> None:
    state = example_from_the_rules()
    four = state.die((0, 0))
    assert four is not None and not four.covered
    after, events = act(state, place("Black", (0, 1), 1))
    assert [e.type for e in events] == ["placed", "covered"]
    assert GAME.to_json(events[1]) == {
        "type": "covered",
        "cell": [0, 0],
        "name": "E5",
        "player": "Green",
        "face": 4,
        "friends": 3,
        "why": "surrounded",
    }
    four = after.die((0, 0))
    assert four is not None and four.covered and four.player == "Green"
    assert events[1] == Covered((0, 0), "E5", "Green", 4, 3, ql.SURROUNDED)
    view = GAME.public_view(after)
    assert view["just_covered"] == [[0, 0]]
    assert view["news"] == "Cover Green's 4 at E5 (3 friendly neighbours)."


def test_a_die_surrounded_with_the_right_number_of_friends_is_not_covered() -> None:
    base = new("Green", "Black")
    state = lay(base, [("Green", (0, 0), 3), ("Green", (1, 0), 6), ("Green", (1, -1), 6), ("Green", (0, -1), 6)])
    state = lay(state, [("Black", (-1, 0), 6), ("Black", (-1, 1), 6)], then="Black")
    after, events = act(state, place("Black", (0, 1), 6))
    assert covered_cells(events) == set()
    assert ql.surrounded(after, (0, 0))
    assert ql.scoring(after, (0, 0))
    assert ql.score(after, "Green") == 3


def test_a_die_placed_into_a_hole_is_covered_at_once_when_it_does_not_match() -> None:
    around = ql.neighbours((0, 0))
    state = lay(new(), [("Bo", n, 6) for n in around])
    after, events = act(state, place("Ann", (0, 0), 1))  # Ann's turn: the lay() moves ended on Bo
    assert [e.type for e in events] == ["placed", "covered"]
    assert covered_cells(events) == {(0, 0)}
    assert after.die((0, 0)) == ql.Die("Ann", 1, covered=True)


def test_one_placement_can_cover_several_dice_of_both_colours() -> None:
    # Ann's 2 at (0,0) and Bo's 5 at (1,0) share sides; (1,-1) is the last gap of both.
    state = lay(
        new(),
        [
            ("Ann", (0, 0), 2),
            ("Bo", (1, 0), 5),
            ("Bo", (0, -1), 1),
            ("Bo", (-1, 0), 1),
            ("Bo", (-1, 1), 1),
            ("Bo", (0, 1), 1),
            ("Ann", (2, 0), 1),
            ("Ann", (2, -1), 1),
            ("Ann", (1, 1), 1),
        ],
        then="Bo",
    )
    # (1,0)'s sides: (2,0) (2,-1) (1,-1) (0,0) (0,1) (1,1): only (1,-1) is empty.
    assert ql.empty_neighbours(state, (1, 0)) == 1
    assert ql.empty_neighbours(state, (0, 0)) == 1
    after, events = act(state, place("Bo", (1, -1), 6))
    covers = covered_cells(events)
    assert {(0, 0), (1, 0)} <= covers
    assert {e.player for e in events if isinstance(e, Covered)} == {"Ann", "Bo"}
    for cell in covers:
        die = after.die(cell)
        assert die is not None and die.covered


def test_a_player_s_own_move_can_cover_their_own_die() -> None:
    around = ql.neighbours((0, 0))
    state = lay(new(), [("Ann", (0, 0), 6), *(("Ann", n, 1) for n in around[:4]), ("Bo", around[4], 1)])
    _, events = act(state, place("Ann", around[5], 2))
    assert (0, 0) in covered_cells(events)  # five friends and a 6: Ann's own placement sealed it


def test_a_die_that_is_not_surrounded_is_never_covered_before_the_end() -> None:
    state = play(new(), ("Ann", (0, 0), 6), ("Bo", (3, 0), 6), ("Ann", (1, 0), 6))
    assert all(d is None or not d.covered for d in state.board)
    assert not ql.scoring(state, (0, 0))


def test_covered_dice_still_count_as_friendly_neighbours() -> None:
    """RULINGS: a covered die stays on the board, so Ann's covered 5 is the one friend Ann's 1 needs."""
    corner = (-4, 4)
    a, b, c = ql.neighbours(corner)
    state = lay(new(), [("Ann", corner, 5), ("Bo", a, 1), ("Bo", b, 1)])
    after, events = act(state, place("Ann", c, 1))
    assert corner in covered_cells(events)
    assert ql.friends(after, c) == 1
    assert ql.scoring(after, c)
    assert ql.score(after, "Ann") == 1


# -- scoring ------------------------------------------------------------------------------


def test_live_score_counts_matching_uncovered_dice_only() -> None:
    state = play(
        new(),
        ("Ann", (0, 0), 1),
        ("Bo", (3, -3), 1),
        ("Ann", (1, 0), 1),  # Ann: two 1s touching: 2 points
        ("Bo", (-3, 3), 2),  # alone: no friends yet
        ("Ann", (0, 1), 2),  # touches (0,0) and (1,0): the 2 scores, but each 1 now has 2 friends
    )
    assert ql.friends(state, (0, 0)) == 2
    assert ql.friends(state, (1, 0)) == 2
    assert ql.friends(state, (0, 1)) == 2
    assert ql.score(state, "Ann") == 2
    assert ql.score(state, "Bo") == 0
    view = GAME.public_view(state)
    assert view["scores"] == {"Ann": 2, "Bo": 0}
    assert [p["score"] for p in view["players"]] == [2, 0]


def test_score_after_the_rules_example() -> None:
    state = example_from_the_rules()
    state, _ = act(state, place("Black", (0, 1), 1))
    # Green: 3 at (1,-1) has 3 green friends (scores), 2 at (0,-1) has 2 (scores), 3 at (1,0) has 2.
    assert ql.score(state, "Green") == 3 + 2
    # Black: 2 at (-1,1) touches (0,1) and (-1,0): scores; 1 at (0,1) touches (-1,1) only: scores.
    assert ql.score(state, "Black") == 2 + 1


# -- the end ----------------------------------------------------------------------------


def test_two_passes_in_a_row_end_the_game_and_cover_every_non_scoring_die() -> None:
    state = example_from_the_rules()
    state, _ = act(state, place("Black", (0, 1), 1))
    state, events = act(state, {"type": "pass", "player": "Green"})
    assert events == [Passed("Green")]
    assert GAME.outcome(state) is None
    state, events = act(state, {"type": "pass", "player": "Black"})
    assert [e.type for e in events] == ["passed", "covered", "covered", "covered", "game_ended"]
    assert covered_cells(events) == {(1, 0), (-1, 0), (-4, 4)}
    assert all(e.why == ql.AT_THE_END == "end" for e in events if isinstance(e, Covered))
    assert events[-1] == GameEnded({"Green": 5, "Black": 3})
    assert GAME.to_json(events[-1]) == {"type": "game_ended", "scores": {"Green": 5, "Black": 3}}
    for cell, die in zip(CELLS, state.board, strict=True):
        if die is not None:
            assert die.covered != (ql.friends(state, cell) == die.face)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == ("Green",)
    assert outcome.reason == ql.HIGHEST_SCORE == "highest score"
    assert outcome.detail == "Green wins 5 to 3 against Black."
    assert GAME.current_player(state) is None
    view = GAME.public_view(state)
    assert view["over"] and view["turn"] is None and view["rematch"] is None
    assert view["result"]["winners"] == ["Green"]


def test_a_pass_followed_by_a_placement_does_not_count_toward_the_end() -> None:
    state = play(new(), "Ann", ("Bo", (0, 0), 1), "Ann")
    assert GAME.outcome(state) is None
    assert state.passes == 1
    state = play(state, "Bo")
    assert GAME.outcome(state) is not None


def test_a_tie_is_a_tie_and_offers_the_other_player_the_opening() -> None:
    state = play(new(), "Ann", "Bo")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.is_tie and outcome.winners == ()
    assert outcome.reason == TIE
    assert outcome.detail == "Ann and Bo both score 0: play again with Bo opening."
    assert GAME.public_view(state)["rematch"] == {"opener": "Bo"}


def test_after_a_tie_opened_by_the_second_seat_the_first_seat_opens_the_rematch() -> None:
    state, _ = act(new(), {"type": "choose_first", "player": "Bo", "chosen_by": "Ann", "how": "table"})
    state = play(state, ("Bo", (0, 0), 1), ("Ann", (3, 0), 1), ("Bo", (1, 0), 1), ("Ann", (3, -1), 1), "Bo", "Ann")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.is_tie
    assert ql.score(state, "Ann") == ql.score(state, "Bo") == 2
    assert GAME.public_view(state)["rematch"] == {"opener": "Ann"}


def test_nothing_is_accepted_after_the_end() -> None:
    state = play(new(), "Ann", "Bo")
    for action in (place("Ann", (0, 0), 1), {"type": "pass", "player": "Ann"}, {"type": "pass", "player": "Bo"}):
        assert refusal(state, action) == "The game is over; start a new one to play again."


def test_a_player_without_dice_can_still_pass_and_the_game_ends_by_passing() -> None:
    empties = list(CELLS)
    state = new()
    for i in range(60):  # 30 each, alternating, leaving one cell empty
        player = "Ann" if i % 2 == 0 else "Bo"
        state = ql.evolve(state, Placed(player, empties[i], 6))
    assert ql.dice_left(state, "Ann") == 0
    assert refusal(state, place("Ann", empties[60], 3)) == "Ann has placed all 30 dice; Ann can only pass now."
    state = play(state, "Ann", "Bo")
    assert GAME.outcome(state) is not None


# -- who opens ---------------------------------------------------------------------------


def test_the_first_seat_opens_unless_chosen_otherwise() -> None:
    assert GAME.current_player(new()) == "Ann"
    state, events = act(new(), {"type": "choose_first", "player": "Bo", "chosen_by": "Ann", "how": "race"})
    assert [GAME.to_json(e) for e in events] == [
        {"type": "first_player_chosen", "player": "Bo", "chosen_by": "Ann", "how": "race"}
    ]
    assert GAME.current_player(state) == "Bo"
    assert GAME.public_view(state)["opener"] == "Bo"


def test_choose_first_is_refused_once_play_began() -> None:
    # Whether play has begun is the session's to know (from its log): the engine words the refusal.
    for first in (Place("Ann", (0, 0), 1), Pass("Ann")):
        session = Session.start(Store.in_memory(), "quantum-link", Options.for_names("Ann", "Bo"), dice=DICE)
        assert session.refusal(ChooseFirst("Bo", "Bo", "race")) is None
        session.act(first)
        assert session.refusal(ChooseFirst("Bo", "Bo", "race")) == "Who starts can be chosen only before play begins."


def test_turns_alternate() -> None:
    state = new()
    seen = []
    for move in (("Ann", (0, 0), 1), ("Bo", (1, 0), 1), "Ann", ("Bo", (2, 0), 1)):
        seen.append(GAME.current_player(state))
        state = play(state, move)
    assert seen == ["Ann", "Bo", "Ann", "Bo"]
    assert GAME.current_player(state) == "Ann"


# -- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "sentence"),
    [
        (place("Bo", (0, 0), 3), "It is Ann's turn, not Bo's."),
        ({"type": "pass", "player": "Bo"}, "It is Ann's turn, not Bo's."),
        (place("Ann", (5, 0), 3), "[5, 0] is off the board: q, r and -q-r must each lie between -4 and 4."),
        (place("Ann", (3, 2), 3), "[3, 2] is off the board: q, r and -q-r must each lie between -4 and 4."),
        (place("Ann", (0, 0), 7), "A die shows 1 to 6; 7 is not a face."),
        (place("Ann", (0, 0), 0), "A die shows 1 to 6; 0 is not a face."),
        # The shape of each field is the codec's to check, in its own words (the same for every game).
        (place("Ann", (0, 0), "3"), "\"face\" must be a whole number; it is '3'."),
        (place("Ann", (0, 0), True), '"face" must be a whole number; it is True.'),
        ({"type": "place", "player": "Ann", "cell": [0, 0]}, 'Quantum Link\'s "place" needs "face".'),
        ({"type": "place", "player": "Ann", "face": 2}, 'Quantum Link\'s "place" needs "cell".'),
        ({"type": "place", "player": "Ann", "cell": [0], "face": 2}, '"cell" must be a list of 2; it is [0].'),
        ({"type": "place", "player": "Ann", "cell": "E5", "face": 2}, "\"cell\" must be a list; it is 'E5'."),
        ({"type": "place", "player": "Ann", "cell": [0.5, 0], "face": 2}, '"cell" must be a whole number; it is 0.5.'),
        (place("Cy", (0, 0), 3), '"player" must name a player at the table (Ann, Bo).'),
        ({"type": "place", "cell": [0, 0], "face": 3}, 'Quantum Link\'s "place" needs "player".'),
        ({"type": "pass", "player": 7}, '"player" must be text; it is 7.'),
        ({"type": "roll", "player": "Ann"}, 'Quantum Link has no action "roll"'),
        ({"player": "Ann"}, 'Every action needs a "type"'),
        ({"type": "choose_first", "player": "Bo", "chosen_by": "Ann", "how": "coin"}, '"how" must be "race"'),
        ({"type": "choose_first", "player": "Cy", "chosen_by": "Ann", "how": "race"}, '"player" must name a player'),
        ({"type": "choose_first", "player": "Bo", "how": "race"}, 'Quantum Link\'s "choose_first" needs "chosen_by".'),
    ],
)
def test_refusals_say_why(action: dict[str, Any], sentence: str) -> None:
    state = new()
    assert refusal(state, action).startswith(sentence)
    assert state == new()


def test_an_occupied_cell_is_refused_even_when_its_die_is_covered() -> None:
    state = play(new(), ("Ann", (0, 0), 4))
    assert refusal(state, place("Bo", (0, 0), 2)) == "E5 already holds Ann's 4; place on an empty cell."
    around = ql.neighbours((0, 0))
    sealed = lay(new(), [("Bo", n, 6) for n in around])
    sealed, _ = act(sealed, place("Ann", (0, 0), 1))
    assert refusal(sealed, place("Bo", (0, 0), 2)) == "E5 already holds Ann's 1 (covered); place on an empty cell."


# -- set-up and views ----------------------------------------------------------------------


def test_exactly_two_players() -> None:
    with pytest.raises(SetupError, match="exactly 2 players"):
        GAME.setup(Options.for_names("Ann", "Bo", "Cy"))
    with pytest.raises(SetupError, match="exactly 2 players"):
        GAME.setup(Options.for_names("Ann"))


def test_an_unknown_setting_is_refused_by_name() -> None:
    with pytest.raises(SetupError, match="'board_size'"):
        GAME.setup(Options.for_names("Ann", "Bo", board_size=6))
    with pytest.raises(SetupError, match="'board_size'; it takes no settings"):
        settings.read({"board_size": 6})
    assert settings.read({}) == settings.QuantumLinkSettings()


def test_the_view_lists_every_cell_and_each_die_s_facts() -> None:
    state = play(new(), ("Ann", (0, 0), 1), ("Bo", (4, -4), 4))
    view = GAME.public_view(state)
    assert len(view["cells"]) == 61
    by_cell = {tuple(c["cell"]): c for c in view["cells"]}
    assert by_cell[(0, 0)]["name"] == "E5"
    assert by_cell[(0, 0)]["die"] == {
        "player": "Ann",
        "face": 1,
        "covered": False,
        "friends": 0,
        "surrounded": False,
        "scoring": False,
        "dead": False,
    }
    assert by_cell[(4, -4)]["die"]["dead"]  # a 4 on a corner can never have 4 neighbours
    assert by_cell[(1, 0)]["die"] is None
    assert view["turn"] == "Ann"
    assert view["last_placed"] == [4, -4]
    assert [(p["name"], p["dice_left"], p["placed"]) for p in view["players"]] == [("Ann", 29, 1), ("Bo", 29, 1)]


def test_nothing_is_secret_so_every_event_is_shown_as_it_is() -> None:
    _, events = act(example_from_the_rules(), place("Black", (0, 1), 1))  # a placement and a cover
    _, ending = act(play(new(), ("Ann", (0, 0), 4), "Bo"), Pass("Ann"))  # a pass, a cover, the end
    for event in [*events, *ending]:
        assert GAME.public_event(event) == GAME.to_json(event)
    assert views.public_event is views.everything_public


def test_the_news_names_each_die_to_cover_with_its_friends() -> None:
    assert views.news(new()) == ""
    state = lay(new(), [("Ann", (0, 0), 5), ("Ann", (1, 0), 6), ("Ann", (-1, 0), 6)])
    state = replace(state, board=tuple(ql.Die(d.player, d.face, True) if d else None for d in state.board))
    state = replace(state, just_covered=((0, 0), (1, 0), (-1, 0)))
    assert views.news(state) == (
        "Cover Ann's 5 at E5 (2 friendly neighbours), Ann's 6 at E6 (1 friendly neighbour)"
        " and Ann's 6 at E4 (1 friendly neighbour)."
    )


def test_private_view_is_the_public_view_plus_who_is_looking() -> None:
    state = play(new(), ("Ann", (0, 0), 1))
    private = GAME.private_view(state, "Bo")
    assert private.pop("you") == "Bo"
    assert private == GAME.public_view(state)


# -- dice that can no longer score ---------------------------------------------------------


def test_a_die_with_more_friends_than_its_face_is_dead() -> None:
    state = lay(new(), [("Ann", (0, 0), 1), ("Ann", (1, 0), 6), ("Ann", (0, 1), 6)])
    assert ql.dead(state, (0, 0))


def test_a_die_that_could_still_reach_its_face_is_alive() -> None:
    state = lay(new(), [("Ann", (0, 0), 3), ("Ann", (1, 0), 6), ("Bo", (0, 1), 6)])
    assert not ql.dead(state, (0, 0))  # one friend, four empty sides


def test_a_die_short_of_empty_sides_is_dead() -> None:
    state = lay(new(), [("Ann", (0, 0), 5), ("Bo", (1, 0), 1), ("Bo", (0, 1), 1)])
    assert ql.dead(state, (0, 0))  # at most four friends
    assert ql.dead(lay(new(), [("Ann", (4, -2), 5)]), (4, -2))  # an edge cell has four sides
    assert ql.dead(lay(new(), [("Ann", (0, -4), 6)]), (0, -4))


def test_a_die_short_of_dice_in_the_box_is_dead() -> None:
    cells = [c for c in CELLS if c != (0, 0) and c not in ql.neighbours((0, 0))]
    state = lay(new(), [("Ann", (0, 0), 2)])
    state = lay(state, [("Ann", c, 6) for c in cells[:28]])  # Ann has 1 die left
    assert ql.dice_left(state, "Ann") == 1
    assert ql.dead(state, (0, 0))  # six empty sides, but only one Ann die left to put there
    state = lay(new(), [("Ann", (0, 0), 1), *(("Ann", c, 6) for c in cells[:28])])
    assert not ql.dead(state, (0, 0))


def test_covered_dice_are_dead() -> None:
    around = ql.neighbours((0, 0))
    state, _ = act(lay(new(), [("Bo", n, 6) for n in around]), place("Ann", (0, 0), 1))
    assert ql.dead(state, (0, 0))


# -- what a player may do now --------------------------------------------------------------


def test_on_their_turn_a_player_may_place_any_face_on_any_empty_cell_or_pass() -> None:
    state = play(new(), ("Ann", (0, 0), 4))
    legal = GAME.legal_actions(state, "Bo")
    assert legal[-1] == Pass("Bo")
    places = [a for a in legal if isinstance(a, Place)]
    assert len(places) == 60 * 6
    assert {a.cell for a in places} == set(CELLS) - {(0, 0)}
    assert {a.face for a in places} == {1, 2, 3, 4, 5, 6}
    assert all(a.player == "Bo" for a in places)
    assert GAME.legal_actions(state, "Ann") == []  # not Ann's turn


def test_every_listed_action_is_taken_and_nothing_else_is() -> None:
    state = play(new(), ("Ann", (0, 0), 4), ("Bo", (1, 0), 2))
    legal = set(GAME.legal_actions(state, "Ann"))
    for action in [*legal, Place("Ann", (0, 0), 3), Place("Ann", (1, 0), 3), Pass("Bo"), Place("Bo", (2, 0), 1)]:
        refused = GAME.refusal(state, action)
        assert (refused is None) == (action in legal), (action, refused)


def test_a_player_without_dice_may_only_pass_and_nobody_may_act_after_the_end() -> None:
    state = new()
    for i, cell in enumerate(CELLS[:60]):
        state = ql.evolve(state, Placed("Ann" if i % 2 == 0 else "Bo", cell, 6))
    assert GAME.legal_actions(state, "Ann") == [Pass("Ann")]
    state = play(state, "Ann", "Bo")
    assert GAME.legal_actions(state, "Ann") == GAME.legal_actions(state, "Bo") == []


# -- the rules module on its own: empty cells, and messages it never makes ----------------------


class Stray(Event):
    """An event no game makes: what a programming error would hand a game."""

    type = "stray"


def test_an_empty_cell_has_no_friends_and_is_not_dead() -> None:
    """Friendly dice are counted around a die; an empty cell has none, and is still open to any die: not dead."""
    state = play(new(), ("Ann", (0, 0), 1))
    assert ql.friends(state, (1, 0)) == 0
    assert not ql.dead(state, (1, 0))
    assert not ql.scoring(state, (1, 0))


def test_the_rules_module_named_directly_refuses_what_the_engine_keeps_from_it() -> None:
    """The engine answers `leave` and `player_left` itself; the rules module handed them says it has none."""
    with pytest.raises(RuleError, match=r"^Quantum Link has no action 'leave'\.$"):
        ql.decide(new(), Leave("Ann"), DICE)
    with pytest.raises(UnknownEvent, match=r"^Quantum Link does not know the event PlayerLeft"):
        ql.evolve(new(), PlayerLeft("Ann"))
    with pytest.raises(UnknownEvent, match=r"^Quantum Link does not know the event Stray"):
        views.tell(Stray(), new())
