"""The appliance's unit on a Pi: its open-file limit, and one sentence (not a loop of tracebacks) without a screen.

Issue 23: "The unit: an explicit `LimitNOFILE` sized for the phones' connection cap, and a sentence in the
journal (not a loop of tracebacks) if KMS/DRM cannot open a display."
"""

from __future__ import annotations

import configparser
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "tabletop-companion.service"
WAIT = ROOT / "systemd" / "wait-for-display.sh"
PHONE_CONNECTIONS = 64
"""The phones' cap on connections in all (issue 15's follow-up), each a socket."""


def service() -> configparser.SectionProxy:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNIT)
    return unit["Service"]


def test_the_unit_sets_its_open_file_limit_above_what_the_phones_cap_needs() -> None:
    """Issue 23: "The unit sets no LimitNOFILE: the app runs with the default of 1,024 open files"."""
    limit = service()["LimitNOFILE"]
    assert limit.isdigit(), "one number: soft and hard alike"
    assert int(limit) >= 4 * PHONE_CONNECTIONS + 1024


def test_the_unit_checks_for_a_screen_before_kivy_does_with_the_script_make_install_copies() -> None:
    assert service()["ExecStartPre"] == "@INSTALL_DIR@/systemd/wait-for-display.sh"
    assert os.access(WAIT, os.X_OK), "systemd runs it as it is"
    assert "systemd" in (ROOT / "Makefile").read_text(encoding="utf-8").split("cp -r ", 1)[1].split("\n", 1)[0]
    mode = subprocess.run(
        ["git", "ls-files", "-s", str(WAIT)], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()[0]
    assert mode == "100755", "executable in the repository too, so a clone's copy is"


def wait_for_display(sysfs: Path, dev: Path, seconds: int = 0) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DRM_SYSFS": str(sysfs), "DRM_DEV": str(dev), "DISPLAY_WAIT_SECONDS": str(seconds)}
    return subprocess.run([str(WAIT)], env=env, capture_output=True, text=True, timeout=30, check=False)


def connector(sysfs: Path, name: str, status: str) -> Path:
    """A stand-in /sys/class/drm/<name>/status."""
    (sysfs / name).mkdir(parents=True, exist_ok=True)
    (sysfs / name / "status").write_text(status + "\n", encoding="utf-8")
    return sysfs / name / "status"


@pytest.fixture
def drm(tmp_path: Path) -> tuple[Path, Path]:
    """Stand-ins for /sys/class/drm and /dev/dri, a Pi's card1 in it as a file open to this user."""
    sysfs, dev = tmp_path / "sys-class-drm", tmp_path / "dev-dri"
    sysfs.mkdir()
    dev.mkdir()
    (dev / "card1").write_bytes(b"")
    return sysfs, dev


def test_a_connected_screen_starts_the_app_at_once_and_says_nothing(drm: tuple[Path, Path]) -> None:
    sysfs, dev = drm
    connector(sysfs, "card1-HDMI-A-1", "disconnected")
    connector(sysfs, "card1-DSI-1", "connected")  # the official 7" touchscreen
    done = wait_for_display(sysfs, dev)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_no_drm_device_is_one_sentence_naming_the_overlay(drm: tuple[Path, Path]) -> None:
    """Issue 23: "a sentence in the journal (not a loop of tracebacks) if KMS/DRM cannot open a display"."""
    sysfs, dev = drm
    done = wait_for_display(sysfs, dev)
    assert done.returncode == 1
    assert done.stdout.count("\n") == 1 and "Traceback" not in done.stdout + done.stderr
    assert done.stdout.startswith("<4>No KMS/DRM display device"), "a warning in the journal (-p warning)"
    assert "dtoverlay=vc4-kms-v3d" in done.stdout


def test_a_screen_plugged_in_while_waiting_starts_the_app_after_one_sentence(drm: tuple[Path, Path]) -> None:
    sysfs, dev = drm
    status = connector(sysfs, "card1-HDMI-A-1", "disconnected")
    threading.Timer(1.5, lambda: status.write_text("connected\n", encoding="utf-8")).start()
    started = time.monotonic()
    done = wait_for_display(sysfs, dev, seconds=20)
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "<4>No screen is connected (every "
        f"{sysfs}/card*-*/status says otherwise): check the display's ribbon or HDMI cable. "
        "The app starts as soon as one is connected."
    ]
    assert time.monotonic() - started < 10
