"""`companion history` lists a game ended without a result, as such (round 1's note on issue 21, finding 1).

Issue 21: "Menu → End without a result ends the game at once … The game then appears neither in Unfinished games
nor in Past games: no trace, no way back." Past games on home lists it; `companion history` now does too, one line
each, "ended without a result", and the wins stay as they were. Through the real CLI on a real games file.
"""

from __future__ import annotations

from pathlib import Path

from companion.store import Store
from tests.support import golden
from tests.ui.test_cli_store import companion

SCRIPT = "quintet-two-players"


def _games_file(path: Path) -> tuple[str, str]:
    """A finished game, then one ended without a result (newest): the winner, and how the other's line begins."""
    clock = iter(range(1_750_000_000, 1_750_100_000, 60))
    with Store.open(path) as store:
        won = golden.play(store, SCRIPT, clock=lambda: float(next(clock)))
        lines = golden.read(golden.FOLDER / f"{SCRIPT}.jsonl").lines
        left = golden.play(store, SCRIPT, upto=len(lines) // 3, clock=lambda: float(next(clock)))
        left.abandon()  # Menu → End without a result
        assert won.outcome is not None
        return won.outcome.winners[0], "quintet\tAnn, Bo\tended without a result\t"


def test_history_lists_a_game_ended_without_a_result_on_a_line_of_its_own_and_the_wins_as_they_were(tmp_path):
    db = tmp_path / "games.db"
    winner, ended = _games_file(db)
    done = companion("history", "--db", str(db), home=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(ended) and lines[0].endswith(" s"), "newest first, one line"
    assert lines[1].startswith(f"quintet\tAnn, Bo\twon by {winner}\t")
    assert lines[2:] == [f"{winner}: 1 win"], "it counts for nobody"


def test_history_pages_count_games_ended_without_a_result_too(tmp_path):
    db = tmp_path / "games.db"
    winner, ended = _games_file(db)
    first = companion("history", "--db", str(db), "--per-page", "1", home=tmp_path)
    assert first.stdout.splitlines()[0].startswith(ended)
    assert first.stdout.splitlines()[1:] == [
        "Games 1–1 of 2, newest first; --page 2 for older ones.",
        f"{winner}: 1 win",
    ]
    second = companion("history", "--db", str(db), "--per-page", "1", "--page", "2", home=tmp_path)
    lines = second.stdout.splitlines()
    assert lines[0].startswith(f"quintet\tAnn, Bo\twon by {winner}\t") and lines[1] == "Games 2–2 of 2, newest first."
