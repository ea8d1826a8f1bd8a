"""A writer process killed as a pulled plug would kill it, after it said which moves were saved."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def acknowledged_then_killed(script: str, path: Path, count: int) -> list[dict[str, Any]]:
    """Run `script` (``python -c``) on the games file `path`; once it says "ready", read `count` lines of JSON,
    one per move it was told was saved, then SIGKILL it: no exit handler, no close. Returns those lines."""
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(path)], cwd=ROOT, text=True, stdout=subprocess.PIPE, env=os.environ.copy()
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    acknowledged = [json.loads(child.stdout.readline()) for _ in range(count)]
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    child.stdout.close()
    return acknowledged
