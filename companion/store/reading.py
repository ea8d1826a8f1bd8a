"""The `Store`'s reading: games and moves, every row checked, a damaged one salvaged at the store's edge."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from companion.store.base import FINISHED, StoreBase, is_abandoned_record
from companion.store.files import is_weather
from companion.store.rows import (
    GAME_COLUMNS,
    GAME_NAMES,
    MOVE_COLUMNS,
    MOVE_NAMES,
    Damaged,
    GameRecord,
    MoveRecord,
    game_from,
    move_from,
    valid_row,
)


class Unfinished(NamedTuple):
    """An unfinished game as the home screen lists it: its record, live moves, and the time of its last move."""

    record: GameRecord
    moves: int
    last_played: float
    """When its last move was made (when it started, if it has none yet)."""


class Reading(StoreBase):
    """One game, its moves, the unfinished games, the pages of past games and the counts."""

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        if any(type(arg) is int and not -(2**63) <= arg < 2**63 for arg in args):
            return []  # a number no row can hold (SQLite would raise OverflowError binding it): no such row
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as error:
            if is_weather(error, self.path):  # pragma: no cover - an I/O error reading the card: hardware only
                return []
            raise Damaged(str(error)) from error  # a text that is not UTF-8 too: Python's sqlite3 says so this way

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
        where = f"WHERE id IN (SELECT id FROM games WHERE {FINISHED} {page}) {order}"
        # The SQL leaves abandoned games out too; the checked row has the last word.
        found = self._guarded(lambda: [g for g in self._games(where) if not is_abandoned_record(g.outcome)])
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
        rows = self._guarded(lambda: self._rows(f"SELECT COUNT(*) FROM games WHERE {FINISHED}"))
        return int(rows[0][0]) if rows else 0

    def counts(self) -> tuple[int, int]:
        """How many games (of every kind: finished, unfinished, abandoned) and moves the file holds."""
        rows = self._guarded(lambda: self._rows("SELECT COUNT(*), COALESCE(SUM(moves), 0) FROM games"))
        return (int(rows[0][0]), int(rows[0][1])) if rows else (0, 0)

    def all_moves(self, game: str) -> Iterator[MoveRecord]:
        """Every live move of every game of one kind (for whole-appliance statistics)."""
        ids = self._guarded(lambda: [g.id for g in self._games("WHERE game = ? ORDER BY id", (game,))]) or []
        for game_id in ids:
            yield from (m for m in self.moves(game_id) if not m.undone)
