"""Damage: every good row from every readable page (and the backups), settled into games, said in one sentence."""

from __future__ import annotations

import hashlib
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.store.files import (
    StoreRefused,
    backups,
    connect_wal,
    create_file,
    identify,
    move_aside,
    move_back,
    read_bytes,
)
from companion.store.pages import Record, check_wal, checkpointed, records
from companion.store.rows import (
    APPLICATION_ID,
    GAME_COLUMNS,
    GAME_NAMES,
    MOVE_COLUMNS,
    MOVE_NAMES,
    SCHEMA_VERSION,
    Damaged,
    describe,
    fresh_memory_db,
    is_abandoned,
    memory_db,
    migrate,
    newer_than_us,
    normal_row,
    plural,
    row_checksum,
    schema_problem,
    valid_row,
)


@dataclass
class Survey:
    """Rows gathered from a damaged file and its backups, the best version of each, and what was lost."""

    games: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # id -> values (with the newest version)
    moves: dict[tuple[int, int], tuple[Any, ...]] = field(default_factory=dict)  # values and their checksum
    backups: list[tuple[dict[int, tuple[Any, ...]], dict[tuple[int, int], tuple[Any, ...]]]] = field(
        default_factory=list
    )  # newest first
    from_backup: set[int] = field(default_factory=set)  # games whose own row came back from a backup
    moves_from_backup: set[tuple[int, int]] = field(default_factory=set)
    lost: dict[int, int] = field(default_factory=dict)  # id -> moves lost
    kept: dict[int, int] = field(default_factory=dict)  # id -> moves kept
    lost_games: int = 0
    orphan_moves: int = 0
    backup_times: list[float] = field(default_factory=list)  # each backup's time, as `backups`
    restored_at: float | None = None  # the newest backup a game's own row came back from

    def add(self, db: bytes) -> None:
        """Every row of a picture of the damaged file that still checks out; of two versions, the newer."""
        games, moves = _good_rows(db)
        for gid, game in games.items():
            if gid not in self.games or game[9] > self.games[gid][9]:
                self.games[gid] = game
        for key, move in moves.items():
            if key not in self.moves or move[7] > self.moves[key][7]:
                self.moves[key] = move

    def add_backup(self, db: bytes, when: float) -> None:
        self.backups.append(_good_rows(db))
        self.backup_times.append(when)

    def settle(self) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """Each game kept up to its last good move; the rows to write, checksummed.

        A backup fills a gap only where it is certain to say the same: a game the file lost entirely, or a
        move of a game whose record in that backup has the very version the file's record has.
        """
        for (backup_games, _moves), when in zip(self.backups, self.backup_times, strict=True):
            for gid, game in backup_games.items():
                if gid not in self.games:
                    self.games[gid] = game
                    self.from_backup.add(gid)
                    self.restored_at = max(self.restored_at or when, when)
        highest: dict[int, int] = {}
        for gid, seq in self.moves:
            highest[gid] = max(highest.get(gid, 0), seq + 1)
        self.lost_games = len(set(highest) - set(self.games))
        self.orphan_moves = sum(1 for gid, _ in self.moves if gid not in self.games)
        games_out: list[tuple[Any, ...]] = []
        moves_out: list[tuple[Any, ...]] = []
        for gid, game in sorted(self.games.items()):
            kept = 0
            while self._move(gid, kept, game):
                kept += 1
            self.kept[gid] = kept
            if game[8] > kept:
                self.lost[gid] = game[8] - kept
                if not is_abandoned(game[6]):
                    # Its result, and the dice its undone moves left, belonged to moves that are gone: the game
                    # is open again at its last good move, and is offered for resume.
                    game = (*game[:5], None, None, "[]", *game[8:])
            values = normal_row(GAME_COLUMNS, (*game[:8], kept, game[9] + 1))
            games_out.append((*values, row_checksum("games", values)))
            moves_out.extend(self.moves[(gid, seq)] for seq in range(kept))
        return games_out, moves_out

    def _move(self, gid: int, seq: int, game: tuple[Any, ...]) -> bool:
        key = (gid, seq)
        if key in self.moves:
            # Past the game's own count, only a move newer than the game's record is real (the record is then
            # the stale one); an older one is an undone move that a later action deleted.
            return bool(seq < game[8] or self.moves[key][7] > game[9])
        for backup_games, backup_moves in self.backups:
            if key in backup_moves and gid in backup_games and backup_games[gid][9] == game[9]:
                self.moves[key] = backup_moves[key]
                self.moves_from_backup.add(key)
                return True
        return False

    def sentence(self, path: Path, *, kept_aside: Path | None) -> str:
        """One sentence: where the damaged file is, and how many moves of which games were kept and lost."""
        if kept_aside is not None:
            head = f"The games file {path.name} was damaged; it was kept aside as {kept_aside.name}, and "
        else:
            head = f"The games file {path.name} is damaged (it was left as it is for the app to repair); "
        return head + self.summary("were kept" if kept_aside else "could be read") + "."

    def summary(self, kept: str) -> str:
        """'2 games with 61 moves <kept>, 1 lost (Quin with Ann and Bo lost its last move)'.

        Every loss it can see is counted, unfinished games' too: moves cut from a game, moves whose game's
        record is gone. What a backup brought back says when that backup was made: whatever was played after
        it (finished or not) left no trace to count, and the sentence says so rather than "0 lost".
        """
        if not self.games:
            return "no game could be read from it"
        lost = sum(self.lost.values()) + self.orphan_moves
        details = []
        for gid, count in sorted(self.lost.items())[:3]:
            game = self.games[gid]
            last = "move" if count == 1 else plural(count, "move")  # "its last move", never "its last 1 move"
            details.append(f"{describe(game[1], game[2])} lost its last {last}")
        if len(self.lost) > 3:
            details.append(f"{len(self.lost) - 3} more games lost moves")
        if self.lost_games:
            details.append(
                f"{plural(self.lost_games, 'game')} with {plural(self.orphan_moves, 'move')} could not be read at all"
            )
        if self.from_backup:
            details.append(
                f"{plural(len(self.from_backup), 'game')} came back from a backup{self.made()}: whatever was "
                "played after it, finished or not, is lost and could not be counted"
            )
        restored = sum(1 for gid, seq in self.moves_from_backup if seq < self.kept.get(gid, 0))
        if restored and not self.from_backup:
            details.append(f"{plural(restored, 'move')} came back from a backup")
        tail = f" ({'; '.join(details)})" if details else ""
        moves = sum(self.kept.values())
        kept = f" {kept}" if kept else ""
        counted = f", {lost:,} lost" if lost or not self.from_backup else ""
        return f"{plural(len(self.games), 'game')} with {plural(moves, 'move')}{kept}{counted}{tail}"

    def made(self) -> str:
        """When the newest backup that brought a game back was made, as in " made 26 Nov at 14:02"."""
        assert self.restored_at is not None, "said only of games a backup brought back"
        return time.strftime(" made %d %b at %H:%M", time.localtime(self.restored_at))


_Rows = tuple[dict[int, tuple[Any, ...]], dict[tuple[int, int], tuple[Any, ...]]]


def _good_rows(db: bytes) -> _Rows:
    """Every game and move row on any page of `db` whose checksum holds; of two versions, the newer.

    Remembered for the last few pictures read (by their digest): `companion check` and the repair at the next
    opening read the same file and the same backups, and a backup is read at every salvage until the next one.
    The dicts are shared: callers copy what they change.
    """
    key = (len(db), hashlib.blake2b(db, digest_size=16).digest())
    found = _read_rows.get(key)
    if found is None:
        found = _read_rows[key] = _rows_of(db)
        while len(_read_rows) > _ROWS_KEPT:
            del _read_rows[next(iter(_read_rows))]
    return found


_ROWS_KEPT = 4
_read_rows: dict[tuple[int, bytes], _Rows] = {}


def _rows_of(db: bytes) -> _Rows:
    games, moves, whole = _through_sqlite(db)

    def known(first: Record, last: Record) -> bool:
        # an index page of moves whose games SQLite read whole: nothing on it is not known already
        low, high = first.values[0], last.values[0]
        return (
            type(low) is int
            and type(high) is int
            and 0 <= high - low < 64
            and all(gid in whole for gid in range(low, high + 1))
        )

    for record in records(db, known=known if whole else None):
        if record.rowid is not None and len(record.values) == len(GAME_COLUMNS) + 1:
            # the id is the rowid: SQLite stores NULL in its place in the record
            values = valid_row("games", GAME_COLUMNS, (record.rowid, *record.values[1:]))
            if values is not None and (values[0] not in games or values[9] > games[values[0]][9]):
                games[values[0]] = values
        elif record.rowid is None and len(record.values) == len(MOVE_COLUMNS) + 1:
            values = valid_row("moves", MOVE_COLUMNS, record.values)
            key = (values[0], values[1]) if values is not None else None
            if values is not None and key is not None and (key not in moves or values[7] > moves[key][7]):
                moves[key] = (*values, record.values[-1])  # its checksum kept: settling writes it as it is
    return games, moves


def _through_sqlite(db: bytes) -> tuple[dict[int, tuple[Any, ...]], dict[tuple[int, int], tuple[Any, ...]], set[int]]:
    """The games SQLite itself can read whole from `db` (their record and every move up to its count, each row's
    checksum holding): SQLite walks the b-trees a hundred times quicker than reading every page in Python does,
    and the pages holding only these games' moves need not be read again. A game it cannot read whole (a damaged
    page on its way, a row that fails its checksum) is left to the page-by-page reading. Nothing raises.
    """
    games: dict[int, tuple[Any, ...]] = {}
    moves: dict[tuple[int, int], tuple[Any, ...]] = {}
    whole: set[int] = set()
    try:
        with closing(memory_db()) as connection:
            connection.deserialize(db)
            for row in connection.execute(f"SELECT {GAME_NAMES}, checksum FROM games"):
                values = valid_row("games", GAME_COLUMNS, row)
                if values is not None:
                    games[values[0]] = values
            query = f"SELECT {MOVE_NAMES}, checksum FROM moves WHERE game_id = ?"
            for gid, game in games.items():
                found: dict[tuple[int, int], tuple[Any, ...]] = {}
                try:
                    for row in connection.execute(query, (gid,)):
                        values = valid_row("moves", MOVE_COLUMNS, row)
                        if values is None:
                            break
                        found[(gid, values[1])] = (*values, row[-1])
                    else:
                        if all((gid, seq) in found for seq in range(game[8])):
                            moves.update(found)
                            whole.add(gid)
                except Exception:  # a damaged page on this game's way: read page by page
                    continue
    except Exception:  # SQLite cannot read the picture at all (its header, its schema): page by page
        return {}, {}, set()
    return games, moves, whole


def _survey(path: Path) -> Survey:
    survey = Survey()
    try:
        db, wal = read_bytes(path)
    except OSError:
        db, wal = b"", None
    survey.add(checkpointed(db, wal))
    report = check_wal(wal) if wal is not None else None
    if wal is not None and report is not None and report.damaged:
        # Also the pictures without the frames that fail their checksums, and as SQLite itself sees it (up
        # to the first bad frame): where a bad frame held the only copy of a row's newest version, an earlier
        # copy of its page still holds an older version, and the newest that checks out is kept.
        survey.add(checkpointed(db, wal, unsound=False))
        page_size = int.from_bytes(wal[8:12], "big")
        if page_size in {1 << n for n in range(9, 17)}:
            survey.add(checkpointed(db, wal[: 32 + report.replayed * (24 + page_size)]))
    _add_backups(survey, path)
    return survey


def _add_backups(survey: Survey, path: Path) -> None:
    for copy in backups(path):
        try:
            survey.add_backup(copy.read_bytes(), copy.stat().st_mtime)
        except OSError:
            continue


def restore_from_backups(path: Path) -> str | None:
    """The games file at `path` is missing: make it again from its backups (never over a file); the sentence
    saying so, or None when no backup holds a game (nothing is made then)."""
    survey = Survey()
    _add_backups(survey, path)
    games, moves = survey.settle()
    if not games:
        return None
    create_file(path, games, moves)
    return (
        f"The games file {path.name} was missing: it was restored from its backups{survey.made()}, "
        f"{plural(len(games), 'game')} with {plural(len(moves), 'move')}; whatever was played after that backup, "
        "finished or not, is lost and could not be counted."
    )


def salvage_into_memory(path: Path) -> tuple[sqlite3.Connection, Survey]:
    survey = _survey(path)
    games, moves = survey.settle()
    connection = fresh_memory_db()
    connection.execute("BEGIN")
    connection.executemany(f"INSERT INTO games ({GAME_NAMES}, checksum) VALUES ({', '.join('?' * 11)})", games)
    connection.executemany(f"INSERT INTO moves ({MOVE_NAMES}, checksum) VALUES ({', '.join('?' * 9)})", moves)
    connection.execute("COMMIT")
    return connection, survey


def salvage_file(path: Path, *, why: str = "damaged", reason: str = "") -> tuple[sqlite3.Connection, str]:
    """Keep the damaged file aside, write every good row into a fresh file under its name, and say what happened."""
    survey = _survey(path)
    games, moves = survey.settle()
    aside = move_aside(path, why)
    try:
        create_file(path, games, moves)
    except BaseException:
        move_back(aside, path)  # a card too full for the mended file: the damaged one stays under its name
        raise
    connection = connect_wal(path, 2.0)
    if why == "newer":
        sentence = (
            f"The games file {path.name} {reason}; it was kept aside as {aside.name}, "
            f"and the {len(games)} games this version can read were copied from it."
        )
    else:
        sentence = survey.sentence(path, kept_aside=aside)
    return connection, sentence


# -- companion check -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckReport:
    """What `check` found: one sentence per problem, what salvage would keep, and the exit status."""

    problems: tuple[str, ...]
    salvage: str = ""
    status: int = 0  # 0 healthy, 1 damage found, 2 the file cannot be read at all

    def lines(self) -> list[str]:
        return [*self.problems, *([self.salvage] if self.salvage else [])]


def check(path: str | Path) -> CheckReport:
    """Verify every game and move in the games file at `path` without changing anything."""
    try:
        real = identify(Path(path))
        if real is None:
            return CheckReport((f"There is no games file at {path}.",), status=2)
        path = real
        db, wal = read_bytes(path)
    except StoreRefused as refused:
        return CheckReport((str(refused),), status=2)
    except OSError as error:
        return CheckReport((f"{path} cannot be read ({error.strerror}).",), status=2)
    problems: list[str] = []
    report = check_wal(wal) if wal else None
    if report is not None and report.damaged:
        problems.append(
            f"The write-ahead log {path.name}-wal is damaged: SQLite would drop {report.lost_commits} saved "
            f"change{'s' if report.lost_commits != 1 else ''} after it ({report.detail})."
        )
    with closing(memory_db()) as connection:
        connection.deserialize(checkpointed(db, wal))  # never raises: SQLite reads the bytes only when asked
        problems.extend(verify_all(connection))  # nor this: whatever SQLite answers is a sentence
    if not problems:
        return CheckReport(())
    survey = _survey(path)
    survey.settle()
    if not survey.games:
        return CheckReport((*problems, "No game can be read from it."), status=2)
    return CheckReport(tuple(problems), f"Salvage would keep {survey.summary('')}.", 1)


def verify_all(connection: sqlite3.Connection) -> list[str]:
    """Every check there is, every row read: one sentence per problem (nothing when the file is healthy)."""
    problems: list[str] = []
    try:
        try:
            newer = newer_than_us(connection)
        except Damaged:
            newer = None
            problems.append("Its header names a schema this version does not know, on tables it does: it is damaged.")
        if newer is not None:
            return [f"It was written by a newer version of Tabletop Companion (schema {newer})."]
        quick = [row[0] for row in connection.execute("PRAGMA quick_check(5)")]
        if quick != ["ok"]:
            problems.append(f"SQLite finds its pages damaged ({quick[0]}).")
            return problems
        if connection.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
            migrate(connection)  # an older file is checked as the companion will convert it
        else:
            schema = schema_problem(connection)
            if schema is not None:
                problems.append(f"Its schema (the tables' own definitions) is damaged: {schema}.")
                return problems
            if connection.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                problems.append("Its stamp (the application id in its header) is damaged.")
        games: dict[int, tuple[Any, ...]] = {}
        for row in connection.execute(f"SELECT {GAME_NAMES}, checksum FROM games"):
            values = valid_row("games", GAME_COLUMNS, row)
            if values is None:
                problems.append(f"Game {row[0]} is damaged.")
            else:
                games[values[0]] = values
        seen: dict[int, int] = {}
        damaged: set[Any] = set()
        for row in connection.execute(f"SELECT {MOVE_NAMES}, checksum FROM moves ORDER BY game_id, seq"):
            values = valid_row("moves", MOVE_COLUMNS, row)
            if values is None:
                damaged.add(row[0])
                name = describe(games[row[0]][1], games[row[0]][2]) if row[0] in games else f"game {row[0]}"
                problems.append(f"Move {row[1] + 1 if isinstance(row[1], int) else '?'} of {name} is damaged.")
                continue
            seen[values[0]] = seen.get(values[0], 0) + 1
        for gid, game in games.items():
            if seen.get(gid, 0) < game[8] and gid not in damaged:
                missing = game[8] - seen.get(gid, 0)
                problems.append(
                    f"{describe(game[1], game[2])} (game {gid}) is missing {missing} of its {game[8]} moves."
                )
    except Exception as error:  # the store's edge: whatever SQLite (or decoding its answer) raises is damage
        problems.append(_unreadable(error))
    return problems


def _unreadable(error: Exception) -> str:
    if isinstance(error, sqlite3.Error):
        return f"SQLite cannot read it ({error})."
    # a decoding error's own words quote raw bytes: the sentence names what kind of answer it was
    return f"SQLite's answer about it cannot be read: it is damaged ({type(error).__name__})."
