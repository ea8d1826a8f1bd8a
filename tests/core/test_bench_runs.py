"""`make bench` still runs: its store and replay parts, on tiny sizes (the figures themselves are `make bench`'s).

A benchmark that no longer matches the code it measures fails only when
someone runs it; these run its store and log parts in a second, so a change
to the engine or the store that breaks them is caught by `make test`.
"""

from __future__ import annotations

import pytest

from bench import bench_store
from bench.__main__ import log
from companion.games import unregister


@pytest.fixture(autouse=True)
def _forget_the_bench_game():
    """The benchmarks register their Tally game; the other tests in this process must not find it."""
    yield
    unregister("bench-tally")


def test_the_replay_benchmark_runs():
    assert "replay a 20-event log" in log(replayed=20)[0]


def test_the_append_benchmark_runs(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(bench_store, "APPENDS", 3)
    assert "append one action" in bench_store._appends(tmp_path)
