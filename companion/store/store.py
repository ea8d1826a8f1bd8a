"""The `Store`: one games file, written one checked transaction per action, read row by row with checks."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from companion.dicestats import DiceStats
from companion.game import ABANDONED, Outcome, Refusal
from companion.store import tally
from companion.store.files import (
    StoreRefused,
    Weather,
    WriterLock,
    backups,
    fsync,
    identify,
    is_weather,
    sidecar,
    weather_sentence,
)
from companion.store.opening import copy_in_memory, open_writable
from companion.store.rows import (
    GAME_COLUMNS,
    GAME_NAMES,
    MOVE_COLUMNS,
    MOVE_NAMES,
    Damaged,
    GameRecord,
    MoveRecord,
    ensure_tally,
    fresh_memory_db,
    game_from,
    insert_game,
    move_from,
    normal_row,
    row_checksum,
    update_game,
    valid_row,
)

BACKUP_EVERY = 10 * 60.0
BACKUPS_KEPT = 5

log = logging.getLogger(__name__)
# The sentences below are printed by the commands themselves (`companion play`, `history`): where nobody
# configured logging, Python must not print them a second time (its last-resort handler would).
log.addHandler(logging.NullHandler())


# Finished and not abandoned. `json_valid` first: a damaged outcome is left for the row's checksum to catch.
# The stored termination says it; a game saved before terminations were stored says it by its reason alone.
_FINISHED = (
    "finished_at IS NOT NULL AND NOT (json_valid(outcome) AND "
    "COALESCE(json_extract(outcome, '$.termination'), json_extract(outcome, '$.reason')) IS 'abandoned')"
)


def _abandoned(outcome: Any) -> bool:
    """Whether a stored outcome (its JSON text) is that of a game ended without a result."""
    try:
        return isinstance(outcome, str) and Outcome.from_json(json.loads(outcome)).abandoned
    except (ValueError, AttributeError, TypeError):
        return False


def _abandoned_record(outcome: dict[str, Any] | None) -> bool:
    """Whether a checked row's outcome is an abandoned game's: by its termination, or an old row's reason."""
    try:
        return outcome is not None and Outcome.from_json(outcome).abandoned
    except (ValueError, AttributeError, TypeError):
        return False


def _most_first(counts: dict[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


_INSERT_MOVE = f"INSERT INTO moves ({MOVE_NAMES}, checksum) VALUES ({', '.join('?' * 9)})"


class Unfinished(NamedTuple):
    """An unfinished game as the home screen lists it: its record, live moves, and the time of its last move."""

    record: GameRecord
    moves: int
    last_played: float
    """When its last move was made (when it started, if it has none yet)."""


class NotSaved(Refusal):
    """A write the card would not take (full, read-only, locked, I/O error): nothing changed, nothing is damaged."""


class Store:
    """One SQLite file of games and their moves. Use `Store.open` (to play) or `Store.read` (to look)."""

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
        except Weather as weather:
            lock.release()
            return cls._in_memory_copy(path, weather.sentence, clock)
        except OSError as error:  # the card, at any step of a repair
            lock.release()
            return cls._in_memory_copy(path, weather_sentence(error, path, opening=True), clock)
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
        try:
            # a missing file beside backups: their games, in memory, written back with the rest when it can be
            whole = not missing or backups(path)
            connection, survey = copy_in_memory(path, 2.0) if whole else (fresh_memory_db(), None)
        except Exception:  # unreadable too: the table still plays, in memory
            connection, survey = fresh_memory_db(), None
        notice = survey.sentence(path, kept_aside=None) if survey is not None else None
        if missing and survey is not None:
            notice = (
                f"The games file {path.name} is missing: what its backups hold ({survey.summary('')}) is played "
                "in memory, and written back as soon as the card can be written."
            )
        return cls(connection, path, notice=notice, problem=why, saving=False, clock=clock)

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

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        if not self._writable:
            raise NotSaved(
                "This companion is only looking at the games file (another one is using it): nothing is saved here."
            )
        if not self._saving:
            self._try_saving_again()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except NotSaved:
            self._forget_written()
            raise
        except Exception as error:  # the store's edge: weather only when the system says so, else damage
            self._forget_written()
            if self._db.in_transaction:
                with contextlib.suppress(Exception):
                    self._db.execute("ROLLBACK")
            if isinstance(error, sqlite3.IntegrityError):
                log.warning("games file %s: changed by another program; a move was not saved", self._where)
                raise NotSaved(
                    "The games file was changed by another program: this move was not saved. Restart the companion."
                ) from error
            if is_weather(error, self.path):
                self._not_saving(weather_sentence(error, self.path, opening=False))
                raise NotSaved(self.problem) from error
            self._repair(error)
            raise NotSaved(
                f"{self.notice} This move was not saved: resume the game to go on from what was kept."
            ) from error
        if self._saving and self.problem is not None:
            self.problem = None
            log.info("games file %s: moves are saved again", self._where)
        self._keep_wal_in_place()

    def _forget_written(self) -> None:
        """What this store wrote last is no longer known to be in the file (a write failed, the file was replaced)."""
        self._written.clear()
        self._tallied.clear()

    def _keep_wal_in_place(self) -> None:
        """If someone deleted the ``-wal`` while we had it open, write its frames home and start a new one."""
        if self.path is None or not self._saving:
            return
        if self._wal is None or self._wal[0] != self.path:
            self._wal = (self.path, sidecar(self.path, "-wal"))
        if not os.path.exists(self._wal[1]):
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._db.execute("PRAGMA journal_mode=DELETE")
                self._db.execute("PRAGMA journal_mode=WAL")

    def _try_saving_again(self) -> None:
        """Moves were kept in memory only: if the file can be written now, put them all there and go on from it."""
        if self.path is None:
            return
        try:
            identify(self.path)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            lock = WriterLock.take(self.path)
        except (OSError, StoreRefused):
            return
        try:
            connection, notice = open_writable(self.path, 2.0)
        except (Weather, StoreRefused, OSError, sqlite3.Error):
            lock.release()
            return
        try:
            self._db.backup(connection)
        except sqlite3.Error as error:
            connection.close()
            lock.release()
            self._not_saving(weather_sentence(error, self.path, opening=False))
            return
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._db, self._lock, self._saving = connection, lock, True
        self._forget_written()
        self.problem = None
        self.notice = notice or "The games file can be written again: everything played meanwhile is saved now."
        log.info("games file %s: %s", self._where, self.notice)

    def _not_saving(self, sentence: str) -> None:
        """Moves are not being saved, for the reason `sentence` gives (logged once per reason, not per move)."""
        if sentence != self.problem:
            log.warning("games file %s: %s", self._where, sentence)
        self.problem = sentence

    def new_game(self, game: str, options: dict[str, Any], now: float) -> int:
        with self._transaction() as db:
            (next_id,) = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()
            values = (next_id, game, json.dumps(options), now, 0.0, None, None, "[]", 0, 1)
            insert_game(db, values)
            # a new record has no outcome: the wins tally has nothing to count
            tally.keep(db, game, written=self._tallied)
            return int(next_id)

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
        """Store one accepted action as move `seq`, dropping the undone moves it makes un-redoable.

        A move that was not undone is never overwritten: that would be a second writer, and is refused.
        """
        changes: dict[str, Any] = {
            "elapsed": elapsed, "outcome": outcome, "finished_at": now if outcome else None,
            "pending_draws": pending_draws, "moves": seq + 1,
        }  # fmt: skip
        with self._transaction() as db:
            # The row this store wrote last, rewritten in one statement where the file still holds exactly it
            # (the same version and checksum); read back and checked first where it does not.
            written, rewritten = self._written.pop(game_id, None), None
            if written is not None:
                game = written[0]
                rewritten = update_game(db, game, expect=written[1], version=game[9] + 1, **changes)
            if rewritten is None:
                game = self._game_for_update(db, game_id)
                rewritten = update_game(db, game, version=game[9] + 1, **changes)
            assert rewritten is not None  # only a rewrite with `expect` finds nothing to rewrite
            self._written[game_id] = rewritten
            version = game[9] + 1
            if seq < game[8]:  # undone moves lie at seq and past it: the new move makes them un-redoable
                db.execute("DELETE FROM moves WHERE game_id = ? AND seq >= ? AND undone = 1", (game_id, seq))
            values = normal_row(
                MOVE_COLUMNS,
                (game_id, seq, json.dumps(action), json.dumps(list(events)), json.dumps(list(draws)), now, 0, version),
            )
            db.execute(_INSERT_MOVE, (*values, row_checksum("moves", values)))
            # in the same transaction: the tallies never miss a move
            tally.keep(db, game[1], events, +1, written=self._tallied)
            tally.keep_wins(db, game[1], game[6], outcome, version=version)
        if outcome is not None or self._clock() - self._last_backup >= BACKUP_EVERY:
            self.backup()

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
            game = self._game_for_update(db, game_id)
            version = game[9] + 1
            row = db.execute(
                f"SELECT {MOVE_NAMES}, checksum FROM moves WHERE game_id = ? AND seq = ?", (game_id, seq)
            ).fetchone()
            move = valid_row("moves", MOVE_COLUMNS, row) if row else None
            if move is None:
                raise NotSaved("That move could not be found in the games file: nothing was changed.")
            values = (*move[:6], int(undone), version)
            db.execute(
                "UPDATE moves SET undone = ?, version = ?, checksum = ? WHERE game_id = ? AND seq = ?",
                (int(undone), version, row_checksum("moves", values), game_id, seq),
            )
            finished = now if outcome else None
            update_game(
                db, game, elapsed=elapsed, outcome=outcome, finished_at=finished, pending_draws=pending_draws,
                moves=game[8], version=version,
            )  # fmt: skip
            changed = bool(move[6]) != undone  # undone moves are not counted; a redone one counts again
            tally.keep(db, game[1], json.loads(move[3]) if changed else (), -1 if undone else +1, written=self._tallied)
            tally.keep_wins(db, game[1], game[6], outcome, version=version)  # undoing the last move takes its win back

    def save_clock(self, game_id: int, elapsed: float) -> None:
        """Keep the game clock (paused). The version stays: it counts changes to the game, and a backup
        taken just before a pause still holds this very game for salvage."""
        with self._transaction() as db:
            game = self._game_for_update(db, game_id)
            update_game(db, game, elapsed=elapsed)

    def abandon(self, game_id: int, now: float) -> None:
        """Close a game without a result, so it is no longer offered for resume.

        A game that has ended keeps its ending: one ended without a result already is left as it is (a second
        tap), and one with its result is refused (`NotSaved` with a sentence, nothing changed): its winner
        and the wins stay.
        """
        with self._transaction() as db:
            game = self._game_for_update(db, game_id)
            if game[5] is not None:
                if _abandoned(game[6]):
                    return
                raise NotSaved("This game has ended with its result, which stays: it cannot be ended without one.")
            outcome = Outcome((), ABANDONED).to_stored()
            update_game(db, game, outcome=outcome, finished_at=now, version=game[9] + 1)
            tally.keep(db, game[1], written=self._tallied)
            tally.keep_wins(db, game[1], game[6], outcome, version=game[9] + 1)

    def take_back(self, game_id: int) -> None:
        """Open a game ended without a result again, exactly as it was left (its moves, undone ones and all).

        It is unfinished once more, listed for resume; it counted for nobody in the wins, and still does.
        A game that ended with a result is not taken back: `NotSaved` with a sentence, nothing changed.
        """
        with self._transaction() as db:
            game = self._game_for_update(db, game_id)
            if game[5] is None:
                return  # already unfinished (a second tap): nothing to do
            if tally.winners(game[6]) or not _abandoned(game[6]):
                raise NotSaved("Only a game ended without a result can be taken back; this one has its result.")
            update_game(db, game, outcome=None, finished_at=None, version=game[9] + 1)
            tally.keep(db, game[1], written=self._tallied)
            tally.keep_wins(db, game[1], game[6], None, version=game[9] + 1)

    def _game_for_update(self, db: sqlite3.Connection, game_id: int) -> tuple[Any, ...]:
        written = self._written.pop(game_id, None)
        if written is not None:
            # The row this store wrote last, if the file still holds exactly it (the same version and checksum):
            # read back in two columns, not eleven and a checksum. The write that follows rewrites every column.
            mark = db.execute("SELECT version, checksum FROM games WHERE id = ?", (game_id,)).fetchone()
            if mark is not None and mark[0] == written[0][9] and mark[1] == written[1]:
                return written[0]
        row = db.execute(f"SELECT {GAME_NAMES}, checksum FROM games WHERE id = ?", (game_id,)).fetchone()
        game = valid_row("games", GAME_COLUMNS, row) if row else None
        if game is None:
            raise NotSaved(
                "This game's record in the games file is damaged: the move was not saved. "
                "Restart the companion to repair it."
            )
        return game

    # -- backups -------------------------------------------------------------------------------------------------

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

    # -- reading -------------------------------------------------------------------------------------------------

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        if any(type(arg) is int and not -(2**63) <= arg < 2**63 for arg in args):
            return []  # a number no row can hold (SQLite would raise OverflowError binding it): no such row
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as error:
            if is_weather(error, self.path):
                return []
            raise Damaged(str(error)) from error
        except Exception as error:  # a text SQLite gives back that is not UTF-8, a number out of range: damage
            raise Damaged(type(error).__name__) from error

    def _games(self, where: str, args: Sequence[Any] = ()) -> list[GameRecord]:
        out = []
        for row in self._rows(f"SELECT {GAME_NAMES}, checksum FROM games {where}", args):
            values = valid_row("games", GAME_COLUMNS, row)
            if values is None:
                raise Damaged(f"game {row[0]!r} fails its checksum")
            out.append(game_from(values))
        return out

    def _guarded(self, read: Callable[[], Any]) -> Any:
        """Run a read; a damaged row found on the way is salvaged here, at the store's edge, and the read retried."""
        try:
            return read()
        except Exception as damage:  # the store's edge: anything a damaged row or schema makes the reading raise
            self._repair(damage)
        try:
            return read()
        except Exception:
            return None

    def game(self, game_id: int) -> GameRecord | None:
        found = self._guarded(lambda: self._games("WHERE id = ?", (game_id,)))
        return found[0] if found else None

    def unfinished(self) -> GameRecord | None:
        """The most recent game that has not ended, if any (offered for resume)."""
        found = self._guarded(lambda: self._games("WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"))
        return found[0] if found else None

    def unfinished_games(self) -> list[Unfinished]:
        """Every game that has not ended, newest first, with its live moves and when it was last played.

        All of them, for the home screen and `companion play --resume --game ID`: starting a game never hides
        another (issue 14). `unfinished()` stays: the appliance goes back into the most recent one at boot.
        """

        def read() -> list[Unfinished]:
            out = []
            for record in self._games("WHERE finished_at IS NULL ORDER BY id DESC"):
                rows = self._rows("SELECT SUM(undone = 0), MAX(at) FROM moves WHERE game_id = ?", (record.id,))
                moves, last = rows[0] if rows else (0, None)
                out.append(Unfinished(record, int(moves or 0), float(last) if last is not None else record.started_at))
            return out

        return self._guarded(read) or []

    def moves(self, game_id: int) -> list[MoveRecord]:
        """Game `game_id`'s moves in order, undone ones included; every row checked."""

        def read() -> list[MoveRecord]:
            game = self._games("WHERE id = ?", (game_id,))
            rows = self._rows(f"SELECT {MOVE_NAMES}, checksum FROM moves WHERE game_id = ? ORDER BY seq", (game_id,))
            out = []
            for seq, row in enumerate(rows):
                values = valid_row("moves", MOVE_COLUMNS, row)
                if values is None or values[1] != seq:
                    raise Damaged(f"game {game_id} move {seq}")
                out.append(move_from(values))
            if game and len(out) != game[0].moves:
                raise Damaged(f"game {game_id} has {len(out)} of its {game[0].moves} moves")
            return out

        return self._guarded(read) or []

    def move_count(self, game_id: int) -> int:
        """How many moves game `game_id` has, undone ones left out (without reading them)."""
        rows = self._guarded(
            lambda: self._rows("SELECT COUNT(*) FROM moves WHERE game_id = ? AND undone = 0", (game_id,))
        )
        return int(rows[0][0]) if rows else 0

    def finished(self, limit: int | None = 50, offset: int = 0) -> list[GameRecord]:
        """Finished games, newest first (abandoned ones left out): `limit` of them (None: all) after `offset`.

        Only the rows asked for are read and checked, so a page of the history costs the same after 10 games
        as after 10,000.
        """
        order = "ORDER BY finished_at DESC, id DESC"
        page = f"{order} LIMIT {-1 if limit is None else int(limit)} OFFSET {int(offset)}"
        # The page's ids first: sorting only ids, not whole rows, keeps a page cheap with thousands of games.
        where = f"WHERE id IN (SELECT id FROM games WHERE {_FINISHED} {page}) {order}"
        # The SQL leaves abandoned games out too; the checked row has the last word.
        found = self._guarded(lambda: [g for g in self._games(where) if not _abandoned_record(g.outcome)])
        return found or []

    def past(self, limit: int | None = 50, offset: int = 0) -> list[GameRecord]:
        """Every game that has ended, newest first: finished ones and those ended without a result (abandoned).

        What Past games lists: a game ended without a result leaves a trace there, and can be taken back
        (`take_back`). A page costs the same after 10 games as after 10,000, as `finished`.
        """
        order = "ORDER BY finished_at DESC, id DESC"
        page = f"{order} LIMIT {-1 if limit is None else int(limit)} OFFSET {int(offset)}"
        where = f"WHERE id IN (SELECT id FROM games WHERE finished_at IS NOT NULL {page}) {order}"
        return self._guarded(lambda: self._games(where)) or []

    def past_count(self) -> int:
        """How many games `past` pages through (abandoned ones included), without reading them."""
        rows = self._guarded(lambda: self._rows("SELECT COUNT(*) FROM games WHERE finished_at IS NOT NULL"))
        return int(rows[0][0]) if rows else 0

    def finished_count(self) -> int:
        """How many finished games `finished` pages through (abandoned ones left out), without reading them."""
        rows = self._guarded(lambda: self._rows(f"SELECT COUNT(*) FROM games WHERE {_FINISHED}"))
        return int(rows[0][0]) if rows else 0

    def counts(self) -> tuple[int, int]:
        """How many games (of every kind: finished, unfinished, abandoned) and moves the file holds."""
        rows = self._guarded(lambda: self._rows("SELECT COUNT(*), COALESCE(SUM(moves), 0) FROM games"))
        return (int(rows[0][0]), int(rows[0][1])) if rows else (0, 0)

    def win_counts(self) -> dict[str, int]:
        """Games won per player name, over every finished game on this appliance, most first."""
        counts: dict[str, int] = {}
        for wins in self.wins_by_game().values():
            for name, count in wins.items():
                counts[name] = counts.get(name, 0) + count
        return _most_first(counts)

    def wins_by_game(self) -> dict[str, dict[str, int]]:
        """Games won per game and player name over every finished game, most first; games nobody won left out.

        Ties and abandoned games count for nobody; a game won because the others left (reason "left") is a
        win. Read from the running wins tally (`store.tally`): one row per game, however many were played.
        Where that row is missing, damaged or behind, that game's wins are counted again once, and kept.
        """
        try:
            kinds = tally.stamps(self._db)
        except Exception:  # a damaged tally holds nothing the games do not: counted again below
            kinds = {}
        out = {}
        for game, at_stamp in sorted(kinds.items()):
            try:
                wins = tally.current_wins(self._db, game, at_stamp)
            except Exception:
                wins = None
            if wins is None:
                wins = self._count_wins_again(game, at_stamp)
            if wins:
                out[game] = _most_first(wins)
        return out

    def _count_wins_again(self, game: str, at_stamp: int) -> dict[str, int]:
        records = self._guarded(lambda: self._games(f"WHERE game = ? AND {_FINISHED}", (game,))) or []
        wins = tally.count_wins(record.outcome for record in records)
        if not (self._writable and self._saving):
            return wins  # only looking, or moves are not being saved: counted, not kept
        with contextlib.suppress(NotSaved, sqlite3.Error), self._transaction() as db:
            if tally.wins_stamp(db, game) == at_stamp:  # nothing was written meanwhile
                tally.write_wins(db, game, wins, at_stamp)
        return wins

    def dice_stats(self, game: str) -> DiceStats:
        """Dice statistics over every live move of every game of one kind, from the running tally.

        The tally is kept with every move (`store.tally`); where it is missing, damaged or behind (a file made
        before it, a salvaged file), it is counted again from the moves once, and kept from then on.
        """
        try:
            counts = tally.current(self._db, game)
        except Exception:
            counts = None
        if counts is None:
            counts = self._count_dice_again(game)
        return DiceStats.of_tally(counts)

    def _count_dice_again(self, game: str) -> list[int]:
        try:
            before = tally.stamp(self._db, game)
        except Exception:
            before = None
        counts = tally.recount(event for move in self.all_moves(game) for event in move.events)
        if before is None or not (self._writable and self._saving):
            return counts  # only looking, or moves are not being saved: counted, not kept
        with contextlib.suppress(NotSaved, sqlite3.Error), self._transaction() as db:
            if tally.stamp(db, game) == before:  # nothing was written meanwhile
                tally.write(db, game, counts, before)
        return counts

    def all_moves(self, game: str) -> Iterator[MoveRecord]:
        """Every live move of every game of one kind (for whole-appliance statistics)."""
        ids = self._guarded(lambda: [g.id for g in self._games("WHERE game = ? ORDER BY id", (game,))]) or []
        for game_id in ids:
            yield from (m for m in self.moves(game_id) if not m.undone)

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
