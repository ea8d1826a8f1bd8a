"""Small controls every screen may use: a stepper and a choice row, with large touch targets.

In a ``.kv`` file, import the class once (``#:import Stepper ui.widgets.controls.Stepper``)
and bind both ways to the screen's property:

    Stepper:
        value: root.hand
        on_value: root.hand = self.value
    ChoiceRow:
        choices: [('baryon', 'Baryon'), ('meson', 'Meson')]
        chosen: root.particle
        on_chosen: root.particle = self.chosen
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.togglebutton import ToggleButton

from ui.kv import beside, load_kv

KV = beside(__file__)


class Stepper(BoxLayout):
    """``−  value  +`` (and an optional ``+jump`` button): a whole number within `minimum`..`maximum`."""

    value = NumericProperty(0)
    minimum = NumericProperty(0)
    maximum = NumericProperty(None, allownone=True)  # None: no upper limit
    jump = NumericProperty(0)  # an extra button adding this much (e.g. 5); 0 for none
    value_width = NumericProperty(64)  # room for the number, in pixels (kv: dp(64))

    def __init__(self, **kwargs: Any) -> None:
        load_kv(KV)
        super().__init__(**kwargs)

    def on_kv_post(self, base_widget: Any) -> None:
        # Without a jump the button is taken out (a hidden button could still catch touches).
        if not self.jump:
            self.remove_widget(self.ids.jump_button)

    def step(self, delta: int) -> None:
        """Add `delta` (negative to go down), staying within the limits."""
        value = int(self.value) + delta
        if self.maximum is not None:
            value = min(int(self.maximum), value)
        self.value = max(int(self.minimum), value)


class ChoiceToggle(ToggleButton):
    """One choice in a row: accent-coloured while chosen (also usable on its own, as a toggle)."""

    def __init__(self, **kwargs: Any) -> None:
        load_kv(KV)
        super().__init__(**kwargs)


class ChoiceRow(BoxLayout):
    """A row of toggle buttons, one per choice; at most one is chosen, and `chosen` says which.

    `choices` are ``(value, words)`` pairs. A tap chooses; with `can_clear` a tap
    on the chosen one clears the choice (`chosen` becomes None). Values in
    `unavailable` show but cannot be chosen.
    """

    choices = ListProperty([])
    chosen = ObjectProperty(None, allownone=True)
    unavailable = ListProperty([])
    can_clear = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        load_kv(KV)
        self.buttons: dict[Any, ChoiceToggle] = {}
        super().__init__(**kwargs)

    def on_choices(self, *_args: Any) -> None:
        self.clear_widgets()
        self.buttons = {}
        for value, words in self.choices:
            button = ChoiceToggle(text=str(words))
            button.bind(on_release=lambda _b, value=value: self.choose(value))
            self.buttons[value] = button
            self.add_widget(button)
        self._show()

    def on_chosen(self, *_args: Any) -> None:
        self._show()

    def on_unavailable(self, *_args: Any) -> None:
        self._show()

    def choose(self, value: Any) -> None:
        """What a tap on `value`'s button does."""
        if value in self.unavailable:
            return
        self.chosen = None if (self.can_clear and value == self.chosen) else value
        self._show()  # a ToggleButton flips itself on touch: the row, not the touch, decides its state

    def _show(self) -> None:
        for value, button in self.buttons.items():
            button.state = "down" if value == self.chosen else "normal"
            button.disabled = value in self.unavailable
