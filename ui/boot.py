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

A start is quiet (issue 14): the app needs no clipboard, so Kivy's is the
in-process ``dummy`` one (``KIVY_CLIPBOARD`` set by the user wins) and Kivy
does not probe for ``xclip``/``xsel`` cut buffers (two tracebacks and a
CRITICAL line when neither is installed); and Kivy's config file is written
at its current version on the first start, instead of Kivy warning that it
upgrades a file that does not exist yet.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
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
CLIPBOARD = "dummy"
"""Kivy's clipboard provider: needs no program, no X and no SDL call; copy and paste still work inside the app."""
NO_CUTBUFFER = "Cutbuffer: Unable to find any valuable Cutbuffer provider"


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
    our_clipboard = "KIVY_CLIPBOARD" not in os.environ
    os.environ.setdefault("KIVY_CLIPBOARD", CLIPBOARD)

    first_start = _before_first_config(home)
    from kivy.config import Config

    if first_start:
        _write_first_config(Config, home)
    if our_clipboard:
        _no_cutbuffer()
    Config.set("kivy", "exit_on_escape", "0")
    _keep_kivy_logs(Config, home)
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "1")
    # maxfps stays Kivy's 60 and the clock Kivy's default, as in the bare app `make bench` compares with
    # (issue 14, measured): a bare Kivy app idling costs ~6.4 ms of CPU a second at 60 fps, ~6.1 at 30,
    # ~4.9 at 20, while SDL's input is polled once per frame, so 20 fps would save ~1.5 ms a second and
    # add up to 50 ms before a tap is seen. A game screen's tick costs ~11 ms under software GL
    # (the still layer, ui/widgets/layer.py), the bare app's changed label ~6 ms.
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


def _before_first_config(home: Path) -> bool:
    """Whether this start makes Kivy's config file; if so, Kivy is told not to write it itself.

    With no file, Kivy upgrades its defaults "from version 0", warns "Older
    configuration version detected (0 instead of 27)" and writes the file.
    Told there is no config (``KIVY_NO_CONFIG``), it fills in the same
    defaults silently; `_write_first_config` then writes them. A user's own
    ``KIVY_NO_CONFIG`` or ``KIVY_USE_DEFAULTCONFIG`` is left to Kivy.
    """
    if "kivy" in sys.modules or (home / "config.ini").exists():
        return False  # Kivy has read its config already, or will read ours
    if {"KIVY_NO_CONFIG", "KIVY_USE_DEFAULTCONFIG"} & os.environ.keys():
        return False
    os.environ["KIVY_NO_CONFIG"] = "1"
    return True


def _write_first_config(config: Any, home: Path) -> None:
    """Kivy's config file with Kivy's defaults at Kivy's current version, before any setting of ours.

    Written before `prepare` changes anything, so that the file holds what
    Kivy would have written: the appliance's settings are made at every start
    and never kept (a later desktop start would open full screen otherwise).
    """
    del os.environ["KIVY_NO_CONFIG"]  # only this import: Kivy's own later reads are ordinary
    # Kivy made these folders itself when it had a config to keep.
    (home / "mods").mkdir(exist_ok=True)
    config.filename = str(home / "config.ini")
    config.write()


def _no_cutbuffer() -> None:
    """Kivy's clipboard without the X cut buffer (middle-click paste), which the app does not use.

    On Linux, Kivy looks for a cut buffer (``xclip``, then ``xsel``, each a
    program run once) whatever the clipboard is, and logs CRITICAL with two
    tracebacks when neither is installed. Kivy reads the providers it may try
    from ``kivy.kivy_options``, per kind: none for the cut buffer, and its
    "none found" line (the whole of the search now) is left out of the log.
    """
    import kivy
    from kivy.logger import Logger

    kivy.kivy_options["cutbuffer"] = ()
    with _dropped(Logger, NO_CUTBUFFER):
        import kivy.core.clipboard  # loaded now, under the filter; a TextInput uses it later


@contextmanager
def _dropped(logger: logging.Logger, start: str) -> Iterator[None]:
    """Leave out of `logger` the lines that start with `start`, in the block."""

    def keep(record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(start)

    logger.addFilter(keep)
    try:
        yield
    finally:
        logger.removeFilter(keep)
