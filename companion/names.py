"""Players' names, normalised at the door and checked against the table's other names. Pure.

A name is typed on the touchscreen or given on the command line, and is then shown on the table screen,
on a 16×4 player display, on a phone page and in the log. So it is cleaned once, where it comes in
(`normal_name`): Unicode NFC; control, format and zero-width characters removed (they draw as nothing, or
as boxes on a display); runs of spaces made one; the ends trimmed. A name that *looks* the same as
another at the table ("Ann" and "ann", "Ann" and the full-width "Ａｎｎ") is refused (`look`), because
the table could not tell whose turn it is. And a name is at most `MAX_NAME_LENGTH` characters, so that
the smallest player display's header (16 columns) and the phone page show it whole.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

MAX_NAME_LENGTH = 16
"""The longest name: a 16-column player display's header shows it whole on one line (`small_display.MIN_COLS`)."""

# Characters that draw as nothing but are not in a format category (Cf): the combining grapheme joiner,
# the Hangul fillers, the Mongolian vowel separator and the Braille blank.
_INVISIBLE = frozenset("\u034f\u115f\u1160\u3164\uffa0\u180e\u2800")
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})
# Line and paragraph separators, and every other space, become one ordinary space.
_SPACE_CATEGORIES = frozenset({"Zs", "Zl", "Zp"})
_VARIATION_SELECTORS = frozenset(chr(c) for c in (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)))


def _cleaned(text: str) -> str:
    out = []
    for char in text:
        if char in "\t\n\r\v\f" or unicodedata.category(char) in _SPACE_CATEGORIES:
            out.append(" ")
        elif unicodedata.category(char) in _DROPPED_CATEGORIES or char in _INVISIBLE:
            continue
        else:
            out.append(char)
    return " ".join("".join(out).split())


def normal_name(raw: str) -> str:
    """`raw` as the table keeps it: NFC, no control, format or zero-width characters, single spaces, trimmed."""
    return _cleaned(unicodedata.normalize("NFC", raw))


def look(name: str) -> str:
    """What `name` looks like, for comparing: two names with the same look cannot both sit at one table.

    Compatibility forms folded (NFKC: full-width letters, ligatures), case folded, and the characters that
    draw as nothing (zero-width, variation selectors) removed.
    """
    folded = unicodedata.normalize("NFKC", _cleaned(name)).casefold()
    return unicodedata.normalize("NFKC", "".join(c for c in _cleaned(folded) if c not in _VARIATION_SELECTORS))


def name_problem(raw: str, others: Iterable[str] = ()) -> str | None:
    """Why `raw` cannot be a player's name beside `others` (the table's other names), in one sentence; or None."""
    name = normal_name(raw)
    if not name:
        return "Every player needs a name."
    if len(name) > MAX_NAME_LENGTH:
        return (
            f"A name can have at most {MAX_NAME_LENGTH} characters so that every display shows it whole; "
            f"this one has {len(name)}."
        )
    mine = look(name)
    for other in others:
        if look(other) == mine and normal_name(other):
            if normal_name(other) == name:
                return f"Two players have the same name, {name}; give each a different one."
            return f"{name} and {normal_name(other)} look like the same name; give each player a different one."
    return None


def table_problem(names: Sequence[str]) -> str | None:
    """The first problem with the names of a whole table (seat order), in one sentence; None if all are fine."""
    for seat, name in enumerate(names):
        problem = name_problem(name, names[:seat])
        if problem is not None:
            return problem
    return None


__all__ = ["MAX_NAME_LENGTH", "look", "name_problem", "normal_name", "table_problem"]
