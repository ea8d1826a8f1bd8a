"""`ui.widgets.fitted_popup.SteadyOpening`: a popup takes no touch until it has appeared, by Kivy's public API."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from ui.widgets import fitted_popup

pytestmark = pytest.mark.ui


def test_a_steady_popup_uses_no_private_kivy_member() -> None:
    """Project rule (DESIGN: public APIs only): the steady popup set ModalView's private `_anim_duration` and
    animated its private `_anim_alpha`; it now fades in on its own public `opacity`."""
    source = inspect.getsource(fitted_popup)
    assert "_anim_" not in source and "_is_open" not in source


def test_a_steady_popup_swallows_the_hurried_second_tap_then_answers(ui: Any) -> None:
    """Issue 21 ("Popups that stack"): "the second tap of a hurried double tap landed on whatever the popup the
    first tap opened had under the finger". While it fades in it takes no touch; at rest it does."""
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.button import Button
    from kivy.uix.popup import Popup

    class Question(fitted_popup.SteadyOpening, Popup):
        pass

    pressed: list[str] = []
    answer = Button(text="Yes", on_release=lambda *_: pressed.append("yes"))
    popup = Question(title="Sure?", content=answer, size_hint=(0.5, 0.5))
    popup.open()
    ui.frames(1)
    assert popup.appearing and popup.opacity < 1
    x, y = answer.to_window(*answer.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    ui.frames(1)
    touch.touch_up()
    ui.frames(1)
    assert pressed == []  # swallowed: the finger was still on its way from the tap that opened it
    ui.settle()
    assert not popup.appearing and popup.opacity == 1
    ui.tap(answer)
    assert pressed == ["yes"]
    popup.dismiss(animation=False)
    ui.frames(2)
    popup.open(animation=False)  # opened at once: whole and answering at once
    ui.frames(1)
    assert not popup.appearing and popup.opacity == 1
    popup.dismiss(animation=False)
