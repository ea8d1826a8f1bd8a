"""The Log's presenter, without a window: "Every game has a Log screen: the public events in the table's words,
each with its time. A finished game can be replayed step by step, with a slider and the board as it was at each
step. Finished Quin games are revealed in full." (issue 14)."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from companion.dice import RandomDice
from companion.game import Options, RuleError
from companion.record import story
from companion.session import Session
from companion.store import Store
from tests.support import golden
from ui.presenters.log import NOTHING_READ, LiveStory, Replay, clock_time, line_of, present_log


def _at(*when: int) -> float:
    return datetime(*when).timestamp()  # type: ignore[arg-type]  # local time, as the appliance shows it


class Clock:
    """Stamps each move a minute after the one before."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def play(store: Store, path: Path, clock: Clock, *, upto: int | None = None) -> Session:
    """Play a golden script (its refused lines skipped), one minute per line."""
    script = golden.read(path)
    session = Session.start(
        store, script.game, Options.for_names(*script.players, **script.settings),
        dice=RandomDice.seeded(script.seed or 0), clock=clock,
    )  # fmt: skip
    for _, action in script.actions[:upto]:
        clock.now += 60
        if action.get("type") == "undo":
            session.undo()
        elif action.get("type") == "redo":
            session.redo()
        else:
            with contextlib.suppress(RuleError):  # the script's deliberate refusals
                session.act(action)
    return session


def test_times_are_local_hours_and_minutes():
    assert clock_time(_at(2026, 11, 23, 21, 4, 59)) == "21:04"
    assert clock_time(_at(2026, 11, 24, 7, 0)) == "07:00"


def test_each_line_is_the_time_the_number_and_the_tables_words_newest_last(tmp_path):
    clock = Clock(_at(2026, 11, 23, 21, 0))
    with Store.open(tmp_path / "games.db") as store:
        session = play(store, golden.FOLDER / "quinque-small-tie.jsonl", clock, upto=3)
        told = story(store, session.game_id)
    shown = present_log(told)
    assert [line.label[:10] for line in shown.lines] == ["21:01  1. ", "21:02  2. ", "21:03  3. "]
    assert [line.step for line in shown.lines] == [1, 2, 3]
    for line, step in zip(shown.lines, told.steps, strict=True):
        assert line.text == f"{step.number}. {' '.join(step.sentences) or NOTHING_READ}"
    assert "Ann" in shown.lines[0].text  # the table's words name who did it
    assert shown.title == f"Quinque, game {session.game_id}" and shown.players == "Ann, Bo"
    assert shown.status.startswith("In play: 3 moves so far")
    assert not shown.can_replay  # "A finished game can be replayed": this one is still in play


def test_undone_moves_have_no_line(tmp_path):
    clock = Clock(_at(2026, 11, 23, 21, 0))
    with Store.open(tmp_path / "games.db") as store:
        session = play(store, golden.FOLDER / "quinque-small-tie.jsonl", clock, upto=4)
        session.undo()
        session.undo()
        told = story(store, session.game_id)
    assert [line.step for line in present_log(told).lines] == [1, 2]


def test_a_game_without_moves_says_when_it_began(tmp_path):
    clock = Clock(_at(2026, 11, 23, 20, 15))
    with Store.open(tmp_path / "games.db") as store:
        session = play(store, golden.FOLDER / "quinque-small-tie.jsonl", clock, upto=0)
        shown = present_log(story(store, session.game_id))
    assert shown.lines == () and shown.empty == "No moves yet: the game began at 20:15."


def test_a_finished_game_says_who_won_and_can_be_replayed(tmp_path):
    clock = Clock(_at(2026, 11, 23, 21, 0))
    with Store.open(tmp_path / "games.db") as store:
        won = play(store, golden.FOLDER / "quinque-row-win.jsonl", clock)
        tie = play(store, golden.FOLDER / "quinque-small-tie.jsonl", clock)
        dropped = play(store, golden.FOLDER / "quinque-small-tie.jsonl", clock, upto=2)
        dropped.abandon()
        games = {"won": won, "tie": tie, "dropped": dropped}
        shown = {name: present_log(story(store, s.game_id)) for name, s in games.items()}
    assert shown["won"].status.startswith("Won by Ann (five in a row), ")
    assert shown["won"].can_replay
    assert shown["tie"].status.startswith("A tie, 8 moves") and shown["tie"].can_replay
    assert shown["dropped"].status == (
        "Ended without a result after 2 moves.\nThinking time: Ann 2:00 (longest turn 2:00), Bo had no turn."
    )  # issue 27: each player's thinking time follows
    assert not shown["dropped"].can_replay  # abandoned: not finished, so its secrets stay kept


def test_the_status_reads_how_the_game_ended_from_its_termination_not_its_words(tmp_path):
    """Issue 25: "`Outcome` with a termination enum (win, tie, left, abandoned, and each game's own kinds declared
    by the game), stored and queried as such": the Log reads the typed outcome, so a tie in a game's own words
    (with the tied players named) is a tie, and a game left for good is one whatever its reason says."""
    clock = Clock(_at(2026, 11, 23, 21, 0))
    with Store.open(tmp_path / "games.db") as store:
        told = story(store, play(store, golden.FOLDER / "quinque-small-tie.jsonl", clock, upto=2).game_id)
    shared = {"winners": ["Ann", "Bo"], "reason": "shared the board", "detail": "", "termination": "tie"}
    left = {"winners": [], "reason": "the table went home", "detail": "", "termination": "abandoned"}
    assert present_log(replace(told, outcome=shared)).status.startswith("A tie, 2 moves")
    thought = "\nThinking time: Ann 2:00 (longest turn 2:00), Bo had no turn."  # issue 27
    assert present_log(replace(told, outcome=left)).status == f"Ended without a result after 2 moves.{thought}"
    earlier = {"winners": ["Ann"], "reason": "five in a row", "detail": "Across the top."}  # stored before terminations
    assert present_log(replace(told, outcome=earlier)).status.startswith("Won by Ann (five in a row), 2 moves")
    assert present_log(replace(told, outcome=earlier)).status.endswith(f". Across the top.{thought}")


def test_the_slider_stands_on_whole_steps_within_the_game(tmp_path):
    clock = Clock(_at(2026, 11, 23, 21, 0))
    with Store.open(tmp_path / "games.db") as store:
        session = play(store, golden.FOLDER / "quinque-small-tie.jsonl", clock)
        told = story(store, session.game_id)
    replay = Replay(told)
    assert replay.count == 8 and replay.position == 8  # it opens on the end of the game
    assert [replay.position_of(v) for v in (-3, 0, 0.4, 0.6, 3.49, 7.8, 8, 99)] == [0, 0, 0, 1, 3, 8, 8, 8]
    assert not replay.shown().can_forward and replay.shown().can_back
    step = replay.go(2.7)
    assert step.position == 3 and step.counter == "Step 3 of 8"
    assert step.view == told.steps[2].view and step.time == "21:03" and step.text.startswith("3. ")
    assert replay.back().position == 2 and replay.forward().position == 3
    start = replay.go(0)
    assert start.view == told.start_view and not start.can_back and start.can_forward
    assert start.time == "21:00" and start.counter == "Start, 0 of 8"
    assert replay.back().position == 0  # Back at the start stays there


@pytest.mark.parametrize("path", golden.scripts("quinque")[:3], ids=lambda p: p.stem)
def test_each_step_shows_the_board_the_live_game_had_after_that_many_moves(path, tmp_path):
    """The replay shows "the board as it was at each step": its view at k is the live public view after k moves."""
    script = golden.read(path)
    live: list[object] = []
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(
            store, script.game, Options.for_names(*script.players, **script.settings), dice=RandomDice.seeded(0)
        )
        live.append(session.public_view())
        for _, action in script.actions:
            try:
                session.act(action)
            except RuleError:
                continue
            live.append(session.public_view())
        replay = Replay(story(store, session.game_id))
    assert [replay.go(k).view for k in range(replay.count + 1)] == live


def test_a_finished_quin_is_replayed_with_every_identity_shown(tmp_path):
    """The rule: "Finished Quin games are revealed in full." """
    clock = Clock(_at(2026, 11, 23, 21, 0))
    with Store.open(tmp_path / "games.db") as store:
        session = play(store, golden.FOLDER / "quin-key-light-captured.jsonl", clock)
        assert session.outcome is not None
        replay = Replay(story(store, session.game_id))
    played = [k for k in range(replay.count + 1) if replay.go(k).view["phase"] != "setup"]
    assert len(played) >= 10
    for k in played:  # once both sides are set up, every piece of every step is shown with its identity
        pieces = [p for side in replay.go(k).view["players"] for p in side["pieces"]]
        assert len(pieces) == 34 and all(p["identity"] for p in pieces), k


# -- the Log of a game in play follows it -------------------------------------------------------------------
def start(store: Store, path: Path, clock: Clock) -> tuple[Session, list[tuple[int, dict]]]:
    script = golden.read(path)
    session = Session.start(
        store, script.game, Options.for_names(*script.players, **script.settings),
        dice=RandomDice.seeded(script.seed or 1), clock=clock,
    )  # fmt: skip
    return session, script.actions


def step_on(session: Session, action: dict, clock: Clock) -> None:
    """One line of a golden script, a minute after the one before: undo and redo undo and redo."""
    clock.now += 60
    if action.get("type") in ("undo", "redo"):
        getattr(session, action["type"])()
    else:
        with contextlib.suppress(RuleError):
            session.act(action)


@pytest.mark.parametrize("path", golden.scripts(), ids=lambda p: p.stem)
def test_the_story_kept_up_move_by_move_is_the_story_read_again(path, tmp_path):
    """Issue 14, noticed: "The Log is a snapshot taken when it opens; it does not follow moves made while it is
    open." Followed line by line, the golden script's undos and redos too, the Log reads what the games file
    tells when opened afresh: the same steps, times, sentences and views."""
    clock = Clock(_at(2026, 11, 23, 21, 0))
    with Store.open(tmp_path / "games.db") as store:
        session, actions = start(store, path, clock)
        live = LiveStory(session, story(store, session.game_id), clock)
        for number, action in actions:
            step_on(session, action, clock)
            live.update()
            afresh = story(store, session.game_id)
            assert live.story.steps == afresh.steps, number
            assert (live.story.finished, live.story.outcome, live.story.revealed) == (
                afresh.finished, afresh.outcome, afresh.revealed,
            ), number  # fmt: skip
            assert present_log(live.story).lines == present_log(afresh).lines
        assert live.story.finished == (session.outcome is not None)


def test_a_move_adds_one_line_and_an_undo_takes_it_away_without_reading_the_story_again(tmp_path):
    """Issue 14, noticed: "it does not follow moves made while it is open." A move adds its step, with the time it
    was made; an undo drops it; a redo puts it back with its first time; a clock pause changes no step. Only
    the end of the game reads the story again."""
    clock = Clock(_at(2026, 11, 23, 21, 0))
    with Store.open(tmp_path / "games.db") as store:
        session, actions = start(store, golden.FOLDER / "quinque-small-tie.jsonl", clock)
        for _, action in actions[:3]:
            step_on(session, action, clock)
        live = LiveStory(session, story(store, session.game_id), clock)
        assert len(live.story.steps) == 3

        clock.now = _at(2026, 11, 23, 21, 30)
        session.act(actions[3][1])
        followed = live.update()
        assert followed is not None and followed.kept == 3 and not followed.retold
        assert [line_of(s).label[:10] for s in followed.story.steps[3:]] == ["21:30  4. "]

        clock.now += 60
        session.pause_clock()
        assert live.update() is None  # nothing but the clock: no line changes

        session.undo()
        followed = live.update()
        assert followed is not None and followed.kept == 3 and len(followed.story.steps) == 3

        clock.now = _at(2026, 11, 23, 22, 0)
        session.redo()
        followed = live.update()
        assert followed is not None and followed.kept == 3 and not followed.retold
        assert followed.story.steps[3].at == _at(2026, 11, 23, 21, 30)  # the time the move was first made
        assert followed.story.steps == story(store, session.game_id).steps

        for _, action in actions[4:]:
            step_on(session, action, clock)
        followed = live.update()
        assert session.outcome is not None and followed is not None and followed.retold
        assert followed.story.finished and present_log(followed.story).can_replay  # revealed in full now


def test_a_redo_of_a_move_undone_before_the_log_opened_gets_the_time_it_was_made(tmp_path):
    clock = Clock(_at(2026, 11, 23, 21, 0))
    with Store.open(tmp_path / "games.db") as store:
        session, actions = start(store, golden.FOLDER / "quinque-small-tie.jsonl", clock)
        for _, action in actions[:3]:
            step_on(session, action, clock)
        session.undo()
        live = LiveStory(session, story(store, session.game_id), clock)
        clock.now += 3600
        session.redo()
        followed = live.update()
        assert followed is not None and followed.story.steps == story(store, session.game_id).steps
        assert followed.story.steps[2].at == _at(2026, 11, 23, 21, 3)


def test_a_quin_private_setup_is_one_line_per_player(tmp_path):
    """Issue 21: "The Quin log is 36 lines of 'Bo gave 11 its identity.' out of 41": "Quin's setup steps are one
    log line per player ("Ann finished her private setup.")". The replay still steps through every move."""
    clock = Clock(_at(2026, 11, 23, 21, 0))
    with Store.open(tmp_path / "games.db") as store:
        session = play(store, golden.FOLDER / "quin-key-light-captured.jsonl", clock, upto=22)
        told = story(store, session.game_id)
    texts = [line.text for line in present_log(told).lines]
    assert [t for t in texts if "setup" in t] == [t for t in texts if "finished their private setup" in t]
    assert sum("finished their private setup" in t for t in texts) == 2
    assert not any("identity" in t or "Clone" in t for t in texts)
    assert len(texts) < len(told.steps) and Replay(told).count == len(told.steps)
