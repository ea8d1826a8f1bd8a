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

A start never fails on the card (issue 22): Kivy's folder that cannot be made
(a read-only or full card, a file in its place) means Kivy's defaults and no
settings file; a settings file that is not Kivy's is left as it is and not
read; Kivy's file log that cannot be written stops with one line on standard
error and the console log goes on. Each is a `Trouble`, and `sentence` makes
the one sentence the home screen shows for them all.
"""

from __future__ import annotations

import configparser
import contextlib
import importlib.machinery
import io
import logging
import os
import shutil
import stat
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from companion import app_files, paths

# Our input setup for the official Pi touchscreen under SDL2 on KMS/DRM. Kivy 2.3's SDL2 window drops SDL's
# finger events on Linux (it passes them on only on Android and iOS: kivy/kivy#2818), so the panel's touches
# come through Kivy's own provider: the sysfs probe opens each multi-touch device with mtdev (libmtdev1, which
# `make setup` installs), every finger a touch with its own id, as the finger chooser needs for up to ten. SDL
# must not also turn touches into mouse clicks (a tap would come twice); a USB mouse still works through SDL,
# Kivy's mouse provider steps aside while the panel is touched, and makes red dots only where a widget asks
# (the finger chooser on a laptop).
APPLIANCE_INPUT = {
    "%(name)s": "probesysfs,provider=mtdev",
    "mouse": "mouse,multitouch_on_demand,disable_on_activity",
}
SDL_NO_TOUCH_MOUSE = {"SDL_TOUCH_MOUSE_EVENTS": "0", "SDL_MOUSE_TOUCH_EVENTS": "0"}
KIVY_LOG_FILES = 20
"""Kivy's log files kept (one per start): a crash loop under systemd keeps the newest 20 starts."""
CLIPBOARD = "dummy"
"""Kivy's clipboard provider: needs no program, no X and no SDL call; copy and paste still work inside the app."""
IMAGE_READERS = ("sdl2",)
"""Kivy's image providers (as ``KIVY_IMAGE`` names them): SDL2's, in every Kivy wheel and on the Pi."""
NO_CUTBUFFER = "Cutbuffer: Unable to find any valuable Cutbuffer provider"
NO_ICONS = "Error when copying logo directory"
SETTINGS = "Kivy's settings file"
KIVY_LOG = "Kivy's log"
LARGEST_CONFIG = 1_000_000
"""Kivy's settings file is a few KiB; anything far larger is not one (and is not read into memory)."""


@dataclass(frozen=True)
class Trouble:
    """Something the start could not write or read: `what` ("Kivy's log"), and why, in a few words."""

    what: str
    why: str


troubles: list[Trouble] = []
"""What this process's start could not do (Kivy's log adds itself if it fails later)."""


def sentence(found: Sequence[Trouble]) -> str | None:
    """One sentence for the home screen about everything in `found`, or None if nothing was."""
    whats = list(dict.fromkeys(t.what for t in found))
    whys = list(dict.fromkeys(t.why for t in found))
    if not whats:
        return None
    named = whats[0] if len(whats) == 1 else ", ".join(whats[:-1]) + " and " + whats[-1]
    logs = "; its log goes to standard error only" if any(what.endswith("log") for what in whats) else ""
    return f"The companion runs without {named} ({'; '.join(whys)}){logs}."


NO_SCREEN = (
    "No screen to draw on: neither DISPLAY nor WAYLAND_DISPLAY is set; on the Pi's touchscreen without a desktop "
    "run `companion run --appliance`, from SSH to a desktop that shows use `DISPLAY=:0 companion run`, and to draw "
    "off screen on purpose set SDL_VIDEODRIVER=offscreen."
)
"""Said instead of opening a window that nobody would see: without a display SDL picks its off-screen driver and
says nothing, so the app would seem to run (a developer over SSH)."""
NO_SCREEN_FOR_EMULATOR = (
    "No screen to draw the emulated display on: neither DISPLAY nor WAYLAND_DISPLAY is set; add --headless to "
    "print its screens here and type its keys, use DISPLAY=:0 for a desktop that shows, or set "
    "SDL_VIDEODRIVER=offscreen to draw off screen on purpose."
)
"""The same for `companion display-emulator`, whose window would be drawn on no screen too."""


def screen_missing(
    environ: Mapping[str, str], *, appliance: bool, platform: str = sys.platform, sentence: str = NO_SCREEN
) -> str | None:
    """`sentence` when a window opened with `environ` would be drawn on no screen; None when it has one.

    The appliance draws on the console's screen itself (KMS/DRM); elsewhere than on Linux SDL finds its own
    screen; a video driver named on purpose (a test's `offscreen`) is SDL's choice to make."""
    if appliance or not platform.startswith("linux") or environ.get("SDL_VIDEODRIVER"):
        return None
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return None
    return sentence


def prepare(*, appliance: bool = False, width: int = 800, height: int = 480) -> list[Trouble]:
    """Set Kivy's environment; call before importing anything from kivy. Returns what it could not do."""
    home = paths.kivy_home()
    try:
        home.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a read-only or full card, a file where the folder goes: Kivy's defaults, no files
        why = f"{home} is not a folder; it is left as it is" if isinstance(error, FileExistsError) else _why(error)
        _no_kivy_home(home, why)
    _guard_kivy_file_log()
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
    our_images = "KIVY_IMAGE" not in os.environ

    first_start = _before_first_config(home)
    from kivy.config import Config

    if first_start:
        _write_first_config(Config, home)
    if our_clipboard:
        _no_cutbuffer()
    if our_images:
        _sdl2_images_only()
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
        for option, value in APPLIANCE_INPUT.items():
            Config.set("input", option, value)
    return list(troubles)


def _no_kivy_home(home: Path, why: str) -> None:
    """Kivy without its folder: its defaults, no settings file and no file log, said once on standard error."""
    os.environ.setdefault("KIVY_NO_CONFIG", "1")
    if "KIVY_NO_FILELOG" not in os.environ:
        os.environ["KIVY_NO_FILELOG"] = "1"
        _trouble(KIVY_LOG, why)
    _trouble(SETTINGS, why)
    with contextlib.suppress(Exception):
        print(f"companion: Kivy's folder {home} cannot be made ({why}); Kivy runs on its defaults "
              "and its log goes on to standard error only.", file=sys.__stderr__)


def _trouble(what: str, why: str) -> None:
    if Trouble(what, why) not in troubles:
        troubles.append(Trouble(what, why))


def _why(error: BaseException) -> str:
    return error.strerror if isinstance(error, OSError) and error.strerror else str(error) or type(error).__name__


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
    if "kivy" in sys.modules:
        return False  # Kivy has read its config already
    if {"KIVY_NO_CONFIG", "KIVY_USE_DEFAULTCONFIG"} & os.environ.keys():
        return False
    path = home / "config.ini"
    found = _kivys_config(path)
    if found is False:
        # Not Kivy's (a folder, a pipe, another program's file, bytes that are not settings): Kivy would
        # replace it with its defaults. It is left as it is and not read; Kivy runs on its defaults.
        _trouble(SETTINGS, f"{path} is not one of Kivy's; it is left as it is")
        os.environ["KIVY_NO_CONFIG"] = "1"
        return False
    if found:
        return False  # Kivy reads its own file
    os.environ["KIVY_NO_CONFIG"] = "1"
    return True


def _kivys_config(path: Path) -> bool | None:
    """True if `path` holds Kivy's settings, None if there are none yet (no file, or an empty one), else False.

    An empty file is what a full card left when Kivy wrote one: it is written again.
    """
    try:
        found = os.stat(path)
        if not stat.S_ISREG(found.st_mode) or found.st_size > LARGEST_CONFIG:
            return False  # checked before opening: a pipe would block the start for ever
        if found.st_size == 0:
            return None
        config = configparser.ConfigParser()  # read as Kivy reads it: what Kivy would fail on, it would replace
        config.read_string(path.read_text(encoding="utf-8-sig"))
        for section in config.sections():
            config.items(section)
        int(config.get("kivy", "config_version"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, configparser.Error):  # UnicodeDecodeError is a ValueError
        return False
    return True


def _write_first_config(config: Any, home: Path) -> None:
    """Kivy's config file with Kivy's defaults at Kivy's current version, before any setting of ours.

    Written before `prepare` changes anything, so that the file holds what
    Kivy would have written: the appliance's settings are made at every start
    and never kept (a later desktop start would open full screen otherwise).
    """
    del os.environ["KIVY_NO_CONFIG"]  # only this import: Kivy's own later reads are ordinary
    text = io.StringIO()
    configparser.RawConfigParser.write(config, text)
    try:
        (home / "mods").mkdir(exist_ok=True)  # Kivy made this folder itself when it had a config to keep
        # Whole or not at all: a full card must not leave half a file that Kivy would not read next time.
        app_files.replace_whole(home / "config.ini", text.getvalue())
    except OSError as error:
        _trouble(SETTINGS, _why(error))
        return
    config.filename = str(home / "config.ini")


# -- Kivy's file log never stops the app ------------------------------------------------------


def _guard_kivy_file_log() -> None:
    """Kivy's file log, when it cannot be written, stops with one line instead of raising out of every log call.

    Kivy writes its first lines while ``import kivy`` runs, and its handler
    lets an `OSError` (a full or read-only card) out of the logging call,
    which ends the import. So the handler is guarded the moment its module
    is loaded, before Kivy logs anything: a finder that loads
    ``kivy.logger`` as usual and then wraps its file handler.
    """
    module = sys.modules.get("kivy.logger")
    if module is not None:
        _guard(module)
    elif not any(isinstance(finder, _GuardingFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _GuardingFinder())


class _GuardingFinder:
    """A finder on `sys.meta_path` (which asks only for `find_spec`; importlib.abc's base would load
    importlib.resources on the way to the first frame, issue 26)."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != "kivy.logger":
            return None
        sys.meta_path.remove(self)  # once
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        load = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            load(module)
            _guard(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _guard(module: ModuleType) -> None:
    handler = module.FileHandler
    if getattr(handler, "_companion_guarded", False):
        return
    configure, write, purge = handler._configure, handler._write_message, handler.purge_logs

    def guarded_configure(self: Any, *args: Any, **kwargs: Any) -> None:
        try:
            configure(self, *args, **kwargs)
        except Exception as error:
            _kivy_log_failed(handler, error)

    def guarded_write(self: Any, record: logging.LogRecord) -> None:
        try:
            write(self, record)
        except Exception as error:
            _kivy_log_failed(handler, error)

    def guarded_purge(self: Any) -> None:
        with contextlib.suppress(OSError):  # old logs stay until the card can be written: nothing is lost
            purge(self)

    handler._configure, handler._write_message, handler.purge_logs = guarded_configure, guarded_write, guarded_purge
    handler._companion_guarded = True
    module.Logger.addFilter(_no_icon_traceback)


def _no_icon_traceback(record: logging.LogRecord) -> bool:
    """Kivy's copy of its icons into its folder, failing on a full or read-only card: one line, not a traceback."""
    if record.exc_info and str(record.msg).startswith(NO_ICONS):
        error = record.exc_info[1]
        # shutil.Error lists every file it could not copy, each with its whole path: a few words instead
        why = "some could not be written" if isinstance(error, shutil.Error) or error is None else _why(error)
        record.msg = f"Kivy's icons could not be copied into its folder ({why}); Kivy uses its own"
        record.exc_info, record.exc_text, record.levelno, record.levelname = None, None, logging.WARNING, "WARNING"
    return True


def _kivy_log_failed(handler: Any, error: Exception) -> None:
    """Kivy's file log off for this run, said once on standard error; Kivy's console log goes on."""
    stream, handler.fd = handler.fd, False  # False: Kivy's own "no file log" (its lines are dropped, not kept)
    if stream not in (None, False):
        with contextlib.suppress(Exception):
            stream.close()  # the file is closed even when its last lines cannot be flushed
    if any(t.what == KIVY_LOG for t in troubles):
        return
    _trouble(KIVY_LOG, _why(error))
    # Before Kivy chose its file, its name is a bare default: the folder says where.
    where = handler.filename if os.path.isabs(handler.filename) else os.path.join(os.environ["KIVY_HOME"], "logs")
    with contextlib.suppress(Exception):
        print(
            f"companion: Kivy's log file {where} cannot be written ({_why(error)}); "
            "Kivy's log goes on to standard error only.",
            file=sys.__stderr__,
        )


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


def _sdl2_images_only() -> None:
    """Kivy's image readers: SDL2's alone.

    The window's first image loads every reader Kivy knows, and PIL's alone took 15 ms of the 0.4 s to home's
    first frame (issue 26). SDL2's reads the PNGs of Kivy's theme, the only image files the app shows (a QR
    code is a texture made from its modules). Set here, not in the environment, so that it holds whichever
    module imported Kivy first.
    """
    import kivy

    kivy.kivy_options["image"] = IMAGE_READERS


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
