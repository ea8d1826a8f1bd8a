"""`make bench`: start-up and memory against bare Kivy, the log's append and replay, then each bench_*.py.

Every figure is printed beside a baseline measured in the same run (these
machines are shared and noisy), and as a ratio to it.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.report import line  # also imported from here by older benchmarks
from companion.session import Session
from companion.store import Store
from tests.support import xvfb_display

HERE = Path(__file__).parent


# -- start-up and memory ----------------------------------------------------------


def _first_frame(which: Sequence[str], home: str) -> tuple[float, int]:
    (Path(home) / "config" / "kivy").mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "COMPANION_HOME": home,
        "KIVY_HOME": str(Path(home) / "config" / "kivy"),
        "KIVY_NO_CONSOLELOG": "1",
        "BENCH_T0": repr(time.time()),
    }
    done = subprocess.run(
        [sys.executable, "-m", "bench.first_frame", *which],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=HERE.parent,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(which)} failed to start:\n{done.stdout[-1500:]}{done.stderr[-2000:]}")
    seconds, peak_kib = done.stdout.split()[-2:]
    return float(seconds), int(peak_kib)


def startup(rounds: int = 7) -> list[str]:
    home = tempfile.mkdtemp(prefix="bench-home-")
    try:
        with xvfb_display():  # the DISPLAY already set, or an Xvfb of our own for the while
            db = str(Path(home) / "games.db")
            _first_frame(["hello"], home)  # warm the file cache for both
            _first_frame(["companion", "--db", db], home)
            hello, ours = [], []
            for _ in range(rounds):  # interleaved, so drift hits both alike
                hello.append(_first_frame(["hello"], home))
                ours.append(_first_frame(["companion", "--db", db], home))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    t_hello = statistics.median(t for t, _ in hello)
    t_ours = statistics.median(t for t, _ in ours)
    m_hello = statistics.median(m for _, m in hello)
    m_ours = statistics.median(m for _, m in ours)
    return [
        line(
            "start-up to first frame of home (median)", f"{t_ours:.3f} s", f"{t_hello:.3f} s", t_ours / t_hello, "≤ 1.5"
        ),
        line(
            "peak memory (median)", f"{m_ours / 1024:.1f} MiB", f"{m_hello / 1024:.1f} MiB", m_ours / m_hello, "≤ 1.3"
        ),
    ]


# -- the log --------------------------------------------------------------------------


def log(replayed: int = 10_000) -> list[str]:
    """Fold a 10,000-event game again from the file, against just reading and parsing its rows."""
    from bench.bench_store import games_file
    from bench.tally import GAME
    from companion.games import register

    register(GAME)
    folder = Path(tempfile.mkdtemp(prefix="bench-log-"))
    try:
        path = folder / "games.db"
        games_file(path, games=1, moves=replayed, game="bench-tally", event={"type": "added", "value": 3, "note": ""})
        t0 = time.perf_counter()
        with sqlite3.connect(path) as bare:
            rows = bare.execute("SELECT action, events, draws FROM moves").fetchall()
            [(json.loads(a), json.loads(e), json.loads(d)) for a, e, d in rows]
        bare.close()
        t_read = time.perf_counter() - t0
        t0 = time.perf_counter()
        with Store.open(path) as again:
            loaded = Session.load(again, 1)
        t_replay = time.perf_counter() - t0
        assert len(loaded.moves) == replayed
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [
        line(f"replay a {replayed:,}-event log", f"{t_replay:.3f} s", f"{t_read:.3f} s", t_replay / t_read, "< 0.5 s"),
    ]


def main() -> None:
    print("Tabletop Companion benchmarks (ours vs a baseline from the same run)\n")
    for section in (startup, log):
        for text in section():
            print(text, flush=True)
    for path in sorted(HERE.glob("bench_*.py")):
        module = importlib.import_module(f"bench.{path.stem}")
        print(f"\n[{path.stem.removeprefix('bench_')}]")
        for text in module.run():
            print(text, flush=True)


if __name__ == "__main__":
    main()
