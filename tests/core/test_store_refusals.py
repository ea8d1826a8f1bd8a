"""What is not a games file of ours is refused with one sentence and left exactly as it is; our own files are
never written over. Real files and folders under tmp_path (and, as root, a user who may not read them)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from companion.game import Options
from companion.session import Session
from companion.store import NotSaved, Store, StoreRefused, check
from companion.store.files import SQLITE_MAGIC, WriterLock, create_file, move_aside


def _play(path: Path, moves: int = 3) -> None:
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
        for _ in range(moves):
            session.act({"type": "roll", "player": session.current_player})


def test_a_path_through_a_file_is_refused_with_a_sentence(tmp_path: Path) -> None:
    """A games file asked for inside something that is not a folder: one sentence, the file left as it is."""
    blocker = tmp_path / "notes.txt"
    blocker.write_text("shopping list")
    for opening in (Store.open, Store.read):
        with pytest.raises(StoreRefused) as refused:
            opening(blocker / "games.db")
        assert str(refused.value).endswith("cannot be looked at (Not a directory); it was left as it is.")
    assert check(blocker / "games.db").status == 2
    assert blocker.read_text() == "shopping list"


def test_looking_at_a_games_file_that_is_not_there_says_so(tmp_path: Path) -> None:
    """The history of a games file that does not exist: a sentence, and no file made."""
    with pytest.raises(StoreRefused, match="There is no games file at"):
        Store.read(tmp_path / "games.db")
    assert list(tmp_path.iterdir()) == []


def test_another_programs_damaged_sqlite_file_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    """A file that begins as SQLite but that SQLite cannot read, without our stamp: not ours to salvage."""
    path = tmp_path / "games.db"
    body = SQLITE_MAGIC + bytes(range(256)) * 16
    path.write_bytes(body)
    with pytest.raises(StoreRefused, match="another program's SQLite database"):
        Store.open(path)
    assert path.read_bytes() == body
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]


@contextlib.contextmanager
def _as_nobody() -> Iterator[Path]:
    """A folder of our own, and this process as a user that is not root (the Pi's own user is not):
    files root made private are then out of reach, as they are for the app on the Pi."""
    if os.geteuid() != 0:
        pytest.skip("becoming another user needs root (CI runs as root)")
    folder = Path(tempfile.mkdtemp(prefix="store-nobody-"))
    folder.chmod(0o777)
    try:
        yield folder
    finally:
        os.seteuid(0)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_games_file_this_user_may_not_read_is_refused_and_left_as_it_is(tiny: object) -> None:
    """A games file made by root (mode 0600) opened by the Pi's own user: refused in a sentence, untouched."""
    with _as_nobody() as folder:
        path = folder / "games.db"
        _play(path)
        before = path.read_bytes()
        os.seteuid(65534)
        with pytest.raises(StoreRefused) as refused:
            Store.read(path)
        assert str(refused.value) == f"{path} cannot be read (Permission denied); it was left as it is."
        os.seteuid(0)
        assert path.read_bytes() == before


def test_a_new_file_never_replaces_one_that_appeared_under_its_name(tmp_path: Path) -> None:
    """ "Made whole in a temporary file before it appears under its name": should a file appear under that name
    meanwhile, it is never written over, and no temporary file is left behind."""
    path = tmp_path / "games.db"
    path.write_text("someone else's")
    with pytest.raises(FileExistsError):
        create_file(path, [], [])
    assert path.read_text() == "someone else's"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]


def test_two_files_kept_aside_in_the_same_second_both_stay(tmp_path: Path) -> None:
    """A damaged file kept aside never replaces one kept aside before it (in the same second)."""
    path = tmp_path / "games.db"
    now = time.time()
    for t in range(int(now) - 1, int(now) + 60):  # whichever second the move falls in, its first name is taken
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(t))
        (tmp_path / f"games.db.damaged-{stamp}").write_text("kept before")
    path.write_text("damaged now")
    aside = move_aside(path, "damaged")
    assert aside.name.endswith("-2") and aside.read_text() == "damaged now"
    assert sum(p.read_text() == "kept before" for p in tmp_path.iterdir()) == 61


def test_the_writer_lock_released_twice_is_released_once(tmp_path: Path) -> None:
    """Closing twice (a screen and the app's exit both close the store) is harmless; the next writer gets in."""
    path = tmp_path / "games.db"
    lock = WriterLock.take(path)
    assert WriterLock.held_elsewhere(path)
    lock.release()
    lock.release()
    assert not WriterLock.held_elsewhere(path)
    WriterLock.take(path).release()


def test_history_reads_a_damaged_header_while_a_game_is_being_played(tmp_path: Path, tiny: object) -> None:
    """Looking while another companion writes goes through SQLite; a header SQLite cannot read is salvaged in
    memory from the pages, and the file is left for the writer to repair."""
    path = tmp_path / "games.db"
    _play(path, moves=4)
    with Store.open(path) as writer:
        with open(path, "r+b") as handle:  # the header's first bytes take a hit; the stamp at 68 survives
            handle.write(b"\0" * 16)
        before = path.read_bytes()
        with Store.read(path) as looking:
            assert looking.notice is not None and "is damaged (it was left as it is" in looking.notice
            assert looking.counts() == (1, 4)
        assert path.read_bytes() == before
        assert writer.saving


def test_a_store_that_only_looks_refuses_to_write_in_a_sentence(tmp_path: Path, tiny: object) -> None:
    """A companion that is only looking (another one plays) saves nothing, and says so; the file is untouched."""
    path = tmp_path / "games.db"
    _play(path)
    before = path.read_bytes()
    with Store.read(path) as looking, pytest.raises(NotSaved, match="only looking at the games file"):
        looking.new_game("tiny", {}, 0.0)
    assert path.read_bytes() == before


def test_a_table_without_a_file_keeps_its_banner_and_plays_in_memory(tiny: object) -> None:
    """A refused games file: the table plays on a store in memory whose banner says nothing is saved."""
    store = Store.in_memory(problem="The games file was refused: nothing is saved.")
    assert not store.saving
    session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
    session.act({"type": "roll", "player": "Ann"})
    assert store.moves(session.game_id) and store.problem == "The games file was refused: nothing is saved."
    assert Store.in_memory().saving


def test_damage_in_memory_is_left_out_and_said(tiny: object) -> None:
    """A store in memory has no file to salvage: a record that fails its checks is left out, and said."""
    store = Store.in_memory()
    session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
    store._db.execute("UPDATE games SET checksum = checksum + 1")
    assert store.game(session.game_id) is None
    assert store.notice == "A saved record in memory was unreadable and was left out."


def test_a_damaged_row_seen_by_history_is_salvaged_in_memory_and_the_file_left(tmp_path: Path, tiny: object) -> None:
    """History (looking only) never moves a file aside, even when a row it reads fails its checks."""
    path = tmp_path / "games.db"
    _play(path, moves=3)
    before = path.read_bytes()
    with Store.read(path) as looking:
        looking._db.execute("UPDATE moves SET checksum = checksum + 1 WHERE seq = 2")
        assert len(looking.moves(1)) == 3, "read again from the file"
        assert looking.notice is not None and "left as it is" in looking.notice
    assert path.read_bytes() == before
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == 3


def test_a_folder_under_the_lock_files_name_plays_in_memory_and_is_left(tmp_path: Path, tiny: object) -> None:
    """Something in the way of the writer's lock file: the table plays in memory, the banner says why."""
    path = tmp_path / "games.db"
    _play(path)
    (tmp_path / "games.db.lock").unlink()
    (tmp_path / "games.db.lock").mkdir()
    with Store.open(path) as store:
        assert not store.saving
        assert store.problem is not None and store.problem.startswith("The SD card could not be written ("), (
            store.problem
        )
        assert store.problem.endswith("you can play, but nothing is saved until it can be written again.")
        assert store.counts() == (1, 3), "the games are there to resume"
        assert store.backup() is None, "nor is a backup made while nothing is saved"
    assert (tmp_path / "games.db.lock").is_dir()
    assert not (tmp_path / "backups").exists()


def test_a_store_in_memory_makes_no_backup() -> None:
    assert Store.in_memory().backup() is None


def test_an_interrupt_while_opening_leaves_no_lock_behind(
    tmp_path: Path, tiny: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C (or anything that is not weather) while the file is checked: the writer's lock is let go, so the
    next start is not refused as a second companion."""
    import companion.store.store as store_module

    path = tmp_path / "games.db"
    _play(path)

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(store_module, "open_writable", interrupted)
        with pytest.raises(KeyboardInterrupt):
            Store.open(path)
    assert not WriterLock.held_elsewhere(path)
    with Store.open(path) as store:
        assert store.saving and store.counts() == (1, 3)
