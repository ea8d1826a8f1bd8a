"""companion.store.pages against real SQLite files: healthy, cut, smashed, bit-flipped, and their WALs."""

from __future__ import annotations

import random
import sqlite3
import struct
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.store.pages import Record, check_wal, checkpointed, records

# Its module fixture is made once: its tests stay on one worker (`make test` runs --dist loadgroup).
pytestmark = pytest.mark.xdist_group("test_store_pages")

BIG = 10_000  # characters: several overflow pages at the default page size

Row = tuple[Any, ...]


# --- building real files ---------------------------------------------------------------------------


def _schema(con: sqlite3.Connection) -> None:
    con.execute("PRAGMA secure_delete=OFF")  # freed pages keep their old rows, as on the default build
    con.execute("CREATE TABLE t(tag, n, body, extra)")
    con.execute("CREATE INDEX t_n ON t(n)")
    con.execute("CREATE TABLE w(tag, k, v, PRIMARY KEY(tag, k)) WITHOUT ROWID")


def _t_row(n: int) -> Row:
    body = f"row {n} " + ("x" * BIG if n % 97 == 0 else "é" * (n % 40))
    extras: list[object] = [None, 0, 1, -n, n * 1_000_003, -(2**62) + n, n / 7, bytes([n % 256]) * (n % 9), "ü"]
    return ("r", n, body, extras[n % len(extras)])


def _w_row(n: int) -> Row:
    return ("w", n, "y" * BIG if n % 89 == 0 else f"value {n}")


def _insert(con: sqlite3.Connection, numbers: Iterable[int]) -> None:
    for n in numbers:
        con.execute("INSERT INTO t VALUES (?, ?, ?, ?)", _t_row(n))
        con.execute("INSERT INTO w VALUES (?, ?, ?)", _w_row(n))


def _make_db(path: Path, rows: int, page_size: int = 4096) -> None:
    con = sqlite3.connect(path, isolation_level=None)
    con.execute(f"PRAGMA page_size={page_size}")
    _schema(con)
    con.execute("BEGIN")
    _insert(con, range(rows))
    con.execute("COMMIT")
    con.close()


@dataclass(frozen=True)
class Tables:
    t: set[Row]  # (rowid, tag, n, body, extra)
    w: set[Row]  # (tag, k, v)
    index: set[Row]  # (n, rowid) of t_n

    def __len__(self) -> int:
        return len(self.t) + len(self.w) + len(self.index)


def _selected(con: sqlite3.Connection) -> Tables:
    return Tables(
        set(con.execute("SELECT rowid, tag, n, body, extra FROM t")),
        set(con.execute("SELECT tag, k, v FROM w")),
        set(con.execute("SELECT n, rowid FROM t")),
    )


def _read(db: bytes) -> Tables:
    """The rows of t, w and t_n among `records(db)`, told apart by their shape."""
    t, w, index = set(), set(), set()
    for r in records(db):
        v = r.values
        if r.rowid is not None and len(v) == 4 and v[0] == "r":
            t.add((r.rowid, *v))
        elif r.rowid is None and len(v) == 3 and v[0] == "w":
            w.add(v)
        elif r.rowid is None and len(v) == 2 and all(type(x) is int for x in v):
            index.add(v)
    return Tables(t, w, index)


def _page_types(db: bytes, page_size: int) -> dict[int, int]:
    return {p + 1: db[p * page_size + (100 if p == 0 else 0)] for p in range(len(db) // page_size)}


def _subset(small: Tables, big: Tables) -> bool:
    return small.t <= big.t and small.w <= big.w and small.index <= big.index


def _flip(data: bytes, pos: int, bit: int = 0) -> bytes:
    out = bytearray(data)
    out[pos] ^= 1 << bit
    return bytes(out)


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, Tables]:
    path = tmp_path_factory.mktemp("healthy") / "g.db"
    _make_db(path, 3000)
    con = sqlite3.connect(path)
    expected = _selected(con)
    con.close()
    return path.read_bytes(), expected


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("small") / "g.db"
    _make_db(path, 300, page_size=1024)
    return path.read_bytes()


# --- records() -------------------------------------------------------------------------------------


def test_healthy_file_gives_exactly_the_selected_rows(healthy: tuple[bytes, Tables]) -> None:
    db, expected = healthy
    got = _read(db)
    assert len(expected.t) == len(expected.w) == 3000
    assert any(len(row[3]) > BIG for row in expected.t) and any(len(row[2]) >= BIG for row in expected.w)
    assert got == expected
    # The schema table on page 1 is read too.
    names = {r.values[1] for r in records(db) if r.page == 1 and r.values[:1] in (("table",), ("index",))}
    assert names >= {"t", "t_n", "w"}


def test_index_interior_pages_hold_rows_of_without_rowid_tables(healthy: tuple[bytes, Tables]) -> None:
    # An index b-tree is a B-tree, not a B+tree: some entries live only in its interior pages.
    db, _ = healthy
    assert any(r.page in _interior_index_pages(db) and r.values[:1] == ("w",) for r in records(db))


def _interior_index_pages(db: bytes) -> set[int]:
    return {p for p, kind in _page_types(db, 4096).items() if kind == 0x02}


def test_freelist_pages_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    _make_db(path, 3000)
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA secure_delete=OFF")
    con.execute("DELETE FROM t WHERE n BETWEEN 300 AND 2700")
    con.execute("DELETE FROM w WHERE k BETWEEN 300 AND 2700")
    assert con.execute("PRAGMA freelist_count").fetchone()[0] > 50
    expected = _selected(con)
    con.close()
    db = path.read_bytes()
    assert _read(db) == expected
    # The freed pages do still hold deleted rows: without the freelist they come back.
    no_freelist = db[:32] + bytes(8) + db[40:]
    assert _read(no_freelist).t - expected.t


def test_half_a_file_yields_the_rows_of_the_surviving_pages(healthy: tuple[bytes, Tables]) -> None:
    db, expected = healthy
    full = list(records(db))
    for cut in (len(db) // 2, len(db) // 2 + 1234):
        half = db[:cut]
        got = _read(half)
        assert _subset(got, expected)
        assert len(got) > len(expected) // 3
        surviving = {(r.page, r.rowid, r.values) for r in full if r.page * 4096 <= cut and _short(r)}
        assert surviving <= {(r.page, r.rowid, r.values) for r in records(half)}


def _short(r: Record) -> bool:
    return all(not isinstance(v, str | bytes) or len(v) < 1000 for v in r.values)


@pytest.mark.parametrize("kind", [0x05, 0x02])
def test_smashed_interior_page(healthy: tuple[bytes, Tables], kind: int) -> None:
    db, expected = healthy
    page = min(p for p, k in _page_types(db, 4096).items() if k == kind and p > 1)
    start = (page - 1) * 4096
    smashed = db[:start] + random.Random(kind).randbytes(4096) + db[start + 4096 :]
    want = {(r.page, r.rowid, r.values) for r in records(db) if r.page != page}
    assert want <= {(r.page, r.rowid, r.values) for r in records(smashed)}
    assert _subset(_read(smashed), expected)


def test_smashed_page_one_btree_header(healthy: tuple[bytes, Tables]) -> None:
    db, expected = healthy
    smashed = db[:100] + b"\xff" * 12 + db[112:]
    assert _read(smashed) == expected  # only the schema rows on page 1 are lost


def test_smashed_database_header_guesses_the_page_size(small_db: bytes) -> None:
    want = _read(small_db)
    assert len(want.t) == 300
    assert _read(bytes(100) + small_db[100:]) == want  # page size 1024, not the 4096 fallback
    assert _read(_flip(small_db, 16, 3)) == want


@pytest.mark.timeout(60)
def test_garbage_never_raises() -> None:
    rng = random.Random(7)
    inputs = [b"", b"\x00", b"SQLite format 3\x00", bytes(5000), b"\xff" * 10_000, b"\x0d" * 9000]
    inputs += [rng.randbytes(rng.randrange(1, 70_000)) for _ in range(20)]
    inputs += [b"SQLite format 3\x00\x10\x00" + rng.randbytes(rng.randrange(100, 40_000)) for _ in range(20)]
    inputs += [bytes([0x0D, 0, 0, 0, 200]) * 2000, bytes([0x02]) + b"\xff" * 8191]
    for data in inputs:
        list(records(data))
        check_wal(data)
        checkpointed(data, data)
        checkpointed(b"", data)


@pytest.mark.timeout(60)
def test_300_bit_flips_never_raise(small_db: bytes) -> None:
    rng = random.Random(11)
    want = _read(small_db)
    per_page = Counter(r.page for r in records(small_db))
    for _ in range(300):
        got = _read(_flip(small_db, rng.randrange(len(small_db)), rng.randrange(8)))
        kept = len(got.t & want.t) + len(got.w & want.w) + len(got.index & want.index)
        # One flipped bit costs at most the rows of one page, wherever it lands (the header included).
        assert kept >= len(want) - max(per_page.values())


@pytest.mark.timeout(60)
def test_cycles_end(small_db: bytes) -> None:
    db = bytearray(small_db)
    types = _page_types(small_db, 1024)
    # Every overflow page (and any other non-b-tree page) now says its next page is itself.
    for page, kind in types.items():
        if page > 1 and kind not in (0x02, 0x05, 0x0A, 0x0D):
            db[(page - 1) * 1024 : (page - 1) * 1024 + 4] = page.to_bytes(4, "big")
    got = _read(bytes(db))
    assert got.t and all(len(row[3]) < BIG for row in got.t)
    # A freelist whose trunk points to itself, and one of two trunks pointing to each other.
    leaf = next(p for p, kind in types.items() if kind == 0x0D and p > 1)
    for trunks in ([leaf], [leaf, leaf + 1]):
        cyclic = bytearray(small_db)
        cyclic[32:40] = trunks[0].to_bytes(4, "big") + (5).to_bytes(4, "big")
        for i, trunk in enumerate(trunks):
            start = (trunk - 1) * 1024
            cyclic[start : start + 8] = trunks[(i + 1) % len(trunks)].to_bytes(4, "big") + bytes(4)
        list(records(bytes(cyclic)))


# --- WAL -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WalCase:
    db: bytes
    wal: bytes
    live: Tables  # what the writing connection saw when the bytes were copied
    batches: list[list[int]]  # the n of the rows each transaction inserted

    @property
    def page_size(self) -> int:
        return int.from_bytes(self.wal[8:12], "big")

    @property
    def frame_size(self) -> int:
        return 24 + self.page_size

    def commits(self, wal: bytes | None = None) -> list[int]:
        """0-based indexes of the commit frames, from the frame headers."""
        wal = self.wal if wal is None else wal
        count = (len(wal) - 32) // self.frame_size
        offsets = (32 + i * self.frame_size for i in range(count))
        return [i for i, at in enumerate(offsets) if wal[at + 4 : at + 8] != bytes(4)]

    def frame_of(self, pos: int) -> int:
        return (pos - 32) // self.frame_size


def _wal_case(directory: Path, transactions: int = 40, rows: int = 6) -> WalCase:
    path = directory / "g.db"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
    con.execute("PRAGMA synchronous=FULL")
    _schema(con)
    batches = []
    for i in range(transactions):
        batch = list(range(i * 100, i * 100 + rows))
        con.execute("BEGIN")
        _insert(con, batch)
        con.execute("COMMIT")
        batches.append(batch)
    db, wal = path.read_bytes(), Path(f"{path}-wal").read_bytes()
    live = _selected(con)
    con.close()
    return WalCase(db, wal, live, batches)


@pytest.fixture(scope="module")
def wal_case(tmp_path_factory: pytest.TempPathFactory) -> WalCase:
    return _wal_case(tmp_path_factory.mktemp("wal"))


def _wal_checksum(data: bytes, seed: tuple[int, int], big: bool) -> tuple[int, int]:
    """The WAL checksum, written again from the file-format page."""
    s0, s1 = seed
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def test_healthy_wal(wal_case: WalCase) -> None:
    report = check_wal(wal_case.wal)
    assert report.frames == (len(wal_case.wal) - 32) // wal_case.frame_size > 40
    assert report.replayed == report.frames
    assert not report.damaged and report.lost_commits == 0
    assert len(wal_case.commits()) >= 40 and wal_case.commits()[-1] == report.frames - 1


def test_flipped_page_bit_in_an_early_frame(wal_case: WalCase) -> None:
    frame = 5
    pos = 32 + frame * wal_case.frame_size + 24 + 1000
    report = check_wal(_flip(wal_case.wal, pos))
    commits = wal_case.commits()
    assert report.damaged and report.lost_commits > 0
    assert report.replayed <= frame
    assert report.replayed == max([c + 1 for c in commits if c < frame], default=0)
    assert report.lost_commits == len([c for c in commits if c >= frame])
    assert f"frame {frame + 1} of {report.frames}" in report.detail


def test_flipped_checksum_field_in_a_frame_header(wal_case: WalCase) -> None:
    for byte in (16, 19, 20, 23):
        report = check_wal(_flip(wal_case.wal, 32 + 7 * wal_case.frame_size + byte, 7))
        assert report.damaged and report.replayed <= 7


@pytest.mark.parametrize("pos", [0, 3, 5, 10, 13, 17, 22, 26, 31])
def test_flipped_bit_in_the_wal_header(wal_case: WalCase, pos: int) -> None:
    report = check_wal(_flip(wal_case.wal, pos, 1))
    assert report.damaged and report.replayed == 0
    assert report.lost_commits == len(wal_case.commits())
    assert report.detail.startswith("WAL header")


def test_torn_last_frame_is_not_damage(wal_case: WalCase) -> None:
    torn = wal_case.wal[: len(wal_case.wal) - wal_case.page_size // 2]
    report = check_wal(torn)
    assert not report.damaged and report.lost_commits == 0
    assert report.frames == check_wal(wal_case.wal).frames - 1
    assert report.replayed == wal_case.commits()[-2] + 1


def test_appended_uncommitted_frames_are_not_damage(wal_case: WalCase) -> None:
    wal = wal_case.wal
    big = int.from_bytes(wal[:4], "big") & 1 == 1
    page = wal[-wal_case.page_size :]
    header = (2).to_bytes(4, "big") + bytes(4) + wal[16:24]
    seed = struct.unpack_from(">II", wal, len(wal) - wal_case.frame_size + 16)
    checksum = struct.pack(">II", *_wal_checksum(header[:8] + page, seed, big))
    frames = check_wal(wal).frames
    cases = {
        "partial": wal + header + checksum + page[:1000],
        "torn": wal + header + checksum + page[:1000] + bytes(len(page) - 1000),
        "valid": wal + header + checksum + page,
    }
    for name, extended in cases.items():
        report = check_wal(extended)
        assert not report.damaged, name
        assert report.replayed == frames, name
        assert report.frames == frames + (name != "partial"), name


def test_stale_frames_of_an_older_generation_are_not_damage(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA wal_autocheckpoint=0")
    _schema(con)
    for i in range(10):
        _insert(con, [i])
    con.execute("PRAGMA wal_checkpoint(RESTART)")
    _insert(con, [100])  # starts the WAL over: new salts, the old frames left behind it
    wal = Path(f"{path}-wal").read_bytes()
    con.close()
    report = check_wal(wal)
    assert 0 < report.replayed < report.frames
    assert not report.damaged, report.detail


@pytest.mark.timeout(60)
def test_200_random_bit_flips(wal_case: WalCase) -> None:
    rng = random.Random(3)
    commits = wal_case.commits()
    assert commits[-1] == (len(wal_case.wal) - 32) // wal_case.frame_size - 1  # every frame is committed
    for _ in range(200):
        pos = rng.randrange(len(wal_case.wal))
        report = check_wal(_flip(wal_case.wal, pos, rng.randrange(8)))
        if pos < 32:
            assert report.damaged and report.replayed == 0
            continue
        frame = wal_case.frame_of(pos)
        assert report.replayed == max([c + 1 for c in commits if c < frame], default=0), pos
        # Every frame here is committed, the last one too: a single flipped bit is found even there,
        # where no later commit frame vouches for it (see pages._one_bit_fixes).
        assert report.damaged, (pos, report)


def _forged_wal(frames: list[tuple[int, int, bytes]], page_size: int = 512) -> bytes:
    """A WAL whose header and frames all verify, little-endian checksums, carrying (pgno, commit, page)."""
    header = struct.pack(">IIIIII", 0x377F0682, 3007000, page_size, 0, 1234, 5678)
    checksum = _wal_checksum(header, (0, 0), big=False)
    out = header + struct.pack(">II", *checksum)
    for pgno, commit, page in frames:
        head = struct.pack(">II", pgno, commit)
        checksum = _wal_checksum(head + page, checksum, big=False)
        out += head + header[16:24] + struct.pack(">II", *checksum) + page
    return out


@pytest.mark.timeout(60)
def test_forged_wal_sizes_do_not_allocate() -> None:
    page = bytes([0x0D]) + bytes(511)
    for frames in (
        [(0xFFFFFFF0, 0xFFFFFFFF, page)],
        [(1, 0, page), (0x7FFFFFFF, 0xFFFFFFFF, page)],
        [(3, 0xFFFFFFFF, page)],
    ):
        wal = _forged_wal(frames)
        report = check_wal(wal)
        assert report.replayed == report.frames == len(frames) and not report.damaged
        image = checkpointed(b"", wal)
        assert len(image) <= 512 * 3
        list(records(image))


# --- checkpointed() --------------------------------------------------------------------------------


def _open_ro(tmp_path: Path, image: bytes, name: str = "cp.db") -> Tables:
    path = tmp_path / name
    path.write_bytes(image)
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return _selected(con)
    finally:
        con.close()


def _rows_of(batches: Iterable[list[int]]) -> Tables:
    """The rows of t (rowids left out) and w that these transactions inserted."""
    numbers = [n for batch in batches for n in batch]
    return Tables({(None, *_t_row(n)) for n in numbers}, {_w_row(n) for n in numbers}, set())


def _without_rowids(tables: Tables) -> Tables:
    return Tables({(None, *row[1:]) for row in tables.t}, tables.w, set())


def test_checkpointed_healthy_pair_opens_read_only(wal_case: WalCase, tmp_path: Path) -> None:
    image = checkpointed(wal_case.db, wal_case.wal)
    assert image[18:20] == b"\x01\x01"
    assert _open_ro(tmp_path, image) == wal_case.live
    assert _read(image) == wal_case.live


def test_checkpointed_without_a_usable_wal_is_the_db(wal_case: WalCase) -> None:
    plain = wal_case.db[:18] + b"\x01\x01" + wal_case.db[20:]
    assert checkpointed(wal_case.db, None) == plain
    assert checkpointed(wal_case.db, b"") == plain
    assert checkpointed(wal_case.db, wal_case.wal[:32]) == plain
    assert checkpointed(wal_case.db, bytes(50_000)) == plain


def test_checkpointed_torn_tail_is_not_applied(wal_case: WalCase, tmp_path: Path) -> None:
    torn = wal_case.wal[: len(wal_case.wal) - 100]
    got = _open_ro(tmp_path, checkpointed(wal_case.db, torn))
    assert _without_rowids(got) == _rows_of(wal_case.batches[:-1])


def test_checkpointed_past_a_flipped_bit_keeps_what_sqlite_drops(wal_case: WalCase, tmp_path: Path) -> None:
    frame = 5
    commits = wal_case.commits()
    damaged = _flip(wal_case.wal, 32 + frame * wal_case.frame_size + 24 + 3000, 2)
    later = [b for b, c in zip(wal_case.batches, commits[-40:], strict=True) if c >= frame]
    assert len(later) > 30

    # SQLite itself: no error, the transactions from the bad frame on are simply gone.
    sqlite_dir = tmp_path / "sqlite"
    sqlite_dir.mkdir()
    (sqlite_dir / "g.db").write_bytes(wal_case.db)
    (sqlite_dir / "g.db-wal").write_bytes(damaged)
    con = sqlite3.connect(sqlite_dir / "g.db")
    try:
        seen = {row[0] for row in con.execute("SELECT n FROM t")} if _has_table(con, "t") else set()
    finally:
        con.close()
    assert not seen & {n for batch in later for n in batch}

    image = checkpointed(wal_case.db, damaged)
    want = _rows_of(later)
    assert _subset(want, _without_rowids(_read(image)))
    assert _read(image) == wal_case.live  # the one flipped bit was even put right
    assert _open_ro(tmp_path, image) == wal_case.live


def _has_table(con: sqlite3.Connection, name: str) -> bool:
    return con.execute("SELECT 1 FROM sqlite_schema WHERE name = ?", (name,)).fetchone() is not None


@pytest.mark.parametrize("pos", [3, 17, 26])
def test_checkpointed_with_a_damaged_wal_header(wal_case: WalCase, tmp_path: Path, pos: int) -> None:
    image = checkpointed(wal_case.db, _flip(wal_case.wal, pos))
    assert _read(image) == wal_case.live
    assert _open_ro(tmp_path, image) == wal_case.live


# --- what a damaged page or a cut file can hold: each costs what it touches, never the salvage ------------------


def _freelist_db(tmp_path: Path) -> tuple[bytes, Tables]:
    path = tmp_path / "g.db"
    _make_db(path, 600, page_size=1024)
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA secure_delete=OFF")
    con.execute("DELETE FROM t WHERE n BETWEEN 100 AND 500")
    assert con.execute("PRAGMA freelist_count").fetchone()[0] > 10
    expected = _selected(con)
    con.close()
    return path.read_bytes(), expected


def _u32_at(data: bytes, pos: int, value: int) -> bytes:
    return data[:pos] + value.to_bytes(4, "big") + data[pos + 4 :]


def test_a_freelist_astray_never_hides_a_live_page(tmp_path: Path) -> None:
    """A freelist trunk number that lands on a live b-tree page, a trunk whose count is beyond any page, or leaf
    numbers beyond the file: the chain is not trusted there, and every live row is still read."""
    db, expected = _freelist_db(tmp_path)
    trunk = int.from_bytes(db[32:36], "big")
    live = next(p for p, kind in _page_types(db, 1024).items() if kind == 0x0D and p > 1)
    at = (trunk - 1) * 1024
    damaged = [
        _u32_at(db, 32, live),  # the header's first trunk is a table leaf
        _u32_at(db, at + 4, 0xFFFF),  # the trunk counts more leaves than a page holds
        _u32_at(_u32_at(db, at + 8, 0), at + 12, 10**6),  # leaves numbered 0 and past the end of the file
    ]
    for data in damaged:
        assert _subset(expected, _read(data))


def test_a_freelist_trunk_on_the_page_a_cut_file_lost_half_of(small_db: bytes) -> None:
    """The file is cut in the middle of its last page, which its (damaged) freelist names as a trunk."""
    last = len(small_db) // 1024
    cut = small_db[: (last - 1) * 1024] + (0).to_bytes(4, "big") + (200).to_bytes(4, "big") + bytes(92)
    cut = _u32_at(cut, 32, last)
    whole = _read(small_db)
    got = _read(cut)
    assert got.t and got.t <= whole.t


def test_malformed_records_are_skipped_not_misread() -> None:
    from companion.store.pages import _decode_record, _varint

    assert _decode_record(b"\x03\x81\x81") is None  # a column type running off the end of its header
    assert _decode_record(b"\x02\x06") is None  # an 8-byte integer with no bytes
    assert _decode_record(b"\x02\x07") is None  # a real with no bytes
    assert _decode_record(b"\x02\x0a") is None  # serial types 10 and 11 are reserved
    assert _decode_record(b"\x02\x01\x07") == (7,)
    assert _varint(b"\xff" * 8, 0) is None  # a nine-byte varint cut short
    assert _varint(b"\xff" * 9, 0) == (2**64 - 1, 9)


def test_a_cell_cut_at_the_end_of_its_page_and_a_rowid_beyond_63_bits() -> None:
    from companion.store.pages import _cell_record, _payload

    page = bytearray(1024)
    page[-2:] = b"\x05\xff"  # a rowid whose varint runs off the page
    assert _cell_record(bytes(page), bytes(page), 0x0D, 1022, 2, 1024, 1024, 2) is None
    cell = b"\x03" + b"\xff" * 9 + b"\x02\x01\x07"  # rowid 2**64 - 1: SQLite's -1
    page[100 : 100 + len(cell)] = cell
    record = _cell_record(bytes(page), bytes(page), 0x0D, 100, 2, 1024, 1024, 2)
    assert record is not None and record.rowid == -1 and record.values == (7,)
    # A payload whose overflow page is the one a cut file lost most of: no payload, no exception.
    db = bytes(1024 * 2 + 10)
    head = bytearray(1024)
    head[10 + 980 : 10 + 984] = (3).to_bytes(4, "big")  # after the 980 bytes kept on the page itself
    assert _payload(db, bytes(head), 10, 2000, 989, 1024, 1024, 3) is None


def test_a_wal_of_only_its_header_is_no_damage(wal_case: WalCase) -> None:
    """What SQLite leaves after a checkpoint that reset the log: its header and no frame."""
    report = check_wal(wal_case.wal[:32])
    assert report.frames == 0 and not report.damaged and report.detail == "WAL has no frames"
    assert checkpointed(wal_case.db, wal_case.wal[:32])[100:] == wal_case.db[100:]


def test_a_frame_whose_page_number_reads_0_ends_what_sqlite_replays(wal_case: WalCase) -> None:
    at = 32 + 3 * wal_case.frame_size
    report = check_wal(_u32_at(wal_case.wal, at, 0))
    assert report.damaged and "frame 4 of" in report.detail and "has page number 0" in report.detail
    assert report.replayed <= 3


def test_a_cell_pointer_into_the_page_header_costs_that_cell_only(small_db: bytes) -> None:
    whole = _read(small_db)
    leaf = next(p for p, kind in _page_types(small_db, 1024).items() if kind == 0x0D and p > 1)
    at = (leaf - 1) * 1024
    damaged = small_db[: at + 8] + bytes(2) + small_db[at + 10 :]  # its first cell "at" offset 0
    got = _read(damaged)
    assert got.t <= whole.t and len(whole.t - got.t) == 1


def test_a_payload_size_beyond_every_page_of_the_file_is_no_payload() -> None:
    """A flipped bit in a cell's payload size: more overflow pages than the file has is damage, not a chain."""
    from companion.store.pages import _payload

    page = bytes(1024)
    assert _payload(page * 3, page, 10, 10**9, 989, 1024, 1024, 3) is None


def test_a_reserved_bytes_count_that_took_a_flipped_bit_loses_no_row(small_db: bytes) -> None:
    """Byte 20 of the header (bytes reserved at the end of every page) reads 32 instead of 0: cells that spill
    to overflow pages are read again as if nothing were reserved."""
    damaged = small_db[:20] + bytes([32]) + small_db[21:]
    assert _subset(_read(small_db), _read(damaged))
