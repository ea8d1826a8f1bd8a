"""Quin's private setup on a player display: a small menu for four keys (up, down, ok, back).

A `SetupMenu` is a value, one per player. `press(view, key, cols, rows)` gives
the next menu and, when the player confirms a choice, the Quin action to send
(``clone``, ``assign``, ``unassign`` or ``setup_done``, for the view's own
player). The menu never judges a choice: the rules do, and their refusal comes
back through `refused(sentence)`, which shows the sentence until ok or back
and then returns to the list the choice was made in. Everything the menu
shows comes from the one private view it is given.

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

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from companion.game import Action, Refusal
from companion.games.quin.pieces import ARTIFICIAL_LIGHT, CLONE_FROM, CLONE_TO, KINDS, STARTING_POINTS, ZERO_G_AT_START
from hardware.display import render

log = logging.getLogger(__name__)

UP = frozenset({"up", "prev", "left"})
DOWN = frozenset({"down", "next", "right"})
OK = frozenset({"ok", "enter", "select"})
BACK = frozenset({"back", "cancel", "esc"})
MENU_KEYS = UP | DOWN | OK | BACK
"""The keys the menu takes; a display's other keys go on to the game screen as before."""

MAIN = "main"
CLONE_FROM_LIST = "clone from"
CLONE_TO_LIST = "clone to"
KIND = "kind"
PLACE = "place"
REFUSED = "refused"

BOARD = "board"
ZERO_G = "zero-g"

Choice = tuple[str, ...]
"""What choosing an item means: ``("label", "7")``, ``("kind", "Shadow")``, ``("finish",)``…"""
Item = tuple[str, Choice]


def in_setup(view: Mapping[str, Any] | None) -> bool:
    """True while `view` is a Quin private view whose player has their setup still to finish."""
    if not isinstance(view, Mapping) or view.get("game") != "quin" or view.get("phase") != "setup":
        return False
    setup = view.get("setup")
    return isinstance(setup, Mapping) and not setup.get("done")


def shows_menu(view: Mapping[str, Any] | None, menu: SetupMenu | None, *, setup: bool = True) -> bool:
    """Whether a display shows `menu`: a refusal waiting to be read, or (with `setup`) a setup in progress."""
    return (menu is not None and menu.mode == REFUSED) or (setup and in_setup(view))


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

    def press(
        self, view: Mapping[str, Any], key: str, cols: int = 20, rows: int = 4
    ) -> tuple[SetupMenu, dict[str, Any] | None]:
        """The menu after `key`, and the action to send if the key confirmed one."""
        if self.mode == REFUSED:
            if key in OK | BACK:
                return (self.retry or SetupMenu()), None
            pages = len(render.text_pages("", REFUSED, self.refusal or "", cols, rows))
            step = -1 if key in UP else 1 if key in DOWN else 0
            return replace(self, page=min(max(self.page + step, 0), pages - 1)), None
        if not in_setup(view) or key not in MENU_KEYS:
            return self, None
        items = self._items(view, cols - 1)
        if not items:
            return self, None
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

    def lines(self, view: Mapping[str, Any], cols: int, rows: int) -> list[str]:
        """The screen for `view`: exactly `rows` lines of at most `cols` characters."""
        player = str(view.get("player", "")) if isinstance(view, Mapping) else ""
        if self.mode == REFUSED:
            pages = render.text_pages(player, "Refused", self.refusal or "", cols, rows)
            return pages[min(self.page, len(pages) - 1)]
        if not in_setup(view):
            return render.fit([player, "Setup finished."], cols, rows)
        items = self._items(view, cols - 1)
        texts = [text for text, _choice in items]
        return render.menu_page(player, self._mark(view, cols), texts, self._cursor(view, items), cols, rows)

    def _mark(self, view: Mapping[str, Any], cols: int) -> str:
        if self.mode == CLONE_FROM_LIST:
            return "Clone from"
        if self.mode == CLONE_TO_LIST:
            return "Clone to"
        if self.mode == KIND:
            return f"Label {self.label}"
        if self.mode == PLACE:
            return f"{self.label} {render.short_kind(str(self.kind), max(cols // 2 - 3, 2))}"
        pieces = _pieces(view)
        return f"Setup {sum(1 for p in pieces if p.get('identity'))}/{len(pieces)}"

    # -- the lists --------------------------------------------------------------------------

    def _items(self, view: Mapping[str, Any], width: int) -> list[Item]:
        setup: Mapping[str, Any] = view.get("setup") or {}
        needed: Mapping[str, Any] = setup.get("needed") or {}
        assigned: Mapping[str, Any] = setup.get("assigned") or {}
        if self.mode == CLONE_FROM_LIST:
            base = _before_clone(setup)
            return [(render.short_kind(k, width), ("from", k)) for k in CLONE_FROM if base.get(k, 1)]
        if self.mode == CLONE_TO_LIST:
            return [(render.short_kind(k, width), ("to", k)) for k in CLONE_TO]
        if self.mode == KIND:
            current = _piece(view, self.label).get("identity")
            items: list[Item] = []
            for kind in KINDS:
                if needed and not needed.get(kind) and kind != current:
                    continue  # a kind this table plays without
                count = f"{assigned.get(kind, 0)}/{needed.get(kind, '?')}"
                room = max(width - len(count) - 1, 2)
                items.append((f"{render.short_kind(kind, room):<{room}} {count}", ("kind", kind)))
            if current:
                items.append(("Take back", ("take back",)))
            return items
        if self.mode == PLACE:
            places = (
                ("Board", f"{setup.get('on_board', '?')}/{STARTING_POINTS}", BOARD),
                ("Zero-G", f"{setup.get('on_zero_g', '?')}/{ZERO_G_AT_START}", ZERO_G),
            )
            return [(f"{name:<{max(width - len(count), 1)}}{count}", ("place", where)) for name, count, where in places]
        return _main_items(view, width)

    def _cursor(self, view: Mapping[str, Any], items: Sequence[Item]) -> int:
        if self.cursor is not None:
            return min(max(self.cursor, 0), max(len(items) - 1, 0))
        setup: Mapping[str, Any] = view.get("setup") or {}
        if self.mode == MAIN:
            return _first_open(view, items) if setup.get("clone") else 0
        if self.mode == CLONE_FROM_LIST:
            return _index(items, ("from", str(setup.get("clone_from"))), 0)
        if self.mode == CLONE_TO_LIST:
            same = setup.get("clone_from") == self.taken
            return _index(items, ("to", str(setup.get("clone"))), 0) if same else 0
        if self.mode == KIND:
            current = _piece(view, self.label).get("identity")
            if current:
                return _index(items, ("kind", str(current)), 0)
            needed, assigned = setup.get("needed") or {}, setup.get("assigned") or {}
            # The first kind that still lacks labels, so that ok, ok, ok walks a whole setup.
            lacking = {k for k, n in needed.items() if isinstance(n, int) and assigned.get(k, 0) < n}
            return next((i for i, (_t, c) in enumerate(items) if c[0] == "kind" and c[1] in lacking), 0)
        # A place to start from, not a judgement: the rules still decide.
        piece = _piece(view, self.label)
        if self.kind == ARTIFICIAL_LIGHT:
            where = ZERO_G
        elif piece.get("identity") and piece.get("where") in (BOARD, ZERO_G):
            where = str(piece["where"])
        else:
            on_board = setup.get("on_board")
            where = ZERO_G if isinstance(on_board, int) and on_board >= STARTING_POINTS else BOARD
        return _index(items, ("place", where), 0)

    # -- moving between lists, and sending ------------------------------------------------------

    def _back(self, view: Mapping[str, Any], cols: int) -> SetupMenu:
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

    def _choose(
        self, view: Mapping[str, Any], items: Sequence[Item], cursor: int
    ) -> tuple[SetupMenu, dict[str, Any] | None]:
        player = str(view.get("player", ""))
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
            action = {"type": "clone", "player": player, "from": self.taken, "to": choice[1]}
            return SetupMenu(MAIN, cursor=_first_open(view, main), retry=here), action
        if what == "take back":
            action = {"type": "unassign", "player": player, "label": self.label}
            return SetupMenu(MAIN, cursor=_index(main, ("label", str(self.label)), 0), retry=here), action
        if what == "place":
            where = choice[1]
            action = {"type": "assign", "player": player, "label": self.label, "identity": self.kind, "where": where}
            return SetupMenu(MAIN, cursor=_first_open(view, main, after=self.label), retry=here), action
        return replace(here, retry=here), {"type": "setup_done", "player": player}  # finish


# -- reading the view ---------------------------------------------------------------------------


def _pieces(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    pieces = view.get("pieces")
    return [p for p in pieces if isinstance(p, Mapping)] if isinstance(pieces, list) else []


def _piece(view: Mapping[str, Any], label: str | None) -> Mapping[str, Any]:
    return next((p for p in _pieces(view) if str(p.get("label")) == label), {})


def _before_clone(setup: Mapping[str, Any]) -> dict[str, int]:
    """The counts of each kind before this player's Clone (the Clone changes one face)."""
    counts = {k: v for k, v in (setup.get("needed") or {}).items() if isinstance(v, int)}
    taken, made = setup.get("clone_from"), setup.get("clone")
    if taken in counts and made in counts:
        counts[taken] += 1
        counts[made] -= 1
    return counts


def _main_items(view: Mapping[str, Any], width: int) -> list[Item]:
    setup: Mapping[str, Any] = view.get("setup") or {}
    taken, made = setup.get("clone_from"), setup.get("clone")
    if taken and made:
        room = max(width - len("Clone: >"), 2)
        first = render.short_kind(str(taken), room // 2)
        clone = f"Clone: {first}>{render.short_kind(str(made), room - len(first))}"
    else:
        clone = "Clone: choose"
    items: list[Item] = [(clone, ("clone",))]
    pieces = _pieces(view)
    label_width = max((len(str(p.get("label", ""))) for p in pieces), default=2)
    for piece in pieces:
        shown = {"label": piece.get("label"), "identity": piece.get("identity"), "where": piece.get("where")}
        items.append((render.piece_line(shown, max(width, 1), label_width), ("label", str(piece.get("label")))))
    items.append(("Finish setup", ("finish",)))
    return items


def _index(items: Sequence[Item], choice: Choice, default: int) -> int:
    return next((i for i, (_text, c) in enumerate(items) if c == choice), default)


def _first_open(view: Mapping[str, Any], items: Sequence[Item], *, after: str | None = None) -> int:
    """The next label without an identity (after `after`, going round), else *Finish setup*."""
    open_labels = {str(p.get("label")) for p in _pieces(view) if not p.get("identity")} - {str(after)}
    start = _index(items, ("label", str(after)), 0) if after is not None else 0
    order = [*range(start + 1, len(items)), *range(0, start + 1)] if after is not None else range(len(items))
    for i in order:
        choice = items[i][1]
        if choice[0] == "label" and choice[1] in open_labels:
            return i
    return len(items) - 1


# -- the app's side ----------------------------------------------------------------------------


class _Session(Protocol):
    def act(self, action: Action) -> object: ...


class _Hub(Protocol):
    def show_refusal(self, player: str, sentence: str) -> None: ...


def act_from_display(session: _Session, hub: _Hub, player: str, action: Action) -> str | None:
    """Play `action`, chosen on `player`'s own display; returns the refusal shown there, or None.

    A display acts for its own player only: an action naming anyone else is
    refused before the rules see it. The app calls this in the UI thread.
    """
    if action.get("player") != player:
        sentence = f"This display is {player}'s: it can only make {player}'s choices."
        log.warning("a display of %s sent an action for %r; refused", player, action.get("player"))
    else:
        try:
            session.act(action)
            return None
        except Refusal as error:
            sentence = str(error)
    hub.show_refusal(player, sentence)
    return sentence
