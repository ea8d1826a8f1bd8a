"""The Quin screen: the shared table view, and a private hand-off mode for each player's setup.

Shared mode renders the public view only: both sides' labelled pieces (with
an identity once it is revealed), each Zero-G card's face-up pieces, the
powers used, the last flash's sentence in big type, and the last move on one
tap. A flash is two taps: the attacker's label, then the defender's. Other
actions take a selection of one's own labels and a button (Move, Bring in,
Swap, ...); the screen only composes the action, the rules decide.

Private mode is for one player's setup on this screen: it first asks the
rival to look away, then shows `private_view(player)` and nothing else, and
blanks itself when the player is done, hides it, stays idle for a while, or
the screen is left. The private widgets are thrown away when it blanks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ColorProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import get_color_from_hex

from companion.game import Action, Refusal, View
from ui.screens.base import GameScreen

PRIVATE_IDLE_SECONDS = 90.0
"""A private setup left alone this long blanks itself (someone walked away from the screen)."""

KINDS = ("Light", "Artificial Light", "Shadow", "Time", "Reflector", "Memory", "Peripheral", "Void")
CLONE_FROM = ("Artificial Light", "Time", "Reflector", "Memory", "Peripheral", "Void")
CLONE_TO = ("Time", "Memory", "Void", "Artificial Light")
SHORT = {
    "Light": "Light",
    "Artificial Light": "Art. Light",
    "Shadow": "Shadow",
    "Time": "Time",
    "Reflector": "Reflector",
    "Memory": "Memory",
    "Peripheral": "Periph.",
    "Void": "Void",
}
TINY = {**SHORT, "Artificial Light": "AL", "Reflector": "Refl.", "Peripheral": "Periph."}
TAKE_BACK = "take back"
PLACES = {"board": "Starting point", "zero-g": "Zero-G card"}
HOW = {"captured": "captured", "destroyed": "destroyed", "annihilated": "annihilated", "used": "used its power"}
FALLBACK_COLOURS = ("#e53935", "#1e88e5")
WHITE = (1.0, 1.0, 1.0, 1.0)
CLEAR = (0.0, 0.0, 0.0, 0.0)
PANEL = (0.15, 0.17, 0.21, 1.0)
ACCENT = (0.31, 0.76, 0.97, 1.0)

PieceKey = tuple[str, str]


def ink_on(fill: tuple[float, ...]) -> tuple[float, float, float, float]:
    """Black or white text, whichever reads on `fill`."""
    r, g, b = fill[:3]
    return (0.05, 0.05, 0.08, 1.0) if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else WHITE


def faded(colour: tuple[float, ...], alpha: float) -> tuple[float, float, float, float]:
    return (colour[0], colour[1], colour[2], alpha)


class QuinPiece(ButtonBehavior, Label):
    """One labelled piece: its label big, its identity small once known; tap to select."""

    fill = ColorProperty(PANEL)
    edge = ColorProperty(CLEAR)
    crossed = BooleanProperty(False)


class QuinChip(ButtonBehavior, Label):
    """A toggle in the private setup (a Clone face, an identity, a place)."""

    chosen = BooleanProperty(False)


class QuinSide(BoxLayout):
    """One player's side: name, powers used, their 17 labels, and their Zero-G card."""

    name = StringProperty("")
    colour = ColorProperty(WHITE)
    status = StringProperty("")
    powers = StringProperty("")
    card = StringProperty("")
    active = BooleanProperty(False)


class QuinPlayActions(GridLayout):
    """The buttons of play: what the selected pieces do."""

    screen = ObjectProperty(None)


class QuinSetupActions(BoxLayout):
    """Before play: one button per player to open their private setup."""

    screen = ObjectProperty(None)
    lines = ListProperty([])
    first_text = StringProperty("")  # who goes first, or the offer to race for it
    race_open = BooleanProperty(False)


class QuinTable(BoxLayout):
    """The shared body: both sides on the left; the result, the hint and the buttons on the right."""

    screen = ObjectProperty(None)
    result = StringProperty("")
    hint = StringProperty("")


class QuinCover(BoxLayout):
    """A blank page with one message and a button (look away / setup hidden)."""

    screen = ObjectProperty(None)
    message = StringProperty("")
    go_text = StringProperty("")
    back_text = StringProperty("")
    go = ObjectProperty(None)
    back = ObjectProperty(None, allownone=True)


class QuinSetupPanel(BoxLayout):
    """One player's private setup, drawn from their private view only."""

    screen = ObjectProperty(None)
    title = StringProperty("")
    colour = ColorProperty(WHITE)
    message = StringProperty("")
    message_is_error = BooleanProperty(False)


class QuinScreen(GameScreen):
    """Quin at the table: a referee that keeps every identity and shows only what may be seen."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._view: View = {}
        self.selected: list[PieceKey] = []
        self.pending: str | None = None  # "time": the next tap on a rival piece is Time's target
        self.showing_last_move = False
        self.mode = "table"  # "table", "cover" (look away), "private" (one player's setup), "hidden"
        self.private_player: str | None = None
        self.setup_panel: QuinSetupPanel | None = None
        self.kind = "Shadow"
        self.place = "board"
        self.clone_pick: dict[str, str] = {}
        self.pieces: dict[PieceKey, QuinPiece] = {}
        self._idle = Clock.create_trigger(lambda _dt: self.hide_private(), PRIVATE_IDLE_SECONDS)
        self._redraw = Clock.create_trigger(lambda _dt: self.draw())
        self._rng = random.SystemRandom()
        super().__init__(*args, **kwargs)

    # -- building ---------------------------------------------------------------------------

    def build_body(self) -> Widget:
        self.holder = BoxLayout()
        self.table_view = QuinTable(screen=self)
        self.play_actions = QuinPlayActions(screen=self)
        self.setup_actions = QuinSetupActions(screen=self)
        self.holder.add_widget(self.table_view)
        self._add_display_strip()
        return self.holder

    def _add_display_strip(self) -> None:
        # === Player displays (ui/widgets/displays.py, by the displays helper) ===
        # The strip shows whose display is connected and asks "Whose display shows 4 7 1?"
        # for a new one. It carries names and states only, never a secret.
        hub = getattr(self.table, "displays", None)
        if hub is None:
            return
        from ui.widgets.displays import DisplayStatusStrip

        self.table_view.ids.display_spot.add_widget(DisplayStatusStrip(hub=hub))

    @property
    def colours(self) -> dict[str, tuple[float, ...]]:
        chosen = [p.colour for p in self.session.options.players]
        if len(set(chosen)) < len(chosen):
            chosen = list(FALLBACK_COLOURS)
        return {p.name: tuple(get_color_from_hex(c)) for p, c in zip(self.session.options.players, chosen, strict=True)}

    # -- rendering ----------------------------------------------------------------------------

    def render(self, view: View) -> None:
        """Keep the public view; widgets are rebuilt on the next frame, never inside a touch."""
        self._view = view
        self._redraw()

    def draw(self) -> None:
        if self.mode == "private":
            self._draw_private()
        elif self.mode == "table" and self._view:
            self._draw_table(self._view)

    def _draw_table(self, view: View) -> None:
        table = self.table_view
        colours = self.colours
        keep = {key for key in self.selected if self._public_piece(view, key) is not None}
        self.selected = [key for key in self.selected if key in keep]
        self.pieces = {}
        for i, side in enumerate(view["players"]):
            self._draw_side(table.ids[f"side{i}"], side, view, colours[side["name"]])
        actions = table.ids.actions
        wanted = self.setup_actions if view["phase"] == "setup" else self.play_actions
        if wanted.parent is not actions:
            actions.clear_widgets()
            actions.add_widget(wanted)
        if view["phase"] == "setup":
            self.setup_actions.lines = [
                f"{p['name']}: setup done" if p["ready"] else f"{p['name']}: set up in private" for p in view["players"]
            ]
            first = view.get("first")
            self.setup_actions.race_open = not first and self.can_race
            self.setup_actions.first_text = f"{first} goes first" if first else "Who goes first? The water race"
        table.result = self._result_text(view)
        table.hint = self._hint(view)

    def _public_piece(self, view: View, key: PieceKey) -> dict[str, Any] | None:
        for side in view.get("players", []):
            if side["name"] == key[0]:
                return next((p for p in side["pieces"] if p["label"] == key[1]), None)
        return None

    def _draw_side(self, widget: QuinSide, side: dict[str, Any], view: View, colour: tuple[float, ...]) -> None:
        name = side["name"]
        widget.name = name
        widget.colour = colour
        widget.active = view["turn"] == name
        if view["phase"] == "setup":
            widget.status = "setup done" if side["ready"] else "setting up"
        elif view["phase"] == "over":
            widget.status = "wins" if (view["outcome"] or {}).get("winner") == name else ""
        else:
            widget.status = "to play" if view["turn"] == name else ""
        widget.powers = _powers_text(side["powers_used"])
        widget.card = _card_text(side["zero_g"], view["phase"])
        grid = widget.ids.pieces
        grid.clear_widgets()
        for piece in side["pieces"]:
            key = (name, piece["label"])
            button = QuinPiece(markup=True, text=_piece_text(piece))
            where = piece["where"]
            if where == "zero-g":
                button.fill = faded(colour, 0.35)
            elif where in ("captured", "removed"):
                button.fill, button.crossed = faded(colour, 0.12), True
            else:
                button.fill = colour
            button.color = ink_on(colour) if where in ("board", "off") else WHITE
            if key in self.selected:
                button.edge = WHITE if self.selected[0] == key else ACCENT
            button.bind(on_release=lambda _w, key=key: self.tap_piece(key))
            grid.add_widget(button)
            self.pieces[key] = button

    def _result_text(self, view: View) -> str:
        if self.showing_last_move:
            return _last_move_text(view)
        if view["outcome"]:
            return view["outcome"]["detail"] + " Every identity is now shown."
        if view["last_flash"]:
            return view["last_flash"]["sentence"]
        if view["phase"] == "setup":
            return "Private setup: each player in turn, while the other looks away."
        return "No flash yet."

    def _hint(self, view: View) -> str:
        if view["phase"] == "setup":
            return "Tap your name to set up in private: Clone, identities, starting points and Zero-G card."
        if view["phase"] == "over":
            return "The game is over."
        if self.pending == "time" and self.selected:
            return f"Time: tap the piece of {self._rival(self.selected[0][0])}'s that it moves back."
        if not self.selected:
            ban = view.get("flash_back_ban")
            extra = f" {ban['sentence']}" if ban else ""
            return f"{view['turn']} to play. Flash: tap the attacker, then the defender.{extra}"
        owner = self.selected[0][0]
        labels = " ".join(label for _o, label in self.selected)
        return f"{owner}'s {labels} selected: tap a piece of {self._rival(owner)}'s to flash it, or choose below."

    def _rival(self, name: str) -> str:
        names = [p.name for p in self.session.options.players]
        return names[1] if name == names[0] else names[0]

    # -- shared-mode taps -------------------------------------------------------------------------

    def tap_piece(self, key: PieceKey) -> None:
        """First tap selects (your own pieces, in order); a tap on the rival's piece flashes or aims Time."""
        if self.mode != "table":
            return
        self.showing_last_move = False
        owner = self.selected[0][0] if self.selected else None
        if owner is not None and key[0] != owner:
            attacker = self.selected[0]
            pending, self.pending = self.pending, None
            self.selected = []
            if pending == "time":
                self.send({"type": "time", "player": owner, "time": attacker[1], "target": key[1]})
            else:
                self.send({"type": "flash", "player": owner, "attacker": attacker[1], "defender": key[1]})
            self._redraw()
            return
        if key in self.selected:
            self.selected.remove(key)
        else:
            self.selected.append(key)
        if not self.selected:
            self.pending = None
        self._redraw()

    def verb(self, name: str) -> None:
        """A play button: compose the action from the selection (the rules say if it is allowed)."""
        if self.mode != "table":
            return
        labels = [label for _owner, label in self.selected]
        player = self.selected[0][0] if self.selected else self._view.get("turn")
        need = {
            "move": 1,
            "first_sight": 1,
            "totem": 1,
            "time": 1,
            "bring_in": 1,
            "swap": 2,
            "reflect": 2,
            "gravity": 2,
        }
        if len(labels) < need.get(name, 0):
            self.say(_SELECT_FIRST[name], error=True)
            return
        action: Action | None = {
            "move": lambda: {"type": "move", "player": player, "label": labels[0]},
            "first_sight": lambda: {"type": "first_sight", "player": player, "label": labels[0]},
            "totem": lambda: {"type": "resurrect", "player": player, "label": labels[0]},
            "bring_in": lambda: {"type": "bring_in", "player": player, "labels": labels},
            "swap": lambda: {"type": "swap", "player": player, "memory": labels[0], "with": labels[1]},
            "reflect": lambda: {"type": "reflect", "player": player, "reflector": labels[0], "piece": labels[1]},
            "gravity": lambda: {"type": "gravity", "player": player, "void": labels[0], "voids": labels[1:]},
            "pass": lambda: {"type": "pass", "player": self._view.get("turn")},
        }.get(name, lambda: None)()
        if name == "time":
            self.pending = "time"
            self.selected = self.selected[:1]
        elif name == "clear":
            self.selected, self.pending = [], None
        elif name == "last_move":
            self.showing_last_move = not self.showing_last_move
        if action is not None:
            self.selected, self.pending, self.showing_last_move = [], None, False
            self.send(action)
        self._redraw()

    # -- private hand-off setup ------------------------------------------------------------------------

    def open_private(self, index: int) -> None:
        """Step 1: ask the rival to look away before anything private is drawn."""
        names = [p.name for p in self.session.options.players]
        if not 0 <= index < len(names):
            return
        player = names[index]
        self.selected, self.pending, self.showing_last_move = [], None, False
        self.private_player = player
        self._show_cover(
            f"{self._rival(player)}, please look away.\n\n{player}: tap below when only you can see the screen.",
            f"Show {player}'s setup",
            self.show_private,
            "Back",
            self.close_private,
        )
        self.mode = "cover"

    def show_private(self) -> None:
        """Step 2: the player's own setup, from their private view alone."""
        if self.private_player is None:
            return
        self.mode = "private"
        self.clone_pick = {}
        self.setup_panel = QuinSetupPanel(screen=self, title=f"{self.private_player}'s private setup")
        self.setup_panel.colour = self.colours[self.private_player]
        self._swap_body(self.setup_panel)
        self._keep_private()
        self._draw_private()

    def hide_private(self, *, finished: bool = False) -> None:
        """Step 3: blank everything private; the table comes back only on a tap."""
        if self.mode not in ("private", "cover"):
            return
        player = self.private_player or ""
        self._drop_private()
        words = "is done and hidden" if finished else "is hidden (not finished yet)"
        self._show_cover(
            f"{player}'s setup {words}.\n\nEveryone may look at the screen again.",
            "Back to the table",
            self.close_private,
        )
        self.mode = "hidden"

    def close_private(self) -> None:
        self._drop_private()
        self.private_player = None
        self.mode = "table"
        self._swap_body(self.table_view)
        self._redraw()

    def _drop_private(self) -> None:
        self._idle.cancel()
        if self.setup_panel is not None:
            # Nothing private outlives the private mode: the widgets go, and their words with them.
            self.setup_panel.ids.pieces.clear_widgets()
            self.setup_panel.ids.kinds.clear_widgets()
            self.setup_panel.ids.clone.clear_widgets()
            self.setup_panel.message = ""
            self.setup_panel = None
        self.clone_pick = {}

    def _show_cover(
        self,
        message: str,
        go_text: str,
        go: Callable[[], None],
        back_text: str = "",
        back: Callable[[], None] | None = None,
    ) -> None:
        cover = QuinCover(screen=self, message=message, go_text=go_text, back_text=back_text, go=go, back=back)
        self._swap_body(cover)

    def _keep_private(self) -> None:
        """Restart the idle countdown: the private setup blanks itself after a while untouched."""
        self._idle.cancel()
        self._idle()

    def _swap_body(self, widget: Widget) -> None:
        self.holder.clear_widgets()
        self.holder.add_widget(widget)

    def on_leave(self, *_args: Any) -> None:
        """Leaving the screen never leaves a private setup behind."""
        if self.mode != "table":
            self.close_private()

    def private_act(self, action: Action) -> bool:
        """Send a setup action; a refusal shows inside the private panel, never in the shared banner."""
        self._keep_private()
        panel = self.setup_panel
        try:
            self.session.act(action)
        except Refusal as refusal:
            if panel is not None:
                panel.message, panel.message_is_error = str(refusal), True
            return False
        if panel is not None:
            panel.message, panel.message_is_error = "", False
        return True

    def _private_view(self) -> View:
        assert self.private_player is not None
        return self.session.private_view(self.private_player)

    def _draw_private(self) -> None:
        panel = self.setup_panel
        if panel is None or self.private_player is None:
            return
        view = self._private_view()
        setup = view.get("setup") or {}
        colour = self.colours[self.private_player]
        clone_from = self.clone_pick.get("from", setup.get("clone_from") or "")
        clone_to = self.clone_pick.get("to", setup.get("clone") or "")
        row = panel.ids.clone
        row.clear_widgets()
        for kind in CLONE_FROM:
            row.add_widget(self._chip(TINY[kind], kind == clone_from, lambda k=kind: self.pick_clone("from", k)))
        row.add_widget(Label(text="into", size_hint_x=0.5, font_size="15sp"))
        for kind in CLONE_TO:
            row.add_widget(self._chip(TINY[kind], kind == clone_to, lambda k=kind: self.pick_clone("to", k)))
        kinds = panel.ids.kinds
        kinds.clear_widgets()
        needed, assigned = setup.get("needed", {}), setup.get("assigned", {})
        for kind in KINDS:
            text = f"{SHORT[kind]}\n{assigned.get(kind, 0)} of {needed.get(kind, 0)}"
            kinds.add_widget(self._chip(text, kind == self.kind, lambda k=kind: self.pick_kind(k)))
        kinds.add_widget(self._chip("Take\nback", self.kind == TAKE_BACK, lambda: self.pick_kind(TAKE_BACK)))
        for place, chip in (("board", panel.ids.board_chip), ("zero-g", panel.ids.zero_g_chip)):
            chip.chosen = place == self.place
        grid = panel.ids.pieces
        grid.clear_widgets()
        for piece in view.get("pieces", []):
            button = QuinPiece(markup=True, text=_private_piece_text(piece))
            if piece["identity"] is None:
                button.fill, button.color = PANEL, WHITE
            else:
                button.fill = colour if piece["where"] == "board" else faded(colour, 0.45)
                button.color = ink_on(colour) if piece["where"] == "board" else WHITE
            button.bind(on_release=lambda _w, label=piece["label"]: self.tap_setup_label(label))
            grid.add_widget(button)
        if not panel.message_is_error:
            problems = setup.get("problems", [])
            panel.message = (
                ("Still to do: " + "; ".join(problems) + ".")
                if problems
                else "All set: tap Done to finish (it cannot be changed afterwards)."
            )

    def _chip(self, text: str, chosen: bool, on_tap: Callable[[], None]) -> QuinChip:
        chip = QuinChip(text=text, chosen=chosen)
        chip.bind(on_release=lambda _w: on_tap())
        return chip

    def pick_clone(self, part: str, kind: str) -> None:
        """Clone faces: the one replaced, then what it becomes; sent once both are picked."""
        if self.mode != "private":
            return
        self._keep_private()
        view = self._private_view()["setup"] or {}
        self.clone_pick[part] = kind
        chosen = {
            "from": self.clone_pick.get("from", view.get("clone_from")),
            "to": self.clone_pick.get("to", view.get("clone")),
        }
        if chosen["from"] and chosen["to"]:
            self.private_act({"type": "clone", "player": self.private_player, **chosen})
            self.clone_pick = {}
        self._redraw()

    def pick_kind(self, kind: str) -> None:
        if self.mode != "private":
            return
        self._keep_private()
        self.kind = kind
        self._redraw()

    def pick_place(self, place: str) -> None:
        if self.mode != "private":
            return
        self._keep_private()
        self.place = place
        self._redraw()

    def tap_setup_label(self, label: str) -> None:
        """Give the tapped label the chosen identity and place (or take it back)."""
        if self.mode != "private":
            return
        if self.kind == TAKE_BACK:
            self.private_act({"type": "unassign", "player": self.private_player, "label": label})
        else:
            self.private_act(
                {
                    "type": "assign",
                    "player": self.private_player,
                    "label": label,
                    "identity": self.kind,
                    "where": self.place,
                }
            )
        self._redraw()

    def deal_at_random(self) -> None:
        """A random legal layout (the Clone too, unless chosen), to adjust or accept."""
        if self.mode != "private":
            return
        from companion.games.quin import read_settings
        from companion.games.quin.examples import dealt_setup

        setup = self._private_view()["setup"] or {}
        adjustable = dict(read_settings(self.session.options.settings)[0])
        clone = (setup["clone_from"], setup["clone"]) if setup.get("clone") else None
        self.private_act(dealt_setup(self.private_player or "", adjustable, self._rng, clone=clone))
        self._redraw()

    def finish_private(self) -> None:
        if self.mode != "private":
            return
        if self.private_act({"type": "setup_done", "player": self.private_player}):
            self.hide_private(finished=True)
        else:
            self._redraw()


_SELECT_FIRST = {
    "move": "Select the piece that moved first, then tap Move.",
    "first_sight": "Select the piece on First Sight first.",
    "totem": "Select the taken piece the Totem brings back (it is crossed out on your side).",
    "time": "Select your Time first, then tap Time, then the rival's piece.",
    "bring_in": "Select the pieces coming in from your Zero-G card first.",
    "swap": "Select the Memory, then the piece it swaps with, then tap Swap.",
    "reflect": "Select the Reflector, then the piece it sends, then tap Reflect.",
    "gravity": "Select the Void casting Gravity, then the Voids it moves, then tap Gravity.",
}


def _piece_text(piece: dict[str, Any]) -> str:
    identity = piece.get("identity")
    words = f"\n[size=12sp]{TINY[identity]}[/size]" if identity else ""
    return f"[b]{piece['label']}[/b]{words}"


def _private_piece_text(piece: dict[str, Any]) -> str:
    if piece["identity"] is None:
        return f"[b]{piece['label']}[/b]\n[size=12sp]—[/size]"
    place = "start" if piece["where"] == "board" else "Zero-G"
    return f"[b]{piece['label']}[/b]\n[size=12sp]{SHORT[piece['identity']]}\n{place}[/size]"


def _powers_text(used: dict[str, Any]) -> str:
    parts = []
    for key, word in (("memory_swaps", "Memory swap"), ("time", "Time"), ("void_gravity", "Void Gravity")):
        if used.get(key):
            parts.append(f"{word} ×{used[key]}")
    if used.get("reflector"):
        parts.append(f"Reflector ×{used['reflector']}")
    if used.get("totem"):
        parts.append("Totem used")
    return "Powers used: " + ", ".join(parts) if parts else "No powers used yet"


def _card_text(card: dict[str, Any], phase: str) -> str:
    if phase == "setup":
        return ""
    down = " ".join(card["face_down"]) or "none"
    up = ", ".join(
        f"{p['owner']}'s {p['label']} ({p['identity']}, {HOW.get(p['how'], p['how'])})" for p in card["face_up"]
    )
    return f"Zero-G card: face down {down}" + (f"; face up {up}" if up else "")


def _last_move_text(view: View) -> str:
    last = view.get("last_move")
    lines = [f"Last move ({last['player']}): " + " ".join(last["steps"])] if last else ["No move yet."]
    if view.get("this_turn"):
        lines.append("This turn so far: " + " ".join(view["this_turn"]))
    return "\n".join(lines)
