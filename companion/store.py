"""The crash-safe log: every game and every accepted action, in one SQLite file.

Each action is one transaction with ``synchronous=FULL`` in WAL mode: once
`record` returns, the action survives a pulled plug. A file that cannot be
used (corrupt, locked by someone else, written by a newer version) is moved
aside, never deleted; whatever rows can still be read from it are copied into
a fresh file, and `Store.notice` says in one sentence what happened.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.game import Outcome, Reason

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    started_at REAL NOT NULL,
    elapsed REAL NOT NULL DEFAULT 0,
    finished_at REAL,
    outcome TEXT,
    pending_draws TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    events TEXT NOT NULL,
    draws TEXT NOT NULL,
    at REAL NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq)
);
"""

_COLUMNS = {
    "games": ("id", "game", "options", "started_at", "elapsed", "finished_at", "outcome", "pending_draws"),
    "moves": ("game_id", "seq", "action", "events", "draws", "at", "undone"),
}


class StoreTrouble(Exception):
    """Why a database file could not be used as it was."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    options: dict[str, Any]
    started_at: float
    elapsed: float
    finished_at: float | None
    outcome: dict[str, Any] | None
    pending_draws: list[tuple[int, int]]


@dataclass(frozen=True)
class MoveRecord:
    seq: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    draws: list[tuple[int, int]]
    at: float
    undone: bool


class Store:
    """One SQLite file of games and their moves. Use `Store.open`."""

    def __init__(self, connection: sqlite3.Connection, path: Path | None, notice: str | None = None) -> None:
        self._db = connection
        self.path = path
        self.notice = notice
        """One sentence about a problem met on opening, for the screen; None when all was well."""

    # -- opening -----------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, *, busy_timeout: float = 2.0) -> Store:
        """Open (or create) the store at `path`, recovering from a bad file."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return cls(_connect(path, busy_timeout), path)
        except StoreTrouble as trouble:
            aside = _move_aside(path, _slug(str(trouble)))
            connection = _connect(path, busy_timeout)
            kept = _salvage(aside, connection)
            notice = (
                f"The saved games file {trouble}; it was moved aside to {aside.name} "
                f"and {kept} saved record{'s' if kept != 1 else ''} could be kept."
            )
            return cls(connection, path, notice)

    @classmethod
    def in_memory(cls) -> Store:
        """A store that forgets everything on exit (tests, throwaway scripts)."""
        connection = sqlite3.connect(":memory:", isolation_level=None)
        connection.executescript(_SCHEMA)
        return cls(connection, None)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -----------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def new_game(self, game: str, options: dict[str, Any], now: float) -> int:
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (game, options, started_at) VALUES (?, ?, ?)",
                (game, json.dumps(options), now),
            )
            return int(cursor.lastrowid or 0)

    def record(
        self,
        game_id: int,
        seq: int,
        action: Any,
        events: Sequence[Any],
        draws: Sequence[tuple[int, int]],
        *,
        now: float,
        elapsed: float,
        outcome: dict[str, Any] | None,
        pending_draws: Sequence[tuple[int, int]],
    ) -> None:
        """Store one accepted action, dropping the moves it makes un-redoable."""
        with self._transaction() as db:
            db.execute("DELETE FROM moves WHERE game_id = ? AND seq >= ?", (game_id, seq))
            db.execute(
                "INSERT INTO moves (game_id, seq, action, events, draws, at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, json.dumps(action), json.dumps(list(events)), json.dumps(list(draws)), now),
            )
            self._update_game(db, game_id, elapsed, outcome, now, pending_draws)

    def set_undone(
        self,
        game_id: int,
        seq: int,
        undone: bool,
        *,
        now: float,
        elapsed: float,
        outcome: dict[str, Any] | None,
        pending_draws: Sequence[tuple[int, int]],
    ) -> None:
        """Mark one move undone (or redone again)."""
        with self._transaction() as db:
            db.execute("UPDATE moves SET undone = ? WHERE game_id = ? AND seq = ?", (int(undone), game_id, seq))
            self._update_game(db, game_id, elapsed, outcome, now, pending_draws)

    def save_clock(self, game_id: int, elapsed: float) -> None:
        with self._transaction() as db:
            db.execute("UPDATE games SET elapsed = ? WHERE id = ?", (elapsed, game_id))

    def abandon(self, game_id: int, now: float) -> None:
        """Close a game without a result, so it is no longer offered for resume."""
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET finished_at = ?, outcome = ? WHERE id = ?",
                (now, json.dumps(Outcome((), Reason.ABANDONED).to_json()), game_id),
            )

    @staticmethod
    def _update_game(
        db: sqlite3.Connection,
        game_id: int,
        elapsed: float,
        outcome: dict[str, Any] | None,
        now: float,
        pending_draws: Sequence[tuple[int, int]],
    ) -> None:
        db.execute(
            "UPDATE games SET elapsed = ?, outcome = ?, finished_at = ?, pending_draws = ? WHERE id = ?",
            (
                elapsed,
                json.dumps(outcome) if outcome else None,
                now if outcome else None,
                json.dumps(list(pending_draws)),
                game_id,
            ),
        )

    # -- reading -----------------------------------------------------------

    def game(self, game_id: int) -> GameRecord | None:
        row = self._db.execute(f"SELECT {', '.join(_COLUMNS['games'])} FROM games WHERE id = ?", (game_id,)).fetchone()
        return _game_record(row) if row else None

    def unfinished(self) -> GameRecord | None:
        """The most recent game that has not ended, if any (offered for resume)."""
        row = self._db.execute(
            f"SELECT {', '.join(_COLUMNS['games'])} FROM games WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return _game_record(row) if row else None

    def moves(self, game_id: int) -> list[MoveRecord]:
        rows = self._db.execute(
            "SELECT seq, action, events, draws, at, undone FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [
            MoveRecord(seq, json.loads(a), json.loads(e), [tuple(d) for d in json.loads(dr)], at, bool(u))
            for seq, a, e, dr, at, u in rows
        ]

    def move_count(self, game_id: int) -> int:
        """How many moves game `game_id` has, undone ones left out (without reading them)."""
        row = self._db.execute("SELECT COUNT(*) FROM moves WHERE game_id = ? AND undone = 0", (game_id,)).fetchone()
        return int(row[0])

    def finished(self, limit: int = 50) -> list[GameRecord]:
        """Finished games, newest first (abandoned ones left out)."""
        rows = self._db.execute(
            f"SELECT {', '.join(_COLUMNS['games'])} FROM games WHERE finished_at IS NOT NULL "
            "AND json_extract(outcome, '$.reason') != ? ORDER BY finished_at DESC, id DESC LIMIT ?",
            (Reason.ABANDONED.value, limit),
        ).fetchall()
        return [_game_record(r) for r in rows]

    def win_counts(self) -> dict[str, int]:
        """Games won per player name, over every finished game on this appliance."""
        counts: dict[str, int] = {}
        for (outcome,) in self._db.execute("SELECT outcome FROM games WHERE finished_at IS NOT NULL"):
            for name in json.loads(outcome).get("winners", []):
                counts[name] = counts.get(name, 0) + 1
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    def all_moves(self, game: str) -> Iterator[MoveRecord]:
        """Every live move of every game of one kind (for whole-appliance statistics)."""
        rows = self._db.execute(
            "SELECT m.seq, m.action, m.events, m.draws, m.at, m.undone FROM moves m "
            "JOIN games g ON g.id = m.game_id WHERE g.game = ? AND m.undone = 0 ORDER BY m.game_id, m.seq",
            (game,),
        )
        for seq, a, e, dr, at, u in rows:
            yield MoveRecord(seq, json.loads(a), json.loads(e), [tuple(d) for d in json.loads(dr)], at, bool(u))


def _game_record(row: Sequence[Any]) -> GameRecord:
    gid, game, options, started, elapsed, finished, outcome, pending = row
    return GameRecord(
        gid,
        game,
        json.loads(options),
        started,
        elapsed,
        finished,
        json.loads(outcome) if outcome else None,
        [tuple(d) for d in json.loads(pending or "[]")],
    )


def _connect(path: Path, busy_timeout: float) -> sqlite3.Connection:
    """Open `path` ready for use, or raise `StoreTrouble` saying why it cannot be."""
    connection = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreTrouble(f"was written by a newer version of Tabletop Companion (schema {version})")
        check = connection.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise StoreTrouble("is damaged")
        connection.executescript(_SCHEMA)
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        for table, columns in _COLUMNS.items():
            found = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
            if not set(columns) <= found:
                raise StoreTrouble("is not a Tabletop Companion games file")
    except StoreTrouble:
        connection.close()
        raise
    except sqlite3.OperationalError as error:
        connection.close()
        if "locked" in str(error) or "busy" in str(error):
            raise StoreTrouble("is locked by another program") from error
        raise StoreTrouble("could not be read") from error
    except sqlite3.DatabaseError as error:
        connection.close()
        raise StoreTrouble("is damaged") from error
    return connection


def _slug(reason: str) -> str:
    for word in ("newer", "locked", "not a"):
        if word in reason:
            return {"newer": "newer", "locked": "locked", "not a": "foreign"}[word]
    return "damaged"


def _move_aside(path: Path, why: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.{why}-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.rename(aside.with_name(aside.name + suffix))
    path.rename(aside)
    return aside


def _salvage(aside: Path, into: sqlite3.Connection) -> int:
    """Copy every row that can still be read from `aside`; return how many."""
    kept = 0
    try:
        source = sqlite3.connect(f"file:{aside}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error:
        return 0
    with closing(source):
        for table, columns in _COLUMNS.items():
            try:
                cursor = source.execute(f"SELECT {', '.join(columns)} FROM {table}")
            except sqlite3.Error:
                continue
            placeholders = ", ".join("?" for _ in columns)
            while True:
                try:
                    row = cursor.fetchone()
                except sqlite3.Error:
                    break  # the rest of this table is past the damage
                if row is None:
                    break
                try:
                    into.execute(f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) VALUES ({placeholders})", row)
                    kept += 1
                except sqlite3.Error:
                    continue
    return kept
