"""The registry of games, found by name.

Each game is a package here (see `companion.engine` for its modules) and one
line in `_PACKAGES`. Packages are imported on first use, so start-up pays
only for the game being played.
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.engine import Game, LegacyGame

_PACKAGES: dict[str, str] = {
    # name (as typed in `companion play NAME`) -> its package
    "quintet": "companion.games.quintet",
    "quin": "companion.games.quin",
    "quark": "companion.games.quark",
    "quantum-link": "companion.games.quantum_link",
    "quinque": "companion.games.quinque",
}

_loaded: dict[str, Any] = {}
_extra: dict[str, Any] = {}


def names() -> list[str]:
    """Every game's name, in the order the home screen lists them."""
    return [*_PACKAGES, *_extra]


def game(name: str) -> Game:
    """The registry entry of game `name`; `LookupError` with a helpful sentence if unknown."""
    if name in _extra:
        return _extra[name]  # type: ignore[no-any-return]
    if name not in _PACKAGES:
        raise LookupError(f"There is no game called {name!r}; the games are: {', '.join(names())}.")
    if name not in _loaded:
        module = importlib.import_module(_PACKAGES[name])
        found: Any = Game.from_package(module) if hasattr(module, "FACTS") else LegacyGame(module.RULES)
        _loaded[name] = found
    return _loaded[name]  # type: ignore[no-any-return]


rules_for = game  # the old name, until every caller says `game`


def register(entry: Any) -> Game:
    """Add a game defined outside this package (tests, house games): a `Game`, a package, or its name."""
    if isinstance(entry, Game | LegacyGame):
        found: Any = entry
    elif hasattr(entry, "FACTS") or isinstance(entry, str):
        found = Game.from_package(entry)
    else:
        found = LegacyGame(entry)
    _extra[found.name] = found
    return found  # type: ignore[no-any-return]


def unregister(name: str) -> None:
    _extra.pop(name, None)
