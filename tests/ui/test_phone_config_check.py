"""Issue 24: "`interface = "::"` passes `companion config --check` without a word about binding every IPv6
address." Now: "`config --check` names what `interface = "::"` or `"0.0.0.0"` exposes"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from companion.config import exposure

ROOT = Path(__file__).resolve().parents[2]


def check(home: Path, phones: str) -> subprocess.CompletedProcess[str]:
    path = home / "config" / "companion.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[phones]\n{phones}\n")
    env = {**os.environ, "COMPANION_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", "config", "--check"], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_the_check_names_what_every_address_exposes(tmp_path: Path) -> None:
    done = check(tmp_path, 'enabled = true\ninterface = "::"')
    assert done.returncode == 0, done.stdout
    assert 'phones.interface = "::" listens on every IPv6 address of every network' in done.stdout
    assert "anyone on any of them reaches the phone server" in done.stdout
    assert 'phones.interface = "0.0.0.0" listens on every IPv4 address of every network' in str(exposure("0.0.0.0"))


def test_one_address_is_not_named() -> None:
    assert exposure("192.168.1.20") is None and exposure("127.0.0.1") is None and exposure("localhost") is None
    assert exposure("::1") is None and exposure("wlan0") is None
