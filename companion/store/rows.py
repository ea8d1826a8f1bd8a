"""What a stored row is: the schema, the checksum every row carries, and the records read back."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from companion.game import Outcome

APPLICATION_ID = 0x54436F6D  # "TCom": written into every games file we make (PRAGMA application_id)
SCHEMA_VERSION = 2
PAGE_SIZE = 4096

# No secondary index anywhere: `moves` is a WITHOUT ROWID table (the b-tree
# *is* the primary key), so no index can disagree with its table.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    started_at REAL NOT NULL,
    elapsed REAL NOT NULL,
    finished_at REAL,
    outcome TEXT,
    pending_draws TEXT NOT NULL,
    moves INTEGER NOT NULL,
    version INTEGER NOT NULL,
    checksum INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    events TEXT NOT NULL,
    draws TEXT NOT NULL,
    at REAL NOT NULL,
    undone INTEGER NOT NULL,
    version INTEGER NOT NULL,
    checksum INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS dice_tally (
    game TEXT NOT NULL PRIMARY KEY,
    pairs TEXT NOT NULL,
    stamp INTEGER NOT NULL,
    checksum INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS wins_tally (
    game TEXT NOT NULL PRIMARY KEY,
    wins TEXT NOT NULL,
    stamp INTEGER NOT NULL,
    checksum INTEGER NOT NULL
) WITHOUT ROWID;
"""

# Column names and their kinds ("i" integer, "r" real, "t" text, "t?" / "r?" nullable),
# in the order they are stored and checksummed.
GAME_COLUMNS = (
    ("id", "i"), ("game", "t"), ("options", "t"), ("started_at", "r"), ("elapsed", "r"), ("finished_at", "r?"),
    ("outcome", "t?"), ("pending_draws", "t"), ("moves", "i"), ("version", "i"),
)  # fmt: skip
MOVE_COLUMNS = (
    ("game_id", "i"), ("seq", "i"), ("action", "t"), ("events", "t"), ("draws", "t"), ("at", "r"), ("undone", "i"),
    ("version", "i"),
)  # fmt: skip
TALLY_COLUMNS = (("game", "t"), ("pairs", "t"), ("stamp", "i"))
"""A game's dice tally (`store.tally`): 36 counts as JSON, and the stamp saying which writes it has seen."""
WINS_COLUMNS = (("game", "t"), ("wins", "t"), ("stamp", "i"))
"""A game's wins tally (`store.tally`): wins per player name as JSON, and the same kind of stamp."""
GAME_NAMES = ", ".join(name for name, _ in GAME_COLUMNS)
MOVE_NAMES = ", ".join(name for name, _ in MOVE_COLUMNS)
TALLY_NAMES = ", ".join(name for name, _ in TALLY_COLUMNS)
WINS_NAMES = ", ".join(name for name, _ in WINS_COLUMNS)
V1_COLUMNS = {
    "games": {"id", "game", "options", "started_at", "elapsed", "finished_at", "outcome", "pending_draws"},
    "moves": {"game_id", "seq", "action", "events", "draws", "at", "undone"},
}


class Damaged(Exception):
    """A row or page that fails its checks (internal: it always ends in a salvage)."""


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
    moves: int = 0
    """How many move rows the game has, undone ones included."""


@dataclass(frozen=True)
class MoveRecord:
    seq: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    draws: list[tuple[int, int]]
    at: float
    undone: bool


# -- rows and their checksums ---------------------------------------------------------------------------------


def is_abandoned(outcome: Any) -> bool:
    """Whether a stored outcome (its JSON text) is that of a game ended without a result."""
    try:
        return isinstance(outcome, str) and Outcome.from_json(json.loads(outcome)).abandoned
    except (ValueError, AttributeError, TypeError):
        return False


def is_abandoned_record(outcome: dict[str, Any] | None) -> bool:
    """Whether a checked row's outcome is an abandoned game's: by its termination, or an old row's reason."""
    try:
        return outcome is not None and Outcome.from_json(outcome).abandoned
    except (ValueError, AttributeError, TypeError):
        return False


def normal_row(columns: Sequence[tuple[str, str]], values: Sequence[Any]) -> tuple[Any, ...]:
    """Values as SQLite gives them back (a REAL may be stored as an integer on disk)."""
    reals = _reals(tuple(columns))
    if not reals:
        return tuple(values)
    out = list(values)
    for i in reals:
        if out[i] is not None:
            out[i] = float(out[i])
    return tuple(out)


def row_checksum(table: str, values: Sequence[Any]) -> int:
    # repr of str, int, float and None is exact and stable, and three times quicker than json.dumps
    digest = hashlib.blake2b(repr((table, *values)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def valid_row(table: str, columns: Sequence[tuple[str, str]], row: Sequence[Any]) -> tuple[Any, ...] | None:
    """The row's values if its stored checksum matches them, else None.

    The checksum is taken over the values' reprs, so it also vouches for their kinds (1, 1.0 and '1' differ).
    """
    values = tuple(row[:-1])  # every caller asks SQLite for, or keeps only, rows of the columns and a checksum
    # Read from a raw page, a REAL may come as an integer (SQLite stores whole reals that way): made a float
    # first, as every writer does before its checksum, so that a good row costs one checksum, not two.
    normal = None
    for i in _reals(tuple(columns)):
        if type(values[i]) is int:
            normal = normal or list(values)
            normal[i] = float(values[i])
    if normal is not None:
        floats = tuple(normal)
        if row[-1] == row_checksum(table, floats):
            return floats
    return values if row[-1] == row_checksum(table, values) else None


@lru_cache(maxsize=16)
def _reals(columns: tuple[tuple[str, str], ...]) -> tuple[int, ...]:
    return tuple(i for i, (_name, kind) in enumerate(columns) if kind[0] == "r")


def game_from(values: Sequence[Any]) -> GameRecord:
    gid, game, options, started, elapsed, finished, outcome, pending, moves, _version = values
    return GameRecord(
        gid,
        game,
        json.loads(options),
        started,
        elapsed,
        finished,
        json.loads(outcome) if outcome else None,
        [(int(s), int(v)) for s, v in json.loads(pending)],
        moves,
    )


def move_from(values: Sequence[Any]) -> MoveRecord:
    _gid, seq, action, events, draws, at, undone, _version = values
    return MoveRecord(
        seq, json.loads(action), json.loads(events), [(int(s), int(v)) for s, v in json.loads(draws)], at, bool(undone)
    )


def _title(game: str) -> str:
    return game.replace("-", " ").title()


def describe(game: str, options_json: str) -> str:
    """'Quin with Ann and Bo', for sentences about a game (without loading its rules)."""
    try:
        names = [str(p["name"]) for p in json.loads(options_json)["players"]]
    except (ValueError, KeyError, TypeError):
        return _title(game)
    players = " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)
    return f"{_title(game)} with {players}" if players else _title(game)


class Newer(Exception):
    """A file written by a newer version of the app (its schema is beyond ours)."""


def newer_than_us(connection: sqlite3.Connection) -> int | None:
    """The file's schema version if a newer app wrote it; None if ours (or older).

    A version beyond ours on tables exactly like ours is a flipped bit in the header, not a newer app
    (a newer schema is why a version changes): that is damage, and `Damaged` says so.
    """
    version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    if version <= SCHEMA_VERSION:
        return None
    with closing(memory_db()) as ours:
        create_schema(ours)
        tables = "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name"
        if connection.execute(tables).fetchall() == ours.execute(tables).fetchall():
            raise Damaged(f"schema version {version} on a schema-{SCHEMA_VERSION} file")
    return version


_OPTIONAL = frozenset({"dice_tally", "wins_tally"})
"""Tables a file of this schema may lack: one made before the tallies gets them when opened (`ensure_tally`)."""


def _schema_rows(connection: sqlite3.Connection) -> dict[tuple[bytes, bytes, bytes], bytes]:
    # As bytes, whitespace folded: a flipped bit may leave text that is not UTF-8, and that is damage to
    # report, not an exception to raise.
    rows = connection.execute(
        "SELECT CAST(type AS BLOB), CAST(name AS BLOB), CAST(tbl_name AS BLOB), CAST(sql AS BLOB) FROM sqlite_master"
    ).fetchall()
    return {
        (bytes(t or b""), bytes(n or b""), bytes(tb or b"")): b" ".join(bytes(sql or b"").split())
        for t, n, tb, sql in rows
    }


@lru_cache(maxsize=1)
def _our_schema() -> dict[tuple[bytes, bytes, bytes], bytes]:
    with closing(memory_db()) as ours:
        create_schema(ours)
        return _schema_rows(ours)


def schema_problem(connection: sqlite3.Connection) -> str | None:
    """What differs between the file's schema (every table, column and index) and the one we create; None if
    nothing does. A difference is damage (a flipped bit in a table's definition), never a reason to trust it.

    Raises `sqlite3.Error` (or a decoding error) when SQLite cannot read the schema at all: damage too.
    """
    stored, ours = _schema_rows(connection), _our_schema()
    for key, sql in ours.items():
        if key not in stored:
            if key[1].decode() not in _OPTIONAL:
                return f"the table {key[1].decode()} is missing"
        elif stored[key] != sql:
            return f"the definition of {key[1].decode()} is not ours"
    extra = sorted(stored.keys() - ours.keys())
    if extra:
        return f"it holds {extra[0][1].decode(errors='replace')!r}, which this app never makes"
    return None


def create_schema(connection: sqlite3.Connection, *, in_transaction: bool = False) -> None:
    if not in_transaction:
        connection.execute("BEGIN IMMEDIATE")
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            connection.execute(statement)
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    if not in_transaction:
        connection.execute("COMMIT")


def ensure_tally(connection: sqlite3.Connection) -> None:
    """Add the tallies' tables to a file made before them (each is counted again when first read)."""
    for table in ("dice_tally", "wins_tally"):
        connection.execute(next(s for s in _SCHEMA.split(";") if table in s))


def insert_game(db: sqlite3.Connection, values: Sequence[Any]) -> None:
    normal = normal_row(GAME_COLUMNS, values)
    db.execute(
        f"INSERT INTO games ({GAME_NAMES}, checksum) VALUES ({', '.join('?' * 11)})",
        (*normal, row_checksum("games", normal)),
    )


def update_game(
    db: sqlite3.Connection, game: tuple[Any, ...], *, expect: int | None = None, **changes: Any
) -> tuple[tuple[Any, ...], int] | None:
    """Write `game`'s row with `changes`; the values written and their checksum.

    With `expect` (the checksum `game` was written with), only where the file still holds exactly that row
    (its version and checksum), in the same statement; None, and nothing written, where it does not.
    """
    values = list(game)
    for key, value in changes.items():
        if key == "outcome":
            value = json.dumps(value) if value else None
        elif key == "pending_draws":
            value = json.dumps([list(d) for d in value]) if value else "[]"
        values[_GAME_INDEX[key]] = value
    normal = normal_row(GAME_COLUMNS, values)
    checksum = row_checksum("games", normal)
    if expect is None:
        db.execute(_UPDATE_GAME, (*normal[1:], checksum, normal[0]))
    elif db.execute(_UPDATE_GAME_AS_WRITTEN, (*normal[1:], checksum, normal[0], game[9], expect)).rowcount != 1:
        return None
    return normal, checksum


_GAME_INDEX = {name: i for i, (name, _) in enumerate(GAME_COLUMNS)}
_UPDATE_GAME = f"UPDATE games SET {', '.join(f'{name} = ?' for name, _ in GAME_COLUMNS[1:])}, checksum = ? WHERE id = ?"
_UPDATE_GAME_AS_WRITTEN = f"{_UPDATE_GAME} AND version = ? AND checksum = ?"


def memory_db() -> sqlite3.Connection:
    return sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)


def fresh_memory_db() -> sqlite3.Connection:
    connection = memory_db()
    create_schema(connection)
    return connection


def plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def migrate(connection: sqlite3.Connection) -> None:
    """Bring a schema-1 file (no checksums, no stamp) to this schema in one transaction."""
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version == SCHEMA_VERSION:
        return
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if version != 1 and tables - {"sqlite_sequence"}:
        raise Damaged("unknown schema")
    connection.execute("BEGIN IMMEDIATE")
    try:
        games = moves = []
        if tables:
            games = connection.execute(
                "SELECT id, game, options, started_at, elapsed, finished_at, outcome, pending_draws FROM games"
            ).fetchall()
            moves = connection.execute(
                "SELECT game_id, seq, action, events, draws, at, undone FROM moves ORDER BY game_id, seq"
            ).fetchall()
            connection.execute("DROP TABLE IF EXISTS moves")
            connection.execute("DROP TABLE IF EXISTS games")
        create_schema(connection, in_transaction=True)
        count: dict[int, int] = {}
        for row in moves:
            count[row[0]] = count.get(row[0], 0) + 1
        for row in games:
            insert_game(connection, (*row[:7], row[7] or "[]", count.get(row[0], 0), 1))
        for row in moves:
            values = normal_row(MOVE_COLUMNS, (*row[:6], int(row[6]), 1))
            connection.execute(
                f"INSERT INTO moves ({MOVE_NAMES}, checksum) VALUES ({', '.join('?' * 9)})",
                (*values, row_checksum("moves", values)),
            )
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
