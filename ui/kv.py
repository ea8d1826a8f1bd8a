"""Loading ``.kv`` rule files: explicitly, once each, never by a naming coincidence.

Every rules file may use the theme's names (``theme_accent``, ``BigButton``...),
so the theme (`ui/theme.kv`) is loaded before the first other file. This
module imports nothing else from `ui`, so any screen or widget may use it.
"""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder

THEME_KV = Path(__file__).with_name("theme.kv")

_loaded: set[Path] = set()


def load_kv(path: Path) -> None:
    """Load one rules file once (safe to call again); a file that does not exist is skipped."""
    path = Path(path).resolve()
    if path in _loaded or not path.exists():
        return
    if path != THEME_KV.resolve():
        load_kv(THEME_KV)
    Builder.load_file(str(path))
    _loaded.add(path)


def beside(module_file: str | None) -> Path:
    """The ``.kv`` file named like a module and next to it: ``beside(__file__)``."""
    return Path(module_file or "").with_suffix(".kv")
