"""Quinque golden playthroughs: action scripts in `golden/quinque-*.jsonl` with their expected outcome.

Each file is what `companion play quinque` reads (one JSON action a line, ``#``
lines are comments), with three comment lines the test reads too:
``# players: Ann,Bo``, ``# settings: {...}`` and ``# expect: {"winners": [...], "reason": "..."}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from golden_scripts import read

from companion.game import Options
from companion.session import Session
from companion.store import Store
from ui.cli import main as companion

GOLDEN = sorted((Path(__file__).parent / "golden").glob("quinque-*.jsonl"))


def read_script(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    golden = read(path)
    return {"players": golden.players, "settings": golden.settings, "expect": golden.expect}, golden.lines


def test_there_are_golden_games():
    assert len(GOLDEN) >= 4


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_through_a_real_session(path, tmp_path):
    header, actions = read_script(path)
    store = Store.open(tmp_path / "games.db")
    options = Options.for_names(*header["players"], **header["settings"])
    session = Session.start(store, "quinque", options, clock=lambda: 0.0)
    for number, action in enumerate(actions, start=1):
        if action["type"] == "undo":
            assert session.undo()
        elif action["type"] == "redo":
            assert session.redo()
        else:
            assert session.outcome is None, f"action {number} comes after the end of the game"
            session.act(action)  # a refusal fails the test with the rules' sentence
    outcome = session.outcome
    assert outcome is not None
    assert {"winners": list(outcome.winners), "reason": outcome.reason.value} == header["expect"]
    # The stored log replays to the very same game.
    again = Session.load(store, session.game_id, clock=lambda: 0.0)
    assert again.state == session.state
    assert store.game(session.game_id).outcome == outcome.to_json()
    store.close()


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_headless_with_companion_play(path, tmp_path, capsys):
    header, _ = read_script(path)
    settings = [f"--setting={key}={json.dumps(value)}" for key, value in header["settings"].items()]
    db = tmp_path / "play.db"
    players = ",".join(header["players"])
    code = companion(["play", "quinque", "--players", players, "--actions", str(path), "--db", str(db), *settings])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("{")
    steps = [json.loads(line) for line in lines[:start]]
    assert not [s for s in steps if "refused" in s]
    final = json.loads("\n".join(lines[start:]))
    outcome = final["outcome"]
    assert {"winners": outcome["winners"], "reason": outcome["reason"]} == header["expect"]
    view = final["public_view"]
    if header["expect"]["winners"]:
        assert len(view["line"]) == 5
    else:
        assert view["tied"] is True
        assert [p["parachutes_left"] for p in view["players"]] == [0, 0]
