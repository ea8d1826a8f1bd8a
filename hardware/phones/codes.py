"""Seat codes that survive a restart: each unfinished game's tokens, kept in a file of the app's own.

A seat's code is the token in its URL (and QR code). Kept here, a game that
resumes after a power cut or a ``systemctl restart`` gets the very same
tokens back, so every phone still open on its page reconnects by itself and
nobody scans again. A game is named by an opaque key the caller chooses
(the app uses the game's number): nothing here knows a game.

The file is ``{"kind": "phone-codes", "version": 1, "games": {"<key>":
{"<player>": "<token>"}}}``, written whole by ``companion.app_files`` (a new
file beside it, synced, renamed over the old one, the folder synced: a
pulled plug leaves the old file or the new one), readable by its owner only
(0600 from its creation).

What is found at the path decides what may be written there:
- nothing: the file is made at the first save;
- our own file (our kind and version): read; a game whose entry is damaged
  (a wrong shape, a weak or shared token) is left out, its seats get fresh
  codes, and the next save rewrites the file without it: the file is ours;
- anything else (a folder, another program's file, bytes that are not JSON,
  another version's file): left exactly as it is, and the codes are kept in
  memory only (they last until the app stops). A file of ours damaged so
  badly that it no longer reads as JSON is in this case too: nothing proves
  it is still ours, so it is never replaced.
Each case that is not plain is one warning in the log, which never holds a
token. A save the card refuses (full, read-only) keeps the codes in memory
and says so in one log line; nothing is raised, and the phones go on working.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from companion import app_files

log = logging.getLogger(__name__)

KIND = "phone-codes"
VERSION = 1
TOKEN_BYTES = 16  # 128 bits: unguessable, and short enough for a small QR code
MIN_TOKEN_LENGTH = 22  # characters of URL-safe base64 that carry at least 128 bits (6 bits each)
MAX_TOKEN_LENGTH = 128

_URLSAFE = re.compile(r"[A-Za-z0-9_-]+")


def new_token() -> str:
    """A fresh seat code: 128 bits from `secrets`, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def strong(token: object) -> bool:
    """Is `token` a seat code that cannot be guessed: URL-safe base64 carrying at least 128 bits?"""
    return (
        isinstance(token, str)
        and MIN_TOKEN_LENGTH <= len(token) <= MAX_TOKEN_LENGTH
        and _URLSAFE.fullmatch(token) is not None
    )


def check_codes(players: Sequence[str], codes: Mapping[str, str]) -> None:
    """Raise ValueError (a sentence without any token in it) unless `codes` gives each of `players`, and
    nobody else, a strong token of their own."""
    if set(codes) != set(players) or len(set(players)) != len(players):
        raise ValueError("The seat codes do not name exactly this game's players.")
    weak = sorted(player for player, token in codes.items() if not strong(token))
    if weak:
        raise ValueError(f"The seat code of {', '.join(weak)} is not a strong one (128 bits, URL-safe).")
    if len(set(codes.values())) != len(codes):
        raise ValueError("Two seats have the same code.")


class SeatCodes:
    """Game key -> player -> seat token, kept in the JSON file at `path` (None: in memory only).

    See the module's docstring for the file, and for what is left alone.
    Every method may be called on the UI thread: a save is one small file,
    and a failing save is logged, never raised.
    """

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = Path(path) if path is not None else None
        self._games: dict[str, dict[str, str]] = {}
        self._writable = self.path is not None  # False: what is at the path is not ours, never touch it
        self._trouble: str | None = None  # the last save's failure, said once until it changes
        self.problem: str | None = None
        """Why the codes read at start are not kept on the card (one sentence for the table), or None."""
        if self.path is not None:
            self._load(self.path)

    @property
    def saving(self) -> bool:
        """Do the codes reach the file (False: in memory only, until the app stops)?"""
        return self._writable and self._trouble is None

    def codes_for(self, key: str) -> dict[str, str] | None:
        """Player -> token kept for game `key`, or None."""
        codes = self._games.get(key)
        return dict(codes) if codes is not None else None

    def keys(self) -> set[str]:
        return set(self._games)

    def keep(self, key: str, codes: Mapping[str, str]) -> None:
        """Keep `codes` (player -> token) for game `key`; ValueError, and nothing kept, if one is weak."""
        check_codes(list(codes), codes)
        if self._games.get(key) == dict(codes):
            return
        self._games[key] = dict(codes)
        self._save()

    def forget(self, key: str) -> None:
        """Drop game `key`'s codes (it is over): nobody's code for it opens anything after a restart."""
        if self._games.pop(key, None) is not None:
            self._save()

    def forget_all_but(self, keys: Iterable[str]) -> None:
        """Keep only the codes of games `keys` (the unfinished ones): a finished or discarded game's go."""
        wanted = set(keys)
        gone = [key for key in self._games if key not in wanted]
        for key in gone:
            del self._games[key]
        if gone:
            self._save()

    # -- the file ----------------------------------------------------------------------------

    def _load(self, path: Path) -> None:
        try:
            found = app_files.read(path, KIND, VERSION)
        except app_files.NotOurs as not_ours:
            self._foreign(str(not_ours))
            return
        if found is None:
            return
        games = found.get("games")
        if not isinstance(games, dict):
            log.warning("the phones' seat codes in %s are damaged; starting with none (it will be rewritten)", path)
            return
        dropped = 0
        for key, codes in games.items():
            try:
                if not isinstance(codes, dict):
                    raise ValueError("not an object")
                check_codes(list(codes), codes)
            except ValueError:
                dropped += 1  # its codes cannot be trusted: that game's seats get fresh ones
                continue
            self._games[str(key)] = {str(player): str(token) for player, token in codes.items()}
        if dropped:
            log.warning(
                "%d game(s)' seat codes in %s are damaged and were left out (those seats get new ones)", dropped, path
            )

    def _foreign(self, why: str) -> None:
        self._writable = False
        self.problem = f"{why} The phones' seat codes last until the app stops."
        log.warning("%s The phones' seat codes are kept in memory only.", why)

    def _save(self) -> None:
        if not self._writable or self.path is None:
            return
        path = self.path
        try:
            app_files.read(path, KIND, VERSION)  # again: something else may have been put there meanwhile
        except app_files.NotOurs as not_ours:
            self._foreign(str(not_ours))
            return
        try:
            app_files.write(path, KIND, VERSION, {"games": self._games})
        except OSError as error:
            trouble = f"{error.strerror or error}"
            if trouble != self._trouble:
                log.warning(
                    "the phones' seat codes could not be saved in %s (%s): they are kept in memory, "
                    "and phones will need their codes scanned again after a restart",
                    path,
                    trouble,
                )
            self._trouble = trouble
            return
        if self._trouble is not None:
            log.info("the phones' seat codes are saved again in %s", path)
        self._trouble = None
