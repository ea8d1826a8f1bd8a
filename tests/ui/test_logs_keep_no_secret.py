"""The logs are kept, and hold no secret: a whole Quin evening with two player displays, then every log read.

DESIGN.md, "Secrets": "Headless output, logs and files follow the same rule:
nothing unrevealed leaves except to its owner." Issue 13: "Kivy's file log on,
in the app's own directory, rotated. The app's own log (the pairing events,
the damage sentences, the race results) goes to the journal on the Pi and a
file elsewhere."

The app runs as `companion run --simulated` does, in a process of its own:
Kivy sets up its logging once per process, when it is imported, and the
in-process UI tests run it in pytest's log mode, so only a fresh process has
the logs a table gets. The test drives it through a small remote control on
its stdin (expressions run on its UI thread); the two player displays are
emulated here, on real pseudo-terminals, in the folder the app scans.
"""

from __future__ import annotations

import json
import os
import queue
import re
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.games.quin.display import SHORT_KINDS
from companion.games.quin.pieces import KINDS, LIGHT
from hardware.display.emulator import DisplayCore, PtyDisplay

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 60.0  # seconds for anything to happen: a slow machine, never a measurement

# The app, started the way `companion run --simulated` starts it, with a remote control: each line on
# stdin is an expression run on Kivy's UI thread (where the app's own work runs); the answer comes back
# as one JSON line on stdout, marked, so that nothing else printed there can be taken for one.
APP = r"""
import json, sys, threading
from companion.game import Options
from ui import cli

def serve(app):
    from kivy.clock import Clock
    for line in sys.stdin:
        expression = json.loads(line)
        answer, done = {}, threading.Event()
        def run(_dt, expression=expression, answer=answer, done=done):
            try:
                answer["value"] = eval(expression, {"app": app, "Options": Options})
            except Exception as error:  # the test learns only the kind: the message may name a secret
                answer["error"] = type(error).__name__
            done.set()
        Clock.schedule_once(run, 0)
        done.wait()
        sys.stdout.write("@@" + json.dumps(answer, default=repr) + "\n")
        sys.stdout.flush()

def first_frame():
    from kivy.app import App
    threading.Thread(target=serve, args=(App.get_running_app(),), daemon=True).start()

run = cli.run
cli.run = lambda args: run(args, on_first_frame=first_frame)
sys.exit(cli.main(["run", "--simulated", "--seed", "1"]))
"""


class RemoteApp:
    """The app in its own process: `ask` runs an expression on its UI thread; `stderr` is its journal."""

    def __init__(self, home: Path, display: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("KIVY_") and k != "PYTEST_CURRENT_TEST"}
        # As under systemd: our home, our screen, and no setting of Kivy's logging but the app's own.
        env.update({"COMPANION_HOME": str(home), "DISPLAY": display, "PYTHONUNBUFFERED": "1"})
        self.process = subprocess.Popen(
            [sys.executable, "-c", APP], cwd=ROOT, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        self.answers: queue.Queue[str | None] = queue.Queue()
        self.err: list[str] = []
        self._readers = [
            threading.Thread(target=self._answers, daemon=True),
            threading.Thread(target=self._stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _answers(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("@@"):
                self.answers.put(line[2:])
        self.answers.put(None)

    def _stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.err.append(line)

    def ask(self, expression: str) -> Any:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(expression) + "\n")
        self.process.stdin.flush()
        try:
            line = self.answers.get(timeout=DEADLINE)
        except queue.Empty:
            pytest.fail(f"the app did not answer {expression!r}:\n{self.stderr}")
        assert line is not None, f"the app ended while asked {expression!r}:\n{self.stderr}"
        answer = json.loads(line)
        assert "error" not in answer, f"{expression!r} failed in the app: {answer['error']}"
        return answer["value"]

    def wait(self, expression: str) -> Any:
        """Ask until the answer is true (the app's work on its own threads takes a moment)."""
        for _ in range(600):
            value = self.ask(expression)
            if value:
                return value
            threading.Event().wait(0.1)
        pytest.fail(f"never true in the app: {expression}")

    def stop(self) -> int:
        """Leave the app as a tap on Quit would (`App.stop`); its exit status."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps("app.stop()") + "\n")
        self.process.stdin.close()
        code = self.process.wait(timeout=DEADLINE)
        for reader in self._readers:
            reader.join(timeout=DEADLINE)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    @property
    def stderr(self) -> str:
        return "".join(self.err)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def app(xvfb: str, home: Path) -> Iterator[RemoteApp]:
    remote = RemoteApp(home, xvfb)
    try:
        yield remote
    finally:
        remote.kill()


@dataclass(frozen=True)
class Seat:
    name: str
    display: PtyDisplay

    @property
    def core(self) -> DisplayCore:
        return self.display.core

    def press(self, *keys: str) -> None:
        for key in keys:
            self.display.press(key)

    def sees(self, text: str) -> bool:
        return self.core.wait_for_text(text, DEADLINE)


# -- what counts as naming a hidden identity --------------------------------------------------------------------

# Every way a kind is written: whole, plural, the short form a narrow display uses ("Reflect."), or as a
# field name in JSON ('"reflector": "5"'). Capitalised as the game writes it: "3 times" is not a Time.
_FORMS = {
    kind: [re.escape(kind), re.escape(f'"{kind.lower()}"')]
    + ([re.escape(SHORT_KINDS[kind])] if kind in SHORT_KINDS else [])
    for kind in KINDS
}


def _kind(kind: str) -> str:
    # Not inside another word ("Timeout", "Lighting"); "Light" is not the end of "Artificial Light" or "Art.Light".
    not_artificial = r"(?<!Artificial )" if kind == LIGHT else ""
    return rf"{not_artificial}(?<![\w.])(?:{'|'.join(_FORMS[kind])})s?(?!\w)"


def _label(label: str) -> str:
    # A label on its own: not part of a time (18:02:07,331), a port (/dev/pts/3), a size (21x8) or a bigger number.
    return rf"(?<![\w./:,-]){re.escape(label)}(?![\w/:-])(?!\.\d)"


def naming(label: str, kind: str) -> re.Pattern[str]:
    """A piece's label and its identity at most two words apart (or a list of labels), either order, one line.

    That is how every way of telling it reads: "Ann's 3 (Shadow)", "3 Shadow", a view dumped as JSON
    ('"3": {"identity": "Shadow"'), a refusal ("2 Shadows, already labelled 2 and 3"). A line that
    only mentions a kind ("the race lights", "Light takes Light" in a rule) or a label ("display on
    /dev/pts/3") is not a leak, so the check does not fail on words that merely look alike.
    """
    near = r"(?:\W+\w+){0,2}?\W+"
    more = r"(?:,\s*|\s+and\s+|\s+or\s+)"  # a list of labels counts as one: "labelled 2, 7 and 3"
    before, after = rf"(?:\d+{more})*{_label(label)}", rf"{_label(label)}(?:{more}\d+)*"
    return re.compile(rf"{after}{near}{_kind(kind)}|{_kind(kind)}{near}{before}")


def test_the_pattern_finds_every_way_of_telling_a_label_and_its_identity() -> None:
    """The check itself: strict on every way the app has of writing a piece, blind to look-alikes."""
    shadow3, light1, reflector5 = naming("3", "Shadow"), naming("1", "Light"), naming("5", "Reflector")
    for leak in ("Ann's 3 (Shadow)", "  3 Shadow   board", '{"3": {"identity": "Shadow"}}', "Shadow: 3",
                 "You have 2 Shadows, already labelled 2 and 3.", "label=3 kind=Shadow", "3 and 7 are Shadows",
                 "Shadows at 12, 3 or 7"):
        assert shadow3.search(leak), leak
    assert light1.search("1 Light") and reflector5.search("5 Reflect.") and reflector5.search('"reflector": "5"')
    for harmless in ("2026-11-23 18:03:07,331 INFO hardware.display.hub: display emu-3 (21x8) on /dev/pts/3",
                     "Shadows swap", "Bo's 13 is a Shadow", "3 Shadowing", "race: 3 2 1 GO (Shadow play)",
                     "said HELLO again (3 times since last noted)"):
        assert not shadow3.search(harmless), harmless
    assert not light1.search("1 Artificial Light") and not light1.search("1 Art.Light")
    assert not light1.search("the Light of 21x8 at 18:01:02")
    assert not naming("3", "Time").search("display emu-ann said HELLO again (3 times since last noted)")


# -- the evening ----------------------------------------------------------------------------------------------


def test_a_quin_game_with_two_displays_leaves_logs_that_are_kept_and_name_no_hidden_identity(
    app: RemoteApp, home: Path
) -> None:
    """Issue 13: "A test plays a Quin game with two displays and greps every log file and the journal output
    for each hidden identity of every unrevealed piece"; DESIGN.md: pairing binds a shared random key, which
    stays in the 0600 pairing file; README: the logs are kept, 0600, rotated."""
    ports = home / "data" / "emulated-displays"  # where the simulated table looks (`companion display-emulator`)
    ann = Seat("Ann", PtyDisplay(DisplayCore("emu-ann", 21, 8), link=ports / "emu-ann"))
    bo = Seat("Bo", PtyDisplay(DisplayCore("emu-bo", 20, 4), link=ports / "emu-bo"))
    refusal: list[str] = []
    with ann.display, bo.display:
        # Pairing: the code each display shows is typed in for its player, as on the touchscreen.
        app.wait("app.table.displays is not None")
        for seat in (ann, bo):
            assert seat.core.wait_for(lambda core: core.pair_code is not None, DEADLINE), seat.core.screen()
            assert app.ask(f"app.table.displays.pair({seat.core.pair_code!r}, {seat.name!r})") is True
        app.ask("app.start_game('quin', Options.for_names('Ann', 'Bo')) and None")
        # Each display shows its own setup once it has proved it holds its pairing's key.
        assert ann.sees("Setup 0/17") and bo.sees("Setup 0/17"), (ann.core.screen(), bo.core.screen())

        # Ann first makes a choice the rules refuse (on her display only), then takes every suggestion.
        ann.press("down", "ok", "ok", "ok")  # label 1 before any Clone
        assert ann.core.wait_for(lambda core: "Refused" in core.screen()[0], DEADLINE), ann.core.screen()
        refusal.append(" ".join(ann.core.screen()[1:3]))
        ann.press("ok", "back", "back", "up")  # back to the choice, then up to the Clone
        assert ann.core.wait_for(lambda core: core.screen()[1] == ">Clone: choose", DEADLINE), ann.core.screen()
        ann.press(*["ok"] * 55)  # the Clone in 3, each of the 17 labels in 3, Finish in 1
        assert ann.sees("Ready: waiting for"), ann.core.screen()
        bo.press(*["ok"] * 55)
        assert app.wait("app.session.state.phase == 'play'")
        assert ann.sees("Your turn"), ann.core.screen()

        # Some flashes, none at a Light (that would end the evening), the last one sent by Ann's Reflector
        # (which stays hidden): each shows the two pieces that met to everyone.
        for player, reflected in (("Ann", False), ("Bo", False), ("Ann", True)):
            flashes = app.ask(
                f"[(a.attacker, a.defender, a.reflector) for a in app.session.legal_actions({player!r}) "
                "if type(a).type == 'flash' and "
                f"app.session.state.piece(app.session.state.rival({player!r}), a.defender).identity != 'Light']"
            )
            attacker, defender, reflector = next(f for f in flashes if (f[2] is not None) == reflected)
            flash = {"type": "flash", "player": player, "attacker": attacker, "defender": defender}
            moves = app.ask("len(app.session.moves)")
            app.ask(f"app.session.act({flash | ({'reflector': reflector} if reflector else {})!r}) and None")
            assert app.ask("len(app.session.moves)") == moves + 1
        pieces = app.ask("[(p.owner, p.label, p.identity, p.revealed) for p in app.session.state.pieces]")
        pairing_keys = [entry["key"] for entry in json.loads((home / "data" / "displays.json").read_text())
                        ["displays"].values()]
        assert app.stop() == 0, app.stderr

    hidden = [(owner, label, kind) for owner, label, kind, revealed in pieces if not revealed]
    revealed = [piece for piece in pieces if piece[3]]
    assert len(revealed) >= 4 and len(hidden) == 34 - len(revealed), pieces

    # The logs are kept: Kivy's (a new file each start, in our config directory) and ours (in the data
    # directory), for the owner only, and not empty.
    kivy_logs = sorted((home / "config" / "kivy" / "logs").glob("kivy_*.txt"))
    ours = home / "data" / "logs" / "companion.log"
    assert len(kivy_logs) == 1 and ours.exists()
    logs = sorted(path for path in home.rglob("*") if path.is_file() and "logs" in path.relative_to(home).parts)
    assert logs == sorted([*kivy_logs, ours])
    for path in logs:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        assert path.stat().st_size > 0, path
    kivy_text, our_text, journal = kivy_logs[0].read_text(), ours.read_text(), app.stderr
    assert "Kivy: v" in kivy_text and "[INFO   ]" in kivy_text  # Kivy's own file log is on

    # Ours tells the pairing events, by player and device, once each, in the file and in the journal;
    # Kivy's logger and ours each print a line once, never both.
    for text in (our_text, journal):
        for seat in (ann, bo):
            identity = seat.core.identity
            assert text.count(f"display {identity} paired with {seat.name}") == 1, text
            assert re.search(rf"display {identity} on \S+ proved it is {seat.name}'s", text), text
    assert journal.count("Tabletop Companion starting") == 1, journal
    assert len(re.findall(r"\[Kivy\s*\] v\d", journal)) == 1, journal  # Kivy's console: "[Kivy    ] v2.3.1"
    assert "paired with" not in kivy_text

    # ... and nothing that is still secret: no unrevealed piece's identity by its label, no pairing key,
    # no refusal a player's display showed, in any log file or in the journal.
    texts = {**{str(path): path.read_text() for path in logs}, "the journal (stderr)": journal}
    for where, text in texts.items():
        for line in text.splitlines():
            for owner, label, kind in hidden:
                assert not naming(label, kind).search(line), f"{owner}'s hidden {label} in {where}: {line}"
        for key in pairing_keys:
            assert key.lower() not in text.lower(), f"a pairing key in {where}"
        assert refusal[0] not in text, f"the refusal shown on Ann's display is in {where}"
