"""The phones panel: one button per seat ("Ann: show my code"), that seat's QR code on a tap, and "Hide".

Opened from a game screen with private views (Quin's "Phones" button). Thin
over `ui.presenters.phones`: which seats, the words, the QR matrix. The code is
drawn as a Kivy texture, one texel per module, scaled up without smoothing so
its edges stay sharp; only one seat's code is on the screen at a time.
"Release Ann's phone" (or "New code for Ann" while no phone shows her page)
gives the seat a new code at once and closes the page that held it; the new
code shows only on Ann's own tap. "Forget every phone" does that for every
seat. A seat with a paired player display reads "Ann: also use my
phone": that tap is the player's choice and shows the code at once. Closing the
panel hides any code; the choices live in a set the caller keeps for the game
(`chosen=`), so a panel opened again remembers them. A game's screen keeps its panel (made ahead while the
table looks at the board, issue 26): it asks the server only while it is open, and a closed one shows no code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.clock import Clock, ClockEvent
from kivy.factory import Factory
from kivy.graphics.texture import Texture
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.popup import Popup

from ui import kv, theme
from ui.presenters.phones import Matrix, Phones, PhonesShown, SeatShown, luminance, present
from ui.widgets.fitted_popup import SteadyOpening

KV = kv.beside(__file__)
REFRESH_SECONDS = 1.0
"""How often an open panel asks the server which phones are connected (only while it is open)."""


def load_kv() -> None:
    kv.load_kv(KV)


def qr_texture(matrix: Matrix) -> Texture:
    """The QR code as a texture: one texel per module, dark on light, magnified without blur."""
    size = len(matrix)
    texture = Texture.create(size=(size, size), colorfmt="luminance")
    texture.blit_buffer(luminance(matrix), colorfmt="luminance", bufferfmt="ubyte")
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    return texture


class SeatRow(BoxLayout):
    """One seat's two fixed slots: its code's button ("Ann: show my code"), then room for "Release Ann's phone"."""

    def __init__(self, player: str, panel: PhonesPanel, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.player = player
        self.button = Factory.AccentButton()
        self.button.bind(on_release=lambda _b: panel.toggle(player))
        self.release_button = Factory.BigButton()
        self.release_button.bind(on_release=lambda _b: panel.release(player))
        self.add_widget(self.button)
        self.slot = Factory.Widget(size_hint_y=None, height=self.button.height)
        self.add_widget(self.slot)

    def show(self, seat: SeatShown, *, showing: bool) -> None:
        self.button.text = seat.show_text
        self.button.background_color = theme.BUTTON if showing else theme.ACCENT  # the code showing: Hide
        self.button.color = theme.TEXT if showing else theme.INK
        self.button.bold = not showing
        wanted = self.release_button if seat.release_text else self.slot
        if wanted.parent is not self:
            self.remove_widget(self.children[0])  # the second slot (Kivy keeps children newest first)
            self.add_widget(wanted)
        self.release_button.text = seat.release_text


class PhonesPanel(SteadyOpening, Popup):
    """Phones at the table; give it the phone server (`phones=`), the players, and the seats with a display.

    `chosen`: the display seats whose player chose a phone too; the panel adds
    to this very set, so the caller keeps it for the game and hands it again.
    """

    phones = ObjectProperty(None, allownone=True)
    caption = StringProperty("")
    url = StringProperty("")
    note = StringProperty("")
    qr = ObjectProperty(None, allownone=True)

    def __init__(
        self,
        *,
        players: Sequence[str],
        paired: Sequence[str] = (),
        chosen: set[str] | None = None,
        **kwargs: Any,
    ) -> None:
        load_kv()
        self.players = list(players)
        self.paired = list(paired)
        self.chosen = chosen if chosen is not None else set()
        self.shown_player: str | None = None
        self.shown = PhonesShown((), None, "", (), "")
        self._rows: list[SeatRow] = []
        super().__init__(**kwargs)
        self._poll: ClockEvent | None = None
        self.bind(on_dismiss=lambda *_a: self._closing())
        self.update()

    def on_pre_open(self) -> None:
        """Opening (again: a game's screen keeps its panel, issue 26): the seats as the server has them now, and
        again every `REFRESH_SECONDS` while it is open."""
        self.update()
        if self._poll is None:
            self._poll = Clock.schedule_interval(lambda _dt: self.update(), REFRESH_SECONDS)

    def update(self) -> None:
        """Redraw from the server's state: the seats' buttons, and the one code asked for (if any)."""
        phones: Phones | None = self.phones
        shown = present(self.players, phones, paired=self.paired, chosen=self.chosen, shown=self.shown_player)
        if shown != self.shown:
            self._draw(shown)

    def _draw(self, shown: PhonesShown) -> None:
        self.shown, self.shown_player = shown, shown.shown
        self.note, self.caption, self.url = shown.note, shown.caption, shown.url
        self.qr = qr_texture(shown.matrix) if shown.matrix else None
        seats = self.ids.seats
        if [seat.player for seat in shown.seats] != [row.player for row in self._rows]:
            seats.clear_widgets()
            self._rows = [SeatRow(seat.player, self) for seat in shown.seats]
            for row in self._rows:
                seats.add_widget(row)
        # Changed in place: each seat keeps its two slots, its code's button and the one for releasing its
        # phone, so nothing moves when "Release Ann's phone" appears (issue 21: it pushed Bo's button down).
        for row, seat in zip(self._rows, shown.seats, strict=True):
            row.show(seat, showing=seat.player == shown.shown)

    def toggle(self, player: str) -> None:
        """Show `player`'s code (hiding any other), or hide it if it shows.

        On a display seat this tap is also the player's choice of a phone too.
        """
        if player in self.paired:
            self.chosen.add(player)
        self.shown_player = None if self.shown_player == player else player
        self.update()

    def hide(self) -> None:
        self.shown_player = None
        self.update()

    def release(self, player: str) -> None:
        """A new code for `player`'s seat (the old page is closed); a code showing for it is hidden: the new one
        shows only on the player's own tap."""
        if self.phones is not None:
            self.phones.release(player)
        if self.shown_player == player:
            self.shown_player = None
        self.update()

    def forget_all(self) -> None:
        """Every seat a new code and every page closed, in one tap; no code shows until its own seat's tap."""
        if self.phones is not None:
            self.phones.forget_phones()
        self.shown_player = None
        self.update()

    def _closing(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        self.shown_player = None
        self.update()  # nothing of a code outlives the panel: its seats read "show my code" again, closed


Factory.register("PhonesPanel", cls=PhonesPanel)
