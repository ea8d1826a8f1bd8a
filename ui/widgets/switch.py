"""`Instant`: the screen manager's switch from one screen to the next, done within the tap's frame.

Kivy's `NoTransition` shows the new screen at once, but leaves the screen going out in the window until its
animation of no length ends on the next clock tick: the frame that answered a tap drew the whole of the screen
it replaced under the new one (home, every label of it, under a game's two buffers), and the manager refused
touches meanwhile. Here the screen going out leaves the window as the new one comes in, and the screens hear
`on_enter` and `on_leave` at once.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.screenmanager import TransitionBase


class Instant(TransitionBase):
    """A switch with no animation and no frame where both screens are on the window."""

    def start(self, manager: Any) -> None:
        self.manager = manager
        screen_in, screen_out = self.screen_in, self.screen_out
        self.add_screen(screen_in)
        screen_in.pos = manager.pos
        screen_in.transition_state, screen_in.transition_progress = "in", 1.0
        screen_out.transition_state, screen_out.transition_progress = "out", 0.0
        screen_in.dispatch("on_pre_enter")
        screen_out.dispatch("on_pre_leave")
        self.dispatch("on_complete")  # TransitionBase's own handler takes the screen going out off the window
        screen_in.dispatch("on_enter")
        screen_out.dispatch("on_leave")
