"""`companion export GAME_ID [--format json|text] [--db PATH]`: a game's public record, on a real games file.

Issue 14, "The game's story": "`companion export GAME_ID [--format json|text] [--db PATH]` writes the game's
public record". The games are the golden scripts, played into a real SQLite file by a real `Session`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.game import Options, Refusal
from companion.record import story, thinking_words
from companion.session import Session
from companion.store import Store
from tests.support.golden import read, scripts
from ui.cli import EXIT_BAD_INPUT, main


def play_into(path: Path, script: Path, *, stop_short: int = 0, undo_last: bool = False) -> Session:
    """The golden `script` played into the games file at `path` (refused lines skipped), as a table would."""
    golden = read(script)
    with Store.open(path) as store:
        session = Session.start(
            store, golden.game, Options.for_names(*golden.players, **golden.settings),
            dice=RandomDice.seeded(golden.seed or 0), clock=lambda: 1_700_000_000.0,
        )  # fmt: skip
        for action in golden.lines[: len(golden.lines) - stop_short]:
            try:
                session.act(action)
            except Refusal:
                continue
        if undo_last:
            session.undo()
        return session


def export(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["export", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("script", scripts(), ids=lambda p: p.stem)
def test_every_golden_game_exports_its_public_record(tmp_path, capsys, script):
    """Asked: "writes the game's PUBLIC record to stdout: game, players, settings, start/end times, outcome,
    and every live move's public events (`Game.public_event`), each with its time"."""
    path = tmp_path / "games.db"
    session = play_into(path, script)
    status, out, err = export(capsys, "1", "--db", str(path))
    assert status == 0, err
    record = json.loads(out)
    assert record["format"] == "tabletop-companion game" and record["version"] == 2  # issue 27 added thinking times
    assert record["game"] == {"id": 1, "name": session.game.name, "title": session.game.title}
    assert record["players"] == list(session.options.names)
    assert record["settings"] == dict(session.options.settings)
    assert record["started_at"]
    assert len(record["moves"]) == len(session.moves)
    for stored, move in zip(record["moves"], session.moves, strict=True):
        assert stored["events"] == [session.public_event(e) for e in move.events]
        assert stored["at"].startswith("2023-11-")  # the session's clock
    outcome = session.outcome
    assert record["outcome"] == (outcome.to_stored() if outcome else None)
    assert (record["finished_at"] is None) == (outcome is None)
    assert record["final_view"] == json.loads(json.dumps(session.public_view()))
    assert ("revealed" in record) == (outcome is not None)

    status, text, _ = export(capsys, "1", "--db", str(path), "--format", "text")
    assert status == 0
    lines = text.splitlines()
    assert lines[0].startswith(f"{session.game.title} (game 1): ")
    with Store.read(path) as stored:
        told = story(stored, 1)
    read = [step for step in told.steps if any(step.sentences)]
    thought = [thinking_words(told)] if thinking_words(told) else []
    assert len(lines) == 3 + len(read) + len(thought)  # heading, start, a line a move the table reads, the end
    assert lines[len(lines) - len(thought) :] == thought  # and each player's thinking time, last
    assert all(line.strip() for line in lines)


def test_undone_moves_are_not_in_the_record(tmp_path, capsys):
    """Asked: "every live move": a move taken back with undo is not part of the game's story."""
    path = tmp_path / "games.db"
    session = play_into(path, scripts("quintet")[0], stop_short=5, undo_last=True)
    _, out, _ = export(capsys, "1", "--db", str(path))
    assert len(json.loads(out)["moves"]) == len(session.moves)
    with Store.read(path) as store:
        assert len(store.moves(1)) == len(session.moves) + 1  # the undone move is still in the file


def hidden_identities(session: Session) -> set[str]:
    """Each piece's hidden identity, as only its owner's private view shows it."""
    found: set[str] = set()
    for name in session.options.names:
        found |= {json.dumps(v) for v in _identities(session.private_view(name))}
    return found


def _identities(view: Any) -> list[Any]:
    if isinstance(view, dict):
        return (
            [view["identity"], *[x for v in view.values() for x in _identities(v)]]
            if "identity" in view
            else [x for v in view.values() for x in _identities(v)]
        )
    if isinstance(view, list):
        return [x for v in view for x in _identities(v)]
    return []


@pytest.mark.parametrize("script", scripts("quin"), ids=lambda p: p.stem)
def test_an_unfinished_quin_game_keeps_its_secrets(tmp_path, capsys, script):
    """Asked: "never a hidden identity ... the final reveal may be included ONLY for finished games": an unfinished
    Quin game's record names no identity that the public view does not already show."""
    path = tmp_path / "games.db"
    session = play_into(path, script, stop_short=3)
    assert session.outcome is None
    _, out, _ = export(capsys, "1", "--db", str(path))
    record = json.loads(out)
    assert "revealed" not in record
    public = {json.dumps(v) for v in _identities(session.public_view())}
    for event in (e for move in record["moves"] for e in move["events"]):
        assert {json.dumps(v) for v in _identities(event)} <= public
        assert "from" not in event or event["type"] != "clone_chosen"
    _, text, _ = export(capsys, "1", "--db", str(path), "--format", "text")
    shown = {  # identities the table was shown: a flash reveals both pieces' (its public form names them)
        str(value)
        for move in record["moves"]
        for event in move["events"]
        for key, value in event.items()
        if key.endswith("identity")
    } | {json.loads(v) for v in public}
    for move in session.moves:
        for event in move.events:
            identity = getattr(event, "identity", None)
            if type(event).__name__ == "PieceAssigned" and identity not in shown:
                assert f"({identity})" not in text


def test_a_finished_quin_game_is_revealed_in_full(tmp_path, capsys):
    """Asked: "Finished Quin games are revealed in full": the record of a finished game adds each player's view."""
    path = tmp_path / "games.db"
    finished = [s for s in scripts("quin") if read(s).expect.get("winners")]
    session = play_into(path, finished[0])
    assert session.outcome is not None
    _, out, _ = export(capsys, "1", "--db", str(path))
    revealed = json.loads(out)["revealed"]
    assert set(revealed) == set(session.options.names)
    assert {json.dumps(v) for v in _identities(revealed)} == hidden_identities(session)


def test_an_unknown_game_is_one_sentence_and_exit_status_2(tmp_path, capsys):
    """Asked: "Unknown id → one sentence, exit 2"; also a file that is not there and one that is not a games file."""
    path = tmp_path / "games.db"
    play_into(path, scripts("quinque")[0])
    status, out, err = export(capsys, "7", "--db", str(path))
    assert (status, out) == (EXIT_BAD_INPUT, "")
    assert err == "companion export: There is no game number 7 in this games file.\n"
    status, out, err = export(capsys, "1", "--db", str(tmp_path / "none.db"))
    assert status == EXIT_BAD_INPUT and len(err.splitlines()) == 1 and not out
    not_ours = tmp_path / "notes.txt"
    not_ours.write_text("shopping list\n")
    status, out, err = export(capsys, "1", "--db", str(not_ours))
    assert status == EXIT_BAD_INPUT and len(err.splitlines()) == 1 and not out
    assert not_ours.read_text() == "shopping list\n"


def test_export_changes_nothing_in_the_file(tmp_path, capsys):
    """Reading a game's story is looking: the file's bytes are the same afterwards."""
    path = tmp_path / "games.db"
    play_into(path, scripts("quantum-link")[0])
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert export(capsys, "1", "--db", str(path))[0] == 0
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


def test_the_text_is_the_games_own_sentences(tmp_path, capsys):
    """The text format tells each event in its game's words (its views' `tell`), the engine's own events
    included, never a sentence pieced together from an event's JSON ("Ann: player left (...)")."""
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        session = Session.start(store, "quinque", Options.for_names("Ann", "Bo"), clock=lambda: 1_700_000_000.0)
        session.act({"type": "choose_first", "player": "Bo", "chosen_by": "Ann", "how": "race"})
        session.act({"type": "add", "player": "Bo", "tile": [0, 0], "skydiver": "nw"})
        session.act({"type": "leave", "player": "Ann"})
    status, text, _ = export(capsys, "1", "--db", str(path), "--format", "text")
    assert status == 0
    *moves, end, thinking = text.splitlines()[2:]
    assert end.startswith("Ended ") and thinking == "Thinking time: Ann had no turn, Bo 0:00 (longest turn 0:00)."
    lines = [line.split("  ", 1)[1] for line in moves]
    assert lines == [
        "1. Bo was first to press and starts.",
        "2. Bo added a tile at the start. Bo marked the top left skydiver of the tile at the start.",
        "3. Ann left the game. Bo is the only player left and wins!",
    ]

