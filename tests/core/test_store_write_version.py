"""A games file SQLite will not write is found when it is opened, not by the table's next move.

Found by the bit-flip campaign (tests/core/test_store_faults.py) when issue 27's moves grew by their game clock
and the pulled-plug corpus's WAL no longer held the first page: a flipped bit in the header's write version
(byte 18) passes every read and `quick_check`, and SQLite refuses only the first write ("attempt to write a
readonly database"). Opening now makes one change to the first page and takes it back, writing nothing.
"""

from __future__ import annotations

from pathlib import Path

from companion.game import Options
from companion.session import Session
from companion.store import Store
from tests.support.clocks import ManualClock

MOVES = [
    {"type": "choose_first", "player": "Bo", "chosen_by": "Ann", "how": "race"},
    {"type": "place", "player": "Bo", "cell": [0, 0], "face": 1},
]


def test_a_file_whose_header_forbids_writing_is_repaired_at_opening_and_takes_the_next_move(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), clock=ManualClock())
        session.act(MOVES[0])
    header = bytearray(path.read_bytes())
    assert header[18] == 2  # WAL; closed, so every page is in the main file
    header[18] ^= 0x10
    path.write_bytes(bytes(header))

    with Store.open(path) as store:
        assert store.notice is not None and "damaged" in store.notice
        resumed = Session.resume(store, clock=ManualClock())
        assert resumed is not None and len(resumed.moves) == 1  # nothing was lost
        resumed.act(MOVES[1])
        assert store.problem is None
    with Store.open(path) as store:
        assert store.notice is None and len(store.moves(resumed.game_id)) == 2


def test_a_healthy_file_is_not_changed_by_the_check(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), clock=ManualClock()).act(MOVES[0])
    before = path.read_bytes()
    with Store.open(path) as store:
        assert store.notice is None
    assert path.read_bytes() == before
