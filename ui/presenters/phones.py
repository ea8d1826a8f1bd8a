"""The phones panel on the shared screen: which seats get a code, the buttons' words, and the QR code itself.

Plain Python, tested without a window. The panel talks to an object with the
phone server's interface (`url_for`, `status`, `release`; see
``hardware.phones.server.PhoneServer``). Only one seat's code shows at a time,
and only after a tap on that seat's own button ("Ann: show my code"), so the
neighbours do not photograph it. A seat with a paired player display gets no
button (its display shows its view); it is named in a note.
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


@dataclass(frozen=True)
class SeatShown:
    """One seat's row in the panel."""

    player: str
    show_text: str  # "Ann: show my code", or "Hide Ann's code" while it shows
    connected: bool  # a phone shows this seat's page
    release_text: str  # "Release Ann's phone" when connected, else ""


@dataclass(frozen=True)
class PhonesShown:
    seats: tuple[SeatShown, ...]
    shown: str | None  # whose code shows now
    url: str  # the shown seat's URL ("" when none shows)
    matrix: Matrix  # its QR code (empty when none shows)
    note: str  # seats served by a display, or why there is nothing to show

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
    shown: str | None = None,
) -> PhonesShown:
    """What the panel shows for `players`, given the phone server's state and the seats with a paired display.

    `shown`: the seat whose code was asked for (a seat that has no URL shows nothing).
    """
    if server is None:
        return PhonesShown(
            (),
            None,
            "",
            (),
            (
                "Phones are not on: turn them on in the config file ([phones] enabled = true). "
                "If they are on and could not start, the home screen says why."
            ),
        )
    with_display = [p for p in players if p in set(paired)]
    status = server.status()
    seats = []
    for player in players:
        if player in with_display:
            continue
        connected = status.get(player) == "connected"
        seats.append(
            SeatShown(
                player,
                f"Hide {player}'s code" if player == shown else f"{player}: show my code",
                connected,
                f"Release {player}'s phone" if connected else "",
            )
        )
    note = f"{' and '.join(with_display)} {'uses a' if len(with_display) == 1 else 'use'} player display" + (
        "" if len(with_display) == 1 else "s"
    )
    note = note + "." if with_display else ""
    url = server.url_for(shown) if shown in {s.player for s in seats} else None
    if url is None:
        return PhonesShown(tuple(seats), None, "", (), note)
    return PhonesShown(tuple(seats), shown, url, qr_matrix(url), note)
