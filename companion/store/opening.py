"""Opening a games file: the checks at every start, converting an older file, and the way to salvage."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from companion.store.files import (
    Weather,
    WriterLock,
    connect_wal,
    create_file,
    from_bytes,
    is_weather,
    snapshot,
    wal_damaged,
    weather_sentence,
)
from companion.store.rows import (
    APPLICATION_ID,
    GAME_COLUMNS,
    GAME_NAMES,
    SCHEMA_VERSION,
    Damaged,
    Newer,
    migrate,
    newer_than_us,
    schema_problem,
    valid_row,
)

if TYPE_CHECKING:
    from companion.store.salvage import Survey


def open_writable(path: Path, busy_timeout: float) -> tuple[sqlite3.Connection, str | None]:
    """A checked, writable connection to our file at `path` (created if missing), salvaging real damage.

    A missing file beside backups is restored from them, and the sentence says so. Raises `Weather` when the
    card or another program stops us (nothing is moved aside then). Anything else SQLite (or decoding its
    answers) raises here is damage: the file is salvaged, never trusted and never taken for weather.
    """
    restored = None
    if not path.exists():
        try:
            restored = _restore(path)
            if restored is None:
                create_file(path, [], [])
        except (OSError, sqlite3.Error) as error:
            raise Weather(weather_sentence(error, path, opening=True)) from error
    if wal_damaged(path):
        return _salvage_file(path)
    connection = None
    try:
        connection = connect_wal(path, busy_timeout)
        _check_open(connection)
        migrate(connection)
        _check_writable(connection, path)
    except Newer as newer:
        assert connection is not None  # raised by the checks, after connecting
        connection.close()
        return _salvage_file(path, why="newer", reason=str(newer))
    except Exception as error:  # the store's edge: every answer that is not ours is damage or weather
        if connection is not None:
            connection.close()
        if is_weather(error, path):
            raise Weather(weather_sentence(error, path, opening=True)) from error
        return _salvage_file(path)
    return connection, restored


def _check_open(connection: sqlite3.Connection) -> None:
    """The checks made at every opening: the stamp, ``quick_check``, every game row and its move count."""
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    newer = newer_than_us(connection)
    if newer is not None:
        raise Newer(f"was written by a newer version of Tabletop Companion (schema {newer})")
    if connection.execute("PRAGMA quick_check").fetchone()[0] != "ok":
        raise Damaged("quick_check")
    if version < SCHEMA_VERSION:
        return  # an older file: `_migrate` checks it as it copies
    problem = schema_problem(connection)
    if problem is not None:
        raise Damaged(f"schema: {problem}")
    if connection.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
        raise Damaged("application_id")
    counts = dict(connection.execute("SELECT game_id, COUNT(*) FROM moves GROUP BY game_id").fetchall())
    last = dict(connection.execute("SELECT game_id, MAX(seq) FROM moves GROUP BY game_id").fetchall())
    for row in connection.execute(f"SELECT {GAME_NAMES}, checksum FROM games"):
        values = valid_row("games", GAME_COLUMNS, row)
        if values is None:
            raise Damaged(f"game {row[0]!r}")
        gid, moves = values[0], values[8]
        if counts.pop(gid, 0) != moves or (moves and last.get(gid) != moves - 1):
            raise Damaged(f"game {gid} moves")
    if counts:
        raise Damaged("moves of a game that is not there")


def _check_writable(connection: sqlite3.Connection, path: Path) -> None:
    """Change the first page and take the change back, writing nothing: a file SQLite will not write though the
    card and the file may be written (a flipped bit in its header's write version, which nothing reads) is
    damage, found here at opening and not by the table's next move. Weather (a read-only card or file) is left
    to the next move, which says so."""
    version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    connection.execute("BEGIN IMMEDIATE")
    try:
        connection.execute(f"PRAGMA user_version = {version}")
    except sqlite3.Error as error:
        if not is_weather(error, path):
            raise
    finally:
        connection.execute("ROLLBACK")


def _salvage_file(path: Path, *, why: str = "damaged", reason: str = "") -> tuple[sqlite3.Connection, str]:
    # The salvage machinery (every page, every backup) is loaded only when there is damage to mend:
    # it is not on the start-up path of a healthy file.
    from companion.store.salvage import salvage_file

    try:
        return salvage_file(path, why=why, reason=reason)
    except (OSError, sqlite3.Error) as error:  # the card would not take the mended file: the old one stays
        raise Weather(weather_sentence(error, path, opening=True)) from error


def _restore(path: Path) -> str | None:
    from companion.store.files import backups

    if not backups(path):
        return None  # nothing to restore from: a new, empty file (and no salvage machinery loaded)
    from companion.store.salvage import restore_from_backups

    return restore_from_backups(path)


def copy_in_memory(path: Path, busy_timeout: float) -> tuple[sqlite3.Connection, Survey | None]:
    """The file's games in memory, every row checked (looking is rare); salvaged in memory where damaged.

    The survey is None when the copy is whole. Nothing on disk is touched.
    """
    from companion.store.salvage import salvage_into_memory, verify_all

    connection = None
    if WriterLock.held_elsewhere(path):
        connection = snapshot(path, busy_timeout)  # through SQLite: the writer may be mid-transaction
    elif not wal_damaged(path):
        connection = from_bytes(path)  # no writer: read the bytes, so that not even a -shm is made
    if connection is not None:
        try:
            migrate(connection)  # a schema-1 file is converted in the copy
            if not verify_all(connection):
                return connection, None
        except Exception:  # whatever SQLite answers about a damaged copy: salvaged below
            pass
        connection.close()
    return salvage_into_memory(path)
