"""A quiet start: `companion run` prints no traceback and no warning about Kivy's config in the terminal.

Issue 14: "No traceback or configuration warning in the terminal on a normal
start. Pick a clipboard provider that needs nothing extra (the app needs no
clipboard), and write Kivy's config at its current version."

The app runs as it does from a terminal, in a process of its own (Kivy sets
up its logging and reads its config once per process, when it is imported),
with a fresh home: the first start, which makes Kivy's config, and a second
start, which reads it. It tells systemd's socket (ours here) READY once its
first screen is up; then it is stopped as systemd stops it.
"""

from __future__ import annotations

import configparser
import importlib.util
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 60.0  # seconds for anything to happen: a slow machine, never a measurement
NOISE = ("Traceback", "CRITICAL", "Older configuration version", "Upgrading configuration")


def kivy_config_version() -> int:
    """The config version this Kivy writes, read from its source (importing Kivy here would make a ~/.kivy)."""
    spec = importlib.util.find_spec("kivy")
    assert spec is not None and spec.origin is not None
    source = (Path(spec.origin).parent / "config.py").read_text()
    found = re.search(r"^KIVY_CONFIG_VERSION = (\d+)$", source, re.MULTILINE)
    assert found is not None
    return int(found.group(1))


def start_and_stop(home: Path, display: str, socket_dir: Path) -> str:
    """`companion run` with `home`, up to its first screen and stopped; everything it printed."""
    address = str(socket_dir / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(address)
        listener.settimeout(DEADLINE)
        # As from a terminal: none of Kivy's settings, none of pytest's (the app logs differently under pytest).
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "WATCHDOG_"))}
        env.pop("PYTEST_CURRENT_TEST", None)
        env.update({"COMPANION_HOME": str(home), "DISPLAY": display, "NOTIFY_SOCKET": address})
        app = subprocess.Popen(
            [sys.executable, "-m", "ui.cli", "run"], cwd=ROOT, env=env, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            ready = listener.recv(256).decode()
        finally:
            app.terminate()  # SDL turns SIGTERM into a window close, as systemd's stop does
            printed, _ = app.communicate(timeout=DEADLINE)
    os.unlink(address)
    assert ready == "READY=1", printed
    assert "Start application main loop" in printed, printed  # Kivy's console log is on: silence is not proof
    return printed


def test_a_first_and_a_second_start_print_no_traceback_and_no_config_warning(xvfb: str, tmp_path: Path) -> None:
    """Issue 14: "No traceback or configuration warning in the terminal on a normal start" — neither on the
    first start (no Kivy config yet) nor on the next one."""
    home = tmp_path / "home"
    for start in ("first", "second"):
        printed = start_and_stop(home, xvfb, tmp_path)
        for noise in NOISE:
            assert noise not in printed, f"{start} start printed {noise!r}:\n{printed}"

    # Kivy's config was written at its current version, in our directory.
    config = configparser.ConfigParser()
    config.read(home / "config" / "kivy" / "config.ini")
    assert config.getint("kivy", "config_version") == kivy_config_version()
    # Written with Kivy's defaults, not one start's own settings (the appliance's full screen is never kept).
    assert config.get("graphics", "fullscreen") == "0"


def test_a_users_own_clipboard_choice_is_kept(tmp_path: Path) -> None:
    """Issue 14 asks for "a clipboard provider that needs nothing extra"; a user's own ``KIVY_CLIPBOARD`` wins."""
    probe = (
        "import os\n"
        "from ui import boot\n"
        "boot.prepare()\n"
        "from kivy.core.clipboard import Clipboard\n"
        "print(os.environ['KIVY_CLIPBOARD'], type(Clipboard).__name__)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIVY_") and k != "PYTEST_CURRENT_TEST"}
    env.update({"COMPANION_HOME": str(tmp_path / "home"), "KIVY_NO_CONSOLELOG": "1"})
    ours = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True)
    assert ours.stdout.split() == ["dummy", "ClipboardDummy"], ours.stderr
    theirs = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env={**env, "KIVY_CLIPBOARD": "sdl2,dummy"},
        capture_output=True, text=True,
    )  # fmt: skip
    assert theirs.stdout.split() == ["sdl2,dummy", "ClipboardSDL2"], theirs.stderr
