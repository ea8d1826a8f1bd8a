"""A player's private view as lines for a small text screen (20×4, 21×8, …).

`render_view` returns pages: each page is exactly `rows` lines of at most
`cols` characters, and the first line of every page names the player and the
page, so a glance says whose secrets these are. Quin views get a layout made
for the game; any other game's view falls back to "key: value" lines. A view
that does not parse never raises here: it falls back too.
"""

from __future__ import annotations

import logging
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

log = logging.getLogger(__name__)

Page = list[str]

# Short names for narrow screens, longest first where they compete for room.
_SHORT = {
    "Artificial Light": ("Art.Light", "A.Light", "AL"),
    "Peripheral": ("Periph.", "Peri"),
    "Reflector": ("Reflect.", "Refl"),
    "Memory": ("Memory", "Mem"),
    "Shadow": ("Shadow", "Shad"),
    "Light": ("Light",),
    "Time": ("Time",),
    "Void": ("Void",),
}
_WHERE = {
    "board": ("board", "brd"),
    "zero-g": ("zero-G", "0-G"),
    "captured": ("captured", "capt"),
    "removed": ("removed", "gone"),
    "off": ("off", "off"),
}


def render_view(view: Mapping[str, Any] | None, cols: int, rows: int) -> list[Page]:
    """The pages that show `view` on a `cols`×`rows` screen (at least one)."""
    cols, rows = max(cols, 1), max(rows, 1)
    if not view:
        return [fit(["No game", "in progress"], cols, rows)]
    player = str(view.get("player", ""))
    try:
        body = _quin(view, cols) if view.get("game") == "quin" else _generic(view, cols)
    except Exception:
        log.exception("could not lay out a %s view; showing it plainly", view.get("game"))
        body = _generic(view, cols)
    return paginate(player, body, cols, rows)


def neutral(cols: int, rows: int, title: str = "Tabletop Companion", note: str = "") -> Page:
    """A screen without any secret: shown to displays that belong to nobody in this game."""
    lines = [title, *wrap(note, cols)] if note else [title]
    return fit(lines, cols, rows)


def pairing(code: str, cols: int, rows: int) -> Page:
    """What the host would draw for pairing, were it to draw it itself (the device does)."""
    return fit(["Pair this display:", " ".join(code), "Tap your name on", "the table screen."], cols, rows)


def paginate(player: str, body: Sequence[str], cols: int, rows: int) -> list[Page]:
    """Cut `body` into pages under a header line naming `player` and the page number."""
    per_page = max(rows - 1, 1)
    chunks = [list(body[i : i + per_page]) for i in range(0, len(body), per_page)] or [[]]
    pages = []
    for number, chunk in enumerate(chunks, 1):
        mark = f"{number}/{len(chunks)}" if len(chunks) > 1 else ""
        header = _header(player, mark, cols) if rows > 1 else ""
        lines = [header, *chunk] if rows > 1 else chunk
        pages.append(fit(lines, cols, rows))
    return pages


def fit(lines: Sequence[str], cols: int, rows: int) -> Page:
    """Exactly `rows` lines, each cut to `cols` characters (no padding)."""
    out = [line[:cols].rstrip() for line in lines[:rows]]
    return out + [""] * (rows - len(out))


def wrap(text: str, cols: int, indent: str = "") -> list[str]:
    return textwrap.wrap(text, cols, subsequent_indent=indent, break_long_words=True) or [""]


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
    pages = []
    for number, chunk in enumerate(chunks, 1):
        title = f"{mark} {number}/{len(chunks)}" if len(chunks) > 1 else mark
        pages.append(fit([_title(player, title, cols), *chunk] if rows > 1 else chunk, cols, rows))
    return pages


def short_kind(kind: str, room: int) -> str:
    """A Quin identity in at most `room` characters: whole if it fits, else "Art.Light", "AL"…"""
    return kind if len(kind) <= room else _short(kind, _SHORT, room)


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


# -- Quin -----------------------------------------------------------------------


def _short(word: str, choices: Mapping[str, tuple[str, ...]], room: int) -> str:
    for option in choices.get(word, (word,)):
        if len(option) <= room:
            return option
    return word[:room]


def _quin(view: Mapping[str, Any], cols: int) -> list[str]:
    lines: list[str] = []
    phase = view.get("phase")
    player = view.get("player")
    turn = view.get("turn")
    if phase == "over":
        lines.append("Game over")
    elif phase == "setup":
        lines.append("Setting up")
    elif turn is None:
        lines.append("Waiting")
    elif turn == player:
        lines.append("Your turn")
    else:
        lines.append(f"{turn}'s turn")
    if phase == "setup" and isinstance(view.get("setup"), Mapping):
        # While setting up, what is left to do matters, not the powers.
        lines.extend(_setup(view["setup"], cols))
    else:
        flash = view.get("last_flash")
        if flash:
            lines.extend(wrap(f"Flash: {flash}", cols, "  "))
        lines.extend(_powers(view, cols))
    lines.extend(_pieces(view.get("pieces") or [], cols))
    return lines


def _powers(view: Mapping[str, Any], cols: int) -> list[str]:
    lines = []
    powers = view.get("powers") or {}
    moves = view.get("artificial_light_moves")
    if moves is not None:
        lines.append(_pair("AL moves", str(moves), cols))
    if powers.get("time") in ("ready", "used"):
        lines.append(_pair("Time", str(powers["time"]), cols))
    if powers.get("totem"):
        lines.append(_pair("Totem", str(powers["totem"]), cols))
    for label, left in (powers.get("memory_swaps_left") or {}).items():
        lines.append(_pair(f"Memory {label} swaps", str(left), cols))
    return lines


def _setup(setup: Mapping[str, Any], cols: int) -> list[str]:
    lines = []
    if setup.get("done"):
        lines.append("Ready: waiting for")
        lines.append("the other player")
    clone = setup.get("clone")
    source = setup.get("clone_from")
    if clone and source:
        lines.extend(wrap(f"Clone: {source} > {clone}", cols, "  "))
    elif clone:
        lines.extend(wrap(f"Clone: {clone}", cols, "  "))
    else:
        lines.append("Clone: not chosen")
    board, zero_g = setup.get("on_board"), setup.get("on_zero_g")
    if board is not None and zero_g is not None:
        lines.append(f"Board {board}/10 0-G {zero_g}/7" if cols < 22 else f"Board {board}/10  Zero-G {zero_g}/7")
    needed = setup.get("needed") or {}
    assigned = setup.get("assigned") or {}
    short = [
        f"{_short(str(kind), _SHORT, 8)} {assigned.get(kind, 0)}/{count}"
        for kind, count in needed.items()
        if assigned.get(kind, 0) != count
    ]
    if short:
        lines.extend(wrap("Still: " + ", ".join(short), cols, "  "))
    for problem in setup.get("problems") or []:
        lines.extend(wrap(f"- {problem}", cols, "  "))
    return lines


def _pair(name: str, value: str, cols: int) -> str:
    gap = cols - len(name) - len(value)
    return f"{name}{' ' * gap}{value}" if gap >= 1 else f"{name[: max(cols - len(value) - 1, 1)]} {value}"


def _pieces(pieces: Sequence[Mapping[str, Any]], cols: int) -> list[str]:
    if not pieces:
        return []
    width = max(len(str(p.get("label", ""))) for p in pieces)
    return [piece_line(piece, cols, width) for piece in pieces]


def piece_line(piece: Mapping[str, Any], cols: int, width: int = 2) -> str:
    """One of a player's pieces: label (right-aligned in `width`), identity, ``*`` if seen, where it is."""
    label = str(piece.get("label", "?")).rjust(width)
    mark = "*" if piece.get("revealed") else " "  # "*": the rival has seen it
    where_room = 8 if cols >= width + 20 else 4
    where = _short(str(piece.get("where", "")), _WHERE, where_room)
    ident_room = max(cols - width - 1 - 1 - where_room - 1, 2)
    identity = piece.get("identity") or "?"
    name = _short(str(identity), _SHORT, ident_room)
    return f"{label} {name:<{ident_room}}{mark}{where:>{where_room}}"[:cols]


# -- any other game ---------------------------------------------------------------------


_SKIP = {"game", "player"}


def _generic(view: Mapping[str, Any], cols: int, indent: str = "") -> list[str]:
    lines: list[str] = []
    for key, value in view.items():
        if key in _SKIP and not indent:
            continue
        name = f"{indent}{str(key).replace('_', ' ')}"
        if isinstance(value, Mapping):
            lines.append(f"{name}:")
            lines.extend(_generic(value, cols, indent + " "))
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
