"""Quark golden playthroughs: action scripts in golden/quark-*.jsonl, run through the real session.

Each file is what `companion play quark` reads: one JSON action per line;
lines starting with ``#`` are comments, and two of them say how to play the
file: ``# players: Ann,Bo`` and ``# expect: {...}`` (the outcome, each
player's final score and atom, and the turns everyone had).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import golden_scripts
import pytest

from companion.dice import RandomDice
from companion.game import Options
from companion.games.quark import ENERGY_TOKENS, NEUTRON_TOKENS, PROTON_TOKENS
from companion.session import Session
from companion.store import Store

GOLDEN = sorted((Path(__file__).parent / "golden").glob("quark-*.jsonl"))


def read(path: Path) -> tuple[list[str], dict[str, Any], list[dict[str, Any]]]:
    golden = golden_scripts.read(path)
    return golden.players, golden.expect, golden.lines


def test_there_are_golden_games() -> None:
    assert len(GOLDEN) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game(path: Path, tmp_path: Path) -> None:
    players, expect, actions = read(path)
    store = Store.open(tmp_path / "games.db")
    session = Session.start(store, "quark", Options.for_names(*players), dice=RandomDice.seeded(0), clock=lambda: 0.0)
    for action in actions:
        assert session.outcome is None, f"the game ended before {action}"
        session.act(action)  # every line of a golden game is accepted
    outcome = session.outcome
    assert outcome is not None and outcome.to_json() == expect["outcome"]
    view = session.public_view()
    assert {s["player"]: s["total"] for s in view["scores"]} == expect["scores"]
    assert {s["player"]: (s["atom"] or {}).get("name") for s in view["scores"]} == expect["atoms"]
    assert {p["name"]: p["turns"] for p in view["players"]} == expect["turns"]
    assert len(set(expect["turns"].values())) == 1
    bank = view["bank"]
    assert bank["energy"] + sum(p["energy"] for p in view["players"]) == ENERGY_TOKENS
    assert bank["protons"] + sum(p["protons"] for p in view["players"]) == PROTON_TOKENS
    assert bank["neutrons"] + sum(p["neutrons"] for p in view["players"]) == NEUTRON_TOKENS
    store.close()
    # The stored log, read back from the file, folds to the same game.
    with Store.open(tmp_path / "games.db") as again:
        replayed = Session.load(again, session.game_id)
        assert replayed.state == session.state
        assert replayed.outcome == outcome


def test_companion_play_runs_a_golden_game_headless(capsys: pytest.CaptureFixture[str]) -> None:
    from ui.cli import main

    path = next(p for p in GOLDEN if "4p" in p.stem)
    players, expect, actions = read(path)
    assert main(["play", "quark", "--players", ",".join(players), "--actions", str(path)]) == 0
    out = capsys.readouterr().out
    lines = [json.loads(line) for line in out.splitlines() if line.startswith('{"line"')]
    assert len(lines) == len(actions)
    assert not [line for line in lines if "refused" in line]
    final = json.loads(out[out.index("\n{\n") + 1 :])
    assert final["outcome"] == expect["outcome"]
