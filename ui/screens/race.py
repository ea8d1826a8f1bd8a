"""Who goes first? The water race on the players' buttons (or the previous loser's choice).

The screen only shows what the race controller hands it and sends one
action: the winner's (or the previous loser's) ``choose_first``, through the
session, as the game's first action. The race itself (timing, false starts,
ties) is `companion.race`; the buttons are `hardware.race_buttons`. Snapshots
arrive through the dispatcher on the UI thread; nothing here runs on
gpiozero's threads.

Open it from a game screen with `open_race(game_screen)`.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen
from kivy.utils import get_color_from_hex

from companion.dispatch import Dispatcher, immediate
from companion.game import Refusal
from companion.race import Phase, choose_first, first_choice, format_ms
from ui.screens import load_kv

if TYPE_CHECKING:
    from companion.session import Session
    from hardware.race_buttons import RaceButtons, RaceController, RaceSnapshot
    from ui.screens.base import GameScreen
    from ui.table import Table
    from ui.widgets.table_hardware import TableHardwarePanel

log = logging.getLogger(__name__)
_HERE = Path(__file__).parent

GO_COLOUR = (0.40, 0.90, 0.45, 1)
WARN_COLOUR = (1.0, 0.72, 0.30, 1)
TEXT_COLOUR = (0.95, 0.95, 0.95, 1)


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
    headline_colour = ListProperty(list(TEXT_COLOUR))
    detail = StringProperty("")
    mode = StringProperty("")  # "loser", "test", "countdown", "set", "go", "done", "no race"
    simulated = BooleanProperty(False)

    def __init__(
        self,
        session: Session,
        table: Table,
        *,
        on_done: Callable[[], None],
        buttons: RaceButtons | None = None,
        rng: random.Random | None = None,
        timing: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        load_kv(_HERE / "race.kv")
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
        self.colours = {p.name: get_color_from_hex(p.colour) for p in session.options.players}
        self.cards: list[RacerCard] = []
        self.action_buttons: dict[str, RaceAction] = {}
        offer = first_choice(table.store.finished(), self.players, session.rules.name)
        if offer.chooser is not None:
            self.show_loser_choice(offer.chooser, offer.sentence)
        else:
            self.race_for_it()

    # -- the previous loser chooses ----------------------------------------------------------

    def show_loser_choice(self, chooser: str, sentence: str) -> None:
        self.mode = "loser"
        self.headline = f"{chooser} chooses who goes first"
        self.headline_colour = list(TEXT_COLOUR)
        self.detail = f"{sentence} Or race for it."
        self._show_cards()
        for card in self.cards:
            card.note_text = "Lost the last game: chooses" if card.name == chooser else ""
        self._choices(chooser, "loser", extra=[("race_instead", "Race for it", self.race_for_it, False)])

    # -- the race ---------------------------------------------------------------------------------

    def race_for_it(self) -> None:
        """Switch to the race: test mode first (live button states), then Start."""
        if self.controller is None and not self._open_race():
            return
        self.mode = "test"
        self._show_cards()
        for card in self.cards:
            card.note_text = ""
        if self.controller is not None:
            self.controller.refresh()

    def _open_race(self) -> bool:
        from hardware.race_buttons import RaceButtons, RaceController

        try:
            buttons = self._given_buttons or getattr(self.table, "race", None)
            if buttons is None:
                buttons = RaceButtons(self.table.config.race, pin_factory=self._pin_factory())
                self._owns_buttons = True
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
            self._add_panel(buttons)
        self._refresher = Clock.schedule_interval(lambda _dt: self._refresh_test_mode(), 0.1)
        return True

    def _pin_factory(self) -> Any:
        factory = getattr(self.table, "pin_factory", None)
        if factory is None:
            from hardware.pins import choose  # no hardware opened yet: simulated buttons

            factory = choose("simulated").factory
        return factory

    def _dispatcher(self) -> Dispatcher:
        """The table's dispatcher; Kivy's Clock if the table runs callbacks at once (not thread-safe here)."""
        dispatch = getattr(self.table, "dispatch", immediate)
        if dispatch is immediate:
            from ui.dispatch import clock_dispatcher

            return clock_dispatcher
        return dispatch  # type: ignore[no-any-return]

    def _add_panel(self, buttons: RaceButtons) -> None:
        from ui.widgets.table_hardware import TableHardwarePanel

        self.panel = TableHardwarePanel(buttons, self.players)
        self.ids.hardware_slot.add_widget(self.panel)
        self.panel.start()

    def _no_race(self, sentence: str) -> None:
        self.mode = "no race"
        self.headline = "Who goes first?"
        self.detail = sentence
        self._show_cards()
        self._table_choice()

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

    # -- showing a snapshot (on the UI thread, through the dispatcher) ------------------------------

    def show(self, snapshot: RaceSnapshot) -> None:
        if snapshot.version <= self._last_version or self.mode in ("loser", "no race", "closed"):
            return
        self._last_version = snapshot.version
        self.snapshot = snapshot
        race = snapshot.race
        for index, card in enumerate(self.cards):
            self._show_card(card, snapshot, index)
        if race.phase is Phase.ARMED:
            self.mode = "test"
            self.headline_colour = list(WARN_COLOUR if race.notice.startswith("False start") else TEXT_COLOUR)
            if race.notice.startswith("False start") or "too early" in race.notice:
                self.headline = "False start!"
            else:
                self.headline = "Ready? Tap Start" if not snapshot.problems else "Press your buttons to test them"
            parts = [race.notice] if race.notice else []
            parts += list(snapshot.problems)
            if not parts:
                parts = ["Both buttons work. GO comes after 3, 2, 1 and a short random wait."]
            self.detail = " ".join(parts)
            self._actions([("start", "Start", self.start, True, bool(snapshot.problems))])
        elif race.phase is Phase.COUNTDOWN:
            self.mode = "countdown"
            self.headline = str(race.count)
            self.headline_colour = list(TEXT_COLOUR)
            self.detail = "Glasses ready. Press only when your glass is empty!"
            self._actions([("stop", "Stop", self.stop_race, False, False)])
        elif race.phase is Phase.SET:
            self.mode = "set"
            self.headline = "Wait for it…"
            self.headline_colour = list(TEXT_COLOUR)
            self._actions([("stop", "Stop", self.stop_race, False, False)])
        elif race.phase is Phase.GO:
            self.mode = "go"
            self.headline = "GO!"
            self.headline_colour = list(GO_COLOUR)
            self.detail = "Drink! Press your button the moment your glass is empty."
            self._actions([("stop", "Stop (nobody else will press)", self.stop_race, False, False)])
        elif race.result is not None:
            self.mode = "done"
            result = race.result
            self.detail = result.sentence
            if result.winner is None:
                self.headline = "A tie!"
                self.headline_colour = list(WARN_COLOUR)
                self._actions([("again", "Race again", self.again, True, False)])
            else:
                self.headline = f"{result.winner} wins!"
                self.headline_colour = list(GO_COLOUR)
                self.detail = f"{result.sentence} {result.winner}, tap who goes first."
                self._choices(result.winner, "race", extra=[("again", "Race again", self.again, False)])

    def _show_cards(self) -> None:
        if self.cards:
            return
        for index, name in enumerate(self.players):
            card = RacerCard(name=name, colour=list(self.colours[name]), index=index)
            self.cards.append(card)
            self.ids.cards.add_widget(card)

    def _show_card(self, card: RacerCard, snapshot: RaceSnapshot, index: int) -> None:
        race = snapshot.race
        name = card.name
        pressed = snapshot.pressed[index] if index < len(snapshot.pressed) else False
        checked = snapshot.checked[index] if index < len(snapshot.checked) else False
        card.pressed = pressed
        if race.phase is Phase.ARMED:
            card.state_text = "Button: DOWN" if pressed else ("Button: up" if checked else "Button: not tested yet")
        else:
            card.state_text = "Button: DOWN" if pressed else "Button: up"
        time_ms = race.result.time_ms(name) if race.result is not None else race.time_ms(name)
        if time_ms is not None:
            card.time_text = format_ms(time_ms)
        elif race.phase is Phase.GO:
            card.time_text = "drinking…"
        elif race.phase is Phase.DONE and race.result is not None and race.result.how != "false starts":
            card.time_text = "no press"
        else:
            card.time_text = ""
        false_starts = race.false_starts_by(name)
        if name in race.out:
            card.note_text = "Out: two false starts"
        elif false_starts:
            card.note_text = "1 false start (one more loses)"
        else:
            card.note_text = ""
        card.winner = race.result is not None and race.result.winner == name

    # -- the action row -------------------------------------------------------------------------------

    def _actions(self, buttons: list[tuple[str, str, Callable[[], None], bool, bool]]) -> None:
        """Replace the action row: (key, text, callback, accent, disabled) per button."""
        if [(key, text) for key, text, *_rest in buttons] == [(k, b.text) for k, b in self.action_buttons.items()]:
            for key, _text, callback, accent, disabled in buttons:  # same buttons: update, never replace under a finger
                shown = self.action_buttons[key]
                shown.callback, shown.accent, shown.disabled = callback, accent, disabled
            return
        row = self.ids.actions
        row.clear_widgets()
        self.action_buttons = {}
        for key, text, callback, accent, disabled in buttons:
            button = RaceAction(text=text, accent=accent, disabled=disabled)
            button.callback = callback
            button.bind(on_release=lambda b: b.callback())
            self.action_buttons[key] = button
            row.add_widget(button)

    def _choices(
        self, chooser: str, how: str, *, extra: Sequence[tuple[str, str, Callable[[], None], bool]] = ()
    ) -> None:
        buttons: list[tuple[str, str, Callable[[], None], bool, bool]] = [
            (f"first:{name}", f"{name} goes first", lambda n=name: self.choose(n, chooser, how), True, False)
            for name in self.players
        ]
        buttons += [(key, text, cb, accent, False) for key, text, cb, accent in extra]
        self._actions(buttons)

    def _table_choice(self) -> None:
        self._actions(
            [
                (f"first:{name}", f"{name} goes first", lambda n=name: self.choose(n, n, "table"), True, False)
                for name in self.players
            ]
        )

    # -- the choice: the game's first action ----------------------------------------------------------

    def choose(self, player: str, chosen_by: str, how: str) -> bool:
        """Send ``choose_first`` through the session; back to the game if it is accepted."""
        try:
            self.session.act(choose_first(player, chosen_by, how))
        except Refusal as refusal:
            self.detail = str(refusal)
            self.headline_colour = list(WARN_COLOUR)
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
        if self._refresher is not None:
            self._refresher.cancel()
            self._refresher = None
        if self.panel is not None:
            self.panel.stop()
        if self.controller is not None:
            self.controller.close()
        if self._owns_buttons and self.buttons is not None:
            self.buttons.close()


def open_race(game_screen: GameScreen, **options: Any) -> RaceScreen:
    """Show the race over `game_screen`; when a choice is made (or Back), return to it.

    `options` go to `RaceScreen` (``buttons=``, ``rng=``, ``timing=``).
    """
    manager = game_screen.manager

    def done() -> None:
        manager.current = game_screen.name
        manager.remove_widget(screen)
        game_screen.refresh()

    for old in [s for s in manager.screens if isinstance(s, RaceScreen)]:
        old.close()
        manager.remove_widget(old)
    screen = RaceScreen(game_screen.session, game_screen.table, on_done=done, **options)
    manager.add_widget(screen)
    manager.current = screen.name
    return screen
