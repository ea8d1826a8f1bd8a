"""The session: store before show, undo/redo, resume, dice that stay rolled, the clock."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import RandomDice
from companion.game import Options, RuleError, SetupError
from companion.session import Session
from companion.store import Store
from tests.support import ManualClock


def start(store, *names, seed=1, clock=None, **settings):
    return Session.start(
        store, "tiny", Options.for_names(*names, **settings), dice=RandomDice.seeded(seed), clock=clock or ManualClock()
    )


def test_an_accepted_action_is_on_disk_before_observers_hear_of_it(tiny, tmp_path):
    store = Store.open(tmp_path / "games.db")
    session = start(store, "Ann", "Bo")
    seen_on_disk = []
    session.subscribe(lambda s: seen_on_disk.append(len(Store.read(tmp_path / "games.db").moves(s.game_id))))
    session.act({"type": "roll", "player": "Ann"})
    assert seen_on_disk == [1]


def test_an_illegal_action_changes_nothing_and_says_why(tiny):
    store = Store.in_memory()
    session = start(store, "Ann", "Bo")
    before = session.state
    with pytest.raises(RuleError, match="Ann's turn"):
        session.act({"type": "roll", "player": "Bo"})
    assert session.state == before
    assert store.moves(session.game_id) == []


def test_seats_are_checked_before_anything_is_written(tiny):
    store = Store.in_memory()
    with pytest.raises(SetupError, match="2 to 5 players; 1 are seated"):
        start(store, "Ann")
    with pytest.raises(SetupError, match="same name"):
        start(store, "Ann", "Ann")
    with pytest.raises(SetupError, match="target"):
        start(store, "Ann", "Bo", target=0)
    assert store.unfinished() is None


def test_undo_never_rerolls(tiny):
    session = start(Store.in_memory(), "Ann", "Bo", seed=5)
    first = session.act({"type": "roll", "player": "Ann"})[0].value
    session.undo()
    again = session.act({"type": "roll", "player": "Ann"})[0].value
    assert again == first


def test_undo_then_other_action_keeps_the_dice_for_the_next_roll(tiny):
    session = start(Store.in_memory(), "Ann", "Bo", seed=5)
    rolled = session.act({"type": "roll", "player": "Ann"})[0].value
    session.undo()
    session.act({"type": "pass", "player": "Ann"})
    assert session.act({"type": "roll", "player": "Bo"})[0].value == rolled


def test_redo_restores_the_same_events(tiny):
    session = start(Store.in_memory(), "Ann", "Bo", seed=3)
    events = session.act({"type": "roll", "player": "Ann"})
    state = session.state
    assert session.undo() and session.can_redo
    assert session.redo()
    assert session.state == state
    assert session.moves[-1].events == tuple(events)
    assert not session.redo()


def test_each_move_keeps_the_time_it_was_stored_at_through_undo_redo_and_a_restart(tiny, tmp_path):
    """A move carries the time the games file has for it (`Move.at`), so a Log that catches up later tells each
    move "with its time" (issue 14), not the time it learned of it; a redo keeps the first time, as the file does."""
    path, clock = tmp_path / "games.db", ManualClock(5000.0)
    with Store.open(path) as store:
        session = start(store, "Ann", "Bo", "Cy", seed=9, clock=clock)
        for name in ("Ann", "Bo", "Cy"):
            clock.now += 60
            session.act({"type": "roll", "player": name})
        clock.now += 600
        session.undo()
        session.redo()
        stored = [move.at for move in store.moves(session.game_id)]
        assert [move.at for move in session.moves] == stored == [5060.0, 5120.0, 5180.0]
    with Store.open(path) as store:
        resumed = Session.resume(store, dice=RandomDice.seeded(0), clock=clock)
        assert resumed is not None
        assert [move.at for move in resumed.moves] == stored


def test_a_new_action_drops_the_redo_stack(tiny):
    session = start(Store.in_memory(), "Ann", "Bo")
    session.act({"type": "pass", "player": "Ann"})
    session.undo()
    session.act({"type": "roll", "player": "Ann"})
    assert not session.can_redo


def test_resume_finds_the_game_exactly_where_it_was(tiny, tmp_path):
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = start(store, "Ann", "Bo", "Cy", seed=9)
        for name in ("Ann", "Bo", "Cy", "Ann"):
            last = session.act({"type": "roll", "player": name})
        session.undo()
        live_state, live_redo = session.state, session.can_redo
    with Store.open(path) as store:
        resumed = Session.resume(store, dice=RandomDice.seeded(0))
        assert resumed is not None
        assert resumed.state == live_state
        assert resumed.can_redo == live_redo
        assert store.move_count(resumed.game_id) == len(resumed.moves) == 3
        # the undone roll comes back with its dice, even with other dice now
        assert resumed.redo()
        assert resumed.moves[-1].events == tuple(last)


def test_finished_games_go_to_the_history_and_win_counts(tiny, tmp_path):
    clock = ManualClock()
    with Store.open(tmp_path / "games.db") as store:
        session = start(store, "Ann", "Bo", target=1, clock=clock)
        clock.now += 90
        session.act({"type": "roll", "player": "Ann"})
        assert session.outcome is not None and session.outcome.winners == ("Ann",)
        assert store.unfinished() is None
        [game] = store.finished()
        assert game.elapsed == pytest.approx(90)
        assert store.win_counts() == {"Ann": 1}
        session.undo()  # a mistaken last move: the game is open again
        assert store.unfinished() is not None
        assert store.win_counts() == {}


def test_the_clock_pauses(tiny):
    clock = ManualClock()
    session = start(Store.in_memory(), "Ann", "Bo", clock=clock)
    clock.now += 10
    session.pause_clock()
    clock.now += 500
    assert session.elapsed == pytest.approx(10)
    session.resume_clock()
    clock.now += 5
    assert session.elapsed == pytest.approx(15)


def test_a_game_loaded_without_running_keeps_its_clock_stopped_and_writes_nothing_until_resumed(tiny, tmp_path):
    """Home makes a screen ahead of its Resume (issue 26) from a game loaded with its clock stopped: however long
    home shows, the game's time does not grow, and nothing is written to the games file for it."""
    clock = ManualClock()
    path = tmp_path / "games.db"
    store = Store.open(path)
    played = start(store, "Ann", "Bo", clock=clock)
    played.act({"type": "pass", "player": "Ann"})
    clock.now += 30
    played.pause_clock()
    before = path.read_bytes(), (tmp_path / "games.db-wal").read_bytes()

    ahead = Session.load(store, played.game_id, clock=clock, running=False)
    clock.now += 600  # the table looks at home for ten minutes
    assert ahead.paused and ahead.elapsed == pytest.approx(30)
    assert (path.read_bytes(), (tmp_path / "games.db-wal").read_bytes()) == before, "nothing written"

    ahead.resume_clock()  # Resume
    clock.now += 5
    assert ahead.elapsed == pytest.approx(35)
    assert Session.load(store, played.game_id, clock=clock).elapsed == pytest.approx(30)


def test_the_clock_survives_a_restart(tiny, tmp_path):
    clock = ManualClock()
    with Store.open(tmp_path / "g.db") as store:
        session = start(store, "Ann", "Bo", clock=clock)
        clock.now += 42
        session.act({"type": "pass", "player": "Ann"})
    clock.now += 3600  # the plug was out for an hour: not play time
    with Store.open(tmp_path / "g.db") as store:
        resumed = Session.resume(store, clock=clock)
        assert resumed is not None
        assert resumed.elapsed == pytest.approx(42)


def test_secrets_only_in_the_private_view(tiny):
    session = start(Store.in_memory(), "Ann", "Bo")
    assert "secret-of-Ann" in str(session.private_view("Ann"))
    assert "secret-of-Ann" not in str(session.private_view("Bo"))
    assert "secret" not in str(session.public_view())


actions = st.lists(
    st.one_of(
        st.fixed_dictionaries(
            {"type": st.sampled_from(["roll", "pass", "jump"]), "player": st.sampled_from(["Ann", "Bo", "Zed"])}
        ),
        st.just({"type": "undo"}),
        st.just({"type": "redo"}),
    ),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(script=actions, seed=st.integers(0, 2**16))
def test_replay_equals_live_play(script, seed, tmp_path_factory):
    from tests.support.tinygame import registered

    registered()
    path = tmp_path_factory.mktemp("replay") / "g.db"
    with Store.open(path) as store:
        session = start(store, "Ann", "Bo", seed=seed, target=30)
        for action in script:
            before = session.state
            if action["type"] == "undo":
                session.undo()
            elif action["type"] == "redo":
                session.redo()
            else:
                try:
                    session.act(action)
                except RuleError:
                    assert session.state == before
        live = live_picture(session)
    with Store.open(path) as store:
        replayed = Session.load(store, session.game_id)
        assert live_picture(replayed) == live


def live_picture(session: Session) -> dict[str, object]:
    """All a restart must give back: the undone moves in redo order and dice still pending included."""
    return {
        "state": session.state,
        "moves": session.moves,
        "redo_moves": session.redo_moves,
        "pending_draws": session.pending_draws,
        "can_undo": session.can_undo,
        "can_redo": session.can_redo,
    }


def test_an_abandoned_game_is_neither_resumed_nor_in_the_history(tiny):
    store = Store.in_memory()
    session = start(store, "Ann", "Bo")
    session.act({"type": "pass", "player": "Ann"})
    assert session.unfinished
    session.abandon()
    assert store.unfinished() is None
    assert store.finished() == [] and store.win_counts() == {}
    # Over without an outcome: nothing waits for it (home opens on the new games; its screen is not kept).
    assert session.outcome is None and session.abandoned and not session.unfinished


def test_undo_keeps_a_pause_the_table_chose_but_restarts_a_clock_stopped_by_the_end(tiny):
    clock = ManualClock()
    session = start(Store.in_memory(), "Ann", "Bo", target=1, clock=clock)
    session.act({"type": "pass", "player": "Ann"})
    session.pause_clock()
    session.undo()
    assert session.paused, "undo is not a reason to restart a paused clock"
    session.resume_clock()
    session.act({"type": "roll", "player": "Ann"})  # reaches the target: the game ends, the clock stops
    assert session.paused
    session.undo()
    assert not session.paused


def test_a_new_games_file_has_nothing_to_resume_and_no_game_of_a_number(tiny):
    store = Store.in_memory()
    assert Session.resume(store) is None
    with pytest.raises(LookupError, match=r"^There is no saved game number 7\.$"):
        Session.load(store, 7)


def test_asking_what_may_be_done_changes_nothing(tiny):
    """DESIGN.md: "Legality is a question you can ask": what a player may do, and why an action would be refused,
    answered without acting, rolling or writing anything."""
    from tests.support.tinygame import Pass, Roll

    store = Store.in_memory()
    session = start(store, "Ann", "Bo")
    assert session.legal_actions("Ann") == [Roll("Ann"), Pass("Ann")] and session.legal_actions("Bo") == []
    assert session.refusal(Pass("Bo")) == "It is Ann's turn, not Bo's."
    assert session.refusal(Roll("Ann")) is None
    assert session.moves == () and store.moves(session.game_id) == []
    session.act(Roll("Ann"))  # typed, as a screen hands it over
    assert [move.action for move in session.moves] == [Roll("Ann")] and session.play_has_begun


def test_each_player_sees_their_own_view_and_everyone_the_public_events(tiny):
    """Secrets leave the core only through a player's own view."""
    session = start(Store.in_memory(), "Ann", "Bo")
    (event,) = session.act({"type": "roll", "player": "Ann"})
    assert session.own_view("Bo")["secret"] == "secret-of-Bo" and "secret" not in session.view()
    assert session.public_event(event) == {"type": "rolled", "player": "Ann", "value": event.value}
    assert session.events == [event]


def test_who_may_still_leave(tiny):
    """`players_in`: who is still playing, so who the leave picker offers; a game with no leave offers nobody."""
    from companion.engine import RegisteredGame
    from companion.games import register, unregister
    from tests.support import tinygame

    session = start(Store.in_memory(), "Ann", "Bo", "Cy")
    session.act({"type": "leave", "player": "Bo"})
    assert session.players_in == ("Ann", "Cy")

    class Staying:  # the tiny game's rules without its two leaving hooks (a bench or test game)
        def __getattr__(self, name: str) -> object:
            if name in ("players_in", "left"):
                raise AttributeError(name)
            return getattr(tinygame, name)

    from dataclasses import replace

    staying = RegisteredGame(replace(tinygame.FACTS, name="staying"), Staying(), tinygame, tinygame)  # type: ignore[arg-type]
    register(staying)
    try:
        session = Session.start(Store.in_memory(), "staying", Options.for_names("Ann", "Bo"), clock=ManualClock())
        assert session.players_in == ()
    finally:
        unregister("staying")


def test_pausing_twice_or_resuming_a_running_clock_tells_the_screens_nothing(tiny):
    """A second tap on Pause (or on Resume) is no change: nothing saved, no observer woken, no time lost; a
    finished game's clock stays stopped."""
    clock = ManualClock()
    session = start(Store.in_memory(), "Ann", "Bo", target=1, clock=clock)
    heard: list[bool] = []
    session.subscribe(lambda s: heard.append(s.paused))
    session.resume_clock()
    clock.now += 5
    session.pause_clock()
    clock.now += 60
    session.pause_clock()
    assert heard == [True] and session.elapsed == 5
    session.resume_clock()
    session.act({"type": "roll", "player": "Ann"})  # reaches the target: the game ends, the clock stops
    heard.clear()
    session.resume_clock()
    assert session.paused and heard == []
    assert not session.redo() and heard == []
    session.undo()
    assert not session.paused and session.current_player == "Ann"
    assert session.redo() and session.paused and session.current_player is None, "the redo ended it again"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["roll", "undo", "redo"]), max_size=12))
def test_the_public_view_is_made_once_a_state_and_is_always_the_states_own(steps):
    """`view` is kept for the state it was made from (a screen, its presenter and the phones each ask after a
    move): after any moves, undos and redos it is the game's view of the current state, the same one asked twice."""
    from tests.support.tinygame import registered

    registered()
    with Store.in_memory() as store:
        session = start(store, "Ann", "Bo", target=10**6)
        for step in steps:
            if step == "roll":
                session.act({"type": "roll", "player": session.current_player})
            else:
                getattr(session, step)()
            assert session.view() == session.game.view(session.state), f"after {step}"
            assert session.view() is session.view(), "made once for the state"
