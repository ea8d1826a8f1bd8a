"""Quin on a player's own small display: their pieces and powers, and their private setup on four keys.

`pages(view, cols, rows)` lays out a Quin private view: whose turn it is,
the last flash, the powers left, then one line per piece (label, identity,
``*`` once the rival has seen it, where it is). While the player's setup is
unfinished it shows what is left to do instead of the powers.

Nothing is cut (the rule of ``companion.small_display``). A label always
shows all its digits; a place is always whole (board, zero-G, captured,
removed, off); an identity is whole or one of `SHORT_KINDS` ("Art.Light",
"Periph.", "Reflect."), never a bare prefix such as "Shad". A piece whose
line would be too long shows its place on the line below; the flash and the
setup's sentences are wrapped at their words. Screens below 16×4 show
"Screen too small".

`menu_for(view, menu)` offers the setup menu (`SetupMenu`) for as long as
that setup is unfinished: a small menu for four keys (up, down, ok, back).
`SetupMenu.press(view, key, cols, rows)` gives the next menu and, when the
player confirms a choice, the action to play (`Clone`, `Assign`, `Unassign`
or `SetupDone`, for the view's own player). The menu never
judges a choice: the rules do, and their refusal comes back through
`SetupMenu.refused(sentence)`, which shows the sentence until ok or back and
then returns to the list the choice was made in. Everything the menu shows
comes from the one private view it is given.

The lists (the cursor line starts with ``>``; up and down move it, wrapping):

- main: the Clone, every label with its identity and place, *Finish setup*;
- clone from / clone to: the face the Clone replaces, then what it becomes;
- label N: an identity (with how many of that kind have labels already),
  and *Take back* for a label that has one;
- place: *Board* (a starting point) or *Zero-G* (the card), with their counts.

Choosing a place sends ``assign`` and moves the cursor to the next label
without an identity, so pressing ok again and again walks a whole setup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from companion import codec
from companion.game import Action
from companion.games.quin.pieces import (
    ARTIFICIAL_LIGHT,
    CLONE_FROM,
    CLONE_TO,
    KINDS,
    PERIPHERAL,
    REFLECTOR,
    STARTING_POINTS,
    ZERO_G_AT_START,
)
from companion.games.quin.rules import Assign, Clone, SetupDone, Unassign
from companion.games.quin.state import BOARD, CAPTURED, OFF, OVER, REMOVED, SETUP, ZERO_G
from companion.games.quin.views import NotPlaying, OwnPiece, QuinOwnView, SetupSeen
from companion.small_display import (
    BACK,
    DOWN,
    MENU_KEYS,
    OK,
    UP,
    Block,
    Menu,
    Page,
    abbreviate,
    fit,
    is_too_small,
    menu_page,
    name_value,
    paginate,
    text_pages,
    too_small,
)

SHORT_KINDS: Mapping[str, str] = {
    ARTIFICIAL_LIGHT: "Art.Light",
    PERIPHERAL: "Periph.",
    REFLECTOR: "Reflect.",
}
"""The only short forms an identity has, for narrow screens: each marked by its ".", none shared, none a cut.

The other kinds (Light, Shadow, Time, Memory, Void) are short enough to be
shown whole on any screen a private view is drawn on.
"""
_SHORT: Mapping[str, tuple[str]] = {kind: (short,) for kind, short in SHORT_KINDS.items()}

PLACES: Mapping[str, str] = {BOARD: "board", ZERO_G: "zero-G", CAPTURED: "captured", REMOVED: "removed", OFF: "off"}
"""Where a piece is, as its line says it (always whole)."""

UNKNOWN = "?"
"""The identity of a label that has none yet (setup)."""


# -- the view ---------------------------------------------------------------------------------

OwnView = QuinOwnView | NotPlaying
"""What this module draws: a player's own view, typed (`companion.games.quin.views`), read field by field."""


# -- the pages ------------------------------------------------------------------------------


def pages(view: OwnView, cols: int, rows: int) -> list[Page]:
    """A Quin private view on a `cols`×`rows` screen, a header naming the player on every page."""
    if is_too_small(cols, rows):
        return [too_small(cols, rows)]
    if isinstance(view, NotPlaying):
        return paginate(view.player, [view.error], cols, rows)
    return paginate(view.player, _body(view, cols), cols, rows)


def short_kind(kind: str, room: int) -> str:
    """A Quin identity in at most `room` characters if it can be: whole, else its `SHORT_KINDS` form.

    Never cut: where even the short form is longer, it comes back as it is.
    """
    return abbreviate(kind, _SHORT, room)


def piece_lines(piece: OwnPiece, cols: int, width: int = 2) -> list[str]:
    """One of a player's pieces: label (right-aligned in `width`), identity, ``*`` if seen, where it is.

    One line if the whole label, the identity (whole, else its short form)
    and the place fit in `cols`; else the place goes on the line below.
    """
    label = piece.label.rjust(width)
    kind = piece.identity or UNKNOWN
    mark = "*" if piece.revealed else ""  # "*": the rival has seen it
    place = PLACES.get(piece.where, piece.where)
    for name in dict.fromkeys((kind, short_kind(kind, 0))):
        left = f"{label} {name}{mark}"
        if len(left) + 1 + len(place) <= cols:
            return [f"{left}{place:>{cols - len(left)}}"]
    left = f"{label} {short_kind(kind, cols - len(label) - 1 - len(mark))}{mark}"
    return [left, place.rjust(cols)] if place else [left]


def clone_lines(taken: str, made: str, cols: int) -> list[str]:
    """The Clone (`taken` becomes `made`): on as few lines as fit `cols`, whole names before short ones."""
    names = [
        (a, b) for a in dict.fromkeys((taken, short_kind(taken, 0))) for b in dict.fromkeys((made, short_kind(made, 0)))
    ]
    layouts = [
        *([f"Clone: {a} > {b}"] for a, b in names),
        *([f"Clone: {a}>{b}"] for a, b in names),
        *([f"Clone: {a}", f"  > {b}"] for a, b in names),
        *(["Clone:", f" {a} > {b}"] for a, b in names),
        *(["Clone:", f" {a}>{b}"] for a, b in names),
        *(["Clone:", f" {a}", f" > {b}"] for a, b in names),
    ]
    return next((lines for lines in layouts if all(len(line) <= cols for line in lines)), layouts[-1])


def _body(view: QuinOwnView, cols: int) -> list[Block]:
    lines: list[Block] = [_whose_turn(view)]
    if view.phase == SETUP and view.setup is not None:
        # While setting up, what is left to do matters, not the powers.
        lines.extend(_setup_left(view.setup, cols))
    else:
        if view.last_flash:
            lines.append(f"Flash: {view.last_flash}")
        lines.extend(_powers(view, cols))
    lines.extend(_pieces_lines(view.pieces, cols))
    return lines


def _whose_turn(view: QuinOwnView, *, setting_up: str = "Setting up", theirs: str = "{}'s turn") -> str:
    """The turn line: short for a small display, in the phone's own words when it asks (`setting_up`, `theirs`)."""
    phase, turn = view.phase, view.turn
    if phase == OVER:
        return "Game over"
    if phase == SETUP:
        return setting_up
    return "Your turn" if turn == view.player else theirs.format(turn)  # in play there is always a turn


def _powers(view: QuinOwnView, cols: int) -> list[Block]:
    lines: list[Block] = []
    powers = view.powers
    names = (f"{ARTIFICIAL_LIGHT} moves", f"{SHORT_KINDS[ARTIFICIAL_LIGHT]} moves")
    lines.append(name_value(names, str(view.artificial_light_moves), cols))
    if powers.time in ("ready", "used"):
        lines.append(name_value("Time", powers.time, cols))
    lines.append(name_value("Totem", powers.totem, cols))  # every side has a Totem: "ready" or "used"
    for label, left in powers.memory_swaps_left.items():
        lines.append(name_value(f"Memory {label} swaps", str(left), cols))
    return lines


def _setup_left(setup: SetupSeen, cols: int) -> list[Block]:
    lines: list[Block] = []
    if setup.done:
        lines.append("Ready: waiting for the other player")
    clone, source = setup.clone, setup.clone_from
    if clone and source:  # the Clone is chosen as a pair: the face it replaces and what it becomes
        lines.append(clone_lines(source, clone, cols))
    else:
        lines.append("Clone: not chosen")
    board, zero_g = f"{setup.on_board}/{STARTING_POINTS}", f"{setup.on_zero_g}/{ZERO_G_AT_START}"
    both = f"Board {board}  Zero-G {zero_g}"
    lines.append(
        [both] if len(both) <= cols else [*name_value("Board", board, cols), *name_value("Zero-G", zero_g, cols)]
    )
    needed, assigned = setup.needed, setup.assigned
    still = [
        name_value((f"  {kind}", f"  {short_kind(kind, 0)}"), f"{assigned.get(kind, 0)}/{count}", cols)
        for kind, count in needed.items()
        if assigned.get(kind, 0) != count
    ]
    if still:
        lines.append(["Still to label:", *still[0]])  # the heading stays with its first kind
        lines.extend(still[1:])
    for problem in setup.problems:
        lines.append(f"- {problem}")
    return lines


def _pieces_lines(pieces: Sequence[OwnPiece], cols: int) -> list[Block]:
    width = max(len(p.label) for p in pieces)
    return [piece_lines(piece, cols, width) for piece in pieces]


# -- the setup menu -------------------------------------------------------------------------


def in_setup(view: OwnView | None) -> TypeGuard[QuinOwnView]:
    """True while `view` is a private view whose player has their setup still to finish."""
    return isinstance(view, QuinOwnView) and view.phase == SETUP and view.setup is not None and not view.setup.done


def menu_for(view: OwnView, menu: Menu | None) -> SetupMenu | None:
    """The setup menu while the setup is unfinished (or a refusal is still to be read); else None, the pages."""
    mine = menu if isinstance(menu, SetupMenu) else None
    if mine is not None and mine.mode == REFUSED:
        return mine
    if in_setup(view):
        return mine or SetupMenu()
    return None


MAIN = "main"
CLONE_FROM_LIST = "clone from"
CLONE_TO_LIST = "clone to"
KIND = "kind"
PLACE = "place"
REFUSED = "refused"

Choice = tuple[str, ...]
"""What choosing an item means: ``("label", "7")``, ``("kind", "Shadow")``, ``("finish",)``…"""
Item = tuple[Block, Choice]
"""An item's text (one line, or a few: a piece and its place) and what choosing it means."""


@dataclass(frozen=True)
class SetupMenu:
    """Where one player is in the setup menu. Immutable: `press` returns a new one."""

    mode: str = MAIN
    cursor: int | None = None  # None: the list's natural starting point
    label: str | None = None  # the label being given an identity (kind, place)
    taken: str | None = None  # the face the Clone replaces (clone to)
    kind: str | None = None  # the identity chosen for `label` (place)
    refusal: str | None = None
    page: int = 0  # of the refusal
    retry: SetupMenu | None = None  # after sending: where a refusal returns to; when refused: where ok returns

    # -- keys -------------------------------------------------------------------------------

    def press(self, view: OwnView, key: str, cols: int = 20, rows: int = 4) -> tuple[SetupMenu, Action | None]:
        """The menu after `key`, and the action to play if the key confirmed one.

        On a screen too small to show the menu, keys do nothing: no choice is made blind.
        """
        if is_too_small(cols, rows):
            return self, None
        if self.mode == REFUSED:
            if key in OK | BACK:
                return (self.retry or SetupMenu()), None
            count = len(text_pages(view.player, "Refused", self.refusal or "", cols, rows))
            step = -1 if key in UP else 1 if key in DOWN else 0
            return replace(self, page=min(max(self.page + step, 0), count - 1)), None
        if not in_setup(view) or key not in MENU_KEYS:
            return self, None
        items = self._items(view, cols - 1)  # never empty: every list has its items, the main list Finish setup
        cursor = self._cursor(view, items)
        if key in UP | DOWN:
            step = -1 if key in UP else 1
            return replace(self, cursor=(cursor + step) % len(items), retry=None), None
        if key in BACK:
            return self._back(view, cols), None
        return self._choose(view, items, cursor)

    def refused(self, sentence: str) -> SetupMenu:
        """Show the rules' `sentence`; ok or back then returns to where the refused choice was made."""
        back_to = self.retry if self.retry is not None else (self if self.mode != REFUSED else SetupMenu())
        return SetupMenu(REFUSED, refusal=str(sentence), retry=replace(back_to, retry=None))

    # -- drawing ----------------------------------------------------------------------------

    def lines(self, view: OwnView, cols: int, rows: int) -> Page:
        """The screen for `view`: exactly `rows` lines of at most `cols` characters."""
        if is_too_small(cols, rows):
            return too_small(cols, rows)
        player = view.player
        if self.mode == REFUSED:
            shown = text_pages(player, "Refused", self.refusal or "", cols, rows)
            return shown[min(self.page, len(shown) - 1)]
        if not in_setup(view):
            return fit([player, "Setup finished."], cols, rows)
        items = self._items(view, cols - 1)
        texts = [text for text, _choice in items]
        return menu_page(player, self._mark(view), texts, self._cursor(view, items), cols, rows)

    def _mark(self, view: QuinOwnView) -> str | tuple[str, ...]:
        if self.mode == CLONE_FROM_LIST:
            return "Clone from"
        if self.mode == CLONE_TO_LIST:
            return "Clone to"
        if self.mode == KIND:
            return f"Label {self.label}"
        if self.mode == PLACE:  # the label and its identity: whole, else short, else on a line of its own
            return (f"{self.label} {self.kind}", f"{self.label} {short_kind(str(self.kind), 0)}")
        pieces = view.pieces
        done = f"{sum(1 for p in pieces if p.identity)}/{len(pieces)}"
        # the count alone beside a name too long for both: a one-line header leaves a 4-row screen room for
        # the Clone's three lines
        return (f"Setup {done}", done)

    # -- the lists --------------------------------------------------------------------------

    def _items(self, view: QuinOwnView, width: int) -> list[Item]:
        setup = _setup(view)
        needed, assigned = setup.needed, setup.assigned
        if self.mode == CLONE_FROM_LIST:
            base = _before_clone(setup)
            return [(short_kind(k, width), ("from", k)) for k in CLONE_FROM if base.get(k, 1)]
        if self.mode == CLONE_TO_LIST:
            return [(short_kind(k, width), ("to", k)) for k in CLONE_TO if k != self.taken]  # never into itself
        if self.mode == KIND:
            current = _identity(view, self.label)
            items: list[Item] = []
            for kind in KINDS:
                if needed and not needed.get(kind) and kind != current:
                    continue  # a kind this table plays without
                count = f"{assigned.get(kind, 0)}/{needed.get(kind, '?')}"
                items.append((name_value((kind, short_kind(kind, 0)), count, width), ("kind", kind)))
            if current:
                items.append(("Take back", ("take back",)))
            return items
        if self.mode == PLACE:
            places = (
                ("Board", f"{setup.on_board}/{STARTING_POINTS}", BOARD),
                ("Zero-G", f"{setup.on_zero_g}/{ZERO_G_AT_START}", ZERO_G),
            )
            return [(name_value(name, count, width), ("place", where)) for name, count, where in places]
        return _main_items(view, width)

    def _cursor(self, view: QuinOwnView, items: Sequence[Item]) -> int:
        if self.cursor is not None:
            return min(max(self.cursor, 0), max(len(items) - 1, 0))
        setup = _setup(view)
        if self.mode == MAIN:
            return _first_open(view, items) if setup.clone else 0
        if self.mode == CLONE_FROM_LIST:
            return _index(items, ("from", str(setup.clone_from)), 0)
        if self.mode == CLONE_TO_LIST:
            same = setup.clone_from == self.taken
            return _index(items, ("to", str(setup.clone)), 0) if same else 0
        if self.mode == KIND:
            current = _identity(view, self.label)
            if current:
                return _index(items, ("kind", current), 0)
            needed, assigned = setup.needed, setup.assigned
            # The first kind that still lacks labels, so that ok, ok, ok walks a whole setup.
            lacking = {k for k, n in needed.items() if assigned.get(k, 0) < n}
            return next((i for i, (_t, c) in enumerate(items) if c[0] == "kind" and c[1] in lacking), 0)
        # A place to start from, not a judgement: the rules still decide.
        piece = _piece(view, self.label)
        if self.kind == ARTIFICIAL_LIGHT:
            where = ZERO_G
        elif piece is not None and piece.identity and piece.where in (BOARD, ZERO_G):
            where = piece.where
        else:
            where = ZERO_G if setup.on_board >= STARTING_POINTS else BOARD
        return _index(items, ("place", where), 0)

    # -- moving between lists, and sending ------------------------------------------------------

    def _back(self, view: QuinOwnView, cols: int) -> SetupMenu:
        if self.mode == CLONE_FROM_LIST:
            return SetupMenu(MAIN, cursor=0)
        if self.mode == CLONE_TO_LIST:
            back = SetupMenu(CLONE_FROM_LIST)
            return replace(back, cursor=_index(back._items(view, cols - 1), ("from", str(self.taken)), 0))
        if self.mode == KIND:
            return SetupMenu(MAIN, cursor=_index(_main_items(view, cols - 1), ("label", str(self.label)), 0))
        if self.mode == PLACE:
            back = SetupMenu(KIND, label=self.label)
            return replace(back, cursor=_index(back._items(view, cols - 1), ("kind", str(self.kind)), 0))
        return replace(self, retry=None)  # the main list is the top: back stays there

    def _choose(self, view: QuinOwnView, items: Sequence[Item], cursor: int) -> tuple[SetupMenu, Action | None]:
        player = view.player
        choice = items[cursor][1]
        here = replace(self, cursor=cursor, retry=None)  # where a refusal brings the player back
        what = choice[0]
        if what == "clone":
            return SetupMenu(CLONE_FROM_LIST), None
        if what == "label":
            return SetupMenu(KIND, label=choice[1]), None
        if what == "from":
            return SetupMenu(CLONE_TO_LIST, taken=choice[1]), None
        if what == "kind":
            return SetupMenu(PLACE, label=self.label, kind=choice[1]), None
        main = _main_items(view, 0)
        if what == "to":
            clone = Clone(player, taken=str(self.taken), made=choice[1])
            return SetupMenu(MAIN, cursor=_first_open(view, main), retry=here), clone
        if what == "take back":
            unassign = Unassign(player, label=str(self.label))
            return SetupMenu(MAIN, cursor=_index(main, ("label", str(self.label)), 0), retry=here), unassign
        if what == "place":
            assign = Assign(player, label=str(self.label), identity=str(self.kind), where=choice[1])
            return SetupMenu(MAIN, cursor=_first_open(view, main, after=self.label), retry=here), assign
        return replace(here, retry=here), SetupDone(player)  # finish


# -- reading the view ---------------------------------------------------------------------------


_NO_SETUP = SetupSeen(None, None, (), True, 0, 0, {}, {}, ())
"""What the menu reads of a setup that is over (the menu then offers nothing)."""


def _setup(view: QuinOwnView) -> SetupSeen:
    return view.setup or _NO_SETUP


def _piece(view: QuinOwnView, label: str | None) -> OwnPiece | None:
    return next((p for p in view.pieces if p.label == label), None)


def _identity(view: QuinOwnView, label: str | None) -> str | None:
    piece = _piece(view, label)
    return piece.identity if piece else None


def _before_clone(setup: SetupSeen) -> dict[str, int]:
    """The counts of each kind before this player's Clone (the Clone changes one face)."""
    counts = dict(setup.needed)
    taken, made = setup.clone_from, setup.clone
    if taken in counts and made in counts:
        counts[taken] += 1
        counts[made] -= 1
    return counts


def _main_items(view: QuinOwnView, width: int) -> list[Item]:
    setup = _setup(view)
    taken, made = setup.clone_from, setup.clone
    clone: Block = clone_lines(taken, made, width) if taken and made else "Clone: choose"
    items: list[Item] = [(clone, ("clone",))]
    pieces = view.pieces
    label_width = max((len(p.label) for p in pieces), default=2)
    for piece in pieces:
        shown = replace(piece, revealed=False)  # the menu lists label, identity and place only
        items.append((piece_lines(shown, max(width, 1), label_width), ("label", piece.label)))
    items.append(("Finish setup", ("finish",)))
    return items


def _index(items: Sequence[Item], choice: Choice, default: int) -> int:
    return next((i for i, (_text, c) in enumerate(items) if c == choice), default)


def _first_open(view: QuinOwnView, items: Sequence[Item], *, after: str | None = None) -> int:
    """The next label without an identity (after `after`, going round), else *Finish setup*."""
    open_labels = {p.label for p in view.pieces if not p.identity} - {str(after)}
    start = _index(items, ("label", str(after)), 0) if after is not None else 0
    order = [*range(start + 1, len(items)), *range(0, start + 1)] if after is not None else range(len(items))
    for i in order:
        choice = items[i][1]
        if choice[0] == "label" and choice[1] in open_labels:
            return i
    return len(items) - 1


# -- the phone page -----------------------------------------------------------------------------

PHONE_PLACES: Mapping[str, str] = {
    BOARD: "on the board",
    ZERO_G: "on the Zero-G card",
    CAPTURED: "captured",
    REMOVED: "removed",
    OFF: "not placed yet",
}
"""Where a piece is, as the phone page says it (there is room for words there)."""


def phone_page(view: OwnView) -> dict[str, Any]:
    """A Quin private view as a phone page (the structure of ``hardware.phones``): richer than a small display.

    Sections: the player's pieces (label, identity, where, moves, whether the
    rival has seen it), their Zero-G card, the powers left, the last flash;
    during their private setup, what is left to do, and the setup itself as
    `choices`: each tap is one action the setup menu (`SetupMenu`) would send.
    The Clone while none is chosen (only real changes: never a kind into
    itself); then, for the first label without an identity, one choice per
    identity still lacking and place with room; *Take back* for each label
    given one; *Finish setup* once every label has one. The `notice` names the
    next step, and the page draws the choices right under it.
    Everything comes from `view`, the player's own view (typed: its fields are read, never its JSON).
    """
    if isinstance(view, NotPlaying):
        return {"title": "Quin", "status": "", "notice": view.error, "sections": [], "choices": []}
    player = view.player
    pieces = view.pieces
    setting_up = in_setup(view)
    sections: list[dict[str, Any]] = []
    notice = ""
    if view.phase == SETUP and view.setup is not None:
        sections.append({"heading": "Your setup", "rows": _phone_setup_rows(view.setup)})
        notice = _next_step(view, view.setup)
    else:
        if view.last_flash:
            sections.append({"heading": "Last flash", "rows": [_row(view.last_flash)]})
        sections.append({"heading": "Powers left", "rows": _phone_powers(view)})
    sections.append({"heading": "Your pieces", "rows": [_phone_piece(view, p) for p in pieces]})
    card = [p for p in pieces if p.where == ZERO_G]
    sections.append(
        {
            "heading": f"Zero-G card ({len(card)})",
            "rows": [_row(f"{p.label}  {p.identity or UNKNOWN}") for p in card] or [_row("Empty", tone="muted")],
        }
    )
    return {
        "title": f"{player} · Quin",
        "status": _whose_turn(view, setting_up="Private setup", theirs="{} to play"),
        "notice": notice,
        "sections": sections,
        "choices": _phone_choices(view) if setting_up else [],
    }


def _next_step(view: QuinOwnView, setup: SetupSeen) -> str:
    """The private setup's next step, in one sentence: the first thing the phone page says."""
    if setup.done:
        return f"Ready: waiting for {view.rival or 'the other player'}."
    if not setup.clone:
        return "Next: your Clone. Pick which piece (not Light, not Shadow) takes the Clone face, and what it becomes."
    open_labels = [p.label for p in view.pieces if not p.identity]
    if open_labels:
        return f"Next: label {open_labels[0]}. Tap what it is, and whether it starts on the board or the Zero-G card."
    return "Next: Finish setup (it cannot be changed afterwards)."


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "AEIOU" else f"a {kind}"


def _row(text: str, note: str = "", tone: str = "normal") -> dict[str, str]:
    return {"text": text, "note": note, "tone": tone}


def _phone_piece(view: QuinOwnView, piece: OwnPiece) -> dict[str, str]:
    where = PHONE_PLACES.get(piece.where, piece.where)
    notes = [where]
    if piece.identity and piece.where in (BOARD, ZERO_G) and piece.moves is not None:
        notes.append(f"{piece.moves} {'move' if piece.moves == 1 else 'moves'}")
    if piece.swaps_left is not None and piece.where in (BOARD, ZERO_G):
        notes.append(f"{piece.swaps_left} {'swap' if piece.swaps_left == 1 else 'swaps'} left")
    if piece.revealed:
        notes.append(f"{view.rival or 'the rival'} has seen it")
    if piece.held:
        notes.append("held this turn")
    tone = "muted" if piece.where in (CAPTURED, REMOVED) else "accent" if piece.held else "normal"
    return _row(f"{piece.label}  {piece.identity or UNKNOWN}", " · ".join(notes), tone)


def _phone_powers(view: QuinOwnView) -> list[dict[str, str]]:
    powers = view.powers
    rows = [_row(f"{ARTIFICIAL_LIGHT} moves", str(view.artificial_light_moves))]
    if powers.time in ("ready", "used"):  # "none": no Time on the board, nothing to tell
        rows.append(_row("Time", powers.time))
    rows.append(_row("Resurrection Totem", powers.totem, "muted" if powers.totem == "used" else "normal"))
    for label, left in powers.memory_swaps_left.items():
        rows.append(_row(f"Memory {label}", f"{left} {'swap' if left == 1 else 'swaps'} left"))
    return rows


def _phone_setup_rows(setup: SetupSeen) -> list[dict[str, str]]:
    rows = []
    taken, made = setup.clone_from, setup.clone
    rows.append(_row(f"Clone: {taken} → {made}" if taken and made else "Clone: not chosen yet"))
    rows.append(_row("Board", f"{setup.on_board}/{STARTING_POINTS}"))
    rows.append(_row("Zero-G card", f"{setup.on_zero_g}/{ZERO_G_AT_START}"))
    needed, assigned = setup.needed, setup.assigned
    for kind, count in needed.items():
        if count and assigned.get(kind, 0) != count:
            rows.append(_row(f"Still to label: {kind}", f"{assigned.get(kind, 0)}/{count}", "accent"))
    for problem in setup.problems:
        rows.append(_row(problem[:1].upper() + problem[1:], tone="warn"))
    return rows


def _choice(label: str, action: Action, tone: str = "normal") -> dict[str, Any]:
    # The page is JSON: the action as its JSON object, as a phone sends it back.
    return {"label": label, "action": codec.to_json(action), "tone": tone}


def _phone_choices(view: QuinOwnView) -> list[dict[str, Any]]:
    """The setup, one tap one action: the very `Clone`, `Assign`, `Unassign`, `SetupDone` the menu sends."""
    player = view.player
    setup = _setup(view)
    choices: list[dict[str, Any]] = []
    if not setup.clone:
        base = _before_clone(setup)
        for taken in CLONE_FROM:
            if base.get(taken, 1):
                for made in (kind for kind in CLONE_TO if kind != taken):  # a kind into itself changes nothing
                    choices.append(_choice(f"Clone: {taken} → {made}", Clone(player, taken=taken, made=made), "accent"))
        return choices
    pieces = view.pieces
    needed, assigned = setup.needed, setup.assigned
    on_board, on_zero_g = setup.on_board, setup.on_zero_g
    open_labels = [p.label for p in pieces if not p.identity]
    lights_to_come = max(needed.get(ARTIFICIAL_LIGHT, 0) - assigned.get(ARTIFICIAL_LIGHT, 0), 0)
    if open_labels:
        label = open_labels[0]
        for kind in KINDS:
            if assigned.get(kind, 0) >= needed.get(kind, 0):
                continue
            if kind != ARTIFICIAL_LIGHT and on_board < STARTING_POINTS:
                choices.append(_choice(f"{label} is {_a(kind)} · board", Assign(player, label, kind, BOARD), "accent"))
            # Room on the card is kept for the Artificial Lights still to come, so no tap leads to a dead end.
            if on_zero_g + (0 if kind == ARTIFICIAL_LIGHT else lights_to_come) < ZERO_G_AT_START:
                choices.append(
                    _choice(f"{label} is {_a(kind)} · Zero-G", Assign(player, label, kind, ZERO_G), "accent")
                )
    else:
        choices.append(_choice("Finish setup", SetupDone(player), "accent"))
    for piece in pieces:
        if piece.identity:
            choices.append(
                _choice(f"Take back {piece.label} ({piece.identity})", Unassign(player, piece.label), "muted")
            )
    return choices
