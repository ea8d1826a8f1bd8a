"""Quin golden playthroughs: action scripts in `golden/quin-*.jsonl` with their expected outcome.

Each file is what `companion play quin` reads (one JSON action a line; ``#``
lines are comments the driver skips). The comment lines the test reads:
``# players: Ann,Bo``, ``# settings: {...}``, ``# expect: {"winners": [...], "reason": "..."}``
and ``# expect-refused: {"<line number>": "sentence"}`` for lines the rules refuse.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from golden_scripts import read

from companion.game import Options, RuleError
from companion.session import Session
from companion.store import Store
from ui.cli import main as companion

GOLDEN = sorted((Path(__file__).parent / "golden").glob("quin-*.jsonl"))


def read_script(path: Path) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    golden = read(path)
    refused = {str(line): sentence for line, sentence in golden.refused.items()}
    header = {"players": golden.players, "settings": golden.settings, "expect": golden.expect}
    header["expect-refused"] = refused
    return header, golden.actions


def test_there_are_golden_games():
    assert len(GOLDEN) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_through_a_real_session(path, tmp_path):
    header, actions = read_script(path)
    refused = header["expect-refused"]
    store = Store.open(tmp_path / "games.db")
    options = Options.for_names(*header["players"], **header["settings"])
    session = Session.start(store, "quin", options, clock=lambda: 0.0)
    for number, action in actions:
        if action["type"] == "undo":
            assert session.undo()
        elif action["type"] == "redo":
            assert session.redo()
        elif str(number) in refused:
            before = session.state
            with pytest.raises(RuleError) as refusal:
                session.act(action)
            assert str(refusal.value) == refused[str(number)]
            assert session.state == before
        else:
            assert session.outcome is None, f"line {number} comes after the end of the game"
            session.act(action)  # a refusal fails the test with the rules' sentence
    outcome = session.outcome
    assert outcome is not None
    assert {"winners": list(outcome.winners), "reason": outcome.reason.value} == header["expect"]
    # At the end every identity is on the shared screen.
    view = session.public_view()
    assert all(p["revealed"] and p["identity"] for side in view["players"] for p in side["pieces"])
    # The stored log replays to the very same game.
    again = Session.load(store, session.game_id, clock=lambda: 0.0)
    assert again.state == session.state
    assert store.game(session.game_id).outcome == outcome.to_json()
    store.close()


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_headless_with_companion_play(path, tmp_path, capsys):
    header, _ = read_script(path)
    settings = [f"--setting={key}={json.dumps(value)}" for key, value in header["settings"].items()]
    players = ",".join(header["players"])
    db = tmp_path / "play.db"
    code = companion(
        ["play", "quin", "--players", players, "--actions", str(path), "--db", str(db), "--private", *settings]
    )
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("{")
    steps = [json.loads(line) for line in lines[:start]]
    assert {str(s["line"]): s["refused"] for s in steps if "refused" in s} == header["expect-refused"]
    final = json.loads("\n".join(lines[start:]))
    outcome = final["outcome"]
    assert {"winners": outcome["winners"], "reason": outcome["reason"]} == header["expect"]
    # --private prints each player's own view, in the shape the player displays read.
    for name in header["players"]:
        private = final["private_views"][name]
        assert private["player"] == name and private["phase"] == "over"
        assert len(private["pieces"]) == 17
