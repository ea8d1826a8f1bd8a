"""Read raw SQLite database and WAL bytes without SQLite, for salvaging damaged files. Pure.

SQLite itself stops at the first thing it cannot read: a database page that does not parse ends the
query, and a WAL frame whose checksum fails ends WAL recovery, silently dropping every transaction
committed after it. This module reads the bytes liberally instead: `records` yields every record it
can parse from every page, `check_wal` says whether SQLite would drop committed transactions, and
`checkpointed` lays every committed WAL frame it can verify over the database pages, past a bad one.

Nothing here ever raises on malformed input: whatever does not parse is skipped. The caller (the
store) checks each row's own checksum, so yielding the odd garbage record is harmless; missing a
good one is not. The layouts are those of https://www.sqlite.org/fileformat2.html.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

__all__ = ["Record", "WalReport", "check_wal", "checkpointed", "records"]

_DB_HEADER = 100
_PAGE_SIZES = tuple(1 << k for k in range(9, 17))
_DEFAULT_PAGE_SIZE = 4096
_GUESS_SPAN = 1 << 18  # bytes looked at to guess a damaged header's page size
_MIN_USABLE = 480  # SQLite refuses a usable page size below this

_TABLE_LEAF = 0x0D
_TABLE_INTERIOR = 0x05
_INDEX_LEAF = 0x0A
_INDEX_INTERIOR = 0x02
_BTREE_TYPES = (_INDEX_INTERIOR, _TABLE_INTERIOR, _INDEX_LEAF, _TABLE_LEAF)

_WAL_MAGIC_LE = 0x377F0682
_WAL_MAGIC_BE = 0x377F0683
_WAL_VERSION = 3007000
_WAL_HEADER = 32
_FRAME_HEADER = 24
_SCORED_FRAMES = 8  # frames tried per guess of a damaged WAL header's byte order and page size
_MASK = 0xFFFFFFFF

_Value = int | float | str | bytes | None  # one column value, as sqlite3 returns it


# --- public API ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WalReport:
    """What SQLite would make of a WAL file, and whether it would silently drop committed data."""

    frames: int  # whole frames present in the file after the 32-byte header
    replayed: int  # frames SQLite itself would replay: the valid checksum-chained prefix, up to its last commit
    damaged: bool  # True when committed data would be silently dropped by SQLite
    lost_commits: int  # commit frames beyond where SQLite stops that still verify against their predecessor
    detail: str  # one short English phrase for logs


class Record(NamedTuple):
    """One record read from a b-tree page (a named tuple: a salvage makes tens of thousands)."""

    page: int  # 1-based page number it was read from
    rowid: int | None  # the rowid for table b-tree cells; None for index b-tree cells (WITHOUT ROWID tables)
    values: tuple[int | float | str | bytes | None, ...]


def check_wal(wal: bytes) -> WalReport:
    """Count the frames of `wal`, those SQLite would replay, and the committed transactions it would drop.

    A commit frame beyond the point where SQLite stops counts as lost when it carries the generation's
    salts and verifies against its predecessor's stored checksum (or against the checksum the predecessor
    should have had, or after correcting a single flipped bit in it). A torn uncommitted tail and stale
    frames of an older generation are not damage.
    """
    if len(wal) < _WAL_HEADER:
        return WalReport(0, 0, False, 0, "empty WAL" if not wal else "WAL shorter than its header")
    scan = _scan_wal(wal, None)
    frames = len(scan.frames)
    lost = sum(1 for f in scan.frames[scan.replayed :] if f.sound and f.commit)
    if scan.header_problem is not None:
        if lost:
            detail = f"WAL header {scan.header_problem}; {_transactions(lost)} in {frames} frames ignored"
        else:
            detail = f"WAL header {scan.header_problem}; no committed frames lost"
    elif scan.first_bad is not None:
        where = f"frame {scan.first_bad + 1} of {frames} {scan.bad_reason}"
        detail = f"{where}; {_transactions(lost)} from there on dropped" if lost else f"{where}; no commit after it"
    elif frames == 0:
        detail = "WAL has no frames"
    elif scan.replayed == frames:
        detail = f"{frames} frames, all replayed"
    else:
        detail = f"{frames} frames, {scan.replayed} replayed; uncommitted tail of {frames - scan.replayed}"
    return WalReport(frames, scan.replayed, lost > 0, lost, detail)


def checkpointed(db: bytes, wal: bytes | None, *, unsound: bool = True) -> bytes:
    """The database as it would be with the WAL applied: every frame of the WAL's current generation
    up to its LAST commit frame that verifies against its predecessor's stored checksum (so frames
    past a flipped bit are applied too, and a torn uncommitted tail is not), laid over the db file's
    pages; truncated/extended to the database size recorded in that commit frame. With no or an
    empty/unusable WAL, the db bytes unchanged. The result has the WAL flag in the header cleared
    (file format bytes 18 and 19 set to 1) so that sqlite3 can open it read-only without a -wal file.

    A frame whose checksum fails by one flipped bit is applied corrected. Other failing frames before
    that commit are applied as they are when their salts are intact, since a bad stored checksum or a
    bad byte in a row costs at most that row, which the store's own checksums reject. With
    ``unsound=False`` they are left out instead, so that the page keeps its previous copy: a salvage
    reads both, and keeps of each row the newest version that checks out.
    """
    out = bytearray(db)
    if wal is not None and len(wal) >= _WAL_HEADER:
        db_size = _header_page_size(db)
        scan = _scan_wal(wal, db_size)
        last = max((i for i, f in enumerate(scan.frames) if f.sound and f.commit), default=None)
        if last is not None:
            ps = scan.page_size
            pages = scan.frames[last].commit
            applied = [f for f in scan.frames[: last + 1] if f.sound or (unsound and f.exact_salts)]
            # Every page up to the commit's size lives in the db file or in a frame, so no more pages than
            # those can hold anything: capping by them keeps forged numbers from allocating terabytes.
            db_pages = -(-len(out) // ps)
            written = [p for f in applied for p in f.pgnos if p <= pages]
            pages = min(pages, max([db_pages, *written]), db_pages + len(set(written)))
            del out[pages * ps :]
            out.extend(bytes(pages * ps - len(out)))
            for frame in applied:
                # A page whose number is in doubt stays out: written at the wrong number it would wipe out
                # another page's rows, while leaving it out costs only what changed in it since its last write.
                if len(frame.pgnos) == 1 and 0 < frame.pgnos[0] <= pages:
                    start = (frame.pgnos[0] - 1) * ps
                    out[start : start + ps] = frame.data(wal)
    if len(out) >= 20:
        out[18] = out[19] = 1
    return bytes(out)


def records(db: bytes, *, known: Callable[[Record, Record], bool] | None = None) -> Iterator[Record]:
    """Every record in every table-leaf and index-leaf page of `db` (pass `checkpointed(...)` to include the WAL),
    following overflow chains, skipping pages on the freelist when the freelist can be read, and skipping any
    cell, page or chain that does not parse.

    Interior index pages (0x02) are read too: an index b-tree keeps some of its entries only there, so a
    WITHOUT ROWID table's rows would otherwise go missing.

    `known(first, last)`, given an index leaf page's first and last records, may say that every record between
    them is already known (read through SQLite and checked): that page is then skipped.
    """
    ps, usable = _geometry(db)
    n_pages = -(-len(db) // ps)
    free = _free_pages(db, ps, usable, n_pages)
    for pgno in range(1, n_pages + 1):
        if pgno not in free:
            yield from _page_records(db, pgno, ps, usable, n_pages, known)


# --- database pages --------------------------------------------------------------------------------


def _u16(buf: bytes, pos: int) -> int:
    return (buf[pos] << 8) | buf[pos + 1]


def _u32(buf: bytes, pos: int) -> int:
    return int.from_bytes(buf[pos : pos + 4], "big")


def _header_page_size(db: bytes) -> int | None:
    """The page size the database header states, or None when it is missing or not a valid size."""
    if len(db) < 18:
        return None
    raw = _u16(db, 16)
    size = 65536 if raw == 1 else raw
    return size if size in _PAGE_SIZES else None


def _geometry(db: bytes) -> tuple[int, int]:
    """Page size and usable page size (page size less the reserved bytes) of `db`."""
    size = _header_page_size(db)
    if size is None:
        return (size := _guess_page_size(db)), size
    usable = size - db[20] if len(db) > 20 else size
    # A reserved-bytes count that leaves too little is itself damage; most files reserve nothing.
    return size, usable if usable >= _MIN_USABLE else size


def _plausible_btree_page(page: bytes, hdr: int) -> bool:
    """Whether `page` starts (at `hdr`) like a b-tree page whose cell pointers all land inside it."""
    if len(page) < hdr + 12 or page[hdr] not in _BTREE_TYPES:
        return False
    ptrs = hdr + (12 if page[hdr] in (_INDEX_INTERIOR, _TABLE_INTERIOR) else 8)
    ncells = _u16(page, hdr + 3)
    if ncells == 0 or ptrs + 2 * ncells > len(page):
        return False
    return all(ptrs + 2 * ncells <= _u16(page, ptrs + 2 * i) < len(page) for i in range(ncells))


def _guess_page_size(db: bytes) -> int:
    """The page size at which most of the file's pages look like b-tree pages, for a damaged header."""
    counts: dict[int, int] = {}
    span = min(len(db), _GUESS_SPAN)  # the same bytes for every size, so that the counts compare
    for size in _PAGE_SIZES:
        pages = span // size
        counts[size] = sum(
            _plausible_btree_page(db[i * size : (i + 1) * size], _DB_HEADER if i == 0 else 0) for i in range(pages)
        )
    best = max(counts.values())
    if best == 0:
        return _DEFAULT_PAGE_SIZE
    # Read at twice the real size every other page still looks right, so prefer the largest size that
    # finds nearly as many pages as the best one rather than the one that happens to find the most.
    return max(size for size, count in counts.items() if count * 4 >= best * 3)


def _free_pages(db: bytes, ps: int, usable: int, n_pages: int) -> set[int]:
    """Pages on the freelist, as far as its trunk chain can be followed."""
    free: set[int] = set()
    if len(db) < 40:
        return free
    trunk = _u32(db, 32)
    seen: set[int] = set()
    while 1 < trunk <= n_pages and trunk not in seen:  # page 1 is never free
        seen.add(trunk)
        start = (trunk - 1) * ps
        page = db[start : start + ps]
        if len(page) < 8 or page[0] in _BTREE_TYPES:
            # A next-trunk number starting with such a byte would be beyond any real file: the chain
            # has gone astray into a live page, and trusting it would hide that page's rows.
            break
        count = _u32(page, 4)
        if count > usable // 4 - 2:
            break
        free.add(trunk)
        for i in range(count):
            pos = 8 + 4 * i
            if pos + 4 > len(page):
                break
            leaf = _u32(page, pos)
            if 1 < leaf <= n_pages:
                free.add(leaf)
        trunk = _u32(page, 0)
    return free


def _varint(buf: bytes, pos: int) -> tuple[int, int] | None:
    """(value, length) of the SQLite varint at `pos`, or None when it runs off the end of `buf`."""
    value = 0
    for i in range(8):
        if pos + i >= len(buf):
            return None
        byte = buf[pos + i]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, i + 1
    if pos + 8 >= len(buf):
        return None
    return (value << 8) | buf[pos + 8], 9


def _page_records(
    db: bytes, pgno: int, ps: int, usable: int, n_pages: int, known: Callable[[Record, Record], bool] | None = None
) -> Iterator[Record]:
    """The records of the cells of one page, when it is a table leaf or an index page."""
    start = (pgno - 1) * ps
    # Cells belong in the usable part of the page, but a flipped reserved-bytes count must not cut
    # off the cells at the end of every page: bounds are checked against the whole page.
    page = db[start : start + ps]
    hdr = _DB_HEADER if pgno == 1 else 0
    if len(page) < hdr + 12:
        return
    kind = page[hdr]
    if kind not in (_TABLE_LEAF, _INDEX_LEAF, _INDEX_INTERIOR):
        return
    ptrs = hdr + (12 if kind == _INDEX_INTERIOR else 8)
    count = _u16(page, hdr + 3)
    if known is not None and kind == _INDEX_LEAF and count and ptrs + 2 * count <= len(page):
        ends = [
            _cell_record(db, page, kind, _u16(page, ptrs + 2 * i), pgno, ps, usable, n_pages) for i in (0, count - 1)
        ]
        if ends[0] is not None and ends[1] is not None and known(ends[0], ends[1]):
            return
    for i in range(count):
        pos = ptrs + 2 * i
        if pos + 2 > len(page):
            break
        cell = _u16(page, pos)
        if cell < ptrs:
            continue
        # Every read below is bounds-checked (`_varint`, `_payload`, `_decode_record`): a cell that does not
        # parse is None, never an exception (the fault campaigns and `test_store_pages` flip thousands of bits).
        record = _cell_record(db, page, kind, cell, pgno, ps, usable, n_pages)
        if record is None and usable != ps:
            # The usable size decides where a payload spills to overflow pages; should the
            # reserved-bytes count be a flipped bit, the cell parses as if nothing were reserved.
            record = _cell_record(db, page, kind, cell, pgno, ps, ps, n_pages)
        if record is not None:
            yield record


def _cell_record(
    db: bytes, page: bytes, kind: int, cell: int, pgno: int, ps: int, usable: int, n_pages: int
) -> Record | None:
    """The record in the cell at offset `cell` of `page`, or None when it does not parse."""
    pos = cell + 4 if kind == _INDEX_INTERIOR else cell  # skip an interior cell's left-child pointer
    size = _varint(page, pos)
    if size is None:
        return None
    payload_size, n = size
    pos += n
    rowid = None
    if kind == _TABLE_LEAF:
        if pos < len(page) and page[pos] < 0x80:  # a rowid below 128, read inline (most games' ids)
            rowid, n = page[pos], 1
        else:
            key = _varint(page, pos)
            if key is None:
                return None
            rowid, n = key
        pos += n
        if rowid >= 1 << 63:
            rowid -= 1 << 64
        max_local = usable - 35
    else:
        max_local = (usable - 12) * 64 // 255 - 23
    payload = _payload(db, page, pos, payload_size, max_local, ps, usable, n_pages)
    if payload is None:
        return None
    values = _decode_record(payload)
    return None if values is None else Record(pgno, rowid, values)


def _payload(
    db: bytes, page: bytes, pos: int, size: int, max_local: int, ps: int, usable: int, n_pages: int
) -> bytes | None:
    """A cell's payload of `size` bytes starting at `pos` in `page`, following its overflow chain."""
    if size <= max_local:
        return page[pos : pos + size] if pos + size <= len(page) else None
    min_local = (usable - 12) * 32 // 255 - 23
    per_page = usable - 4
    local = min_local + (size - min_local) % per_page
    if local > max_local:
        local = min_local
    if pos + local + 4 > len(page):
        return None
    remaining = size - local
    if -(-remaining // per_page) > n_pages:
        return None  # more overflow pages than the file has: a damaged size, not a real chain
    parts = [page[pos : pos + local]]
    nxt = _u32(page, pos + local)
    seen: set[int] = set()
    while remaining > 0:
        if not 0 < nxt <= n_pages or nxt in seen:
            return None
        seen.add(nxt)
        start = (nxt - 1) * ps
        take = min(remaining, per_page)
        chunk = db[start + 4 : start + 4 + take]
        if len(chunk) < take:
            return None
        parts.append(chunk)
        remaining -= take
        nxt = _u32(db, start)
    return b"".join(parts)


def _decode_record(payload: bytes) -> tuple[_Value, ...] | None:
    """The column values of a record, or None when it is not a well-formed record.

    Written for speed (a salvage decodes every record of the file): one-byte varints, nearly every header
    byte, are read inline; longer ones go through `_varint`.
    """
    end = len(payload)
    if not end:
        return None
    header_size = payload[0]
    pos = 1
    if header_size >= 0x80:
        head = _varint(payload, 0)
        if head is None:
            return None
        header_size, pos = head
    if header_size > end:
        return None
    types: list[int] = []
    while pos < header_size:
        byte = payload[pos]
        if byte < 0x80:
            types.append(byte)
            pos += 1
            continue
        item = _varint(payload, pos)
        if item is None:
            return None
        types.append(item[0])
        pos += item[1]
    if pos != header_size:
        return None
    values: list[_Value] = []
    append = values.append
    for kind in types:
        if kind >= 12:
            width = (kind - 12) >> 1
            stop = pos + width
            if stop > end:
                return None
            if kind & 1:
                try:
                    append(payload[pos:stop].decode("utf-8"))
                except UnicodeDecodeError:
                    return None
            else:
                append(payload[pos:stop])
            pos = stop
        elif kind == 0:
            append(None)
        elif kind < 7:
            stop = pos + _INT_WIDTHS[kind]
            if stop > end:
                return None
            append(int.from_bytes(payload[pos:stop], "big", signed=True))
            pos = stop
        elif kind == 7:
            if pos + 8 > end:
                return None
            append(_DOUBLE.unpack_from(payload, pos)[0])
            pos += 8
        elif kind < 10:
            append(kind - 8)
        else:
            return None  # serial types 10 and 11 are reserved
    # SQLite writes records exactly; leftover bytes mean the header was misread.
    return tuple(values) if pos == end else None


_INT_WIDTHS = (0, 1, 2, 3, 4, 6, 8)
_DOUBLE = struct.Struct(">d")


# --- WAL -------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _words_format(big: bool, count: int) -> struct.Struct:
    return struct.Struct(f"{'>' if big else '<'}{count}I")


def _checksum(words: tuple[int, ...], seed: tuple[int, int]) -> tuple[int, int]:
    """SQLite's WAL checksum of `words` (an even number of them), continuing from `seed`."""
    s0, s1 = seed  # an odd number of words is a mistake here: `zip(..., strict=True)` raises on it
    it = iter(words)
    n = 0
    # Masked every 16 pairs, not every step (sums modulo 2**32 come out the same): reading a WAL verifies
    # every frame, and this loop is most of that time.
    for a, b in zip(it, it, strict=True):
        s0 += a + s1
        s1 += b + s0
        n += 1
        if n == 16:
            s0 &= _MASK
            s1 &= _MASK
            n = 0
    return s0 & _MASK, s1 & _MASK


def _one_bit_fixes(words: tuple[int, ...], seed: tuple[int, int], stored: tuple[int, int]) -> list[tuple[int, int]]:
    """Every (index, corrected value) of a word whose single flipped bit would explain `words` missing `stored`.

    Each step of the checksum is invertible, so running it forwards from the seed and backwards from
    the stored checksum gives the true state before and after every pair of words up to and from a
    damaged one; at the damaged pair the two determine the words that belong there. The checksum is
    weak in its high bits (flipping bit 31 of words 2j and 2j+3 cancels out), so one flip can have
    several explanations; the true one is always among them.
    """
    pairs = len(words) // 2
    fwd: list[tuple[int, int]] = [seed]
    s0, s1 = seed
    for j in range(pairs):
        s0 = (s0 + words[2 * j] + s1) & _MASK
        s1 = (s1 + words[2 * j + 1] + s0) & _MASK
        fwd.append((s0, s1))
    fixes: list[tuple[int, int]] = []
    t0, t1 = stored
    for k in range(pairs - 1, -1, -1):
        p0, p1 = fwd[k]  # the state before pair k
        a = (t0 - p0 - p1) & _MASK
        b = (t1 - p1 - t0) & _MASK
        da, db = a ^ words[2 * k], b ^ words[2 * k + 1]
        if da.bit_count() + db.bit_count() == 1:
            fixes.append((2 * k, a) if da else (2 * k + 1, b))
        t1 = (t1 - words[2 * k + 1] - t0) & _MASK
        t0 = (t0 - words[2 * k] - t1) & _MASK
    return fixes


def _repair(
    words: tuple[int, ...], big: bool, seed: tuple[int, int], stored: tuple[int, int], computed: tuple[int, int]
) -> tuple[tuple[int, ...], int, bytes | None] | None:
    """(page numbers, commit size, corrected page or None) of a frame that one flipped bit explains, else None.

    There are several page numbers when the explanations disagree on it. The page is corrected only when
    there is one explanation: applying a wrong one would damage a second row, leaving it costs at most one.
    """
    header = struct.unpack(">II", _words_format(big, 2).pack(*words[:2]))
    explained: list[tuple[tuple[int, int], int, int]] = []  # (implied header, index, corrected word)
    for index, value in _one_bit_fixes(words, seed, stored):
        if index < 2:
            fixed_words = list(words[:2])
            fixed_words[index] = value
            explained.append((struct.unpack(">II", _words_format(big, 2).pack(*fixed_words)), index, value))
        else:
            explained.append((header, index, value))
    if _bit_distance(computed, stored) == 1:
        explained.append((header, -1, 0))  # the stored checksum itself took the flip
    # SQLite never writes a frame for page 0, so an explanation that leaves one is no explanation.
    explained = [e for e in explained if e[0][0] != 0]
    if not explained:
        return None
    headers = {implied for implied, _, _ in explained}
    pgnos = tuple(sorted({pgno for pgno, _ in headers}))
    commits = {commit for _, commit in headers}
    commit = commits.pop() if len(commits) == 1 else header[1]
    page = None
    if len(explained) == 1 and explained[0][1] >= 2:
        fixed_page = list(words[2:])
        fixed_page[explained[0][1] - 2] = explained[0][2]
        page = _words_format(big, len(fixed_page)).pack(*fixed_page)
    return pgnos, commit, page


@dataclass(frozen=True)
class _Frame:
    """One WAL frame as read, with its header corrected when a single flipped bit could be found."""

    offset: int  # of its page data in the WAL
    size: int  # page size
    pgnos: tuple[int, ...]  # its page number; several when a flipped bit may have been in it or elsewhere
    commit: int  # database size in pages after a commit frame, else 0
    exact_salts: bool  # the generation's salts exactly
    sound: bool  # the generation's salts (one flipped bit forgiven) and a checksum that verifies or is fixed
    fixed: bytes | None  # the corrected page data, when a flipped bit was found in it

    def data(self, wal: bytes) -> bytes:
        """The page this frame carries."""
        return self.fixed if self.fixed is not None else wal[self.offset : self.offset + self.size]


@dataclass(frozen=True)
class _WalScan:
    page_size: int
    header_problem: str | None  # why SQLite ignores the whole WAL, or None
    frames: list[_Frame]
    replayed: int
    first_bad: int | None  # index of the first frame SQLite rejects, with the header usable
    bad_reason: str


def _wal_header_problem(wal: bytes) -> str | None:
    magic, version, size = struct.unpack_from(">III", wal, 0)
    if magic not in (_WAL_MAGIC_LE, _WAL_MAGIC_BE):
        return "has a bad magic number"
    if version != _WAL_VERSION:
        return "has an unknown format version"
    if size not in _PAGE_SIZES:
        return "has a bad page size"
    big = magic == _WAL_MAGIC_BE
    if _checksum(_words_format(big, 6).unpack_from(wal, 0), (0, 0)) != struct.unpack_from(">II", wal, 24):
        return "fails its checksum"
    return None


def _frame_words(wal: bytes, offset: int, big: bool, ps: int) -> tuple[int, ...]:
    """The words a frame's checksum covers: the first 8 bytes of its header, then its page."""
    return _words_format(big, 2).unpack_from(wal, offset) + _words_format(big, ps // 4).unpack_from(wal, offset + 24)


def _score(wal: bytes, big: bool, ps: int) -> int:
    """How many of the first frames, read with this byte order and page size, chain to their predecessor."""
    header = _words_format(big, 6).unpack_from(wal, 0)
    seeds = {struct.unpack_from(">II", wal, 24), _checksum(header, (0, 0))}
    score = 0
    for i in range(min(_SCORED_FRAMES, (len(wal) - _WAL_HEADER) // (_FRAME_HEADER + ps))):
        offset = _WAL_HEADER + i * (_FRAME_HEADER + ps)
        stored = struct.unpack_from(">II", wal, offset + 16)
        words = _frame_words(wal, offset, big, ps)
        score += words[0] != 0 and any(_checksum(words, seed) == stored for seed in seeds)
        seeds = {stored}
    return score


def _guess_layout(wal: bytes, hint: int | None) -> tuple[bool, int]:
    """Byte order and page size for a WAL whose header SQLite rejects: whichever makes its frames chain."""
    magic, _, size = struct.unpack_from(">III", wal, 0)
    # SQLite writes the native order, and the hosts we run on are little-endian.
    orders = [magic == _WAL_MAGIC_BE, magic != _WAL_MAGIC_BE]
    sizes = list(dict.fromkeys([s for s in (size, hint) if s in _PAGE_SIZES] + [_DEFAULT_PAGE_SIZE, *_PAGE_SIZES]))
    best = (-1, orders[0], sizes[0])
    for big in orders:
        for ps in sizes:
            frames = (len(wal) - _WAL_HEADER) // (_FRAME_HEADER + ps)
            score = _score(wal, big, ps)
            if score > best[0]:
                best = (score, big, ps)
            if frames and score == min(frames, _SCORED_FRAMES):
                return big, ps
    return best[1], best[2]


def _scan_wal(wal: bytes, hint: int | None) -> _WalScan:
    """Read every whole frame of `wal` (at least 32 bytes long), as SQLite would and as salvage can."""
    problem = _wal_header_problem(wal)
    # The page-size hint matters only where the header is unusable: one scan then serves every caller.
    return _scan_wal_once(wal, hint if problem is not None else None, problem)


@lru_cache(maxsize=2)
def _scan_wal_once(wal: bytes, hint: int | None, problem: str | None) -> _WalScan:
    """`_scan_wal`, remembered: opening, checking and salvaging one WAL read its frames (and verify every
    checksum, a Python loop per word) once, not once per look. Two kept: the WAL and a cut copy of it."""
    if problem is None:
        magic, _, ps = struct.unpack_from(">III", wal, 0)
        big = magic == _WAL_MAGIC_BE
    else:
        big, ps = _guess_layout(wal, hint)
    stride = _FRAME_HEADER + ps
    count = (len(wal) - _WAL_HEADER) // stride
    # When SQLite ignores the header, frame 1 is what names the generation.
    salts = wal[16:24] if problem is None else wal[_WAL_HEADER + 8 : _WAL_HEADER + 16]
    prev_stored = struct.unpack_from(">II", wal, 24)
    prev_computed = _checksum(_words_format(big, 6).unpack_from(wal, 0), (0, 0))
    frames: list[_Frame] = []
    replayed = 0
    first_bad: int | None = None
    bad_reason = ""
    for i in range(count):
        offset = _WAL_HEADER + i * stride
        stored_pgno, stored_commit = struct.unpack_from(">II", wal, offset)
        pgnos: tuple[int, ...] = (stored_pgno,)
        commit = stored_commit
        frame_salts = wal[offset + 8 : offset + 16]
        stored = struct.unpack_from(">II", wal, offset + 16)
        words = _frame_words(wal, offset, big, ps)
        computed = _checksum(words, prev_stored)
        exact = frame_salts == salts
        near = exact or (int.from_bytes(frame_salts, "big") ^ int.from_bytes(salts, "big")).bit_count() == 1
        # A frame after one whose stored checksum took a flipped bit chains to what that checksum should have been.
        verifies = computed == stored or (prev_computed != prev_stored and _checksum(words, prev_computed) == stored)
        fixed: bytes | None = None
        if near and not verifies:
            repair = _repair(words, big, prev_stored, stored, computed)
            if repair is not None:
                pgnos, commit, fixed = repair
                verifies = True
        sound = near and verifies and 0 not in pgnos
        frames.append(_Frame(offset + _FRAME_HEADER, ps, pgnos, commit, exact, sound, fixed))
        if problem is None and first_bad is None:
            # SQLite's own recovery: exact salts, a page number, and the unbroken checksum chain.
            if not exact:
                first_bad, bad_reason = i, "carries other salts"
            elif stored_pgno == 0:
                first_bad, bad_reason = i, "has page number 0"
            elif computed != stored:
                first_bad, bad_reason = i, "fails its checksum"
            elif stored_commit:
                replayed = i + 1
        prev_stored, prev_computed = stored, computed
    return _WalScan(ps, problem, _settle_page_numbers(frames), replayed, first_bad, bad_reason)


def _settle_page_numbers(frames: list[_Frame]) -> list[_Frame]:
    """`frames` with doubtful page numbers narrowed to those within the size of the database their transaction
    commits: a transaction writes no page beyond it."""
    settled: list[_Frame] = []
    size = None
    for frame in reversed(frames):
        if frame.sound and frame.commit:
            size = frame.commit
        if len(frame.pgnos) > 1 and size is not None:
            frame = replace(frame, pgnos=tuple(p for p in frame.pgnos if p <= size))
        settled.append(frame)
    return settled[::-1]


def _bit_distance(x: tuple[int, int], y: tuple[int, int]) -> int:
    return (x[0] ^ y[0]).bit_count() + (x[1] ^ y[1]).bit_count()


def _transactions(n: int) -> str:
    return f"{n} committed transaction{'s' if n != 1 else ''}"
