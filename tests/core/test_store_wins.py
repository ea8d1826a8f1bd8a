"""Wins per game per player (`Store.wins_by_game`, the running wins tally) and finished games read a page at a time.

Issue 14: "History has no silent cap: it pages, and the home screen shows each player's wins per game as a
small chart." and "In a two-player game, the other player wins, with the reason "left" in the outcome, the
history and the wins." Every count here is compared with counting the games by hand.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from companion.dice import RandomDice
from companion.game import ABANDONED, LEFT, TIE, Options
from companion.session import Session
from companion.store import Store
from companion.store.rows import row_checksum
from tests.support.many_games import by_hand, ended_games, write_file

OPTIONS = Options.for_names("Ann", "Bo").to_json()


def _end(store: Store, kind: str, winners: list[str], reason: str = "won") -> int:
    """A game of `kind` with one move that ends it with `winners` (none: a tie)."""
    gid = store.new_game(kind, OPTIONS, 0.0)
    outcome = {"winners": winners, "reason": reason, "detail": ""}
    store.record(gid, 0, {"type": "x"}, [], [], now=1.0, elapsed=1.0, outcome=outcome, pending_draws=[])
    return gid


def _tally_rows(path: Path) -> dict[str, tuple[str, int]]:
    with closing(sqlite3.connect(path)) as db:
        return {g: (w, s) for g, w, s in db.execute("SELECT game, wins, stamp FROM wins_tally")}


def test_wins_count_per_game_and_player_ties_and_abandoned_games_count_for_nobody(tmp_path):
    """A shared win counts for each winner; a tie ("winners" empty) and an abandoned game for nobody."""
    with Store.open(tmp_path / "games.db") as store:
        _end(store, "quin", ["Ann"])
        _end(store, "quin", ["Ann"])
        _end(store, "quin", ["Bo"])
        _end(store, "quinque", [], TIE)
        _end(store, "quark", ["Ann", "Bo"], "shared")
        store.abandon(store.new_game("quintet", OPTIONS, 0.0), 2.0)
        store.new_game("quintet", OPTIONS, 0.0)  # unfinished
        assert store.wins_by_game() == {"quark": {"Ann": 1, "Bo": 1}, "quin": {"Ann": 2, "Bo": 1}}
        assert store.win_counts() == {"Ann": 3, "Bo": 2}
        assert list(store.wins_by_game()["quin"]) == ["Ann", "Bo"], "most wins first"


def test_a_player_leaving_a_two_player_game_is_a_win_for_the_other_with_the_reason_left(tmp_path, tiny):
    """RULINGS: "Two players: the other wins (outcome reason "left")." It counts in the wins like any win."""
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(1))
        session.act({"type": "leave", "player": "Bo"})
        assert session.outcome is not None and session.outcome.reason == LEFT
        assert store.wins_by_game() == {"tiny": {"Ann": 1}}
        (record,) = store.finished()
        assert record.outcome is not None and record.outcome["reason"] == LEFT


def test_undo_takes_a_win_back_and_redo_gives_it_again(tmp_path, tiny):
    """ "Undo takes a leave back like any action": the win it made goes with it."""
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=1), dice=RandomDice.seeded(1))
        session.act({"type": "roll", "player": "Ann"})
        assert store.wins_by_game() == {"tiny": {"Ann": 1}}
        assert session.undo()
        assert store.wins_by_game() == {}
        assert session.redo()
        assert store.wins_by_game() == {"tiny": {"Ann": 1}}
        session.undo()
        session.act({"type": "leave", "player": "Ann"})
        assert store.wins_by_game() == {"tiny": {"Bo": 1}}
        rows = _tally_rows(tmp_path / "games.db")
    assert rows["tiny"][0] == '{"Bo": 1}', "kept in the file as the games were played, not counted when read"


def test_two_thousand_games_wins_per_game_as_counted_by_hand_and_kept_up_as_more_are_played(tmp_path):
    path = tmp_path / "games.db"
    games = ended_games(2000)
    write_file(path, games)
    expected = by_hand(games)
    assert sum(sum(w.values()) for w in expected.values()) > 1000
    with Store.open(path) as store:
        assert _tally_rows(path) == {}, "a file from before the tally"
        assert store.wins_by_game() == expected
        assert set(_tally_rows(path)) == set(expected), "counted once, then kept"
        assert store.wins_by_game() == expected
        # more games, played the usual way: the tally follows every one
        _end(store, "quin", ["Zoe"])
        _end(store, "quin", [], TIE)
        _end(store, "quintet", ["Ann"], LEFT)
        expected["quin"]["Zoe"] = 1
        expected["quintet"]["Ann"] = expected["quintet"].get("Ann", 0) + 1
        assert store.wins_by_game() == expected
        totals: dict[str, int] = {}
        for wins in expected.values():
            for name, count in wins.items():
                totals[name] = totals.get(name, 0) + count
        assert store.win_counts() == dict(sorted(totals.items(), key=lambda i: (-i[1], i[0])))


def test_two_thousand_games_page_newest_first_with_abandoned_ones_left_out(tmp_path):
    """ "History has no silent cap: it pages.\""""
    path = tmp_path / "games.db"
    games = ended_games(2000)
    write_file(path, games)
    ended = [g for g in games if g.outcome is not None and g.outcome["reason"] != ABANDONED]
    newest_first = [g.id for g in sorted(ended, key=lambda g: (g.finished_at, g.id), reverse=True)]
    with Store.read(path) as store:
        assert store.finished_count() == len(ended)
        paged: list[int] = []
        while page := store.finished(limit=25, offset=len(paged)):
            paged.extend(g.id for g in page)
        assert paged == newest_first
        assert [g.id for g in store.finished(limit=None, offset=10)] == newest_first[10:]
        assert store.finished(limit=5, offset=len(ended)) == []


def test_a_damaged_or_stale_wins_tally_is_counted_again(tmp_path):
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        _end(store, "quin", ["Ann"])
        _end(store, "quin", ["Bo"])
        assert store.wins_by_game() == {"quin": {"Ann": 1, "Bo": 1}}
    with closing(sqlite3.connect(path)) as db, db:  # a forged count that fails its checksum
        db.execute("UPDATE wins_tally SET wins = '{\"Ann\": 9}' WHERE game = 'quin'")
    with Store.open(path) as store:
        assert store.wins_by_game() == {"quin": {"Ann": 1, "Bo": 1}}
    with closing(sqlite3.connect(path)) as db, db:  # a tally that checks out but missed a write (an older app)
        values = ("quin", '{"Ann": 1}', 1)
        db.execute(
            "UPDATE wins_tally SET wins = ?, stamp = ?, checksum = ? WHERE game = 'quin'",
            (values[1], values[2], row_checksum("wins_tally", values)),
        )
    with Store.open(path) as store:
        assert store.wins_by_game() == {"quin": {"Ann": 1, "Bo": 1}}


def test_only_looking_counts_the_wins_without_writing_them(tmp_path):
    path = tmp_path / "games.db"
    games = ended_games(60)
    write_file(path, games)
    before = path.read_bytes()
    with Store.read(path) as store:
        assert store.wins_by_game() == by_hand(games)
    assert path.read_bytes() == before
