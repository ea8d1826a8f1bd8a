"""The turn clock's rules, each test quoting issue 27's words ("Turn clock", `companion play turn-clock`).

Times are the game's seconds of play, carried by each action as ``at``; a real `Session` on a real games file
with a clock the test moves stands in for the table.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest

from companion.game import Options, RuleError, SetupError
from companion.games import facts, game
from companion.games.turn_clock.settings import ClockSettings, parse_time
from companion.games.turn_clock.views import live
from companion.session import Session
from companion.store import Store
from tests.support import ManualClock
from tests.support.golden import read, scripts
from ui.presenters.turn_clock import TurnClockPresenter

Acts = list[dict[str, object]]


def clock_game(tmp_path: Path, *names: str, time: str = "total 1m +5s", clock: ManualClock | None = None) -> Session:
    store = Store.open(tmp_path / "games.db")
    return Session.start(store, "turn-clock", Options.for_names(*names, time=time), clock=clock or ManualClock())


def play(session: Session, acts: Acts) -> None:
    for act in acts:
        session.act(act)


def times(session: Session, now: float | None = None) -> dict[str, tuple[float, float, float, int]]:
    """Each player's (left, used, longest, turns) at `now` (the session's seconds of play if None)."""
    at = session.elapsed if now is None else now
    return {t.name: (t.left, t.used, t.longest, t.turns) for t in live(session.view(), at)}


def test_a_tool_for_2_to_5_players() -> None:
    """ "Turn clock (`companion play turn-clock`): a chess-style clock for 2 to 5 players" — a tool, under Any game."""
    found = facts("turn-clock")
    assert (found.min_players, found.max_players, found.tool) == (2, 5, True)
    with pytest.raises(SetupError, match="2 to 5"):
        game("turn-clock").setup(Options.for_names("Ann"))


def test_a_press_ends_the_turn_and_passes_the_clock_on_in_seat_order(tmp_path: Path) -> None:
    """ "a press on the GPIO button (or a tap anywhere on the clock) ends the turn and passes the clock on in seat
    order" — round the table, and round again."""
    session = clock_game(tmp_path, "Ann", "Bo", "Cy")
    session.act({"type": "start", "at": 0})
    seen = [session.current_player]
    for at, player in enumerate(["Ann", "Bo", "Cy", "Ann"], start=1):
        session.act({"type": "end_turn", "player": player, "at": at * 10})
        seen.append(session.current_player)
    assert seen == ["Ann", "Bo", "Cy", "Ann", "Bo"]


def test_a_total_time_with_an_increment(tmp_path: Path) -> None:
    """ "a total time ... (with an increment if chosen)": 1 minute each, 5 s added after each of their turns."""
    session = clock_game(tmp_path, "Ann", "Bo", time="total 1m +5s")
    play(session, [{"type": "start", "at": 0}, {"type": "end_turn", "player": "Ann", "at": 20}])
    assert times(session, 20)["Ann"] == (45.0, 20.0, 20.0, 1)  # 60 + 5 - 20
    assert times(session, 32)["Bo"][0] == 48.0  # "the current player's time running": 60 - 12
    assert times(session, 32)["Ann"][0] == 45.0  # the others' stand still


def test_a_time_per_turn_starts_afresh_every_turn(tmp_path: Path) -> None:
    """ "or a time per turn": every turn has the whole time again; a turn that runs over is counted."""
    session = clock_game(tmp_path, "Ann", "Bo", time="turn 30s")
    play(session, [{"type": "start", "at": 0}, {"type": "end_turn", "player": "Ann", "at": 40}])
    assert times(session, 45)["Bo"][0] == 25.0
    assert times(session, 45)["Ann"][0] == 30.0
    view = session.view()
    assert [(p.name, p.overs, p.out_of_time) for p in view.players] == [("Ann", 1, True), ("Bo", 0, False)]


def test_the_flag_falls_at_zero_once_and_the_end_names_who_ran_out(tmp_path: Path) -> None:
    """ "a buzz at 10 s left and at zero": the flag falls, is shown and told, the table plays on, and the end
    names who ran out of time (the turn clock's choice where the issue is silent)."""
    session = clock_game(tmp_path, "Ann", "Bo", time="total 1m")
    play(session, [{"type": "start", "at": 0}])
    live_ann = next(t for t in live(session.view(), 61) if t.name == "Ann")
    assert live_ann.out_of_time and live_ann.left == -1.0  # shown the moment it falls, before the turn ends
    (ended,) = session.act({"type": "end_turn", "player": "Ann", "at": 70})
    assert session.game.tell(ended, session.state) == "Ann's turn took 1:10. Ann ran out of time! Bo's clock runs."
    play(session, [{"type": "end_turn", "player": "Bo", "at": 80}])
    (again,) = session.act({"type": "end_turn", "player": "Ann", "at": 90})
    assert "ran out" not in session.game.tell(again, session.state)  # it falls once
    session.act({"type": "stop", "at": 95})
    assert session.outcome is not None and session.outcome.winners == ()
    assert session.outcome.detail == "Out of time: Ann."


def test_each_players_total_and_longest_turn_at_the_end_in_the_log(tmp_path: Path) -> None:
    """ "each player's total and longest turn at the end, in the log": the stop's sentence says them."""
    session = clock_game(tmp_path, "Ann", "Bo", time="total 20m")
    play(
        session,
        [
            {"type": "start", "at": 0},
            {"type": "end_turn", "player": "Ann", "at": 30},
            {"type": "end_turn", "player": "Bo", "at": 100},
            {"type": "end_turn", "player": "Ann", "at": 190},
        ],
    )
    (stopped,) = session.act({"type": "stop", "at": 200})  # Bo's running 10 s count too
    assert session.game.tell(stopped, session.state) == (
        "The clock stopped. Times: Ann 2:00 in 2 turns, longest 1:30; Bo 1:20 in 2 turns, longest 1:10."
    )


def test_pause_stops_the_running_time(tmp_path: Path) -> None:
    """ "pause": the game clock's pause (seconds of play leave pauses out) holds the running player's time."""
    clock = ManualClock()
    session = clock_game(tmp_path, "Ann", "Bo", time="total 1m", clock=clock)
    presenter = TurnClockPresenter(session)
    session.act(presenter.tap())  # start
    clock.advance(10)
    session.pause_clock()
    clock.advance(300)  # a long pause
    assert times(session)["Ann"][0] == 50.0
    assert presenter.tap() is None  # a tap while paused does nothing
    session.resume_clock()
    clock.advance(5)
    session.act(presenter.tap())
    assert times(session)["Ann"][:2] == (45.0, 15.0)


def test_undo_gives_the_clock_back_to_the_player_whose_turn_it_was(tmp_path: Path) -> None:
    """ "undoable": a pass by mistake, undone, and the time since counts for the player still playing."""
    clock = ManualClock()
    session = clock_game(tmp_path, "Ann", "Bo", time="total 1m", clock=clock)
    presenter = TurnClockPresenter(session)
    session.act(presenter.tap())
    clock.advance(4)
    session.act(presenter.tap())
    clock.advance(6)
    assert session.undo()
    assert session.current_player == "Ann" and times(session)["Ann"][0] == 50.0
    assert session.redo() and session.current_player == "Bo"


def test_refused_times_and_turns_change_nothing(tmp_path: Path) -> None:
    """Bad input gets one clear sentence: an end before the start, a time going back, another's turn."""
    session = clock_game(tmp_path, "Ann", "Bo")
    for act, sentence in [
        ({"type": "end_turn", "player": "Ann", "at": 1}, "Start the clock first: tap it to start Ann's time."),
        ({"type": "start", "at": -1}, "A time is a number of seconds of play, 0 or more."),
    ]:
        with pytest.raises(RuleError, match=f"^{re.escape(sentence)}$"):
            session.act(act)
    play(session, [{"type": "start", "at": 5}])
    before = session.state
    with pytest.raises(RuleError, match=r"^The clock cannot go back"):
        session.act({"type": "end_turn", "player": "Ann", "at": 4})
    with pytest.raises(RuleError, match=r"^It is Ann's turn, not Bo's\.$"):
        session.act({"type": "end_turn", "player": "Bo", "at": 6})
    assert session.state == before


def test_a_player_who_leaves_in_their_turn_hands_on_a_waiting_clock(tmp_path: Path) -> None:
    """Someone leaves in their own turn: the next player's clock waits for a tap (nobody knows when they left)."""
    session = clock_game(tmp_path, "Ann", "Bo", "Cy")
    play(session, [{"type": "start", "at": 0}, {"type": "leave", "player": "Ann"}])
    assert session.current_player == "Bo" and not session.view().running
    play(session, [{"type": "start", "at": 30}, {"type": "end_turn", "player": "Bo", "at": 40}])
    assert session.current_player == "Cy"
    play(session, [{"type": "end_turn", "player": "Cy", "at": 50}])
    assert session.current_player == "Bo"  # Ann's seat is skipped


@pytest.mark.parametrize(
    ("text", "settings"),
    [
        ("total 20m", ClockSettings("total", 1200.0, 0.0)),
        ("total 10m +5s", ClockSettings("total", 600.0, 5.0)),
        ("turn 60s", ClockSettings("turn", 60.0, 0.0)),
    ],
)
def test_the_time_is_chosen_at_the_start(text: str, settings: ClockSettings) -> None:
    """ "a total time or a time per turn (with an increment if chosen)", as home's toggle and the config say it."""
    assert parse_time(text) == settings


@pytest.mark.parametrize("text", ["20 minutes", "turn 60s +5s", "total 0m", "total 2000m", 20])
def test_a_time_it_does_not_know_gets_one_sentence(text: object) -> None:
    with pytest.raises(SetupError, match=r"^[^\n]+\.$"):
        parse_time(text)


@pytest.mark.parametrize("path", scripts("turn-clock"), ids=lambda p: p.stem)
def test_golden_clocks_end_with_each_players_times(path: Path, tmp_path: Path) -> None:
    """The golden scripts' totals, longest turns and turns (their ``expect`` line), played on a real file."""
    golden = read(path)
    store = Store.open(tmp_path / "games.db")
    session = Session.start(store, "turn-clock", Options.for_names(*golden.players, **golden.settings))
    for _number, action in golden.actions:
        if action["type"] == "undo":
            session.undo()
            continue
        with contextlib.suppress(RuleError):  # the refusals are test_golden.py's
            session.act(action)
    players = session.view().players
    assert {p.name: p.used for p in players} == golden.expect["used"]
    assert {p.name: p.longest for p in players} == golden.expect["longest"]
    assert {p.name: p.turns for p in players} == golden.expect["turns"]
    store.close()


def test_a_power_cut_loses_at_most_the_running_second(tmp_path: Path) -> None:
    """ "Time must be part of the stored, undoable, resumable state": the screen saves the second of play each
    tick; the games file, opened again as after a power cut, gives the running turn back less at most a second."""
    clock = ManualClock()
    session = clock_game(tmp_path, "Ann", "Bo", time="total 5m", clock=clock)
    presenter = TurnClockPresenter(session)
    session.act(presenter.tap())
    clock.advance(20)
    session.act(presenter.tap())  # Bo's clock runs
    for _ in range(37):  # the screen's ticks, one a second
        clock.advance(1)
        presenter.keep_time()
    clock.advance(0.9)  # the power goes in the middle of a second: nothing saved it
    running = times(session)["Bo"][0]
    session.store.close()  # what the card holds is what was written: no pause, no goodbye
    with Store.open(tmp_path / "games.db") as store:
        resumed = Session.resume(store, clock=ManualClock(5000.0))
        assert resumed is not None
        left = times(resumed)
        assert left["Ann"][:2] == (280.0, 20.0)
        assert running <= left["Bo"][0] <= running + 1.0
        assert resumed.current_player == "Bo" and resumed.view().running


def test_the_log_and_export_read_each_players_times_from_the_games_file(tmp_path: Path) -> None:
    """ "each player's total and longest turn at the end, in the log": the story the Log, the replay and
    `companion export` read, told again from the real file."""
    from companion.record import story

    session = clock_game(tmp_path, "Ann", "Bo", time="turn 30s")
    play(
        session,
        [
            {"type": "start", "at": 0},
            {"type": "end_turn", "player": "Ann", "at": 31},
            {"type": "stop", "at": 40},
        ],
    )
    told = story(session.store, session.game_id)
    lines = [sentence for step in told.steps for sentence in step.sentences]
    assert lines == [
        "Ann's clock is running.",
        "Ann's turn took 0:31. Ann ran out of time! Bo's clock runs.",
        "The clock stopped. Times: Ann 0:31 in 1 turn, longest 0:31; Bo 0:09 in 1 turn, longest 0:09.",
    ]
    assert told.outcome is not None and told.outcome["detail"] == "Out of time: Ann."


def test_the_bench_runs(tmp_path: Path) -> None:
    """`make bench`'s turn clock section still runs (its figures are `make bench`'s, never asserted here)."""
    from bench import bench_turn_clock

    lines = bench_turn_clock.run(presses=20, on_file=5)
    assert len(lines) == 4 and all(line.startswith("turn clock:") for line in lines)


def test_a_buzz_at_10_s_left_and_at_zero_once_each(tmp_path: Path) -> None:
    """ "a buzz at 10 s left and at zero": asked at every tick, the presenter calls for each once a turn."""
    clock = ManualClock()
    session = clock_game(tmp_path, "Ann", "Bo", time="turn 30s", clock=clock)
    presenter = TurnClockPresenter(session)
    session.act(presenter.tap())
    heard = []
    for _ in range(35):
        heard.append(presenter.alert())
        clock.advance(1)
    assert [(second, alert) for second, alert in enumerate(heard) if alert] == [(20, "ten"), (30, "zero")]
    session.act(presenter.tap())  # Bo's turn: his own buzzes
    heard = []
    for _ in range(21):
        heard.append(presenter.alert())
        clock.advance(1)
    assert heard.count("ten") == 1 and "zero" not in heard
