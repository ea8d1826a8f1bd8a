"""The `Store`'s backups: a checked online copy of the whole file in ``backups/`` beside it, the newest few kept."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from contextlib import closing
from pathlib import Path

from companion.store.base import StoreBase
from companion.store.files import backups, fsync
from companion.store.rows import Damaged

BACKUP_EVERY = 10 * 60.0
BACKUPS_KEPT = 5


class Backups(StoreBase):
    """Copies of the games file, taken after each finished game and every `BACKUP_EVERY` seconds of play."""

    @property
    def backup_dir(self) -> Path | None:
        """Where rotated copies of the games file go: ``backups/`` beside it."""
        return self.path.parent / "backups" if self.path is not None else None

    def backup(self) -> Path | None:
        """Copy the whole file (SQLite's online backup) to a new file in `backup_dir`; keep the newest few.

        A card too full for a copy is not an error at the table: the copy is skipped, the game goes on.
        Every row of the copy is checked first: a backup must never be a copy of damage (it is what salvage
        falls back on), and damage found here, in rows no screen has read lately, is salvaged at once.
        """
        self._last_backup = self._clock()
        folder = self.backup_dir
        if folder is None or not self._saving or self.path is None:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self._last_backup))
        target = folder / f"{self.path.stem}-{stamp}.db"
        n = 1
        while target.exists():
            n += 1
            target = folder / f"{self.path.stem}-{stamp}-{n}.db"
        partial = folder / f".{target.name}.partial"
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            os.close(os.open(partial, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600))
            from companion.store.salvage import verify_all

            with closing(sqlite3.connect(partial, isolation_level=None)) as copy:
                self._db.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")
                damage = verify_all(copy)
            if damage:
                partial.unlink()
                self._repair(Damaged(damage[0]))
                return None
            fsync(partial)
            os.replace(partial, target)
        except (OSError, sqlite3.Error):
            with contextlib.suppress(OSError):
                partial.unlink()
            return None
        for old in backups(self.path)[BACKUPS_KEPT:]:
            with contextlib.suppress(OSError):
                old.unlink()
        return target
