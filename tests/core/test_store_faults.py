"""Issue 11: a fault-injection campaign of single-bit flips across the games file and its WAL.

The corpus (`fault_corpus.build`) is what a pulled plug leaves after real games of every game: older
games checkpointed into ``games.db``, the newest only in ``games.db-wal``. Each of ≥ 300 flips, picked
with a fixed seed, is made in a fresh copy, and what a player can see of the file (every reading method
the screens use, every game loaded through a `Session`) is compared with the pristine file's. A flip
must change nothing a player can see, or be detected and named in `store.notice`, keeping each game as
its pristine self cut to its first k moves; never a traceback, never a silent change.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.session import Session
from companion.store import MoveRecord, Store, check
from tests.support import fault_corpus
from tests.support.fault_corpus import DB, WAL, Corpus
from tests.support.golden import game_of, scripts

FAILURES = ("silent", "traceback", "check failed")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    built = fault_corpus.build(tmp_path_factory.mktemp("faults"))
    assert built.frames > 50, f"the WAL should hold many frames, it has {built.frames}"
    assert len(built.db) // fault_corpus.PAGE >= 5, "the main file should have several pages"
    return built


def _load(store: Store, gid: int) -> Session:
    return Session.load(store, gid, dice=RandomDice.seeded(1), clock=lambda: 0.0)


def picture(store: Store, ids: list[int]) -> dict[str, Any]:
    """Everything a player can see of the games file, through every reading method the screens use."""
    unfinished = store.unfinished()
    seen: dict[str, Any] = {
        "unfinished": unfinished.id if unfinished else None,
        "finished": [g.id for g in store.finished()],
        "wins": store.win_counts(),
        "counts": store.counts(),
        "dice statistics": [asdict(m) for m in store.all_moves("quintet")],
    }
    for gid in ids:
        record = store.game(gid)
        if record is None:
            seen[f"game {gid}"] = None
            continue
        session = _load(store, gid)
        outcome = session.outcome
        seen[f"game {gid}"] = {
            "record": (record.game, record.options, record.finished_at, record.outcome),
            "public": session.public_view(),
            "private": {p["name"]: session.private_view(p["name"]) for p in record.options["players"]},
            "moves": session.moves,
            "redo": session.redo_moves,
            "pending": session.pending_draws,
            "outcome": outcome.to_json() if outcome else None,
            "turn": session.current_player,
            "move count": store.move_count(gid),
            "rows": store.moves(gid),
        }
    return seen


def differences(before: dict[str, Any], after: dict[str, Any]) -> str:
    out = []
    for key, old in before.items():
        new = after.get(key)
        if new == old:
            continue
        if isinstance(old, dict) and isinstance(new, dict):
            out.append(f"{key}: {', '.join(part for part in old if old[part] != new.get(part))}")
        else:
            out.append(f"{key}: {_short(old)} -> {_short(new)}")
    return "; ".join(out)


def _short(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) < 60 else text[:57] + "..."


def prefix_problems(store: Store, pristine: dict[str, Any], ids: list[int]) -> tuple[list[str], list[str]]:
    """(problems, remarks): each game still there must be its pristine self cut to its first k moves, and
    no game may appear. A game cut short may keep the result its (intact) record holds: that is a remark."""
    problems, remarks = [], []
    for gid in ids:
        old = pristine[f"game {gid}"]
        record = store.game(gid)
        if record is None:
            continue
        rows: list[MoveRecord] = store.moves(gid)
        k = len(rows)
        if (record.game, record.options) != old["record"][:2]:
            problems.append(f"game {gid} is another game now")
        if rows != old["rows"][:k]:
            first = next((i for i, (a, b) in enumerate(zip(rows, old["rows"], strict=False)) if a != b), k)
            problems.append(f"game {gid} move {first + 1} is not the pristine move")
        result = (record.finished_at, record.outcome)
        replayed = _load(store, gid).outcome
        if k == len(old["rows"]):
            if result != old["record"][2:]:
                problems.append(f"game {gid} kept all its moves but not its result ({_short(record.outcome)})")
        elif result != old["record"][2:] and record.outcome != (replayed.to_stored() if replayed else None):
            problems.append(f"game {gid} cut to {k} moves records {_short(record.outcome)}")
        elif record.outcome is not None and replayed is None and record.outcome.get("reason") != "abandoned":
            remarks.append("a finished game cut short keeps its recorded result")
    if store.game(max(ids) + 1) is not None or store.counts()[0] > len(ids):
        problems.append("a game appeared that the file did not have")
    return problems, remarks


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def one_flip(path: Path, pristine: dict[str, Any], ids: list[int]) -> tuple[str, str, list[str]]:
    """(verdict, a few words, remarks), the verdict 'unchanged', 'detected', 'silent', 'traceback' or 'check failed'
    (`companion check` called our file unreadable, status 2, or changed it)."""
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
            if seen == pristine:
                return "unchanged", "", remarks
            changed = differences(pristine, seen)
            if not notice:
                return "silent", f"no notice; {changed}" + ("" if report.status else " (check: healthy)"), remarks
            if "damaged" not in notice:
                return "silent", f"the notice does not name damage ({notice!r}); {changed}", remarks
            problems, cut = prefix_problems(store, pristine, ids)
            if problems:
                return "silent", f"{'; '.join(problems)} (notice: {notice!r})", remarks
            return "detected", changed, remarks + cut
    except Exception as error:
        return "traceback", f"{type(error).__name__}: {error}", remarks


@pytest.mark.slow
def test_single_bit_flips_change_nothing_or_are_named(
    corpus: Corpus, tmp_path: Path, record_property: Callable[[str, object], None]
) -> None:
    pristine_path = fault_corpus.damaged(corpus, None, tmp_path / "pristine")
    with Store.open(pristine_path) as store:
        assert store.notice is None
        ids = [g for g in range(1, store.counts()[0] + 1) if store.game(g) is not None]
        assert len(ids) >= 10
        pristine = picture(store, ids)
        assert prefix_problems(store, pristine, ids) == ([], [])
    assert check(pristine_path).status == 0
    games = [value for key, value in pristine.items() if key.startswith("game ")]
    shipped = {game_of(path) for path in scripts()}  # every game of the app (a test may have registered more)
    assert {game["record"][0] for game in games} == shipped, "every game"
    assert pristine["unfinished"] is not None and len(pristine["finished"]) >= 5
    assert any(game["redo"] for game in games), "undone moves, a redo list"

    flips = fault_corpus.flips(corpus)
    db_flips = sum(f.file == DB for f in flips)
    assert db_flips >= 150 and len(flips) - db_flips >= 150
    aimed = Counter(f"{f.file}: {f.where.removeprefix('frame ').lstrip('0123456789 ')}" for f in flips)
    assert aimed[f"{DB}: db header"] >= 20, aimed  # page 1's first 100 bytes in the main file
    assert aimed[f"{WAL}: WAL header"] >= 5 and aimed[f"{WAL}: header"] >= 20, aimed  # the WAL's, frames' headers
    assert aimed[f"{WAL}: db header"] >= 5, aimed  # page 1's first 100 bytes as the WAL holds them

    tally = dict.fromkeys(("unchanged", "detected", *FAILURES), 0)
    bad: list[str] = []
    notes: Counter[str] = Counter()
    for n, flip in enumerate(flips):
        path = fault_corpus.damaged(corpus, flip, tmp_path / f"flip-{n}")
        verdict, detail, remarks = one_flip(path, pristine, ids)
        tally[verdict] += 1
        notes.update(f"{verdict}: {remark}" for remark in remarks)
        if verdict in FAILURES:
            bad.append(f"{flip}: {verdict}: {detail}")

    line = (
        f"campaign: {len(flips)} flips ({db_flips} db, {len(flips) - db_flips} wal): {tally['unchanged']} unchanged, "
        f"{tally['detected']} detected, {tally['silent']} silent, {tally['traceback']} tracebacks"
        + (f", {tally['check failed']} check failures" if tally["check failed"] else "")
    )
    print(line)
    for note, count in sorted(notes.items()):
        print(f"  {count} {note}")
    record_property("campaign", line)
    assert not bad, line + "\n" + "\n".join(bad)
