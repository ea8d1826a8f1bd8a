"""`FitScroll`: a list that scrolls only when its rows do not fit, so a tap on a row that fits is answered at once.

Kivy's ScrollView holds back every touch that begins in it until it knows
whether the finger scrolls: a quick tap (shorter than its ``scroll_timeout``,
a quarter of a second: nearly every tap) reaches the row under it only
0.2 s after the finger has left the glass (Kivy's ``on_scroll_stop``). That
was most of the wait after a tap on a game to start, on Resume, or on a
past game (issue 26: "Every tap answered quickly"). A list whose rows all
fit has nothing to scroll: here it takes no part in touches then, and its
rows answer as any button does. Nor can such a list be dragged a little
and bounce back: nothing moves under a finger. With more rows than fit, it
scrolls as before (Kivy's own behaviour, the theme's bar).
"""

from __future__ import annotations

from typing import Any

from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget


class FitScroll(ScrollView):
    """A vertical ScrollView that scrolls (and holds touches back) only while its content is taller than it."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("do_scroll_x", False)
        super().__init__(**kwargs)
        self.fbind("height", self._fit)

    def add_widget(self, widget: Widget, *args: Any, **kwargs: Any) -> None:
        super().add_widget(widget, *args, **kwargs)
        widget.fbind("height", self._fit)
        self._fit()

    def remove_widget(self, widget: Widget, *args: Any, **kwargs: Any) -> None:
        widget.funbind("height", self._fit)
        super().remove_widget(widget, *args, **kwargs)
        self._fit()

    @property
    def fits(self) -> bool:
        """Every row shows: nothing to scroll."""
        return all(child.height <= self.height for child in self.children)

    def _fit(self, *_args: Any) -> None:
        self.do_scroll_y = not self.fits
