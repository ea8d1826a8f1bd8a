"""The registry of games, found by name.

Adding a game is one module here with a ``RULES`` object that follows
`companion.game.Rules`, and one line in `_MODULES`. Modules are imported on
first use, so start-up pays only for the game being played.
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.game import Rules

_MODULES: dict[str, str] = {
    # name (as typed in `companion play NAME`) -> module holding RULES
    "quintet": "companion.games.quintet",
    "quin": "companion.games.quin",
    "quark": "companion.games.quark",
    "quantum-link": "companion.games.quantum_link",
    "quinque": "companion.games.quinque",
}

_extra: dict[str, Rules[Any]] = {}


def names() -> list[str]:
    """Every game's name, in the order the home screen lists them."""
    return [*_MODULES, *_extra]


def rules_for(name: str) -> Rules[Any]:
    """The rules of game `name`; `LookupError` with a helpful sentence if unknown."""
    if name in _extra:
        return _extra[name]
    if name not in _MODULES:
        raise LookupError(f"There is no game called {name!r}; the games are: {', '.join(names())}.")
    return importlib.import_module(_MODULES[name]).RULES  # type: ignore[no-any-return]


def register(rules: Rules[Any]) -> None:
    """Add a game defined outside this package (tests, house games)."""
    _extra[rules.name] = rules


def unregister(name: str) -> None:
    _extra.pop(name, None)
