"""Issue 22: "The command line, careful": input nesting and number size limited with one sentence, a closed pipe
ends quietly, every argument checked with a sentence; and `play` and `check` say every repair on stderr.

Most cases run `ui.cli.main` in-process (quick); the closed pipes and the repairs run the real command.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import fault_corpus
from tests.support.fault_corpus import Corpus
from ui import boot, cli

# Its module fixture is made once: its tests stay on one worker (`make test` runs --dist loadgroup).
pytestmark = pytest.mark.xdist_group("test_cli_careful")

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 120


def companion(*args: str, home: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COMPANION_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, input=stdin, timeout=DEADLINE,
    )  # fmt: skip


def run_main(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        status = cli.main(args)
    except SystemExit as leaving:  # argparse's own refusal
        status = int(leaving.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Error:" not in err.replace("error:", ""), err
    return status, out, err


DEEP = "[" * 100_000 + "]" * 100_000
ROLL = '{"type": "roll", "player": "Ann"}'


@pytest.mark.parametrize("where", ["file", "stdin"])
def test_deeply_nested_json_is_refused_with_a_sentence(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22: "deeply nested JSON in an action file or on stdin (`RecursionError`, 3 cases)"."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    actions = tmp_path / "actions.jsonl"
    actions.write_text(DEEP + "\n" + ROLL + "\n")
    source = str(actions) if where == "file" else "-"
    status, out, _ = run_main(
        ["play", "quintet", "--players", "Ann,Bo", "--actions", source], capsys, monkeypatch, stdin=DEEP + "\n" + ROLL
    )
    assert status == 0
    first, second = out.splitlines()[:2]
    assert f"nested more than {cli.MAX_DEPTH} brackets deep" in first
    assert '"events"' in second, "the next line is played"


def test_a_nested_setting_and_a_huge_number_are_refused_with_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22: "input nesting and number size limited with one sentence"."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    status, _, err = run_main(
        ["play", "quintet", "--players", "Ann,Bo", "--setting", f"x={DEEP}", "--actions", "-"], capsys, monkeypatch
    )
    assert status == 2 and "--setting x: The value is nested more than" in err, err
    huge = '{"type": "roll", "player": "Ann", "times": 123456789012345678901234567890}'
    status, out, _ = run_main(
        ["play", "quintet", "--players", "Ann,Bo", "--actions", "-"], capsys, monkeypatch, stdin=huge + "\n1e999\n"
    )
    assert status == 0
    lines = out.splitlines()
    assert "is too big: it was not read." in lines[0] and "is too big" in lines[1], lines[:2]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["export", "99999999999999999999999999"], "out of range"),
        (["export", "0"], "out of range"),
        (["export", "seven"], "is not a whole number"),
        (["run", "--size", "99999999999999999999x0"], "out of range"),
        (["run", "--size", "wide"], "is not a size"),
        (["run", "--size", "20x20"], "out of range"),
        (["play", "--resume", "--db", "x.db", "--game", "99999999999999999999", "--actions", "-"], "out of range"),
        (["play", "quintet", "--players", "Ann", "--seed", "9" * 40, "--actions", "-"], "out of range"),
        (["history", "--per-page", "99999999999999999999999"], "out of range"),
    ],
    ids=["export-huge", "export-zero", "export-word", "size-huge", "size-word", "size-tiny", "game-id", "seed",
         "per-page"],
)  # fmt: skip
def test_every_number_argument_is_checked_with_a_sentence(
    args: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22: "`export 99999999999999999999999999` (`OverflowError`), `run --size 99999999999999999999x0` (a
    Kivy `ParserException`)": now refused before anything starts, with a sentence."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    status, out, err = run_main(args, capsys, monkeypatch)
    assert status == 2 and says in err and out == "", (status, out, err)
    assert err.rstrip().endswith("."), "a sentence"


def test_a_missing_actions_file_is_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    status, _, err = run_main(["play", "quintet", "--players", "Ann,Bo", "--actions", "nowhere.jsonl"], capsys,
                              monkeypatch)  # fmt: skip
    assert status == 2
    assert err == "companion play: the actions file nowhere.jsonl cannot be read (No such file or directory).\n"


# -- closed pipes -----------------------------------------------------------------------------------------------


def _read_one_line_and_close(args: list[str], home: Path) -> tuple[int, str]:
    env = {**os.environ, "COMPANION_HOME": str(home)}
    process = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", *args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # `| head -1`
    err = process.stderr.read().decode()
    return process.wait(timeout=DEADLINE), err


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """Issue 22: "output piped into `head` (`BrokenPipeError`, 4 cases: `play` with and without `--db`, `history`,
    `export`)". Now the command stops quietly: exit 0 or 141 (as SIGPIPE would), nothing on stderr."""
    from bench.bench_store import games_file

    many = tmp_path / "many.db"
    games_file(many, games=3000, moves=1)
    long_game = tmp_path / "long.db"
    rolled = {"type": "rolled", "player": "Ann", "dice": [3, 4], "total": 7, "double_fives": False, "safety": 0}
    games_file(long_game, games=1, moves=3000, event=rolled)
    actions = tmp_path / "rolls.jsonl"
    actions.write_text((ROLL + "\n") * 3000)
    saved = tmp_path / "p.db"
    cases = {
        "play": ["play", "quintet", "--players", "Ann,Bo", "--actions", str(actions)],
        "play --db": ["play", "quintet", "--players", "Ann,Bo", "--actions", str(actions), "--db", str(saved)],
        "history": ["history", "--db", str(many), "--per-page", "3000"],
        "export": ["export", "1", "--db", str(long_game)],
    }  # fmt: skip
    for name, args in cases.items():
        status, err = _read_one_line_and_close(args, tmp_path / name.replace(" ", ""))
        assert status in (0, cli.EXIT_CLOSED_PIPE) and err == "", (name, status, err)
    from companion.store import check

    assert check(saved).status == 0, "the moves played before the pipe closed are saved, the file whole"


# -- repairs said ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def closed(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return fault_corpus.build_closed(tmp_path_factory.mktemp("careful"))


def test_play_resume_and_check_say_the_repair_on_stderr(closed: Corpus, tmp_path: Path) -> None:
    """Issue 22: "`play --resume` repairs in silence: 81 of 800 random flips were salvaged … with nothing on stdout
    or stderr and exit 0"; and "a flipped bit in the schema's SQL text": `check` and `play --resume` "end in a
    traceback". Now `check` says the damage (exit 1, the salvage on stderr too), `play` says the repair on stderr
    and goes on (exit 0)."""
    path = fault_corpus.damaged(closed, fault_corpus.NAMED[0], tmp_path / "files")
    checked = companion("check", "--db", str(path), home=tmp_path)
    assert checked.returncode == 1 and "Traceback" not in checked.stderr, checked.stderr
    assert checked.stderr.startswith(f"companion check: {path} is damaged. Salvage would keep 4 games"), checked.stderr
    played = companion("play", "--resume", "--db", str(path), "--actions", "-", home=tmp_path, stdin=ROLL + "\n")
    assert played.returncode == 0 and "Traceback" not in played.stderr, played.stderr
    assert "was damaged; it was kept aside" in played.stderr and len(played.stderr.splitlines()) == 1, played.stderr
    assert companion("check", "--db", str(path), home=tmp_path).returncode == 0


def test_play_says_a_repair_made_while_reading_the_game(closed: Corpus, tmp_path: Path) -> None:
    """A damaged move of the unfinished game is found when the game is read (after opening): said all the same."""
    path = fault_corpus.damaged(closed, None, tmp_path / "files")
    data = bytearray(path.read_bytes())
    at = data.rfind(b'"type": "roll"')  # a move row's action
    assert at > 0
    data[at + 2] ^= 0x01
    path.write_bytes(bytes(data))
    played = companion("play", "--resume", "--db", str(path), "--actions", "-", home=tmp_path, stdin="")
    assert "Traceback" not in played.stderr
    assert "damaged" in played.stderr, (played.returncode, played.stderr)


NO_SCREEN_ENV = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")


def test_run_without_a_screen_says_so_in_one_sentence_and_opens_nothing(tmp_path: Path) -> None:
    """Bad input gets "one clear sentence and loses nothing": `companion run` over SSH, with no DISPLAY, used to
    open its window on SDL's off-screen driver, silently, and seem to run with nothing on any screen."""
    env = {key: value for key, value in os.environ.items() if key not in NO_SCREEN_ENV and not key.startswith("KIVY")}
    env.update(COMPANION_HOME=str(tmp_path / "home"))
    done = subprocess.run(
        [sys.executable, "-m", "ui.cli", "run"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=DEADLINE
    )
    assert done.returncode == cli.EXIT_NO_SCREEN
    assert done.stderr == boot.NO_SCREEN + "\n" and done.stdout == ""
    assert boot.NO_SCREEN.count(". ") == 0 and boot.NO_SCREEN.endswith(".")  # one sentence
    assert not (tmp_path / "home").exists()  # no games file, no Kivy settings, no log: nothing was started


def test_the_display_emulator_without_a_screen_says_so_and_makes_no_port(tmp_path: Path) -> None:
    """The same for `companion display-emulator`: its window too would be drawn on no screen, and --headless is
    what the developer over SSH wants; with it, it runs as before (until its stdin ends)."""
    env = {key: value for key, value in os.environ.items() if key not in NO_SCREEN_ENV and not key.startswith("KIVY")}
    env.update(COMPANION_HOME=str(tmp_path / "home"))
    command = [sys.executable, "-m", "ui.cli", "display-emulator", "--identity", "emu-ssh"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=DEADLINE)
    assert done.returncode == cli.EXIT_NO_SCREEN
    assert done.stderr == boot.NO_SCREEN_FOR_EMULATOR + "\n" and done.stdout == ""
    assert boot.NO_SCREEN_FOR_EMULATOR.count(". ") == 0 and boot.NO_SCREEN_FOR_EMULATOR.endswith(".")
    assert not (tmp_path / "home").exists()  # no port, no key file: nothing was made

    headless = subprocess.run(
        [*command, "--headless"], cwd=ROOT, env=env, input="", capture_output=True, text=True, timeout=DEADLINE
    )
    assert headless.returncode == 0, headless.stderr
    assert headless.stdout.splitlines()[0].endswith("/emulated-displays/emu-ssh")  # its port, by its link


@pytest.mark.parametrize(
    ("environ", "appliance", "platform"),
    [
        ({"DISPLAY": ":0"}, False, "linux"),
        ({"WAYLAND_DISPLAY": "wayland-0"}, False, "linux"),
        ({"SDL_VIDEODRIVER": "offscreen"}, False, "linux"),  # off screen on purpose (a test, a benchmark)
        ({}, True, "linux"),  # the appliance draws on the console's screen itself (KMS/DRM)
        ({}, False, "darwin"),  # SDL finds the screen itself
    ],
)
def test_a_screen_to_draw_on_is_not_questioned(environ: dict[str, str], appliance: bool, platform: str) -> None:
    assert boot.screen_missing(environ, appliance=appliance, platform=platform) is None


def test_an_empty_display_is_no_screen() -> None:
    assert boot.screen_missing({"DISPLAY": ""}, appliance=False, platform="linux") == boot.NO_SCREEN
