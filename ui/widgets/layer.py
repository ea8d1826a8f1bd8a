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
"""

from __future__ import annotations

import math
from typing import Any

from kivy.graphics import (
    Callback,
    Canvas,
    ClearBuffers,
    ClearColor,
    Color,
    Fbo,
    PopMatrix,
    PushMatrix,
    Rectangle,
    Translate,
)
from kivy.graphics.opengl import GL_BLEND, glDisable, glEnable
from kivy.lang import Builder
from kivy.properties import ColorProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.widget import Widget

from ui import theme


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
    """A FloatLayout whose children draw into a buffer that is drawn again only when one of them changes."""

    def __init__(self, **kwargs: Any) -> None:
        # A stencil buffer for the ScrollViews (StencilViews) a board may hold.
        self._build(stencil=True)
        with self.fbo.before:
            PushMatrix()
            # The children's coordinates are the layer's parent's; the buffer's start at the layer's corner.
            self._origin = Translate(0, 0)
        with self.fbo.after:
            PopMatrix()
        super().__init__(**kwargs)
        self._follow()

    def _placed(self) -> None:
        self._origin.xy = (-self.x, -self.y)


class StillBox(_Buffered, RelativeLayout):
    """A RelativeLayout drawn, its own look and its children, into a buffer of its own: a part of a board drawn
    many times over (a Quinque tile) is drawn again alone when it changes, and the board draws its texture.

    Its own kv rule's canvas instructions draw into the buffer, in its own coordinates (which are the buffer's),
    so a subclass's rule says how it looks as a RelativeLayout's would, without RelativeLayout's own translation
    (the ``<-StillBox>`` rule below leaves it out). It has no stencil buffer: it holds no ScrollView.
    """

    def __init__(self, **kwargs: Any) -> None:
        self._build(stencil=False)
        shown, self.canvas = self.canvas, self.fbo  # Kivy's rules draw its look into the buffer
        try:
            super().__init__(**kwargs)
        finally:
            self.canvas = shown
        self._follow()


# Not RelativeLayout's translation (its rule in Kivy's style.kv): the buffer is in the box's own coordinates.
Builder.load_string("<-StillBox>:\n")
