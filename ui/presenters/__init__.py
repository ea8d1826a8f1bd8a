"""Presenters: plain Python that turns the core's views into what a screen shows.

A presenter imports nothing from Kivy, so it is tested without a window. A
screen reads the fields it gets from its presenter (texts, flags, tones) and
never parses a sentence. Colours are asked for by meaning (a ``tone`` such as
``"warn"``); the theme (`ui.theme`) says what each looks like.
"""

from __future__ import annotations

from companion.engine import Variant

__all__ = ["Variant", "format_clock", "module_name", "on_screen"]


def format_clock(seconds: float) -> str:
    """``1:02:03`` or ``12:34``."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def module_name(game: str) -> str:
    """The Python module name for game `game`: ``"quantum-link"`` → ``"quantum_link"``.

    A game's screen is ``ui/screens/<module_name>.py`` (with its ``.kv`` beside it)
    and its presenter ``ui/presenters/<module_name>.py``.
    """
    return game.replace("-", "_")


def on_screen(text: str) -> str:
    """`text` with the arrow the screen's font lacks (→) drawn as one it has (›): the core's sentences keep →."""
    return text.replace("→", "›")
