"""What a canvas draws: its instructions in drawing order, each with the colour it is drawn in."""

from __future__ import annotations

from typing import Any

RGBA = tuple[float, ...]


def drawn(canvas: Any, buffers: dict[int, Any] | None = None) -> list[tuple[Any, RGBA]]:
    """Every instruction on `canvas` and on the canvases and groups within it, in the order Kivy draws them, each
    with the colour current then: a `Color` holds until the next one, across groups, as it does when drawn.

    `buffers`: what to walk first where a group is met (by its id), as `drawn_by` gives it."""
    from kivy.graphics import Color

    found: list[tuple[Any, RGBA]] = []
    colour: RGBA = (1.0, 1.0, 1.0, 1.0)

    def walk(group: Any) -> None:
        nonlocal colour
        for instruction in group.children:
            if isinstance(instruction, Color):
                colour = tuple(instruction.rgba)
            found.append((instruction, colour))
            if buffers and id(instruction) in buffers:
                walk(buffers[id(instruction)])
            if getattr(instruction, "children", None):
                walk(instruction)

    walk(canvas)
    return found


def drawn_by(widget: Any) -> list[tuple[Any, RGBA]]:
    """What `widget` draws (`drawn`), with the buffer of each still box within it walked where the box's picture
    is: a still layer draws a box's buffer ahead of its own (`ui.widgets.layer.StillBox`), not on its canvas."""
    from ui.widgets.layer import StillBox

    boxes = [w for w in widget.walk(restrict=True) if isinstance(w, StillBox) and w.layer is not None]
    return drawn(widget.canvas, {id(box.canvas): box.fbo for box in boxes})
