"""A full or read-only card is weather, not damage: the move is refused or kept in memory, nothing moved aside.

These mount a real small tmpfs (root only, as CI runs), so that SQLite meets
the kernel's own ENOSPC and EROFS; elsewhere they skip and say why.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from companion.game import Options
from companion.session import Session
from companion.store import NotSaved, Store


def _mount(folder: Path, *options: str) -> None:
    subprocess.run(["mount", *options, str(folder)], check=True, capture_output=True)


@pytest.fixture
def card(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB SD card of our own: a tmpfs mounted on a folder in tmp_path."""
    folder = tmp_path / "card"
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    try:
        _mount(folder, "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs")
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"this machine cannot mount a tmpfs here ({error})")
    try:
        yield folder
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            _mount(folder, "-o", "remount,rw")
        subprocess.run(["umount", "-l", str(folder)], check=False, capture_output=True)


def _fill(folder: Path) -> Path:
    """Fill the card to the last byte; the file that did it."""
    filler = folder / "photos.bin"
    fd = os.open(filler, os.O_CREAT | os.O_WRONLY, 0o600)
    try:
        for chunk in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\xff" * chunk):
                    pass
    finally:
        os.close(fd)
    return filler


def _roll(session: Session) -> None:
    session.act({"type": "roll", "player": session.current_player, "note": "x" * 3000})


def test_a_full_card_refuses_the_move_keeps_the_game_and_goes_on_when_space_comes_back(card, tiny):
    path = card / "games.db"
    store = Store.open(path)
    session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
    for _ in range(5):
        _roll(session)
    filler = _fill(card)
    refusals = []
    for _ in range(100):  # the WAL may still have room for a few moves
        before = (session.state, session.moves)
        try:
            _roll(session)
        except NotSaved as refusal:
            refusals.append(str(refusal))
            assert (session.state, session.moves) == before, "a move that was not saved is not shown either"
            break
    assert refusals == ["The SD card is full: this move was not saved."]
    assert store.problem == refusals[0]
    saved = len(session.moves)
    assert not [p for p in card.iterdir() if "damaged" in p.name], "a full card is not damage"

    filler.unlink()  # space comes back: the game goes on from its last saved move
    _roll(session)
    assert store.problem is None
    store.close()
    with Store.open(path) as again:
        assert again.notice is None
        resumed = Session.resume(again)
        assert resumed is not None and len(resumed.moves) == saved + 1
        assert resumed.state == session.state


def test_a_full_card_at_start_still_opens_the_game(card, tiny):
    path = card / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
        for _ in range(3):
            _roll(session)
    _fill(card)
    with Store.open(path) as store:
        resumed = Session.resume(store)
        assert resumed is not None and len(resumed.moves) == 3
    assert not [p for p in card.iterdir() if "damaged" in p.name]


def test_a_read_only_card_plays_without_saving_and_saves_everything_once_it_can(card, tiny):
    path = card / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
        for _ in range(5):
            _roll(session)
    before = sorted(p.name for p in card.iterdir())
    _mount(card, "-o", "remount,ro")  # how a failing SD card ends: the kernel remounts it read-only

    store = Store.open(path)
    assert not store.saving
    assert store.problem == (
        "The SD card is read-only: you can play, but nothing is saved until it can be written again."
    )
    resumed = Session.resume(store)
    assert resumed is not None and len(resumed.moves) == 5
    for _ in range(3):
        _roll(resumed)  # the table plays on, in memory
    assert store.problem is not None, "the banner stays while nothing is saved"
    assert sorted(p.name for p in card.iterdir()) == before

    _mount(card, "-o", "remount,rw")
    _roll(resumed)  # the first move after the card can be written again saves all of them
    assert store.saving and store.problem is None
    store.close()
    with Store.open(path) as again:
        again_session = Session.resume(again)
        assert again_session is not None and len(again_session.moves) == 9
        assert again_session.state == resumed.state


def test_history_reads_a_read_only_card(card, tiny):
    path = card / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=1))
        session.act({"type": "roll", "player": "Ann"})
    _mount(card, "-o", "remount,ro")
    with Store.read(path) as store:
        assert store.win_counts() == {"Ann": 1}


def test_a_missing_games_file_on_a_read_only_card_plays_its_backups_and_writes_them_back(card, tiny):
    """Issue 22: "A missing games file beside backups: the app restores from the newest good backup and says so";
    on a card that cannot be written yet, the backups' games are played in memory and written back with the
    rest once it can be, never an empty file over them."""
    path = card / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=1))
        session.act({"type": "roll", "player": "Ann"})  # a finished game: backed up
    assert list((card / "backups").iterdir())
    path.unlink()
    _mount(card, "-o", "remount,ro")
    store = Store.open(path)
    assert not store.saving
    assert store.notice is not None and "is missing" in store.notice and "backups" in store.notice, store.notice
    assert store.win_counts() == {"Ann": 1}
    _mount(card, "-o", "remount,rw")
    played = Session.start(store, "tiny", Options.for_names("Cy", "Di", target=10**9))
    _roll(played)
    assert store.saving
    store.close()
    with Store.open(path) as again:
        assert again.counts()[0] == 2, "the backup's game and the one played meanwhile"
        assert again.win_counts() == {"Ann": 1}


def test_a_games_folder_that_cannot_be_made_on_a_read_only_card_plays_in_memory(card, tiny):
    """The games file's folder is missing and the card is read-only: the table plays, the banner says why."""
    _mount(card, "-o", "remount,ro")
    store = Store.open(card / "companion" / "games.db")
    assert not store.saving
    assert store.problem == (
        "The SD card is read-only: you can play, but nothing is saved until it can be written again."
    )
    session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
    _roll(session)
    assert len(store.moves(session.game_id)) == 1
    assert list(card.iterdir()) == []


def test_a_card_too_full_to_take_the_games_played_meanwhile_keeps_them_in_memory(card, tiny):
    """Back from read-only, but too full for everything played in memory: nothing is lost, the banner says the card
    is full and that the table plays on, and the next move tries again."""
    path = card / "games.db"
    with Store.open(path) as store:
        Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
    _mount(card, "-o", "remount,ro")
    store = Store.open(path)
    session = Session.resume(store)
    assert session is not None and not store.saving
    for _ in range(200):  # about 600 kB of moves, in memory
        _roll(session)
    _mount(card, "-o", "remount,rw")
    filler = _fill(card)
    with open(filler, "r+b") as handle:  # room for a new file, not for the games played meanwhile
        handle.truncate(os.path.getsize(filler) - 256 * 1024)
    _roll(session)  # kept in memory with the rest, as every move since the card went read-only
    assert not store.saving and len(store.moves(session.game_id)) == 201
    # Before, the banner said "The SD card is full: this move was not saved." while the move was played and kept.
    assert store.problem == "The SD card is full: you can play, but nothing is saved until it can be written again."
    assert not [p for p in card.iterdir() if "damaged" in p.name]
    filler.unlink()
    _roll(session)
    assert store.saving and store.problem is None
    store.close()
    with Store.open(path) as again:
        assert len(again.moves(session.game_id)) == 202


def test_a_repair_the_full_card_will_not_take_plays_on_in_memory_and_says_full(card, tiny):
    """A damaged row found while playing, on a card too full for the mended file: the games that could be read
    are played in memory, the banner says the card is full, and nothing is moved aside."""
    path = card / "games.db"
    store = Store.open(path)
    session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
    for _ in range(3):
        _roll(session)
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("UPDATE moves SET checksum = checksum + 1 WHERE seq = 2")
    _fill(card)
    moves = store.moves(session.game_id)
    # Before, the damaged file was moved aside and left there when the mended one could not be made: the table
    # saw "no game could be read from it", and the next start found no games file at all.
    assert len(moves) == 2, "the game is kept to its last good move"
    assert not store.saving
    assert store.problem == "The SD card is full: this move was not saved."
    assert store.notice is not None and "1 game with 2 moves could be read" in store.notice, store.notice
    assert sorted(p.name for p in card.iterdir() if p.name.startswith("games.db")) == [
        "games.db",
        "games.db-shm",
        "games.db-wal",
        "games.db.lock",
    ], "the damaged file stays under its name, for the repair once there is room"
    store.close()
    (card / "photos.bin").unlink()
    with Store.open(path) as again:  # room again: the repair is made, the damaged file kept aside
        assert len(again.moves(session.game_id)) == 2
        assert again.notice is not None and "kept aside" in again.notice, again.notice


def test_a_full_card_with_no_games_file_yet_plays_in_memory_and_leaves_nothing_half_made(card, tiny):
    _fill(card)
    store = Store.open(card / "games.db")
    assert not store.saving
    assert store.problem == "The SD card is full: you can play, but nothing is saved until it can be written again."
    assert sorted(p.name for p in card.iterdir()) == ["games.db.lock", "photos.bin"], "no half-made games file"
    store.close()


def test_damage_found_at_opening_on_a_full_card_leaves_the_file_under_its_name(card, tiny):
    """Issue 22's repair at opening, when the card has no room for the mended file: the table plays what could be
    read, in memory; the damaged file stays where it was, to be repaired once there is room."""
    path = card / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
        for _ in range(3):
            _roll(session)
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("PRAGMA application_id = 0")  # damage found by the checks at opening
    history = sqlite3.connect(path)  # the history is being looked at: the file's -shm is there
    history.execute("SELECT COUNT(*) FROM games").fetchone()
    filler = _fill(card)
    store = Store.open(path)
    history.close()
    assert not store.saving
    assert store.problem == "The SD card is full: you can play, but nothing is saved until it can be written again."
    assert store.counts() == (1, 3)
    assert not [p for p in card.iterdir() if "damaged" in p.name]
    assert path.exists()
    store.close()
    filler.unlink()
    with Store.open(path) as again:
        assert again.notice is not None and "kept aside" in again.notice
        assert again.counts() == (1, 3)


def test_a_backup_the_full_card_has_no_room_for_is_skipped_and_leaves_nothing(card, tiny):
    """ "A card too full for a copy is not an error at the table: the copy is skipped, the game goes on." """
    path = card / "games.db"
    store = Store.open(path)
    session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
    for _ in range(20):
        _roll(session)
    store.backup()  # the backups folder made while there is room
    filler = _fill(card)
    with open(filler, "r+b") as handle:  # room for a move, not for a copy of the whole file
        handle.truncate(os.path.getsize(filler) - 16 * 1024)
    assert store.backup() is None
    assert [p.name for p in (card / "backups").iterdir() if p.name.startswith(".")] == [], "no partial copy left"
    _roll(session)
    assert store.saving and store.problem is None
    store.close()


def test_a_games_file_read_only_on_its_own_is_weather_not_damage(card, tiny):
    """The file itself cannot be written (made read-only by hand, on a card that can be): the move is refused in a
    sentence, nothing is moved aside, and the game goes on from its last saved move once the file can be written."""
    path = card / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
        _roll(session)
    _mount(path, "--bind", str(path))
    try:
        _mount(path, "-o", "remount,bind,ro")
        store = Store.open(path)
        resumed = Session.resume(store)
        assert resumed is not None and len(resumed.moves) == 1
        with pytest.raises(NotSaved) as refused:
            _roll(resumed)
        assert str(refused.value) == "The SD card is read-only: this move was not saved."
        assert len(resumed.moves) == 1
        assert not [p for p in card.iterdir() if "damaged" in p.name]
        store.close()
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False, capture_output=True)
    with Store.open(path) as again:  # writable again: the game goes on from its last saved move
        session = Session.resume(again)
        assert session is not None and len(session.moves) == 1
        _roll(session)
        assert again.notice is None and again.problem is None
    with Store.open(path) as again:
        assert len(again.moves(session.game_id)) == 2


def test_a_full_card_at_opening_is_named_full_not_an_io_error(card, tiny):
    """Opening on a card filled to the last byte, where SQLite cannot make the file's -shm: before, the banner
    said "The SD card could not be written (disk I/O error)"; the table is told the card is full."""
    path = card / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9))
        _roll(session)
    _fill(card)
    with Store.open(path) as store:
        assert store.problem == (
            "The SD card is full: you can play, but nothing is saved until it can be written again."
        )
        assert store.counts() == (1, 1)
