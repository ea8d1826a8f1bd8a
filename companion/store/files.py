"""The games file on disk: ours or not, the one writer's lock, the card's weather, making and moving files."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import stat
import time
from collections.abc import Iterable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from companion.store.rows import APPLICATION_ID, GAME_NAMES, MOVE_NAMES, PAGE_SIZE, V1_COLUMNS, create_schema, memory_db

SQLITE_MAGIC = b"SQLite format 3\x00"
WAL_PAGES = 100


class StoreRefused(Exception):
    """A games file that cannot be used at all (not ours, in use by another writer). ``str`` is a sentence."""


class StoreInUse(StoreRefused):
    """Another companion holds the games file for writing."""


class Weather(Exception):
    """The card or another program is in the way (full, read-only, locked): not damage. Carries the sentence."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


def connect_wal(path: Path, busy_timeout: float) -> sqlite3.Connection:
    """A connection in WAL mode with ``synchronous=FULL``: once a commit returns, it survives a pulled plug."""
    connection = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        # Written home every 100 pages (about 27 moves), not SQLite's 1,000: the WAL is then reused from its
        # start, at its size, and a commit that does not grow its file is not one more journal write on ext4
        # (an fsync twice as quick here). Durability is the same: every commit is in the fsync'd WAL first.
        connection.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
    except sqlite3.Error:
        connection.close()
        raise
    return connection


def create_file(path: Path, games: Iterable[Sequence[Any]], moves: Iterable[Sequence[Any]]) -> None:
    """Make a complete, stamped games file in a temporary file, then give it its name (never over another file)."""
    partial = path.with_name(f".{path.name}.new-{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    fd = os.open(partial, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    os.close(fd)
    try:
        with closing(sqlite3.connect(partial, isolation_level=None)) as db:
            db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("BEGIN IMMEDIATE")
            create_schema(db, in_transaction=True)
            db.executemany(f"INSERT INTO games ({GAME_NAMES}, checksum) VALUES ({', '.join('?' * 11)})", games)
            db.executemany(f"INSERT INTO moves ({MOVE_NAMES}, checksum) VALUES ({', '.join('?' * 9)})", moves)
            db.execute("COMMIT")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        fsync(partial)
        try:
            os.link(partial, path)  # fails if anything appeared under that name meanwhile: we never replace it
        except OSError as error:
            if path.exists() or error.errno not in (1, 38, 95):  # EPERM / ENOSYS / EOPNOTSUPP: no hard links here
                raise
            os.rename(partial, path)  # pragma: no cover - a FAT card has no hard links; this kernel mounts no FAT
        fsync(path.parent)
    finally:
        for leftover in (partial, sidecar(partial, "-wal"), sidecar(partial, "-shm")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


def fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def snapshot(path: Path, busy_timeout: float) -> sqlite3.Connection | None:
    """A consistent in-memory copy of the file through SQLite (a live writer may be using it), or None."""
    try:
        uri = f"{path.absolute().as_uri().replace('file://', 'file:', 1)}?mode=ro"
        with closing(sqlite3.connect(uri, uri=True, timeout=busy_timeout, isolation_level=None)) as source:
            copy = memory_db()
            source.backup(copy)
        return copy
    except sqlite3.Error:
        return None


def from_bytes(path: Path) -> sqlite3.Connection | None:
    """The file (with its WAL applied) in memory, read as plain bytes: nothing on disk is touched."""
    from companion.store.pages import checkpointed  # loaded only when a file must be read this way

    try:
        db, wal = read_bytes(path)
        connection = memory_db()
        connection.deserialize(checkpointed(db, wal))
        return connection
    except (OSError, sqlite3.Error):
        return None


def identify(path: Path) -> Path | None:
    """The real path of our games file at `path` (a link is followed), or None if there is nothing there.

    Anything that is not a regular file of ours raises `StoreRefused`, and is left exactly as it is.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StoreRefused(f"{path} cannot be looked at ({error.strerror}); it was left as it is.") from error
    real = path
    if stat.S_ISLNK(info.st_mode):
        # Followed, so that moving a damaged file aside renames the file and not the link.
        real = path.resolve()
        try:
            info = os.stat(real)
        except OSError:
            raise StoreRefused(f"{path} is a link to nothing; it was left as it is.") from None
    if stat.S_ISDIR(info.st_mode):
        raise StoreRefused(f"{path} is a folder, not a games file; it was left as it is.")
    if not stat.S_ISREG(info.st_mode):
        raise StoreRefused(f"{path} is not a regular file (a device, a pipe or a socket); it was left as it is.")
    try:
        with open(real, "rb") as handle:
            head = handle.read(100)
    except OSError as error:
        raise StoreRefused(f"{path} cannot be read ({error.strerror}); it was left as it is.") from error
    stamp = head[68:72] == APPLICATION_ID.to_bytes(4, "big")
    if stamp or (head.startswith(SQLITE_MAGIC) and _has_our_tables(real)):
        return real
    if head.startswith(SQLITE_MAGIC):
        raise StoreRefused(f"{path} is another program's SQLite database, not a games file; it was left as it is.")
    if not head:
        raise StoreRefused(f"{path} is an empty file that Tabletop Companion did not make; it was left as it is.")
    raise StoreRefused(f"{path} is not a Tabletop Companion games file; it was left as it is.")


def _has_our_tables(path: Path) -> bool:
    """An unstamped SQLite file is ours if it has our tables (a schema-1 file, or one whose stamp took a hit)."""
    try:
        uri = f"{path.absolute().as_uri().replace('file://', 'file:', 1)}?mode=ro&immutable=1"
        with closing(sqlite3.connect(uri, uri=True)) as db:
            found = {
                table: {row[1] for row in db.execute(f"PRAGMA table_info({table})")} for table in ("games", "moves")
            }
    except Exception:  # whatever SQLite (or decoding its answer) raises: not ours to open as it is
        return False
    return all(V1_COLUMNS[table] <= columns for table, columns in found.items())


def sidecar(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


class WriterLock:
    """An exclusive `flock` on ``<db>.lock``, held while a store may write.

    A lock file rather than SQLite's ``locking_mode=EXCLUSIVE``: that would
    also shut out readers (the history, `companion check`) and answers a second
    writer only after a busy timeout with "database is locked", where this one
    refuses at once and lets us say who holds it. The kernel drops it when the
    process dies, so a pulled plug or SIGKILL never leaves it stuck.
    """

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    @staticmethod
    def path_for(path: Path) -> Path:
        return sidecar(path, ".lock")

    @classmethod
    def take(cls, path: Path) -> WriterLock:
        fd = os.open(cls.path_for(path), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise StoreInUse(
                f"Another Tabletop Companion{who} is using {path.name}: "
                "this one can show the history but saves nothing."
            ) from None
        except OSError:  # pragma: no cover - flock itself refused (ENOLCK on a network mount): not stageable here
            os.close(fd)
            raise
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
        return cls(fd)

    @classmethod
    def held_elsewhere(cls, path: Path) -> bool:
        try:
            fd = os.open(cls.path_for(path), os.O_RDONLY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return True
        finally:
            os.close(fd)
        return False

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None


# -- weather --------------------------------------------------------------------------------------------------------

_FULL, _READONLY, _BUSY, _LOCKED, _IOERR, _CANTOPEN, _PERM = 13, 8, 5, 6, 10, 14, 3


def _card(path: Path) -> os.statvfs_result | None:
    """What the card holding `path`'s folder says of itself; None where the folder is not there."""
    try:
        return os.statvfs(path.parent)
    except OSError:
        return None


def _card_read_only(path: Path) -> bool:
    card = _card(path)
    return card is not None and (bool(card.f_flag & os.ST_RDONLY) or not os.access(path.parent, os.W_OK))


def _card_full(path: Path) -> bool:
    card = _card(path)
    return card is not None and card.f_bavail == 0


def is_weather(error: Exception, path: Path | None) -> bool:
    """Is this the card or another program in the way (not damage to the file)?"""
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    if code in (_READONLY, _CANTOPEN):
        # a store in memory has no card; a file can be read-only on a card that is not
        return path is not None and (_card_read_only(path) or (path.exists() and not os.access(path, os.W_OK)))
    return isinstance(error, OSError) or code in (_FULL, _BUSY, _LOCKED, _IOERR, _PERM)


def weather_sentence(error: Exception, path: Path | None, *, opening: bool) -> str:
    """One sentence for the table, naming what is in the way."""
    errno = getattr(error, "errno", None)
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    then = (
        "you can play, but nothing is saved until it can be written again." if opening else "this move was not saved."
    )
    # SQLite names a full card as an I/O error where it cannot grow the -shm it maps: the card says it is full
    if code == _FULL or errno == 28 or (code == _IOERR and path is not None and _card_full(path)):
        return f"The SD card is full: {then}"
    if (path is not None and _card_read_only(path)) or errno == 30 or code in (_READONLY, _CANTOPEN):
        return f"The SD card is read-only: {then}"
    if code in (_BUSY, _LOCKED):
        return f"The games file is locked by another program: {then}"
    return f"The SD card could not be written ({error}): {then}"


def read_bytes(path: Path) -> tuple[bytes, bytes | None]:
    db = path.read_bytes()
    try:
        wal: bytes | None = sidecar(path, "-wal").read_bytes()
    except FileNotFoundError:
        wal = None
    return db, wal


def move_aside(path: Path, why: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.{why}-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
    path.rename(aside)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            sidecar(path, suffix).rename(sidecar(aside, suffix))
    return aside


def move_back(aside: Path, path: Path) -> None:
    """Undo `move_aside` when no mended file took its place: the file and its sidecars under their names again."""
    if path.exists():  # pragma: no cover - made, then its folder's fsync failed: an I/O error we cannot stage
        return  # the mended file stays, and the damaged one stays aside
    aside.rename(path)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            sidecar(aside, suffix).rename(sidecar(path, suffix))


def backups(path: Path) -> list[Path]:
    """The backups of the games file at `path`, newest first."""
    # a folder that is missing, not a folder, or not ours to read holds none: `glob` finds nothing there
    found = [p for p in (path.parent / "backups").glob(f"{path.stem}-*.db") if p.is_file()]
    return sorted(found, key=lambda p: (p.stat().st_mtime, p.name), reverse=True)


def wal_damaged(path: Path) -> bool:
    """Would SQLite silently drop committed transactions from this file's ``-wal``?"""
    try:
        wal = sidecar(path, "-wal").read_bytes()
    except OSError:
        return False
    if not wal:
        return False  # no frames (as after a clean stop): the page reader is not loaded for it (issue 26)
    from companion.store.pages import check_wal  # only after a pulled plug is there a WAL to read

    return check_wal(wal).damaged
