"""The dice tray's rules (issue 27): "any set of dice (d4, d6, d8, d10, d12, d20 and dice with custom faces, saved
as named sets)", "rolled with the same seeded, stored dice as Quintet (undo never re-rolls)", "hold some and
re-roll the rest", "the sum and each die", and "the dice statistics (counts per face and the chi-square check) for
this tray", through a real `Session` on a real games file."""

from __future__ import annotations

import json
import os
import stat
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.dicestats import chi_square_sf
from companion.game import Options, RuleError, SetupError, Termination
from companion.games import facts, game
from companion.games.dice_tray.kinds import BUILT_IN, MAX_DICE, describe, faces_typed, read_dice, read_die
from companion.games.dice_tray.rules import Tally
from companion.games.dice_tray.saved import SavedSets
from companion.games.dice_tray.stats import kind_stats
from companion.session import Session
from companion.store import Store
from tests.support import ManualClock
from tests.support.golden import FOLDER, play, read, scripts


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with Store.open(tmp_path / "games.db") as opened:
        yield opened


def tray(store: Store, *players: str, seed: int = 5, **settings: Any) -> Session:
    return Session.start(
        store, "dice-tray", Options.for_names(*(players or ("Table",)), **settings),
        dice=RandomDice.seeded(seed), clock=ManualClock(),
    )  # fmt: skip


def faces(session: Session) -> list[str]:
    return [die.face for die in session.view().dice]


def test_the_tray_is_a_tool_for_one_to_eight_players() -> None:
    tool = facts("dice-tray")
    assert tool.tool and (tool.min_players, tool.max_players) == (1, 8)
    assert not tool.chooses_first


# -- undo never re-rolls ----------------------------------------------------------------------------------------


def test_undo_never_re_rolls_and_redo_gives_the_same_roll(store: Store) -> None:
    """Issue 27: "rolled with the same seeded, stored dice as Quintet (undo never re-rolls)"."""
    session = tray(store, "Ann", "Bo")
    session.act({"type": "roll"})
    first = faces(session)
    assert session.undo()
    assert faces(session) == ["", ""], "undo takes the roll back"
    assert session.redo()
    assert faces(session) == first, "redo gives the same roll"
    assert session.undo()
    session.act({"type": "roll"})
    assert faces(session) == first, "a roll after an undo brings the undone faces back: undo never re-rolls"
    session.act({"type": "roll"})
    assert session.view().rolls == 2


def test_undo_never_re_rolls_even_after_a_restart(tmp_path: Path) -> None:
    """ "Undo never re-rolls": the undone roll's faces are stored, so a power cut between the undo and the next
    roll changes nothing."""
    with Store.open(tmp_path / "games.db") as store:
        session = tray(store, seed=9)
        session.act({"type": "roll"})
        session.act({"type": "roll"})
        second = faces(session)
        session.undo()
        game_id = session.game_id
    with Store.open(tmp_path / "games.db") as store:
        again = Session.load(store, game_id, dice=RandomDice.seeded(12345), clock=ManualClock())
        again.act({"type": "roll"})
        assert faces(again) == second


def test_holding_dice_after_an_undo_does_not_buy_a_new_roll(store: Store) -> None:
    """ "Undo never re-rolls": undo a roll, hold a die, roll: the dice rolled take the undone faces, in order."""
    session = tray(store, seed=21, dice=["d6", "d6", "d6"])
    session.act({"type": "roll"})
    session.act({"type": "roll"})
    undone = [e for e in session.events if e.type == "rolled"][-1].faces
    session.undo()
    session.act({"type": "hold", "die": 1})
    session.act({"type": "roll"})
    last = [e for e in session.events if e.type == "rolled"][-1]
    assert last.rolled == (2, 3) and last.faces == undone[:2]


# -- hold some and re-roll the rest ---------------------------------------------------------------------------


def test_hold_some_and_re_roll_the_rest(store: Store) -> None:
    """Issue 27: "hold some and re-roll the rest": a roll rolls only the dice not held; held dice keep their face."""
    session = tray(store, dice=["d6"] * 5)
    session.act({"type": "roll"})
    before = faces(session)
    session.act({"type": "hold", "die": 2})
    session.act({"type": "hold", "die": 4})
    events = session.act({"type": "roll"})
    assert [(e.type, e.rolled) for e in events] == [("rolled", (1, 3, 5))]  # type: ignore[attr-defined]
    after = faces(session)
    assert (after[1], after[3]) == (before[1], before[3])
    assert [d.held for d in session.view().dice] == [False, True, False, True, False]
    # Held dice stay held over a roll until released; all released, every die rolls again.
    session.act({"type": "release", "die": 2})
    assert session.act({"type": "roll"})[0].rolled == (1, 2, 3, 5)  # type: ignore[attr-defined]
    session.act({"type": "release_all"})
    assert session.act({"type": "roll"})[0].rolled == (1, 2, 3, 4, 5)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("setup", "action", "sentence"),
    [
        ([], {"type": "hold", "die": 1}, "Die 1 has not been rolled yet: roll first, then hold it."),
        ([{"type": "roll"}], {"type": "hold", "die": 3}, "There is no die 3: the tray holds 2 dice, 1 to 2."),
        ([{"type": "roll"}, {"type": "hold", "die": 1}], {"type": "hold", "die": 1}, "Die 1 is held already."),
        ([{"type": "roll"}], {"type": "release", "die": 2}, "Die 2 is not held."),
        ([{"type": "roll"}], {"type": "release_all"}, "No die is held."),
        (
            [{"type": "roll"}, {"type": "hold", "die": 1}, {"type": "hold", "die": 2}],
            {"type": "roll"},
            "Every die is held: release one to roll it.",
        ),
        ([{"type": "remove_die", "die": 1}, {"type": "remove_die", "die": 1}], {"type": "roll"},
         "The tray is empty: add a die first."),
        ([], {"type": "add_die", "die": "d1"}, "A die has 2 to 100 sides; d1 is not one the tray can roll."),
        ([], {"type": "add_die", "die": ["Sun"]}, "A die of your own has 2 to 20 faces; this one has 1."),
        ([], {"type": "choose_set", "name": " ", "dice": ["d6"]}, 'A set needs a name, such as "Catan" or "2d6".'),
        ([], {"type": "choose_set", "name": "None", "dice": []}, "A set needs at least one die."),
    ],
)  # fmt: skip
def test_a_refusal_is_one_sentence_and_changes_nothing(
    store: Store, setup: list[dict[str, Any]], action: dict[str, Any], sentence: str
) -> None:
    session = tray(store)
    for step in setup:
        session.act(step)
    before = session.state
    with pytest.raises(RuleError) as refused:
        session.act(action)
    assert str(refused.value) == sentence
    assert session.state == before


def test_the_tray_holds_at_most_ten_dice(store: Store) -> None:
    session = tray(store, dice=["d6"] * MAX_DICE)
    with pytest.raises(RuleError, match="at most 10 dice; remove one first"):
        session.act({"type": "add_die", "die": "d6"})


# -- any set of dice ------------------------------------------------------------------------------------------


def test_every_common_die_and_dice_with_faces_of_their_own(store: Store) -> None:
    """ "any set of dice (d4, d6, d8, d10, d12, d20 and dice with custom faces": each die only shows its own faces;
    the sum counts the numbered faces, a named face is shown by name."""
    session = tray(store, seed=3, dice=["d4", "d6", "d8", "d10", "d12", "d20", ["Sun", "Moon", "Star"]])
    for _ in range(60):
        session.act({"type": "roll"})
        view = session.view()
        for die, sides in zip(view.dice[:6], (4, 6, 8, 10, 12, 20), strict=True):
            assert die.value is not None and 1 <= die.value <= sides and die.face == str(die.value)
        assert view.dice[6].face in ("Sun", "Moon", "Star") and view.dice[6].value is None
        assert view.total == sum(d.value for d in view.dice[:6] if d.value is not None)
    assert session.view().name == "d4 + d6 + d8 + d10 + d12 + d20 + Sun/Moon/Star"


def test_a_die_whose_faces_are_numbers_counts_in_the_sum(store: Store) -> None:
    """A die of the table's own with numbered faces (a Fudge die: -1, 0, +1) adds to the sum like a d6."""
    session = tray(store, dice=["d6", ["-1", "0", "1"]])
    session.act({"type": "roll"})
    view = session.view()
    assert view.total == sum(d.value for d in view.dice if d.value is not None)
    assert view.dice[1].value in (-1, 0, 1)


def test_a_die_is_written_as_the_table_types_it() -> None:
    assert read_die("D8").spec == "d8"
    assert read_die(faces_typed(" Sun,  Moon ,Star ")).faces == ("Sun", "Moon", "Star")
    assert faces_typed("d12") == "d12"
    assert describe(read_dice(["d6", "d6", "d20", ["Sun", "Moon"], ["Sun", "Moon"]])) == "2d6 + d20 + 2 Sun/Moon"
    with pytest.raises(RuleError, match="at most 10 characters"):
        read_die(["Sun", "Supercalifragilistic"])


def test_choosing_a_set_puts_its_dice_in_the_tray_unrolled(store: Store) -> None:
    """ "saved as named sets, e.g. "2d6", "Quintet's dice"": a chosen set replaces the dice, under its name."""
    session = tray(store)
    session.act({"type": "roll"})
    quintet = next(s for s in BUILT_IN if s.name == "Quintet's dice")
    session.act({"type": "choose_set", "name": quintet.name, "dice": list(quintet.specs)})
    view = session.view()
    assert view.name == "Quintet's dice" and [d.kind for d in view.dice] == ["d6", "d6"]
    assert [d.face for d in view.dice] == ["", ""] and view.total is None
    session.act({"type": "add_die", "die": "d20"})
    assert session.view().name == "2d6 + d20", "once changed, the set is named by its dice"


def test_the_config_chooses_the_set_a_tray_starts_with(store: Store) -> None:
    assert [d.kind for d in tray(store, dice=["d20", ["Heads", "Tails"]]).view().dice] == ["d20", "Heads/Tails"]
    assert [d.kind for d in tray(store).view().dice] == ["d6", "d6"]
    for bad in ({"dice": "2d6"}, {"dice": ["d6", "d0"]}, {"dice": []}, {"sides": 6}):
        with pytest.raises(SetupError, match="dice tray"):
            game("dice-tray").read_settings(bad)


def test_putting_the_dice_away_ends_the_tray_for_nobody_and_undo_takes_it_back(store: Store) -> None:
    session = tray(store, "Ann", "Bo")
    session.act({"type": "roll"})
    session.act({"type": "put_away"})
    outcome = session.outcome
    assert outcome is not None and outcome.winners == () and outcome.termination is Termination.TIE
    assert outcome.detail == "The dice were put away after 1 roll."
    record = store.game(session.game_id)
    assert record is not None and record.finished_at is not None
    assert session.undo() and session.outcome is None
    session.act({"type": "roll"})


# -- the statistics, against a hand count ------------------------------------------------------------------------


def test_statistics_match_a_hand_count_of_the_stored_rolls(store: Store) -> None:
    """ "the dice statistics (counts per face and the chi-square check) for this tray": counted again by hand from
    the rolls in the games file, undone rolls left out, each kind of die apart."""
    session = tray(store, seed=77, dice=["d6", "d6", "d8", ["Heads", "Tails"]])
    for n in range(150):
        session.act({"type": "roll"})
        if n % 7 == 0:
            session.undo()
        if n % 11 == 3 and not session.view().dice[2].held:
            session.act({"type": "hold", "die": 3})
        if n % 11 == 5 and session.view().held:
            session.act({"type": "release_all"})
    kinds = ["d6", "d6", "d8", "Heads/Tails"]
    sides = {"d6": 6, "d8": 8, "Heads/Tails": 2}
    by_hand: dict[str, Counter[int]] = {kind: Counter() for kind in sides}
    for move in store.moves(session.game_id):
        if move.undone:
            continue
        for event in move.events:
            if event["type"] == "rolled":
                for number, face in zip(event["rolled"], event["faces"], strict=True):
                    by_hand[kinds[number - 1]][face] += 1
    shown = {kind.kind: kind for kind in session.view().stats}
    assert set(shown) == set(sides)
    for kind, count in by_hand.items():
        counts = [count[face] for face in range(1, sides[kind] + 1)]
        stats = shown[kind]
        assert [f.count for f in stats.faces] == counts
        assert stats.rolled == sum(counts)
        expected = sum(counts) / sides[kind]
        chi = sum((c - expected) ** 2 / expected for c in counts)  # Pearson's statistic, written out
        assert stats.chi_square == pytest.approx(chi)
        assert stats.degrees_of_freedom == sides[kind] - 1
        assert stats.p_value == pytest.approx(chi_square_sf(chi, sides[kind] - 1))
    assert shown["Heads/Tails"].faces[0].face == "Heads"


def test_the_chi_square_check_on_a_count_worked_by_hand() -> None:
    """Twelve d6 faces 3, 1, 0, 2, 2, 4 times: 2 expected each, chi-square (1+1+4+0+0+4)/2 = 5.0 with 5 degrees
    of freedom, p = 0.416 (a table of the chi-square distribution); too few rolls to judge (30 needed)."""
    stats = kind_stats(Tally(read_die("d6"), (3, 1, 0, 2, 2, 4)))
    assert (stats.rolled, stats.expected, stats.degrees_of_freedom) == (12, 2.0, 5)
    assert stats.chi_square == pytest.approx(5.0)
    assert stats.p_value == pytest.approx(0.4159, abs=1e-4)
    assert not stats.reliable and stats.needed == 30
    assert stats.summary.startswith("Too few rolls to judge the d6 yet: 12 so far, about 30 needed.")
    fair = kind_stats(Tally(read_die("d6"), (10, 11, 9, 10, 10, 10)))
    assert fair.reliable and fair.summary.startswith("The d6 looks fair.")
    loaded = kind_stats(Tally(read_die("d6"), (5, 5, 5, 5, 5, 45)))
    assert loaded.p_value < 0.001 and loaded.summary.startswith("The d6 looks unfair")


def test_a_fair_seeded_tray_looks_fair(store: Store) -> None:
    """The chi-square check of many rolls of fair (seeded) dice does not cry wolf."""
    session = tray(store, seed=2026, dice=["d6", "d20"])
    for _ in range(600):
        session.act({"type": "roll"})
    for stats in session.view().stats:
        assert stats.reliable and stats.p_value > 0.001, stats.summary


# -- saved sets ----------------------------------------------------------------------------------------------------


def test_a_saved_set_survives_a_restart_and_can_be_forgotten(tmp_path: Path) -> None:
    """ "saved as named sets": kept in the app's own file, offered again after a restart, after every tray's sets."""
    path = tmp_path / "data" / "dice-sets.json"
    sets = SavedSets.load(path)
    assert sets.sets == () and sets.offered == BUILT_IN
    assert sets.save("Catan", ("d6", "d6")) is None
    assert sets.save("Weather", ("d6", ("Sun", "Moon", "Star"))) is None
    assert sets.save("catan", ("d6", "d6", "d6")) is None  # the same name again: replaced, not doubled
    again = SavedSets.load(path)  # as after a restart
    assert [(s.name, describe(s.dice)) for s in again.sets] == [("Weather", "d6 + Sun/Moon/Star"), ("catan", "3d6")]
    assert again.offered[-2:] == again.sets
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert again.forget("Weather") is None
    assert [s.name for s in SavedSets.load(path).sets] == ["catan"]
    with pytest.raises(RuleError, match="already offers a set called"):
        again.save("2D6", ("d6", "d6"))
    with pytest.raises(RuleError, match="at most 10 dice"):
        again.save("Lots", ("d6",) * 11)


def test_a_sets_file_not_ours_is_left_alone_and_sets_last_until_the_app_stops(tmp_path: Path) -> None:
    path = tmp_path / "dice-sets.json"
    path.write_text("my own notes", encoding="utf-8")
    sets = SavedSets.load(path)
    assert sets.problem is not None and "left as it is" in sets.problem
    said = sets.save("Catan", ("d6", "d6"))
    assert said is not None and said.startswith("Kept until the app stops:")
    assert path.read_text(encoding="utf-8") == "my own notes"
    assert [s.name for s in SavedSets.load(path).sets] == ["Catan"]  # for the rest of this run


def test_a_damaged_entry_in_the_sets_file_is_passed_over(tmp_path: Path) -> None:
    path = tmp_path / "dice-sets.json"
    entries = [{"name": "Good", "dice": ["d6", ["A", "B"]]}, {"name": "Bad", "dice": ["d1"]}, {"name": 3}, "x"]
    path.write_text(json.dumps({"kind": "dice-sets", "version": 1, "sets": entries}), encoding="utf-8")
    assert [(s.name, s.specs) for s in SavedSets.load(path).sets] == [("Good", ("d6", ("A", "B")))]


# -- the golden scripts -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", scripts("dice-tray"), ids=lambda p: p.stem)
def test_golden_trays_end_with_their_rolls(path: Path, store: Store) -> None:
    golden = read(path)
    session = play(store, path)
    assert session.view().rolls == golden.expect["rolls"]
    stats = session.view().stats
    assert sum(kind.rolled for kind in stats) == sum(
        len(e.rolled)
        for e in session.events
        if e.type == "rolled"  # type: ignore[attr-defined]
    )


def test_the_tray_has_golden_scripts() -> None:
    assert len(scripts("dice-tray")) >= 2
    assert (FOLDER / "dice-tray-hold-and-reroll.jsonl").exists()
