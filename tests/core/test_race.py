"""The water race's rules (companion.race): timestamps decide, never the order of reports."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.codec import plain
from companion.game import Options
from companion.race import (
    News,
    Phase,
    Race,
    RaceError,
    choose_first,
    first_choice,
    format_ms,
    previous_loser,
)
from companion.session import Session
from companion.store import Store

# -- helpers -----------------------------------------------------------------------------------


def racing(racers: Sequence[str] = ("Ann", "Bo"), *, go_at: float = 10.0, **settings: object) -> Race:
    """A race at GO (given at `go_at`), started at 5.0 with a seeded wait."""
    race = Race.new(racers, **settings).start(random.Random(1), at=5.0)  # type: ignore[arg-type]
    while race.phase is Phase.COUNTDOWN:
        race = race.count_down()
    return race.go(go_at)


def press_all(race: Race, presses: Sequence[tuple[str, float]]) -> Race:
    for racer, at in presses:
        race = race.press(racer, at)
    return race


# -- the phases ----------------------------------------------------------------------------------


def test_a_race_counts_down_then_waits_a_random_recorded_delay_then_goes() -> None:
    race = Race.new(["Ann", "Bo"])
    assert race.phase is Phase.ARMED
    race = race.start(random.Random(7), at=1.0)
    expected = round(random.Random(7).uniform(1.0, 3.0), 3)
    assert race.delays == (expected,) and race.delay == expected
    assert (race.phase, race.count) == (Phase.COUNTDOWN, 3)
    race = race.count_down().count_down()
    assert (race.phase, race.count) == (Phase.COUNTDOWN, 1)
    race = race.count_down()
    assert race.phase is Phase.SET
    race = race.go(4.5)
    assert (race.phase, race.go_at) == (Phase.GO, 4.5)


def test_every_start_draws_a_new_delay_and_keeps_the_old_ones() -> None:
    rng = random.Random(3)
    race = Race.new(["Ann", "Bo"], delay_range=(0.5, 4.0)).start(rng, at=0.0)
    race = race.press("Bo", 0.2)  # false start: re-armed
    race = race.start(rng, at=1.0)
    assert len(race.delays) == 2
    check = random.Random(3)
    assert race.delays == (round(check.uniform(0.5, 4.0), 3), round(check.uniform(0.5, 4.0), 3))
    assert all(0.5 <= d <= 4.0 for d in race.delays)


def test_go_only_after_the_countdown_and_start_only_when_armed() -> None:
    race = Race.new(["Ann", "Bo"])
    with pytest.raises(RaceError):
        race.go(1.0)
    started = race.start(random.Random(1), at=0.0)
    with pytest.raises(RaceError):
        started.go(1.0)  # still counting down
    with pytest.raises(RaceError):
        started.start(random.Random(1), at=0.0)
    with pytest.raises(RaceError, match=r"^There is no countdown running\.$"):
        racing().count_down()  # a late tick of the countdown's timer after GO
    assert race.time_ms("Ann") is None and started.time_ms("Ann") is None  # no time before GO


@pytest.mark.parametrize(
    ("racers", "settings"),
    [
        (["Ann"], {}),
        (["Ann", "Ann"], {}),
        (["Ann", ""], {}),
        (["Ann", "Bo"], {"tie_window_ms": -1}),
        (["Ann", "Bo"], {"delay_range": (3.0, 1.0)}),
        (["Ann", "Bo"], {"countdown_from": -2}),
    ],
)
def test_impossible_races_are_refused_with_a_sentence(racers: list[str], settings: dict[str, object]) -> None:
    with pytest.raises(RaceError, match=r"\w+ .*\."):
        Race.new(racers, **settings)  # type: ignore[arg-type]


# -- the winner ---------------------------------------------------------------------------------------


def test_the_earlier_edge_wins_even_when_it_is_reported_second() -> None:
    race = press_all(racing(tie_window_ms=0.5), [("Bo", 10.501), ("Ann", 10.500)])
    assert race.phase is Phase.DONE
    assert race.result is not None
    assert race.result.winner == "Ann"
    assert race.result.time_ms("Ann") == pytest.approx(500.0)
    assert race.result.time_ms("Bo") == pytest.approx(501.0)
    assert "Ann finished first, 500 ms after GO" in race.result.sentence


def test_the_result_waits_for_every_racer_then_shows_both_times() -> None:
    race = racing().press("Ann", 12.25)
    assert race.phase is Phase.GO and race.result is None
    assert race.time_ms("Ann") == pytest.approx(2250.0) and race.time_ms("Bo") is None
    race = race.press("Ann", 12.40)  # only the first press counts
    assert race.time_ms("Ann") == pytest.approx(2250.0)
    race = race.press("Bo", 13.0)
    assert race.result is not None
    assert race.result.times_ms == (("Ann", pytest.approx(2250.0)), ("Bo", pytest.approx(3000.0)))


def test_stop_decides_on_the_presses_so_far() -> None:
    race = racing().press("Bo", 11.0).stop()
    assert race.result is not None and race.result.winner == "Bo" and race.result.how == "stopped"
    assert race.result.time_ms("Ann") is None
    assert "Ann did not press" in race.result.sentence
    nobody = racing().stop()
    assert nobody.phase is Phase.ARMED and nobody.result is None
    assert race.stop() is race  # a second Stop (the screen's and a button's at once) keeps the result


def test_presses_while_armed_or_before_the_start_are_tests_not_false_starts() -> None:
    armed = Race.new(["Ann", "Bo"])
    assert armed.press("Ann", 1.0) is armed
    race = racing()
    assert race.press("Ann", 4.0) is race  # stamped before this attempt started at 5.0
    assert race.false_starts == ()


def test_unknown_racer_is_refused() -> None:
    with pytest.raises(RaceError):
        racing().press("Cy", 11.0)


# -- false starts -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("phase_steps", [0, 3])  # during "3", during the hidden wait
def test_a_press_before_go_is_a_named_false_start_and_rearms(phase_steps: int) -> None:
    race = Race.new(["Ann", "Bo"]).start(random.Random(1), at=1.0)
    for _ in range(phase_steps):
        race = race.count_down()
    race = race.press("Bo", 2.0)
    assert race.phase is Phase.ARMED
    assert race.false_starts_by("Bo") == 1
    assert (race.news, race.news_about) == (News.FALSE_START, "Bo") and race.news.is_false_start
    assert race.notice == "False start by Bo! Once more and Bo loses the race."


def test_a_press_stamped_before_go_but_reported_after_it_is_a_false_start() -> None:
    race = racing(go_at=10.0).press("Ann", 9.999)
    assert race.phase is Phase.ARMED and race.false_starts_by("Ann") == 1


def test_a_second_false_start_by_the_same_player_loses_the_race() -> None:
    rng = random.Random(5)
    race = Race.new(["Ann", "Bo"]).start(rng, at=1.0).press("Bo", 1.5)
    race = race.start(rng, at=3.0).press("Ann", 3.5)  # Ann's first
    assert race.phase is Phase.ARMED
    race = race.start(rng, at=5.0).press("Bo", 5.5)  # Bo's second
    assert race.phase is Phase.DONE and race.result is not None
    assert race.result.winner == "Ann" and race.result.how == "false starts"
    assert race.result.sentence == "Bo started too early twice and loses the race: Ann wins."
    assert race.out == ("Bo",)


def test_with_three_racers_a_double_false_start_puts_one_out_and_the_race_goes_on() -> None:
    rng = random.Random(5)
    race = Race.new(["Ann", "Bo", "Cy"]).start(rng, at=1.0).press("Cy", 1.5)
    race = race.start(rng, at=3.0).press("Cy", 3.5)
    assert race.phase is Phase.ARMED and race.out == ("Cy",) and race.active == ("Ann", "Bo")
    assert (race.news, race.news_about) == (News.OUT, "Cy") and race.news.is_false_start
    assert race.notice == "Cy started too early twice and is out of this race."
    race = race.start(rng, at=5.0)
    assert race.news is News.NONE and race.notice == ""
    while race.phase is Phase.COUNTDOWN:
        race = race.count_down()
    race = race.go(8.0).press("Cy", 8.1)  # out: ignored
    race = race.press("Bo", 8.3).press("Ann", 8.2)
    assert race.result is not None and race.result.winner == "Ann"


def test_the_earliest_false_start_is_charged_even_when_reported_second() -> None:
    race = Race.new(["Ann", "Bo"]).start(random.Random(1), at=1.0)
    race = race.press("Ann", 2.0)  # reported first, but stamped later
    race = race.press("Bo", 1.9)
    assert race.false_starts_by("Bo") == 1 and race.false_starts_by("Ann") == 0
    assert "Bo" in race.notice
    after = race.press("Ann", 2.5)  # after the race had stopped: nobody else is charged
    assert after.false_starts_by("Ann") == 0
    assert race.press("Ann", 0.5) is race  # stamped before that attempt began: testing the button, not racing


def test_the_news_is_a_field_and_the_notice_its_sentence() -> None:
    race = Race.new(["Ann", "Bo"])
    assert (race.news, race.notice) == (News.NONE, "")
    stopped = race.start(random.Random(1), at=1.0).stop()
    assert (stopped.news, stopped.notice) == (News.STOPPED, "Race stopped.") and not stopped.news.is_false_start
    done = press_all(racing(), [("Ann", 10.2), ("Bo", 10.3)])
    assert done.news is News.RESULT and done.result is not None and done.notice == done.result.sentence
    assert done.again().news is News.NONE


# -- ties --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("gap_ms", "tie"), [(0.0, True), (3.0, True), (5.0, True), (5.2, False), (40.0, False)])
def test_presses_within_the_tie_window_are_a_tie(gap_ms: float, tie: bool) -> None:
    race = press_all(racing(), [("Ann", 11.0), ("Bo", 11.0 + gap_ms / 1000)])
    assert race.result is not None and race.result.is_tie is tie
    if tie:
        assert race.result.tied == ("Ann", "Bo")
        assert "Race again" in race.result.sentence


def test_the_tie_window_is_configurable() -> None:
    race = press_all(racing(tie_window_ms=20), [("Ann", 11.0), ("Bo", 11.015)])
    assert race.result is not None and race.result.is_tie
    race = press_all(racing(tie_window_ms=0), [("Ann", 11.0), ("Bo", 11.0005)])
    assert race.result is not None and race.result.winner == "Ann"


def test_after_a_tie_the_race_is_offered_again_fresh() -> None:
    race = press_all(racing(), [("Ann", 11.0), ("Bo", 11.001)])
    again = race.again()
    assert again.phase is Phase.ARMED and again.result is None and again.delays == ()
    assert (again.racers, again.tie_window_ms) == (race.racers, race.tie_window_ms)


@settings(max_examples=200, deadline=None)
@given(
    times=st.lists(st.floats(min_value=10.0, max_value=20.0, allow_nan=False), min_size=3, max_size=3),
    window=st.sampled_from([0.0, 1.0, 5.0, 50.0]),
    order=st.permutations([0, 1, 2]),
)
def test_the_result_depends_on_the_edge_times_only_never_on_the_report_order(
    times: list[float], window: float, order: list[int]
) -> None:
    racers = ("Ann", "Bo", "Cy")
    presses = [(racers[i], times[i]) for i in range(3)]
    reference = press_all(racing(racers, tie_window_ms=window), presses).result
    shuffled = press_all(racing(racers, tie_window_ms=window), [presses[i] for i in order]).result
    assert reference == shuffled
    assert reference is not None
    earliest = min(times)
    close = [racers[i] for i in range(3) if (times[i] - earliest) * 1000 <= window + 1e-6]
    assert reference.winner == (close[0] if len(close) == 1 else None)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Ann", "Bo"]), st.floats(0.0, 30.0, allow_nan=False)), max_size=8))
def test_a_race_never_fails_and_never_has_a_winner_who_is_out(presses: list[tuple[str, float]]) -> None:
    race = racing()
    for racer, at in presses:
        race = race.press(racer, at)
        if race.phase is Phase.ARMED and race.result is None:
            race = race.start(random.Random(0), at=at)
            while race.phase is Phase.COUNTDOWN:
                race = race.count_down()
            race = race.go(at + 0.5)
    if race.result is not None and race.result.winner is not None:
        assert race.result.winner not in race.out


def test_format_ms_is_to_the_millisecond() -> None:
    assert format_ms(412.4) == "412 ms"
    assert format_ms(1003.6) == "1004 ms"
    assert format_ms(0.4) == "0.4 ms"
    assert format_ms(0) == "0 ms"


# -- who chooses next time: through the real Session and a SQLite file -----------------------------------------


GAME = "quantum-link"
"""A real game that takes ``choose_first`` and can be won, lost or drawn in a few moves."""


def _play(
    store: Store, players: Sequence[str], *actions: dict[str, object], game: str = GAME, **settings: object
) -> Session:
    session = Session.start(store, game, Options.for_names(*players, **settings))
    for action in actions:
        session.act(action)
    return session


def _win(winner: str, loser: str) -> list[dict[str, object]]:
    """Quantum Link moves, `winner` to move, that end the game `winner` 2, `loser` 0.

    Two 1s side by side have one friend each, so both score; two passes in a row end the game.
    """
    one = {"type": "place", "player": winner, "face": 1}
    wait = {"type": "pass", "player": loser}
    return [{**one, "cell": [0, 0]}, wait, {**one, "cell": [1, 0]}, wait, {"type": "pass", "player": winner}]


def _draw(first: str, second: str) -> list[dict[str, object]]:
    """Two passes and no dice: 0 to 0, a tie."""
    return [{"type": "pass", "player": first}, {"type": "pass", "player": second}]


def test_the_previous_loser_of_the_same_players_chooses_next_time(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        assert first_choice(store.finished(), ["Ann", "Bo"], GAME).how == "race"
        _play(store, ["Ann", "Bo"], *_win("Ann", "Bo"))
        _play(store, ["Ann", "Cy"], {"type": "pass", "player": "Ann"}, *_win("Cy", "Ann"))  # other players: not ours
        offer = first_choice(store.finished(), ["Bo", "Ann"], GAME)
        assert (offer.chooser, offer.how) == ("Bo", "loser")
        assert offer.sentence == "Bo lost the last game, so Bo chooses who goes first."
        assert previous_loser(store.finished(), ["Ann", "Cy"]) == "Ann"
        assert previous_loser(store.finished(), ["Ann", "Bo"], "quin") is None  # another game
        # The newest game decides: Bo wins the next one, so Ann chooses after it.
        _play(store, ["Ann", "Bo"], {"type": "pass", "player": "Ann"}, *_win("Bo", "Ann"))
        assert previous_loser(store.finished(), ["Ann", "Bo"], GAME) == "Ann"
        # A draw, or an abandoned game, leaves it to a race (or the newest real result).
        drawn = _play(store, ["Ann", "Bo"], *_draw("Ann", "Bo"))
        assert drawn.outcome is not None and drawn.outcome.winners == ()
        assert previous_loser(store.finished(), ["Ann", "Bo"]) is None
        abandoned = _play(store, ["Dee", "Eve"], *_win("Dee", "Eve"))
        _play(store, ["Dee", "Eve"]).abandon()
        assert abandoned.outcome is not None
        assert previous_loser(store.finished(), ["Dee", "Eve"]) == "Eve"


def test_several_losers_leave_the_choice_to_a_race(tmp_path: Path, tiny: object) -> None:
    # No real game that takes choose_first ends quickly with three players: the core tests' dice game does.
    with Store.open(tmp_path / "games.db") as store:
        won = _play(store, ["Ann", "Bo", "Cy"], {"type": "roll", "player": "Ann"}, game="tiny", target=1)
        assert won.outcome is not None and won.outcome.winners == ("Ann",)
        assert previous_loser(store.finished(), ["Ann", "Bo", "Cy"]) is None


def test_the_choice_is_the_games_first_action_and_survives_a_restart(tmp_path: Path) -> None:
    race = press_all(racing(tie_window_ms=0.5), [("Bo", 10.402), ("Ann", 10.401)])
    assert race.result is not None and race.result.winner == "Ann"
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, GAME, Options.for_names("Ann", "Bo"))
        session.act(choose_first("Bo", chosen_by=race.result.winner, how="race"))
    with Store.open(tmp_path / "games.db") as store:
        resumed = Session.resume(store)
        assert resumed is not None
        chosen = {"type": "first_player_chosen", "player": "Bo", "chosen_by": "Ann", "how": "race"}
        assert [plain(event) for event in resumed.events] == [chosen]
        assert resumed.current_player == "Bo"


def test_choose_first_builds_the_contracts_action() -> None:
    assert choose_first("Bo", "Ann", "loser") == {
        "type": "choose_first",
        "player": "Bo",
        "chosen_by": "Ann",
        "how": "loser",
    }
    with pytest.raises(RaceError):
        choose_first("Bo", "Ann", "coin")


def test_the_race_logic_needs_no_hardware_or_ui_library() -> None:
    blocked = "import sys\nfor m in ('gpiozero', 'kivy', 'serial'): sys.modules[m] = None\nimport companion.race\n"
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", blocked], check=True, cwd=root)


def test_every_delivery_order_of_two_presses_one_ms_apart_gives_the_same_winner() -> None:
    presses = [("Ann", 10.300), ("Bo", 10.301)]
    winners = {
        press_all(racing(tie_window_ms=0.5), list(order)).result.winner  # type: ignore[union-attr]
        for order in itertools.permutations(presses)
    }
    assert winners == {"Ann"}
