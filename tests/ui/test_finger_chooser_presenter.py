"""The finger chooser's presenter without a window (issue 27): the still count, its restarts, the rings' numbers
and colours, the words over the glass; and the race presenter's fingers."""

from __future__ import annotations

from companion.game import SEAT_COLOURS
from companion.games.finger_chooser.rules import Choose, SplitTeams
from ui.presenters import race
from ui.presenters.finger_chooser import (
    RING_COLOURS,
    STILL_SECONDS,
    STILL_TOLERANCE,
    TEAM_COLOURS,
    Choice,
    Fingers,
    action_for,
)


def test_the_count_runs_from_the_last_change_and_a_finger_lifted_restarts_it() -> None:
    """ "When the fingers have been still for 2 s, one is chosen"; "a finger lifted before the choice restarts the
    count"; one added restarts it too."""
    glass = Fingers()
    glass.down("a", 100, 100, now=0.0)
    glass.down("b", 300, 100, now=0.5)
    assert glass.phase == "counting" and not glass.due(2.4)
    assert glass.due(2.5)
    glass.down("c", 500, 100, now=2.0)  # added before the choice
    assert not glass.due(3.9) and glass.due(4.0)
    glass.up("b", now=3.0)  # lifted before the choice
    assert not glass.due(4.9) and glass.due(5.0)
    assert glass.progress(4.0) == 0.5


def test_movement_within_the_tolerance_counts_as_still() -> None:
    """ "Movement within a small tolerance counts as still": measured from where the finger settled, so a slow
    drift adds up and restarts the count once it goes past the tolerance."""
    glass = Fingers()
    glass.down("a", 100, 100, now=0.0)
    glass.down("b", 300, 100, now=0.0)
    glass.move("a", 100 + STILL_TOLERANCE * 0.9, 100, now=1.0)
    assert glass.due(STILL_SECONDS)
    glass.move("a", 100 + STILL_TOLERANCE * 1.1, 100, now=1.5)  # the drift, added up, is too much
    assert not glass.due(STILL_SECONDS) and glass.due(1.5 + STILL_SECONDS)


def test_rings_are_numbered_lowest_free_first_each_in_its_own_colour_none_a_seats() -> None:
    glass = Fingers()
    for key in "abcd":
        glass.down(key, 0, 0, now=0.0)
    glass.up("b", now=0.1)
    glass.down("e", 0, 0, now=0.2)  # takes ring 2 again
    assert glass.present == (1, 2, 3, 4)
    assert [(r.key, r.label) for r in glass.rings()] == [("a", "1"), ("e", "2"), ("c", "3"), ("d", "4")]
    assert len(set(RING_COLOURS)) == 10 and not set(RING_COLOURS) & set(SEAT_COLOURS)
    assert set(TEAM_COLOURS) <= set(RING_COLOURS)


def test_an_eleventh_finger_gets_no_ring_and_a_finger_after_the_choice_none_either() -> None:
    glass = Fingers()
    for n in range(10):
        assert glass.down(n, n, 0, now=0.0) is not None
    assert glass.down(10, 0, 0, now=0.0) is None
    glass.chosen(Choice(chosen=4))
    assert glass.down(11, 0, 0, now=0.1) is None
    assert glass.phase == "chosen" and not glass.due(99)


def test_after_the_choice_the_rings_stay_until_every_finger_is_lifted() -> None:
    glass = Fingers()
    glass.down("a", 0, 0, now=0.0)
    glass.down("b", 0, 0, now=0.0)
    assert glass.ask() == (1, 2) and not glass.due(5.0), "asked once per still spell"
    glass.chosen(Choice(chosen=2))
    shown = {r.label: r for r in glass.rings()}
    assert shown["2"].grown and not shown["2"].faded and shown["1"].faded
    glass.up("a", now=6.0)
    assert glass.phase == "chosen", "a finger lifted after the choice changes nothing"
    glass.up("b", now=6.1)
    assert glass.phase == "waiting" and glass.choice is None


def test_teams_letter_and_colour_every_ring() -> None:
    glass = Fingers(teams=2)
    for key in "abcde":
        glass.down(key, 0, 0, now=0.0)
    glass.chosen(Choice(teams=((2, 3, 5), (1, 4))))
    assert [(r.ring, r.label, r.colour) for r in glass.rings()] == [
        (1, "B", TEAM_COLOURS[1]),
        (2, "A", TEAM_COLOURS[0]),
        (3, "A", TEAM_COLOURS[0]),
        (4, "B", TEAM_COLOURS[1]),
        (5, "A", TEAM_COLOURS[0]),
    ]
    assert glass.headline(0.0) == "Teams A and B: find your ring's letter"


def test_the_words_over_the_glass() -> None:
    tool = Fingers()
    assert tool.headline(0.0) == "Everyone: put a finger on the screen"
    tool.down("a", 0, 0, now=0.0)
    assert tool.headline(0.0) == "One finger: one more at least"
    tool.down("b", 0, 0, now=0.0)
    assert tool.headline(0.5) == "Hold still… 2"
    assert tool.headline(1.5) == "Hold still… 1"
    tool.teams = 3
    assert tool.headline(0.5) == "3 teams need 3 fingers at least" and tool.phase == "waiting"
    game = Fingers(needed=3)
    game.down("a", 0, 0, now=0.0)
    game.down("b", 0, 0, now=0.0)
    assert game.headline(0.0) == "2 of 3 fingers: everyone put one down" and game.phase == "waiting"
    game.down("c", 0, 0, now=0.0)
    game.down("d", 0, 0, now=0.0)
    assert game.headline(0.0) == "4 fingers for 3 players: lift 1 finger" and game.phase == "waiting"
    game.up("d", now=1.0)
    assert game.phase == "counting"
    game.chosen(Choice(chosen=3))
    assert game.headline(3.0) == "Ring 3 is chosen!"


def test_the_tools_action_names_the_rings_present() -> None:
    assert action_for((1, 3, 4), 1) == Choose((1, 3, 4))
    assert action_for((1, 3, 4), 2) == SplitTeams((1, 3, 4), 2)


def test_the_race_presenter_offers_every_player_after_the_fingers() -> None:
    """The choice by fingers ends in the same ``choose_first`` as the others, "how": "fingers"."""
    shown = race.finger_chosen(["Ann", "Bo"], 2)
    assert shown.mode == "fingers" and shown.headline == "Ring 2 is chosen!"
    assert [c.action for c in shown.controls if c.action] == [
        {"type": "choose_first", "player": "Ann", "chosen_by": "Ann", "how": "fingers"},
        {"type": "choose_first", "player": "Bo", "chosen_by": "Bo", "how": "fingers"},
    ]
    assert shown.controls[-1].key == "fingers_again"
    assert [c.key for c in race.fingers(["Ann", "Bo"]).controls] == ["race_instead"]
