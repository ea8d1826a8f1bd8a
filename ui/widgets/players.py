"""Widgets that show the players: a game's names, as many as fit; a player's wins as a bar in their colour.

Home shows both (an unfinished game's row, the wins strip), and so do its popups (a past game's row, the
wins per game): they live here, apart from either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.core.text import Label as CoreLabel
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup

from ui import kv
from ui.presenters import home as presenter
from ui.theme import SEAT_COLOURS

if TYPE_CHECKING:
    from ui.presenters.home import Bar

KV = kv.beside(__file__)


class NamesLabel(Label):
    """Players' names, whole: as many as fit on its line, then "+2" (a tap on the row shows them all).

    Issue 21: "An unfinished game's players read 'An...r 4, Player 5'".
    """

    names = ListProperty([])

    def on_names(self, *_: Any) -> None:
        self._fit()

    def on_size(self, *_: Any) -> None:
        self._fit()

    def _fit(self) -> None:
        def measure(text: str) -> float:
            core = CoreLabel(text=text, font_size=self.font_size, font_name=self.font_name, bold=self.bold)
            core.refresh()
            return float(core.content_width)

        self.text = presenter.names_that_fit(list(self.names), self.width, measure)


class WinsBar(BoxLayout):
    """One player's bar: name and count above, a bar as long as their share of the best, in their colour."""

    name = StringProperty("")
    shown_name = StringProperty("")
    """The name as the bar's markup label shows it: escaped, so a name is never markup."""
    count = NumericProperty(0)
    share = NumericProperty(0.0)
    colour = StringProperty(SEAT_COLOURS[0])

    def __init__(self, bar: Bar, **kwargs: Any) -> None:
        kv.load_kv(KV)
        super().__init__(
            name=bar.name, shown_name=escape_markup(bar.name), count=bar.count, share=bar.share, colour=bar.colour,
            **kwargs,
        )  # fmt: skip
