"""Quintet golden games: action scripts (tests/games/golden/quintet-*.jsonl) played through a real session.

Each script is what `companion play quintet` reads: one JSON action per line,
``#`` lines are comments. Its ``#!`` line holds the players, the dice seed and
what the game must come to (the outcome, who went out in which order, the
sentences refusing the illegal lines, the rolls of the opening).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from golden_scripts import read

from companion.dice import RandomDice
from companion.dicestats import DiceStats
from companion.game import Options, RuleError
from companion.session import Session
from companion.store import Store

GOLDEN = Path(__file__).parent / "golden"
SCRIPTS = sorted(GOLDEN.glob("quintet-*.jsonl"))


def read_script(path: Path) -> tuple[dict[str, Any], list[str]]:
    golden = read(path)
    header = {"players": golden.players, "seed": golden.seed, "expect": golden.expect}
    return header, [json.dumps(action) for action in golden.lines]


def play_script(store: Store, path: Path) -> tuple[Session, list[str]]:
    """Play the script live; return the session and the refusals, in order."""
    header, actions = read_script(path)
    session = Session.start(
        store,
        "quintet",
        Options.for_names(*header["players"]),
        dice=RandomDice.seeded(header["seed"]),
        clock=lambda: 1000.0,
    )
    refusals = []
    for line in actions:
        action = json.loads(line)
        if action.get("type") == "undo":
            assert session.undo()
        elif action.get("type") == "redo":
            assert session.redo()
        else:
            try:
                session.act(action)
            except RuleError as refusal:
                refusals.append(str(refusal))
    return session, refusals


def test_there_are_golden_games():
    assert len(SCRIPTS) >= 3


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_golden_game_comes_out_as_recorded(path, tmp_path):
    expect = read_script(path)[0]["expect"]
    store = Store.open(tmp_path / "games.db")
    session, refusals = play_script(store, path)
    assert session.outcome is not None
    assert session.outcome.to_json() == expect["outcome"]
    assert list(session.state.out) == expect["out"]
    assert refusals == expect["refusals"]
    opening = [e for e in session.events if e["type"] == "opening_won"]
    assert opening == [expect["opening_won"]]
    assert session.state.rolls == expect["rolls"]
    # The result and the game's length are in the history.
    record = store.game(session.game_id)
    assert record.outcome == expect["outcome"]
    assert record.finished_at is not None


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_seeded_replay_equals_live_play(path, tmp_path):
    store = Store.open(tmp_path / "games.db")
    live, _ = play_script(store, path)
    store.close()
    # Folding the events back from the file on disk gives the same state, without rolling.
    reopened = Store.open(tmp_path / "games.db")

    class NoDice:
        def roll(self, sides: int = 6) -> int:
            raise AssertionError("replay rolled a die")

    replayed = Session.load(reopened, live.game_id, dice=NoDice())
    assert replayed.state == live.state
    assert replayed.public_view() == live.public_view()
    # And playing the same script with the same seed again gives the very same events.
    again, _ = play_script(Store.in_memory(), path)
    assert again.events == live.events


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_companion_play_runs_the_script_headless(path, capsys):
    from ui.cli import main

    header, _ = read_script(path)
    players = ",".join(header["players"])
    code = main(["play", "quintet", "--players", players, "--seed", str(header["seed"]), "--actions", str(path)])
    assert code == 0
    out = capsys.readouterr().out
    final = json.loads(out[out.index("\n{\n") + 1 :])
    assert final["outcome"] == header["expect"]["outcome"]
    lines = [json.loads(line) for line in out.splitlines() if line.startswith('{"line"')]
    refused = [line["refused"] for line in lines if "refused" in line]
    assert refused == header["expect"]["refusals"]


def test_every_roll_of_a_golden_game_is_in_its_dice_statistics(tmp_path):
    store = Store.open(tmp_path / "games.db")
    sessions = [play_script(store, path)[0] for path in SCRIPTS]
    per_game = [DiceStats.of_events(s.events) for s in sessions]
    assert [stats.rolls for stats in per_game] == [s.state.rolls for s in sessions]
    everything = DiceStats.of_moves(store.all_moves("quintet"))
    assert everything.rolls == sum(stats.rolls for stats in per_game)
    assert everything.totals == tuple(map(sum, zip(*(stats.totals for stats in per_game), strict=True)))
