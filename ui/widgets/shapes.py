"""Shapes a board draws a hundred times over, drawn at what they cost (issue 26).

Under software GL (Xvfb here, any machine without a GPU) each drawing
instruction costs about as much as its pixels, whether it shows or not, and a
wide line costs by its triangles:

- `WhileSeen`: a shape and its colour, on the canvas only while the colour
  shows. A kv rule cannot leave an instruction out, so a shape that is clear
  most of the time (a skydiver's glow, a piece's cross) is made with this.
- `outline`: a closed line wider than a pixel, mitred. Kivy joins the pieces
  of a wide line with round joints by default, about ten triangles each, and a
  circle has 48 pieces (`theme.CIRCLE_SEGMENTS`). A kv rule says the same with
  ``joint: 'miter'`` and ``cap: 'none'``.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, InstructionGroup, Line

CLEAR = (0.0, 0.0, 0.0, 0.0)


def outline(**shape: Any) -> Line:
    """A `Line` around a closed shape (``circle=``, ``rounded_rectangle=``, ``points=`` with ``close=True``),
    mitred: no round joints, and no caps, a closed line has no ends."""
    return Line(joint="miter", cap="none", **shape)


class WhileSeen:
    """`shape` (a Kivy vertex instruction) in a colour, drawn on `canvas` only while the colour shows.

    It keeps its place among the canvas's instructions: its slot is an empty group while it is clear (which
    draws nothing), so a shape that comes back is drawn over what it was over, and under what it was under.
    """

    def __init__(self, canvas: Any, shape: Any) -> None:
        self.shape = shape
        self._colour = Color(*CLEAR)
        self._slot = InstructionGroup()
        canvas.add(self._slot)
        self.shown = False

    def draw(self, rgba: tuple[float, ...], **place: Any) -> None:
        """Draw the shape in `rgba`, with `place` set on it first (the shape's own: ``pos=``, ``circle=``…).
        While `rgba` is clear the shape is off the canvas, and nothing of it is built again."""
        seen = rgba[3] > 0
        if seen:
            self._colour.rgba = rgba
            for name, value in place.items():
                setattr(self.shape, name, value)
        if seen == self.shown:
            return
        if seen:
            self._slot.add(self._colour)
            self._slot.add(self.shape)
        else:
            self._slot.clear()
        self.shown = seen
