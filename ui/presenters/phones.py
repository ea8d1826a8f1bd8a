"""The phones panel on the shared screen: which seats get a code, the buttons' words, and the QR code itself.

Plain Python, tested without a window. The panel talks to an object with the
phone server's interface (`url_for`, `status`, `release`; see
``hardware.phones.server.PhoneServer``). Only one seat's code shows at a time,
and only after a tap on that seat's own button ("Ann: show my code"), so the
neighbours do not photograph it. A seat with a paired player display may use a
phone too (issue 15: "The player chooses on the touchscreen"): its button reads
"Ann: also use my phone" until Ann taps it (or a phone on that seat is connected), then
like any other seat's. The panel keeps who chose; the server knows nothing of it.

The table controls the codes: a phone seat's second button gives it a new
code ("New code for Ann", or "Release Ann's phone" while a phone shows her
page): the old code opens nothing any more, the page that held the seat is
closed, and the new code shows only on Ann's own tap. "Forget every phone"
does so for every seat at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import segno

QUIET_ZONE = 4
"""Light modules around the code, as the QR standard asks: scanners find the code by its edge."""

Matrix = tuple[tuple[bool, ...], ...]
"""The QR code's modules, row by row, True for dark, with its quiet zone."""


class Phones(Protocol):
    """What the panel needs of the phone server (``hardware.phones.server.PhoneServer`` has it)."""

    def url_for(self, player: str) -> str | None: ...
    def status(self) -> dict[str, str]: ...
    def release(self, player: str) -> None: ...
    def forget_phones(self) -> None: ...


@dataclass(frozen=True)
class SeatShown:
    """One seat's row in the panel."""

    player: str
    show_text: str  # "Ann: show my code", "Ann: also use my phone" (a display seat), "Hide Ann's code"
    connected: bool  # a phone shows this seat's page
    release_text: str  # "Release Ann's phone" when connected, "New code for Ann" on a phone seat, else ""


@dataclass(frozen=True)
class PhonesShown:
    seats: tuple[SeatShown, ...]
    shown: str | None  # whose code shows now
    url: str  # the shown seat's URL ("" when none shows)
    matrix: Matrix  # its QR code (empty when none shows)
    note: str  # the seats with a display, or why there is nothing to show

    @property
    def caption(self) -> str:
        return f"{self.shown}: scan this with your own phone" if self.shown else ""


def qr_matrix(url: str) -> Matrix:
    """The QR code of `url` (error correction M: a smudged screen still scans), quiet zone included."""
    code = segno.make_qr(url, error="m", boost_error=False)
    return tuple(tuple(bool(dark) for dark in row) for row in code.matrix_iter(scale=1, border=QUIET_ZONE))


def luminance(matrix: Matrix) -> bytes:
    """The matrix as one byte per module (0 dark, 255 light), bottom row first (a Kivy texture's order)."""
    return b"".join(bytes(0 if dark else 255 for dark in row) for row in reversed(matrix))


def present(
    players: Sequence[str],
    server: Phones | None,
    *,
    paired: Iterable[str] = (),
    chosen: Iterable[str] = (),
    shown: str | None = None,
) -> PhonesShown:
    """What the panel shows for `players` (in seat order), given the phone server's state.

    `paired`: the seats with a paired player display; `chosen`: those of them
    whose player tapped "also use my phone". `shown`: the seat whose code was
    asked for; a seat that has no URL, or a display seat whose player has not
    chosen a phone, shows nothing.
    """
    if server is None:
        return PhonesShown(
            (),
            None,
            "",
            (),
            (
                "Phones are off: turn them on in Settings on the home screen (or in the config file). "
                "If they are on and could not start, the home screen says why."
            ),
        )
    with_display = [p for p in players if p in set(paired)]
    wanted = set(chosen)
    status = server.status()
    seats = []
    phone_seats = set()
    for player in players:
        connected = status.get(player) == "connected"
        # A connected phone is the player's choice made already: it needs no second tap after a reopen.
        if player not in with_display or player in wanted or connected:
            phone_seats.add(player)
            show_text = f"Hide {player}'s code" if player == shown else f"{player}: show my code"
        else:
            show_text = f"{player}: also use my phone"
        if connected:
            release_text = f"Release {player}'s phone"
        else:
            release_text = f"New code for {player}" if player in phone_seats else ""
        seats.append(SeatShown(player, show_text, connected, release_text))
    url = server.url_for(shown) if shown in phone_seats else None
    if url is None:
        return PhonesShown(tuple(seats), None, "", (), _display_note(with_display))
    return PhonesShown(tuple(seats), shown, url, qr_matrix(url), _display_note(with_display))


def _display_note(with_display: Sequence[str]) -> str:
    """ "Ann has a player display and may use a phone too." (or nothing, when no seat has one)."""
    if not with_display:
        return ""
    if len(with_display) == 1:
        return f"{with_display[0]} has a player display and may use a phone too."
    names = f"{', '.join(with_display[:-1])} and {with_display[-1]}"
    return f"{names} have player displays and may use phones too."
