"""Issue 27: "the store's fault tests (SIGKILL, resume, the bit-flip campaign) include games of each tool".

The bit-flip campaign of `test_store_faults.py`, run the same way (its `one_flip` verdicts, `fault_corpus`'s
flips, a fixed seed) on a pulled-plug file of each of two tools:

- score pads: finished ones (a win, a tie of two: wins kept under each game's name), one finished then taken
  back by Undo, and the newest half played (the one resumed);
- turn clocks: stopped ones (a flag fallen, nobody's), one stopped then taken back by Undo, one left for good
  halfway, one with a player gone in his turn, and the newest half run (the one resumed).

In each, the newer games, only in the WAL, grow the file, so that the WAL holds page 1 for the campaign to aim
at. Every flip changes nothing a player can see, or the damage is named; never a traceback; and wherever
`check` calls the file healthy, the newest game is resumed and one more move saved. (The dice tray and the
finger chooser are in `test_store_faults.py`'s own corpus. SIGKILL: `test_dice_tray_faults.py`,
`test_turn_clock_faults.py`; resuming exactly after a restart, `test_resume_exact.py`, walks every game's golden
scripts, the tools' among them.)
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from companion.store import Store
from tests.core.test_store_faults import FAILURES, _pristine, _scratch, one_flip
from tests.support import fault_corpus
from tests.support.fault_corpus import Play

OLDER = (
    Play("score-pad-carcassonne"),
    Play("score-pad-hearts-lowest-tie", undo=1),  # ended, then the end taken back: unfinished with a redo list
)
NEWER = (
    Play("score-pad-hearts-lowest-tie"),  # a tie of two, only in the WAL
    Play("score-pad-a-player-leaves"),  # with the tie, enough to grow the file: page 1 goes into the WAL too
    Play("score-pad-a-player-leaves", cut=0.5),  # the newest unfinished pad: the one resumed
)
CLOCKS_OLDER = (
    Play("turn-clock-total-increment"),  # a flag fallen and taken back, then stopped
    Play("turn-clock-per-turn-flag", undo=1),  # stopped, then the stop taken back: running again, a redo list
    Play("turn-clock-five-players-leave", cut=0.4, abandon=True),  # left for good with a clock running
)
CLOCKS_NEWER = (
    Play("turn-clock-five-players-leave"),  # Cy gone in his turn: Dee's clock waited for a tap
    Play("turn-clock-per-turn-flag"),  # two flags fallen
    Play("turn-clock-total-increment", cut=0.5),  # the newest clock, running: the one resumed
)
CAMPAIGNS = {
    "score-pad": (OLDER, NEWER, 27),
    "turn-clock": (CLOCKS_OLDER, CLOCKS_NEWER, 28),
}


def _corpus(tool: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> fault_corpus.Corpus:
    older, newer, _seed = CAMPAIGNS[tool]
    monkeypatch.setattr(fault_corpus, "OLDER", older)
    monkeypatch.setattr(fault_corpus, "NEWER", newer)
    return fault_corpus.build(folder)


@pytest.mark.slow
@pytest.mark.parametrize("tool", CAMPAIGNS)
def test_single_bit_flips_in_a_file_of_one_tool_change_nothing_or_are_named(
    tool: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = _corpus(tool, tmp_path / "built", monkeypatch)
    pristine, ids, moved = _pristine(corpus, tmp_path / "pristine")
    assert {pristine[f"game {gid}"][0].game for gid in ids} == {tool}
    if tool == "score-pad":
        assert any("\x1f" in under for under in pristine["wins"]), "the wins are kept under the games' names"
    campaign = fault_corpus.flips(corpus, seed=CAMPAIGNS[tool][2])
    assert len(campaign) >= 300
    tally: Counter[str] = Counter()
    bad: list[str] = []
    with _scratch(tmp_path) as scratch:
        for n, flip in enumerate(campaign):
            path = fault_corpus.damaged(corpus, flip, scratch / f"flip-{n}")
            verdict, detail, _remarks = one_flip(path, pristine, ids, moved)
            shutil.rmtree(path.parent)
            tally[verdict] += 1
            if verdict in FAILURES:
                bad.append(f"{flip}: {verdict}: {detail}")
    line = ", ".join(f"{count} {verdict}" for verdict, count in sorted(tally.items()))
    print(f"{tool} campaign: {len(campaign)} flips: {line}")
    assert not bad, line + "\n" + "\n".join(bad)


def test_a_score_pad_file_opens_with_its_wins_under_each_game_s_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The corpus itself: what the campaign holds every flip to."""
    corpus = _corpus("score-pad", tmp_path / "built", monkeypatch)
    with Store.open(fault_corpus.damaged(corpus, None, tmp_path / "copy")) as store:
        assert store.notice is None
        assert store.wins_by_game() == {
            "score-pad\x1fCarcassonne": {"Ann": 1},
            "score-pad\x1fHearts": {"Bo": 1, "Di": 1},  # the tie shares the win
            "score-pad\x1fAzul": {"Bo": 1},
        }
        assert len(store.unfinished_games()) == 2


def test_a_turn_clock_file_opens_with_its_clocks_stopped_running_and_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clocks' corpus itself: three stopped (nobody wins a clock), two running (one with a redo list), one
    left for good."""
    corpus = _corpus("turn-clock", tmp_path / "built", monkeypatch)
    with Store.open(fault_corpus.damaged(corpus, None, tmp_path / "copy")) as store:
        assert store.notice is None
        assert store.wins_by_game() == {}
        finished = store.finished(limit=None)
        assert len(finished) == 3 and len(store.unfinished_games()) == 2
        assert len(store.past(limit=None)) == 4  # the stopped ones and the one left
