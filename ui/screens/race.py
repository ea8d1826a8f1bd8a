"""Who goes first? The water race on the players' buttons (or the previous loser's choice).

The screen only shows what the race controller hands it, as the presenter
(`ui.presenters.race`) words it, and sends one action: the winner's (or the
previous loser's) ``choose_first``, through the session, as the game's first
action. The race itself (timing, false starts,
ties) is `companion.race`, run on the buttons by `hardware.race_control`; the
buttons themselves come from the table, as `ui.wiring` opened them: this
screen opens no device. Snapshots arrive through the dispatcher on the UI
thread; nothing here runs on gpiozero's threads.

Open it from a game screen with `open_race(game_screen)`. A game screen that may still race makes the race's
screen ahead (`race_made_ahead`: its cards, simulated buttons and actions made, laid out and their words drawn,
nothing opened or listened to), and the tap only begins it (issue 26).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen

from companion.dispatch import Dispatcher, immediate
from companion.game import Refusal
from companion.games.finger_chooser.rules import draw
from companion.race import choose_first, first_choice
from ui import theme
from ui.kv import beside, load_kv
from ui.presenters import race as presenter
from ui.presenters.finger_chooser import Choice
from ui.widgets.fitting import fit_text, render_words_now

if TYPE_CHECKING:
    from companion.session import AnySession
    from hardware.race_buttons import RaceButtons
    from hardware.race_control import RaceController, RaceSnapshot
    from ui.table import Table
    from ui.widgets.finger_chooser import FingerChooser
    from ui.widgets.table_hardware import TableHardwarePanel

log = logging.getLogger(__name__)
KV = beside(__file__)


class RaceHost(Protocol):
    """What the race needs of the game screen it is opened over (`ui.screens.base.GameScreen`).

    Named here rather than imported: the game screen opens the race, so its module imports this one.
    """

    name: str
    manager: Any  # Kivy's ScreenManager
    session: AnySession
    table: Table

    def refresh(self) -> None: ...


ACTION_FONTS = (19, 17, 15, 13)
"""An action's font sizes in sp, largest first (see `fit_text`)."""
SIMULATED_FONTS = (17, 15, 13, 11)
"""A simulated button's font sizes in sp, largest first."""
DRAW_AHEAD_FRAMES = 4
"""Frames after it is made ahead that the race's words are rendered (`render_words_now`): its layout, then its
fitted words (`fit_text`: a frame after a new size), settle over the first two or three."""


class RacerCard(BoxLayout):
    """One player's side of the race: their button's state, their time, their false starts."""

    name = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    state_text = StringProperty("")
    time_text = StringProperty("")
    note_text = StringProperty("")
    pressed = BooleanProperty(False)
    winner = BooleanProperty(False)
    index = NumericProperty(0)


class RaceAction(Button):
    """A button in the screen's action row (Start, Race again, a player's name...)."""

    accent = BooleanProperty(False)
    callback: Callable[[], None] = staticmethod(lambda: None)


class RaceScreen(Screen):
    """The water race, or the previous loser's choice, ending in the game's ``choose_first``."""

    headline = StringProperty("")
    headline_tone = StringProperty("text")  # "text", "warn" or "go": the theme colours it
    detail = StringProperty("")
    mode = StringProperty("")  # "loser", "test", "countdown", "set", "go", "done", "no race"
    simulated = BooleanProperty(False)

    def __init__(
        self,
        session: AnySession,
        table: Table,
        *,
        on_done: Callable[[], None],
        buttons: RaceButtons | None = None,
        rng: random.Random | None = None,
        timing: Mapping[str, Any] | None = None,
        begin: bool = True,
        **kwargs: Any,
    ) -> None:
        load_kv(KV)
        super().__init__(name="race", **kwargs)
        self.session = session
        self.table = table
        self._on_done = on_done
        self._given_buttons = buttons
        self._rng = rng
        self._timing = dict(timing or {})
        self.buttons: RaceButtons | None = None
        self._owns_buttons = False
        self.controller: RaceController | None = None
        self.panel: TableHardwarePanel | None = None
        self._unbind_keys: Callable[[], None] | None = None
        self._refresher: Any = None
        self._last_version = 0
        self.snapshot: RaceSnapshot | None = None
        self.players = [p.name for p in session.options.players]
        self.colours = {p.name: theme.rgba(p.colour) for p in session.options.players}
        self.cards: list[RacerCard] = []
        self.glass: FingerChooser | None = None  # the finger chooser, once the table asks for it
        self.action_buttons: dict[str, RaceAction] = {}
        if begin:
            self.begin()

    def begin(self) -> None:
        """The previous loser's choice, if the last game of this game was lost; else the race on the buttons."""
        offer = first_choice(self.table.store.finished(), self.players, self.session.game.name)
        if offer.chooser is not None:
            self._drop_panel()  # made ahead for a race; the loser chooses, on no button
            self.show_loser_choice(offer.chooser, offer.sentence)
        else:
            self.race_for_it()

    def make_ahead(self, size: Sequence[float]) -> None:
        """What the race shows before its first press (`presenter.testing`), made now at `size` (the window's),
        not begun: the table's simulated buttons are drawn but not read, no button is listened to."""
        self.size = tuple(size)
        buttons = self.table.race if self._given_buttons is None else self._given_buttons
        if buttons is not None and buttons.simulated and len(self.players) <= buttons.count:
            self._add_panel(buttons)
        self._present(presenter.testing(self.players))

    # -- the previous loser chooses ----------------------------------------------------------

    def show_loser_choice(self, chooser: str, sentence: str) -> None:
        self._present(presenter.loser_chooses(self.players, chooser, sentence))

    # -- the race ---------------------------------------------------------------------------------

    def race_for_it(self) -> None:
        """Switch to the race: test mode first (live button states), then Start."""
        if self.controller is None and not self._open_race():
            return
        self._present(presenter.testing(self.players))
        self._last_version = 0  # the race's snapshots show again (after the finger chooser)
        if self.controller is not None:
            self.controller.refresh()

    def _open_race(self) -> bool:
        from hardware.race_control import RaceController
        from ui import wiring

        try:
            buttons = self._given_buttons
            if buttons is None:
                buttons, self._owns_buttons = wiring.race_buttons(self.table)
            self.buttons = buttons
            if len(self.players) > buttons.count:
                self._no_race(
                    f"The race needs a button per player, and this table has {buttons.count}. "
                    "Agree at the table, then tap who goes first."
                )
                return False
            timing = {"tie_window_ms": self.table.config.race.tie_window_ms, **self._timing}
            self.controller = RaceController(
                buttons,
                self.players,
                call_soon=self._dispatcher(),
                on_change=self.show,
                rng=self._rng,
                **timing,
            )
        except Exception as error:  # pins busy, a bad pin number: say so and let the table choose
            log.warning("race buttons unavailable: %s", error)
            self._no_race(f"The race buttons could not be used ({error}). Agree at the table, then tap who goes first.")
            return False
        self.simulated = bool(buttons.simulated)
        if self.simulated:
            if self.panel is None or self.panel.buttons is not buttons:  # made ahead for these buttons, or not
                self._add_panel(buttons)
            assert self.panel is not None
            self.panel.start()
        self._refresher = Clock.schedule_interval(lambda _dt: self._refresh_test_mode(), 0.1)
        return True

    def _dispatcher(self) -> Dispatcher:
        """The table's dispatcher; Kivy's Clock if the table runs callbacks at once (not thread-safe here)."""
        dispatch = self.table.dispatch
        if dispatch is immediate:
            from ui.dispatch import clock_dispatcher

            return clock_dispatcher
        return dispatch

    def _add_panel(self, buttons: RaceButtons) -> None:
        """The simulated buttons' panel, in its slot; not yet reading the pins (its `start`)."""
        from ui.widgets.table_hardware import TableHardwarePanel

        self._drop_panel()
        self.panel = TableHardwarePanel(buttons, self.players)
        for button in self.panel.sim_buttons:  # "Wilhelmina Mayer's button [A / left Shift]" wraps, whole
            fit_text(button, SIMULATED_FONTS)
        self.ids.hardware_slot.add_widget(self.panel)

    def _drop_panel(self) -> None:
        if self.panel is not None:
            self.panel.stop()
            self.ids.hardware_slot.remove_widget(self.panel)
            self.panel = None

    def _no_race(self, sentence: str) -> None:
        self._drop_panel()  # no race on these buttons: none is shown
        self._present(presenter.no_race(self.players, sentence))

    def _refresh_test_mode(self) -> None:
        # Settles a tap shorter than the debounce time, so the live state never sticks.
        if self.controller is not None and self.mode == "test":
            self.controller.refresh()

    def start(self) -> None:
        if self.controller is not None:
            problems = self.controller.start()
            if problems:
                self.detail = " ".join(problems)

    def again(self) -> None:
        if self.controller is not None:
            self.controller.again()

    def stop_race(self) -> None:
        if self.controller is not None:
            self.controller.stop()

    # -- the finger chooser ------------------------------------------------------------------------------

    def choose_by_fingers(self) -> None:
        """The finger chooser in the cards' place: one finger per player, one chosen by the table's dice."""
        if self.glass is None:
            from ui.widgets.finger_chooser import FingerChooser

            self.glass = FingerChooser()
            self.glass.fingers.needed = len(self.players)
            self.glass.decide = self._finger_chosen
            self.glass.bind(headline=self._glass_headline)
        self.glass.clear()
        self._present(presenter.fingers(self.players))
        self._glass_headline(self.glass, self.glass.headline)

    def _glass_headline(self, _glass: Any, text: str) -> None:
        if self.mode == "fingers":
            self.headline = text

    def _finger_chosen(self, rings: tuple[int, ...]) -> Choice:
        """The fingers are still: the dice choose one (fairly: `draw`); what is stored is the ``choose_first``."""
        ring = draw(rings, self.table.dice)
        self._present(presenter.finger_chosen(self.players, ring))
        return Choice(chosen=ring)

    # -- showing a snapshot (on the UI thread, through the dispatcher) ------------------------------

    def show(self, snapshot: RaceSnapshot) -> None:
        if snapshot.version <= self._last_version or self.mode in ("loser", "no race", "closed", "fingers"):
            return
        self._last_version = snapshot.version
        self.snapshot = snapshot
        self._present(presenter.present(snapshot))

    def _present(self, shown: presenter.RaceShown) -> None:
        """Copy what the presenter made onto the widgets."""
        self.mode = shown.mode
        self.headline = shown.headline
        self.headline_tone = shown.tone
        self.detail = shown.detail
        self._show_cards()
        for card, data in zip(self.cards, shown.cards, strict=False):
            card.state_text, card.time_text, card.note_text = data.state_text, data.time_text, data.note_text
            card.pressed, card.winner = data.pressed, data.winner
        self._actions(shown.controls)

    def _show_cards(self) -> None:
        """The racers' cards, or in their place the finger chooser's glass."""
        slot = self.ids.cards
        if self.mode == "fingers":
            if self.glass is not None and self.glass.parent is None:
                slot.clear_widgets()
                self.cards = []
                slot.add_widget(self.glass)
            return
        if self.glass is not None and self.glass.parent is not None:  # it is only ever in the cards' slot
            self.glass.clear()
            slot.remove_widget(self.glass)
        if self.cards:
            return
        for index, name in enumerate(self.players):
            card = RacerCard(name=name, colour=list(self.colours[name]), index=index)
            self.cards.append(card)
            self.ids.cards.add_widget(card)

    # -- the action row -------------------------------------------------------------------------------

    def _callback(self, control: presenter.Control) -> Callable[[], None]:
        if control.action is not None:
            action = control.action

            def send() -> None:
                self._send_choice(action)

            return send
        return {
            "start": self.start,
            "stop": self.stop_race,
            "again": self.again,
            "race_instead": self.race_for_it,
            "fingers_again": self.choose_by_fingers,
        }[control.key]

    def _actions(self, controls: Sequence[presenter.Control]) -> None:
        """Replace the action row with `controls` (same buttons: update them, never replace under a finger)."""
        if [(c.key, c.text) for c in controls] == [(k, b.text) for k, b in self.action_buttons.items()]:
            for control in controls:
                shown = self.action_buttons[control.key]
                shown.callback, shown.accent, shown.disabled = self._callback(control), control.accent, control.disabled
            return
        row = self.ids.actions
        row.clear_widgets()
        self.action_buttons = {}
        for control in controls:
            button = RaceAction(text=control.text, accent=control.accent, disabled=control.disabled)
            fit_text(button, ACTION_FONTS)
            button.callback = self._callback(control)
            button.bind(on_release=lambda b: b.callback())
            self.action_buttons[control.key] = button
            row.add_widget(button)

    # -- the choice: the game's first action ----------------------------------------------------------

    def choose(self, player: str, chosen_by: str, how: str) -> bool:
        """Send ``choose_first`` through the session; back to the game if it is accepted."""
        return self._send_choice(choose_first(player, chosen_by, how))

    def _send_choice(self, action: Mapping[str, Any]) -> bool:
        try:
            self.session.act(dict(action))
        except Refusal as refusal:
            self.detail = str(refusal)
            self.headline_tone = "warn"
            return False
        self.close()
        self._on_done()
        return True

    def back(self) -> None:
        """Leave without choosing (the first seated player starts unless someone chooses later)."""
        self.close()
        self._on_done()

    # -- keys, and leaving ----------------------------------------------------------------------------------

    def on_enter(self, *_args: Any) -> None:
        if self.simulated and self.buttons is not None and self._unbind_keys is None:
            from ui.widgets.table_hardware import bind_keys

            self._unbind_keys = bind_keys(self.buttons)

    def on_leave(self, *_args: Any) -> None:
        self._release_keys()

    def _release_keys(self) -> None:
        if self._unbind_keys is not None:
            self._unbind_keys()
            self._unbind_keys = None

    def close(self) -> None:
        """Stop the race and let go of the keys, the panel and any buttons this screen opened. Safe twice."""
        self.mode = "closed"
        self._release_keys()
        if self.glass is not None:
            self.glass.clear()
        if self._refresher is not None:
            self._refresher.cancel()
            self._refresher = None
        if self.panel is not None:
            self.panel.stop()
        if self.controller is not None:
            self.controller.close()
        if self._owns_buttons and self.buttons is not None:
            self.buttons.close()


def race_made_ahead(game_screen: RaceHost) -> RaceScreen:
    """The race's screen for `game_screen`, made now as it will show (`RaceScreen.make_ahead`) and its words drawn
    the frame after, for `open_race` to begin at the tap."""
    from kivy.core.window import Window

    screen = RaceScreen(game_screen.session, game_screen.table, on_done=lambda: None, begin=False)
    screen.make_ahead(Window.size)

    def draw(frames: int) -> None:
        render_words_now(screen)
        if frames > 1:
            Clock.schedule_once(lambda _dt: draw(frames - 1), 0)

    Clock.schedule_once(lambda _dt: draw(DRAW_AHEAD_FRAMES), 0)
    return screen


def open_race(game_screen: RaceHost, *, ahead: RaceScreen | None = None, **options: Any) -> RaceScreen:
    """Show the race over `game_screen`; when a choice is made (or Back), return to it. `ahead` is its screen made
    before the tap (`race_made_ahead`), begun now.

    `options` go to a new `RaceScreen` (``buttons=``, ``rng=``, ``timing=``); with them, `ahead` is not used.
    """
    manager = game_screen.manager

    def done() -> None:
        manager.current = game_screen.name
        manager.remove_widget(screen)
        game_screen.refresh()

    for old in [s for s in manager.screens if isinstance(s, RaceScreen)]:
        old.close()
        manager.remove_widget(old)
    if ahead is None or options:
        screen = RaceScreen(game_screen.session, game_screen.table, on_done=done, **options)
    else:
        screen = ahead
        screen._on_done = done
        screen.begin()
    manager.add_widget(screen)
    manager.current = screen.name
    return screen
