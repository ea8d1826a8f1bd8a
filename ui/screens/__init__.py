"""Which screen shows which game: found by a naming convention, or registered.

The screen of game ``name`` is ``ui/screens/<name with - as _>.py``, which
says ``SCREEN = <its GameScreen subclass>``, with its ``.kv`` beside it. So a
new game needs no entry here. A screen that lives elsewhere (a test's, a
house game's) is added with `register_screen`. Each ``.kv`` is loaded
explicitly, once, when its screen is first needed.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from ui.kv import beside, load_kv
from ui.presenters import module_name
from ui.screens.base import GameScreen

__all__ = ["GameScreen", "register_screen", "screen_class", "unregister_screen"]

_registered: dict[str, tuple[type[GameScreen], Path | None]] = {}


def register_screen(game_name: str, screen_class: type[GameScreen], kv_path: Path | None = None) -> None:
    """Show game `game_name` with `screen_class` (its rules loaded from `kv_path`, if given)."""
    if not (isinstance(screen_class, type) and issubclass(screen_class, GameScreen)):
        raise TypeError(f"A game's screen is a GameScreen subclass, not {screen_class!r}.")
    _registered[game_name] = (screen_class, kv_path)


def unregister_screen(game_name: str) -> None:
    """Forget a screen added with `register_screen` (the convention applies again)."""
    _registered.pop(game_name, None)


def screen_class(game: str) -> type[GameScreen]:
    """The screen class for `game`, its ``.kv`` loaded; the plain `GameScreen` if it has none."""
    if game in _registered:
        cls, kv_path = _registered[game]
        if kv_path is not None:
            load_kv(kv_path)
        return cls
    target = f"{__name__}.{module_name(game)}"
    try:
        module = importlib.import_module(target)
    except ModuleNotFoundError as missing:
        if missing.name != target:
            raise
        return GameScreen  # the game's own screen has not landed yet
    cls = _screen_in(module)
    if cls is not GameScreen:
        load_kv(beside(module.__file__))
    return cls


def _screen_in(module: ModuleType) -> type[GameScreen]:
    declared = getattr(module, "SCREEN", None)
    if isinstance(declared, type) and issubclass(declared, GameScreen):
        return declared
    raise TypeError(f"{module.__name__} must say which class is its screen: SCREEN = <a GameScreen subclass>.")
