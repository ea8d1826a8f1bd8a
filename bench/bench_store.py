"""What the games file's promises cost: checksums and the writer lock on every move, checks and salvage.

Each figure beside a baseline from the same run:

- appending one action through a real `Session` (checksums, versions, the
  writer lock held) against a bare ``INSERT`` + ``COMMIT`` with the same
  durability (WAL, ``synchronous=FULL``); goal ≤ 1.5×;
- opening a 1,000-game file (``quick_check``, every game row's checksum and
  move count), `companion check` of it (every row) and salvaging it with a
  smashed page (every page read, the file kept aside, a fresh one written),
  each against plain SQLite reading every row of the same file;
- dice statistics over every game of that file from the store's running
  tally, against the full recount of every live move (what they were before);
- wins per game per player over 2,000 finished games (the home screen's chart):
  counting every game's checked row and outcome, against plain SQLite reading
  the same rows (what decided for a tally), then the running wins tally
  against that count; and a page of the finished games against the same.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.report import line
from bench.tally import GAME as TALLY
from bench.tally import Roll
from companion.dice import RandomDice
from companion.dicestats import DiceStats
from companion.game import Options
from companion.session import Session
from companion.store import Store, check, rows
from companion.store.files import create_file

GAMES = 1000
MOVES_PER_GAME = 40
APPENDS = 300


def _appends(folder: Path) -> str:
    from companion.games import register

    register(TALLY)
    bare = sqlite3.connect(folder / "bare.db", isolation_level=None)
    bare.execute("PRAGMA journal_mode=WAL")
    bare.execute("PRAGMA synchronous=FULL")
    bare.execute("CREATE TABLE t (a TEXT)")
    payload = json.dumps({"type": "roll", "player": "Ann", "note": "x" * 40})
    ours, base = [], []
    with Store.open(folder / "games.db") as store:
        session = Session.start(store, "bench-tally", Options.for_names("Ann"), dice=RandomDice.seeded(1))
        for _ in range(APPENDS):  # interleaved, so the machine's mood hits both alike
            t0 = time.perf_counter()
            bare.execute("BEGIN")
            bare.execute("INSERT INTO t VALUES (?)", (payload,))
            bare.execute("COMMIT")
            t1 = time.perf_counter()
            session.act(Roll("Ann", "x" * 40))  # typed, as a screen sends it
            t2 = time.perf_counter()
            base.append(t1 - t0)
            ours.append(t2 - t1)
    bare.close()
    o, b = statistics.median(ours), statistics.median(base)
    return line("append one action (checksums, lock held)", f"{o * 1e3:.2f} ms", f"{b * 1e3:.2f} ms", o / b, "≤ 1.5")


def games_file(
    path: Path,
    *,
    games: int = GAMES,
    moves: int = MOVES_PER_GAME,
    game: str = "quintet",
    event: dict[str, Any] | None = None,
) -> None:
    """A games file of `games` finished games of `moves` moves each, rows as the store writes them, in one go."""
    options = json.dumps(Options.for_names("Ann", "Bo", "Cy").to_json())
    outcome = json.dumps({"winners": ["Ann"], "reason": "highest score", "detail": ""})
    action = json.dumps({"type": "roll", "player": "Ann"})
    events = json.dumps([event or {"type": "rolled", "player": "Ann", "dice": [3, 4], "note": "n" * 60}])
    game_rows: list[tuple[Any, ...]] = []
    move_rows: list[tuple[Any, ...]] = []
    normal, checksum = rows.normal_row, rows.row_checksum
    for gid in range(1, games + 1):
        values = normal(
            rows.GAME_COLUMNS, (gid, game, options, 1000.0 + gid, 600.0, 1600.0 + gid, outcome, "[]", moves, 1)
        )
        game_rows.append((*values, checksum("games", values)))
        for seq in range(moves):
            values = normal(rows.MOVE_COLUMNS, (gid, seq, action, events, "[[6, 3], [6, 4]]", 1000.0, 0, 1))
            move_rows.append((*values, checksum("moves", values)))
    create_file(path, game_rows, move_rows)


def _every_row(path: Path) -> float:
    t0 = time.perf_counter()
    with sqlite3.connect(path) as db:
        db.execute("SELECT * FROM games").fetchall()
        db.execute("SELECT * FROM moves").fetchall()
    db.close()
    return time.perf_counter() - t0


def _big_file(folder: Path) -> list[str]:
    source = folder / "thousand.db"
    games_file(source)
    baseline = statistics.median(_every_row(source) for _ in range(3))
    lines = []

    def timed(label: str, run: Any, goal: str = "") -> None:
        times = []
        for n in range(3):
            target = folder / f"copy-{len(lines)}-{n}" / "games.db"
            target.parent.mkdir()
            shutil.copy(source, target)
            prepare = getattr(run, "prepare", None)
            if prepare:
                prepare(target)
            t0 = time.perf_counter()
            run(target)
            times.append(time.perf_counter() - t0)
        t = statistics.median(times)
        lines.append(line(label, f"{t * 1e3:.0f} ms", f"{baseline * 1e3:.0f} ms", t / baseline, goal))

    def open_it(path: Path) -> None:
        Store.open(path).close()

    def check_it(path: Path) -> None:
        assert check(path).status == 0

    def salvage_it(path: Path) -> None:
        with Store.open(path) as opened:
            assert opened.notice is not None

    def smash(path: Path) -> None:
        from companion.store import salvage

        data = bytearray(path.read_bytes())
        middle = (len(data) // 4096 // 2) * 4096
        data[middle : middle + 16] = b"\xa5" * 16
        path.write_bytes(bytes(data))
        salvage._read_rows.clear()  # every run reads the file afresh, as the appliance after a restart

    salvage_it.prepare = smash  # type: ignore[attr-defined]
    timed(f"open a {GAMES:,}-game file (checked)", open_it)
    timed("companion check of it (every row)", check_it)
    timed("open it with a smashed page (salvage)", salvage_it, "≤ 1 s")
    lines.append(f"{'':<46} (baseline: plain SQLite reading every row of the same file)")
    return lines


def _dice_stats(folder: Path, games: int = GAMES) -> str:
    """Dice statistics of every game: the running tally against counting every live move again."""
    path = folder / "dice.db"
    games_file(path, games=games)
    tallied, counted = [], []
    with Store.open(path) as store:
        first = store.dice_stats("quintet")  # a file made without the tally: counted once, then kept
        for _ in range(5):  # interleaved, so the machine's mood hits both alike
            t0 = time.perf_counter()
            stats = store.dice_stats("quintet")
            t1 = time.perf_counter()
            again = DiceStats.of_moves(store.all_moves("quintet"))
            t2 = time.perf_counter()
            assert stats == again == first
            tallied.append(t1 - t0)
            counted.append(t2 - t1)
    t, b = statistics.median(tallied), statistics.median(counted)
    return line(f"dice statistics after {games:,} games", f"{t * 1e3:.2f} ms", f"{b * 1e3:.0f} ms", t / b, "≤ 0.05")


def _wins(folder: Path, games: int = 2000) -> list[str]:
    """The home screen's wins chart and past games: a running tally and one page, against reading every game."""
    from companion.store import tally

    path = folder / "wins.db"
    games_file(path, games=games, moves=1)
    plain, counted, tallied, paged = [], [], [], []
    with Store.open(path) as store, sqlite3.connect(path) as bare:
        first = store.wins_by_game()  # a file made without the tally: counted once, then kept
        for _ in range(7):  # interleaved, so the machine's mood hits both alike
            t0 = time.perf_counter()
            bare.execute("SELECT * FROM games WHERE finished_at IS NOT NULL").fetchall()
            t1 = time.perf_counter()
            wins = tally.count_wins(g.outcome for g in store.finished(limit=None))  # every row checked, parsed
            t2 = time.perf_counter()
            again = store.wins_by_game()
            t3 = time.perf_counter()
            page = store.finished(limit=6, offset=120)
            t4 = time.perf_counter()
            assert again == first == {"quintet": wins} and len(page) == 6
            plain.append(t1 - t0)
            counted.append(t2 - t1)
            tallied.append(t3 - t2)
            paged.append(t4 - t3)
    bare.close()
    p, c, t, g = (statistics.median(x) for x in (plain, counted, tallied, paged))
    return [
        line(f"wins counted from {games:,} games' outcomes", f"{c * 1e3:.1f} ms", f"{p * 1e3:.1f} ms", c / p),
        f"{'':<46} (baseline: plain SQLite reading the same rows)",
        line(f"wins per game, tally ({games:,} games)", f"{t * 1e3:.2f} ms", f"{c * 1e3:.1f} ms", t / c, "≤ 0.05"),
        line("a page of 6 finished games (of them)", f"{g * 1e3:.2f} ms", f"{c * 1e3:.1f} ms", g / c, "≤ 0.05"),
        f"{'':<46} (baseline: every game's row checked and its outcome counted)",
    ]


def run() -> list[str]:
    folder = Path(tempfile.mkdtemp(prefix="bench-store-"))
    try:
        counted_again = f"{'':<46} (baseline: every live move of every game read and counted again)"
        return [_appends(folder), *_big_file(folder), _dice_stats(folder), counted_again, *_wins(folder)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
