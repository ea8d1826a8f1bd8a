"""The dice tray's presenter, without a window: what each die and the Roll button say, and what a tap sends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.game import Options
from companion.games.dice_tray.kinds import BUILT_IN
from companion.games.dice_tray.rules import AddDie, ChooseSet, Hold, PutAway, Release, RemoveDie
from companion.games.dice_tray.saved import SavedSets
from companion.session import Session
from companion.store import Store
from ui.presenters.dice_tray import NOT_ROLLED, DiceTrayPresenter


@pytest.fixture
def presenter() -> Any:
    session = Session.start(
        Store.in_memory(), "dice-tray", Options.for_names("Ann", "Bo", dice=["d6", "d6", ["Sun", "Moon", "Star"]]),
        dice=RandomDice.seeded(4),
    )  # fmt: skip
    return DiceTrayPresenter(session)


def act(presenter: DiceTrayPresenter, action: Any) -> None:
    presenter.session.act(action)


def test_before_the_first_roll_every_die_is_blank_and_roll_is_the_one_thing_to_do(presenter: Any) -> None:
    shown = presenter.show()
    assert [d.face for d in shown.dice] == [NOT_ROLLED] * 3 and not any(d.rolled for d in shown.dice)
    assert [d.caption for d in shown.dice] == ["d6", "d6", "Sun/Moon/Star"]
    assert (shown.roll_text, shown.can_roll, shown.can_release_all) == ("Roll", True, False)
    assert shown.total_text == "" and shown.detail_text == "no rolls yet"
    assert shown.name == "2d6 + Sun/Moon/Star"


def test_the_sum_counts_the_numbered_dice_and_a_held_die_is_said_in_words(presenter: Any) -> None:
    act(presenter, presenter.roll())
    view = presenter.view
    shown = presenter.show()
    assert shown.total_text == f"Sum {view.dice[0].value + view.dice[1].value}"
    assert shown.dice[2].face in ("Sun", "Moon", "Star")
    assert presenter.tap_die(1) == Hold(1)
    act(presenter, presenter.tap_die(1))
    shown = presenter.show()
    assert shown.dice[0].held and shown.dice[0].caption == "d6 · HELD"
    assert (shown.roll_text, shown.detail_text, shown.can_release_all) == ("Roll 2 dice", "1 roll · 1 held", True)
    assert presenter.tap_die(1) == Release(1), "a second tap releases it"
    act(presenter, presenter.tap_die(2))
    assert presenter.show().roll_text == "Roll 1 die"
    act(presenter, presenter.tap_die(3))
    shown = presenter.show()
    assert (shown.roll_text, shown.can_roll) == ("All held", False)
    act(presenter, presenter.release_all())
    assert presenter.show().roll_text == "Roll"


def test_each_tap_sends_its_typed_action(presenter: Any, tmp_path: Path) -> None:
    assert presenter.add("d12") == AddDie("d12")
    assert presenter.add(" Heads , Tails ") == AddDie(("Heads", "Tails"))
    assert presenter.remove(2) == RemoveDie(2)
    assert presenter.put_away() == PutAway()
    quintet = next(s for s in BUILT_IN if s.name == "Quintet's dice")
    assert presenter.choose(quintet) == ChooseSet("Quintet's dice", ("d6", "d6"))
    assert presenter.specs() == ("d6", "d6", ("Sun", "Moon", "Star"))
    saved = SavedSets.load(tmp_path / "sets.json")
    saved.save("Weather", presenter.specs())
    offered = presenter.sets(saved)
    assert [s.name for s in offered] == [*(s.name for s in BUILT_IN), "Weather"]
    assert [s.own for s in offered] == [False] * len(BUILT_IN) + [True]
    assert offered[-1].words == "2d6 + Sun/Moon/Star"


def test_the_statistics_are_bars_on_one_scale_with_fair_dice_marked(presenter: Any) -> None:
    for _ in range(9):
        act(presenter, presenter.roll())
    kinds = presenter.stats()
    assert [k.title for k in kinds] == ["d6: rolled 18 times", "Sun/Moon/Star: rolled 9 times"]
    d6 = kinds[0]
    assert sum(bar.count for bar in d6.bars) == 18 and max(bar.share for bar in d6.bars) == 1.0
    assert d6.expected_share == pytest.approx(3 / max(bar.count for bar in d6.bars))
    assert d6.expected_text == "A fair die: about 3.0 of each face (the line)."
    assert [bar.face for bar in kinds[1].bars] == ["Sun", "Moon", "Star"]


def test_once_put_away_nothing_but_undo_changes_the_tray(presenter: Any) -> None:
    act(presenter, presenter.roll())
    act(presenter, presenter.put_away())
    shown = presenter.show()
    assert not (shown.can_roll or shown.can_release_all or shown.can_change)
    assert shown.over_text == "The dice were put away after 1 roll. Undo takes them out again."
