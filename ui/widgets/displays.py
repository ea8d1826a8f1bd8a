"""The shared screen's side of the player displays: a status strip and the pairing question.

`DisplayStatusStrip` shows each player's display as connected, unplugged or
unpaired, plus any new display waiting to be paired; a game screen embeds it
and gives it the hub. When a new display shows a code, the strip asks once,
in a `PairingPopup`: "Whose display shows 4 7 1?", with one big button per
player. Tapping the waiting display's chip asks again.

The hub calls the strip through the app's dispatcher, so everything here
runs in the UI thread. Nothing here shows a secret: only names and states.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.core.window import Window
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.popup import Popup

from hardware.display.hub import DisplayState, DisplayStatus
from ui import kv, theme

KV = kv.beside(__file__)

_COLOURS = {
    DisplayState.CONNECTED: theme.CONNECTED,
    DisplayState.UNPLUGGED: theme.UNPLUGGED,
    DisplayState.UNPAIRED: theme.UNPAIRED,
}


def load_kv() -> None:
    """Load this module's rules (once)."""
    kv.load_kv(KV)


def spaced(code: str) -> str:
    """``"471"`` → ``"4 7 1"``, as the display shows it."""
    return " ".join(code)


def chip_text(status: DisplayStatus) -> str:
    """One chip's words: whose display and how it is."""
    if status.player is None and status.sentence is not None:
        return f"{status.sentence}.\nTap to pair it ({spaced(status.code or '')})"
    if status.player is None:
        return f"New display {spaced(status.code or '')}: tap to pair"
    words = {
        DisplayState.CONNECTED: "display on",
        DisplayState.UNPLUGGED: "display unplugged",
        DisplayState.UNPAIRED: "no display",
    }
    return f"{status.player}: {words[status.state]}"


class DisplayChip(Button):
    """One player's display state; a waiting display's chip opens the pairing question."""

    state_colour = ListProperty([1, 1, 1, 1])
    code = StringProperty("")
    owner = ObjectProperty(None, allownone=True)  # the strip (not `strip`: Label has a property of that name)

    def ask(self) -> None:
        if self.code and self.owner is not None:
            self.owner.ask(self.code)


class PairingPopup(Popup):
    """ "Whose display shows 4 7 1?" with one big button per player, and "Not now"."""

    code = StringProperty("")
    question = StringProperty("")

    def __init__(
        self,
        *,
        code: str,
        players: Sequence[str],
        on_choice: Callable[[str, str], Any],
        warning: str | None = None,
        **kwargs: Any,
    ) -> None:
        load_kv()
        self._on_choice = on_choice
        super().__init__(**kwargs)
        self.code = code
        self.question = f"Whose display shows {spaced(code)}?"
        if warning is not None:
            self.question = f"{warning}.\n{self.question}"
        for player in players:
            button = Factory.PlayerChoice(text=player)
            button.bind(on_release=lambda _b, player=player: self.choose(player))
            self.ids.players.add_widget(button)
        # Room for the question, one big button per player and "Not now"; never taller than the window.
        wanted = dp(150) + len(players) * dp(64) + dp(56) + (dp(64) if warning is not None else 0)
        self.height = min(wanted, Window.height * 0.95)

    def choose(self, player: str) -> None:
        self._on_choice(self.code, player)
        self.dismiss()


class DisplayStatusStrip(BoxLayout):
    """A row of chips, one per player's display; give it the hub (`hub=`), it keeps itself current."""

    hub = ObjectProperty(None, allownone=True)
    ask_automatically = BooleanProperty(True)
    statuses = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        load_kv()
        self._unsubscribe: Callable[[], None] | None = None
        self._asked: set[str] = set()
        self.popup: PairingPopup | None = None
        super().__init__(**kwargs)
        self.update()  # `hub=` given to the constructor arrived before the kv rules made the chips row

    def on_hub(self, _strip: Any, hub: Any) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if hub is not None:
            # The hub calls this through the app's dispatcher: it always runs in the UI thread.
            self._unsubscribe = hub.subscribe(self.update)
        self.update()

    def update(self) -> None:
        """Redraw the chips from the hub's status; ask about a display never asked about yet."""
        self.statuses = list(self.hub.status()) if self.hub is not None else []
        chips = self.ids.get("chips")
        if chips is None:
            return
        # Chips are changed in place, not made anew: one under a finger stays where it is when news arrives.
        shown = chips.children[::-1]  # Kivy keeps children newest first
        for extra in shown[len(self.statuses) :]:
            chips.remove_widget(extra)
        for i, status in enumerate(self.statuses):
            if i < len(shown):
                chip = shown[i]
            else:
                chip = DisplayChip(owner=self)
                chips.add_widget(chip)
            chip.text = chip_text(status)
            chip.state_colour = theme.WARN if status.claims else _COLOURS[status.state]
            chip.code = status.code or ""
        # A display that claimed someone's identity without proving it is not asked about by itself:
        # pairing it is a deliberate step (a tap on its warning), never a popup to wave away.
        waiting = [s.code for s in self.statuses if s.player is None and s.code and s.claims is None]
        if self.ask_automatically and self.popup is None:
            fresh = [code for code in waiting if code not in self._asked]
            if fresh:
                self.ask(fresh[0])

    def ask(self, code: str) -> PairingPopup | None:
        """Open the pairing question for the display showing `code`."""
        if self.hub is None or self.popup is not None:
            return None
        players = list(self.hub.players) or sorted({s.player for s in self.statuses if s.player})
        if not players:
            return None
        self._asked.add(code)
        warning = next((s.sentence for s in self.statuses if s.code == code), None)
        self.popup = PairingPopup(code=code, players=players, on_choice=self._pair, warning=warning)
        self.popup.bind(on_dismiss=self._closed)
        self.popup.open()
        return self.popup

    def _pair(self, code: str, player: str) -> None:
        if self.hub is not None:
            self.hub.pair(code, player)

    def _closed(self, *_args: Any) -> None:
        self.popup = None

    def close(self) -> None:
        """Stop listening to the hub (the screen is going away)."""
        self.hub = None
