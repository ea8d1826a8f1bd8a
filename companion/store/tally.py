"""The running dice tally: how often each pair of dice came up, per game, kept beside the moves.

Dice statistics over every game ever played would otherwise read every move ever made. Instead one row per
game (``dice_tally``) holds 36 counts (first die, second die) and is changed in the same transaction as the
move it counts: a new move adds its rolls, an undo takes them off, a redo adds them again.

The row is checksummed like every other row, and carries a stamp: the sum of the versions of that game's
records when it was last brought up to date. Every write to a game raises its record's version, so a
write that did not keep the tally (an older app, salvage, a path that forgot) leaves the stamp behind, and
the tally is counted again from the moves (`Store.dice_stats`). A damaged or missing row is counted again
the same way: it holds nothing that the moves do not.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from companion.dicestats import PAIRS, pair_index, rolls_in
from companion.store.rows import TALLY_COLUMNS, TALLY_NAMES, normal_row, row_checksum, valid_row


def stamp(db: sqlite3.Connection, game: str) -> int:
    """The sum of the versions of every record of game `game`: it grows with every write to one of them."""
    (total,) = db.execute("SELECT COALESCE(SUM(version), 0) FROM games WHERE game = ?", (game,)).fetchone()
    return int(total)


def current(db: sqlite3.Connection, game: str) -> list[int] | None:
    """The tally of game `game` if its row checks out and is up to date; None if it must be counted again."""
    row = db.execute(f"SELECT {TALLY_NAMES}, checksum FROM dice_tally WHERE game = ?", (game,)).fetchone()
    values = valid_row("dice_tally", TALLY_COLUMNS, row) if row else None
    if values is None or values[2] != stamp(db, game):
        return None
    return _counts(values[1])


def write(db: sqlite3.Connection, game: str, counts: Sequence[int], at_stamp: int) -> None:
    values = normal_row(TALLY_COLUMNS, (game, json.dumps(list(counts)), at_stamp))
    db.execute(
        f"INSERT OR REPLACE INTO dice_tally ({TALLY_NAMES}, checksum) VALUES (?, ?, ?, ?)",
        (*values, row_checksum("dice_tally", values)),
    )


def keep(db: sqlite3.Connection, game: str, events: Iterable[Any] = (), sign: int = 0) -> None:
    """After one write that raised one record's version by one: count `events`' rolls `sign` times (+1, -1, 0).

    Called inside that write's transaction. A tally that was not up to date before the write is dropped, to be
    counted again when read; a game with no record before this one starts from nothing.
    """
    try:
        now = stamp(db, game)
        row = db.execute(f"SELECT {TALLY_NAMES}, checksum FROM dice_tally WHERE game = ?", (game,)).fetchone()
    except sqlite3.OperationalError as error:
        if "no such table" in str(error):  # a copy of an older file, made before the tally: counted when read
            return
        raise
    values = valid_row("dice_tally", TALLY_COLUMNS, row) if row else None
    if values is not None and values[2] == now - 1:
        counts = _counts(values[1])
    elif now == 1:  # the first record of this game: nothing rolled yet
        counts = [0] * len(PAIRS)
    else:
        if row is not None:
            db.execute("DELETE FROM dice_tally WHERE game = ?", (game,))
        return
    if counts is None:
        db.execute("DELETE FROM dice_tally WHERE game = ?", (game,))
        return
    for a, b in rolls_in(events) if sign else ():
        counts[pair_index(a, b)] += sign
    write(db, game, counts, now)


def recount(events: Iterable[Any]) -> list[int]:
    """The tally of every roll in `events` (the live moves' events), counted from scratch."""
    counts = [0] * len(PAIRS)
    for a, b in rolls_in(events):
        counts[pair_index(a, b)] += 1
    return counts


def _counts(text: str) -> list[int] | None:
    try:
        counts = json.loads(text)
    except ValueError:
        return None
    if not isinstance(counts, list) or len(counts) != len(PAIRS) or not all(type(c) is int and c >= 0 for c in counts):
        return None
    return counts
