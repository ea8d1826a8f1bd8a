"""The `Store`'s writing: one checked transaction per action, and saving again once the card can be written."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from companion.game import ABANDONED, Outcome
from companion.store import tally
from companion.store.backing_up import BACKUP_EVERY, Backups
from companion.store.base import NotSaved, is_abandoned, log
from companion.store.files import StoreRefused, Weather, WriterLock, identify, is_weather, sidecar, weather_sentence
from companion.store.opening import open_writable
from companion.store.rows import (
    GAME_COLUMNS,
    GAME_NAMES,
    MOVE_COLUMNS,
    MOVE_NAMES,
    insert_game,
    normal_row,
    row_checksum,
    update_game,
    valid_row,
)

_INSERT_MOVE = f"INSERT INTO moves ({MOVE_NAMES}, checksum) VALUES ({', '.join('?' * 9)})"


class Writing(Backups):
    """New games, moves, undo and redo, the clock, abandoning and taking back: each one transaction."""

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
                # SQLite may have rolled back by itself already (a full card, an I/O error): the first error stays
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except NotSaved:
            self._forget_written()
            raise
        except Exception as error:  # the store's edge: weather only when the system says so, else damage
            self._forget_written()
            with contextlib.suppress(Exception):  # a COMMIT that failed; mostly SQLite has rolled back already
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
            # the table plays on in memory, as since opening: the sentence says so, not "this move was not saved"
            self._not_saving(weather_sentence(error, self.path, opening=True))
            return
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._db, self._lock, self._saving = connection, lock, True
        self._forget_written()
        self.problem = None
        self.notice = notice or "The games file can be written again: everything played meanwhile is saved now."
        log.info("games file %s: %s", self._where, self.notice)

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
                if is_abandoned(game[6]):
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
            if tally.winners(game[6]) or not is_abandoned(game[6]):
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
