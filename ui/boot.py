"""Prepare Kivy's environment before the first ``import kivy``.

Kivy reads its home directory, command-line handling and input providers at
import time, so this runs first: Kivy's config and logs go to our own
directory, and on the appliance only one input provider sees the touchscreen
(otherwise a Pi often reports every tap twice: once as a mouse, once as touch).
"""

from __future__ import annotations

import os
from pathlib import Path

from companion import paths

# Our input setup for the official Pi touchscreen under SDL2 on KMS/DRM: SDL
# delivers the touches itself as finger events, so SDL must not also turn
# them into mouse clicks, and Kivy's sysfs probe (which would add a second,
# hidinput provider for the same panel) is off. A USB mouse still works.
APPLIANCE_INPUT = ("%(name)s",)
SDL_NO_TOUCH_MOUSE = {"SDL_TOUCH_MOUSE_EVENTS": "0", "SDL_MOUSE_TOUCH_EVENTS": "0"}


def prepare(*, appliance: bool = False, width: int = 800, height: int = 480) -> None:
    """Set Kivy's environment; call before importing anything from kivy."""
    home = paths.kivy_home()
    home.mkdir(parents=True, exist_ok=True)
    os.environ["KIVY_HOME"] = str(home)
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "0")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON" if os.environ.get("PYTEST_CURRENT_TEST") else "KIVY")
    if appliance:
        os.environ.update(SDL_NO_TOUCH_MOUSE)
        os.environ.setdefault("KIVY_WINDOW", "sdl2")
        os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")

    from kivy.config import Config

    Config.set("kivy", "exit_on_escape", "0")
    Config.set("kivy", "log_dir", str(Path(home) / "logs"))
    Config.set("kivy", "log_maxfiles", "20")
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
