"""Which display is whose: device identity → player and pairing key, kept in a small JSON file.

The file alone: `hardware.display.handshake` decides, with it, what a
connected display has proved; the hub draws.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from companion import app_files
from hardware.display import protocol

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Pairing:
    """One paired display: its player, and the key it proved it holds (None: paired before keys, pair again)."""

    player: str
    key: bytes | None


class Pairings:
    """Device identity → player and pairing key, kept in a JSON file (0600) whose path is given.

    Version 1 files (identity → player, no keys) are read as pairings without
    a key: such a display cannot prove itself and must be paired again.

    A file that is not ours (a folder, a pipe, bytes that are not our JSON) is
    left as it is: the pairings made this run last until the app stops, and
    `problem` says so. A file of ours with a damaged entry starts with none and
    is written again at the next pairing.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._pairings: dict[str, Pairing] = {}
        self.problem: str | None = None
        """Why the pairings are not read or not kept (one sentence), or None."""
        self._writable = True
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads(app_files.read_text(self.path))
            if not isinstance(data, dict) or not isinstance(data.get("displays"), dict):
                raise TypeError("not a pairings file")
        except FileNotFoundError:
            return
        except (OSError, ValueError, RecursionError, TypeError) as error:  # UnicodeDecodeError is a ValueError
            self._writable = False
            why = error.strerror if isinstance(error, OSError) and error.strerror else "not the companion's pairings"
            self.problem = (
                f"The display pairings file {self.path} cannot be read ({why}); it is left as it is, "
                "and displays paired now stay paired until the app stops."
            )
            log.warning("%s", self.problem)
            return
        try:
            self._pairings = {str(identity): _pairing(entry) for identity, entry in data["displays"].items()}
        except (ValueError, TypeError) as error:
            log.warning("display pairings in %s are damaged (%s); starting with none", self.path, error)
            self.problem = "The display pairings were damaged: each player display is paired again."

    def get(self, identity: str) -> Pairing | None:
        return self._pairings.get(identity)

    def player_of(self, identity: str) -> str | None:
        pairing = self._pairings.get(identity)
        return pairing.player if pairing else None

    def identity_of(self, player: str) -> str | None:
        return next((i for i, p in self._pairings.items() if p.player == player), None)

    def bind(self, identity: str, player: str, key: bytes | None) -> list[str]:
        """Pair `identity` with `player` under `key` (a player has one display); returns the identities unbound."""
        dropped = [i for i, p in self._pairings.items() if p.player == player and i != identity]
        for old in dropped:
            del self._pairings[old]
        self._pairings[identity] = Pairing(player, key)
        self._save()
        return dropped

    def unbind(self, identity: str) -> None:
        if self._pairings.pop(identity, None) is not None:
            self._save()

    def as_dict(self) -> dict[str, str]:
        """Identity → player (no keys)."""
        return {identity: pairing.player for identity, pairing in self._pairings.items()}

    def _save(self) -> None:
        if not self._writable:
            return  # never over a file that is not ours
        # Whole or not at all (a pulled plug leaves one or the other), 0600: the keys are for this user's eyes only.
        displays = {
            identity: {"player": p.player, **({"key": p.key.hex()} if p.key is not None else {})}
            for identity, p in self._pairings.items()
        }
        text = json.dumps({"version": 2, "displays": displays}, indent=2, sort_keys=True)
        try:
            app_files.replace_whole(self.path, text)
        except OSError as error:  # a full or read-only card: the pairing holds until the app stops
            log.warning("display pairings could not be saved in %s (%s); kept until the app stops", self.path, error)


def _pairing(entry: object) -> Pairing:
    if isinstance(entry, str):  # version 1: a player's name, no key
        return Pairing(entry, None)
    if not isinstance(entry, dict) or not isinstance(entry.get("player"), str):
        raise TypeError("a pairing is not an object with a player")
    key = entry.get("key")
    if key is not None and not (isinstance(key, str) and len(key) == 2 * protocol.KEY_SIZE):
        raise ValueError(f"the key of {entry['player']}'s display is not {protocol.KEY_SIZE} bytes in hex")
    return Pairing(entry["player"], bytes.fromhex(key) if key is not None else None)
