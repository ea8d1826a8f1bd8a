"""The finger chooser's rules (issue 27): "one is chosen at random (fair, from the seeded dice)", "optionally split
the fingers into teams", stored and undoable like every game ("undo never re-draws")."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from companion.dice import RandomDice
from companion.dicestats import chi_square, chi_square_critical
from companion.game import Options, RuleError
from companion.games import game
from companion.games.finger_chooser.rules import MAX_FINGERS, draw, split
from companion.session import Session
from companion.store import Store
from tests.support.clocks import ManualClock

CHOOSER = game("finger-chooser")
ALPHA = 0.001
"""The chi-square tests' significance: seeds are fixed, so a pass is a pass every run; a biased draw of even a
few per cent over these many seeds fails it."""
SEEDS = 3000


def chosen_counts(fingers: tuple[int, ...], seeds: int) -> Counter[int]:
    """How often each ring was chosen by the engine's `decide`, one seeded dice per choice."""
    state = CHOOSER.setup(Options.for_names("Ann", "Bo"))
    counts: Counter[int] = Counter()
    for seed in range(seeds):
        (event,) = CHOOSER.decide(
            state, CHOOSER.parse_action({"type": "choose", "fingers": list(fingers)}, ["Ann"]), RandomDice.seeded(seed)
        )
        counts[event.chosen] += 1
    return counts


@pytest.mark.parametrize("count", range(2, MAX_FINGERS + 1))
def test_each_finger_is_chosen_equally_often(count: int) -> None:
    """ "A chi-square test that each finger is chosen equally often", 2 to 10 fingers, through the real dice over
    many seeds: the counts of each ring pass Pearson's test against a fair draw."""
    fingers = tuple(range(1, count + 1))
    counts = chosen_counts(fingers, SEEDS)
    assert set(counts) == set(fingers), "every finger can be chosen"
    observed = [counts[f] for f in fingers]
    expected = [SEEDS / count] * count
    assert chi_square(observed, expected) < chi_square_critical(count - 1, ALPHA), observed


def test_the_chi_square_test_catches_a_draw_that_favours_the_first_finger() -> None:
    """The test above can fail: a draw that gives the first ring one extra chance in twenty is caught."""
    count, seeds = 5, SEEDS
    counts: Counter[int] = Counter()
    for seed in range(seeds):
        dice = RandomDice.seeded(seed)
        counts[1 if dice.roll(20) == 1 else draw(range(1, count + 1), dice)] += 1
    observed = [counts[f] for f in range(1, count + 1)]
    assert chi_square(observed, [seeds / count] * count) > chi_square_critical(count - 1, ALPHA)


def test_the_ring_chosen_is_one_of_the_rings_present_even_with_gaps() -> None:
    """Rings 2, 5 and 9 present (fingers lifted before the choice): only they are ever chosen, each fairly."""
    counts = chosen_counts((2, 5, 9), SEEDS)
    assert set(counts) == {2, 5, 9}
    assert chi_square([counts[2], counts[5], counts[9]], [SEEDS / 3] * 3) < chi_square_critical(2, ALPHA)


@pytest.mark.parametrize(("count", "teams"), [(2, 2), (5, 2), (7, 3), (10, 4), (10, 5), (4, 4)])
def test_teams_split_every_finger_once_as_even_as_can_be(count: int, teams: int) -> None:
    """ "Optionally split the fingers into teams": every finger in exactly one team, sizes differing by one at most."""
    fingers = tuple(range(1, count + 1))
    for seed in range(200):
        made = split(fingers, teams, RandomDice.seeded(seed))
        assert len(made) == teams
        assert sorted(f for team in made for f in team) == list(fingers)
        sizes = [len(team) for team in made]
        assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)


def test_each_finger_is_in_each_team_equally_often() -> None:
    """The split is fair too: over many seeds each of 6 fingers lands in team A (of 2) as often as the others."""
    fingers = tuple(range(1, 7))
    in_a: Counter[int] = Counter()
    for seed in range(SEEDS):
        in_a.update(split(fingers, 2, RandomDice.seeded(seed))[0])
    observed = [in_a[f] for f in fingers]
    assert chi_square(observed, [SEEDS / 2] * 6) < chi_square_critical(5, ALPHA), observed


@pytest.mark.parametrize(
    ("action", "sentence"),
    [
        ({"type": "choose", "fingers": [3]}, "Put at least two fingers on the screen: one finger has nobody to beat."),
        ({"type": "choose", "fingers": list(range(1, 12))}, "The screen tells at most 10 fingers apart."),
        ({"type": "choose", "fingers": [0, 1]}, "Rings are numbered 1 to 10."),
        ({"type": "choose", "fingers": [4, 4]}, "Each ring is on one finger only: a ring number came twice."),
        ({"type": "split_teams", "fingers": [1, 2], "teams": 3}, "3 teams need 3 fingers at least; 2 are down."),
        (
            {"type": "split_teams", "fingers": [1, 2], "teams": 1},
            "Teams means two teams at least; to choose one finger, choose without teams.",
        ),
    ],
)
def test_a_choice_the_fingers_cannot_make_is_refused(action: dict[str, object], sentence: str) -> None:
    state = CHOOSER.setup(Options.for_names("Ann"))
    with pytest.raises(RuleError) as refused:
        CHOOSER.decide(state, CHOOSER.parse_action(action, ["Ann"]), RandomDice.seeded(0))
    assert str(refused.value) == sentence


def test_undo_never_draws_again_and_a_resumed_chooser_shows_the_same_choice(tmp_path: Path) -> None:
    """ "Stored and in the history like every game (resumable, undoable: undo never re-draws)": a choice undone and
    made again with the same fingers gets the same ring, whatever the dice would say now; redo puts it back; the
    games file read again shows the very same choices; put away, it is in the history with nobody winning."""
    five = {"type": "choose", "fingers": [1, 2, 3, 4, 5]}
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(
            store, "finger-chooser", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(3), clock=ManualClock()
        )
        first = session.act(five)[0].chosen
        for _ in range(5):
            assert session.undo()
            assert session.act(five)[0].chosen == first
        teams = session.act({"type": "split_teams", "fingers": [1, 2, 3, 4], "teams": 2})[0].teams
        assert session.undo() and session.redo()
        assert session.view().last is not None and session.view().last.teams == teams
        game_id = session.game_id
    with Store.open(tmp_path / "games.db") as again:
        resumed = Session.load(again, game_id, dice=RandomDice.seeded(99), clock=ManualClock())
        assert resumed.view().rounds == session.view().rounds
        assert [r.chosen for r in resumed.view().rounds] == [first, None]
        resumed.act({"type": "put_away"})
        record = again.game(game_id)
        assert record is not None and record.finished_at is not None
        assert record.outcome["winners"] == [] and record.outcome["reason"] == "chooser put away"
