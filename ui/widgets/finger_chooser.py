"""The glass the fingers go on: a ring under every finger, the still count, the choice.

Thin over `ui.presenters.finger_chooser.Fingers`: each touch that lands here is grabbed and handed on (its id,
where it is, when), and the rings are drawn from what `Fingers.rings` says. While there are fingers down, a tick
(`TICK` a second) redraws the count and, once the fingers have been still long enough, calls `decide` with the
rings present: the owner asks the dice and returns the `Choice` (or None: nothing chosen, the count starts over).
The chosen ring then grows and the others fade.

Every finger is a touch of its own: on the Pi the panel's ten touch points come through Kivy's mtdev provider
(`ui.boot`); on a laptop a right-click leaves a red dot that stays down as one more finger (Kivy's multi-touch
emulation, asked for here only: elsewhere the mouse makes no red dots). Time is `now`, which a test may step.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock, ClockEvent
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.stencilview import StencilView
from kivy.uix.widget import Widget

from companion import palette
from ui import kv, theme
from ui.presenters.finger_chooser import Choice, Fingers

KV = kv.beside(__file__)
TICK = 1 / 20
"""How often the count is looked at while fingers are down, in seconds: the progress ring moves smoothly and the
choice comes within a twentieth of a second of the two."""
RADIUS = 46
"""A ring's radius in dp: round a fingertip (about 1 cm) with room for its number above."""
GROWN = 1.7
"""How much the chosen ring grows."""
FADED = 0.2
"""The opacity the rings not chosen fade to."""


def load_kv() -> None:
    kv.load_kv(KV)


class FingerRing(Widget):
    """One finger's ring: its colour, its label (number or team letter) and the still count around it."""

    colour = ListProperty([1, 1, 1, 1])
    ink = ListProperty([1, 1, 1, 1])  # the label's colour: dark on a light ring, light on a dark one
    label = StringProperty("")
    radius = NumericProperty(dp(RADIUS))
    progress = NumericProperty(0.0)  # the still count, 0 to 1: an arc round the ring
    finger = ListProperty([0.0, 0.0])  # where the finger is: the ring's centre (its badge sits above, in its box)
    room = ListProperty([0.0, 0.0, 1e6, 1e6])  # the glass: x, y, right, top (the badge stays inside it)
    badge = ListProperty([0.0, 0.0])  # the badge's centre (the kv rule works it out)


class FingerChooser(StencilView):
    """The fingers' glass. `decide` answers a still set of rings with a `Choice`; `headline` says what to do now.

    A stencil: a ring near the edge is cut there, never drawn over what lies beside the glass.
    """

    headline = StringProperty("")
    phase = StringProperty("waiting")  # "waiting", "counting", "chosen" (see `Fingers.phase`)

    def __init__(self, **kwargs: Any) -> None:
        load_kv()
        super().__init__(**kwargs)
        self.fingers = Fingers()
        self.now: Callable[[], float] = time.monotonic
        self.decide: Callable[[tuple[int, ...]], Choice | None] = lambda _rings: None
        self.rings: dict[Hashable, FingerRing] = {}
        self._ticker: ClockEvent | None = None
        self._shown_choice: Choice | None = None
        self.show()

    # -- touches -------------------------------------------------------------------------------------------

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        if "multitouch_sim" in touch.profile:
            touch.multitouch_sim = True  # a laptop's right-click: a red dot that stays, one more finger
        touch.grab(self)
        self.fingers.down(touch.uid, touch.x, touch.y, self.now())
        self.show()
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(self.collide_point(*touch.pos))
        self.fingers.move(touch.uid, touch.x, touch.y, self.now())
        self.show()
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(self.collide_point(*touch.pos))
        touch.ungrab(self)
        self.fingers.up(touch.uid, self.now())
        self.show()
        return True

    # -- the count -------------------------------------------------------------------------------------------

    def tick(self, *_args: Any) -> None:
        """Look at the count: ask for the choice once the fingers have been still long enough."""
        now = self.now()
        if self.fingers.due(now):
            choice = self.decide(self.fingers.ask())
            if choice is not None:
                self.fingers.chosen(choice)
            else:
                self.fingers.since = now  # refused (the card is full...): the count starts over
                self.fingers.asked = False
        self.show()

    def set_teams(self, teams: int) -> None:
        """Choose one finger (1), or split the fingers into `teams` teams; the count starts over."""
        self.fingers.teams = teams
        self.fingers.since = self.now()
        self.fingers.asked = False
        self.show()

    def clear(self) -> None:
        """Forget every finger (the screen is left, or a new round is wanted), and stop ticking."""
        self.fingers.clear()
        self.show()

    # -- drawing -----------------------------------------------------------------------------------------------

    def show(self) -> None:
        """Put a ring under every finger, as `Fingers` says, and tick while fingers are down."""
        now = self.now()
        fingers = self.fingers
        shown = fingers.rings()
        keys = {r.key for r in shown}
        for key in [k for k in self.rings if k not in keys]:
            gone = self.rings.pop(key)
            Animation.cancel_all(gone)
            self.remove_widget(gone)
        progress = fingers.progress(now)
        fresh_choice = fingers.choice is not None and fingers.choice != self._shown_choice
        for seen in shown:
            ring = self.rings.get(seen.key)
            if ring is None:
                ring = self.rings[seen.key] = FingerRing()
                self.add_widget(ring)
            ring.room = [self.x, self.y, self.right, self.top]
            ring.finger = [seen.x, seen.y]
            ring.colour = list(theme.rgba(seen.colour))
            ring.ink = list(theme.INK if palette.is_light(seen.colour) else theme.TEXT)
            ring.label = seen.label
            ring.progress = progress
            if fresh_choice:
                Animation.cancel_all(ring)
                radius, opacity = dp(RADIUS) * (GROWN if seen.grown else 1.0), FADED if seen.faded else 1.0
                Animation(
                    radius=radius, opacity=opacity, duration=0.4, t="out_back" if seen.grown else "out_quad"
                ).start(ring)
            elif fingers.choice is None:
                ring.radius, ring.opacity = dp(RADIUS), 1.0
        self._shown_choice = fingers.choice
        self.phase = fingers.phase
        self.headline = fingers.headline(now)
        self._keep_ticking(bool(fingers.fingers) and fingers.choice is None)

    def _keep_ticking(self, wanted: bool) -> None:
        if wanted and self._ticker is None:
            self._ticker = Clock.schedule_interval(self.tick, TICK)
        elif not wanted and self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
