"""The damaged games files of the fault-injection campaign (issue 11), shared by the store and UI tests.

`build(folder)` plays real games of every game through a real `Session` on `Store.open` from the golden
scripts, and copies ``games.db`` and ``games.db-wal`` while the writer is still open: exactly what a
pulled plug leaves (the older games checkpointed into the main file, the newer ones only in the WAL).
`flips(corpus)` picks the single-bit flips with a fixed seed, and `damaged(corpus, flip, folder)` makes
one flipped copy.

`build_closed(folder)` is the other kind of file (issue 22): four games in a file closed cleanly (no WAL),
with the backups the store made beside it. Its first page holds the schema, SQLite's text of every table;
`page_one_flips` aims there, and `NAMED` are the flips issue 22 found broken (a traceback, or every move
refused as weather).
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.session import Session
from companion.store import Store
from tests.support.clocks import TickingClock
from tests.support.golden import FOLDER, read
from tests.support.golden import play as golden_play

SEED = 2026
DB = "games.db"
WAL = "games.db-wal"
PAGE = 4096
WAL_HEADER = 32
FRAME_HEADER = 24


@dataclass(frozen=True)
class Play:
    """One game of the corpus: a golden script, how far it is played, then undos, redos, or abandoned."""

    script: str
    cut: float = 1.0  # the share of the script's lines played (1.0: to the end)
    undo: int = 0
    redo: int = 0
    abandon: bool = False


# Played first, then the store is closed: these live in the main file.
OLDER = (
    Play("quintet-two-players"),
    Play("quintet-three-tie"),  # undo and redo in the script
    Play("quin-key-light-captured"),
    Play("quinque-row-win"),  # undo and redo in the script itself
    Play("quantum-link-tie"),
    Play("quark-2p-beryllium-tie", cut=0.3, abandon=True),
    Play("quinque-small-tie", undo=1),  # finished, then taken back: unfinished with a redo list
    Play("finger-chooser-gaps-and-leaving"),  # a tool (issue 27): put away, nobody winning
)
# Played after reopening, and copied while the store is open: these live only in the WAL.
NEWER = (
    Play("quin-undo-light-takes-light"),  # undo in the script
    Play("quantum-link-rules-example"),
    Play("quinque-diagonal-win", cut=0.5),
    Play("quark-2p-beryllium-tie", cut=0.1, undo=2, redo=1),
    Play("dice-tray-five-dice-three-rolls", cut=0.6, undo=2, redo=1),  # a tool for any game (issue 27)
    Play("finger-chooser-choices-and-teams", cut=0.6, undo=1),  # a tool's draws kept with its undone choice
    Play("quintet-five-players", cut=0.3, undo=3, redo=1),  # the newest unfinished game: the one resumed
)


@dataclass(frozen=True)
class Corpus:
    folder: Path
    db: bytes
    wal: bytes
    backups: tuple[tuple[str, bytes], ...] = ()  # (name, bytes) of each backup beside it, oldest first

    @property
    def frames(self) -> int:
        return (len(self.wal) - WAL_HEADER) // (FRAME_HEADER + PAGE)


@dataclass(frozen=True, order=True)
class Flip:
    file: str  # DB or WAL
    offset: int
    bit: int
    where: str = ""  # what lies there, in a word or two

    def __str__(self) -> str:
        return f"{self.file}@{self.offset}^{1 << self.bit:#04x} ({self.where})"


def play(store: Store, plan: Play, clock: TickingClock) -> Session:
    lines = read(FOLDER / f"{plan.script}.jsonl").lines
    session: Session = golden_play(store, plan.script, upto=max(1, round(len(lines) * plan.cut)), clock=clock)
    for _ in range(plan.undo):
        assert session.undo()
    for _ in range(plan.redo):
        assert session.redo()
    if plan.abandon:
        session.abandon()
    return session


def build(folder: Path) -> Corpus:
    """Play the corpus in `folder`/play and leave the pulled-plug pair in `folder`/corpus."""
    live = folder / "play" / DB
    clock = TickingClock()  # 1.25 s on at every look: every time stored is the same on every run
    with Store.open(live, clock=clock) as store:
        for plan in OLDER:
            play(store, plan, clock)
    store = Store.open(live, clock=clock)
    try:
        for plan in NEWER:
            play(store, plan, clock)
        out = folder / "corpus"
        out.mkdir()
        # synchronous=FULL: every commit is on disk, so these copies are what a power cut leaves
        shutil.copyfile(live, out / DB)
        shutil.copyfile(live.with_name(WAL), out / WAL)
    finally:
        store.close()
    return Corpus(out, (out / DB).read_bytes(), (out / WAL).read_bytes())


def _where_db(offset: int) -> str:
    if offset < 100:
        return "db header"
    return f"page {offset // PAGE + 1}"


def _where_wal(offset: int, page_one: list[int]) -> str:
    if offset < WAL_HEADER:
        return "WAL header"
    frame, inside = divmod(offset - WAL_HEADER, FRAME_HEADER + PAGE)
    if inside < FRAME_HEADER:
        return f"frame {frame + 1} header"
    if frame in page_one and inside < FRAME_HEADER + 100:
        return f"frame {frame + 1} db header"  # page 1 as the WAL holds it
    return f"frame {frame + 1} page"


# Header fields whose damage SQLite cannot shrug off: page size, WAL flags, reserved bytes, payload fractions,
# text encoding, user version (our schema), application id (our stamp).
_VITAL = (16, 17, 18, 19, 20, 21, 22, 23, 56, 57, 58, 59, 60, 61, 62, 63, 68, 69, 70, 71)


def frame_pages(wal: bytes) -> list[int]:
    """The page number each WAL frame holds, in order."""
    frames = (len(wal) - WAL_HEADER) // (FRAME_HEADER + PAGE)
    at = [WAL_HEADER + i * (FRAME_HEADER + PAGE) for i in range(frames)]
    return [int.from_bytes(wal[start : start + 4], "big") for start in at]


def flips(corpus: Corpus, *, seed: int = SEED) -> list[Flip]:
    """The campaign: ≥ 150 flips in each file, some aimed at the headers (the db's, the WAL's, frames', and
    page 1 as the WAL holds it) and at the last transaction (nothing after it to tell it was committed)."""
    rng = random.Random(seed)
    chosen: set[tuple[str, int, int]] = set()
    frame = FRAME_HEADER + PAGE
    page_one = [i for i, pgno in enumerate(frame_pages(corpus.wal)) if pgno == 1]
    # The WAL holds page 1 only where a newer game grew the file: a corpus too small for that misses an aim.
    assert page_one, "no WAL frame holds page 1: play more games after reopening, so the file grows"
    last = corpus.frames - 1

    def take(count: int, file: str, offset: Callable[[], int]) -> None:
        goal = len(chosen) + count
        while len(chosen) < goal:
            chosen.add((file, offset(), rng.randrange(8)))

    take(20, DB, lambda: rng.randrange(100))  # page 1's header
    take(12, DB, lambda: rng.choice(_VITAL))
    take(128, DB, lambda: rng.randrange(len(corpus.db)))
    take(10, WAL, lambda: rng.randrange(WAL_HEADER))
    take(30, WAL, lambda: WAL_HEADER + rng.randrange(corpus.frames) * frame + rng.randrange(FRAME_HEADER))
    take(6, WAL, lambda: WAL_HEADER + last * frame + rng.randrange(FRAME_HEADER))  # the last commit frame
    take(12, WAL, lambda: WAL_HEADER + rng.choice(page_one[-2:]) * frame + FRAME_HEADER + rng.randrange(100))
    take(10, WAL, lambda: WAL_HEADER + (last - rng.randrange(4)) * frame + rng.randrange(frame))
    take(82, WAL, lambda: rng.randrange(len(corpus.wal)))
    return [
        Flip(file, offset, bit, _where_db(offset) if file == DB else _where_wal(offset, page_one))
        for file, offset, bit in sorted(chosen)
    ]


# The closed four-game file: three finished games and one left unfinished (its next line is legal).
CLOSED = (
    Play("quintet-two-players"),
    Play("quin-key-light-captured"),
    Play("quinque-row-win"),
    Play("quintet-three-tie", cut=0.25),
)
NAMED = (
    Flip(DB, 3779, 7, "schema text: UnicodeDecodeError from PRAGMA journal_mode=WAL"),
    Flip(DB, 3086, 7, "wins_tally column name: every move refused as weather"),
    Flip(DB, 3089, 1, "wins_tally column name: every move refused as weather"),
    Flip(DB, 3285, 2, "dice_tally column name: every move refused as weather"),
)
"""Issue 22's flips of the four-game file: a traceback from `check` and `play --resume`, and a file `check`
called healthy while every move was refused as weather."""


def build_closed(folder: Path) -> Corpus:
    """Four games played and the store closed (checkpointed: no WAL), with its backups; in `folder`/closed."""
    live = folder / "play-closed" / DB
    clock = TickingClock()
    with Store.open(live, clock=clock) as store:
        for plan in CLOSED:
            play(store, plan, clock)
    assert not live.with_name(WAL).exists()
    copies = tuple((p.name, p.read_bytes()) for p in sorted((live.parent / "backups").glob("*.db")))
    out = folder / "closed"
    out.mkdir()
    shutil.copyfile(live, out / DB)
    return Corpus(out, (out / DB).read_bytes(), b"", copies)


def page_one_flips(corpus: Corpus, count: int, *, seed: int = SEED) -> list[Flip]:
    """`count` single-bit flips in the first page (the header and the schema), the `NAMED` ones among them."""
    rng = random.Random(seed)
    chosen = {(f.offset, f.bit) for f in NAMED}
    while len(chosen) < count:
        chosen.add((rng.randrange(PAGE), rng.randrange(8)))
    return [Flip(DB, offset, bit, "db header" if offset < 100 else "page 1") for offset, bit in sorted(chosen)]


def rest_flips(corpus: Corpus, count: int, *, seed: int = SEED) -> list[Flip]:
    """`count` single-bit flips past the first page of the main file."""
    rng = random.Random(seed + 1)
    chosen: set[tuple[int, int]] = set()
    while len(chosen) < count:
        chosen.add((rng.randrange(PAGE, len(corpus.db)), rng.randrange(8)))
    return [Flip(DB, offset, bit, _where_db(offset)) for offset, bit in sorted(chosen)]


def damaged(corpus: Corpus, flip: Flip | None, folder: Path) -> Path:
    """A copy of the corpus (and its backups) in `folder` with one bit flipped (none: pristine); the path of its
    games file."""
    folder.mkdir(parents=True, exist_ok=True)
    if corpus.backups:
        (folder / "backups").mkdir(exist_ok=True)
        for n, (name, data) in enumerate(corpus.backups):
            (folder / "backups" / name).write_bytes(data)
            os.utime(folder / "backups" / name, (1_750_000_000 + n, 1_750_000_000 + n))  # oldest first, as made
    for name, data in ((DB, corpus.db), (WAL, corpus.wal)):
        if not data:
            continue  # a closed file has no WAL
        if flip is not None and name == flip.file:
            flipped = bytearray(data)
            flipped[flip.offset] ^= 1 << flip.bit
            data = bytes(flipped)
        (folder / name).write_bytes(data)
    return folder / DB
