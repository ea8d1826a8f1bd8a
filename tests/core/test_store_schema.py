"""Issue 22: the schema is checked, not trusted; what a repair could not bring back is said; a missing games file
comes back from its backups. Real files through `Store.open`; the campaign is in test_store_faults.py."""

from __future__ import annotations

import contextlib
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from companion.store import NotSaved, Store, check
from tests.support import fault_corpus
from tests.support.fault_corpus import DB, Corpus

# Its module fixture is made once: its tests stay on one worker (`make test` runs --dist loadgroup).
pytestmark = pytest.mark.xdist_group("test_store_schema")


@pytest.fixture(scope="module")
def closed(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return fault_corpus.build_closed(tmp_path_factory.mktemp("schema"))


def _tiny(store: Store) -> Session:
    return Session.start(store, "tiny", Options.for_names("Ann", "Bo", target=10**9), dice=RandomDice.seeded(1))


def _roll(session: Session) -> None:
    session.act({"type": "roll", "player": session.current_player})


def test_a_column_renamed_behind_the_stores_back_is_damage_repaired_at_opening(tmp_path: Path, tiny: object) -> None:
    """Issue 22: "a flipped bit in a column name of wins_tally or dice_tally: check says healthy … while every
    move is refused as weather". A schema that is not ours is damage: `check` finds it, opening repairs it."""
    path = tmp_path / DB
    with Store.open(path) as store:
        session = _tiny(store)
        for _ in range(5):
            _roll(session)
    with closing(sqlite3.connect(path)) as db:
        db.execute("ALTER TABLE wins_tally RENAME COLUMN game TO gamf")
    report = check(path)
    assert report.status == 1 and any("schema" in line for line in report.problems), report.lines()
    with Store.open(path) as store:
        assert store.notice is not None and "damaged" in store.notice, store.notice
        session = Session.resume(store, dice=RandomDice.seeded(1))
        assert session is not None and len(session.moves) == 5
        _roll(session)
        assert store.problem is None
    assert check(path).status == 0


def test_damage_found_while_writing_is_repaired_not_taken_for_weather(tmp_path: Path, tiny: object) -> None:
    """Issue 22: "never an error taken for weather. Weather is only what the operating system says it is". Before,
    "The SD card could not be written (no such column: game): this move was not saved", for every move."""
    path = tmp_path / DB
    with Store.open(path) as store:
        session = _tiny(store)
        _roll(session)
        with closing(sqlite3.connect(path)) as other:  # the schema changes under the open store
            other.execute("ALTER TABLE dice_tally RENAME COLUMN game TO gamf")
        with pytest.raises(NotSaved) as refused:
            _roll(session)
        assert "SD card" not in str(refused.value) and "damaged" in str(refused.value), refused.value
        assert store.problem is None, "not weather: moves are still saved"
        assert store.notice is not None and "kept aside" in store.notice
    with Store.open(path) as store:
        session = Session.resume(store, dice=RandomDice.seeded(1))
        assert session is not None and len(session.moves) == 1
        _roll(session)
    assert check(path).status == 0


def test_schema_text_that_is_not_utf8_is_damage_not_a_traceback(closed: Corpus, tmp_path: Path) -> None:
    """Issue 22: "`UnicodeDecodeError: 'utf-8' codec can't decode byte 0xc5 in position 44`, from `PRAGMA
    journal_mode=WAL` in store/files.py and from `PRAGMA quick_check`" (a file of four games, byte 3779 XOR 0x80)."""
    path = fault_corpus.damaged(closed, fault_corpus.NAMED[0], tmp_path)
    report = check(path)
    assert report.status == 1
    with Store.open(path) as store:
        assert store.notice is not None and "4 games" in store.notice, store.notice
    with Store.read(path) as looked:
        assert looked.counts()[0] == 4


def test_a_missing_games_file_comes_back_from_its_backups_and_says_so(closed: Corpus, tmp_path: Path) -> None:
    """Issue 22: "With games.db deleted and backups/ kept, the app starts an empty file without a word." Now it is
    restored from the backups, and the sentence says what could not come back."""
    path = fault_corpus.damaged(closed, None, tmp_path)
    path.unlink()
    with Store.open(path) as store:
        assert store.notice is not None, "said"
        assert "was missing" in store.notice and "restored from its backups" in store.notice, store.notice
        assert "could not be counted" in store.notice
        games, _ = store.counts()
        assert games == 3, "the three finished games of the backups"
    assert check(path).status == 0
    with Store.open(path) as again:
        assert again.notice is None, "said once"


def test_a_truncated_file_does_not_say_0_lost_for_what_no_backup_held(closed: Corpus, tmp_path: Path) -> None:
    """Issue 22: "with games.db truncated to 100 bytes, the app says '…2 games with 21 moves were kept, 0 lost (2
    games came back from a backup)', but the unfinished game (2 acknowledged moves, in no backup) is gone"."""
    path = fault_corpus.damaged(closed, None, tmp_path)
    path.write_bytes(path.read_bytes()[:100])
    with Store.open(path) as store:
        notice = store.notice
        assert notice is not None and "came back from a backup made" in notice, notice
        assert "0 lost" not in notice and "finished or not, is lost" in notice, notice
        assert store.unfinished() is None, "the unfinished game was in no backup"


def test_a_move_row_damaged_in_a_finished_game_is_said_by_the_first_read(tmp_path: Path, tiny: object) -> None:
    """Reading a damaged row repairs the file then and there, and `notice` says so (`companion play` prints it)."""
    path = tmp_path / DB
    with Store.open(path) as store:
        session = _tiny(store)
        for _ in range(3):
            _roll(session)
    with closing(sqlite3.connect(path)) as db:
        db.execute('UPDATE moves SET action = \'{"type": "roll", "player": "Zed"}\' WHERE seq = 1')
        db.commit()
    with Store.open(path) as store:
        assert store.notice is None, "move rows are checked when read"
        moves = store.moves(1)
        assert store.notice is not None and "lost its last 2 moves" in store.notice, store.notice
        assert len(moves) == 1


def test_a_game_number_no_row_can_hold_is_no_game(tmp_path: Path) -> None:
    """Issue 22: "`export 99999999999999999999999999` (`OverflowError`)": at the store's edge, no such game."""
    with Store.open(tmp_path / DB) as store:
        assert store.game(10**30) is None
        assert store.moves(10**30) == []
        assert store.move_count(-(10**30)) == 0
        assert store.notice is None, "a healthy file is not repaired for a number"


def test_a_repair_the_card_will_not_take_plays_on_in_memory(closed: Corpus, tmp_path: Path) -> None:
    """Weather during a repair (the folder read-only when the damaged file must be moved aside) is weather."""
    path = fault_corpus.damaged(closed, fault_corpus.NAMED[1], tmp_path)
    tmp_path.chmod(0o500)
    try:
        with Store.open(path) as store:
            if store.saving:  # root ignores the folder's mode: nothing to show here
                return
            assert store.problem is not None and "read-only" in store.problem, store.problem
            assert store.counts()[0] == 4
    finally:
        with contextlib.suppress(OSError):
            tmp_path.chmod(0o700)
