"""The running tallies: how often each pair of dice came up, and who won how often, per game, kept beside the moves.

Dice statistics over every game ever played would otherwise read every move ever made. Instead one row per
game (``dice_tally``) holds 36 counts (first die, second die) and is changed in the same transaction as the
move it counts: a new move adds its rolls, an undo takes them off, a redo adds them again.

The row is checksummed like every other row, and carries a stamp: the sum of the versions of that game's
records when it was last brought up to date. Every write to a game raises its record's version, so a
write that did not keep the tally (an older app, salvage, a path that forgot) leaves the stamp behind, and
the tally is counted again from the moves (`Store.dice_stats`). A damaged or missing row is counted again
the same way: it holds nothing that the moves do not.

The wins tally (``wins_tally``) works the same way, one row per game holding wins per player name, so the home
screen's chart reads a row per game, not every game ever finished. A write changes it by the difference between
the game's outcome before and after: finishing adds the winners, an undo of the last move takes them off, a redo
adds them again. Ties and abandoned games count for nobody; a win because the others left (reason "left") is a
win. A game the table named on a tool (`Outcome.title`: the score pad's "Carcassonne") counts in its tool's row
under the title and the name (`counted`), and is read back apart. Its stamp (`wins_stamp`) sums the versions of
the records that have an outcome only: a move in a game still going changes no outcome, so the wins row is
neither read nor written then (one page less to write, and a move as quick as the dice tally allows).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from companion.dicestats import PAIRS, pair_index, rolls_in
from companion.game import ABANDONED, TITLED
from companion.store.rows import (
    TALLY_COLUMNS,
    TALLY_NAMES,
    WINS_COLUMNS,
    WINS_NAMES,
    normal_row,
    row_checksum,
    valid_row,
)


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


def write(db: sqlite3.Connection, game: str, counts: Sequence[int], at_stamp: int) -> int:
    """Write game `game`'s tally row; its checksum."""
    values = (game, json.dumps(list(counts)), at_stamp)
    checksum = row_checksum("dice_tally", values)
    db.execute(_WRITE, (*values, checksum))
    return checksum


_WRITE = f"INSERT OR REPLACE INTO dice_tally ({TALLY_NAMES}, checksum) VALUES (?, ?, ?, ?)"
_REWRITE = "UPDATE dice_tally SET pairs = ?, stamp = ?, checksum = ? WHERE game = ? AND stamp = ? AND checksum = ?"

Written = dict[str, tuple[int, int, list[int], str]]
"""Game -> the tally row this store wrote last (its stamp, checksum, counts and their text), for `keep`."""


def keep(db: sqlite3.Connection, game: str, events: Iterable[Any] = (), sign: int = 0, *, written: Written) -> int:
    """After one write that raised one record's version by one: count `events`' rolls `sign` times (+1, -1, 0).

    Called inside that write's transaction. A tally that was not up to date before the write is dropped, to be
    counted again when read; a game with no record before this one starts from nothing. Returns the stamp it
    read.

    `written` (the store's, kept by this function) holds the row it wrote last for each game. When the file
    still holds exactly that row (its stamp and checksum: one ``UPDATE`` by key that changes nothing else),
    it is the row before this write and up to date: its stamp is not summed again over every record (a scan
    of every game of that kind) nor its counts checked, parsed and written out again when no dice rolled. The
    store clears `written` whenever a write fails or the file is replaced; a record written without `keep`
    (an older app) still leaves the stamp behind, counted when read.
    """
    mine = written.pop(game, None)
    if mine is not None:
        done = _rewrite(db, game, events, sign, mine, written)
        if done is not None:
            return done
    # The stamp and the row in one statement: this runs inside every move's transaction. The tables are always
    # there (`ensure_tally` adds them to an older file when it is opened): a table another program dropped or
    # changed raises here, and is damage, repaired at the store's edge like a renamed column.
    found = db.execute(_STAMP_AND_ROW, (game,)).fetchone()
    now = int(found[0])
    row = found[1:] if found[1] is not None else None
    values = valid_row("dice_tally", TALLY_COLUMNS, row) if row else None
    if values is not None and values[2] == now - 1:
        counts = _counts(values[1])
    elif now == 1:  # the first record of this game: nothing rolled yet
        counts = [0] * len(PAIRS)
    else:
        if row is not None:
            db.execute("DELETE FROM dice_tally WHERE game = ?", (game,))
        return now
    if counts is None:
        db.execute("DELETE FROM dice_tally WHERE game = ?", (game,))
        return now
    return _count(db, game, counts, events, sign, now, written)


def _rewrite(
    db: sqlite3.Connection,
    game: str,
    events: Iterable[Any],
    sign: int,
    mine: tuple[int, int, list[int], str],
    written: Written,
) -> int | None:
    """The new stamp, where the file still holds exactly the row `mine` (one statement); None where it does not."""
    stamp_was, checksum_was, counts, text = mine
    rolls = rolls_in(events) if sign else []
    if rolls:
        counts = counts.copy()
        for a, b in rolls:
            counts[pair_index(a, b)] += sign
        text = json.dumps(counts)
    checksum = row_checksum("dice_tally", (game, text, stamp_was + 1))
    if db.execute(_REWRITE, (text, stamp_was + 1, checksum, game, stamp_was, checksum_was)).rowcount != 1:
        return None
    written[game] = (stamp_was + 1, checksum, counts, text)
    return stamp_was + 1


def _count(
    db: sqlite3.Connection,
    game: str,
    counts: list[int],
    events: Iterable[Any],
    sign: int,
    now: int,
    written: Written,
) -> int:
    for a, b in rolls_in(events) if sign else ():
        counts[pair_index(a, b)] += sign
    text = json.dumps(counts)
    values = (game, text, now)
    checksum = row_checksum("dice_tally", values)
    db.execute(_WRITE, (*values, checksum))
    written[game] = (now, checksum, counts, text)
    return now


def recount(events: Iterable[Any]) -> list[int]:
    """The tally of every roll in `events` (the live moves' events), counted from scratch."""
    counts = [0] * len(PAIRS)
    for a, b in rolls_in(events):
        counts[pair_index(a, b)] += 1
    return counts


_STAMP_AND_ROW = (
    "SELECT (SELECT COALESCE(SUM(version), 0) FROM games WHERE game = ?1), "
    + ", ".join(f"t.{name}" for name, _ in TALLY_COLUMNS)
    + ", t.checksum FROM (SELECT 1) LEFT JOIN dice_tally AS t ON t.game = ?1"
)
_last_counts: list[Any] = ["", []]  # the last tally text read and its counts: the next move reads it again


def _counts(text: str) -> list[int] | None:
    if text == _last_counts[0]:
        return list(_last_counts[1])
    try:
        counts = json.loads(text)
    except ValueError:
        return None
    if not isinstance(counts, list) or len(counts) != len(PAIRS) or not all(type(c) is int and c >= 0 for c in counts):
        return None
    _last_counts[:] = [text, list(counts)]
    return counts


# -- wins ------------------------------------------------------------------------------------------------------


def winners(outcome: Any) -> list[str]:
    """Who an outcome (as stored: a dict, its JSON text, or None) counts a win for: nobody on a tie or abandon."""
    return [name for name, _title in _won(outcome)]


def counted(outcome: Any) -> list[str]:
    """What an outcome adds a win to in its game's wins row: each winner's name, or where the table named the game
    it played on a tool (`Outcome.title`, a score pad's "Carcassonne"), the title and the name (`TITLED` between),
    so that `Tallies.wins_by_game` counts that game apart."""
    return [f"{title}{TITLED}{name}" if title else name for name, title in _won(outcome)]


def _won(outcome: Any) -> list[tuple[str, str]]:
    if isinstance(outcome, str):
        try:
            outcome = json.loads(outcome)
        except ValueError:
            return []
    if not isinstance(outcome, dict) or outcome.get("reason") == ABANDONED:
        return []
    names, title = outcome.get("winners"), outcome.get("title")
    title = title if isinstance(title, str) else ""
    return [(name, title) for name in names if isinstance(name, str)] if isinstance(names, list) else []


def wins_stamp(db: sqlite3.Connection, game: str) -> int:
    """The sum of the versions of every record of game `game` that has an outcome (the wins tally's stamp)."""
    (total,) = db.execute(
        "SELECT COALESCE(SUM(version), 0) FROM games WHERE game = ? AND outcome IS NOT NULL", (game,)
    ).fetchone()
    return int(total)


def stamps(db: sqlite3.Connection) -> dict[str, int]:
    """Every game kind in the file that has a record with an outcome, with its `wins_stamp`, in one pass."""
    rows = db.execute("SELECT game, SUM(version) FROM games WHERE outcome IS NOT NULL GROUP BY game")
    return {str(g): int(v) for g, v in rows}


def current_wins(db: sqlite3.Connection, game: str, at_stamp: int) -> dict[str, int] | None:
    """The wins tally of game `game` if its row checks out and has seen `at_stamp`; None if it must be counted."""
    row = db.execute(f"SELECT {WINS_NAMES}, checksum FROM wins_tally WHERE game = ?", (game,)).fetchone()
    values = valid_row("wins_tally", WINS_COLUMNS, row) if row else None
    if values is None or values[2] != at_stamp:
        return None
    return _wins(values[1])


def write_wins(db: sqlite3.Connection, game: str, wins: dict[str, int], at_stamp: int) -> None:
    values = normal_row(WINS_COLUMNS, (game, json.dumps(dict(sorted(wins.items()))), at_stamp))
    db.execute(
        f"INSERT OR REPLACE INTO wins_tally ({WINS_NAMES}, checksum) VALUES (?, ?, ?, ?)",
        (*values, row_checksum("wins_tally", values)),
    )


def keep_wins(db: sqlite3.Connection, game: str, before: Any = None, after: Any = None, *, version: int) -> None:
    """After one write that raised one record's version to `version` and changed its outcome from `before` to
    `after` (either None: no outcome).

    As `keep`: inside that write's transaction; a tally that was behind is dropped, to be counted when read.
    A write with no outcome before or after changes neither the wins nor their stamp: nothing to do.
    """
    if before is None and after is None:
        return
    now = wins_stamp(db, game)
    row = db.execute(f"SELECT {WINS_NAMES}, checksum FROM wins_tally WHERE game = ?", (game,)).fetchone()  # as `keep`
    was = now - (version if after is not None else 0) + (version - 1 if before is not None else 0)
    values = valid_row("wins_tally", WINS_COLUMNS, row) if row else None
    wins = _wins(values[1]) if values is not None and values[2] == was else None
    if wins is None and was == 0 and row is None:  # no record had an outcome: nobody has won yet
        wins = {}
    if wins is None:
        if row is not None:
            db.execute("DELETE FROM wins_tally WHERE game = ?", (game,))
        return
    for name in counted(before):
        wins[name] = wins.get(name, 0) - 1
    for name in counted(after):
        wins[name] = wins.get(name, 0) + 1
    if any(count < 0 for count in wins.values()):  # took off a win it never counted: count again when read
        db.execute("DELETE FROM wins_tally WHERE game = ?", (game,))
        return
    write_wins(db, game, {name: count for name, count in wins.items() if count}, now)


def count_wins(outcomes: Iterable[Any]) -> dict[str, int]:
    """Wins per player name over `outcomes` (every finished game of one kind), counted from scratch."""
    wins: dict[str, int] = {}
    for outcome in outcomes:
        for name in counted(outcome):
            wins[name] = wins.get(name, 0) + 1
    return wins


def _wins(text: str) -> dict[str, int] | None:
    try:
        wins = json.loads(text)
    except ValueError:
        return None
    if not isinstance(wins, dict) or not all(type(c) is int and c > 0 for c in wins.values()):
        return None
    return {str(name): count for name, count in wins.items()}
