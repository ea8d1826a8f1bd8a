"""Presenters: plain Python that turns the core's views into what a screen shows.

A presenter imports nothing from Kivy, so it is tested without a window. A
screen reads the fields it gets from its presenter (texts, flags, tones) and
never parses a sentence. Colours are asked for by meaning (a ``tone`` such as
``"warn"``); the theme (`ui.theme`) says what each looks like.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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


@dataclass(frozen=True)
class Variant:
    """One setting the table may pick on the home screen, with the words on its toggle for each value.

    The first choice is the default (what a game starts with when nobody touches the toggle).
    """

    setting: str
    choices: tuple[tuple[Any, str], ...]

    @property
    def default(self) -> Any:
        return self.choices[0][0]

    def has(self, value: object) -> bool:
        return any(value == known and type(value) is type(known) for known, _words in self.choices)

    def words(self, value: object) -> str:
        return next(words for known, words in self.choices if known == value)

    def after(self, value: object) -> Any:
        """The value a tap on the toggle moves to from `value` (round and round)."""
        values = [known for known, _words in self.choices]
        return values[(values.index(value) + 1) % len(values)]
