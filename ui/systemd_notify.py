"""Tell systemd we are up and still alive (``Type=notify``, ``WatchdogSec=``).

A few lines over the notify socket rather than a dependency. The watchdog is
fed from Kivy's main loop, so a hung UI (not only a dead process) stops the
feeding and systemd restarts the app.
"""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send `message` (e.g. ``READY=1``) to systemd; False when not under systemd."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # abstract socket namespace
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(address)
            sock.sendall(message.encode())
        except OSError:
            return False
    return True


def watchdog_interval() -> float | None:
    """Half the watchdog period systemd asked for, in seconds; None if none was asked."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and int(pid) != os.getpid()):
        return None
    return int(usec) / 2_000_000
