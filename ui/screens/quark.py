"""Quark at the table: a live table of everyone's counts, one tap per action, then the details.

Thin over its presenter (`ui.presenters.quark`): `render` copies what the
presenter makes of the public view onto the widgets, and each tap sends the
typed action the presenter builds. Before a creation is confirmed the popup
shows the presenter's preview (the rules' refusal, or what it does and
costs), so the player sees the transformation's price before tapping Create;
a correction likewise shows what the log will say, or why the rules refuse
it, before it is saved.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.popup import Popup
from kivy.uix.widget import Widget
from kivy.utils import escape_markup, get_hex_from_color

from companion.game import Action, GameView
from ui import theme
from ui.presenters import quark as presenter
from ui.screens.base import GameScreen
from ui.widgets.fitting import fit_text


def _colour(hex_colour: str | None) -> list[float]:
    """A player's colour for Kivy; the theme's text colour if they have none (or it is not a colour)."""
    try:
        return list(theme.rgba(hex_colour)) if hex_colour else list(theme.TEXT)
    except ValueError:
        return list(theme.TEXT)


def _markup_colour(tone: str) -> str:
    """A tone's colour as markup wants it: ``ffb74d``."""
    colour: str = get_hex_from_color(theme.TONES[tone])
    return colour[1:7]


def _atom_markup(line: presenter.AtomLine) -> str:
    """One line of the atom table, its note in its tone's colour (atom names come from a file: escaped)."""
    text: str = escape_markup(line.text)
    note: str = escape_markup(line.note)
    if not note:
        return text
    if not line.note_tone:
        return f"{text}  {note}"
    return f"{text}  [color={_markup_colour(line.note_tone)}]{note}[/color]"


class OptionalRow:
    """A popup's row, out of it while not wanted (a hidden row could still catch touches), and back in its
    place when wanted again: the screen keeps its popups (`KeptPopups`), and a kept one opens for each turn."""

    def __init__(self, row: Widget) -> None:
        self.row: Widget = row.__self__  # held here: out of the popup, only the weak `ids` would hold it
        self.parent: Widget = row.parent
        self.index = self.parent.children.index(row)

    def show(self, wanted: bool) -> None:
        if wanted and self.row.parent is None:
            self.parent.add_widget(self.row, index=self.index)
        elif not wanted and self.row.parent is not None:
            self.parent.remove_widget(self.row)


class QuarkName(Label):
    """A player's name in the tables: all of it shows, on two lines (or a smaller font) when it is long."""

    def on_kv_post(self, base_widget: Any) -> None:
        # Fitted from its own kv rule's font (22sp) down: a table's row makes it before its rule is applied, and
        # fitted in `__init__` it started from Kivy's default 15sp, so every name showed at 15sp.
        fit_text(self, smallest=14)


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
    atom = StringProperty("")  # shown in a markup label: escaped
    current = BooleanProperty(False)
    gone = BooleanProperty(False)

    def show(self, row: presenter.PlayerRow) -> None:
        self.name = row.name
        self.colour = _colour(row.colour)
        self.energy, self.protons, self.neutrons = row.energy, row.protons, row.neutrons
        self.particles = row.particles
        self.hand = row.hand + (f"  [size=14sp]{row.decayed}[/size]" if row.decayed else "")
        self.score, self.atom, self.current = escape_markup(row.score), escape_markup(row.atom), row.current
        self.gone = row.gone


class QuarkScoreRow(BoxLayout):
    """One player's line on the scoring screen."""

    name = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    particles = StringProperty("")
    atom = StringProperty("")
    leftover = StringProperty("")
    total = StringProperty("")
    winner = BooleanProperty(False)


class QuarkActions(BoxLayout):
    """The action bar under the board, in play (`GameScreen.build_foot`): Draw, Discard 1 draw 2, Decay,
    Annihilate, Create, and End turn, which stands out once both actions are taken."""

    screen = ObjectProperty(None)
    actions_left = NumericProperty(2)


class QuarkBody(BoxLayout):
    """The game's area under the top bar: the table in play, the scores at the end."""

    screen = ObjectProperty(None)
    over = BooleanProperty(False)
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
    """A details popup; `screen` is the Quark screen that opened it, acting for `player`."""

    screen = ObjectProperty(None)
    player = StringProperty("")
    error = StringProperty("")  # a refusal, repeated here because the banner is under the popup

    def on_dismiss(self) -> None:
        if self.screen is not None and self.screen.popup is self:
            self.screen.popup = None


class KeptQuarkPopup(QuarkPopup):
    """A popup its screen keeps, made a moment after the screen shows (`KeptPopups`); `ready` sets it for each
    opening."""

    def ready(self, shown: presenter.QuarkShown) -> None:
        """Set for the turn `shown`, exactly as a popup made new for it would open."""
        raise NotImplementedError


class QuarkDrawPopup(QuarkPopup):
    """Draw: blind from the quark deck, or a face-up card."""

    row = NumericProperty(3)
    deck = NumericProperty(0)


class QuarkDiscardDrawPopup(QuarkPopup):
    """Discard one card, then draw two (each blind or face-up)."""

    row = NumericProperty(3)
    deck = NumericProperty(0)


class QuarkAnnihilatePopup(KeptQuarkPopup):
    """Annihilate: the rank of the pair (and how many of its two cards were decayed)."""

    decayed = NumericProperty(0)
    decayed_max = NumericProperty(0)
    ranks = ListProperty([])  # the presenter's `RankChoice`s

    def on_kv_post(self, base_widget: Any) -> None:
        self._decayed_row = OptionalRow(self.ids.decayed_row)

    def ready(self, shown: presenter.QuarkShown) -> None:
        """For the player to play, none of the decayed cards counted yet; the ranks' buttons are made again only
        when the ranks' energy changes."""
        self.player, self.error, self.decayed = shown.player, "", 0
        self.decayed_max = shown.annihilate_decayed_most
        self._decayed_row.show(self.decayed_max > 0)
        ranks = list(shown.rank_choices)
        if ranks == self.ranks:
            return
        self.ranks = ranks
        grid = self.ids.rank_grid
        grid.clear_widgets()
        for choice in ranks:
            button = Factory.BigButton(text=choice.text, height=dp(64))
            button.bind(on_release=lambda _b, rank=choice.rank: self.screen.annihilate(rank, int(self.decayed)))
            grid.add_widget(button)


class QuarkCreatePopup(KeptQuarkPopup):
    """Create: the particle, its printed points, at most one transformation; the cost shown before confirming."""

    particle = StringProperty("")
    points = NumericProperty(0)
    source = StringProperty("")  # transformation from this rank ("" = none)
    target = StringProperty("")
    decayed = NumericProperty(0)
    decayed_max = NumericProperty(0)
    preview = StringProperty(presenter.CHOOSE_A_PARTICLE.text)
    allowed = BooleanProperty(False)
    sources = ListProperty([])  # ranks a card may turn from, and into (the presenter's)
    targets = ListProperty([])

    def on_kv_post(self, base_widget: Any) -> None:
        self._decayed_row = OptionalRow(self.ids.decayed_row)
        self._toggles: dict[str, dict[str, Widget]] = {"source": {}, "target": {}}  # each row's, by rank

    def ready(self, shown: presenter.QuarkShown) -> None:
        """For the player to play, nothing chosen; the rank toggles are made again only when the ranks change."""
        self.player, self.error = shown.player, ""
        self.decayed_max = shown.create_decayed_most
        self._decayed_row.show(self.decayed_max > 0)
        sources, targets = list(shown.transform_sources), list(shown.transform_targets)
        if (sources, targets) != (self.sources, self.targets):
            self.sources, self.targets = sources, targets
            self._make_toggles()
        self.particle, self.points, self.source, self.target, self.decayed = "", 0, "", "", 0
        self.update()

    def _make_toggles(self) -> None:
        for row, ranks, prop in (
            (self.ids.source_row, self.sources, "source"),
            (self.ids.target_row, self.targets, "target"),
        ):
            row.clear_widgets()
            self._toggles[prop] = {}
            for rank, words in presenter.ranks_text(ranks):
                toggle = self._toggles[prop][rank] = Factory.QuarkToggle(text=words)
                toggle.bind(on_release=lambda _t, r=rank, p=prop: self.pick(p, r))
                row.add_widget(toggle)

    def pick(self, prop: str, rank: str) -> None:
        """A tap on a rank toggle: choose it, or clear it if it was chosen."""
        setattr(self, prop, "" if getattr(self, prop) == rank else rank)

    def _mark(self, prop: str, chosen: str) -> None:
        for rank, toggle in self._toggles[prop].items():
            toggle.state = "down" if rank == chosen else "normal"

    def on_particle(self, *_args: Any) -> None:
        self.update()

    def on_points(self, *_args: Any) -> None:
        self.update()

    def on_source(self, *_args: Any) -> None:
        self._mark("source", self.source)
        self.update()

    def on_target(self, *_args: Any) -> None:
        self._mark("target", self.target)
        self.update()

    def on_decayed(self, *_args: Any) -> None:
        self.update()

    def creation(self) -> presenter.Creation:
        return presenter.Creation(self.particle or "", int(self.points), self.source, self.target, int(self.decayed))

    def update(self) -> None:
        if self.screen is None:
            return  # still being built
        shown = presenter.preview_creation(self.screen.session, self.player, self.creation())
        self.preview, self.allowed = shown.text, shown.allowed

    def confirm(self) -> None:
        if self.screen.send(self.creation().action(self.player)):
            self.dismiss()


class QuarkEndTurnPopup(QuarkPopup):
    """End of turn: the hand by our count, the reminder when it is over the limit, and a way to correct it."""

    hand = NumericProperty(0)
    reminder = StringProperty("")
    over_limit = BooleanProperty(False)

    def on_hand(self, *_args: Any) -> None:
        check = presenter.hand_check(int(self.hand))
        self.reminder, self.over_limit = check.reminder, check.over_limit

    def correct_hand(self) -> None:
        """The hand count is wrong: the correction popup, on this player's hand, in place of this one."""
        screen, player = self.screen, self.player
        self.dismiss()
        screen.open_correct(player, "hand")

    def confirm(self) -> None:
        if self.screen.send(presenter.end_turn(self.player)):
            self.dismiss()


class QuarkCorrectPopup(KeptQuarkPopup):
    """Correct a count: whose (a player, or the table), which counter, its value with − and +, then save."""

    whose = StringProperty(presenter.TABLE)
    counter = StringProperty("")
    value = NumericProperty(0)
    was = NumericProperty(0)  # our count, before the correction
    whose_choices = ListProperty([])
    counter_choices = ListProperty([])
    preview = StringProperty("")
    allowed = BooleanProperty(False)

    def ready(self, shown: presenter.QuarkShown, whose: str | None = None, counter: str = "energy") -> None:
        """On `whose` `counter` (the player to play's energy unless told), its value our count."""
        self.player, self.error = shown.player, ""
        self.whose_choices = list(shown.correctable)
        self._choose(shown.player if whose is None else whose, counter)

    def pick(self, whose: Any, counter: Any) -> None:
        """A tap on whose or which counter: the value starts again from our count."""
        shown = self.screen.shown if self.screen is not None else None
        if shown is None or whose is None or (whose == self.whose and counter == self.counter):
            return  # still being built, or nothing changed
        self._choose(str(whose), str(counter or ""))

    def _choose(self, whose: str, counter: str) -> None:
        chosen = presenter.choose(self.screen.shown, whose, counter)
        self.counter_choices = list(presenter.counter_choices(chosen.whose))
        self.whose, self.counter = chosen.whose, chosen.counter
        self.was = self.value = chosen.value
        self.update()

    def on_value(self, *_args: Any) -> None:
        self.update()

    def correction(self) -> presenter.Correction:
        return presenter.Correction(self.whose, self.counter, int(self.value))

    def update(self) -> None:
        shown = self.screen.shown if self.screen is not None else None
        if shown is None or not self.counter:
            return  # still being built
        answer = presenter.preview_correction(self.screen.session, shown, self.correction())
        self.preview, self.allowed = answer.text, answer.allowed

    def confirm(self) -> None:
        if self.screen.send(self.correction().action()):
            self.dismiss()


KEPT_POPUPS = (QuarkCreatePopup, QuarkAnnihilatePopup, QuarkCorrectPopup)
"""The popups a Quark screen keeps and makes ahead: the biggest, each a few dozen widgets (issue 26)."""
Kept = TypeVar("Kept", bound=KeptQuarkPopup)


class QuarkScreen(GameScreen):
    """The Quark screen: live table, action bar, details popups, and the scores at the end."""
    owns_turn_words = True

    def build_body(self) -> Widget | None:
        self.body = QuarkBody(screen=self)
        self.popup: QuarkPopup | None = None
        self.shown: presenter.QuarkShown | None = None
        return self.body

    def build_foot(self) -> Widget | None:
        self.actions = QuarkActions(screen=self)
        return self.actions

    # -- drawing ------------------------------------------------------------------

    def render(self, view: GameView) -> None:
        colours = {player.name: player.colour for player in self.session.options.players}
        shown = self.shown = presenter.present(self.session.view(), colours)  # typed: the presenter reads its fields
        body = self.body
        body.over = shown.over
        self.actions.actions_left = shown.actions_left
        self.show_foot(not shown.over)
        body.supplies, body.decks, body.warning = shown.supplies, shown.decks, shown.warning
        self.turn_text = shown.turn_text
        table = body.ids.rows
        if len(table.children) != len(shown.rows):
            table.clear_widgets()
            for _ in shown.rows:
                table.add_widget(QuarkRow())
        for widget, row in zip(reversed(table.children), shown.rows, strict=True):
            widget.show(row)
        if shown.over:
            self._render_scores(shown)

    def _render_scores(self, shown: presenter.QuarkShown) -> None:
        self.body.verdict = shown.verdict
        box = self.body.ids.score_rows
        box.clear_widgets()
        for entry in shown.scores:
            box.add_widget(
                QuarkScoreRow(
                    name=entry.name,
                    colour=_colour(entry.colour),
                    particles=entry.particles,
                    atom=entry.atom,
                    leftover=entry.leftover,
                    total=entry.total,
                    winner=entry.winner,
                )
            )
        self.body.atoms_text = "\n".join(_atom_markup(line) for line in shown.atoms)

    # -- the action bar -----------------------------------------------------------------

    def _open(self, popup: QuarkPopup) -> QuarkPopup:
        self.popup = popup  # until it is dismissed (`QuarkPopup.on_dismiss`)
        popup.open()
        return popup

    @property
    def _player(self) -> str:
        return self.shown.player if self.shown else ""

    def open_draw(self) -> QuarkPopup:
        shown = self.shown
        assert shown is not None
        return self._open(QuarkDrawPopup(screen=self, player=shown.player, row=shown.quark_row, deck=shown.quark_deck))

    def open_discard_draw(self) -> QuarkPopup:
        shown = self.shown
        assert shown is not None
        return self._open(
            QuarkDiscardDrawPopup(screen=self, player=shown.player, row=shown.quark_row, deck=shown.quark_deck)
        )

    def popups_made_ahead(self) -> list[tuple[str, Callable[[], ModalView | None]]]:
        kept = [(kind.__name__, partial(self._new_popup, kind)) for kind in KEPT_POPUPS]
        return [*super().popups_made_ahead(), *kept]

    def _new_popup(self, kind: type[Kept]) -> Kept:
        """A popup to keep, set for the turn shown: its rank buttons are made now, not on the tap."""
        popup = kind(screen=self)
        if self.shown is not None:
            popup.ready(self.shown)
        return popup

    def _kept_popup(self, kind: type[Kept]) -> Kept:
        """The screen's popup of `kind`, made once (ahead, or on its first tap, whose opener sets it then)."""
        return self._kept.get(kind.__name__, partial(kind, screen=self))

    def open_annihilate(self) -> QuarkPopup:
        shown = self.shown
        assert shown is not None
        popup = self._kept_popup(QuarkAnnihilatePopup)
        popup.ready(shown)
        return self._open(popup)

    def open_create(self) -> QuarkPopup:
        shown = self.shown
        assert shown is not None
        popup = self._kept_popup(QuarkCreatePopup)
        popup.ready(shown)
        return self._open(popup)

    def open_end_turn(self) -> QuarkPopup:
        shown = self.shown
        assert shown is not None
        popup = QuarkEndTurnPopup(screen=self, player=shown.player)
        popup.hand = shown.hand
        popup.on_hand()
        return self._open(popup)

    def open_correct(self, whose: str | None = None, counter: str = "energy") -> QuarkPopup:
        """The correction popup, on `whose` counter (the current player's energy unless told)."""
        shown = self.shown
        assert shown is not None
        popup = self._kept_popup(QuarkCorrectPopup)
        popup.ready(shown, whose, counter)
        return self._open(popup)

    def draw(self, source: str) -> None:
        self._send_and_close(presenter.draw(self._player, source))

    def discard_draw(self, first: str, second: str) -> None:
        self._send_and_close(presenter.discard_draw(self._player, first, second))

    def decay(self) -> None:
        self.send(presenter.decay(self._player))

    def annihilate(self, rank: str, decayed: int = 0) -> None:
        self._send_and_close(presenter.annihilate(self._player, rank, decayed))

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


SCREEN = QuarkScreen
