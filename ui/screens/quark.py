"""Quark at the table: a live table of everyone's counts, one tap per action, then the details.

The screen renders the public view and sends actions; the rules live in
`companion.games.quark`. Before a creation is confirmed the screen asks the
rules what it would cost (`RULES.preview`), so the player sees the
transformation's price, or what is missing, before tapping Create.
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup
from kivy.uix.widget import Widget

from companion.game import Action, RuleError, View
from companion.games.quark import HAND_LIMIT
from ui.screens.base import GameScreen


def hex_to_rgba(colour: str) -> tuple[float, float, float, float]:
    """``"#e53935"`` -> an RGBA tuple for Kivy."""
    value = colour.lstrip("#")
    try:
        r, g, b = (int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))
    except ValueError:
        return 0.95, 0.95, 0.95, 1.0
    return r, g, b, 1.0


def _count(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def _drop_unless(popup: Popup, row_id: str, wanted: bool) -> None:
    """Take a row out of the popup when it is not wanted (a hidden row could still catch touches)."""
    row = popup.ids[row_id]
    if not wanted and row.parent is not None:
        row.parent.remove_widget(row)


class QuarkRow(BoxLayout):
    """One player's line in the live table."""

    name = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    energy = StringProperty("")
    protons = StringProperty("")
    neutrons = StringProperty("")
    particles = StringProperty("")
    hand = StringProperty("")
    score = StringProperty("")
    atom = StringProperty("")
    current = BooleanProperty(False)


class QuarkScoreRow(BoxLayout):
    """One player's line on the scoring screen."""

    name = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    particles = StringProperty("")
    atom = StringProperty("")
    leftover = StringProperty("")
    total = StringProperty("")
    winner = BooleanProperty(False)


class QuarkBody(BoxLayout):
    """The game's area under the top bar: the table and action bar in play, the scores at the end."""

    screen = ObjectProperty(None)
    over = BooleanProperty(False)
    actions_left = NumericProperty(2)
    warning = StringProperty("")
    supplies = StringProperty("")
    decks = StringProperty("")
    verdict = StringProperty("")
    atoms_text = StringProperty("")

    def on_kv_post(self, base_widget: Any) -> None:
        # Strong references: kv ids are weak, and the part out of the tree must survive.
        self._parts = {False: self.ids.play.__self__, True: self.ids.scoring.__self__}
        self.remove_widget(self.ids.scoring)

    def on_over(self, _widget: Any, over: bool) -> None:
        # Only the part in use is in the tree, so the hidden one can neither show nor catch a touch.
        self.clear_widgets()
        self.add_widget(self._parts[over])


class QuarkPopup(Popup):
    """A details popup; `screen` is the Quark screen that opened it."""

    screen = ObjectProperty(None)
    player = StringProperty("")
    error = StringProperty("")  # a refusal, repeated here because the banner is under the popup


class QuarkDrawPopup(QuarkPopup):
    """Draw: blind from the quark deck, or a face-up card."""

    row = NumericProperty(3)
    deck = NumericProperty(0)


class QuarkDiscardDrawPopup(QuarkPopup):
    """Discard one card, then draw two (each blind or face-up)."""

    row = NumericProperty(3)
    deck = NumericProperty(0)


class QuarkAnnihilatePopup(QuarkPopup):
    """Annihilate: the rank of the pair (and how many of its two cards were decayed)."""

    decayed = NumericProperty(0)
    decayed_max = NumericProperty(0)
    ranks = ListProperty([])  # [(rank, energy), ...] from the view

    def on_kv_post(self, base_widget: Any) -> None:
        _drop_unless(self, "decayed_row", self.decayed_max > 0)
        grid = self.ids.rank_grid
        for rank, energy in self.ranks:
            button = Factory.BigButton(text=f"{rank.upper()}   +{energy} energy", height=dp(64))
            button.bind(on_release=lambda _b, r=rank: self.screen.annihilate(r, int(self.decayed)))
            grid.add_widget(button)


class QuarkCreatePopup(QuarkPopup):
    """Create: the particle, its printed points, at most one transformation; the cost shown before confirming."""

    particle = StringProperty("")
    points = NumericProperty(0)
    source = StringProperty("")  # transformation from this rank ("" = none)
    target = StringProperty("")
    decayed = NumericProperty(0)
    decayed_max = NumericProperty(0)
    preview = StringProperty("Choose what to create.")
    allowed = BooleanProperty(False)
    ranks = ListProperty([])

    def on_kv_post(self, base_widget: Any) -> None:
        _drop_unless(self, "decayed_row", self.decayed_max > 0)
        # A card turns upward only, so TOP is never a "from" and UP never a "to".
        for row, ranks, pick, prop in (
            (self.ids.source_row, self.ranks[:-1], self.pick_source, "source"),
            (self.ids.target_row, self.ranks[1:], self.pick_target, "target"),
        ):
            for rank in ranks:
                toggle = Factory.QuarkToggle(text=rank.upper())
                toggle.bind(on_release=lambda _t, r=rank, p=pick: p(r))
                self.bind(
                    **{
                        prop: lambda _w, value, t=toggle, r=rank: setattr(
                            t, "state", "down" if value == r else "normal"
                        )
                    }
                )
                row.add_widget(toggle)

    def on_particle(self, *_args: Any) -> None:
        self.update()

    def on_points(self, *_args: Any) -> None:
        self.update()

    def on_source(self, *_args: Any) -> None:
        self.update()

    def on_target(self, *_args: Any) -> None:
        self.update()

    def on_decayed(self, *_args: Any) -> None:
        self.update()

    def step_points(self, delta: int) -> None:
        self.points = max(0, min(99, int(self.points) + delta))

    def pick_source(self, rank: str) -> None:
        self.source = "" if self.source == rank else rank

    def pick_target(self, rank: str) -> None:
        self.target = "" if self.target == rank else rank

    def action(self) -> Action:
        action: dict[str, Any] = {"type": "create", "player": self.player, "particle": self.particle}
        if self.particle in ("baryon", "meson"):
            action["points"] = int(self.points)
        if self.source or self.target:
            action["transform"] = {"from": self.source, "to": self.target}
        if self.decayed:
            action["decayed"] = int(self.decayed)
        return action

    def update(self) -> None:
        if not self.particle:
            self.preview, self.allowed = "Choose what to create.", False
            return
        if bool(self.source) != bool(self.target):
            self.preview, self.allowed = "A transformation needs a card to turn (from) and what it becomes (to).", False
            return
        self.preview, self.allowed = self.screen.preview(self.action())

    def confirm(self) -> None:
        if self.screen.send(self.action()):
            self.dismiss()


class QuarkEndTurnPopup(QuarkPopup):
    """End of turn: the hand count (prefilled with ours), and the reminder when it is over the limit."""

    hand = NumericProperty(0)
    reminder = StringProperty("")
    over_limit = BooleanProperty(False)

    def on_hand(self, *_args: Any) -> None:
        over = int(self.hand) - HAND_LIMIT
        self.over_limit = over > 0
        self.reminder = (
            f"Over the limit: discard {over} card{'s' if over != 1 else ''} down to {HAND_LIMIT}, then end the turn."
            if over > 0
            else f"{self.hand} card{'s' if self.hand != 1 else ''} in hand: within the limit of {HAND_LIMIT}."
        )

    def step(self, delta: int) -> None:
        self.hand = max(0, int(self.hand) + delta)

    def confirm(self) -> None:
        if self.screen.send({"type": "end_turn", "player": self.player, "hand": int(self.hand)}):
            self.dismiss()


class QuarkScreen(GameScreen):
    """The Quark screen: live table, action bar, details popups, and the scores at the end."""

    def build_body(self) -> Widget | None:
        self.body = QuarkBody(screen=self)
        self.popup: QuarkPopup | None = None
        self._view: View = {}
        return self.body

    # -- drawing ------------------------------------------------------------------

    def render(self, view: View) -> None:
        self._view = view
        body = self.body
        body.over = bool(view["over"])
        body.actions_left = int(view["actions_left"])
        bank = view["bank"]
        decks = view["decks"]
        body.supplies = f"Bank: {bank['energy']} energy · {bank['protons']} protons · {bank['neutrons']} neutrons" + (
            "  (the energy bank is empty)" if view["bank_empty"] else ""
        )
        body.decks = "Decks: " + " · ".join(
            f"{name} {decks[name]['deck']} + {decks[name]['row']} up" for name in ("quark", "baryon", "meson")
        )
        current = view["current"]
        if current:
            left = int(view["actions_left"])
            # The top bar says whose turn it is; here it also says how far into the turn they are.
            self.turn_text = (
                f"{current} to play: {left} action{'s' if left != 1 else ''} left"
                if left
                else f"{current}: both actions taken, end the turn"
            )
        warnings = [view["end"]["sentence"]] if view["end"] else []
        warnings += [text for text in (view["reminder"], view["notice"]) if text]
        body.warning = "  ".join(warnings)
        self._render_rows(view)
        if view["over"]:
            self._render_scores(view)

    def _colour(self, name: str) -> list[float]:
        for player in self.session.options.players:
            if player.name == name:
                return list(hex_to_rgba(player.colour))
        return [1, 1, 1, 1]

    def _render_rows(self, view: View) -> None:
        table = self.body.ids.rows
        players = view["players"]
        if len(table.children) != len(players):
            table.clear_widgets()
            for _ in players:
                table.add_widget(QuarkRow())
        for row, player in zip(reversed(table.children), players, strict=True):
            row.name = player["name"]
            row.colour = self._colour(player["name"])
            row.energy = str(player["energy"])
            row.protons = str(player["protons"])
            row.neutrons = str(player["neutrons"])
            row.particles = str(player["particle_points"])
            decayed = player["decayed"]
            row.hand = str(player["hand"]) + (f"  [size=14sp]+{decayed} decayed[/size]" if decayed else "")
            row.score = str(player["score_now"])
            row.atom = player["atom_now"] or ""
            row.current = player["name"] == view["current"]

    def _render_scores(self, view: View) -> None:
        outcome = view["outcome"] or {}
        scores = view["scores"]
        winners = set(outcome.get("winners", []))
        if outcome.get("reason") == "tie":
            self.body.verdict = "A tie: " + outcome.get("detail", "")
        else:
            self.body.verdict = outcome.get("detail", "")
        box = self.body.ids.score_rows
        box.clear_widgets()
        for entry in scores:
            atom = entry["atom"]
            box.add_widget(
                QuarkScoreRow(
                    name=entry["player"],
                    colour=self._colour(entry["player"]),
                    particles=str(entry["particle_points"]),
                    atom=f"{atom['name']} {atom['points']}" if atom else "no atom",
                    leftover=str(entry["leftover_energy"]),
                    total=str(entry["total"]),
                    winner=entry["player"] in winners,
                )
            )
        lines = []
        for atom in view["atoms"]:
            line = (
                f"{atom['name']} ({_count(atom['protons'], 'proton')}, {_count(atom['neutrons'], 'neutron')}, "
                f"{atom['electrons']} energy): {atom['points']} points"
            )
            if atom["points_from"] == "default":
                line += "  [color=ffb74d](our default: set it from your Atom cards)[/color]"
            elif atom["points_from"] == "config":
                line += "  (from your config file)"
            lines.append(line)
        self.body.atoms_text = "\n".join(lines)

    # -- the action bar -----------------------------------------------------------------

    def _open(self, popup: QuarkPopup) -> QuarkPopup:
        self.popup = popup
        popup.bind(on_dismiss=lambda *_: setattr(self, "popup", None))
        popup.open()
        return popup

    def _player(self) -> str:
        return str(self._view.get("current") or "")

    def _me(self) -> dict[str, Any]:
        return next((p for p in self._view.get("players", []) if p["name"] == self._player()), {})

    def open_draw(self) -> QuarkPopup:
        quark = self._view["decks"]["quark"]
        return self._open(QuarkDrawPopup(screen=self, player=self._player(), row=quark["row"], deck=quark["deck"]))

    def open_discard_draw(self) -> QuarkPopup:
        quark = self._view["decks"]["quark"]
        return self._open(
            QuarkDiscardDrawPopup(screen=self, player=self._player(), row=quark["row"], deck=quark["deck"])
        )

    def open_annihilate(self) -> QuarkPopup:
        energy = self._view["annihilation_energy"]
        ranks = [(rank, energy[rank]) for rank in self._view["ranks"]]
        decayed = min(2, int(self._me().get("decayed", 0)))
        return self._open(QuarkAnnihilatePopup(screen=self, player=self._player(), ranks=ranks, decayed_max=decayed))

    def open_create(self) -> QuarkPopup:
        decayed = min(3, int(self._me().get("decayed", 0)))
        popup = QuarkCreatePopup(screen=self, player=self._player(), ranks=self._view["ranks"], decayed_max=decayed)
        return self._open(popup)

    def open_end_turn(self) -> QuarkPopup:
        popup = QuarkEndTurnPopup(screen=self, player=self._player())
        popup.hand = int(self._me().get("hand", 0))
        popup.on_hand()
        return self._open(popup)

    def draw(self, source: str) -> None:
        self._send_and_close({"type": "draw", "player": self._player(), "from": source})

    def discard_draw(self, first: str, second: str) -> None:
        self._send_and_close({"type": "discard_draw", "player": self._player(), "from": [first, second]})

    def decay(self) -> None:
        self.send({"type": "decay", "player": self._player()})

    def annihilate(self, rank: str, decayed: int = 0) -> None:
        action: dict[str, Any] = {"type": "annihilate", "player": self._player(), "rank": rank}
        if decayed:
            action["decayed"] = int(decayed)
        self._send_and_close(action)

    def preview(self, action: Action) -> tuple[str, bool]:
        """The rules' sentence for `action` before it is confirmed, and whether it would be accepted."""
        try:
            return self.session.rules.preview(self.session.state, action), True
        except RuleError as refusal:
            return str(refusal), False

    def _send_and_close(self, action: Action) -> None:
        if self.send(action) and self.popup is not None:
            self.popup.dismiss()

    def send(self, action: Action) -> bool:
        done = super().send(action)
        if not done and self.popup is not None:
            # The banner sits under the popup: repeat the sentence where the player is looking.
            self.popup.error = self.banner
        return done

    def close(self) -> None:
        if self.popup is not None:
            self.popup.dismiss()
        super().close()
