"""The `companion` command and the games file, through real processes: resume, a game held open on
standard input, a second writer, files that are not ours, `companion check`, and who may read the files.

Every wait has a deadline (a reader thread and a queue); nothing sleeps and hopes.
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "games" / "golden"
BOARD = GOLDEN / "quantum-link-full-board.jsonl"  # no dice: a resumed run can be compared exactly
DEADLINE = 30.0


def companion(*args: str, home: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COMPANION_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, input=stdin, timeout=DEADLINE,
    )  # fmt: skip


def actions(path: Path) -> list[str]:
    """The action lines of a golden script, comments left out."""
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]


def split_output(stdout: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """`companion play`'s output: one JSON line per action, then the final view (indented JSON)."""
    head, _, final = stdout.partition("\n{\n")
    if stdout.startswith("{\n"):
        head, final = "", stdout[2:]
    return [json.loads(line) for line in head.splitlines()], json.loads("{\n" + final)


def one_sentence(done: subprocess.CompletedProcess[str]) -> str:
    """Exit 2 with exactly one line of output, a sentence, and no traceback."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Error:" not in done.stderr, done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].rstrip().endswith("."), lines
    return lines[0]


class Streaming:
    """`companion play ... --actions -` held open: write a line, wait (with a deadline) for its result."""

    def __init__(self, *args: str, home: Path) -> None:
        env = {**os.environ, "COMPANION_HOME": str(home)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ui.cli", "play", *args, "--actions", "-"],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: list[str] = []
        threading.Thread(target=self._pump, args=(self.process.stdout, self._lines.put), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.process.stderr, self._stderr.append), daemon=True).start()

    @staticmethod
    def _pump(stream: Any, put: Callable[[Any], None]) -> None:
        for line in stream:
            put(line)
        put(None)

    def send(self, line: str) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        try:
            printed = self._lines.get(timeout=DEADLINE)
        except queue.Empty:
            raise AssertionError(f"no result for {line!r} within {DEADLINE} s: not applied on arrival") from None
        assert printed is not None, f"companion play ended early: {''.join(self._stderr)}"
        return json.loads(printed)

    def finish(self) -> tuple[dict[str, Any], str]:
        """Close standard input; the final JSON and what went to stderr."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=DEADLINE) == 0, "".join(self._stderr)
        rest = []
        while (line := self._lines.get(timeout=DEADLINE)) is not None:
            rest.append(line)
        return json.loads("".join(rest)), "".join(s for s in self._stderr if s is not None)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=DEADLINE)


@pytest.fixture
def streams():
    started: list[Streaming] = []

    def start(*args: str, home: Path) -> Streaming:
        started.append(Streaming(*args, home=home))
        return started[-1]

    yield start
    for stream in started:
        stream.kill()


def without_line(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: value for key, value in result.items() if key != "line"} for result in results]


# -- resume ------------------------------------------------------------------------------------------------------


def test_play_then_resume_is_one_uninterrupted_game(tmp_path):
    lines = actions(BOARD)
    whole = companion("play", "quantum-link", "--players", "Ann,Bo", "--actions", "-", home=tmp_path,
                      stdin="\n".join(lines) + "\n")  # fmt: skip
    db = str(tmp_path / "games.db")
    first = companion("play", "quantum-link", "--players", "Ann,Bo", "--db", db, "--actions", "-", home=tmp_path,
                      stdin="\n".join(lines[:25]) + "\n")  # fmt: skip
    second = companion("play", "--resume", "--db", db, "--actions", "-", home=tmp_path,
                       stdin="\n".join(lines[25:]) + "\n")  # fmt: skip
    for done in (whole, first, second):
        assert done.returncode == 0 and done.stderr == "", done.stderr
    whole_moves, whole_final = split_output(whole.stdout)
    first_moves, first_final = split_output(first.stdout)
    second_moves, second_final = split_output(second.stdout)
    assert first_final["outcome"] is None, "the first half must leave the game unfinished"
    assert without_line(first_moves + second_moves) == without_line(whole_moves)
    assert [r["line"] for r in second_moves] == list(range(1, len(lines) - 25 + 1)), "each run counts its own lines"
    assert second_final == whole_final and whole_final["outcome"]["winners"] == ["Bo"]
    assert second.stdout.endswith(whole.stdout[whole.stdout.index("\n{\n") + 1 :]), "the final JSON, byte for byte"


def test_resume_naming_the_game_and_players_it_has_is_fine(tmp_path):
    db = str(tmp_path / "games.db")
    companion("play", "quantum-link", "--players", "Ann,Bo", "--db", db, "--actions", "-", home=tmp_path,
              stdin=actions(BOARD)[0] + "\n")  # fmt: skip
    done = companion("play", "quantum-link", "--players", "Ann,Bo", "--resume", "--db", db, "--actions", "-",
                     home=tmp_path, stdin=actions(BOARD)[1] + "\n")  # fmt: skip
    assert done.returncode == 0, done.stderr
    moves, _ = split_output(done.stdout)
    assert moves[0]["events"][0]["player"] == "Bo", "the resumed game goes on with the second move"


def test_a_resumed_game_keeps_the_dice_it_rolled_whatever_the_new_seed(tmp_path):
    """An undone roll is handed back to the next roll after resume, as it is without one: undo never re-rolls.

    (`--seed` on resume seeds only the dice rolled from then on, so a game with dice is the same as an
    uninterrupted one up to its next fresh roll; a game without dice, as above, is the same throughout.)
    """
    roll_ann, roll_bo = '{"type": "roll", "player": "Ann"}', '{"type": "roll", "player": "Bo"}'
    db = str(tmp_path / "games.db")
    first = companion("play", "quintet", "--players", "Ann,Bo", "--seed", "25", "--db", db, "--actions", "-",
                      home=tmp_path, stdin=f'{roll_ann}\n{roll_bo}\n{{"type": "undo"}}\n')  # fmt: skip
    second = companion("play", "--resume", "--seed", "999", "--db", db, "--actions", "-", home=tmp_path,
                       stdin=f"{roll_bo}\n")  # fmt: skip
    assert first.returncode == 0 and second.returncode == 0, second.stderr
    (_, undone_roll, undo), _ = split_output(first.stdout)
    (again,), _ = split_output(second.stdout)
    assert undo["undone"] is True
    assert again["events"] == undone_roll["events"], "the undone roll comes back, not a fresh one"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("play", "--resume", "--actions", "-"), "--db"),
        (("play", "--resume", "--db", "{db}", "--actions", "-"), "no unfinished game"),
        (("play", "quintet", "--resume", "--db", "{db}", "--actions", "-"), "quantum-link, not quintet"),
        (("play", "--resume", "--players", "Ann,Cy", "--db", "{db}", "--actions", "-"), "Ann, Bo"),
        (("play", "--actions", "-"), "--players"),
    ],
)
def test_resume_that_cannot_go_on_is_one_sentence(tmp_path, args, words):
    db = tmp_path / "games.db"
    if "no unfinished" not in words:
        companion("play", "quantum-link", "--players", "Ann,Bo", "--db", str(db), "--actions", "-", home=tmp_path,
                  stdin=actions(BOARD)[0] + "\n")  # fmt: skip
    else:  # a finished game only
        companion("play", "quantum-link", "--players", "Ann,Bo", "--db", str(db), "--actions", str(BOARD),
                  home=tmp_path)  # fmt: skip
    sentence = one_sentence(companion(*(a.replace("{db}", str(db)) for a in args), home=tmp_path))
    assert words in sentence


# -- a game held open on standard input -----------------------------------------------------------------------------


def test_actions_from_stdin_are_applied_as_they_arrive(tmp_path, streams):
    lines = actions(BOARD)[:8]
    whole = companion("play", "quantum-link", "--players", "Ann,Bo", "--actions", "-", home=tmp_path,
                      stdin="\n".join(lines) + "\n")  # fmt: skip
    expected, expected_final = split_output(whole.stdout)
    game = streams("quantum-link", "--players", "Ann,Bo", "--db", str(tmp_path / "games.db"), home=tmp_path)
    got = []
    for number, line in enumerate(lines):
        if number == 3:  # comments and blank lines print nothing but count as lines
            game.process.stdin.write("# a comment\n\n")  # type: ignore[union-attr]
        got.append(game.send(line))
    final, stderr = game.finish()
    assert without_line(got) == without_line(expected)
    assert [r["line"] for r in got] == [1, 2, 3, 6, 7, 8, 9, 10]
    assert final == expected_final and stderr == ""


def test_a_second_writer_is_refused_and_the_first_goes_on(tmp_path, streams):
    db = str(tmp_path / "games.db")
    lines = actions(BOARD)
    first = streams("quantum-link", "--players", "Ann,Bo", "--db", db, home=tmp_path)
    for line in lines[:5]:
        assert "events" in first.send(line)

    second = companion("play", "quantum-link", "--players", "Cy,Di", "--db", db, "--actions", str(BOARD), home=tmp_path)
    assert "Another Tabletop Companion" in one_sentence(second)
    also = companion("play", "--resume", "--db", db, "--actions", "-", home=tmp_path, stdin=lines[5] + "\n")
    one_sentence(also)
    looking = companion("history", "--db", db, home=tmp_path)
    assert looking.returncode == 0 and looking.stderr == "", "reading takes no lock: history works meanwhile"
    checking = companion("check", "--db", db, home=tmp_path)
    assert checking.returncode == 0, checking.stdout

    for line in lines[5:10]:
        assert "events" in first.send(line), "the first companion goes on as if nothing happened"
    final, stderr = first.finish()
    assert stderr == ""

    checked = companion("check", "--db", db, home=tmp_path)
    assert checked.returncode == 0 and "1 game, 10 moves" in checked.stdout, checked.stdout
    resumed = companion("play", "--resume", "--db", db, "--actions", "-", home=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert split_output(resumed.stdout) == ([], final), "every move of the first is there, and nothing of the second"


# -- not our file: refused, and left exactly as it is ------------------------------------------------------------------


def _folder(path: Path) -> None:
    path.mkdir()


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _text(path: Path) -> None:
    path.write_text('{"type": "roll", "player": "Ann"}\n{"type": "roll", "player": "Bo"}\n')


def _dangling(path: Path) -> None:
    path.symlink_to(path.parent / "gone.db")


def _other_sqlite(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
        db.execute("INSERT INTO recipes VALUES ('bread', 240)")
    db.close()


def _empty(path: Path) -> None:
    path.touch()


NOT_OURS = {
    "folder": ("games.db", _folder),
    "fifo": ("games.db", _fifo),
    "text": ("notes.jsonl", _text),
    "dangling-link": ("games.db", _dangling),
    "other-sqlite": ("recipes.db", _other_sqlite),
    "empty": ("games.db", _empty),
}


def _snapshot(folder: Path) -> dict[str, tuple[int, bytes | str | None]]:
    """Every entry in `folder`: its type, and its bytes (a file) or target (a link)."""
    out: dict[str, tuple[int, bytes | str | None]] = {}
    for entry in sorted(folder.iterdir()):
        mode = os.lstat(entry).st_mode
        if stat.S_ISLNK(mode):
            out[entry.name] = (stat.S_IFMT(mode), os.readlink(entry))
        elif stat.S_ISREG(mode):
            out[entry.name] = (stat.S_IFMT(mode), entry.read_bytes())
        elif stat.S_ISDIR(mode):
            out[entry.name] = (stat.S_IFMT(mode), "\0".join(sorted(os.listdir(entry))))
        else:
            out[entry.name] = (stat.S_IFMT(mode), None)
    return out


@pytest.mark.parametrize("kind", NOT_OURS)
def test_a_path_that_is_not_our_games_file_is_refused_and_left_as_it_is(tmp_path, kind):
    name, make = NOT_OURS[kind]
    folder = tmp_path / "place"
    folder.mkdir()
    target = folder / name
    make(target)
    before = _snapshot(folder)
    commands = {
        "play": ("play", "quintet", "--players", "Ann,Bo", "--db", str(target), "--actions", "-"),
        "resume": ("play", "--resume", "--db", str(target), "--actions", "-"),
        "history": ("history", "--db", str(target)),
        "check": ("check", "--db", str(target)),
    }
    for command, args in commands.items():
        sentence = one_sentence(companion(*args, home=tmp_path / "home", stdin='{"type": "roll", "player": "Ann"}\n'))
        assert name in sentence, (command, sentence)
        assert _snapshot(folder) == before, f"companion {command} changed {kind} or made a file beside it"


# -- companion check and history on a damaged file ---------------------------------------------------------------------

# The action of move 14, nowhere else; it ends before the game clock the store keeps beside it ("@clock").
MOVE = b'{"type": "place", "player": "Bo", "cell": [-3, 4], "face": 2'
FACE = len(MOVE) - 1  # "face": 2 becomes "face": 3
GAME = b'"settings": {}'  # in the game row's options only


def finished_game(home: Path) -> Path:
    db = home / "data" / "games.db"
    done = companion("play", "quantum-link", "--players", "Ann,Bo", "--db", str(db), "--actions", str(BOARD), home=home)
    assert done.returncode == 0, done.stderr
    return db


def flip_a_bit_in(db: Path, needle: bytes, offset: int) -> bytes:
    data = bytearray(db.read_bytes())
    assert data.count(needle) == 1, "the test needs the string exactly once in the file"
    data[data.index(needle) + offset] ^= 0x01
    db.write_bytes(bytes(data))
    return bytes(data)


def test_check_on_a_healthy_file(tmp_path):
    db = finished_game(tmp_path)
    before = db.read_bytes()
    done = companion("check", "--db", str(db), home=tmp_path)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"{db} is healthy: 1 game, 62 moves.\n"
    assert db.read_bytes() == before
    default = companion("check", home=tmp_path)
    assert default.stdout == done.stdout, "the default is the user's own games file"


def test_check_names_a_damaged_move_and_what_salvage_would_keep_and_changes_nothing(tmp_path):
    db = finished_game(tmp_path)
    damaged = flip_a_bit_in(db, MOVE, FACE)
    beside = sorted(p.name for p in db.parent.iterdir())
    done = companion("check", "--db", str(db), home=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    report = done.stdout.splitlines()
    assert any("Move 14" in line and "Quantum Link with Ann and Bo" in line for line in report), report
    assert report[-1].startswith("Salvage would keep"), report
    assert db.read_bytes() == damaged, "check changes nothing"
    assert sorted(p.name for p in db.parent.iterdir()) == beside, "check makes no file beside the games file"


@pytest.mark.parametrize(("needle", "offset"), [(MOVE, FACE), (GAME, 3)], ids=["move-row", "game-row"])
def test_history_reads_around_damage_and_leaves_the_file_as_it_is(tmp_path, needle, offset):
    db = finished_game(tmp_path)
    damaged = flip_a_bit_in(db, needle, offset)
    done = companion("history", "--db", str(db), home=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "damaged" in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stdout.splitlines() == ["quantum-link\tAnn, Bo\twon by Bo\t0 s", "Bo: 1 win"]
    assert db.read_bytes() == damaged
    assert not list(db.parent.glob("*.damaged-*")), "history never moves anything aside"


def test_play_on_a_damaged_file_says_so_once_and_plays_on(tmp_path):
    db = finished_game(tmp_path)
    flip_a_bit_in(db, GAME, 3)
    done = companion("play", "quantum-link", "--players", "Cy,Di", "--db", str(db), "--actions", "-", home=tmp_path,
                     stdin=actions(BOARD)[0].replace("Ann", "Cy") + "\n")  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "damaged" in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert "events" in split_output(done.stdout)[0][0]
    assert companion("check", "--db", str(db), home=tmp_path).returncode == 0, "the salvaged file is healthy"


def test_history_without_a_games_file(tmp_path):
    done = companion("history", home=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "No games have been played yet.\n", "")
    assert not (tmp_path / "data").exists(), "looking creates nothing"


# -- files for the owner only ------------------------------------------------------------------------------------------


def test_every_file_the_companion_makes_is_the_owners_only(tmp_path, streams):
    folder = tmp_path / "fresh"  # made by the companion itself
    db = folder / "games.db"
    game = streams("quantum-link", "--players", "Ann,Bo", "--db", str(db), home=tmp_path)
    game.send(actions(BOARD)[0])
    live = {p.name: stat.S_IMODE(os.lstat(p).st_mode) for p in folder.iterdir()}
    assert {"games.db", "games.db-wal", "games.db.lock"} <= set(live), live
    game.finish()
    rest = "\n".join(actions(BOARD)[1:]) + "\n"
    done = companion("play", "--resume", "--db", str(db), "--actions", "-", home=tmp_path, stdin=rest)
    assert done.returncode == 0 and split_output(done.stdout)[1]["outcome"], "a finished game is backed up"
    after = {str(p.relative_to(folder)): stat.S_IMODE(os.lstat(p).st_mode) for p in folder.rglob("*")}
    assert any(name.startswith("backups/") for name in after), after
    files = {name: mode for name, mode in {**live, **after}.items() if not (folder / name).is_dir()}
    assert files and all(mode == 0o600 for mode in files.values()), {k: oct(v) for k, v in files.items()}
    folders = [folder, *(p for p in folder.rglob("*") if p.is_dir())]
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o700 for p in folders), [oct(p.stat().st_mode) for p in folders]


# -- the config file ---------------------------------------------------------------------------------------------------


def test_a_config_typo_is_a_sentence_naming_the_key(tmp_path):
    path = tmp_path / "config" / "companion.toml"
    path.parent.mkdir(parents=True)
    path.write_text('hardware = "simulated"\n')
    done = companion("config", "--check", home=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stdout.splitlines()) == 1 and "hardware" in done.stdout and done.stdout.rstrip().endswith(".")


def test_history_of_2000_games_pages_with_no_silent_cap(tmp_path):
    """Issue 14: "`companion history` silently lists only 1,000 games." Now every game is on some page, and each
    page says where it is among them."""
    from bench.bench_store import games_file

    db = tmp_path / "games.db"
    games_file(db, games=2000, moves=1)
    first = companion("history", "--db", str(db), home=tmp_path)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert len([line for line in lines if line.startswith("quintet\t")]) == 50
    assert "Games 1–50 of 2,000, newest first; --page 2 for older ones." in lines
    assert "Ann: 2000 wins" in lines, "the wins count every game, not a page"
    last = companion("history", "--db", str(db), "--page", "20", "--per-page", "100", home=tmp_path)
    assert "Games 1901–2000 of 2,000, newest first." in last.stdout.splitlines()
    shown = [line for line in last.stdout.splitlines() if line.startswith("quintet\t")]
    assert len(shown) == 100
    bad = companion("history", "--db", str(db), "--page", "0", home=tmp_path)
    assert bad.returncode != 0 and bad.stderr.strip() == "companion history: --page and --per-page count from 1."
