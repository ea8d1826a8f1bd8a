"""Issues 11 and 22: a fault-injection campaign of single-bit flips across the games file, its schema and its WAL.

Two corpora (`tests.support.fault_corpus`): what a pulled plug leaves after real games of every game (older
games checkpointed into ``games.db``, the newest only in ``games.db-wal``), and four games in a file closed
cleanly, with its backups, whose first page is the schema. Each of ≥ 1,000 flips, picked with a fixed seed
(≥ 300 in the first page, the `NAMED` ones of issue 22 among them), is made in a fresh copy, in-process:

- ``companion check`` never raises, never calls our file unreadable, changes nothing;
- what a player can see of the file (every reading method the screens use, every game's checked record and
  rows) is the pristine file's, or the damage is named in `store.notice` and each game is its pristine self
  cut to its first k moves: never a traceback, never a silent change. (A game's views, private ones too, are
  replayed from exactly these rows, so equal rows are equal views; a game whose rows changed is replayed.)
- issue 22: "for every flip that `check` calls healthy, a resume plays one more move and saves it": the
  unfinished game is resumed, its redo list put back, one more move made, and the file opened again holds it.

The real app is started on the named flips and 20 others in tests/ui/test_damaged_files.py.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.game import RuleError
from companion.session import Session
from companion.store import MoveRecord, Store, check
from tests.support import fault_corpus
from tests.support.fault_corpus import DB, NAMED, WAL, Corpus, Flip
from tests.support.golden import FOLDER, read

# Its module fixture is made once: its tests stay on one worker (`make test` runs --dist loadgroup).
pytestmark = pytest.mark.xdist_group("test_store_faults")

FAILURES = ("silent", "traceback", "check failed", "not saved")
PAGE_ONE = 400  # in the closed file's first page: its header and the schema
REST = 300  # in the rest of the closed file; the pulled-plug corpus adds its own 310 (`fault_corpus.flips`)
KINDS = ("quintet", "quin", "quinque", "quantum-link", "quark", "dice-tray", "finger-chooser")
"""Every kind of game in the corpus: the five, and the tools for any game (issue 27)."""


@pytest.fixture(scope="module")
def corpora(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Corpus]:
    folder = tmp_path_factory.mktemp("faults")
    pulled = fault_corpus.build(folder)
    assert pulled.frames > 50, f"the WAL should hold many frames, it has {pulled.frames}"
    assert len(pulled.db) // fault_corpus.PAGE >= 5, "the main file should have several pages"
    closed = fault_corpus.build_closed(folder)
    assert closed.backups, "the closed file's backups lie beside it"
    return {"pulled": pulled, "closed": closed}


def _session(store: Store, gid: int) -> Session:
    return Session.load(store, gid, dice=RandomDice.seeded(1), clock=lambda: 0.0)


def picture(store: Store, ids: list[int]) -> dict[str, Any]:
    """Everything a player can see of the games file, through every reading method the screens use."""
    seen: dict[str, Any] = {
        "unfinished": [item.record.id for item in store.unfinished_games()],
        "past": [g.id for g in store.past(limit=None)],
        "finished": [g.id for g in store.finished(limit=None)],
        "wins": store.wins_by_game(),
        "counts": store.counts(),
    }
    for kind in KINDS:
        seen[f"dice {kind}"] = store.dice_stats(kind)
    for gid in ids:
        seen[f"game {gid}"] = (store.game(gid), store.moves(gid), store.move_count(gid))
    return seen


def differences(before: dict[str, Any], after: dict[str, Any]) -> str:
    return "; ".join(f"{key}: {_short(after.get(key))}" for key, old in before.items() if after.get(key) != old)


def _short(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) < 60 else text[:57] + "..."


def prefix_problems(store: Store, pristine: dict[str, Any], ids: list[int]) -> tuple[list[str], list[str]]:
    """(problems, remarks): each game still there must be its pristine self cut to its first k moves (replayed
    without an error), and no game may appear. A game cut short may keep its intact record's result: a remark."""
    problems, remarks = [], []
    for gid in ids:
        old_record, old_rows, _count = pristine[f"game {gid}"]
        record = store.game(gid)
        if record is None:
            continue
        rows: list[MoveRecord] = store.moves(gid)
        k = len(rows)
        if (record.game, record.options) != (old_record.game, old_record.options):
            problems.append(f"game {gid} is another game now")
        if rows != old_rows[:k]:
            first = next((i for i, (a, b) in enumerate(zip(rows, old_rows, strict=False)) if a != b), k)
            problems.append(f"game {gid} move {first + 1} is not the pristine move")
            continue
        result = (record.finished_at, record.outcome)
        replayed = _session(store, gid).outcome
        if k == len(old_rows):
            if result != (old_record.finished_at, old_record.outcome):
                problems.append(f"game {gid} kept all its moves but not its result ({_short(record.outcome)})")
        elif record.outcome is not None and record.outcome != (replayed.to_stored() if replayed else None):
            if record.outcome.get("reason") != "abandoned" and result != (old_record.finished_at, old_record.outcome):
                problems.append(f"game {gid} cut to {k} moves records {_short(record.outcome)}")
            else:
                remarks.append("a game cut short keeps its recorded result")
    if store.game(max(ids) + 1) is not None or store.counts()[0] > len(ids):
        problems.append("a game appeared that the file did not have")
    return problems, remarks


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# -- one more move --------------------------------------------------------------------------------------------


def resume_and_move(store: Store) -> tuple[int, list[MoveRecord]] | str:
    """Resume the unfinished game, put its redo list back, make the next legal move of its script: (its id, its
    rows after), or why not."""
    session = Session.resume(store, dice=RandomDice.seeded(7), clock=lambda: 0.0)
    if session is None:
        return "no game to resume"
    while session.redo():
        pass
    script = next(p for p in sorted(FOLDER.glob(f"{session.game.name}-*.jsonl")) if _starts(session, p))
    for action in read(script).lines[len(session.moves) :]:
        if action.get("type") in ("undo", "redo"):
            continue
        try:
            session.act(action)
        except RuleError:
            continue
        return session.game_id, store.moves(session.game_id)
    return "no legal move left in the script"


def _starts(session: Session, script: Path) -> bool:
    golden = read(script)
    return list(session.options.names) == golden.players


def one_more_move(path: Path) -> str:
    """'' when a resumed game took one more move and the file opened again holds it; else what went wrong."""
    with Store.open(path) as store:
        made = resume_and_move(store)
        if isinstance(made, str):
            return made
        gid, rows = made
        if store.problem:
            return f"not saved: {store.problem}"
    with Store.open(path) as again:
        kept = again.moves(gid)
        if again.notice:
            return f"opened again with a notice: {again.notice}"
    return "" if kept == rows else f"the file holds {len(kept)} moves of game {gid}, the game {len(rows)}"


def one_flip(
    path: Path, pristine: dict[str, Any], ids: list[int], moved: list[MoveRecord]
) -> tuple[str, str, list[str]]:
    """(verdict, a few words, remarks), the verdict 'unchanged', 'detected', or one of `FAILURES`."""
    before = _files(path.parent)
    try:
        report = check(path)
    except Exception as error:
        return "traceback", f"check raised {type(error).__name__}: {error}", []
    if report.status not in (0, 1):
        return "check failed", f"check gave status {report.status}: {report.lines()}", []
    if _files(path.parent) != before:
        return "check failed", "check changed the files", []
    remarks = ["check finds damage"] if report.status else []
    try:
        with Store.open(path) as store:
            seen = picture(store, ids)
            notice = store.notice
            if notice:
                remarks.append("notice")
                if report.status == 0:
                    remarks.append("check called healthy a file that opening repaired")
            if seen == pristine:
                verdict, detail = "unchanged", ""
            else:
                changed = differences(pristine, seen)
                if not notice:
                    return "silent", f"no notice; {changed}" + ("" if report.status else " (check: healthy)"), remarks
                if "damaged" not in notice:
                    return "silent", f"the notice does not name damage ({notice!r}); {changed}", remarks
                problems, cut = prefix_problems(store, pristine, ids)
                if problems:
                    return "silent", f"{'; '.join(problems)} (notice: {notice!r})", remarks
                verdict, detail = "detected", changed
                remarks += cut
        if report.status == 0:
            wrong = one_more_move(path)
            if wrong:
                return "not saved", f"check called it healthy, and then: {wrong}", remarks
            remarks.append("resumed and saved one more move")
        return verdict, detail, remarks
    except Exception as error:
        return "traceback", f"{type(error).__name__}: {error}", remarks


def _pristine(corpus: Corpus, folder: Path) -> tuple[dict[str, Any], list[int], list[MoveRecord]]:
    path = fault_corpus.damaged(corpus, None, folder)
    with Store.open(path) as store:
        assert store.notice is None
        ids = [g for g in range(1, store.counts()[0] + 1) if store.game(g) is not None]
        seen = picture(store, ids)
        assert prefix_problems(store, seen, ids) == ([], [])
    assert check(path).status == 0
    made = one_more_move(path)
    assert made == "", made
    with Store.open(path) as store:
        unfinished = store.unfinished()
        assert unfinished is not None
        moved = store.moves(unfinished.id)
    return seen, ids, moved


@contextmanager
def _scratch(tmp_path: Path) -> Iterator[Path]:
    """Where the flipped copies are made: a RAM disk when there is one. Every move and repair is written with
    ``synchronous=FULL``, and a thousand flips' worth of fsyncs on a shared disk would be most of the run."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="store-faults-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
def test_single_bit_flips_change_nothing_or_are_named(
    corpora: dict[str, Corpus], tmp_path: Path, record_property: Callable[[str, object], None]
) -> None:
    """Issue 22: "at least 1,000 single-bit flips with a fixed seed, at least 300 of them in the first page (the
    schema), plus the WAL; 0 tracebacks, 0 silent changes, and for every flip that `check` calls healthy, a
    resume plays one more move and saves it." """
    pulled, closed = corpora["pulled"], corpora["closed"]
    campaign: list[tuple[str, Flip]] = [("pulled", flip) for flip in fault_corpus.flips(pulled)]
    campaign += [("closed", flip) for flip in fault_corpus.page_one_flips(closed, PAGE_ONE)]
    campaign += [("closed", flip) for flip in fault_corpus.rest_flips(closed, REST)]
    assert len(campaign) >= 1000
    page_one = sum(name == "closed" and flip.offset < fault_corpus.PAGE for name, flip in campaign)
    wal = sum(flip.file == WAL for _, flip in campaign)
    assert page_one >= 300 and wal >= 150
    assert {("closed", flip.offset, flip.bit) for flip in NAMED} <= {(n, f.offset, f.bit) for n, f in campaign}
    games = {}
    for name, corpus in corpora.items():
        games[name] = _pristine(corpus, tmp_path / f"pristine-{name}")
    pristine_pulled = games["pulled"][0]
    assert {value[0].game for key, value in pristine_pulled.items() if key.startswith("game ")} == set(KINDS)

    tally = dict.fromkeys(("unchanged", "detected", *FAILURES), 0)
    bad: list[str] = []
    notes: Counter[str] = Counter()
    with _scratch(tmp_path) as scratch:
        for n, (name, flip) in enumerate(campaign):
            path = fault_corpus.damaged(corpora[name], flip, scratch / f"flip-{n}")
            verdict, detail, remarks = one_flip(path, *games[name])
            shutil.rmtree(path.parent)
            tally[verdict] += 1
            notes.update(f"{verdict}: {remark}" for remark in remarks)
            if verdict in FAILURES:
                bad.append(f"{name} {flip}: {verdict}: {detail}")

    line = (
        f"campaign: {len(campaign)} flips ({page_one} in the first page, {wal} in the WAL): "
        f"{tally['unchanged']} unchanged, {tally['detected']} detected, {tally['silent']} silent, "
        f"{tally['traceback']} tracebacks, {tally['not saved']} healthy files that would not take a move"
        + (f", {tally['check failed']} check failures" if tally["check failed"] else "")
    )
    print(line)
    for note, count in sorted(notes.items()):
        print(f"  {count} {note}")
    record_property("campaign", line)
    assert not bad, line + "\n" + "\n".join(bad)


@pytest.mark.parametrize("flip", NAMED, ids=lambda flip: f"{flip.offset}^{1 << flip.bit:#04x}")
def test_issue_22s_schema_flips_are_damage_found_by_check_and_repaired_at_opening(
    corpora: dict[str, Corpus], tmp_path: Path, flip: Flip
) -> None:
    """Issue 22: "a flipped bit in the schema's SQL text": `check` and `play --resume` "end in a traceback"; "a
    flipped bit in a column name of wins_tally or dice_tally": "check says healthy … while every move is refused
    as weather". Now check finds the damage, opening salvages every game, and the next move is saved."""
    path = fault_corpus.damaged(corpora["closed"], flip, tmp_path)
    report = check(path)
    assert report.status == 1, report.lines()
    assert any("schema" in line or "SQLite" in line for line in report.problems), report.problems
    assert report.salvage.startswith("Salvage would keep 4 games"), report.salvage
    with Store.open(path) as store:
        assert store.notice is not None and "damaged" in store.notice and "4 games" in store.notice, store.notice
        assert list(path.parent.glob(f"{DB}.damaged-*")), "the damaged file is kept aside"
    assert one_more_move(path) == ""
    assert check(path).status == 0
