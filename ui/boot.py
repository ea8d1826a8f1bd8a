"""Prepare Kivy's environment before the first ``import kivy``.

Kivy reads its home directory, command-line handling, logging and input
providers at import time, so this runs first: Kivy's config and logs go to our
own directory, and on the appliance only one input provider sees the
touchscreen (otherwise a Pi often reports every tap twice: once as a mouse,
once as touch).

Kivy's file log is on (``kivy/logs/`` in our config directory, a new file per
start, the newest `KIVY_LOG_FILES` kept) unless the user sets
``KIVY_NO_FILELOG``: Kivy turns it off when that variable exists at all,
whatever its value. Kivy's log mode is ``MIXED``: Kivy's lines go to Kivy's
file and console, ours to the handlers `ui.logs` adds, and neither twice.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from companion import paths

# Our input setup for the official Pi touchscreen under SDL2 on KMS/DRM: SDL
# delivers the touches itself as finger events, so SDL must not also turn
# them into mouse clicks, and Kivy's sysfs probe (which would add a second,
# hidinput provider for the same panel) is off. A USB mouse still works.
APPLIANCE_INPUT = ("%(name)s",)
SDL_NO_TOUCH_MOUSE = {"SDL_TOUCH_MOUSE_EVENTS": "0", "SDL_MOUSE_TOUCH_EVENTS": "0"}
KIVY_LOG_FILES = 20
"""Kivy's log files kept (one per start): a crash loop under systemd keeps the newest 20 starts."""


def prepare(*, appliance: bool = False, width: int = 800, height: int = 480) -> None:
    """Set Kivy's environment; call before importing anything from kivy."""
    home = paths.kivy_home()
    home.mkdir(parents=True, exist_ok=True)
    os.environ["KIVY_HOME"] = str(home)
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    # In-process tests leave logging to pytest; the app keeps Kivy's logger and ours apart (see above).
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON" if os.environ.get("PYTEST_CURRENT_TEST") else "MIXED")
    if appliance:
        os.environ.update(SDL_NO_TOUCH_MOUSE)
        os.environ.setdefault("KIVY_WINDOW", "sdl2")
        os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")

    from kivy.config import Config

    Config.set("kivy", "exit_on_escape", "0")
    _keep_kivy_logs(Config, home)
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "1")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")  # no red dots on right-click
    if appliance:
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
        Config.set("kivy", "keyboard_mode", "systemanddock")
        for option in APPLIANCE_INPUT:
            if Config.has_option("input", option):
                Config.remove_option("input", option)


def _keep_kivy_logs(config: Any, home: Path) -> None:
    """Kivy's log files in `home`/logs, the newest `KIVY_LOG_FILES` kept.

    Kivy opened its file and purged old ones while it was imported, with the
    values in its config.ini; changing ``log_dir`` now would open a second
    file, so it is set only if it points elsewhere, and the purge runs again
    with our limit.
    """
    logs = home / "logs"
    if home / config.get("kivy", "log_dir") != logs:  # Kivy reads a relative log_dir from its home: ours
        config.set("kivy", "log_dir", str(logs))
    config.set("kivy", "log_maxfiles", str(KIVY_LOG_FILES))
    from kivy.logger import file_log_handler

    if file_log_handler is not None:
        file_log_handler.purge_logs()
