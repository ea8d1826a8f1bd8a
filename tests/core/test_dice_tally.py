"""The running dice tally (`companion.store.tally`): always what a full recount of the live moves gives.

Issue 14: "Dice statistics read a running tally that the store keeps up to date, not every roll ever made."
Every test compares `Store.dice_stats` (the tally) with `DiceStats.of_moves(Store.all_moves(...))` (a full
recount of every live move), on a real SQLite file.
"""

from __future__ import annotations

import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.dice import RandomDice
from companion.dicestats import DiceStats
from companion.game import Options
from companion.session import Session
from companion.store import Store
from companion.store.rows import row_checksum

KINDS = ("quintet", "other")
OPTIONS = Options.for_names("Ann", "Bo").to_json()


def recount(store: Store, kind: str) -> DiceStats:
    return DiceStats.of_moves(store.all_moves(kind))


def assert_tally_is_a_recount(store: Store) -> None:
    for kind in KINDS:
        assert store.dice_stats(kind) == recount(store, kind), kind


def stored_tally(path: Path, kind: str) -> tuple[Any, ...] | None:
    """The tally row as the file holds it (None: no row, or no tally table at all)."""
    with closing(sqlite3.connect(path)) as db:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'dice_tally'").fetchone():
            return None
        return db.execute("SELECT game, pairs, stamp, checksum FROM dice_tally WHERE game = ?", (kind,)).fetchone()


class Table:
    """Games of two kinds played straight into the store: moves, undo, redo and abandon, as a session would."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.live: dict[int, int] = {}  # game id -> moves that count
        self.redo: dict[int, int] = {}  # game id -> undone moves that can be redone
        self.finished: set[int] = set()

    def new_game(self, kind: str) -> None:
        self.live[self.store.new_game(kind, OPTIONS, 0.0)] = 0

    def open_games(self) -> list[int]:
        return [g for g in self.live if g not in self.finished]

    def move(self, game_id: int, rolls: list[tuple[int, int]]) -> None:
        events = [{"type": "rolled", "player": "Ann", "dice": list(r)} for r in rolls] + [{"type": "passed"}]
        seq = self.live[game_id]
        self.store.record(
            game_id, seq, {"type": "roll"}, events, [], now=1.0, elapsed=1.0, outcome=None, pending_draws=[]
        )
        self.live[game_id] = seq + 1
        self.redo[game_id] = 0  # a new move drops the undone ones

    def undo(self, game_id: int) -> None:
        if self.live[game_id]:
            self.live[game_id] -= 1
            self.redo[game_id] = self.redo.get(game_id, 0) + 1
            self.store.set_undone(
                game_id, self.live[game_id], True, now=1.0, elapsed=1.0, outcome=None, pending_draws=[]
            )

    def redo_one(self, game_id: int) -> None:
        if self.redo.get(game_id):
            self.store.set_undone(
                game_id, self.live[game_id], False, now=1.0, elapsed=1.0, outcome=None, pending_draws=[]
            )
            self.live[game_id] += 1
            self.redo[game_id] -= 1

    def abandon(self, game_id: int) -> None:
        self.store.abandon(game_id, 2.0)
        self.finished.add(game_id)


rolls = st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), max_size=3)
step = st.one_of(
    st.tuples(st.just("new"), st.sampled_from(KINDS)),
    st.tuples(st.just("move"), rolls),
    st.tuples(st.just("undo"), st.none()),
    st.tuples(st.just("redo"), st.none()),
    st.tuples(st.just("abandon"), st.none()),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(step, st.integers(0, 10)), min_size=1, max_size=40))
def test_the_tally_equals_a_full_recount_after_random_play_with_undo_and_redo(tmp_path_factory, steps):
    """Asked: "undo taken into account — undone moves don't count, redo counts again": after every step, and after
    a restart, the tally equals a full recount of the live moves, for each kind of game."""
    path = tmp_path_factory.mktemp("tally") / "games.db"
    with Store.open(path) as store:
        table = Table(store)
        for (what, arg), pick in steps:
            games = table.open_games()
            if what == "new" or not games:
                table.new_game(arg if what == "new" else KINDS[pick % 2])
            else:
                game_id = games[pick % len(games)]
                if what == "move":
                    table.move(game_id, arg)
                elif what == "undo":
                    table.undo(game_id)
                elif what == "redo":
                    table.redo_one(game_id)
                else:
                    table.abandon(game_id)
            assert_tally_is_a_recount(store)
    with Store.open(path) as store:  # a restart reads the tally the file kept
        assert_tally_is_a_recount(store)
    with Store.read(path) as store:  # and so does `companion history`-style looking
        assert_tally_is_a_recount(store)


def test_the_tally_is_kept_with_each_move_not_counted_again(tmp_path):
    """Asked: "a table updated in the same transaction as the move append": after a move the stored row already
    counts it, with the stamp of the write it has seen, so reading it needs no recount."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        table = Table(store)
        table.new_game("quintet")
        table.move(1, [(3, 4), (6, 6)])
        row = stored_tally(path, "quintet")
        assert row is not None
        pairs = json.loads(row[1])
        assert sum(pairs) == 2 and pairs[(3 - 1) * 6 + (4 - 1)] == 1 and pairs[35] == 1
        table.undo(1)
        row = stored_tally(path, "quintet")
        assert row is not None and sum(json.loads(row[1])) == 0
        table.redo_one(1)
        assert store.dice_stats("quintet").rolls == 2


def test_a_real_quintet_game_with_undo_and_redo_after_a_restart(tmp_path):
    """A real session: random legal Quintet actions with undos and redos; the tally equals the recount, also
    after the session is resumed from the file."""
    path = tmp_path / "games.db"
    chooser = random.Random(14)
    with Store.open(path) as store:
        for seed in range(3):
            session = Session.start(
                store, "quintet", Options.for_names("Ann", "Bo", "Cy"), dice=RandomDice.seeded(seed),
                clock=lambda: 0.0,
            )  # fmt: skip
            for _ in range(60):
                if session.outcome is not None:
                    break
                choice = chooser.random()
                if choice < 0.15:
                    session.undo()
                elif choice < 0.25:
                    session.redo()
                else:
                    player = session.current_player
                    actions = session.legal_actions(player) if player else []
                    if not actions:
                        break
                    session.act(chooser.choice(list(actions)))
            assert store.dice_stats("quintet") == recount(store, "quintet")
        assert store.dice_stats("quintet").rolls > 0
    with Store.open(path) as store:
        assert store.dice_stats("quintet") == recount(store, "quintet")


def make_file_before_the_tally(path: Path) -> None:
    """A schema-2 games file as the app wrote it before the dice tally existed (no `dice_tally` table)."""
    with Store.open(path) as store:
        table = Table(store)
        for kind in KINDS * 2:
            table.new_game(kind)
        for game_id in table.live:
            for n in range(5):
                table.move(game_id, [(n % 6 + 1, (game_id + n) % 6 + 1)])
            table.undo(game_id)
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE dice_tally")
    db.close()


def test_a_file_made_before_the_tally_is_counted_from_its_moves_once(tmp_path):
    """Asked: "rebuilt from the moves when missing ... (old files have none)": statistics are right at once, and the
    tally rebuilt is kept, then kept up to date by the next moves."""
    path = tmp_path / "games.db"
    make_file_before_the_tally(path)
    with Store.read(path) as looking:  # looking only: counted, nothing written
        assert_tally_is_a_recount(looking)
    assert stored_tally(path, "quintet") is None
    with Store.open(path) as store:
        assert_tally_is_a_recount(store)
        assert stored_tally(path, "quintet") is not None  # rebuilt and kept
        table = Table(store)
        table.live = {g.id: store.move_count(g.id) for g in (store.game(i) for i in range(1, 5)) if g}
        table.move(1, [(2, 5)])
        assert_tally_is_a_recount(store)


def test_a_damaged_tally_row_is_counted_again_not_trusted(tmp_path):
    """Asked: "checked like the other rows": a tally row that fails its checksum is counted again from the moves (the
    moves are the truth; the game file is not salvaged for it)."""
    path = tmp_path / "games.db"
    make_file_before_the_tally(path)
    with Store.open(path) as store:
        assert_tally_is_a_recount(store)
    with sqlite3.connect(path) as db:
        game, pairs, _stamp, _checksum = db.execute("SELECT * FROM dice_tally WHERE game = 'quintet'").fetchone()
        forged = json.dumps([c + 1 for c in json.loads(pairs)])
        db.execute("UPDATE dice_tally SET pairs = ? WHERE game = ?", (forged, game))
    db.close()
    with Store.open(path) as store:
        assert store.notice is None
        assert_tally_is_a_recount(store)


def test_a_tally_behind_the_moves_is_counted_again(tmp_path):
    """A move written without the tally (an older app on the same file) leaves its stamp behind: the next
    read counts again instead of showing a tally that misses it."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        table = Table(store)
        table.new_game("quintet")
        table.move(1, [(1, 1)])
        assert store.dice_stats("quintet").rolls == 1
    with sqlite3.connect(path) as db:  # a well-formed row, checksum and all, that is simply behind
        game, _pairs, stamp, _ = db.execute("SELECT * FROM dice_tally WHERE game = 'quintet'").fetchone()
        values = (game, json.dumps([0] * 36), stamp - 1)
        db.execute(
            "UPDATE dice_tally SET pairs = ?, stamp = ?, checksum = ? WHERE game = ?",
            (values[1], values[2], row_checksum("dice_tally", values), game),
        )
    db.close()
    with Store.open(path) as store:
        assert store.dice_stats("quintet").rolls == 1
        table = Table(store)
        table.live = {1: 1}
        table.move(1, [(2, 2)])
        assert_tally_is_a_recount(store)


def test_the_dice_statistics_benchmark_runs(tmp_path):
    """`make bench` prints "dice statistics after 1,000 games" beside the full recount (here on 3 games)."""
    from bench import bench_store

    assert "dice statistics after 3 games" in bench_store._dice_stats(tmp_path, games=3)
