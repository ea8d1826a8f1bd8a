"""The appliance: `companion run` tells systemd READY once the first screen is up, then feeds the watchdog."""

from __future__ import annotations

import configparser
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "tabletop-companion.service"


def test_run_reports_ready_then_feeds_the_watchdog(xvfb, tmp_path):
    address = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(60)
    env = {
        **os.environ,
        "DISPLAY": xvfb,
        "NOTIFY_SOCKET": address,
        "WATCHDOG_USEC": "1000000",  # 1 s: fed every 0.5 s
        "COMPANION_HOME": str(tmp_path / "home"),
        "KIVY_NO_CONSOLELOG": "1",
    }
    env.pop("WATCHDOG_PID", None)
    app = subprocess.Popen([sys.executable, "-m", "ui.cli", "run"], cwd=ROOT, env=env, stderr=subprocess.PIPE)
    try:
        messages = []
        deadline = time.monotonic() + 60
        while messages.count("WATCHDOG=1") < 2 and time.monotonic() < deadline:
            messages.append(listener.recv(256).decode())
        assert messages[0] == "READY=1", messages
        assert messages.count("WATCHDOG=1") >= 2
        assert app.poll() is None, "the app should still be running"
    finally:
        app.terminate()
        app.wait(timeout=20)
        listener.close()
    # Kivy's own files went to our directory, not the user's home
    assert (tmp_path / "home" / "config" / "kivy" / "config.ini").exists()


def test_the_unit_restarts_forever_and_runs_as_a_member_of_the_device_groups():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNIT)
    service = unit["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "always"
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "dialout", "video", "input", "render"}
    assert service["User"] != "root"
    assert service["UMask"] == "0077", "games (Quin's hidden identities), backups and logs for the owner only"
    assert "--appliance" in service["ExecStart"]
    assert service["Environment"]  # SDL on KMS/DRM, our own data and config directories


def test_on_the_appliance_one_tap_is_one_touch_and_every_finger_its_own(tmp_path):
    """SDL must not turn touches into mouse clicks too; the panel's touches come through Kivy's mtdev provider,
    one touch per finger (issue 27: the finger chooser's "Kivy's multi-touch (mtdev/hidinput on the Pi)"), since
    Kivy 2.3's SDL2 window drops SDL's own finger events on Linux; the mouse makes no red dots of its own."""
    probe = (
        "from ui import boot; boot.prepare(appliance=True)\n"
        "import json, os; from kivy.config import Config\n"
        "inputs = dict(Config.items('input'))\n"
        "print(json.dumps([inputs, os.environ['SDL_TOUCH_MOUSE_EVENTS'], os.environ['KIVY_HOME']]))\n"
    )
    env = {**os.environ, "COMPANION_HOME": str(tmp_path), "KIVY_NO_CONSOLELOG": "1"}
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    options, sdl_mouse, kivy_home = json.loads(done.stdout.strip().splitlines()[-1])
    assert options["%(name)s"] == "probesysfs,provider=mtdev", "the panel's fingers, each a touch of its own"
    mouse = options["mouse"].split(",")
    assert mouse[0] == "mouse", "a USB mouse still works"
    assert "multitouch_on_demand" in mouse, "no red dots unless a widget asks for them"
    assert "disable_on_activity" in mouse, "a touch on the panel is never a mouse click too"
    assert sorted(options) == ["%(name)s", "mouse"], "no third provider"
    assert sdl_mouse == "0"
    assert kivy_home.startswith(str(tmp_path)), "Kivy's config and logs stay in our own directory"
