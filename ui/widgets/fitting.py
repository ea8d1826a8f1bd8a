"""Text that always shows whole: a label (or button) whose words wrap, and whose font shrinks only when needed.

A long player name or a long capture on a button is never cut with an ellipsis: it wraps onto a second line,
and only when even that does not fit its box does the font step down (never below `smallest`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp, sp
from kivy.uix.label import Label


def _fits(label: Label, size: float, width: float) -> bool:
    """Whether `label`'s text at font `size` wraps into `width` with no word split and no line dropped."""
    options = {"font_size": size, "bold": label.bold, "font_name": label.font_name}
    words = label.text.split()
    if any(CoreLabel(**options).get_extents(word)[0] > width for word in words):
        return False
    wrapped = CoreLabel(text=label.text, text_size=(width, None), **options)
    wrapped.refresh()
    return bool(wrapped.texture is None or wrapped.texture.size[1] <= label.height)


def keep_fitted(label: Label, largest: float | None = None, smallest: float | None = None, inset: float = 8) -> None:
    """Wrap `label`'s text in its box, at the largest font size (from `largest` down) at which all of it shows."""
    top = float(largest if largest is not None else label.font_size)
    bottom = float(smallest if smallest is not None else sp(12))
    label.shorten = False

    def fit(*_args: Any) -> None:
        width = max(1.0, label.width - dp(inset))
        size = top
        while size > bottom and not _fits(label, size, width):
            size -= sp(1)
        label.font_size = max(size, bottom)
        label.text_size = (width, None)

    later = Clock.create_trigger(fit)
    label.bind(text=later, size=later)
    fit()


def fit_text(widget: Any, sizes: Sequence[float], *, room: float = 8.0) -> None:
    """Wrap `widget`'s text (a Label or Button) and keep the largest font of `sizes` (sp) at which it fits its box.

    Issue 21: whose turn it is in the top bar, a 16-character name on the race's cards, "Bartholomew Kemp goes
    first" and a simulated button were cut short with "…"; now they wrap, and only if the lines are still too
    many for the box does the font shrink. `room` is the dp left free around the text.
    """

    def fit(*_: Any) -> None:
        width = max(1.0, widget.width - dp(room))
        widget.shorten = False
        widget.text_size = (width, None)
        for size in sizes:
            widget.font_size = sp(size)
            widget.texture_update()
            text_width, text_height = widget.texture_size
            if text_height <= widget.height - dp(room) / 2 and text_width <= width + 1:
                return

    widget.fbind("text", fit)  # a new text is fitted at once: no frame shows it cut or spilling
    widget.fbind("size", Clock.create_trigger(fit))  # the layout may set the size several times in a frame
    fit()
