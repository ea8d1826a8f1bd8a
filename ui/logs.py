"""The app's own log: once, at start, to standard error and to a rotating file of its own.

What the companion logs (`logging` loggers under ``companion.``, ``ui.``,
``hardware.``: displays found, paired, proven or unplugged; the games file's
damage and weather sentences; race results) goes

- to standard error, which systemd hands to the journal on the appliance
  (``journalctl -u tabletop-companion``), each line with its syslog priority
  so that ``journalctl -p warning`` finds the warnings;
- to ``logs/companion.log`` in the data directory, rotated by size, 0600.

Kivy keeps its own file log (``kivy/logs/`` in the config directory, see
`ui.boot`). Kivy's logger does not propagate to ours (Kivy's ``MIXED`` log
mode), so no line is printed twice.

Logging never stops the app (issue 22): a log file that cannot be opened or
written (a full or read-only card, a folder or a pipe in its place, a file that
is not our log, which is left as it is) means one line on standard error and
the log goes on there only; `trouble` says why, for the home screen's sentence.

Nothing logged may name a hidden identity or a pairing key: the log says who
and which device, never what a player's display shows. An error's traceback is
logged without the exception's message (`Formatter`), which may quote a view.
"""

from __future__ import annotations

import io
import logging
import os
import re
import stat
import sys
import threading
import traceback
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

from companion import paths

FILE_NAME = "companion.log"
MAX_BYTES = 1_000_000  # a busy evening is a few hundred lines; a flood of warnings rotates, never fills the card
BACKUPS = 4  # companion.log.1 ... .4 besides the current one
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

# journald reads "<N>" at the start of a line as that line's priority (syslog numbers).
_PRIORITY = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6, logging.DEBUG: 7}

log = logging.getLogger(__name__)

trouble: str | None = None
"""Why this run's log file is not written (a few words), or None while it is."""

_OUR_LINE = re.compile(rb"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ ")


def log_dir() -> Path:
    """Where the app's own log and its rotated copies are."""
    return paths.data_dir() / "logs"


def log_path() -> Path:
    return log_dir() / FILE_NAME


class _OwnHandler:
    """Marks the handlers `start` added, so that a second call adds none."""


class PrivateRotatingFile(_OwnHandler, RotatingFileHandler):
    """A `RotatingFileHandler` whose files are 0600 whatever the umask, and which says once if it cannot write."""

    def __init__(self, path: Path) -> None:
        self._failed = False
        super().__init__(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8")

    def _open(self) -> io.TextIOWrapper:
        # Never a pipe (opening one for writing waits for a reader: the start would hang) nor a link elsewhere.
        fd = os.open(self.baseFilename, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW, 0o600)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(f"{self.baseFilename} is not a file")
            if not _ours(fd):
                raise OSError(f"{self.baseFilename} is not the companion's log; it is left as it is")
            os.fchmod(fd, 0o600)  # a file left by a run under a looser umask is closed up too
        except BaseException:
            os.close(fd)
            raise
        return open(fd, "a", encoding=self.encoding, errors=self.errors)

    def handleError(self, record: logging.LogRecord) -> None:
        # A full or read-only card must not print a traceback for every line: say it once, the journal goes on.
        global trouble
        if not self._failed:
            self._failed = True
            error = sys.exc_info()[1]
            trouble = _why(error)
            print(f"companion: the log file {self.baseFilename} cannot be written ({trouble}); "
                  "the log goes on to standard error only.", file=sys.__stderr__)


def _ours(fd: int) -> bool:
    """Whether the open file is empty or starts with one of our lines (never append to another program's file)."""
    head = os.pread(fd, 64, 0)
    return not head or _OUR_LINE.match(head) is not None


def _why(error: BaseException | None) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) if error is not None and str(error) else type(error).__name__


class _Stderr(_OwnHandler, logging.StreamHandler):  # type: ignore[type-arg]
    pass


class Formatter(logging.Formatter):
    """Our lines; an error's traceback keeps where it happened and its kind, but not its words.

    An exception's message may quote what it was working on, and while a
    player's view is drawn or a menu moved that is their secrets (a KeyError
    naming an identity, a ValueError quoting a line of their screen). The
    card, a port or the OS (`OSError`) keep their words: they say which file
    or port, and no view is in them.
    """

    def formatException(self, ei: Any) -> str:
        kind, error, trace = ei
        if error is None or isinstance(error, OSError):
            return super().formatException(ei)
        frames = "".join(traceback.format_tb(trace))
        return f"Traceback (most recent call last):\n{frames}{kind.__qualname__} (its message is not logged)"

    def format(self, record: logging.LogRecord) -> str:
        cached, record.exc_text = record.exc_text, None  # another handler may have cached the whole message
        try:
            return super().format(record)
        finally:
            record.exc_text = cached


class JournalFormatter(Formatter):
    """Lines for the journal: the priority prefix journald understands; journald adds the time itself."""

    def format(self, record: logging.LogRecord) -> str:
        return f"<{_PRIORITY.get(record.levelno, 6)}>{super().format(record)}"


def _to_journal(stream: TextIO) -> bool:
    """True if `stream` is the journal's own stream (systemd sets JOURNAL_STREAM to its device:inode)."""
    expected = os.environ.get("JOURNAL_STREAM", "")
    try:
        found = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return expected == f"{found.st_dev}:{found.st_ino}"


def _kivy_prints_root() -> bool:
    """True if Kivy's own console handler already prints every logger's lines (a user's KIVY_LOG_MODE=KIVY)."""
    kivy_logger = sys.modules.get("kivy.logger")
    console = getattr(kivy_logger, "ConsoleHandler", None)
    return console is not None and any(isinstance(h, console) for h in logging.root.handlers)


def start(*, level: int = logging.INFO) -> Path | None:
    """Configure logging for the app; returns the log file, or None if it cannot be written. Once only.

    Call it after `ui.boot.prepare` (Kivy's logging is set up when Kivy is
    imported). Uncaught errors, in the main thread or any other, are logged
    too, so that a crash on the appliance is in the file and the journal.
    """
    global trouble
    root = logging.getLogger()
    if any(isinstance(h, _OwnHandler) for h in root.handlers):
        return next((Path(h.baseFilename) for h in root.handlers if isinstance(h, PrivateRotatingFile)), None)
    root.setLevel(level)
    # The process's own stderr: under Kivy's KIVY log mode `sys.stderr` is Kivy's, and writing there would loop.
    err = sys.__stderr__
    if err is not None and not _kivy_prints_root():
        printer = _Stderr(err)
        journal = _to_journal(err)
        printer.setFormatter(JournalFormatter("%(name)s: %(message)s") if journal else Formatter(FORMAT))
        root.addHandler(printer)
    path: Path | None = log_path()
    try:
        log_dir().mkdir(mode=0o700, parents=True, exist_ok=True)
        file = PrivateRotatingFile(log_path())
    except OSError as error:
        trouble = _why(error)
        log.warning("the log file %s cannot be opened (%s); logging to standard error only", log_path(), trouble)
        path = None
    else:
        file.setFormatter(Formatter(FORMAT))
        root.addHandler(file)
    logging.captureWarnings(True)
    sys.excepthook = _uncaught
    threading.excepthook = _uncaught_in_thread
    log.info("Tabletop Companion starting; this log: %s", path or "standard error only")
    return None if trouble else path  # a full card opens the file but fails at its first line


def _uncaught(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, error, trace)
        return
    log.critical("the app stopped on an error", exc_info=(kind, error, trace))


def _uncaught_in_thread(args: Any) -> None:
    if args.exc_type is SystemExit or args.exc_value is None:
        return
    name = args.thread.name if args.thread is not None else "?"
    log.error("the thread %s stopped on an error", name, exc_info=(args.exc_type, args.exc_value, args.exc_traceback))
