"""One rule for ink on a player's colour (issue 21's trust in what is read at the table; issue 28's colours).

Quin and Quantum Link chose dark or light ink by a brightness sum, each with its own threshold, Home's seat
chips by a third; the leave picker and Quintet by WCAG contrast. On a blue like "#1e88e5" a name was black
in one place and white in the next. Now every one asks `companion.palette.is_light`.
"""

from __future__ import annotations

import itertools

from companion.game import SEAT_COLOURS
from companion.palette import contrast, is_light
from ui import theme
from ui.presenters import home, leave
from ui.screens import quantum_link, quin


def _sweep() -> list[str]:
    steps = ("00", "33", "66", "99", "cc", "ff", "1e", "88", "e5")
    return [f"#{r}{g}{b}" for r, g, b in itertools.product(steps, repeat=3)]


def test_every_screen_chooses_ink_on_a_colour_by_the_same_rule() -> None:
    """The seat colours and a sweep of others: Quin, Quantum Link, Home's chips and the leave picker agree."""
    for colour in (*SEAT_COLOURS, *_sweep()):
        dark = is_light(colour)
        fill = theme.rgba(colour)
        assert (quin.ink_on(fill) == theme.INK) is dark, colour
        assert (quantum_link._ink_on(fill) == theme.INK) is dark, colour
        assert (home.ink_on(colour) == "#000000") is dark, colour
        assert leave.is_light(colour) is dark, colour


def test_the_rule_is_the_higher_wcag_contrast() -> None:
    """Dark ink exactly when black's contrast with the colour beats white's."""
    for colour in _sweep():
        assert is_light(colour) is (contrast(colour, "#000000") > contrast(colour, "#ffffff")), colour
    assert is_light("#fdd835") and is_light("#1e88e5") and not is_light("#8e24aa")
    assert not is_light("not a colour")
