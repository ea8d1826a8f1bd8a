"""Shared test set-up: every test run keeps its files (Kivy's too) in a temporary home."""

from __future__ import annotations

import os
import shutil
import tempfile

# Before anything imports companion.paths or kivy: never touch the real home. Each test process
# (every xdist worker too) gets a home of its own: two Kivys creating one config folder at once race.
os.environ["COMPANION_HOME"] = HOME = tempfile.mkdtemp(prefix="companion-test-")
os.environ.setdefault("KIVY_NO_ARGS", "1")


def pytest_unconfigure() -> None:
    # The process's temporary home goes with it (an xdist worker ends without Python's exit handlers).
    shutil.rmtree(HOME, ignore_errors=True)

