"""The registry of games, found by name.

Each game is a package here (see `companion.engine` for its modules), found
by looking: a new game needs no line anywhere else. Listing the games reads
only each package's `Facts`; its rules, views and display are imported on
first use, so start-up pays only for the game being played.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from types import ModuleType

from companion.engine import AnyGame, Facts, RegisteredGame

FIRST_ON_HOME = ("quintet", "quin", "quark", "quantum-link", "quinque")
"""The order the home screen lists these games in; any other game found here comes after them."""

_loaded: dict[str, AnyGame] = {}
_extra: dict[str, AnyGame] = {}


@functools.cache
def _packages() -> dict[str, str]:
    """Every game package in this folder, by game name (each one's ``__init__`` holds only its `Facts`)."""
    found = {}
    for module in pkgutil.iter_modules(__path__, f"{__name__}."):
        if module.ispkg:
            facts = importlib.import_module(module.name).FACTS
            found[facts.name] = module.name
    ordered = [name for name in FIRST_ON_HOME if name in found] + sorted(set(found) - set(FIRST_ON_HOME))
    return {name: found[name] for name in ordered}


def facts(name: str) -> Facts:
    """What game `name` declares about itself (its title, seats, variant), without loading its rules."""
    if name in _extra:
        return _extra[name].facts
    if name not in _packages():
        raise LookupError(f"There is no game called {name!r}; the games are: {', '.join(names())}.")
    return importlib.import_module(_packages()[name]).FACTS  # type: ignore[no-any-return]


def settings_module(name: str) -> ModuleType:
    """Game `name`'s ``settings`` module, without loading its rules (the config is checked at start-up)."""
    if name in _extra:
        return _extra[name].settings  # type: ignore[return-value]
    if name not in _packages():
        raise LookupError(f"There is no game called {name!r}; the games are: {', '.join(names())}.")
    return importlib.import_module(f"{_packages()[name]}.settings")


def names() -> list[str]:
    """Every game's name, in the order the home screen lists them."""
    return [*_packages(), *_extra]


def game(name: str) -> AnyGame:
    """The registry entry of game `name`; `LookupError` with a helpful sentence if unknown."""
    if name in _extra:
        return _extra[name]
    if name not in _packages():
        raise LookupError(f"There is no game called {name!r}; the games are: {', '.join(names())}.")
    if name not in _loaded:
        _loaded[name] = RegisteredGame.from_package(_packages()[name])
    return _loaded[name]


def register(entry: AnyGame | ModuleType | str) -> AnyGame:
    """Add a game defined outside this package (tests, house games): its `RegisteredGame`, or its package or name."""
    found = entry if isinstance(entry, RegisteredGame) else RegisteredGame.from_package(entry)
    _extra[found.name] = found
    return found


def unregister(name: str) -> None:
    _extra.pop(name, None)
