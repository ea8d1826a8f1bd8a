"""Small JSON files of the app's own, written whole or not at all, and never a file the app did not write.

Each file carries ``{"kind": KIND, "version": N, ...}``. `read` gives its
contents, None when there is no file yet, and raises `NotOurs` with one
sentence when the path holds something else (another program's file, a
directory, bytes that are not our JSON): the caller goes on with defaults and
`write` leaves that path alone. `write` puts a new file beside the old one and
renames it over (a pulled plug leaves one or the other whole), mode 0600 from
its creation (these files may hold secrets), then syncs the folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

LARGEST = 4_000_000
"""Our files are a few KiB; a larger one is not ours, and is not read into memory."""


class NotOurs(Exception):
    """The path holds something the app did not write (or can no longer read as its own); its sentence says so."""


def read(path: Path, kind: str, version: int) -> dict[str, Any] | None:
    """The file's contents (a dict with our `kind` and `version`), None if there is no file yet."""
    try:
        text = read_text(path)
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise NotOurs(f"{path} cannot be read ({_why(error)}); it is left as it is.") from error
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:  # RecursionError: brackets nested thousands deep
        raise NotOurs(f"{path} is not a file the companion can read; it is left as it is.") from error
    if not isinstance(data, dict) or data.get("kind") != kind:
        raise NotOurs(f"{path} is not the companion's {kind} file; it is left as it is.")
    if data.get("version") != version:
        raise NotOurs(f"{path} is a {kind} file of another version of the companion; it is left as it is.")
    return data


def read_text(path: Path) -> str:
    """The file's text; OSError for anything but a file of a sensible size (a pipe is never waited on)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with open(fd, "rb") as file:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise OSError(0, "not a file")
        if found.st_size > LARGEST:
            raise OSError(0, "far larger than the companion's files")
        return file.read(LARGEST + 1).decode("utf-8")


def write(path: Path, kind: str, version: int, contents: dict[str, Any]) -> None:
    """Replace `path` with ``{"kind", "version", **contents}``; raises OSError (a full card, a read-only one).

    Call it only for a path `read` found to be ours or missing: it would replace whatever is there.
    """
    replace_whole(path, json.dumps({"kind": kind, "version": version, **contents}, indent=2, sort_keys=True))


def replace_whole(path: Path, text: str) -> None:
    """Put `text` at `path`, whole or not at all, mode 0600; raises OSError and leaves the old file as it was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)  # mkstemp: 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # the rename itself survives a power cut once the folder is synced
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def _why(error: BaseException) -> str:
    return error.strerror if isinstance(error, OSError) and error.strerror else type(error).__name__
