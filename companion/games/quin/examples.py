"""Ready-made private setups, for demonstrations, scripts and tests.

`example_setup("Ann")` is one ``setup`` action with the default piece counts:
the Clone turns a Peripheral into a second Time, labels 1 to 10 go on the
starting points and 11 to 17 on the Zero-G card (the four Artificial Lights
among them).
"""

from __future__ import annotations

from typing import Any

from companion.games.quin.pieces import ARTIFICIAL_LIGHT, LIGHT, MEMORY, PERIPHERAL, REFLECTOR, SHADOW, TIME, VOID

EXAMPLE_BOARD: dict[str, str] = {
    "1": LIGHT,
    "2": SHADOW,
    "3": SHADOW,
    "4": TIME,
    "5": REFLECTOR,
    "6": MEMORY,
    "7": MEMORY,
    "8": PERIPHERAL,
    "9": VOID,
    "10": VOID,
}
EXAMPLE_ZERO_G: dict[str, str] = {
    "11": ARTIFICIAL_LIGHT,
    "12": ARTIFICIAL_LIGHT,
    "13": ARTIFICIAL_LIGHT,
    "14": ARTIFICIAL_LIGHT,
    "15": TIME,
    "16": REFLECTOR,
    "17": PERIPHERAL,
}
EXAMPLE_CLONE: dict[str, str] = {"from": PERIPHERAL, "to": TIME}


def example_setup(
    player: str,
    *,
    board: dict[str, str] | None = None,
    zero_g: dict[str, str] | None = None,
    clone: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A complete ``setup`` action for `player` (the example layout unless told otherwise)."""
    return {
        "type": "setup",
        "player": player,
        "clone": dict(clone or EXAMPLE_CLONE),
        "board": dict(EXAMPLE_BOARD if board is None else board),
        "zero_g": dict(EXAMPLE_ZERO_G if zero_g is None else zero_g),
    }
