"""The score pad's rules (issue 27), through the engine and a real `Session` on a real games file.

Issue 27, **Score pad**: "the table names the game ("Carcassonne"; the names used before are offered again) and
the players; a grid of rounds × players; a tap on a cell opens a big number pad (negative numbers too); running
totals and who leads; "highest wins" or "lowest wins"; **End** asks, then the winner(s) go into the history and
the wins under that game's name. Wins per game on home then show Carcassonne beside Quin. Actions like
`{"type": "score", "player": "Ann", "round": 3, "points": 12}`."
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.game import Options, RuleError, Termination, played, wins_under
from companion.games import game
from companion.games.score_pad.rules import MAX_POINTS, MAX_TITLE
from companion.session import Session
from companion.store import Store
from tests.support import ManualClock

PAD = game("score-pad")


def start(store: Store, *players: str, title: str | None = "Carcassonne", wins: str = "highest") -> Session:
    options = Options.for_names(*players)
    session = Session.start(store, "score-pad", options, dice=RandomDice.seeded(1), clock=ManualClock())
    if title is not None:
        session.act({"type": "name", "title": title, "wins": wins})
    return session


def score(session: Session, player: str, round_: int, points: int) -> None:
    session.act({"type": "score", "player": player, "round": round_, "points": points})


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with Store.open(tmp_path / "games.db") as opened:
        yield opened


def test_the_score_pad_is_a_tool_for_one_to_eight_players() -> None:
    """"offered on the home screen under **Any game**": a tool, seating one to eight."""
    assert PAD.facts.tool and PAD.title == "Score pad"
    assert (PAD.min_players, PAD.max_players) == (1, 8)
    assert PAD.current_player(PAD.setup(Options.for_names("Ann", "Bo"))) is None, "no turns: anyone, any time"


def test_actions_like_the_issue_s_score_a_cell_of_the_grid_of_rounds_by_players(store: Store) -> None:
    """"a grid of rounds × players"; "Actions like `{"type": "score", "player": "Ann", "round": 3, "points": 12}`"."""
    session = start(store, "Ann", "Bo")
    score(session, "Ann", 1, 5)
    score(session, "Ann", 2, 7)
    session.act({"type": "score", "player": "Ann", "round": 3, "points": 12})
    view = session.view()
    assert [row[0] for row in view.cells] == [5, 7, 12] and [row[1] for row in view.cells] == [None] * 3
    assert len(view.cells) == 3, "scoring the next round adds it"
    with pytest.raises(RuleError, match=r"There is no round 5: the rounds go from 1 to 4\."):
        score(session, "Bo", 5, 1)
    session.act({"type": "add_round"})
    assert len(session.view().cells) == 4


def test_negative_points_count_and_a_cell_scored_again_is_replaced_undoably(store: Store) -> None:
    """"negative numbers too"; "scoring a cell again replaces it, undoable like every action"."""
    session = start(store, "Ann", "Bo")
    score(session, "Ann", 1, -3)
    score(session, "Ann", 2, 10)
    assert session.view().columns[0].total == 7
    score(session, "Ann", 2, 4)
    assert session.view().cells[1][0] == 4 and session.view().columns[0].total == 1
    assert session.undo()
    assert session.view().cells[1][0] == 10 and session.view().columns[0].total == 7
    assert session.redo() and session.view().cells[1][0] == 4
    session.act({"type": "clear", "player": "Ann", "round": 2})
    assert session.view().cells[1][0] is None and session.view().columns[0].total == -3
    with pytest.raises(RuleError, match=r"Ann already has -3 in round 1\."):
        score(session, "Ann", 1, -3)
    with pytest.raises(RuleError, match="beyond them"):
        score(session, "Ann", 1, MAX_POINTS + 1)
    score(session, "Ann", 1, -MAX_POINTS)


def test_running_totals_and_who_leads_highest_or_lowest(store: Store) -> None:
    """"running totals and who leads; "highest wins" or "lowest wins""."""
    high = start(store, "Ann", "Bo", "Cy")
    assert high.view().leaders == (), "nobody leads before the first points"
    score(high, "Ann", 1, 10)
    score(high, "Bo", 1, 12)
    score(high, "Cy", 1, 12)
    view = high.view()
    assert [c.total for c in view.columns] == [10, 12, 12]
    assert view.leaders == ("Bo", "Cy") and view.lead == 12, "a tie: both lead"
    assert [c.leads for c in view.columns] == [False, True, True]
    low = start(store, "Ann", "Bo", "Cy", title="Hearts", wins="lowest")
    score(low, "Ann", 1, 10)
    score(low, "Bo", 1, 12)
    assert low.view().leaders == ("Cy",) and low.view().lead == 0, "an empty column counts 0"
    high.act({"type": "name", "title": "Carcassonne", "wins": "lowest"})
    assert high.view().leaders == ("Ann",), "named again the other way round: the lowest leads"


def test_end_puts_the_winners_in_the_history_and_the_wins_under_the_game_s_name(store: Store) -> None:
    """"End ... then the winner(s) go into the history and the wins under that game's name. Wins per game on
    home then show Carcassonne beside Quin"; "ties: all of them"."""
    quin = Session.start(store, "quin", Options.for_names("Ann", "Bo"), clock=ManualClock())
    quin.act({"type": "leave", "player": "Bo"})  # Ann wins a game of Quin
    carcassonne = start(store, "Ann", "Bo")
    score(carcassonne, "Ann", 1, 83)
    score(carcassonne, "Bo", 1, 60)
    carcassonne.act({"type": "end"})
    outcome = carcassonne.outcome
    assert outcome is not None and outcome.winners == ("Ann",) and outcome.title == "Carcassonne"
    assert outcome.termination is Termination.WIN and outcome.detail == "Ann wins Carcassonne with 83."
    hearts = start(store, "Ann", "Bo", "Cy", title="Hearts", wins="lowest")
    score(hearts, "Bo", 1, 2)
    score(hearts, "Cy", 1, 2)
    score(hearts, "Ann", 1, 9)
    hearts.act({"type": "end"})
    assert hearts.outcome is not None and hearts.outcome.winners == ("Bo", "Cy"), "a tie: all of them win"
    wins = store.wins_by_game()
    assert wins == {
        "quin": {"Ann": 1},
        wins_under("score-pad", "Carcassonne"): {"Ann": 1},
        wins_under("score-pad", "Hearts"): {"Bo": 1, "Cy": 1},
    }
    assert played(wins_under("score-pad", "Carcassonne")) == ("score-pad", "Carcassonne")
    assert store.win_counts() == {"Ann": 2, "Bo": 1, "Cy": 1}
    history = {record.id: record.outcome for record in store.past(limit=10)}
    assert history[hearts.game_id]["winners"] == ["Bo", "Cy"] and history[hearts.game_id]["title"] == "Hearts"
    # Undo takes the win back from the tally; Redo gives it again.
    assert hearts.undo() and wins_under("score-pad", "Hearts") not in store.wins_by_game()
    assert hearts.redo() and store.wins_by_game()[wins_under("score-pad", "Hearts")] == {"Bo": 1, "Cy": 1}


def test_the_wins_under_a_game_s_name_are_counted_again_the_same_from_the_file(store: Store) -> None:
    """A tally that is missing is counted again from the stored outcomes, with each named game apart."""
    for title, winner in (("Catan", "Ann"), ("Catan", "Bo"), ("Azul", "Ann")):
        session = start(store, "Ann", "Bo", title=title)
        score(session, winner, 1, 5)
        session.act({"type": "end"})
    kept = store.wins_by_game()
    store._db.execute("DELETE FROM wins_tally")
    assert store.wins_by_game() == kept == {
        wins_under("score-pad", "Azul"): {"Ann": 1},
        wins_under("score-pad", "Catan"): {"Ann": 1, "Bo": 1},
    }


def test_end_asks_for_a_name_and_a_score_first_and_ends_nothing_twice(store: Store) -> None:
    session = start(store, "Ann", "Bo", title=None)
    score(session, "Ann", 1, 4)  # a pad started headless may be named later
    with pytest.raises(RuleError, match="Name the game first"):
        session.act({"type": "end"})
    empty = start(store, "Ann", "Bo")
    with pytest.raises(RuleError, match="Nothing is scored yet"):
        empty.act({"type": "end"})
    session.act({"type": "name", "title": "Azul"})
    session.act({"type": "end"})
    with pytest.raises(RuleError, match="The game is over"):
        score(session, "Bo", 1, 1)


@pytest.mark.parametrize(
    ("title", "words"),
    [
        ("", "Name the game you are scoring"),
        ("  Azul", "extra spaces"),
        ("x" * (MAX_TITLE + 1), f"at most {MAX_TITLE} characters"),
    ],
)
def test_a_game_s_name_is_given_plainly_and_fits(store: Store, title: str, words: str) -> None:
    """Bad input gets one clear sentence, and changes nothing."""
    session = start(store, "Ann", "Bo", title=None)
    with pytest.raises(RuleError, match=words):
        session.act({"type": "name", "title": title})
    assert not session.moves


def test_a_player_who_leaves_keeps_their_column_has_no_total_and_never_wins(store: Store) -> None:
    """RULINGS, "Every game: a player leaves": "A player who leaves has no score ... and cannot be among the
    winners"; the others play on (a score pad seats one: nobody wins only because the others left)."""
    session = start(store, "Ann", "Bo", "Cy")
    score(session, "Cy", 1, 50)
    score(session, "Ann", 1, 3)
    session.act({"type": "leave", "player": "Cy"})
    view = session.view()
    assert view.cells[0][2] == 50 and view.columns[2].total is None and view.columns[2].left
    assert view.leaders == ("Ann",)
    with pytest.raises(RuleError, match="Cy left the game"):
        score(session, "Cy", 2, 1)
    session.act({"type": "leave", "player": "Bo"})
    assert session.outcome is None, "Ann plays on alone until the table ends it"
    session.act({"type": "end"})
    assert session.outcome is not None and session.outcome.winners == ("Ann",)


def test_a_score_pad_resumes_exactly_after_a_power_cut(tmp_path: Path) -> None:
    """"stored, resumable after a power cut, undoable": the store closed mid-game, the pad comes back as it was,
    the undone move still there to redo."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = start(store, "Ann", "Bo")
        for round_ in range(1, 21):
            score(session, "Ann", round_, round_)
            score(session, "Bo", round_, -round_)
        session.undo()
        before, game_id = session.view(), session.game_id
    with Store.open(path) as store:
        resumed = Session.load(store, game_id)
        assert resumed.view() == before and resumed.can_redo
        assert resumed.view().columns[0].total == 210 and resumed.view().cells[19][1] is None
