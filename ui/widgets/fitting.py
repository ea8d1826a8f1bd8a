"""Text that always shows whole: a label (or button) whose words wrap, and whose font shrinks only when needed.

A long player name or a long capture on a button is never cut with an ellipsis: it wraps onto more lines,
and only when even that does not fit its box does the font step down (never below the smallest size).
One helper, `fit_text`, for every caller: it was two near-duplicates (`keep_fitted` beside it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp, sp

_MARKUP = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


def fit_text(widget: Any, sizes: Sequence[float] | None = None, *, smallest: float = 12, room: float = 8.0) -> None:
    """Wrap `widget`'s text (a Label or Button) at the largest font of `sizes` (sp, largest first) at which all
    of it shows in its box: no line wider than the box, no word split across lines, no line dropped.

    Without `sizes`, the widget's own font size is the largest and each sp below it is tried, down to
    `smallest` sp. `room` is the dp left free around the text. A new text is fitted at once (no frame shows it
    cut or spilling); a new size on the next frame (a layout may set it several times in one).

    Issue 21: whose turn it is in the top bar, a 16-character name on the race's cards, "Bartholomew Kemp goes
    first", a simulated button, a long capture and a player's name in Quark's tables were cut short with "…";
    now they wrap, and only if the lines are still too many for the box does the font shrink.
    """
    # A kv id is a weak proxy, dead once its widget is collected, maybe before the frame that fits a new size.
    widget = getattr(widget, "__self__", widget)
    steps = [sp(size) for size in sizes] if sizes is not None else _steps_down(float(widget.font_size), sp(smallest))

    def fit(*_: Any) -> None:
        width = max(1.0, widget.width - dp(room))
        widget.shorten = False
        widget.text_size = (width, None)
        for size in steps:
            widget.font_size = size
            widget.texture_update()
            text_width, text_height = widget.texture_size
            fits = text_height <= widget.height - dp(room) / 2 and text_width <= width + 1
            if fits and _words_fit(widget, size, width):
                return

    widget.fbind("text", fit)
    widget.fbind("size", Clock.create_trigger(fit))
    fit()


def _steps_down(largest: float, smallest: float) -> list[float]:
    """From `largest` down to `smallest` px, a step of 1 sp (`smallest` last, even when not a whole step)."""
    steps = [largest]
    while steps[-1] - sp(1) > smallest:
        steps.append(steps[-1] - sp(1))
    return [*steps, smallest] if steps[-1] > smallest else steps


def _words_fit(widget: Any, size: float, width: float) -> bool:
    """No word of the text is wider than `width` at font `size` (Kivy would split it across two lines)."""
    text = _MARKUP.sub("", widget.text) if getattr(widget, "markup", False) else widget.text
    measure = CoreLabel(font_size=size, bold=widget.bold, font_name=widget.font_name)
    return all(measure.get_extents(word)[0] <= width for word in text.split())


def render_words_now(root: Any) -> None:
    """Render the words of every label in `root` (a popup or a screen made ahead) now, not at its first drawing.

    Kivy renders a label's words into its texture only when the texture is first bound, which is when the label
    is first drawn: the tap's frame, for what was made ahead (issue 26). Binding it (`Texture.bind`, public)
    renders them now. Call it once the layout has given each label its width and Kivy has made its texture.
    """
    from kivy.uix.label import Label

    for widget in root.walk(restrict=True):
        texture = widget.texture if isinstance(widget, Label) else None
        if texture is not None:
            texture.bind()
