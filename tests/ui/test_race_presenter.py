"""The race screen's presenter, without a window: every headline from the race's fields, never its words."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.race import News, Phase, Race, choose_first
from ui.presenters import race as presenter


@dataclass(frozen=True)
class Snapshot:
    race: Race
    pressed: Sequence[bool] = (False, False)
    checked: Sequence[bool] = (True, True)
    problems: Sequence[str] = ()


def armed(*racers: str) -> Race:
    return Race.new(racers or ("Ann", "Bo"))


def started(race: Race) -> Race:
    return race.start(random.Random(3), at=1.0)


def at_go(race: Race, go_at: float = 10.0) -> Race:
    race = started(race)
    while race.phase is Phase.COUNTDOWN:
        race = race.count_down()
    return race.go(go_at)


def keys(shown: presenter.RaceShown) -> list[str]:
    return [control.key for control in shown.controls]


def test_test_mode_waits_for_every_button_then_offers_start() -> None:
    untested = presenter.present(Snapshot(armed(), checked=(True, False), problems=("Bo's button: press it once.",)))
    assert (untested.mode, untested.headline, untested.tone) == ("test", "Press your buttons to test them", "text")
    assert untested.detail == "Bo's button: press it once."
    assert untested.controls == (presenter.Control("start", "Start", accent=True, disabled=True),)
    assert [c.state_text for c in untested.cards] == ["Button: up", "Button: not tested yet"]

    ready = presenter.present(Snapshot(armed(), pressed=(True, False)))
    assert ready.headline == "Ready? Tap Start" and not ready.controls[0].disabled
    assert ready.detail.startswith("Both buttons work.")
    assert ready.cards[0].pressed and ready.cards[0].state_text == "Button: DOWN"
    three = presenter.present(Snapshot(armed("Ann", "Bo", "Cy"), pressed=(False,) * 3, checked=(True,) * 3))
    assert three.detail.startswith("Every button works.")


def test_a_false_start_is_told_by_the_races_news_not_by_its_words() -> None:
    race = started(armed()).press("Bo", 1.5)
    shown = presenter.present(Snapshot(race))
    assert (shown.headline, shown.tone) == ("False start!", "warn")
    assert shown.detail == "False start by Bo! Once more and Bo loses the race."
    assert [c.note_text for c in shown.cards] == ["", "1 false start (one more loses)"]

    out = replace(armed("Ann", "Bo", "Cy"), news=News.OUT, news_about="Cy", out=("Cy",))
    shown = presenter.present(Snapshot(out, pressed=(False,) * 3, checked=(True,) * 3))
    assert (shown.headline, shown.tone) == ("False start!", "warn")
    assert shown.cards[2].note_text == "Out: two false starts"

    stopped = started(armed()).stop()
    shown = presenter.present(Snapshot(stopped))
    assert (shown.headline, shown.tone, shown.detail) == ("Ready? Tap Start", "text", "Race stopped.")


def test_countdown_wait_and_go() -> None:
    race = started(armed())
    countdown = presenter.present(Snapshot(race))
    assert (countdown.mode, countdown.headline, keys(countdown)) == ("countdown", "3", ["stop"])
    while race.phase is Phase.COUNTDOWN:
        race = race.count_down()
    waiting = presenter.present(Snapshot(race))
    assert (waiting.mode, waiting.headline) == ("set", "Wait for it…")
    assert waiting.detail == countdown.detail == "Glasses ready. Press only when your glass is empty!"
    go = presenter.present(Snapshot(race.go(10.0)))
    assert (go.mode, go.headline, go.tone) == ("go", "GO!", "go")
    assert [c.time_text for c in go.cards] == ["drinking…", "drinking…"]
    assert go.controls == (presenter.Control("stop", "Stop (nobody else will press)"),)


def test_the_winner_chooses_who_goes_first() -> None:
    race = at_go(armed()).press("Bo", 10.25).press("Ann", 10.4)
    shown = presenter.present(Snapshot(race))
    assert (shown.mode, shown.headline, shown.tone) == ("done", "Bo wins!", "go")
    assert shown.detail.endswith("Bo, tap who goes first.")
    assert [(c.time_text, c.winner) for c in shown.cards] == [("400 ms", False), ("250 ms", True)]
    assert keys(shown) == ["first:Ann", "first:Bo", "again"]
    first_ann, _first_bo, again = shown.controls
    assert first_ann.action == choose_first("Ann", "Bo", "race") and first_ann.accent
    assert not again.accent and again.action is None


def test_a_tie_offers_the_race_again_and_nobody_pressing_says_so() -> None:
    tie = presenter.present(Snapshot(at_go(armed()).press("Ann", 10.3).press("Bo", 10.301)))
    assert (tie.headline, tie.tone, keys(tie)) == ("A tie!", "warn", ["again"])
    assert tie.controls[0].accent and "Race again" in tie.detail

    stopped = presenter.present(Snapshot(at_go(armed()).press("Ann", 10.3).stop()))
    assert stopped.headline == "Ann wins!"
    assert [c.time_text for c in stopped.cards] == ["300 ms", "no press"]


def test_two_false_starts_lose_the_race_and_no_time_is_shown() -> None:
    rng = random.Random(5)
    race = Race.new(["Ann", "Bo"]).start(rng, at=1.0).press("Bo", 1.5)
    race = race.start(rng, at=3.0).press("Bo", 3.5)
    shown = presenter.present(Snapshot(race))
    assert race.news is News.RESULT
    assert (shown.headline, shown.tone) == ("Ann wins!", "go")
    assert [(c.time_text, c.note_text) for c in shown.cards] == [("", ""), ("", "Out: two false starts")]


def test_the_previous_loser_chooses_or_the_table_agrees() -> None:
    loser = presenter.loser_chooses(["Ann", "Bo"], "Bo", "Bo lost the last game, so Bo chooses who goes first.")
    assert (loser.mode, loser.headline) == ("loser", "Bo chooses who goes first")
    assert loser.detail.endswith("Or race for it.")
    assert [c.note_text for c in loser.cards] == ["", "Lost the last game: chooses"]
    assert keys(loser) == ["first:Ann", "first:Bo", "race_instead"]
    assert loser.controls[0].action == choose_first("Ann", "Bo", "loser")

    table = presenter.no_race(["Ann", "Bo"], "Agree at the table, then tap who goes first.")
    assert (table.mode, table.headline, keys(table)) == ("no race", "Who goes first?", ["first:Ann", "first:Bo"])
    assert table.controls[1].action == choose_first("Bo", "Bo", "table")

    testing = presenter.testing(["Ann", "Bo"])
    assert (testing.mode, testing.controls) == ("test", ())
