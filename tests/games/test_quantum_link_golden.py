"""Quantum Link golden playthroughs: action scripts in `golden/quantum-link-*.jsonl`, replayed for real.

Each script is what `companion play quantum-link` reads (one JSON action a line). Its ``#`` lines,
which the driver skips, carry the seating (``# players: A,B``) and what must come out
(``# expect: {...}``, and ``# expect-refused: {"line": "sentence"}`` for lines the rules refuse).
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
from ui import cli

GOLDEN = sorted((Path(__file__).parent / "golden").glob("quantum-link-*.jsonl"))


def read_script(path: Path) -> tuple[list[str], dict[str, Any], dict[int, str], list[tuple[int, dict[str, Any]]]]:
    golden = read(path)
    return golden.players, golden.expect, golden.refused, golden.actions


def check_end(view: dict[str, Any], outcome: dict[str, Any] | None, expect: dict[str, Any]) -> None:
    assert outcome is not None
    assert outcome["winners"] == expect["winners"]
    assert outcome["reason"] == expect["reason"]
    assert view["scores"] == expect["scores"]
    assert sum(1 for c in view["cells"] if c["die"] and c["die"]["covered"]) == expect["covered"]
    assert view["rematch"] == expect.get("rematch")
    for cell in view["cells"]:  # after the end, each die either scores or is covered
        if cell["die"] is not None:
            assert cell["die"]["covered"] != cell["die"]["scoring"]


def test_there_are_golden_scripts() -> None:
    assert len(GOLDEN) >= 4


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_script_through_a_session_with_a_real_database(path: Path, tmp_path: Path) -> None:
    players, expect, refused, actions = read_script(path)
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, "quantum-link", Options.for_names(*players), clock=lambda: 0.0)
        for number, action in actions:
            if number in refused:
                before = session.state
                with pytest.raises(RuleError) as refusal:
                    session.act(action)
                assert str(refusal.value) == refused[number]
                assert session.state == before
            else:
                session.act(action)
        check_end(session.public_view(), session.outcome.to_json() if session.outcome else None, expect)
        replayed = Session.load(store, session.game_id)
        assert replayed.state == session.state
        assert store.game(session.game_id).outcome == session.outcome.to_json()  # type: ignore[union-attr]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_script_through_companion_play(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    players, expect, refused, _ = read_script(path)
    argv = ["play", "quantum-link", "--players", ",".join(players), "--actions", str(path)]
    assert cli.main([*argv, "--db", str(tmp_path / "games.db")]) == 0
    out = capsys.readouterr().out
    lines, _, final_text = out.partition("\n{\n")
    per_line = [json.loads(line) for line in lines.splitlines()]
    assert {r["line"]: r["refused"] for r in per_line if "refused" in r} == refused
    final = json.loads("{\n" + final_text)
    check_end(final["public_view"], final["outcome"], expect)
