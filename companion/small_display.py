"""What a small player display shows: a private view as pages of text, and a game's menus on a few keys.

A player display is a screen of `cols` × `rows` characters (20×4, 21×8, …)
and a few keys, bound to one player (see ``hardware.display``). It shows that
player's private view, and nothing else. This module is the game-neutral
part, pure Python (the hardware layer draws what it gets here):

- `Page`: one screen, exactly `rows` lines of at most `cols` characters; the
  first line names the player (and the page, ``2/3``), so a glance says whose
  secrets these are. `fit`, `wrap`, `paginate`, `menu_page`, `text_pages`,
  `neutral` and `pairing` make them.
- `GameDisplay`: what a game's own ``display.py`` provides (``Game.display``):
  its layout of the private view, and, if it has one, a `Menu` that turns
  display keys into the game's actions. A game without a display module gets
  `pages`, the plain "key: value" rendering of its view; `pages_for` picks.

How keys become actions, for a game whose `GameDisplay.menu_for` offers a menu::

    menu = display.menu_for(view, menu)             # None: show the pages instead
    menu, action = menu.press(view, key, cols, rows)   # a key from MENU_KEYS
    session.act(action)                              # if the key confirmed one...
    menu = menu.refused(sentence)                    # ...and if the rules said no

A menu never judges a choice: the rules do, and their refusal is shown on that
player's display only (`Menu.refused`). Menus are immutable values, one per
player, kept by whoever drives the display.
"""

from __future__ import annotations

import logging
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from companion.game import Action, View

log = logging.getLogger(__name__)

Page = list[str]
"""One screen: exactly `rows` lines, each at most `cols` characters."""

UP = frozenset({"up", "prev", "left"})
DOWN = frozenset({"down", "next", "right"})
OK = frozenset({"ok", "enter", "select"})
BACK = frozenset({"back", "cancel", "esc"})
MENU_KEYS = UP | DOWN | OK | BACK
"""The keys a menu takes (up and down turn the pages where there is no menu); other keys go on to the table."""


class Menu(Protocol):
    """Where one player is in a game's menu on their own display. Immutable: every key gives a new one."""

    def press(self, view: View, key: str, cols: int, rows: int) -> tuple[Menu, Action | Mapping[str, Any] | None]:
        """The menu after `key` (one of `MENU_KEYS`) and, if the key confirmed a choice, the action to play.

        The action is a typed `Action` or its JSON object (``Session.act`` takes either).
        """
        ...

    def refused(self, sentence: str) -> Menu:
        """The menu showing the rules' refusal `sentence`, then going back to where the choice was made."""
        ...

    def lines(self, view: View, cols: int, rows: int) -> Page:
        """The screen that shows this menu for `view`."""
        ...


class GameDisplay(Protocol):
    """What a game's ``display.py`` provides: its private view on a small screen, and its menu.

    `view` is always that player's own `private_view`.
    """

    def pages(self, view: View, cols: int, rows: int) -> list[Page]:
        """`view` laid out for the game, cut into pages (at least one)."""
        ...

    def menu_for(self, view: View, menu: Menu | None) -> Menu | None:
        """The menu to show with `view` (`menu`: the one the player had; None: none yet), or None for the pages.

        A menu showing a refusal stays until it is read, whatever the view.
        """
        ...


# -- the pages of any view ----------------------------------------------------------------


def pages_for(view: View | None, cols: int, rows: int, display: GameDisplay | None = None) -> list[Page]:
    """The pages that show `view` on a `cols`×`rows` screen: the game's layout (`display`), else plain lines.

    Never raises on a view the game's layout cannot read: that view is shown plainly.
    """
    cols, rows = max(cols, 1), max(rows, 1)
    if not view:
        return [fit(["No game", "in progress"], cols, rows)]
    if display is not None:
        try:
            laid_out = [fit(page, cols, rows) for page in display.pages(view, cols, rows)]
        except Exception:
            log.exception("could not lay out a %s view; showing it plainly", view.get("game"))
        else:
            if laid_out:
                return laid_out
    return pages(view, cols, rows)


def pages(view: View, cols: int, rows: int) -> list[Page]:
    """Any game's private view as plain "key: value" lines, under a header naming its player."""
    cols, rows = max(cols, 1), max(rows, 1)
    return paginate(str(view.get("player", "")), plain_lines(view, cols), cols, rows)


def plain_lines(view: Mapping[str, Any], cols: int, indent: str = "") -> list[str]:
    """`view` as "key: value" lines wrapped to `cols` (nested maps indented), without its game and player."""
    lines: list[str] = []
    for key, value in view.items():
        if key in _NAMED_ELSEWHERE and not indent:
            continue
        name = f"{indent}{str(key).replace('_', ' ')}"
        if isinstance(value, Mapping):
            lines.append(f"{name}:")
            lines.extend(plain_lines(value, cols, indent + " "))
        elif isinstance(value, list | tuple):
            if all(not isinstance(v, Mapping | list | tuple) for v in value):
                lines.extend(wrap(f"{name}: {', '.join(_plain(v) for v in value)}", cols, indent + "  "))
            else:
                lines.append(f"{name}:")
                for item in value:
                    if isinstance(item, Mapping):
                        lines.extend(wrap(" ".join(_plain(v) for v in item.values()), cols, indent + "  "))
                    else:
                        lines.extend(wrap(_plain(item), cols, indent + "  "))
        else:
            lines.extend(wrap(f"{name}: {_plain(value)}", cols, indent + "  "))
    return lines


_NAMED_ELSEWHERE = {"game", "player"}  # the header names the player; the game is the one being played


def _plain(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    return str(value)


# -- screens without a secret ------------------------------------------------------------------


def neutral(cols: int, rows: int, title: str = "Tabletop Companion", note: str = "") -> Page:
    """A screen without any secret: shown to displays that belong to nobody in this game."""
    lines = [title, *wrap(note, cols)] if note else [title]
    return fit(lines, cols, rows)


def pairing(code: str, cols: int, rows: int) -> Page:
    """What the host would draw for pairing, were it to draw it itself (the device does)."""
    return fit(["Pair this display:", " ".join(code), "Tap your name on", "the table screen."], cols, rows)


# -- laying out text -------------------------------------------------------------------------


def fit(lines: Sequence[str], cols: int, rows: int) -> Page:
    """Exactly `rows` lines, each cut to `cols` characters (no padding)."""
    out = [line[:cols].rstrip() for line in lines[:rows]]
    return out + [""] * (rows - len(out))


def wrap(text: str, cols: int, indent: str = "") -> list[str]:
    """`text` in lines of at most `cols` characters, the following lines indented by `indent`."""
    return textwrap.wrap(text, cols, subsequent_indent=indent, break_long_words=True) or [""]


def paginate(player: str, body: Sequence[str], cols: int, rows: int) -> list[Page]:
    """Cut `body` into pages under a header line naming `player` and the page number."""
    per_page = max(rows - 1, 1)
    chunks = [list(body[i : i + per_page]) for i in range(0, len(body), per_page)] or [[]]
    out = []
    for number, chunk in enumerate(chunks, 1):
        mark = f"{number}/{len(chunks)}" if len(chunks) > 1 else ""
        header = _header(player, mark, cols) if rows > 1 else ""
        lines = [header, *chunk] if rows > 1 else chunk
        out.append(fit(lines, cols, rows))
    return out


def menu_page(player: str, mark: str, items: Sequence[str], cursor: int, cols: int, rows: int) -> Page:
    """One screen of a list: the header (`player`, `mark`), then the items around `cursor`, marked ``>``."""
    cols, rows = max(cols, 1), max(rows, 1)
    room = max(rows - 1, 1) if rows > 1 else 1
    cursor = min(max(cursor, 0), max(len(items) - 1, 0))
    # The cursor stays near the middle, so the items before and after it are both in sight.
    start = max(0, min(cursor - (room - 1) // 2, len(items) - room))
    shown = [f"{'>' if i == cursor else ' '}{items[i]}" for i in range(start, min(start + room, len(items)))]
    return fit([_title(player, mark, cols), *shown] if rows > 1 else shown, cols, rows)


def text_pages(player: str, mark: str, text: str, cols: int, rows: int) -> list[Page]:
    """`text` wrapped to the screen, a page at a time, under a header naming `player` and ``mark n/m``."""
    cols, rows = max(cols, 1), max(rows, 1)
    body = wrap(text, cols)
    per_page = max(rows - 1, 1) if rows > 1 else 1
    chunks = [body[i : i + per_page] for i in range(0, len(body), per_page)]
    out = []
    for number, chunk in enumerate(chunks, 1):
        title = f"{mark} {number}/{len(chunks)}" if len(chunks) > 1 else mark
        out.append(fit([_title(player, title, cols), *chunk] if rows > 1 else chunk, cols, rows))
    return out


def abbreviate(word: str, forms: Mapping[str, Sequence[str]], room: int) -> str:
    """`word` in at most `room` characters: the first of its `forms` (longest first) that fits, else cut."""
    for form in forms.get(word, (word,)):
        if len(form) <= room:
            return form
    return word[:room]


def name_value(name: str, value: str, cols: int) -> str:
    """One line with `name` on the left and `value` on the right; the name gives way if the line is short."""
    gap = cols - len(name) - len(value)
    return f"{name}{' ' * gap}{value}" if gap >= 1 else f"{name[: max(cols - len(value) - 1, 1)]} {value}"


def _title(player: str, mark: str, cols: int) -> str:
    """A header whose `mark` gives way to the name: its first words go ("Refused 1/3" → "1/3")."""
    room = cols - min(len(player), max(cols // 2 - 2, 1)) - 1
    words = mark.split()
    while words and len(" ".join(words)) > room:
        words = words[1:]
    return _header(player, " ".join(words), cols)


def _header(player: str, mark: str, cols: int) -> str:
    room = cols - len(mark) - (1 if mark else 0)
    name = player[:room] if room > 0 else ""
    return f"{name}{' ' * (cols - len(name) - len(mark))}{mark}" if mark else name
