"""Which screen shows which game: found by a naming convention, or registered.

The screen of game ``name`` is ``ui/screens/<name with - as _>.py``, which
says ``SCREEN = <its GameScreen subclass>``, with its ``.kv`` beside it. So a
new game needs no entry here. A screen that lives elsewhere (a test's, a
house game's) is added with `register_screen`. Each ``.kv`` is loaded
explicitly, once, when its screen is first needed.

None of them is on the way to home's first frame (issue 26): `warm_ups`
lists, in small pieces, what a tap will need, for the app to load after
its first frame, a few milliseconds a frame.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from ui.kv import beside, load_kv
from ui.presenters import module_name

if TYPE_CHECKING:  # the game screens' base is loaded with the first game screen, not with home
    from ui.screens.base import GameScreen

__all__ = ["register_screen", "screen_class", "unregister_screen", "warm_ups"]

AFTER_THE_GAMES = (
    "ui.screens.leave",
    "ui.screens.log",
    "ui.screens.home_popups",
    "ui.widgets.settings",
    "ui.screens.race",
)
"""What the other taps open (the leave picker, a Game log, home's popups, Settings, the race), loaded after the
games' screens."""

_registered: dict[str, tuple[type[GameScreen], Path | None]] = {}


def register_screen(game_name: str, screen_class: type[GameScreen], kv_path: Path | None = None) -> None:
    """Show game `game_name` with `screen_class` (its rules loaded from `kv_path`, if given)."""
    from ui.screens.base import GameScreen

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
    from ui.screens.base import GameScreen

    module = _screen_module(game)
    if module is None:
        return GameScreen  # the game's own screen has not landed yet
    cls = _screen_in(module)
    if cls is not GameScreen:
        load_kv(beside(module.__file__))
    return cls


def _screen_in(module: ModuleType) -> type[GameScreen]:
    from ui.screens.base import GameScreen

    declared = getattr(module, "SCREEN", None)
    if isinstance(declared, type) and issubclass(declared, GameScreen):
        return declared
    raise TypeError(f"{module.__name__} must say which class is its screen: SCREEN = <a GameScreen subclass>.")


def warm_ups() -> Iterator[Callable[[], object]]:
    """What a tap will need, one piece at a time (a module or a rules file, a few milliseconds each), in the
    order a table most likely needs it: a game's session and screen (and Kivy's theme images), each game's rules
    and screen in home's order, then the other taps' screens and popups. Each piece is what the tap would
    otherwise load itself."""
    from companion import games

    yield partial(importlib.import_module, "companion.session")
    yield from _module_and_rules("ui.screens.base")
    yield _theme_images
    for game in games.names():
        yield partial(games.game, game)  # its rules, views and settings
        if game not in _registered:
            yield partial(_screen_module, game)
        yield partial(screen_class, game)  # its rules file
    for module in AFTER_THE_GAMES:
        yield from _module_and_rules(module)


THEME_IMAGES = "atlas://data/images/defaulttheme/button_pressed"
"""An image of Kivy's theme: its buttons' and fields' looks are one atlas (one PNG, 3-5 ms to read and upload), which
the first game screen after start-up loaded on its tap (home shows none of it)."""


def _theme_images() -> object:
    """Kivy's theme atlas, loaded: Kivy keeps it for as long as the app runs (its cache "kv.atlas")."""
    from kivy.core.image import Image as CoreImage

    return CoreImage(THEME_IMAGES)


def _module_and_rules(module: str) -> Iterator[Callable[[], object]]:
    """Two pieces: import `module`, then load the rules file beside it (if it has one)."""
    yield partial(importlib.import_module, module)
    yield lambda: load_kv(beside(importlib.import_module(module).__file__))


def _screen_module(game: str) -> ModuleType | None:
    """Game `game`'s screen module by the convention, imported (None if it has none: the plain screen)."""
    try:
        return importlib.import_module(f"{__name__}.{module_name(game)}")
    except ModuleNotFoundError as missing:
        if missing.name != f"{__name__}.{module_name(game)}":
            raise
        return None
