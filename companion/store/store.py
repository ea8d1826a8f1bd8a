"""The `Store`: one games file, written one checked transaction per action, read row by row with checks.

Opening is here (the checks themselves are `store.opening`'s); each other job has its module and a base
class of `Store`: `reading`, `writing`, `backing_up`, `tallies`, on the state `base` keeps.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from companion.store.backing_up import BACKUP_EVERY as BACKUP_EVERY
from companion.store.backing_up import BACKUPS_KEPT as BACKUPS_KEPT
from companion.store.base import NotSaved as NotSaved
from companion.store.files import StoreRefused, Weather, WriterLock, backups, identify, weather_sentence
from companion.store.opening import copy_in_memory, open_writable
from companion.store.reading import Unfinished as Unfinished
from companion.store.rows import fresh_memory_db
from companion.store.tallies import Tallies


class Store(Tallies):
    """One SQLite file of games and their moves. Use `Store.open` (to play) or `Store.read` (to look)."""

    # -- opening -------------------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, *, busy_timeout: float = 2.0, clock: Callable[[], float] = time.time) -> Store:
        """Open (or create) the games file at `path` for playing.

        Raises `StoreRefused` for a path that is not a games file of ours (left untouched) and `StoreInUse`
        when another companion is writing it. A read-only or full card, or a file locked by another program,
        gives a store that plays in memory (`saving` False) until the file can be written again.
        """
        path = identify(Path(path)) or Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            lock = WriterLock.take(path)  # raises StoreInUse
        except OSError as error:
            return cls._in_memory_copy(path, weather_sentence(error, path, opening=True), clock)
        try:
            connection, notice = open_writable(path, busy_timeout)
        except Weather as weather:  # the card, at any step (`open_writable` turns its OSErrors into weather)
            lock.release()
            return cls._in_memory_copy(path, weather.sentence, clock)
        except BaseException:
            lock.release()
            raise
        return cls(connection, path, notice=notice, lock=lock, clock=clock)

    @classmethod
    def read(cls, path: str | Path, *, busy_timeout: float = 2.0) -> Store:
        """The games file at `path`, to look at only: nothing is locked, moved or written.

        A damaged file is salvaged into memory (the file itself is left for the app or `companion check`).
        Raises `StoreRefused` for a path that is not a games file of ours, or that does not exist.
        """
        real = identify(Path(path))
        if real is None:
            raise StoreRefused(f"There is no games file at {path}.")
        connection, survey = copy_in_memory(real, busy_timeout)
        notice = survey.sentence(real, kept_aside=None) if survey is not None else None
        return cls(connection, real, notice=notice, writable=False)

    @classmethod
    def in_memory(cls, *, notice: str | None = None, problem: str | None = None) -> Store:
        """A store that forgets everything on exit (tests, scripts, a table whose games file was refused)."""
        # With a problem, it stands in for a file that could not be used: the banner says nothing is saved.
        return cls(fresh_memory_db(), None, notice=notice, problem=problem, saving=problem is None)

    @classmethod
    def _in_memory_copy(cls, path: Path, why: str, clock: Callable[[], float]) -> Store:
        """Play on a copy of the file in memory while it cannot be written; try again at every write."""
        missing = not path.exists()
        # A missing file beside backups: their games, in memory, written back with the rest when it can be.
        # `copy_in_memory` never raises: what it cannot read (the file, its backups) it salvages around.
        whole = not missing or backups(path)
        connection, survey = copy_in_memory(path, 2.0) if whole else (fresh_memory_db(), None)
        notice = survey.sentence(path, kept_aside=None) if survey is not None else None
        if missing and survey is not None:
            notice = (
                f"The games file {path.name} is missing: what its backups hold ({survey.summary('')}) is played "
                "in memory, and written back as soon as the card can be written."
            )
        return cls(connection, path, notice=notice, problem=why, saving=False, clock=clock)
