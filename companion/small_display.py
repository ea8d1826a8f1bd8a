"""What a small player display shows: a private view as pages of text, and a game's menus on a few keys.

A player display is a screen of `cols` × `rows` characters (16×8, 20×4, 21×8…)
and a few keys, bound to one player (see ``hardware.display``). It shows that
player's private view, and nothing else. This module is the game-neutral
part, pure Python (the hardware layer draws what it gets here):

- `Page`: one screen, exactly `rows` lines of at most `cols` characters; the
  first line names the player (and the page, ``2/3``), so a glance says whose
  secrets these are. `fit`, `wrap`, `paginate`, `menu_page`, `text_pages`
  and `neutral` make them.
- `GameDisplay`: what a game's own ``display.py`` provides (``Game.display``):
  its layout of the private view, and, if it has one, a `Menu` that turns
  display keys into the game's actions. A game without a display module gets
  `pages`, the plain "key: value" rendering of its view; `pages_for` picks.

The view is the player's own view as the game makes it (``Session.own_view``):
typed, a frozen `GameView` whose fields a game's layout reads; the plain
layout reads any view's fields in the order and under the names its JSON has
(`companion.codec.entries`), without making JSON. A game whose views are dicts
(the test game Pig) is read the same way.

No cut changes meaning. A line never loses its end to the screen's edge:
text is wrapped at its words (a word is broken only when it is longer than a
whole line, and then nothing of it is lost), a layout that does not fit on one
line takes two, and a list or a text too long for a screen goes on over pages.
Short forms are for the game to declare (`abbreviate`), whole words only.

The player's name is never shortened either: no "Bartholo…". The header is
what tells whose secrets a page holds, and a cut name could be the other
player's (Anna and Annabel), while the 8×8 font of the OLED firmware has no
"…" anyway. A name and its mark (``2/3``, ``Refused``) that do not fit on one
line take one line each; a name longer than the screen wraps (the mark beside
its last line if there is room). A screen the header would fill is "Screen
too small", and so is any screen below `MIN_COLS` × `MIN_ROWS`: `pages_for`
shows that neutral screen instead of a private view.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, is_dataclass
from typing import Any, Protocol

from companion import codec
from companion.game import Action, GameView

log = logging.getLogger(__name__)

Page = list[str]
"""One screen: exactly `rows` lines, each at most `cols` characters."""

OwnView = GameView | Mapping[str, Any]
"""A player's own view as their game makes it: typed (a `GameView`), or a dict in a game whose views are dicts."""

UP = frozenset({"up", "prev", "left"})
DOWN = frozenset({"down", "next", "right"})
OK = frozenset({"ok", "enter", "select"})
BACK = frozenset({"back", "cancel", "esc"})
MENU_KEYS = UP | DOWN | OK | BACK
"""The keys a menu takes (up and down turn the pages where there is no menu); other keys go on to the table."""


class Menu(Protocol):
    """Where one player is in a game's menu on their own display. Immutable: every key gives a new one."""

    def press(self, view: OwnView, key: str, cols: int, rows: int) -> tuple[Menu, Action | Mapping[str, Any] | None]:
        """The menu after `key` (one of `MENU_KEYS`) and, if the key confirmed a choice, the action to play.

        The action is a typed `Action` or its JSON object (``Session.act`` takes either).
        """
        ...

    def refused(self, sentence: str) -> Menu:
        """The menu showing the rules' refusal `sentence`, then going back to where the choice was made."""
        ...

    def lines(self, view: OwnView, cols: int, rows: int) -> Page:
        """The screen that shows this menu for `view`."""
        ...


class GameDisplay(Protocol):
    """What a game's ``display.py`` provides: its private view on a small screen, and its menu.

    `view` is always that player's own view, typed (`Session.own_view`): the layout reads its fields.
    """

    def pages(self, view: OwnView, cols: int, rows: int) -> list[Page]:
        """`view` laid out for the game, cut into pages (at least one)."""
        ...

    def menu_for(self, view: OwnView, menu: Menu | None) -> Menu | None:
        """The menu to show with `view` (`menu`: the one the player had; None: none yet), or None for the pages.

        A menu showing a refusal stays until it is read, whatever the view.
        """
        ...


# -- the pages of any view ----------------------------------------------------------------


def pages_for(view: OwnView | None, cols: int, rows: int, display: GameDisplay | None = None) -> list[Page]:
    """The pages that show `view` on a `cols`×`rows` screen: the game's layout (`display`), else plain lines.

    Below `MIN_COLS` × `MIN_ROWS` a private view is not drawn at all (`too_small`).
    Never raises on a view the game's layout cannot read, and never cuts a
    page the layout made too big: such a view is shown plainly.
    """
    cols, rows = max(cols, 1), max(rows, 1)
    if not view:
        return [fit(["No game", "in progress"], cols, rows)]
    if is_too_small(cols, rows):
        return [too_small(cols, rows)]
    if display is not None:
        try:
            laid_out = display.pages(view, cols, rows)
        except Exception:
            log.exception("could not lay out a %s view; showing it plainly", _entry(view, "game"))
        else:
            if laid_out and all(fits(page, cols, rows) for page in laid_out):
                return [fit(page, cols, rows) for page in laid_out]
            if laid_out:
                log.warning("a %s page does not fit %dx%d; showing it plainly", _entry(view, "game"), cols, rows)
    return pages(view, cols, rows)


def pages(view: OwnView, cols: int, rows: int) -> list[Page]:
    """Any game's private view as plain "key: value" lines, under a header naming its player."""
    cols, rows = max(cols, 1), max(rows, 1)
    return paginate(player_of(view), plain_lines(view, cols), cols, rows)


def plain_lines(view: OwnView, cols: int, indent: str = "") -> list[str]:
    """`view` as "key: value" lines wrapped to `cols` (nested records indented), without its game and player."""
    lines: list[str] = []
    for key, value in _entries(view):
        if key in _NAMED_ELSEWHERE and not indent:
            continue
        name = f"{indent}{str(key).replace('_', ' ')}"
        if _is_record(value):
            lines.append(f"{name}:")
            lines.extend(plain_lines(value, cols, indent + " "))
        elif isinstance(value, list | tuple):
            if not any(_is_record(v) or isinstance(v, list | tuple) for v in value):
                lines.extend(wrap(f"{name}: {', '.join(_plain(v) for v in value)}", cols, indent + "  "))
            else:
                lines.append(f"{name}:")
                for item in value:
                    if _is_record(item):
                        lines.extend(wrap(" ".join(_plain(v) for _k, v in _entries(item)), cols, indent + "  "))
                    else:
                        lines.extend(wrap(_plain(item), cols, indent + "  "))
        else:
            lines.extend(wrap(f"{name}: {_plain(value)}", cols, indent + "  "))
    return lines


_NAMED_ELSEWHERE = {"game", "player"}  # the header names the player; the game is the one being played


def _is_record(value: object) -> bool:
    """Whether `value` has named parts of its own: a typed record (a dataclass, an `Outcome`) or a map."""
    return isinstance(value, Mapping) or (is_dataclass(value) and not isinstance(value, type))


def _entries(record: Any) -> list[tuple[str, Any]]:
    """A record's named parts in the order, and under the names, its JSON has them."""
    return [(str(k), v) for k, v in record.items()] if isinstance(record, Mapping) else codec.entries(record)


def player_of(view: OwnView) -> str:
    """Whose own view `view` is: the name every page's header shows ("" for a view that names nobody)."""
    player = _entry(view, "player")
    return "" if player is None else str(player)


def _entry(view: OwnView, name: str) -> Any:
    """The part of `view` its JSON calls `name` (the header's ``player``, a log line's ``game``), or None."""
    return next((value for key, value in _entries(view) if key == name), None)


def _plain(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value)
    if _is_record(value):
        return ", ".join(f"{k} {_plain(v)}" for k, v in _entries(value))
    return str(value)


# -- screens without a secret ------------------------------------------------------------------

MIN_COLS, MIN_ROWS = 16, 4
"""The smallest screen a private view is drawn on (the OLED firmware's 16×8 and a 20×4 LCD are above it)."""


def is_too_small(cols: int, rows: int) -> bool:
    """Whether a `cols`×`rows` screen is below the size private views are laid out for."""
    return cols < MIN_COLS or rows < MIN_ROWS


def too_small(cols: int, rows: int) -> Page:
    """The neutral screen shown instead of a private view that would not fit without cuts."""
    return neutral(cols, rows, "Screen too small")


def neutral(cols: int, rows: int, title: str = "Tabletop Companion", note: str = "") -> Page:
    """A screen without any secret: shown to displays that belong to nobody in this game."""
    cols = max(cols, 1)
    return fit([*wrap(title, cols), *(wrap(note, cols) if note else [])], cols, rows)


# -- laying out text -------------------------------------------------------------------------

Block = str | Sequence[str]
"""Lines that belong together on one page: a text (wrapped to the screen), or lines already laid out."""


def fits(page: Sequence[str], cols: int, rows: int) -> bool:
    """Whether `page` has at most `rows` lines of at most `cols` characters (nothing to cut)."""
    return len(page) <= rows and all(len(line) <= cols for line in page)


def fit(lines: Sequence[str], cols: int, rows: int) -> Page:
    """Exactly `rows` lines: a line longer than `cols` is wrapped at its words, never cut.

    Lines past `rows` are left off, so whatever can be longer than a screen
    goes through `paginate`, `text_pages` or `menu_page` first.
    """
    cols = max(cols, 1)
    out = [part.rstrip() for line in lines for part in (wrap(line, cols) if len(line) > cols else [line])][:rows]
    return out + [""] * (rows - len(out))


def wrap(text: str, cols: int, indent: str = "") -> list[str]:
    """`text` in lines of at most `cols` characters, broken at spaces; the following lines indented by `indent`.

    A word is broken only if it is longer than a whole line (a long name):
    it starts a line of its own and goes on over the next, nothing of it
    lost. The indent goes if a word would fit a line but not behind it.
    """
    cols = max(cols, 1)
    words = text.split()
    if any(len(word) > cols - len(indent) for word in words):
        indent = ""
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) <= cols:
            line = f"{line} {word}"
            continue
        if line:
            lines.append(line)
        line = f"{indent if lines else ''}{word}"
        while len(line) > cols:  # a word longer than a line: it goes on over the next
            lines.append(line[:cols])
            line = line[cols:]
    return [*lines, line] if line else lines or [""]


def paginate(player: str, body: Sequence[Block], cols: int, rows: int) -> list[Page]:
    """`body` over pages under a header naming `player` and the page number.

    Lines laid out together (a piece and its place) stay on one page, and
    make the screen too small if no page can hold them; a text (a sentence,
    wrapped here) goes on over the next page, between two of its lines.
    """
    cols, rows = max(cols, 1), max(rows, 1)
    groups = [_Group(_lines_of(block, cols), runs_on=isinstance(block, str)) for block in body]
    return _pages(player, "", groups, cols, rows) or [too_small(cols, rows)]


def text_pages(player: str, mark: str, text: str, cols: int, rows: int) -> list[Page]:
    """`text` wrapped to the screen, a page at a time, under a header naming `player` and ``mark n/m``."""
    cols, rows = max(cols, 1), max(rows, 1)
    groups = [_Group([line], runs_on=True) for line in wrap(text, cols)]  # it may turn the page between any lines
    return _pages(player, mark, groups, cols, rows) or [too_small(cols, rows)]


def menu_page(
    player: str, mark: str | Sequence[str], items: Sequence[Block], cursor: int, cols: int, rows: int
) -> Page:
    """One screen of a list: the header (`player`, `mark`), then the items around `cursor`, marked ``>``.

    An item is one line or several (wrapped to the screen); only whole items
    are shown. `mark` may be a few forms, longest first: the first that fits
    beside the name is used, else the first on a line of its own.
    """
    cols, rows = max(cols, 1), max(rows, 1)
    head = header(player, mark, cols) if rows > 1 else []
    room = rows - len(head)
    if room < 1:
        return too_small(cols, rows)
    cursor = min(max(cursor, 0), max(len(items) - 1, 0))
    shown = [_item_lines(item, i == cursor, cols) for i, item in enumerate(items)]
    if not shown:
        return fit(head, cols, rows)
    if len(shown[cursor]) > room:
        return too_small(cols, rows)
    # The cursor stays near the middle, so the items before and after it are both in sight.
    first = last = cursor
    used = len(shown[cursor])
    before = (room - used) // 2
    if cursor > 0:  # at least the item just before, where it fits: after a choice, what was chosen stays in sight
        before = max(before, min(len(shown[cursor - 1]), room - used))
    half = used + before
    while first > 0 and used + len(shown[first - 1]) <= half:
        first -= 1
        used += len(shown[first])
    while last + 1 < len(shown) and used + len(shown[last + 1]) <= room:
        last += 1
        used += len(shown[last])
    while first > 0 and used + len(shown[first - 1]) <= room:  # near the end: more of what came before
        first -= 1
        used += len(shown[first])
    return fit([*head, *(line for item in shown[first : last + 1] for line in item)], cols, rows)


def _item_lines(item: Block, chosen: bool, cols: int) -> list[str]:
    """A list item's lines behind the cursor column: ``>`` on the first line of the chosen one."""
    lines = _lines_of(item, max(cols - 1, 1))
    return [f"{'>' if chosen and n == 0 else ' '}{line}" for n, line in enumerate(lines)]


def header(player: str, mark: str | Sequence[str], cols: int, *, mark_alone: bool = False) -> list[str]:
    """The lines that start a page: `player`'s whole name, and `mark` (right-aligned) beside it if it fits.

    `mark` may be a few forms, longest first. A name longer than a line
    wraps, and the mark goes beside its last line if it fits there. Otherwise
    (or with `mark_alone`) the mark has a line of its own under the name, so
    that neither is ever cut.
    """
    cols = max(cols, 1)
    forms = [mark] if isinstance(mark, str) else [str(form) for form in mark]
    forms = [form for form in forms if form] or [""]
    names = wrap(player, cols) if player else [""]
    if not forms[0]:
        return names
    if not mark_alone:
        last = names[-1]  # a name too long for a line wraps; the mark may still fit beside its end
        for form in forms:
            if len(last) + 1 + len(form) <= cols or (not last and len(form) <= cols):
                return [*names[:-1], f"{last}{' ' * (cols - len(last) - len(form))}{form}"]
    alone = next((form for form in forms if len(form) <= cols), forms[-1])
    return [*(names if player else []), *(line.rjust(cols) for line in wrap(alone, cols))]


def abbreviate(word: str, forms: Mapping[str, Sequence[str]], room: int) -> str:
    """`word` in at most `room` characters if it can be: whole, else the first of its declared `forms` that fits.

    Never a cut: if none fits, the shortest form comes back longer than
    `room`, and the caller gives it a line of its own.
    """
    candidates = [word, *(form for form in forms.get(word, ()) if form != word)]
    return next((form for form in candidates if len(form) <= room), candidates[-1])


def name_value(name: str | Sequence[str], value: str, cols: int) -> list[str]:
    """`name` on the left and `value` on the right of one line; if they do not fit, the value under the name.

    `name` may be a few forms, longest first: the first that fits beside the
    value is used, else the first that fits a line.
    """
    cols = max(cols, 1)
    forms = [name] if isinstance(name, str) else [str(form) for form in name]
    for form in forms:
        gap = cols - len(form) - len(value)
        if gap >= 1:
            return [f"{form}{' ' * gap}{value}"]
    alone = next((form for form in forms if len(form) <= cols), forms[-1])
    return [*wrap(alone, cols), *(line.rjust(cols) for line in wrap(value, cols))]


def _lines_of(block: Block, cols: int) -> list[str]:
    """A block as lines of at most `cols` characters: a text wrapped (following lines indented), lines kept."""
    if isinstance(block, str):
        return wrap(block, cols, "  ")
    return [part for line in block for part in (wrap(line, cols, "  ") if len(line) > cols else [line])] or [""]


@dataclass(frozen=True)
class _Group:
    """Lines to keep on one page, or (`runs_on`) a text that may go on over the next page."""

    lines: Sequence[str]
    runs_on: bool


def _pages(player: str, mark: str, groups: Sequence[_Group], cols: int, rows: int) -> list[Page] | None:
    """`groups` of lines over pages, each under a header naming `player` and ``mark n/m``; None if they cannot be.

    The header's height depends on the number of pages (``10/10`` may not
    fit beside the name where ``1/1`` did), and the number of pages on the
    room the header leaves. So the room is set by the widest mark of as many
    digits as the count may have, one digit more at a time, until the count
    has no more digits than that.
    """

    def page_mark(number: int, total: int) -> str:
        return " ".join(part for part in (mark, f"{number}/{total}" if total > 1 else "") if part)

    if rows < 2:  # no room for a header: the body alone
        bodies = _pack(groups, rows)
        return None if bodies is None else [fit(body, cols, rows) for body in bodies]
    widest, digits = page_mark(1, 1), 0
    while True:
        alone = len(header(player, widest, cols)) > len(header(player, "", cols))  # then every mark is alone
        height = len(header(player, widest, cols))
        bodies = _pack(groups, rows - height)
        if bodies is None:
            return None
        total = len(bodies)
        if len(str(total)) <= digits or total == 1:
            break
        digits += 1
        widest = page_mark(10**digits - 1, 10**digits - 1)
    pages = []
    for number, body in enumerate(bodies, 1):
        head = header(player, page_mark(number, total), cols, mark_alone=alone)
        head += [""] * (height - len(head))  # a narrower mark on a page: the same room as on every other
        pages.append(fit([*head, *body], cols, rows))
    return pages


def _pack(groups: Sequence[_Group], room: int) -> list[list[str]] | None:
    """`groups` in pages of `room` lines; None if there is no room, or lines that belong together do not fit one."""
    if room < 1:
        return None
    bodies: list[list[str]] = [[]]
    for group in groups:
        lines = list(group.lines)
        if len(lines) > room and not group.runs_on:
            return None
        if bodies[-1] and len(bodies[-1]) + len(lines) > room and not group.runs_on:
            bodies.append([])  # kept together on the next page
        while len(lines) > room - len(bodies[-1]):  # a text goes on over the next page
            free = room - len(bodies[-1])
            bodies[-1].extend(lines[:free])
            lines = lines[free:]
            bodies.append([])
        bodies[-1].extend(lines)  # never empty: a group has lines, and only a full page starts another
    return bodies
