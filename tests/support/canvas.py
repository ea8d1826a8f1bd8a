"""What a canvas draws: its instructions in drawing order, each with the colour it is drawn in."""

from __future__ import annotations

from typing import Any

RGBA = tuple[float, ...]


def drawn(canvas: Any) -> list[tuple[Any, RGBA]]:
    """Every instruction on `canvas` and on the canvases and groups within it, in the order Kivy draws them, each
    with the colour current then: a `Color` holds until the next one, across groups, as it does when drawn."""
    from kivy.graphics import Color

    found: list[tuple[Any, RGBA]] = []
    colour: RGBA = (1.0, 1.0, 1.0, 1.0)

    def walk(group: Any) -> None:
        nonlocal colour
        for instruction in group.children:
            if isinstance(instruction, Color):
                colour = tuple(instruction.rgba)
            found.append((instruction, colour))
            if getattr(instruction, "children", None):
                walk(instruction)

    walk(canvas)
    return found
