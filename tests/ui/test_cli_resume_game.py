"""`companion play --resume` with several unfinished games, through real processes (issue 14):
"`companion play --resume` takes `--game ID` when there are several." Without --game and with several,
one sentence lists them (id, game, players) and the exit status is 2."""

from __future__ import annotations

import re
from pathlib import Path

from tests.ui.test_cli_store import BOARD, actions, companion, one_sentence, split_output


def _two_unfinished(tmp_path: Path) -> str:
    """A Quantum Link game of Ann and Bo one move in, then a Quintet of Cy, Di and Ed with none."""
    db = str(tmp_path / "games.db")
    first = companion("play", "quantum-link", "--players", "Ann,Bo", "--db", db, "--actions", "-", home=tmp_path,
                      stdin=actions(BOARD)[0] + "\n")  # fmt: skip
    second = companion("play", "quintet", "--players", "Cy,Di,Ed", "--db", db, "--actions", "-", home=tmp_path)
    assert first.returncode == 0 and second.returncode == 0, (first.stderr, second.stderr)
    return db


def test_several_unfinished_without_game_is_one_sentence_listing_them(tmp_path):
    db = _two_unfinished(tmp_path)
    sentence = one_sentence(companion("play", "--resume", "--db", db, "--actions", "-", home=tmp_path))
    assert "2 unfinished games" in sentence and "--game ID" in sentence
    assert re.search(r"2: quintet with Cy, Di, Ed; 1: quantum-link with Ann, Bo\.$", sentence), sentence


def test_resume_game_id_goes_on_with_that_game_and_the_other_stays(tmp_path):
    db = _two_unfinished(tmp_path)
    done = companion("play", "--resume", "--game", "1", "--db", db, "--actions", "-", home=tmp_path,
                     stdin=actions(BOARD)[1] + "\n")  # fmt: skip
    assert done.returncode == 0, done.stderr
    moves, _ = split_output(done.stdout)
    assert moves[0]["events"][0]["player"] == "Bo", "game 1 goes on with its second move"
    other = companion("play", "--resume", "--game", "2", "--db", db, "--actions", "-", home=tmp_path,
                      stdin='{"type": "roll", "player": "Cy"}\n')  # fmt: skip
    assert other.returncode == 0, other.stderr
    assert "refused" not in split_output(other.stdout)[0][0], "the Quintet is still there, at its start"


def test_resume_game_id_that_is_not_unfinished_is_one_sentence(tmp_path):
    db = _two_unfinished(tmp_path)
    sentence = one_sentence(companion("play", "--resume", "--game", "7", "--db", db, "--actions", "-", home=tmp_path))
    assert "no unfinished game 7" in sentence and "1: quantum-link with Ann, Bo" in sentence


def test_game_id_without_resume_is_one_sentence_and_starts_nothing(tmp_path):
    db = str(tmp_path / "games.db")
    result = companion("play", "quintet", "--players", "Ann,Bo", "--game", "1", "--db", db, "--actions", "-",
                       home=tmp_path)  # fmt: skip
    assert "use it with --resume" in one_sentence(result)
    assert not Path(db).exists(), "a refused command creates no games file"
