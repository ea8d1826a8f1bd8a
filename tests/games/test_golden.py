"""Golden playthroughs of every game: each script in golden/ played for real, twice.

A script is what `companion play GAME` reads (see `tests.support.golden`); its
game is its name's prefix (``quantum-link-tie.jsonl`` is Quantum Link). Each
script is played

- through a real `Session` on a real `Store` file: every line is accepted, or
  refused with the sentence the script expects and nothing changed; the game
  ends as expected, the store holds its outcome, the log read back from the
  file folds to the very same game without a die, and the same seed gives the
  very same events again;
- headless, through ``companion play`` (`ui.cli.main`) with the script's
  players, settings and seed: the same refusals, the same end.

Then the game's own checks of how it ended (`CHECKS`, if it has any) run on both.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.dicestats import DiceStats
from companion.game import Options, Outcome, RuleError
from companion.games import names
from companion.session import Session
from companion.store import Store
from tests.support import ManualClock
from tests.support.golden import Golden, game_of, read, scripts
from ui import cli

SCRIPTS = scripts()
FEWEST = {"quintet": 3, "quin": 3, "quark": 3, "quantum-link": 4, "quinque": 4}
"""How many golden scripts each game has at least."""


@dataclass(frozen=True)
class End:
    """How a golden game ended, as either way of playing it shows it."""

    golden: Golden
    view: dict[str, Any]  # the public view, as JSON
    private: dict[str, dict[str, Any]]  # each player's private view, as JSON
    session: Session | None  # the live session (None: played headless)


class NoDice:
    def roll(self, sides: int = 6) -> int:
        raise AssertionError("replay rolled a die")


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """The outcome as `companion play` prints it (its reason an enum, or already a string)."""
    data: dict[str, Any] = outcome.to_json()
    assert data["winners"] == list(outcome.winners)
    assert data["reason"] == getattr(outcome.reason, "value", outcome.reason)
    return data


# -- what every golden game must come to ----------------------------------------------------------------


def check_outcome(golden: Golden, outcome: dict[str, Any] | None) -> None:
    """The outcome the script expects: whole (``"outcome"``), or its winners and reason."""
    assert outcome is not None, "the game did not end"
    if "outcome" in golden.expect:
        assert outcome == golden.expect["outcome"]
    else:
        expect = golden.expect
        assert (outcome["winners"], outcome["reason"]) == (expect["winners"], expect["reason"])


def check_refusals(golden: Golden, refused: dict[int, str]) -> None:
    """The lines refused, with their sentences: as ``# expect-refused`` says (Quintet's: the sentences in order)."""
    if "refusals" in golden.expect:
        assert list(refused.values()) == golden.expect["refusals"]
    else:
        assert refused == golden.refused


# -- each game's own checks ----------------------------------------------------------------------------


def check_quintet(end: End) -> None:
    expect = end.golden.expect
    if end.session is None:  # headless, the outcome and the refusals say it all
        return
    session = end.session
    assert list(session.state.out) == expect["out"]
    assert session.state.rolls == expect["rolls"]
    stored = [event for move in session.store.moves(session.game_id) if not move.undone for event in move.events]
    assert [event for event in stored if event["type"] == "opening_won"] == [expect["opening_won"]]


def check_quin(end: End) -> None:
    # At the end every identity is on the shared screen.
    assert all(p["revealed"] and p["identity"] for side in end.view["players"] for p in side["pieces"])
    # Each player's own view, in the shape the player displays read.
    for name in end.golden.players:
        private = end.private[name]
        assert private["player"] == name and private["phase"] == "over"
        assert len(private["pieces"]) == 17


def check_quark(end: End) -> None:
    from companion.games.quark.state import ENERGY_TOKENS, NEUTRON_TOKENS, PROTON_TOKENS

    view, expect = end.view, end.golden.expect
    assert {s["player"]: s["total"] for s in view["scores"]} == expect["scores"]
    assert {s["player"]: (s["atom"] or {}).get("name") for s in view["scores"]} == expect["atoms"]
    assert {p["name"]: p["turns"] for p in view["players"]} == expect["turns"]
    assert len(set(expect["turns"].values())) == 1, "everyone had as many turns"
    bank = view["bank"]  # no token made or lost
    assert bank["energy"] + sum(p["energy"] for p in view["players"]) == ENERGY_TOKENS
    assert bank["protons"] + sum(p["protons"] for p in view["players"]) == PROTON_TOKENS
    assert bank["neutrons"] + sum(p["neutrons"] for p in view["players"]) == NEUTRON_TOKENS


def check_quantum_link(end: End) -> None:
    view, expect = end.view, end.golden.expect
    assert view["scores"] == expect["scores"]
    assert sum(1 for c in view["cells"] if c["die"] and c["die"]["covered"]) == expect["covered"]
    assert view["rematch"] == expect.get("rematch")
    for cell in view["cells"]:  # after the end, each die either scores or is covered
        if cell["die"] is not None:
            assert cell["die"]["covered"] != cell["die"]["scoring"]


def check_quinque(end: End) -> None:
    view = end.view
    if end.golden.expect["winners"]:
        assert len(view["line"]) == 5
    else:
        assert view["tied"] is True
        assert [p["parachutes_left"] for p in view["players"]] == [0, 0]


CHECKS: dict[str, Callable[[End], None]] = {  # a new game's scripts need none to be played here
    "quintet": check_quintet,
    "quin": check_quin,
    "quark": check_quark,
    "quantum-link": check_quantum_link,
    "quinque": check_quinque,
}


# -- the tests -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(FEWEST))
def test_every_game_has_golden_scripts(game: str) -> None:
    assert len(scripts(game)) >= FEWEST[game]


def test_every_golden_script_is_named_after_a_game() -> None:
    assert SCRIPTS
    assert {game_of(path) for path in SCRIPTS} <= set(names())


def game_checks(golden: Golden) -> Callable[[End], None]:
    return CHECKS.get(golden.game, lambda end: None)


def play(store: Store, golden: Golden) -> tuple[Session, dict[int, str]]:
    """Play the script live; the session and the lines refused, with their sentences."""
    options = Options.for_names(*golden.players, **golden.settings)
    dice = RandomDice.seeded(golden.seed or 0)
    session = Session.start(store, golden.game, options, dice=dice, clock=ManualClock())
    refused: dict[int, str] = {}
    for number, action in golden.actions:
        if action.get("type") == "undo":
            assert session.undo(), f"line {number}: nothing to undo"
        elif action.get("type") == "redo":
            assert session.redo(), f"line {number}: nothing to redo"
        else:
            before, over = session.state, session.outcome is not None
            try:
                session.act(action)
            except RuleError as refusal:
                refused[number] = str(refusal)
                assert session.state == before, f"line {number}: a refused action changed the game"
            else:
                assert not over, f"line {number} was accepted after the end of the game"
    return session, refused


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_golden_script_through_a_session_on_a_real_store(path: Path, tmp_path: Path) -> None:
    golden = read(path)
    with Store.open(tmp_path / "games.db") as store:
        live, refused = play(store, golden)
        check_refusals(golden, refused)
        assert live.outcome is not None
        outcome = outcome_json(live.outcome)
        check_outcome(golden, outcome)
        private = {name: as_json(live.private_view(name)) for name in golden.players}
        game_checks(golden)(End(golden, as_json(live.public_view()), private, live))
        # The result and the game's length are in the history.
        record = store.game(live.game_id)
        assert record is not None
        assert record.outcome == {**outcome, "termination": live.outcome.termination.value}
        assert record.finished_at is not None
    # The stored log, read back from the file, folds to the very same game, without rolling a die.
    with Store.open(tmp_path / "games.db") as again:
        replayed = Session.load(again, live.game_id, dice=NoDice(), clock=ManualClock())
        assert replayed.state == live.state
        assert replayed.public_view() == live.public_view()
        assert replayed.outcome == live.outcome
    # And the same script with the same seed gives the very same events.
    with Store.in_memory() as other:
        assert play(other, golden)[0].events == live.events


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_golden_script_headless_through_companion_play(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = read(path)
    argv = ["play", golden.game, "--players", ",".join(golden.players), "--actions", str(path)]
    argv += ["--db", str(tmp_path / "play.db"), "--private"]
    argv += [f"--setting={key}={json.dumps(value)}" for key, value in golden.settings.items()]
    if golden.seed is not None:
        argv += ["--seed", str(golden.seed)]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    start = out.index("{")
    steps = [json.loads(line) for line in out[:start]]
    assert [step["line"] for step in steps] == [number for number, _ in golden.actions], "one answer a line"
    assert all(step.get("undone", True) and step.get("redone", True) for step in steps)
    check_refusals(golden, {step["line"]: step["refused"] for step in steps if "refused" in step})
    final = json.loads("\n".join(out[start:]))
    check_outcome(golden, final["outcome"])
    game_checks(golden)(End(golden, final["public_view"], final["private_views"], None))


def test_every_roll_of_a_golden_quintet_game_is_in_its_dice_statistics(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.db") as store:
        sessions = [play(store, read(path))[0] for path in scripts("quintet")]
        per_game = [DiceStats.of_events(s.events) for s in sessions]
        assert [stats.rolls for stats in per_game] == [s.state.rolls for s in sessions]
        everything = DiceStats.of_moves(store.all_moves("quintet"))
        assert everything.rolls == sum(stats.rolls for stats in per_game)
        assert everything.totals == tuple(map(sum, zip(*(stats.totals for stats in per_game), strict=True)))
