"""The games file keeps every acknowledged move: crashes, a second writer, files that are not ours, damage.

The card's weather (full, read-only) is in `test_store_weather.py`; the
campaign of flipped bits in `test_store_faults.py`.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import stat
import subprocess
import time
from pathlib import Path

import pytest

from companion import codec
from companion.dice import RandomDice
from companion.game import Options
from companion.session import MOVE_CLOCK, Session
from companion.store import APPLICATION_ID, SCHEMA_VERSION, Store, StoreInUse, StoreRefused, backups, check, tally
from tests.support import store_writer


def test_wal_and_full_sync_are_in_force(tmp_path):
    with Store.open(tmp_path / "g.db") as store:
        db = store._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_the_file_is_stamped_as_ours_and_only_for_its_owner(tmp_path, tiny):
    path = tmp_path / "games.db"
    old = os.umask(0o022)  # even where the umask would let others read, Quin's identities stay private
    try:
        with Store.open(path) as store:
            session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=1))
            session.act({"type": "roll", "player": "Ann"})  # a finished game: a backup too
            made = sorted(p for p in tmp_path.rglob("*") if p.is_file())
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in made}
    finally:
        os.umask(old)
    assert {"games.db", "games.db-wal", "games.db-shm", "games.db.lock"} <= set(modes)
    assert any(name.startswith("games-") for name in modes), "a backup"
    assert all(mode == 0o600 for mode in modes.values()), modes
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


@pytest.mark.slow
def test_sigkill_never_loses_an_acknowledged_move(tmp_path, tiny):
    """Kill a writer at random moments, 50 times; every acknowledged move must be there, in order."""
    path = tmp_path / "games.db"
    rng = random.Random(2026)
    acknowledged = 0
    for _ in range(50):
        child = store_writer.spawn(path, "--forever", stdout=subprocess.PIPE, env=os.environ.copy())
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + rng.uniform(0.0, 0.08)
        while time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            acknowledged = max(acknowledged, int(line))
        child.send_signal(signal.SIGKILL)
        # moves the child printed before dying count as acknowledged too
        for line in child.stdout.read().split():
            acknowledged = max(acknowledged, int(line))
        child.wait()

        with Store.open(path) as store:
            assert store.notice is None
            record = store.unfinished()
            assert record is not None
            moves = store.moves(record.id)
            assert [m.seq for m in moves] == list(range(len(moves))), "moves are in order, none missing"
            assert len(moves) >= acknowledged, f"lost acknowledged moves: {len(moves)} < {acknowledged}"
            for move in moves:
                assert move.action["type"] == "roll" and len(move.action["note"]) == 2000
                assert 1 <= move.events[0]["value"] <= 6
            # and the session folds them without complaint
            resumed = Session.load(store, record.id)
            assert len(resumed.moves) == len(moves)
        # The dice tally is written in each move's own transaction: a kill never leaves it behind its moves.
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            kept = tally.current(db, "tiny")
        finally:
            db.close()
        assert kept == tally.recount(e for m in moves if not m.undone for e in m.events), "tally behind its moves"
    assert acknowledged > 50, "the writer should have made real progress"


class Holder:
    """A companion in another process holding the games file open (`tests.support.store_writer`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.process = store_writer.spawn(path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=os.environ.copy())
        assert self.ask_line() == "ready"

    def ask_line(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def order(self, text: str) -> str:
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        return self.ask_line()

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


def test_a_second_writer_is_refused_at_once_and_the_first_loses_nothing(tmp_path, tiny):
    path = tmp_path / "games.db"
    holder = Holder(path)
    try:
        assert holder.order("act 20") == "20"
        # StoreInUse comes from the writer lock, which never waits: not from SQLite's busy timeout
        with pytest.raises(StoreInUse, match=rf"Another Tabletop Companion \(process {holder.process.pid}\)"):
            Store.open(path, busy_timeout=60)
        with Store.read(path) as looking:  # a reader is welcome, and sees the writer's moves
            record = looking.unfinished()
            assert record is not None and len(looking.moves(record.id)) == 20
            assert looking.notice is None
        assert holder.order("act 10") == "30"
    finally:
        holder.kill()
    with Store.open(path) as store:
        record = store.unfinished()
        assert record is not None and len(store.moves(record.id)) == 30
    assert sorted(p.name for p in tmp_path.iterdir() if "damaged" in p.name) == []


def test_one_process_cannot_write_through_two_stores(tmp_path):
    with Store.open(tmp_path / "games.db"), pytest.raises(StoreInUse):
        Store.open(tmp_path / "games.db")


def _not_ours(kind: str, path: Path) -> None:
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "text file":
        path.write_text('{"type": "roll"}\n' * 50)
    elif kind == "empty file":
        path.write_bytes(b"")
    elif kind == "dangling link":
        path.symlink_to(path.with_name("nowhere.db"))
    elif kind == "device":
        path.symlink_to("/dev/null")
    elif kind == "someone else's SQLite file":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE games (name TEXT)")
        db.execute("INSERT INTO games VALUES ('chess')")
        db.commit()
        db.close()


def _picture_of(folder: Path) -> dict[str, tuple[int, int, bytes | str]]:
    """Every entry of `folder` as it is: its type, size and content (or link target)."""
    out = {}
    for entry in sorted(folder.iterdir()):
        info = os.lstat(entry)
        if stat.S_ISLNK(info.st_mode):
            content: bytes | str = os.readlink(entry)
        elif stat.S_ISREG(info.st_mode):
            content = entry.read_bytes()
        else:
            content = ""
        out[entry.name] = (stat.S_IFMT(info.st_mode), info.st_size if stat.S_ISREG(info.st_mode) else 0, content)
    return out


NOT_OURS = ["folder", "fifo", "text file", "empty file", "dangling link", "device", "someone else's SQLite file"]


@pytest.mark.parametrize("kind", NOT_OURS)
def test_what_is_not_our_file_is_refused_with_a_sentence_and_left_as_it_is(tmp_path, kind):
    path = tmp_path / "notes.jsonl"
    _not_ours(kind, path)
    before = _picture_of(tmp_path)
    for opening in (Store.open, Store.read):
        with pytest.raises(StoreRefused) as refused:
            opening(path)
        sentence = str(refused.value)
        assert sentence.endswith(".") and "\n" not in sentence and str(path) in sentence
    report = check(path)
    assert report.status == 2 and len(report.problems) == 1
    assert _picture_of(tmp_path) == before, "nothing renamed, truncated, replaced or added"


def test_a_link_to_our_file_is_followed_and_the_link_kept(tmp_path, tiny):
    real = tmp_path / "cards" / "games.db"
    Store.open(real).close()
    link = tmp_path / "games.db"
    link.symlink_to(real)
    with Store.open(link) as store:
        Session.start(store, "tiny", Options.for_names("Ann", "Bo")).act({"type": "pass", "player": "Ann"})
    assert link.is_symlink() and real.is_file()
    with Store.open(link) as store:
        assert store.unfinished() is not None


# -- damage ---------------------------------------------------------------------------------------------------


def _many_games(path: Path, games: int = 40, moves: int = 30) -> dict[int, list[dict]]:
    """Finished and unfinished games of the tiny game; returns each game's actions, by id."""
    from tests.support.tinygame import registered

    registered()
    played: dict[int, list[dict]] = {}
    with Store.open(path) as store:
        for number in range(games):
            target = 10**9 if number % 3 else 40
            session = Session.start(
                store, "tiny", Options.for_names(f"Ann{number}", "Bo", target=target), dice=RandomDice.seeded(number)
            )
            for _ in range(moves):
                if session.outcome is not None:
                    break
                session.act({"type": "roll", "player": session.current_player, "note": "n" * 200})
            # as stored: each action with the game clock it was made at (issue 27)
            played[session.game_id] = [{**codec.to_json(m.action), MOVE_CLOCK: m.clock} for m in session.moves]
    return played


def _kept_prefixes(store: Store, played: dict[int, list[dict]]) -> int:
    """Every game kept is one that was played, and each kept its moves up to its last good one; moves kept."""
    kept = 0
    for game_id, actions in played.items():
        record = store.game(game_id)
        if record is None:
            continue
        moves = [m.action for m in store.moves(game_id)]
        assert moves == actions[: len(moves)], f"game {game_id}: kept moves are the first ones, unchanged"
        kept += len(moves)
    return kept


def _aside(folder: Path, why: str = "damaged") -> list[Path]:
    return sorted(p for p in folder.iterdir() if f".{why}-" in p.name and not p.name.endswith(("-wal", "-shm")))


def test_half_a_file_keeps_every_game_on_the_pages_that_are_left(tmp_path, tiny):
    path = tmp_path / "games.db"
    played = _many_games(path)
    total = sum(len(a) for a in played.values())
    with open(path, "r+b") as handle:
        handle.truncate(path.stat().st_size // 2)
    with Store.open(path) as store:
        assert store.notice is not None and "kept aside" in store.notice and "lost" in store.notice
        kept = _kept_prefixes(store, played)
    assert kept > total * 0.3, f"only {kept} of {total} moves kept from half a file"
    assert len(_aside(tmp_path)) == 1


@pytest.mark.parametrize("where", ["page 1", "the last page", "a page in the middle"])
def test_a_smashed_page_keeps_the_rest(tmp_path, tiny, where):
    path = tmp_path / "games.db"
    played = _many_games(path)
    total = sum(len(a) for a in played.values())
    data = bytearray(path.read_bytes())
    page = 4096
    start = {"page 1": 100, "the last page": len(data) - page, "a page in the middle": (len(data) // page // 2) * page}[
        where
    ]
    data[start : start + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))
    with Store.open(path) as store:
        assert store.notice is not None and "kept aside" in store.notice
        kept = _kept_prefixes(store, played)
    assert kept > total * 0.8, f"only {kept} of {total} moves kept after smashing {where}"


def test_a_flipped_bit_in_a_move_is_caught_when_read_and_the_game_kept_to_its_last_good_move(tmp_path, tiny):
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
        for n in range(20):
            session.act({"type": "roll", "player": session.current_player, "note": f"move-number-{n:03d}"})
    data = bytearray(path.read_bytes())
    at = data.index(b"move-number-012")
    data[at + 5] ^= 0x04
    path.write_bytes(bytes(data))
    with Store.open(path) as store:
        assert store.notice is None, "the rows are checked when read, not all at opening"
        resumed = Session.resume(store)
        assert resumed is not None and len(resumed.moves) == 12
        assert store.notice is not None and "lost its last 8 moves" in store.notice
        assert "Tiny with Ann and Bo" in store.notice
        resumed.act({"type": "roll", "player": resumed.current_player})  # and play goes on in the fresh file
    assert len(_aside(tmp_path)) == 1
    with Store.open(path) as store:
        assert store.notice is None and len(store.moves(session.game_id)) == 13


def test_a_newer_schema_is_kept_aside_with_its_rows_copied(tmp_path, tiny):
    path = tmp_path / "games.db"
    played = _many_games(path, games=3, moves=10)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE dice_tallies (game TEXT, face INTEGER, count INTEGER)")  # what a newer app might add
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with Store.open(path) as store:
        assert store.notice is not None and "newer version" in store.notice
        assert _kept_prefixes(store, played) == sum(len(a) for a in played.values())
    assert _aside(tmp_path, "newer")


def test_a_schema_1_file_is_converted_in_place_with_nothing_lost(tmp_path):
    path = tmp_path / "games.db"
    db = sqlite3.connect(path)
    db.executescript(
        """
        PRAGMA journal_mode=WAL;
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,
            started_at REAL NOT NULL, elapsed REAL NOT NULL DEFAULT 0, finished_at REAL, outcome TEXT,
            pending_draws TEXT NOT NULL DEFAULT '[]');
        CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
            action TEXT NOT NULL, events TEXT NOT NULL, draws TEXT NOT NULL, at REAL NOT NULL,
            undone INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (game_id, seq));
        PRAGMA user_version = 1;
        """
    )
    options = json.dumps(Options.for_names("Ann", "Bo").to_json())
    db.execute("INSERT INTO games (game, options, started_at) VALUES ('quintet', ?, 100)", (options,))
    for seq in range(5):
        db.execute(
            "INSERT INTO moves VALUES (1, ?, ?, '[]', '[[6, 3]]', 101, ?)",
            (seq, json.dumps({"type": "x", "n": seq}), int(seq == 4)),
        )
    db.commit()
    db.close()
    with Store.read(path) as looking:  # the history reads it as it is, converting only its copy
        assert looking.notice is None and len(looking.moves(1)) == 5
    with Store.open(path) as store:
        assert store.notice is None
        moves = store.moves(1)
        assert [m.action["n"] for m in moves] == [0, 1, 2, 3, 4] and moves[-1].undone
        assert moves[0].draws == [(6, 3)]
    assert check(path).status == 0
    assert not _aside(tmp_path)


def test_backups_after_a_finished_game_rotated_and_private(tmp_path, tiny):
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        for n in range(7):
            session = Session.start(store, "tiny", Options.for_names("Ann", f"Bo{n}", target=1))
            session.act({"type": "roll", "player": "Ann"})
            time.sleep(0.01)
        assert store.backup_dir == tmp_path / "backups"
    kept = backups(path)
    assert 1 <= len(kept) <= 5
    for copy in kept:
        assert stat.S_IMODE(copy.stat().st_mode) & 0o077 == 0
        assert check(copy).status == 0
    with Store.read(kept[0]) as newest:
        assert len(newest.finished()) == 7


def test_a_backup_every_ten_minutes_of_play(tmp_path, tiny):
    now = [1000.0]
    path = tmp_path / "games.db"
    with Store.open(path, clock=lambda: now[0]) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
        session.act({"type": "roll", "player": "Ann"})
        assert backups(path) == []
        now[0] += 601
        session.act({"type": "roll", "player": "Bo"})
        assert len(backups(path)) == 1
        with Store.read(backups(path)[0]) as copy:
            assert len(copy.moves(session.game_id)) == 2


def test_the_newest_backup_stands_in_for_a_file_beyond_repair(tmp_path, tiny):
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=1))
        session.act({"type": "roll", "player": "Ann"})  # a finished game: backed up
    data = bytearray(path.read_bytes())
    data[100:] = bytes(len(data) - 100)  # every page but the stamp gone
    path.write_bytes(bytes(data))
    with Store.open(path) as store:
        assert store.notice is not None and "came back from a backup" in store.notice
        assert store.win_counts() == {"Ann": 1}


def test_a_flipped_bit_in_the_wal_loses_no_acknowledged_move(tmp_path, tiny):
    """SQLite stops replaying a WAL at the first frame that fails its checksum, silently; we do not."""
    path = tmp_path / "games.db"
    holder = Holder(path)
    assert holder.order("act 300") == "300"
    holder.kill()  # the WAL is not checkpointed: the moves live in it
    wal = bytearray((tmp_path / "games.db-wal").read_bytes())
    frame = 32 + 10 * (24 + 4096)  # the 11th frame
    wal[frame + 24 + 2000] ^= 0x10
    (tmp_path / "games.db-wal").write_bytes(bytes(wal))
    with Store.open(path) as store:
        assert store.notice is not None and "damaged" in store.notice and "kept aside" in store.notice
        record = store.unfinished()
        assert record is not None
        assert len(store.moves(record.id)) == 300


def test_a_wal_deleted_while_open_loses_nothing(tmp_path, tiny):
    path = tmp_path / "games.db"
    holder = Holder(path)
    assert holder.order("act 50") == "50"
    assert holder.order("delete-wal") == "ok"
    assert holder.order("act 50") == "100"
    holder.kill()
    with Store.open(path) as store:
        record = store.unfinished()
        assert record is not None and len(store.moves(record.id)) == 100
        assert store.notice is None


def test_history_never_moves_anything_aside(tmp_path, tiny):
    path = tmp_path / "games.db"
    played = _many_games(path, games=6, moves=10)
    data = bytearray(path.read_bytes())
    data[-4096 + 8 : -4096 + 40] = b"\x00" * 32
    path.write_bytes(bytes(data))
    before = _picture_of(tmp_path)
    with Store.read(path) as store:
        assert store.notice is not None and "left as it is" in store.notice
        _kept_prefixes(store, played)
    assert _picture_of(tmp_path) == before


def test_a_lock_held_by_another_program_is_weather_not_damage(tmp_path, tiny):
    path = tmp_path / "games.db"
    _many_games(path, games=2, moves=5)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        store = Store.open(path, busy_timeout=0.2)
        assert not store.saving and store.problem is not None and "locked by another program" in store.problem
        assert store.game(1) is not None and len(store.moves(1)) == 5, "the table still sees its games"
        session = Session.start(store, "tiny", Options.for_names("Cy", "Di"))  # played in memory meanwhile
        session.act({"type": "roll", "player": "Cy"})
    finally:
        holder.close()
    session.act({"type": "roll", "player": "Di"})  # the lock is gone: everything is written now
    assert store.saving and store.problem is None
    store.close()
    assert not _aside(tmp_path) and not _aside(tmp_path, "locked")
    with Store.open(path) as again:
        assert len(again.moves(session.game_id)) == 2


def test_check_names_the_damage_and_changes_nothing(tmp_path, tiny):
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
        for n in range(10):
            session.act({"type": "roll", "player": session.current_player, "note": f"move-number-{n:03d}"})
    assert check(path).status == 0
    data = bytearray(path.read_bytes())
    data[data.index(b"move-number-007") + 3] ^= 0x01
    path.write_bytes(bytes(data))
    report = check(path)
    assert report.status == 1
    assert any("Move 8 of Tiny with Ann and Bo is damaged" in line for line in report.problems)
    assert report.salvage == (
        "Salvage would keep 1 game with 7 moves, 3 lost (Tiny with Ann and Bo lost its last 3 moves)."
    )
    assert path.read_bytes() == bytes(data)


def test_a_finished_game_that_lost_moves_is_open_again_at_its_last_good_move(tmp_path, tiny):
    """Its result belonged to moves that are gone: it must not stay in the wins."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=30))
        n = 0
        while session.outcome is None:
            session.act({"type": "roll", "player": session.current_player, "note": f"move-number-{n:03d}"})
            n += 1
        assert store.win_counts() != {}
    for copy in backups(path):
        copy.unlink()  # no backup to fall back on
    data = bytearray(path.read_bytes())
    data[data.index(b"move-number-002") + 4] ^= 0x08
    path.write_bytes(bytes(data))
    with Store.open(path) as store:
        assert len(store.moves(session.game_id)) == 2
        assert store.notice is not None and f"lost its last {n - 2} moves" in store.notice
        assert store.win_counts() == {} and store.finished() == []
        record = store.unfinished()
        assert record is not None and record.id == session.game_id and record.outcome is None


def test_a_flipped_bit_in_the_schema_version_is_damage_not_a_newer_app(tmp_path, tiny):
    path = tmp_path / "games.db"
    played = _many_games(path, games=3, moves=10)
    data = bytearray(path.read_bytes())
    data[60] ^= 0x01  # user_version, big-endian at offset 60: 2 becomes 16777218
    path.write_bytes(bytes(data))
    assert any("damaged" in line for line in check(path).problems)
    with Store.open(path) as store:
        assert store.notice is not None and "damaged" in store.notice and "newer" not in store.notice
        assert _kept_prefixes(store, played) == sum(len(a) for a in played.values())
    assert _aside(tmp_path) and not _aside(tmp_path, "newer")


def test_damage_in_an_old_game_is_found_by_the_next_backup_and_mended_from_an_earlier_one(tmp_path, tiny):
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        old = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=20))
        n = 0
        while old.outcome is None:  # finished: backed up
            old.act({"type": "roll", "player": old.current_player, "note": f"old-move-{n:03d}"})
            n += 1
    data = bytearray(path.read_bytes())
    data[data.index(b"old-move-001") + 3] ^= 0x20
    path.write_bytes(bytes(data))
    with Store.open(path) as store:
        assert store.notice is None, "nothing reads the old game's moves at opening"
        new = Session.start(store, "tiny", Options.for_names("Cy", "Di", target=1))
        new.act({"type": "roll", "player": "Cy"})  # the game ends: a backup, whose check finds the damage
        assert store.notice is not None and "1 move came back from a backup" in store.notice
        stored = [{**codec.to_json(m.action), MOVE_CLOCK: m.clock} for m in old.moves]  # with each move's clock
        assert [m.action for m in store.moves(old.game_id)] == stored
    assert len(_aside(tmp_path)) == 1
    for copy in backups(path):
        assert check(copy).status == 0, "no backup is a copy of damage"
