"""The shared screen's side of the player displays: a status strip and the pairing question.

`DisplayStatusStrip` shows each player's display as connected, unplugged or
unpaired, plus any new display waiting to be paired; a game screen embeds it
and gives it the hub. Its chips fit the strip's width (issue 21: they
scrolled sideways under the Phones button): a chip too wide for a line of
its own wraps its words, never cut, so each seat's status is whole.

When a new display shows a code, the strip asks once, in a `PairingPopup`:
"Whose display shows 4 7 1?", with one big button per player. Tapping the
waiting display's chip asks again. The questions of one hub wait their turn
in one `PairingQueue`, whichever strip asked (issue 21: a display plugged in
during a game opened stacked popups): one popup at a time, the next one laid
out so that no choice lies where the previous popup's tapped button was (a
double tap does not pair a second display to the same player), players
without a display first, and a player who has one marked "replaces Ann's
display".

The hub calls the strip through the app's dispatcher, so everything here
runs in the UI thread. Nothing here shows a secret: only names and states.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Collection, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.utils import escape_markup

from hardware.display.hub import DisplayHub, DisplayState, DisplayStatus
from ui import kv, theme
from ui.widgets.fitted_popup import FittedPopup

KV = kv.beside(__file__)
EDGE = 8
"""Room between a pinned pairing popup and the window's edge, in dp."""
LOOK_AGAIN_SECONDS = 0.3
"""How soon a strip not on the screen yet looks again for a display waiting to be asked about."""
CHIP_ROOM = 30
"""A chip's room beside its words, in dp: its state's dot on the left (`CHIP_DOT`), padding on the right."""
CHIP_DOT = 24
"""Room for a chip's state's dot, left of its words, in dp."""

Rect = tuple[float, float, float, float]
"""Left, bottom, right and top in window coordinates."""

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


def choice_order(players: Sequence[str], with_display: Collection[str]) -> list[str]:
    """The pairing question's players: those without a display first, each part in seat order."""
    return [p for p in players if p not in with_display] + [p for p in players if p in with_display]


def choice_text(player: str, replaces: bool) -> str:
    """A pairing choice's words (Kivy markup, the name escaped): the name, and what choosing it replaces."""
    name = escape_markup(player)
    if not replaces:
        return f"[b]{name}[/b]"
    return f"[b]{name}[/b]\n[size=15sp]replaces {name}'s display[/size]"


def overlaps(a: Rect, b: Rect) -> bool:
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


def window_rect(widget: Any) -> Rect:
    left, bottom = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.right, widget.top)
    return (left, bottom, right, top)


class DisplayChip(Button):
    """One player's display state; a waiting display's chip opens the pairing question."""

    state_colour = ListProperty([1, 1, 1, 1])
    code = StringProperty("")
    owner = ObjectProperty(None, allownone=True)  # the strip (not `strip`: Label has a property of that name)
    natural_width = NumericProperty(0)
    """Its width with its words on one line each: it takes less only when the strip is narrower."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fbind("text", self._measure)
        self.fbind("font_size", self._measure)
        self._measure()

    def _measure(self, *_: Any) -> None:
        probe = CoreLabel(text=self.text, font_size=self.font_size, font_name=self.font_name)
        probe.refresh()
        self.natural_width = probe.content_width + dp(CHIP_ROOM)

    def ask(self) -> None:
        if self.code and self.owner is not None:
            self.owner.ask(self.code)


class PairingPopup(FittedPopup):
    """ "Whose display shows 4 7 1?" with one big button per player, and "Not now".

    `with_display`: players who have a display already; they come after the
    others and their buttons say that choosing them replaces it. `avoid`: the
    window rectangle of the previous popup's tapped button; this one is
    pinned to the top or the bottom of the window so that none of its
    choices lies there.
    """

    code = StringProperty("")
    question = StringProperty("")
    pinned = StringProperty("")  # "top", "bottom", or "" (centred: nothing to avoid)
    top: float  # Kivy's Widget.top, set below: declared for mypy, which cannot see through the untyped base

    def __init__(
        self,
        *,
        code: str,
        players: Sequence[str],
        on_choice: Callable[[str, str], Any],
        warning: str | None = None,
        with_display: Collection[str] = (),
        avoid: Rect | None = None,
        **kwargs: Any,
    ) -> None:
        load_kv()
        self._on_choice = on_choice
        self.avoid = avoid
        self.tapped: Rect | None = None  # the window rectangle of the button that closed it
        super().__init__(**kwargs)
        self.code = code
        self.question = f"Whose display shows {spaced(code)}?"
        if warning is not None:
            self.question = f"{warning}.\n{self.question}"
        self.choices: dict[str, Button] = {}
        for player in choice_order(players, with_display):
            button = Factory.PlayerChoice(text=choice_text(player, player in with_display))
            button.bind(on_release=lambda b, player=player: self.choose(player, b))
            self.choices[player] = button
            self.ids.players.add_widget(button)
            button.fbind("texture_size", self._even_heights)
        self.ids.players.bind(pos=self._align_center, size=self._align_center)

    def _even_heights(self, *_args: Any) -> None:
        """Every choice as tall as the tallest one's words need: one even row, nothing cut."""
        tallest = max(button.texture_size[1] for button in self.choices.values())
        for button in self.choices.values():
            button.height = max(dp(64), tallest + dp(16))

    def _align_center(self, *_args: Any) -> None:  # Kivy's ModalView centres itself here
        if not self._is_open:
            return
        window = self._window
        self.center_x = window.width / 2
        if self.avoid is None:
            self.pinned = ""
            self.center_y = window.height / 2
            return
        grid = self.ids.players
        below = self.top - grid.top  # the choices' place inside the popup
        top = window.height - dp(EDGE)
        at_top = (grid.x, top - below - grid.height, grid.right, top - below)
        self.pinned = "top" if not overlaps(at_top, self.avoid) else "bottom"
        if self.pinned == "top":
            self.top = top
        else:
            self.y = dp(EDGE)

    def choose(self, player: str, button: Any = None) -> None:
        if button is not None:
            self.tapped = window_rect(button)
        self._on_choice(self.code, player)
        self.dismiss()

    def not_now(self, button: Any = None) -> None:
        if button is not None:
            self.tapped = window_rect(button)
        self.dismiss()


class PairingQueue:
    """One hub's pairing questions, one at a time: the next opens when the one showing closes."""

    def __init__(self, hub: DisplayHub) -> None:
        self._hub = weakref.ref(hub)
        self.popup: PairingPopup | None = None
        self.waiting: list[str] = []  # codes asked about while a popup showed, in the order asked
        self.asked: set[str] = set()  # codes asked about by themselves once already
        self.last_tapped: Rect | None = None

    def ask(self, code: str) -> PairingPopup | None:
        """Open the question for `code`, or queue it behind the one showing (None then)."""
        if self.popup is not None:
            if code != self.popup.code and code not in self.waiting:
                self.waiting.append(code)
            return None
        return self._open(code)

    def _open(self, code: str) -> PairingPopup | None:
        hub = self._hub()
        if hub is None:
            return None
        statuses = list(hub.status())
        players = list(hub.players) or sorted({s.player for s in statuses if s.player})
        if not players:
            return None
        self.asked.add(code)
        warning = next((s.sentence for s in statuses if s.code == code), None)
        with_display = {s.player for s in statuses if s.player and s.state is not DisplayState.UNPAIRED}
        self.popup = PairingPopup(
            code=code,
            players=players,
            on_choice=self._pair,
            warning=warning,
            with_display=with_display,
            avoid=self.last_tapped,
        )
        self.popup.bind(on_dismiss=self._closed)
        self.popup.open()
        return self.popup

    def _pair(self, code: str, player: str) -> None:
        hub = self._hub()
        if hub is not None:
            hub.pair(code, player)

    def _closed(self, popup: PairingPopup) -> None:
        if popup is not self.popup:
            return
        self.popup = None
        self.last_tapped = popup.tapped
        hub = self._hub()
        pending = set(hub.pending_codes()) if hub is not None and hasattr(hub, "pending_codes") else None
        while self.waiting:
            code = self.waiting.pop(0)
            if pending is None or code in pending:  # a display unplugged or paired meanwhile is not asked about
                self._open(code)
                return


_QUEUES: weakref.WeakKeyDictionary[DisplayHub, PairingQueue] = weakref.WeakKeyDictionary()


def pairing_queue(hub: DisplayHub) -> PairingQueue:
    """The one queue of pairing questions for `hub`, shared by every strip showing it."""
    queue = _QUEUES.get(hub)
    if queue is None:
        queue = _QUEUES[hub] = PairingQueue(hub)
    return queue


class DisplayStatusStrip(BoxLayout):
    """The players' displays, one chip each; give it the hub (`hub=`), it keeps itself current."""

    hub = ObjectProperty(None, allownone=True)
    ask_automatically = BooleanProperty(True)
    statuses = ListProperty([])
    players = ObjectProperty(None, allownone=True)
    """The names of the players of the game whose screen shows the strip (None: the hub's game's): a screen made
    ahead, before the hub shows its game (`ui.kept_screens`), shows the chips it will show then."""
    following = BooleanProperty(True)
    """False while its screen is kept off the window for Resume (`ui.kept_screens`): the hub's news waits, and
    the chips stay as they were; following again, it is brought up to date at once (the chips change only if the
    displays did, so the screen's buffer is not drawn again for nothing)."""

    def __init__(self, **kwargs: Any) -> None:
        load_kv()
        self._unsubscribe: Callable[[], None] | None = None
        self._look_again = Clock.create_trigger(lambda _dt: self.update(), LOOK_AGAIN_SECONDS)
        super().__init__(**kwargs)
        self.update()  # `hub=` given to the constructor arrived before the kv rules made the chips row

    @property
    def popup(self) -> PairingPopup | None:
        """The pairing question showing for this strip's hub (whichever strip asked it)."""
        return pairing_queue(self.hub).popup if self.hub is not None else None

    def on_hub(self, _strip: Any, hub: DisplayHub | None) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if hub is not None:
            # The hub calls this through the app's dispatcher: it always runs in the UI thread.
            self._unsubscribe = hub.subscribe(self.update)
        self.update()

    def on_following(self, _strip: Any, following: bool) -> None:
        if following:
            self.update()

    def update(self) -> None:
        """Redraw the chips from the hub's status; ask about a display never asked about yet."""
        if not self.following:
            return
        self.statuses = list(self.hub.status(self.players)) if self.hub is not None else []
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
        if not self.ask_automatically or self.hub is None:
            return
        queue = pairing_queue(self.hub)
        fresh = [code for code in waiting if code not in queue.asked]
        if fresh and self.get_root_window() is None:
            # Only a strip on the screen asks (a game screen put away keeps no question); this one is
            # not there yet, or not any more: it looks again shortly, while a display waits unasked.
            self._look_again()
            return
        for code in fresh:
            queue.asked.add(code)
            queue.ask(code)

    def ask(self, code: str) -> PairingPopup | None:
        """Open the pairing question for the display showing `code` (or queue it behind the one showing)."""
        if self.hub is None:
            return None
        return pairing_queue(self.hub).ask(code)

    def close(self) -> None:
        """Stop listening to the hub (the screen is going away)."""
        self._look_again.cancel()
        self.hub = None
