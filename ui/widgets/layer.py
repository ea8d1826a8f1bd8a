"""A layer of widgets drawn once into a texture, and shown from it until one of them changes (issue 14).

Kivy draws the whole window again whenever any canvas in it changes: on a
game screen, the clock's tick once a second would draw every widget of the
board again (about 100 ms of CPU for Quin under software GL). Widgets added to
a `StillLayer` draw into an off-screen buffer (Kivy's `Fbo`) instead, and the
window shows that buffer as one texture. Kivy draws into an Fbo again only
when an instruction inside it changed, so a tick elsewhere on the screen costs
the window one texture, not the board.

The widgets stay ordinary children where they are: layout, touches and
``to_window`` are Kivy's own, only their drawing goes through the buffer. The
buffer is cleared to the screen's background, so every pixel of it is opaque
(Kivy blends alpha additively) and showing it gives exactly the pixels the
widgets would have drawn on the window.

`StillBox` does the same for a RelativeLayout, its own look with its
children (issue 26): a Quinque tile is drawn again alone when it changes, and
the board, when it is drawn again, draws each other tile as one texture.

A still layer draws the buffers of the boxes inside it first, each that
changed, and then itself again only where they lie, when nothing else in it
changed (the layer's drawing is clipped to those rectangles, `Patches`): a tap
that changes a tile and the side panel costs those pixels, not the board's.
Under a software rasterizer each pixel of a drawing costs, and the window
waits for the layer's pixels before it shows them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from kivy.graphics import (
    Callback,
    Canvas,
    ClearBuffers,
    ClearColor,
    Color,
    Fbo,
    InstructionGroup,
    PopMatrix,
    PushMatrix,
    Rectangle,
    ScissorPop,
    ScissorPush,
    Translate,
)
from kivy.graphics.opengl import GL_BLEND, glDisable, glEnable
from kivy.lang import Builder
from kivy.properties import ColorProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.widget import Widget

from ui import theme

Rect = tuple[int, int, int, int]
"""x, y, width and height, in a buffer's pixels."""


def _blending_off(*_: Any) -> None:
    glDisable(GL_BLEND)


def _blending_on(*_: Any) -> None:
    glEnable(GL_BLEND)


class _Buffered(Widget):
    """What a still layer and a still box share: the buffer, the texture that shows it, and counting its renders.

    `_build` is called before the widget's own `__init__` (Kivy's rules add children, and a box's own look, in
    it): the buffer must be there first."""

    background = ColorProperty(theme.BG)
    """What the buffer is cleared to: the colour behind the layer, opaque."""

    renders = 0
    """How many times the children have been drawn into the buffer (the tests count them)."""

    fbo: Fbo

    def _build(self, *, stencil: bool) -> None:
        self.canvas = Canvas()
        with self.canvas:
            self.fbo = Fbo(size=(1, 1), with_stencilbuffer=stencil)
            Color(1, 1, 1, 1)
            # Opaque pixels need no blending: without it a software rasterizer writes them without reading.
            Callback(_blending_off)
            self._shown = Rectangle(pos=(0, 0), size=(1, 1), texture=self.fbo.texture)
            Callback(_blending_on)
        with self.fbo.before:
            self._clear = ClearColor(*theme.BG)
            ClearBuffers(clear_color=True, clear_stencil=stencil)
            Callback(self._rendering)

    def _follow(self) -> None:
        self.fbind("pos", self._place)
        self.fbind("size", self._place)
        self.fbind("background", self._recolour)
        self._place()
        self._recolour()

    def add_widget(self, widget: Widget, *args: Any, **kwargs: Any) -> None:
        # Kivy adds a child's canvas to `self.canvas`: for the while, that is the buffer (Kivy's FboFloatLayout).
        canvas, self.canvas = self.canvas, self.fbo
        try:
            super().add_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas

    def remove_widget(self, widget: Widget, *args: Any, **kwargs: Any) -> None:
        canvas, self.canvas = self.canvas, self.fbo
        try:
            super().remove_widget(widget, *args, **kwargs)
        finally:
            self.canvas = canvas

    def _place(self, *_: Any) -> None:
        # A new size makes a new (empty) buffer, which Kivy then draws again.
        width, height = max(1, math.ceil(self.width)), max(1, math.ceil(self.height))
        self.fbo.size = (width, height)
        texture = self.fbo.texture
        # Shown pixel for pixel: the nearest texel is the exact one, and cheaper to fetch than a blend of four.
        texture.min_filter = texture.mag_filter = "nearest"
        self._shown.texture = texture
        self._shown.pos = self.pos
        self._shown.size = (width, height)
        self._placed()

    def _placed(self) -> None:
        """Where the children's coordinates start in the buffer, for a layer whose children are not its own."""

    def _recolour(self, *_: Any) -> None:
        r, g, b, _a = self.background
        self._clear.rgba = (r, g, b, 1.0)

    def draw_now(self) -> bool:
        """Draw the children into the buffer now if anything in it changed, and say whether it did (a layer made
        ready off the window, before it shows: Kivy draws a buffer when the window draws it)."""
        if not self.fbo.needs_redraw:
            return False
        self.fbo.draw()
        return True

    def _rendering(self, *_: Any) -> None:
        self.renders += 1


class StillLayer(_Buffered, FloatLayout):
    """A FloatLayout whose children draw into a buffer that is drawn again only when one of them changes, and
    only where, when all that changed is inside its `StillBox`es."""

    patched: list[Rect]
    """Where the last drawing drew the layer again: [] when it drew all of it (the tests read it)."""

    def __init__(self, **kwargs: Any) -> None:
        self.patched = []
        self._boxes: list[StillBox] = []
        self._patches = Patches()
        self._whole = True
        # A stencil buffer for the ScrollViews (StencilViews) a board may hold.
        self._build(stencil=True)
        # Ahead of the layer's own buffer: the boxes' buffers, each drawn if it changed, between a look at whether
        # anything else changed and the choice of where to draw the layer again.
        self._box_buffers = InstructionGroup()
        ahead = (Callback(self._note_own_changes), self._box_buffers, Callback(self._clip_to_patches))
        for at, instruction in enumerate(ahead):
            self.canvas.insert(at, instruction)
        self._clip = ScissorPush(x=0, y=0, width=1, height=1)
        self.fbo.before.insert(0, self._clip)  # before the clearing: it clears only where it draws
        with self.fbo.before:
            PushMatrix()
            # The children's coordinates are the layer's parent's; the buffer's start at the layer's corner.
            self._origin = Translate(0, 0)
        with self.fbo.after:
            PopMatrix()
            ScissorPop()
        super().__init__(**kwargs)
        self._follow()

    def _placed(self) -> None:
        self._origin.xy = (-self.x, -self.y)

    def adopt(self, box: StillBox) -> None:
        """Draw `box`'s buffer ahead of the layer's, and the layer again only where the box lies when it changes."""
        self._boxes.append(box)
        self._box_buffers.add(box.fbo)

    def release(self, box: StillBox) -> None:
        self._boxes.remove(box)
        self._box_buffers.remove(box.fbo)

    def box_drawn(self, box: StillBox) -> None:
        """`box` has drawn its buffer again: the layer draws again where the box's picture lies."""
        corners = [box.to_window(x, y) for x in (box.x, box.right) for y in (box.y, box.top)]
        left, bottom = self.to_window(self.x, self.y)  # where the buffer's pixel (0, 0) is on the window
        xs, ys = [x - left for x, _ in corners], [y - bottom for _, y in corners]
        width, height = self.fbo.size
        x0, y0 = max(0, math.floor(min(xs))), max(0, math.floor(min(ys)))
        x1, y1 = min(width, math.ceil(max(xs))), min(height, math.ceil(max(ys)))
        if x1 > x0 and y1 > y0:  # a box scrolled out of sight shows nothing
            self._patches.add((x0, y0, x1 - x0, y1 - y0))

    def _note_own_changes(self, *_: Any) -> None:
        # Whether anything but a box changed in the layer: its buffer is flagged only by its own instructions.
        self._whole = self.fbo.needs_redraw
        self._patches = Patches()

    def _clip_to_patches(self, *_: Any) -> None:
        if self._whole:
            self.patched = []
            self._clip.pos, self._clip.size = (0, 0), self.fbo.size
            return
        rects = self._patches.rects()
        if not rects:
            return  # nothing changed: the layer is shown as it is
        self.patched = rects
        for at, (x, y, width, height) in enumerate(rects, start=1):
            self._clip.pos, self._clip.size = (x, y), (width, height)  # which asks the buffer to draw again
            if at < len(rects):  # the last is drawn by the buffer's own instruction, next in the canvas
                self.fbo.draw()

    def draw_now(self) -> bool:
        self._note_own_changes()
        for box in self._boxes:
            box.fbo.draw()  # those that changed
        self._clip_to_patches()
        return super().draw_now()


class StillBox(_Buffered, RelativeLayout):
    """A RelativeLayout drawn, its own look and its children, into a buffer of its own: a part of a board drawn
    many times over (a Quinque tile) is drawn again alone when it changes, and the board draws its texture.

    Its own kv rule's canvas instructions draw into the buffer, in its own coordinates (which are the buffer's),
    so a subclass's rule says how it looks as a RelativeLayout's would, without RelativeLayout's own translation
    (the ``<-StillBox>`` rule below leaves it out). It has no stencil buffer: it holds no ScrollView.

    Inside a `StillLayer`, the layer draws the box's buffer ahead of its own, and itself again only where the
    box lies (`StillLayer.box_drawn`). The box looks for its layer when it is added to a parent and when it is
    placed (a box built inside a widget that joins a layer later is placed there then).
    """

    def __init__(self, **kwargs: Any) -> None:
        self.layer: StillLayer | None = None
        self._build(stencil=False)
        self._own = InstructionGroup()  # where the buffer is drawn while the box is in no still layer
        self.canvas.remove(self.fbo)
        self._own.add(self.fbo)
        self.canvas.insert(0, self._own)
        shown, self.canvas = self.canvas, self.fbo  # Kivy's rules draw its look into the buffer
        try:
            super().__init__(**kwargs)
        finally:
            self.canvas = shown
        self._follow()
        self.fbind("parent", self.find_layer)

    def find_layer(self, *_: Any) -> None:
        """Have the still layer the box is in (if any) draw its buffer, or draw it here (also inside another box,
        whose buffer must draw it: a layer draws ahead only the boxes straight inside it)."""
        holder = next((w for w in _ancestors(self) if isinstance(w, _Buffered)), None)
        layer = holder if isinstance(holder, StillLayer) else None
        if layer is self.layer:
            return
        if self.layer is not None:
            self.layer.release(self)
        else:
            self._own.remove(self.fbo)
        self.layer = layer
        if layer is not None:
            layer.adopt(self)
        else:
            self._own.add(self.fbo)

    def _placed(self) -> None:
        self.find_layer()

    def _rendering(self, *_: Any) -> None:
        super()._rendering()
        if self.layer is not None:
            self.layer.box_drawn(self)


class Patches:
    """The rectangles of a layer to draw again: each changed box's, joined where one pass over the joined rectangle
    costs less than two passes, and all joined when there are many.

    Each rectangle costs a pass over all of the layer's drawing instructions, clipped to it: measured under Mesa's
    software rasterizer, about as much as drawing `PASS_PIXELS` more pixels (half a millisecond; Quinque's board,
    all of it, is some 330,000 pixels and 2 ms)."""

    PASS_PIXELS = 60_000
    MOST = 3

    def __init__(self) -> None:
        self._rects: list[Rect] = []

    def add(self, rect: Rect) -> None:
        self._rects.append(rect)

    def rects(self) -> list[Rect]:
        """What to draw again: at most `MOST` rectangles."""
        rects: list[Rect] = []
        for rect in self._rects:
            # Join the new one with any it is cheaper joined with, and the union again, until none is.
            while (near := next((r for r in rects if self._cheaper_joined(rect, r)), None)) is not None:
                rects.remove(near)
                rect = _union([rect, near])
            rects.append(rect)
        return [_union(rects)] if len(rects) > self.MOST else rects

    def _cheaper_joined(self, a: Rect, b: Rect) -> bool:
        return _area(_union([a, b])) <= _area(a) + _area(b) + self.PASS_PIXELS


def _area(rect: Rect) -> int:
    return rect[2] * rect[3]


def _union(rects: list[Rect]) -> Rect:
    x0, y0 = min(r[0] for r in rects), min(r[1] for r in rects)
    x1, y1 = max(r[0] + r[2] for r in rects), max(r[1] + r[3] for r in rects)
    return (x0, y0, x1 - x0, y1 - y0)


def _ancestors(widget: Widget) -> Iterator[Widget]:
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        yield parent
        parent = parent.parent


# Not RelativeLayout's translation (its rule in Kivy's style.kv): the buffer is in the box's own coordinates.
Builder.load_string("<-StillBox>:\n")
