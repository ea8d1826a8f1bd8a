"""`FittedPopup`: a popup exactly as tall as its title and content need, at any screen size; and `SteadyOpening`.

Issue 14: a popup given a fixed share of the 480-pixel screen let its first
button cover its title. A subclass's kv rule sets
``height: self.frame_height + <content>.minimum_height``.

Issue 21 ("Popups that stack"): the second tap of a hurried double tap landed
on whatever the popup the first tap opened had under the finger (a player's
name in the leave picker, the same player in the next pairing question).
A `SteadyOpening` popup takes no touch until it is at rest: it fades in
over `OPENING_SECONDS` from the first frame after it opened, however long
building it took, and swallows every touch that begins meanwhile. It does so
through Kivy's public API only (``open(animation=False)``, `opacity`, an
`Animation` of its own), never ModalView's private fade.

Issue 26 ("quick on every tap"): making a popup's buttons and their rules
was most of a tap on the Menu or Settings. `KeptPopups` makes each at its
first opening and opens the same one again after.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.modalview import ModalView
from kivy.uix.popup import Popup

from ui.widgets.fitting import render_words_now

View = TypeVar("View", bound=ModalView)

OPENING_SECONDS = 0.25
"""How long a steady popup takes to appear, taking no touch: as long as Kivy's own `double_tap_time`."""


class SteadyOpening(ModalView):
    """A ModalView that takes no touch until it has finished appearing (mix it in before the popup class).

    It opens through Kivy's public ``open(animation=False)`` and fades itself in on its own `opacity` (a
    public property, where Kivy's own fade uses private members), starting on the frame after it opened:
    Kivy's would start at once and, after a slow frame (building the popup), be over before anyone saw it.
    Kivy's ``on_open`` comes at once, as for any popup opened without animation.
    """

    appearing = BooleanProperty(False)
    """True while it fades in: a touch now is a hurried finger's second tap, not an answer to it."""

    def open(self, *args: Any, **kwargs: Any) -> None:
        animate = bool(kwargs.pop("animation", True)) and self.parent is None  # an open one stays as it is
        Animation.cancel_all(self, "opacity")
        self.appearing = animate
        self.opacity = 0.0 if animate else 1.0
        super().open(*args, animation=False, **kwargs)
        if animate:
            Clock.schedule_once(lambda _dt: self._fade_in(), 0)

    def _fade_in(self) -> None:
        if not self.appearing:
            return  # dismissed (or opened at once) meanwhile
        fade = Animation(opacity=1.0, d=OPENING_SECONDS)
        fade.bind(on_complete=lambda *_a: self._appeared())
        fade.start(self)

    def _appeared(self) -> None:
        # One frame more, drawn whole: on a slow frame (a busy Pi) the fade can be over within a frame or two,
        # before the finger that opened it has left the glass.
        Clock.schedule_once(lambda _dt: setattr(self, "appearing", False), 0)

    def on_pre_dismiss(self) -> None:
        Animation.cancel_all(self, "opacity")
        self.appearing = False

    def on_touch_down(self, touch: Any) -> bool:
        if self.appearing:
            return True
        return bool(super().on_touch_down(touch))

    def on_touch_up(self, touch: Any) -> bool:
        if self.appearing and touch.grab_current is None:
            return True
        return bool(super().on_touch_up(touch))


class FittedPopup(SteadyOpening, Popup):
    """A popup as tall as its title and content need, steady while it opens.

    `frame_height` is Popup's own part (its padding, title and separator),
    measured from Kivy's Popup rule, so it follows the theme's title size.
    """

    frame_height = NumericProperty(0)

    def on_kv_post(self, base_widget: Any) -> None:
        super().on_kv_post(base_widget)
        frame = self._container.parent  # Popup's column: title, separator, then the container for our content
        for part in frame.children:
            part.bind(height=self._measure)
        frame.bind(padding=self._measure, spacing=self._measure)
        self._measure()

    def _measure(self, *_: Any) -> None:
        frame = self._container.parent
        parts = [part for part in frame.children if part.size_hint_y is None]  # all but the container
        _, top, _, bottom = frame.padding
        self.frame_height = top + bottom + sum(part.height for part in parts) + frame.spacing[1] * len(parts)


class KeptPopups:
    """Popups made at their first opening and opened again after, one of each kind.

    A kept popup is brought up to date as it opens (by its ``on_pre_open``, or
    by its opener): it must show what a new one would. While the last one of a kind is still
    fading out (Kivy removes it from the window only then, and until then
    cannot open it again) a new one is made, and kept instead.
    """

    def __init__(self) -> None:
        self._popups: dict[str, ModalView] = {}

    def make_ahead(self, kind: str, make: Callable[[], ModalView | None]) -> None:
        """Make the popup of `kind` now, before its first tap, unless one was made already; and size it as the
        window will, so that its layout and its words' textures are done before the tap too. `make` may give
        none (what it shows cannot be read now): its tap makes it, and says why if it still cannot."""
        from kivy.core.window import Window

        if kind not in self._popups:
            popup = make()
            if popup is not None:
                self._popups[kind] = popup
                Window.update_childsize([popup])

    def draw_ahead(self, kind: str) -> None:
        """Render the words of the popup of `kind` (if made) now, not at its first drawing (`render_words_now`).
        Called a frame after `make_ahead`, once the popup's layout has given each label its width."""
        popup = self._popups.get(kind)
        if popup is not None:
            render_words_now(popup)

    def made(self, kind: str) -> bool:
        """Whether the popup of `kind` is made (ahead of its tap, or at it)."""
        return self._popups.get(kind) is not None

    def get(self, kind: str, make: Callable[[], View]) -> View:
        popup = self._popups.get(kind)
        if popup is None or popup.parent is not None:
            popup = self._popups[kind] = make()
        else:
            # Off the window nothing of it should move: a fade-out cut short by a dismissal without animation
            # would otherwise go on, and take the popup away again once it is open.
            Animation.cancel_all(popup)
        return cast(View, popup)  # `make` of one kind always makes the same class
