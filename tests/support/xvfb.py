"""One way to get a virtual X screen, for the UI tests and the benchmarks alike."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator

SCREEN = "1920x1200x24"
"""The virtual screen: larger than the largest window the tests use (1280x800), with room to spare, since a
window keeps the place it was centred at for 800x480 when it grows: on a 1280x800 screen, at (240, 160), the
screen's edge cut through a 1280x800 window."""


class XvfbMissing(RuntimeError):
    """Xvfb is not installed."""


@contextlib.contextmanager
def xvfb_display(*, reuse: bool = True) -> Iterator[str]:
    """A virtual X screen for the block, named in ``os.environ["DISPLAY"]``; yields its name (``:N``).

    With `reuse`, a DISPLAY already set is used as it is. Otherwise a fresh
    Xvfb is started (it picks a free display number and tells it back on a
    pipe), and stopped, and DISPLAY put back as it was, when the block ends.
    """
    if reuse and os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    if not shutil.which("Xvfb"):
        raise XvfbMissing("Xvfb is not installed: `make test` installs it (Debian package xvfb).")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", SCREEN, "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    before = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = f":{number}"
    try:
        yield os.environ["DISPLAY"]
    finally:
        if before is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = before
        server.terminate()
        server.wait(timeout=10)
