"""The sets of dice the table saves, kept across restarts: ``dice-sets.json`` beside the games file.

A saved set is the table's, not a game's: it outlives the tray it was saved in and is offered in every tray
after it. The config file is the owner's and the app never writes it, and a set is no move of a game (the games
file keeps moves); so the sets live in a small file of the app's own (`companion.app_files`: written whole or
not at all, never over a file the app did not write). `SavedSets.load` never fails: a file it cannot read as its
own is left alone, with one sentence, and the table's sets are then kept until the app stops.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion import app_files, paths
from companion.game import RuleError
from companion.games.dice_tray.kinds import BUILT_IN, DiceSet, read_dice, set_name

KIND, VERSION = "dice-sets", 1
MAX_SAVED = 40
"""Sets the table may save: more than a picker a finger scrolls through comfortably."""

_this_run: dict[Path, tuple[DiceSet, ...]] = {}
"""Sets saved while their file could not be written: kept until the app stops."""


def sets_path() -> Path:
    """Where the table's sets are kept: the app's data folder (`COMPANION_HOME` in tests)."""
    return paths.data_dir() / "dice-sets.json"


class SavedSets:
    """The table's own sets (in the order they were saved); `problem` says why they last until the app stops."""

    def __init__(self, path: Path, sets: tuple[DiceSet, ...], problem: str | None, writable: bool) -> None:
        self.path, self.sets, self.problem, self._writable = path, sets, problem, writable

    @classmethod
    def load(cls, path: Path | None = None) -> SavedSets:
        path = path or sets_path()
        try:
            data = app_files.read(path, KIND, VERSION)
        except app_files.NotOurs as not_ours:
            return cls(path, _this_run.get(path, ()), str(not_ours), writable=False)
        if path in _this_run:
            return cls(path, _this_run[path], None, writable=True)
        return cls(path, _read_sets((data or {}).get("sets")), None, writable=True)

    @property
    def offered(self) -> tuple[DiceSet, ...]:
        """What the picker offers: every tray's sets, then the table's own."""
        return (*BUILT_IN, *self.sets)

    def is_own(self, name: str) -> bool:
        return any(s.name == name for s in self.sets)

    def save(self, name: str, specs: tuple[Any, ...]) -> str | None:
        """Keep the set `specs` as `name` (one of the same name is replaced): None, or why it lasts this run only.

        `RuleError` for a name or dice the tray cannot take, or a name one of every tray's sets has.
        """
        name = set_name(name)
        if any(s.name.casefold() == name.casefold() for s in BUILT_IN):
            raise RuleError(f"Every tray already offers a set called {name!r}: give yours another name.")
        kept = DiceSet(name, read_dice(specs))
        others = tuple(s for s in self.sets if s.name.casefold() != name.casefold())
        if len(others) >= MAX_SAVED:
            raise RuleError(f"The table has {MAX_SAVED} sets saved already: forget one first.")
        return self._keep((*others, kept))

    def forget(self, name: str) -> str | None:
        """No longer offer the table's set `name`: None, or why this lasts until the app stops."""
        return self._keep(tuple(s for s in self.sets if s.name != name))

    def _keep(self, sets: tuple[DiceSet, ...]) -> str | None:
        self.sets = sets
        if not self._writable:
            _this_run[self.path] = sets
            return f"Kept until the app stops: {self.problem}"
        try:
            app_files.write(self.path, KIND, VERSION, {"sets": [{"name": s.name, "dice": list(s.specs)} for s in sets]})
        except OSError as error:
            _this_run[self.path] = sets
            return f"Kept until the app stops: the sets could not be saved ({error.strerror or error})."
        _this_run.pop(self.path, None)
        return None


def _read_sets(raw: object) -> tuple[DiceSet, ...]:
    """The sets in the file; an entry that does not read (an older or damaged one) is passed over."""
    found: list[DiceSet] = []
    for entry in raw if isinstance(raw, list) else []:
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("name"), str)
            or not isinstance(entry.get("dice"), list)
        ):
            continue
        try:
            found.append(
                DiceSet(
                    set_name(entry["name"]), read_dice([tuple(d) if isinstance(d, list) else d for d in entry["dice"]])
                )
            )
        except RuleError:
            continue
    return tuple(found[:MAX_SAVED])
