"""The crash-safe log: every game and every accepted action, in one SQLite file.

What it promises, and how:

- **Acknowledged means kept.** Each action is one transaction in WAL mode
  with ``synchronous=FULL``: once `record` returns, the action survives a
  pulled plug.
- **One writer.** The store holds an exclusive lock on a file beside the
  database for its whole life (`_WriterLock`), so a second app or script on
  the same file is refused at once with a sentence instead of interleaving
  its moves with ours. Readers (history, `companion check`) take no lock.
- **Only our files.** The database is stamped (`APPLICATION_ID`, a schema
  version) and made whole in a temporary file before it appears under its
  name. Nothing that is not a regular file of ours is ever renamed,
  truncated or replaced: a folder, a device, a pipe, a text file or someone
  else's SQLite file is refused with a sentence (`StoreRefused`).
- **Weather is not damage.** A full or read-only card, a lock held by
  another program or an I/O error refuses the one write (`NotSaved`) and
  moves nothing aside. Found at opening, the table plays on an in-memory copy
  (`saving` is False, `problem` says why) that is written back as soon as the
  file can be written again.
- **Every row checked.** Each game and move row carries a checksum of its
  contents and a version that grows with every write; each game row counts
  its moves. ``PRAGMA quick_check``, the WAL's own frame checksums and the
  counts are checked at opening; the row checksums on every read. Damage is
  salvaged row by row from every readable page of the file, its WAL and the
  newest backups (`store.pages`), the damaged files are kept
  aside, and `notice` says in one sentence what was kept and lost.
- **Backups.** After each finished game and every `BACKUP_EVERY` seconds of
  play, an online copy goes to ``backups/`` beside the database (the newest
  `BACKUPS_KEPT` are kept).

The modules, each with one job:

- `store.store`: the `Store` a session writes to and the screens read from, and how it opens a file; its
  other jobs are base classes of it, each in a module: `store.reading` (games and moves, every row checked),
  `store.writing` (one transaction per action), `store.backing_up` (the rotated copies), `store.tallies`
  (wins and dice statistics) and `store.base` (the state they share, closing, and repair at the edge);
- `store.opening`: the checks at every start, converting an older file;
- `store.files`: ours or not, the writer lock, the card's weather, making and moving files;
- `store.rows`: the schema, and the checksum and version every row carries;
- `store.tally`: the running dice and wins tallies, kept in the same transaction as each move (and undo, and redo);
- `store.salvage`: every good row from every readable page and backup, and `check`;
- `store.pages`: SQLite's database and WAL formats read from raw bytes (for salvage).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from companion.store.files import StoreInUse, StoreRefused, backups
from companion.store.rows import APPLICATION_ID, SCHEMA_VERSION, GameRecord, MoveRecord
from companion.store.store import BACKUP_EVERY, BACKUPS_KEPT, NotSaved, Store

if TYPE_CHECKING:
    from companion.store.salvage import CheckReport


def check(path: str | Path) -> CheckReport:
    """Verify every game and move in the games file at `path`, changing nothing (`companion check`).

    The salvage machinery it needs is loaded here, not when the app starts.
    """
    from companion.store.salvage import check as check_file

    return check_file(path)


__all__ = [
    "APPLICATION_ID",
    "BACKUPS_KEPT",
    "BACKUP_EVERY",
    "SCHEMA_VERSION",
    "GameRecord",
    "MoveRecord",
    "NotSaved",
    "Store",
    "StoreInUse",
    "StoreRefused",
    "backups",
    "check",
]
