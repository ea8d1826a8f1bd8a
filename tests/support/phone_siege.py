"""The phone server in a process of its own at the Pi's default limit of 1,024 open files, for the siege test.

Run as ``python -m tests.support.phone_siege HEADER_TIMEOUT``. It prints one
JSON line ``{"url": ...}`` (Ann's seat) and then answers commands on stdin,
one JSON line each:
- ``report``: the UI thread's worst frame since the last report (seconds),
  the connections open, this process's open files, the log lines written,
  the refusals and errors counted;
- ``fill``: open files until none is left (as a flood would leave the app),
  ``free``: close them again;
- ``quit``.
The UI thread is a stand-in ticking 60 times a second and running the
server's `render` and `act`, as Kivy's clock does in the app.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import resource
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

FILES = 1024


class Frames:
    """A UI thread: 60 frames a second, each running the work handed to it; `worst` is its longest frame."""

    def __init__(self) -> None:
        self._work: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self.worst = 0.0
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def __call__(self, fn: Callable[[], None]) -> None:
        self._work.put(fn)

    def _run(self) -> None:
        last = time.perf_counter()
        while True:
            while not self._work.empty():
                self._work.get()()
            time.sleep(1 / 60)
            now = time.perf_counter()
            self.worst = max(self.worst, now - last)
            last = now


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def page(player: str) -> dict[str, Any]:
    return {"title": f"{player} · Game", "status": "", "notice": "", "sections": [], "choices": []}


def main() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, hard))
    lines = Lines()
    logging.getLogger().addHandler(lines)
    logging.getLogger().setLevel(logging.INFO)
    from hardware.phones.server import Connections, PhoneServer

    frames = Frames()
    server = PhoneServer(
        host="127.0.0.1",
        port=0,
        render=page,
        act=lambda player, action: None,
        call_soon=frames,
        connections=Connections(header_timeout=float(sys.argv[1])),
    )
    server.new_game(["Ann", "Bo"])
    server.start()
    print(json.dumps({"url": server.url_for("Ann")}), flush=True)
    held: list[Any] = []
    for line in sys.stdin:
        command = line.strip()
        if command == "report":
            said = {
                "frame": frames.worst,
                "open": server.open_connections,
                "files": len(os.listdir("/proc/self/fd")),
                "lines": lines.count,
                "counted": server.tally.totals,
            }
            frames.worst = 0.0
            print(json.dumps(said), flush=True)
        elif command == "fill":
            try:
                while True:
                    held.append(open(os.devnull, "rb"))  # noqa: SIM115 - held open on purpose
            except OSError:
                pass
            print(json.dumps({"held": len(held)}), flush=True)
        elif command == "free":
            for file in held:
                file.close()
            held.clear()
            print(json.dumps({"held": 0}), flush=True)
        elif command == "quit":
            break
    server.close()


if __name__ == "__main__":
    main()
