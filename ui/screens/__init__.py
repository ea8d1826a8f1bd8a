"""Which screen shows which game, loaded on first use with its own ``.kv``.

A game's screen is `ui/screens/<module>.py` with one `GameScreen` subclass
and `ui/screens/<module>.kv` beside it. Each ``.kv`` is loaded explicitly
(never by a naming coincidence), once, when its screen is first needed.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from kivy.lang import Builder

from ui.screens.base import GameScreen

SCREENS: dict[str, str] = {
    "quintet": "ui.screens.quintet:QuintetScreen",
    "quin": "ui.screens.quin:QuinScreen",
    "quark": "ui.screens.quark:QuarkScreen",
    "quantum-link": "ui.screens.quantum_link:QuantumLinkScreen",
    "quinque": "ui.screens.quinque:QuinqueScreen",
}

_loaded: set[Path] = set()


def load_kv(path: Path) -> None:
    """Load one rules file once (safe to call again)."""
    if path not in _loaded and path.exists():
        Builder.load_file(str(path))
        _loaded.add(path)


def screen_class(game: str) -> type[GameScreen]:
    """The screen class for `game`, its ``.kv`` loaded; the plain `GameScreen` if it has none."""
    target = SCREENS.get(game)
    if target is None:
        return GameScreen
    module_name, class_name = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as missing:
        if missing.name != module_name:
            raise
        return GameScreen  # the game's own screen has not landed yet
    load_kv(Path(module.__file__ or "").with_suffix(".kv"))
    cls: type[GameScreen] = getattr(module, class_name)
    return cls
