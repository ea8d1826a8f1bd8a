"""The layout audit's checks (issue 21): plain functions over a live Kivy widget tree.

Each check takes what is on the window now and returns a list of `Finding`s;
none asserts. The UI test (`tests/ui/test_layout_audit.py`) drives the app
through its states and decides what fails. The checks, in the issue's words:

1. Nothing cut (`text_findings`): every label's rendered text fits its box
   and lies inside its parent and the window (or its popup); a label that
   shortens with an ellipsis is named, unless its class says that a tap shows
   the whole text (``shows_whole_text = True``). No visible text overlaps
   another text or a tappable widget.
2. Targets (`target_findings`): every tappable widget is at least
   `TARGET` px both ways at 800×480, at least `GAP` px from the next one, and
   none lies under (or inside) another. A hex of a hex board (a class that
   says ``tap_shape = "hex"``, with ``hex_radius`` and ``squash``: Quantum
   Link's) is checked by the rule that fits a grid that tiles the board: a
   tap anywhere on it goes to the nearest hex, so hexes touch and no dead gap
   lies between them. Instead of its box and the gap, the circle inscribed
   in each hex must be at least `TARGET` px across at 800×480 (a finger aimed
   at a hex's middle lands in that hex, as on a 48 px button), and no two
   hexes' inscribed circles may overlap (the hexes do not overlap). Against
   any other tappable a hex counts as its box, with the usual gap.
3. Stability (`stability_findings`): one tap apart on the same screen, a
   tappable that is still there keeps its position and size.
4. Scrolling (`scroll_findings`): nothing scrolls (or is cut) sideways; a
   vertical list that scrolls shows it (a scroll bar a player can see).
5. Colour cue (`colour_findings`, issue 28): a widget drawn in a player's
   colour carries that player's name, initial or seat number, in it or right
   beside it.

What counts as tappable: `ButtonBehavior` (Button, ToggleButton...),
`TextInput`, `Slider`, any widget with an ``on_press`` or ``on_release``
event, and a widget whose class says ``is_tap_target = True`` (one that its
parent's own ``on_touch_down`` hands taps to, such as a board's cells).
What counts as visible: opacity above 0 all the way up, something drawn (a
size above 0, or a label's text), some part inside the window and inside
every ScrollView or StencilView around it, and not wholly under an opaque
button drawn after it (the banner over the top bar's title).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

TARGET = 48
"""The smallest tappable, in px both ways at 800×480: about 9 mm on the 7-inch panel."""
GAP = 8
"""The least room between two tappables, in px."""
SLACK = 1.0
"""Rounding room, in px, before a box counts as too small or moved."""
CHECKS = ("nothing cut", "targets", "stability", "scrolling", "colour cue")

Rect = tuple[float, float, float, float]  # x, y, right, top in window coordinates


@dataclass(frozen=True)
class Finding:
    """One thing wrong on one screen: which widget, its text, what, with the numbers."""

    check: str  # one of CHECKS
    surface: str  # the screen or popup: "game:quinque", "home", "GameMenu"
    widget: str  # the widget's class
    kv_id: str  # its id in the kv rules ("" if none)
    text: str  # its text, or the nearest text in it ("" if none)
    what: str  # what is wrong, in words ("text wider than its box")
    numbers: str = ""  # the measures ("texture 212x24 in box 180x24")
    state: str = ""  # the state it was found in ("quinque-row-win@800x480 step 5/20")

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        """What makes two findings in different states the same finding."""
        return (self.check, self.surface, self.widget, self.kv_id, self.what)

    @property
    def where(self) -> str:
        """The widget as the report names it: ``Class#kv_id 'text'`` (no ``#`` without an id, no text without one)."""
        name = f"{self.widget}#{self.kv_id}" if self.kv_id else self.widget
        return f"{name} {self.text!r}" if self.text else name

    def line(self) -> str:
        where = f"{self.widget}#{self.kv_id}" if self.kv_id else self.widget
        text = f" {self.text[:60]!r}" if self.text else ""
        numbers = f" ({self.numbers})" if self.numbers else ""
        state = f" [{self.state}]" if self.state else ""
        return f"{self.surface}: {where}{text}: {self.what}{numbers}{state}"


# -- the tree --------------------------------------------------------------------------------------


def surface_of(window: Any, manager: Any) -> tuple[str, list[Any]]:
    """What a finger can touch now: the topmost popup (a popup takes every touch), else the current screen.

    Returns the surface's name (the screen's name, or the popup's class) and its root widgets.
    """
    from kivy.uix.modalview import ModalView

    popups = [w for w in window.children if isinstance(w, ModalView)]
    if popups:
        top = popups[0]  # Window.children[0] is the last opened: drawn over the others
        return type(top).__name__, [top]
    screen = manager.current_screen
    return str(screen.name), [screen]


PICTURES = ("ReplayStage",)
"""Widgets whose children are a picture: drawn through a canvas transform, and no touch reaches them (the Log's
replay shows a game's own screen, scaled; that screen is checked in play). The audit does not walk into them."""


def widgets_of(roots: Sequence[Any]) -> list[Any]:
    """Every widget under `roots` (but inside a picture), in drawing order: a later one is drawn over an earlier one."""
    out: list[Any] = []

    def visit(widget: Any) -> None:
        out.append(widget)
        if type(widget).__name__ in PICTURES:
            return
        for child in reversed(widget.children):
            visit(child)

    for root in roots:
        visit(root)
    return out


def covered(widgets: Sequence[Any], rects: dict[int, Rect]) -> set[int]:
    """Widgets (by id) wholly under an opaque button drawn after them, such as the banner over the top bar's
    title: hidden, so neither read nor touched."""
    from kivy.uix.button import Button

    hidden: set[int] = set()
    for n, cover in enumerate(widgets):
        if not isinstance(cover, Button) or cover.background_color[3] < 0.95 or cover.opacity < 0.95:
            continue
        box = rects[id(cover)]
        for widget in widgets[:n]:
            if id(widget) in hidden or not inside(rects[id(widget)], box) or _related(widget, cover):
                continue
            hidden.add(id(widget))
            hidden.update(id(w) for w in widget.walk(restrict=True))
    return hidden


def kv_ids(widgets: Iterable[Any]) -> dict[int, str]:
    """id(widget) -> its kv id, from every `ids` dictionary in the tree."""
    names: dict[int, str] = {}
    for widget in widgets:
        for name, child in getattr(widget, "ids", {}).items():
            try:
                names.setdefault(id(child.__self__), name)  # kv keeps ids as weak proxies
            except ReferenceError:  # a widget an id named has gone (a game's Menu button taken out)
                continue
    return names


def window_rect(widget: Any) -> Rect:
    x, y = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.right, widget.top)
    return (x, y, right, top)


def _ancestors(widget: Any) -> Iterator[Any]:
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        yield parent
        parent = parent.parent


def clip_rect(widget: Any, window_size: tuple[float, float]) -> Rect:
    """The part of the window where `widget` can show: the window, cut by every StencilView around it."""
    from kivy.uix.stencilview import StencilView

    clip: Rect = (0.0, 0.0, float(window_size[0]), float(window_size[1]))
    for parent in _ancestors(widget):
        if isinstance(parent, StencilView):
            clip = intersect(clip, window_rect(parent))
    return clip


def reach_rect(widget: Any, window_size: tuple[float, float]) -> Rect:
    """Where a tap can reach `widget`: its box cut by the views that clip it (a ScrollView passes on only the
    touches inside itself, so a row scrolled below its bottom edge is no target there). Empty when none is left."""
    return intersect(window_rect(widget), clip_rect(widget, window_size))


def intersect(a: Rect, b: Rect) -> Rect:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def area(r: Rect) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def overlaps(a: Rect, b: Rect, slack: float = 2.0) -> bool:
    """They share more than `slack` px both ways."""
    r = intersect(a, b)
    return r[2] - r[0] > slack and r[3] - r[1] > slack


def gap(a: Rect, b: Rect) -> float:
    """The room between two boxes that do not overlap (0 if they touch or overlap)."""
    dx = max(b[0] - a[2], a[0] - b[2], 0.0)
    dy = max(b[1] - a[3], a[1] - b[3], 0.0)
    return max(dx, dy) if dx == 0 or dy == 0 else (dx * dx + dy * dy) ** 0.5


def inside(inner: Rect, outer: Rect, slack: float = SLACK) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def is_visible(widget: Any, window_size: tuple[float, float]) -> bool:
    """Drawn, with some part where it can be seen (see the module's docstring)."""
    if widget.get_root_window() is None:
        return False
    drawn = _drawn_rect(widget)
    if drawn[2] <= drawn[0] or drawn[3] <= drawn[1]:
        return False
    for w in (widget, *_ancestors(widget)):
        if w.opacity <= 0.01:
            return False
    return area(intersect(drawn, clip_rect(widget, window_size))) > 0


def _drawn_rect(widget: Any) -> Rect:
    """Where the widget draws: its box, and for a label with text also its texture, centred on the box (a label
    squeezed to no width still draws its "…")."""
    box = window_rect(widget)
    if not _is_label(widget) or not widget.text.strip():
        return box
    tw, th = widget.texture_size
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return (min(box[0], cx - tw / 2), min(box[1], cy - th / 2), max(box[2], cx + tw / 2), max(box[3], cy + th / 2))


def is_tappable(widget: Any) -> bool:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.slider import Slider
    from kivy.uix.textinput import TextInput

    if isinstance(widget, ButtonBehavior | TextInput | Slider) or getattr(widget, "is_tap_target", False):
        return True
    return any(widget.is_event_type(name) for name in ("on_press", "on_release"))


def is_live_tappable(widget: Any, window_size: tuple[float, float]) -> bool:
    """Tappable, visible and not disabled: what a finger can use now."""
    return is_tappable(widget) and not widget.disabled and is_visible(widget, window_size)


def text_of(widget: Any) -> str:
    """Its own text, or the first text in it."""
    own = getattr(widget, "text", None)
    if isinstance(own, str) and own.strip():
        return _plain(own)
    for child in widget.walk(restrict=True):
        text = getattr(child, "text", None)
        if isinstance(text, str) and text.strip():
            return _plain(text)
    return ""


def _plain(text: str) -> str:
    return re.sub(r"\[/?[a-z_]+(=[^\]]*)?\]", "", text).replace("\n", " ").strip()


def _is_label(widget: Any) -> bool:
    from kivy.uix.label import Label

    return isinstance(widget, Label)


def _is_descendant(widget: Any, of: Any) -> bool:
    return any(parent is of for parent in _ancestors(widget))


@dataclass
class Scene:
    """One state of the window, measured once: the surface, its visible widgets, their boxes and ids."""

    surface: str
    state: str
    window_size: tuple[float, float]
    roots: list[Any]
    widgets: list[Any] = field(default_factory=list)
    rects: dict[int, Rect] = field(default_factory=dict)
    ids: dict[int, str] = field(default_factory=dict)
    _clips: dict[int, Rect] = field(default_factory=dict, repr=False)
    _lineage: dict[int, frozenset[int]] = field(default_factory=dict, repr=False)
    _tappables: list[Any] | None = field(default=None, repr=False)

    @classmethod
    def measure(cls, surface: str, state: str, roots: list[Any], window_size: tuple[float, float]) -> Scene:
        every = widgets_of(roots)
        scene = cls(surface, state, window_size, roots)
        scene.ids = kv_ids(every)
        visible = [w for w in every if is_visible(w, window_size)]
        rects = {id(w): window_rect(w) for w in visible}
        hidden = covered(visible, rects)
        scene.widgets = [w for w in visible if id(w) not in hidden]
        scene.rects = {id(w): rects[id(w)] for w in scene.widgets}
        return scene

    def finding(self, check: str, widget: Any, what: str, numbers: str = "") -> Finding:
        return Finding(
            check,
            self.surface,
            type(widget).__name__,
            self.ids.get(id(widget), ""),
            text_of(widget),
            what,
            numbers,
            self.state,
        )

    @property
    def tappables(self) -> list[Any]:
        if self._tappables is None:
            self._tappables = [w for w in self.widgets if is_tappable(w) and not w.disabled]
        return self._tappables

    # The checks compare every pair of texts and tappables: what they ask of one widget again and again (where a
    # StencilView cuts it, what holds it) is worked out once for the scene, which stays still while it is read.

    def clip(self, widget: Any) -> Rect:
        """`clip_rect` of `widget`."""
        key = id(widget)
        if key not in self._clips:
            self._clips[key] = clip_rect(widget, self.window_size)
        return self._clips[key]

    def related(self, a: Any, b: Any) -> bool:
        """One of them holds the other."""
        return id(b) in self._holders(a) or id(a) in self._holders(b)

    def _holders(self, widget: Any) -> frozenset[int]:
        key = id(widget)
        if key not in self._lineage:
            self._lineage[key] = frozenset(id(parent) for parent in _ancestors(widget))
        return self._lineage[key]

    @property
    def frame(self) -> Rect:
        """Where the surface lies: the popup's box, or the window."""
        from kivy.uix.modalview import ModalView

        root = self.roots[0]
        if isinstance(root, ModalView) and root.children:
            return window_rect(root.children[0])  # the popup's own frame (a ModalView fills the window)
        return (0.0, 0.0, float(self.window_size[0]), float(self.window_size[1]))


# -- 1. nothing cut ----------------------------------------------------------------------------------


def _core(label: Any, text_size: tuple[float | None, float | None]) -> Any:
    """The label's text laid out again as `text_size` allows, never shortened: its texture's size."""
    options = dict(label._label.options)
    options.update(text=label.text, text_size=text_size, shorten=False, max_lines=0)
    options.pop("strip", None)
    core = type(label._label)(**options)
    core.refresh()
    return core.texture.size if core.texture else (0, 0)


def text_box(label: Any) -> Rect:
    """Where the label's glyphs are drawn, in window coordinates (its texture is centred on the widget)."""
    tw, th = label.texture_size
    x, y, _, _ = window_rect(label)
    left = x + (label.width - tw) / 2
    bottom = y + (label.height - th) / 2
    core = label._label
    cw = min(tw, getattr(core, "content_width", tw) or tw)
    ch = min(th, getattr(core, "content_height", th) or th)
    halign, valign = label.halign, label.valign
    if halign in ("left", "justify", "auto"):
        x0 = left + (tw - cw if label.text_size[0] is None else 0) / 2
    elif halign == "right":
        x0 = left + tw - cw
    else:
        x0 = left + (tw - cw) / 2
    if valign == "top":
        y0 = bottom + th - ch
    elif valign == "bottom":
        y0 = bottom
    else:
        y0 = bottom + (th - ch) / 2
    return (x0, y0, x0 + cw, y0 + ch)


def _shortened(label: Any) -> tuple[float, float] | None:
    """(needed, room) if the label shortens its text now, else None."""
    room = label.text_size[0]
    if not label.shorten or room is None or not label.text.strip():
        return None
    needed = _core(label, (None, None))[0]
    if needed > room + 2 * _padding_x(label) + SLACK:
        return (needed, room)
    return None


def _padding_x(label: Any) -> float:
    return float(label.padding[0]) if label.padding else 0.0


def text_findings(scene: Scene) -> list[Finding]:
    from kivy.uix.scrollview import ScrollView

    findings: list[Finding] = []
    labels = [w for w in scene.widgets if _is_label(w) and w.text.strip() and w.color[3] > 0.05]
    texts: list[tuple[Any, Rect]] = []
    for label in labels:
        label.texture_update()
        tw, th = label.texture_size
        w, h = label.size
        short = _shortened(label)
        if short is not None:
            if not getattr(label, "shows_whole_text", False):
                findings.append(
                    scene.finding(
                        "nothing cut",
                        label,
                        "shortened with an ellipsis (no tap shows the whole text)",
                        f"needs {short[0]:.0f} px, has {short[1]:.0f}",
                    )
                )
        else:
            tsw, tsh = label.text_size
            if tsh is not None or tsw is not None:
                nw, nh = _core(label, (tsw, None))
                if tsh is not None and nh > tsh + SLACK + 2:
                    findings.append(
                        scene.finding(
                            "nothing cut",
                            label,
                            "lines dropped: text taller than its box",
                            f"needs {nh:.0f} px, has {tsh:.0f}",
                        )
                    )
                if tsw is not None and nw > tsw + 2 * _padding_x(label) + SLACK:
                    findings.append(
                        scene.finding(
                            "nothing cut", label, "a word wider than its box", f"needs {nw:.0f} px, has {tsw:.0f}"
                        )
                    )
        if tw > w + SLACK:
            findings.append(
                scene.finding("nothing cut", label, "text wider than its box", f"text {tw:.0f} px, box {w:.0f}")
            )
        if th > h + SLACK:
            findings.append(
                scene.finding("nothing cut", label, "text taller than its box", f"text {th:.0f} px, box {h:.0f}")
            )
        glyphs = text_box(label)
        in_scroller = any(isinstance(p, ScrollView) for p in _ancestors(label))
        if not in_scroller:
            outer = intersect(scene.clip(label), scene.frame)
            if not inside(glyphs, outer):
                findings.append(
                    scene.finding("nothing cut", label, "text outside the visible area", _rect_words(glyphs, outer))
                )
            parent = label.parent
            if parent is not None and parent not in scene.roots and not _is_label(parent):
                box = window_rect(parent)
                if id(parent) in scene.rects and not inside(glyphs, box, slack=2):
                    findings.append(
                        scene.finding(
                            "nothing cut",
                            label,
                            f"text outside its parent ({type(parent).__name__})",
                            _rect_words(glyphs, box),
                        )
                    )
        texts.append((label, intersect(glyphs, scene.clip(label))))
    findings.extend(_overlap_findings(scene, texts))
    return findings


def _overlap_findings(scene: Scene, texts: list[tuple[Any, Rect]]) -> list[Finding]:
    """Visible text over another visible text, or over (or under) a tappable that is not its own."""
    findings: list[Finding] = []
    order = {id(w): i for i, w in enumerate(scene.widgets)}
    boxes = [(w, intersect(scene.rects[id(w)], scene.clip(w))) for w in scene.tappables]
    for i, (label, glyphs) in enumerate(texts):
        for other, other_glyphs in texts[i + 1 :]:
            if overlaps(glyphs, other_glyphs) and not scene.related(label, other):
                findings.append(
                    scene.finding(
                        "nothing cut",
                        label,
                        "text overlaps another text",
                        f"{_other(other)}; {_rect_words(glyphs, other_glyphs)}",
                    )
                )
        for widget, box in boxes:
            if widget is label or not overlaps(glyphs, box) or scene.related(label, widget):
                continue
            if _box_overlaps(widget, glyphs):
                where = "under" if order[id(widget)] > order[id(label)] else "over"
                findings.append(
                    scene.finding(
                        "nothing cut",
                        label,
                        f"text {where} a tappable",
                        f"{_other(widget)}; {_rect_words(glyphs, box)}",
                    )
                )
    return findings


def _other(widget: Any) -> str:
    return f"{type(widget).__name__} {text_of(widget)[:30]!r}"


def _related(a: Any, b: Any) -> bool:
    return _is_descendant(a, b) or _is_descendant(b, a)


def _rect_words(inner: Rect, outer: Rect) -> str:
    return f"{_r(inner)} vs {_r(outer)}"


def _r(r: Rect) -> str:
    return f"x {r[0]:.0f}..{r[2]:.0f}, y {r[1]:.0f}..{r[3]:.0f}"


# -- 2. targets ---------------------------------------------------------------------------------------


def hex_shape(widget: Any) -> tuple[float, float, float] | None:
    """A hex target's centre (window px) and the radius of the circle inscribed in it; None for any other
    widget. The hex is pointy-topped, `hex_radius` from its middle to a corner, `squash` times as tall."""
    if getattr(widget, "tap_shape", "") != "hex":
        return None
    s, squash = float(widget.hex_radius), float(widget.squash)
    corners = [
        (s * math.cos(math.radians(60 * i - 30)), s * squash * math.sin(math.radians(60 * i - 30))) for i in range(6)
    ]
    inner = min(
        abs(ax * by - bx * ay) / math.hypot(bx - ax, by - ay)  # the distance from the middle to the side a-b
        for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True)
    )
    cx, cy = widget.to_window(*widget.center)
    return cx, cy, inner


def hex_corners(widget: Any) -> list[tuple[float, float]]:
    """A hex target's six corners in window px (its whole tap region)."""
    s, squash = float(widget.hex_radius), float(widget.squash)
    cx, cy = widget.to_window(*widget.center)
    angles = [math.radians(60 * i - 30) for i in range(6)]
    return [(cx + s * math.cos(a), cy + s * squash * math.sin(a)) for a in angles]


def _shapes_overlap(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]], slack: float) -> bool:
    """Two convex shapes (corners in order) share more than `slack` px across every dividing direction."""
    for shape in (a, b):
        for (ax, ay), (bx, by) in zip(shape, [*shape[1:], shape[0]], strict=True):
            nx, ny = by - ay, ax - bx
            length = math.hypot(nx, ny) or 1.0
            pa = [(x * nx + y * ny) / length for x, y in a]
            pb = [(x * nx + y * ny) / length for x, y in b]
            if min(max(pa), max(pb)) - max(min(pa), min(pb)) <= slack:
                return False  # a line between them
    return True


def _box_overlaps(widget: Any, box: Rect, slack: float = 2.0) -> bool:
    """`box` overlaps the tappable's own region: its hex for a hex target, else its box."""
    if hex_shape(widget) is None:
        return True
    corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    return _shapes_overlap(hex_corners(widget), corners, slack)


def _hex_findings(
    scene: Scene,
    widget: Any,
    others: Sequence[Any],
    shapes: dict[int, tuple[float, float, float]],
    *,
    check_size: bool,
) -> list[Finding]:
    """The hex grid's rule (see the module's docstring) for one hex against the hexes after it (`shapes`: each
    hex's `hex_shape`)."""
    findings: list[Finding] = []
    shape = shapes[id(widget)]
    cx, cy, inner = shape
    if check_size and 2 * inner < TARGET - SLACK:
        findings.append(
            scene.finding(
                "targets", widget, f"a hex whose inscribed circle is under {TARGET} px across", f"{2 * inner:.1f} px"
            )
        )
    for other in others:
        theirs = shapes.get(id(other))
        if theirs is None:
            continue
        apart = math.hypot(theirs[0] - cx, theirs[1] - cy)
        if apart < inner + theirs[2] - SLACK:
            findings.append(
                scene.finding(
                    "targets",
                    widget,
                    "a hex over another hex",
                    f"middles {apart:.1f} px apart, inscribed radii {inner:.1f} + {theirs[2]:.1f}; {_other(other)}",
                )
            )
    return findings


def target_findings(scene: Scene, *, check_size: bool = True) -> list[Finding]:
    """Big enough (at 800×480: `check_size`), apart from each other, none under or inside another."""
    findings: list[Finding] = []
    tappables = scene.tappables
    boxes = {id(w): intersect(scene.rects[id(w)], scene.clip(w)) for w in tappables}
    hexes = {id(w): shape for w in tappables if (shape := hex_shape(w)) is not None}
    for i, widget in enumerate(tappables):
        if id(widget) in hexes:
            findings.extend(_hex_findings(scene, widget, tappables[i + 1 :], hexes, check_size=check_size))
    for widget in tappables:
        if not check_size:
            break
        if id(widget) in hexes:
            continue  # checked by the hex grid's rule
        w, h = widget.size
        if w < TARGET - SLACK or h < TARGET - SLACK:
            findings.append(
                scene.finding("targets", widget, f"smaller than {TARGET}x{TARGET} px", f"{w:.0f}x{h:.0f} px")
            )
    for i, widget in enumerate(tappables):
        nearest: tuple[float, Any] | None = None
        for other in tappables[i + 1 :]:
            if id(widget) in hexes and id(other) in hexes:
                continue  # two hexes of a board touch by design: checked by the hex grid's rule
            a, b = boxes[id(widget)], boxes[id(other)]
            if scene.related(widget, other):
                findings.append(scene.finding("targets", widget, "a tappable inside another tappable", _other(other)))
                continue
            if overlaps(a, b, slack=0.5):
                findings.append(
                    scene.finding(
                        "targets",
                        widget,
                        "lies under or over another tappable",
                        f"{_other(other)}; {_rect_words(a, b)}",
                    )
                )
                continue
            room = gap(a, b)
            if room < GAP - SLACK and (nearest is None or room < nearest[0]):
                nearest = (room, other)
        if nearest is not None:
            room, other = nearest
            findings.append(
                scene.finding(
                    "targets",
                    widget,
                    f"closer than {GAP} px to another tappable",
                    f"{room:.1f} px from {_other(other)}",
                )
            )
    return findings


# -- 3. stability ---------------------------------------------------------------------------------------


@dataclass
class Snapshot:
    """The live tappables of one surface and their boxes (the widgets are held, so ids stay theirs)."""

    surface: str
    roots: list[Any]
    popups: tuple[int, ...]
    widgets: list[Any]
    rects: list[Rect]
    ids: dict[int, str]

    @classmethod
    def take(cls, window: Any, manager: Any) -> Snapshot:
        from kivy.uix.modalview import ModalView

        surface, roots = surface_of(window, manager)
        scene = Scene.measure(surface, "", roots, (float(window.width), float(window.height)))
        live = scene.tappables
        popups = tuple(id(w) for w in window.children if isinstance(w, ModalView))
        return cls(surface, roots, popups, live, [scene.rects[id(w)] for w in live], scene.ids)

    def keys(self) -> dict[tuple[str, str, str], int]:
        """(class, kv id, text) -> index, for the keys that are unique here: a widget made anew is matched by them."""
        seen: dict[tuple[str, str, str], list[int]] = {}
        for i, w in enumerate(self.widgets):
            seen.setdefault((type(w).__name__, self.ids.get(id(w), ""), text_of(w)), []).append(i)
        return {k: v[0] for k, v in seen.items() if len(v) == 1}


def stability_findings(before: Snapshot, after: Snapshot, state: str) -> list[Finding]:
    """One tap apart on the same surface, every tappable still there has kept its box.

    Nothing is compared when the tap opened or closed a popup, or changed the screen.
    """
    if before.popups != after.popups or before.roots[0] is not after.roots[0]:
        return []
    findings: list[Finding] = []
    now = {id(w): i for i, w in enumerate(after.widgets)}
    matched: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for i, w in enumerate(before.widgets):
        if id(w) in now:
            pairs.append((i, now[id(w)]))
            matched.add(now[id(w)])
    old_keys, new_keys = before.keys(), after.keys()
    for key, i in old_keys.items():
        j = new_keys.get(key)
        if j is not None and j not in matched and id(before.widgets[i]) not in now and key[2]:
            pairs.append((i, j))
    for i, j in pairs:
        a, b = before.rects[i], after.rects[j]
        if max(abs(p - q) for p, q in zip(a, b, strict=True)) > SLACK:
            widget = after.widgets[j]
            findings.append(
                Finding(
                    "stability",
                    after.surface,
                    type(widget).__name__,
                    after.ids.get(id(widget), ""),
                    text_of(widget),
                    "moved or changed size one tap apart",
                    f"{_r(a)} -> {_r(b)}",
                    state,
                )
            )
    return findings


# -- 4. scrolling ---------------------------------------------------------------------------------------


def scroll_findings(scene: Scene) -> list[Finding]:
    from kivy.uix.scrollview import ScrollView

    findings: list[Finding] = []
    for view in scene.widgets:
        if not isinstance(view, ScrollView) or not view.children:
            continue
        content = view.children[0]
        if content.width > view.width + SLACK:
            what = "scrolls sideways" if view.do_scroll_x else "its content is wider than it: cut sideways"
            findings.append(
                scene.finding("scrolling", view, what, f"content {content.width:.0f} px, view {view.width:.0f}")
            )
        if content.height > view.height + SLACK and view.do_scroll_y:
            bar_alpha = _vertical_bar_alpha(view)
            shows = view.bar_width >= 4 and bar_alpha >= 0.3 and "bars" in view.scroll_type
            if not shows and not getattr(view, "shows_scrolling", False):
                findings.append(
                    scene.finding(
                        "scrolling",
                        view,
                        "scrolls, and does not show it (no scroll bar a player can see)",
                        f"content {content.height:.0f} px in {view.height:.0f}; bar {view.bar_width:.0f} px, "
                        f"alpha {bar_alpha:.1f} at rest",
                    )
                )
    return findings


def _vertical_bar_alpha(view: Any) -> float:
    """How opaque the vertical scroll bar the theme draws (its 'scroll_bar' group: Kivy's own is clear) is."""
    from kivy.graphics import Color

    colours = [i for i in view.canvas.after.get_group("scroll_bar") if isinstance(i, Color)]
    return float(colours[0].a) if colours else 0.0


# -- 5. colour cue ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """A player as the screen should name them: colour, name, seat number (1 first)."""

    colour: tuple[float, float, float]
    name: str  # "" for a colour whose player is not known here (a past game's): any name beside it will do
    number: int

    def named_in(self, text: str) -> bool:
        words = set(re.findall(r"\w+", text))
        if not self.name:
            return any(re.search(r"[^\W\d_]{2}", word) for word in words)
        if self.name.lower() in text.lower():
            return True
        initial = self.name.strip()[:1].upper()
        return str(self.number) in words or (initial != "" and initial in words)


def any_player(colours: Iterable[str]) -> list[Seat]:
    """Seats for surfaces that show players of many games (Wins, Past games): each colour needs a name beside it."""
    return seats_of([("", colour) for colour in colours])


def seats_of(players: Sequence[tuple[str, str]]) -> list[Seat]:
    """(name, colour as hex) per seat in seat order."""
    from kivy.utils import get_color_from_hex

    return [Seat(tuple(get_color_from_hex(colour)[:3]), name, i + 1) for i, (name, colour) in enumerate(players)]  # type: ignore[arg-type]


def _colours_drawn(widget: Any) -> Iterator[tuple[float, ...]]:
    from kivy.graphics import Color

    for canvas in (widget.canvas.before, widget.canvas, widget.canvas.after):
        if canvas is None:
            continue
        for instruction in canvas.children:
            if isinstance(instruction, Color):
                yield tuple(instruction.rgba)
    if _is_label(widget) and widget.text.strip():
        yield tuple(widget.color)  # the text's own colour (baked into its texture)


def _near(a: Sequence[float], b: Sequence[float]) -> bool:
    return all(abs(p - q) < 0.01 for p, q in zip(a[:3], b[:3], strict=True))


def colour_findings(scene: Scene, seats: Sequence[Seat]) -> list[Finding]:
    findings: list[Finding] = []
    if len(seats) < 1:
        return findings
    for widget in scene.widgets:
        for rgba in _colours_drawn(widget):
            if rgba[3] < 0.25:
                continue
            seat = next((s for s in seats if _near(rgba, s.colour)), None)
            if seat is None:
                continue
            words = " ".join(_texts_near(widget))
            if not seat.named_in(words) and not _draws_text_naming(widget, seat):
                findings.append(
                    scene.finding(
                        "colour cue",
                        widget,
                        "drawn in a player's colour with no name, initial or seat number in or beside it",
                        f"{seat.name}'s colour",
                    )
                )
            break
    return findings


def _draws_text_naming(widget: Any, seat: Seat) -> bool:
    """A widget that draws its own text (a texture in its canvas, as Quintet's circle writes each name under
    its disc) and holds the player's name in a property is taken at its word."""
    from kivy.graphics import Rectangle

    blank = Rectangle().texture  # what a Rectangle without a picture of its own draws
    textured = any(
        isinstance(i, Rectangle) and i.texture is not None and i.texture is not blank
        for canvas in (widget.canvas.before, widget.canvas, widget.canvas.after)
        if canvas is not None
        for i in canvas.children
    )
    if not textured or not seat.name:
        return False
    held: list[str] = []
    for name in widget.properties():
        value = getattr(widget, name, None)
        for item in value if isinstance(value, list | tuple) else [value]:
            text = item if isinstance(item, str) else getattr(item, "name", None)
            if isinstance(text, str):
                held.append(text)
    return seat.name in held


def _texts_near(widget: Any) -> Iterator[str]:
    """Its own texts and those of its parent's other children (right beside it); a parent with no text of its
    own besides (a bar inside a box) hands the question up once more."""
    from kivy.core.window import WindowBase
    from kivy.uix.modalview import ModalView
    from kivy.uix.screenmanager import Screen

    def is_top(w: Any) -> bool:  # a surface's own root: no further up than that
        return w is None or isinstance(w, WindowBase | Screen | ModalView) or isinstance(w.parent, WindowBase)

    around = [widget]
    parent = widget.parent
    if not isinstance(parent, WindowBase) and parent is not None:
        around = list(parent.children)
        if not any(text_of(w) for w in around) and not is_top(parent):
            around = list(parent.parent.children)
    for w in around:
        for child in w.walk(restrict=True):
            text = getattr(child, "text", None)
            if isinstance(text, str) and text.strip():
                yield _plain(text)
            hint = getattr(child, "hint_text", None)
            if isinstance(hint, str) and hint.strip():
                yield hint


# -- all of them ----------------------------------------------------------------------------------------


def audit(scene: Scene, seats: Sequence[Seat] = (), *, check_size: bool = True) -> list[Finding]:
    """Checks 1, 2, 4 and 5 on one scene (3, stability, compares two snapshots: `stability_findings`)."""
    return [
        *text_findings(scene),
        *target_findings(scene, check_size=check_size),
        *scroll_findings(scene),
        *colour_findings(scene, seats),
    ]
