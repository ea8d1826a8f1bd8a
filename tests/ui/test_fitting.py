"""`ui.widgets.fitting.fit_text`: the one helper that keeps a label's text whole (issue 21: "Text cut off")."""

from __future__ import annotations

from typing import Any

import pytest

from ui.widgets import fitting

pytestmark = pytest.mark.ui


def test_one_fitting_helper_for_every_caller() -> None:
    """`fit_text` and `keep_fitted` were near-duplicates: one is left, and every screen that used either calls it."""
    import ui.screens.base
    import ui.screens.quantum_link
    import ui.screens.quark
    import ui.screens.quintet
    import ui.screens.race

    assert not hasattr(fitting, "keep_fitted")
    for module in (ui.screens.base, ui.screens.quantum_link, ui.screens.quark, ui.screens.quintet, ui.screens.race):
        assert module.fit_text is fitting.fit_text


def test_a_word_wider_than_the_box_steps_the_font_down_rather_than_split(ui: Any) -> None:
    """Issue 21: a 16-character name "cut short with '…'". A name wider than its box at the first size is never
    split across two lines (Kivy would break the word): the font steps down until every word fits."""
    from kivy.core.text import Label as CoreLabel
    from kivy.metrics import sp
    from kivy.uix.label import Label

    label = Label(text="Bartholomew Kemp", size_hint=(None, None), size=(130, 120), font_size=sp(30))
    fitting.fit_text(label, smallest=10)
    width = label.text_size[0]
    assert all(
        CoreLabel(font_size=label.font_size, bold=label.bold).get_extents(word)[0] <= width
        for word in label.text.split()
    )
    assert label.font_size < sp(30) and not label.shorten
    label.texture_update()
    assert label.texture_size[1] <= label.height

    sized = Label(text="Bartholomew", size_hint=(None, None), size=(130, 120))
    fitting.fit_text(sized, (30, 20, 14))
    assert CoreLabel(font_size=sized.font_size).get_extents("Bartholomew")[0] <= sized.text_size[0]


def test_a_label_named_by_its_kv_id_and_gone_before_its_next_fitting_is_let_go(ui: Any) -> None:
    """A kv id is a weak proxy: a screen closed and collected between a new size and the frame that fits its top
    bar's words (`test_idle_clock` in a whole run) made that frame raise ReferenceError. The fitting holds the
    label itself, which is let go with it."""
    import gc
    import weakref

    from kivy.lang import Builder

    holder = Builder.load_string("BoxLayout:\n    Label:\n        id: words\n        text: 'Bartholomew Kemp'\n")
    proxy = holder.ids.words
    fitting.fit_text(proxy, smallest=10)
    label = weakref.ref(proxy.__self__)
    proxy.size = (90, 40)  # its fitting is due in the next frame
    del holder, proxy
    gc.collect()
    ui.frames(2)
    gc.collect()
    assert label() is None, "nothing but the fitting's own frame held it, and that is over"
