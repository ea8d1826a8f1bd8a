"""What every job of the `Store` shares: the connection and what it knows of the file, closing, and repair.

The store's jobs each have a module (`opening` in `store`, `reading`, `writing`, `backing_up`, `tallies`); each
adds its methods to the `Store` as a base class of it, all on the state kept here.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

from companion.game import Refusal
from companion.store import tally
from companion.store.files import WriterLock, weather_sentence
from companion.store.rows import ensure_tally
from companion.store.rows import is_abandoned as is_abandoned
from companion.store.rows import is_abandoned_record as is_abandoned_record

log = logging.getLogger(__name__)
# The sentences below are printed by the commands themselves (`companion play`, `history`): where nobody
# configured logging, Python must not print them a second time (its last-resort handler would).
log.addHandler(logging.NullHandler())


# Finished and not abandoned. `json_valid` first: a damaged outcome is left for the row's checksum to catch.
# The stored termination says it; a game saved before terminations were stored says it by its reason alone.
FINISHED = (
    "finished_at IS NOT NULL AND NOT (json_valid(outcome) AND "
    "COALESCE(json_extract(outcome, '$.termination'), json_extract(outcome, '$.reason')) IS 'abandoned')"
)


class NotSaved(Refusal):
    """A write the card would not take (full, read-only, locked, I/O error): nothing changed, nothing is damaged."""


class StoreBase:
    """The state every job of the `Store` works on; see `Store`."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        path: Path | None,
        *,
        notice: str | None = None,
        lock: WriterLock | None = None,
        problem: str | None = None,
        writable: bool = True,
        saving: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._db = connection
        self.path = path
        self.notice = notice
        """One sentence about what was found on opening (damage salvaged, a file refused); None when all was well."""
        self.problem = problem
        """While set, the table's moves are not being saved, and this sentence says why (show it in a banner)."""
        self._lock = lock
        self._writable = writable
        self._saving = saving
        self._clock = clock
        self._last_backup = clock()
        self._wal: tuple[Path, Path] | None = None  # the file and its -wal, looked at after every write
        self._written: dict[int, tuple[tuple[Any, ...], int]] = {}  # game id -> the row we last wrote, its checksum
        self._tallied: tally.Written = {}  # game -> the dice tally row we last wrote (`tally.keep`)
        with contextlib.suppress(Exception):  # a damaged schema: the first read finds it and salvages
            ensure_tally(connection)  # a file made before the dice tally (counted from the moves when first read)
        for sentence in (notice, problem):
            if sentence:
                log.warning("games file %s: %s", self._where, sentence)

    @property
    def _where(self) -> str:
        return str(self.path) if self.path is not None else "(in memory)"

    @property
    def saving(self) -> bool:
        """False while moves go only to memory (the card is read-only, full, or the file locked at opening)."""
        return self._saving

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _forget_written(self) -> None:
        """What this store wrote last is no longer known to be in the file (a write failed, the file was replaced)."""
        self._written.clear()
        self._tallied.clear()

    def _not_saving(self, sentence: str) -> None:
        """Moves are not being saved, for the reason `sentence` gives (logged once per reason, not per move)."""
        if sentence != self.problem:
            log.warning("games file %s: %s", self._where, sentence)
        self.problem = sentence

    # -- repair at the edge --------------------------------------------------------------------------------------

    def _repair(self, damage: Exception) -> None:
        """A row failed its checks while reading: salvage the file now, keep the damaged one aside, say so."""
        from companion.store.salvage import salvage_file, salvage_into_memory

        # The exception's own words are left out of the log: a row that fails its checks may hold a game's secrets.
        log.warning(
            "games file %s: a saved record failed its checks (%s); repairing", self._where, type(damage).__name__
        )
        if self.path is None:
            self.notice = "A saved record in memory was unreadable and was left out."
            log.warning("games file %s: %s", self._where, self.notice)
            return
        self._forget_written()
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        if self._lock is not None and self._saving and self._writable:
            try:
                self._db, self.notice = salvage_file(self.path)
            except (OSError, sqlite3.Error) as error:  # the card would not take the mended file: play in memory
                self._db, survey = salvage_into_memory(self.path)
                self.notice = survey.sentence(self.path, kept_aside=None)
                self._saving = False
                self._not_saving(weather_sentence(error, self.path, opening=False))
        else:
            self._db, survey = salvage_into_memory(self.path)
            self.notice = survey.sentence(self.path, kept_aside=None)
        log.warning("games file %s: %s", self._where, self.notice)
