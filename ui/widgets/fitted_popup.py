"""`FittedPopup`: a popup exactly as tall as its title and content need, at any screen size.

Issue 14: a popup given a fixed share of the 480-pixel screen let its first
button cover its title. A subclass's kv rule sets
``height: self.frame_height + <content>.minimum_height``.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import NumericProperty
from kivy.uix.popup import Popup


class FittedPopup(Popup):
    """A popup as tall as its title and content need.

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
