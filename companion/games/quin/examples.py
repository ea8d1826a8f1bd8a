"""Ready-made private setups, for demonstrations, scripts and tests.

`example_setup("Ann")` is one ``setup`` action with the default piece counts:
the Clone turns a Peripheral into a second Time, labels 1 to 10 go on the
starting points and 11 to 17 on the Zero-G card (the four Artificial Lights
among them). `dealt_setup` deals a random layout instead (the hand-off setup
screen's "Deal at random"), from a generator the caller passes in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.games.quin.pieces import (
    ARTIFICIAL_LIGHT,
    CLONE_FROM,
    CLONE_TO,
    KINDS,
    LABELS,
    LIGHT,
    MEMORY,
    PERIPHERAL,
    REFLECTOR,
    SHADOW,
    STARTING_POINTS,
    TIME,
    VOID,
    ZERO_G_AT_START,
    counts,
)

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


def dealt_setup(
    player: str,
    adjustable: Mapping[str, int],
    rng: random.Random,
    *,
    clone: tuple[str, str] | None = None,
    done: bool = False,
) -> dict[str, Any]:
    """A ``setup`` action with a random layout (and a random Clone unless `clone` is given).

    Every Artificial Light goes on the Zero-G card with other pieces drawn
    to fill it; the rest take the starting points. With ``done=False`` the
    player can still change single labels afterwards.
    """
    if clone is None:
        base = counts(adjustable, None)
        clone = (rng.choice([k for k in CLONE_FROM if base[k] > 0]), rng.choice(CLONE_TO))
    have = counts(adjustable, clone)
    others = [kind for kind in KINDS if kind != ARTIFICIAL_LIGHT for _ in range(have[kind])]
    rng.shuffle(others)
    room = ZERO_G_AT_START - have[ARTIFICIAL_LIGHT]
    zero_g_kinds = [ARTIFICIAL_LIGHT] * have[ARTIFICIAL_LIGHT] + others[:room]
    board_kinds = others[room:]
    assert len(board_kinds) == STARTING_POINTS
    labels = list(LABELS)
    rng.shuffle(labels)
    return {
        "type": "setup",
        "player": player,
        "clone": {"from": clone[0], "to": clone[1]},
        "board": dict(zip(labels[:STARTING_POINTS], board_kinds, strict=True)),
        "zero_g": dict(zip(labels[STARTING_POINTS:], zero_g_kinds, strict=True)),
        "done": done,
    }
