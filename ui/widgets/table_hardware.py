"""Simulated table hardware: on-screen race buttons, their lights and the buzzer, plus keys.

On a laptop (gpiozero's mock pins) the players' race buttons are these
on-screen buttons, or keys: A or left Shift for the first seat, L or right
Shift for the second. Both drive the gpiozero mock pins through
`RaceButtons.simulate` (``drive_low()`` / ``drive_high()``), so a press takes
exactly the path a real switch takes on the Pi: pin → gpiozero → hardware →
race → screen. The lights show the LED and buzzer pins' states as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.widget import Widget

from ui import theme
from ui.kv import beside, load_kv

if TYPE_CHECKING:
    from hardware.race_buttons import RaceButtons

KEYS: tuple[tuple[tuple[int, str], ...], ...] = (
    ((97, "A"), (304, "left Shift")),  # the first seat
    ((108, "L"), (303, "right Shift")),  # the second seat
)
"""Kivy key codes (and their names) that press each seat's simulated race button."""

KV = beside(__file__)


def key_names(index: int) -> str:
    """``"A / left Shift"`` for seat 0: what the panel and the help text show."""
    return " / ".join(name for _code, name in KEYS[index]) if index < len(KEYS) else ""


def bind_keys(buttons: RaceButtons) -> Callable[[], None]:
    """Let the keyboard press the simulated race buttons; returns the function that unbinds it.

    `buttons` is a `hardware.race_buttons.RaceButtons` on mock pins. Key
    repeat while a key is held changes nothing (the pin is already low).
    """
    codes = {code: index for index, keys in enumerate(KEYS) for code, _name in keys if index < buttons.count}

    def down(_window: Any, key: int, *_args: Any) -> bool:
        if key in codes:
            buttons.simulate(codes[key], True)
            return True
        return False

    def up(_window: Any, key: int, *_args: Any) -> bool:
        if key in codes:
            buttons.simulate(codes[key], False)
            return True
        return False

    Window.bind(on_key_down=down, on_key_up=up)

    def unbind() -> None:
        Window.unbind(on_key_down=down, on_key_up=up)

    return unbind


class SimulatedButton(Button):
    """One seat's race button on the screen: down while touched, like the real switch."""

    index = NumericProperty(0)
    panel: Any = None

    def on_touch_down(self, touch: Any) -> bool:
        if self.disabled or not self.collide_point(*touch.pos):
            return False
        touch.grab(self)
        self.state = "down"
        self.panel.press(self.index, True)
        return True

    def on_touch_move(self, touch: Any) -> bool:
        return touch.grab_current is self

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        self.state = "normal"
        self.panel.press(self.index, False)
        return True


class Lamp(Widget):
    """A round indicator: an LED in a button, or the buzzer."""

    lit = BooleanProperty(False)
    colour = ListProperty(list(theme.LAMP_ON))


class TableHardwarePanel(BoxLayout):
    """The simulated race buttons with their lights and the buzzer, for laptops and tests.

    Reads the LED and buzzer pins' states ten times a second while `start`ed;
    it never builds or owns the hardware.
    """

    title = StringProperty("Table (simulated)")
    buzzing = BooleanProperty(False)

    def __init__(self, buttons: RaceButtons, names: Sequence[str], **kwargs: Any) -> None:
        load_kv(KV)
        self.buttons = buttons
        super().__init__(**kwargs)
        self.sim_buttons: list[SimulatedButton] = []
        self.lamps: list[Lamp] = []
        for index in range(min(buttons.count, len(names))):
            button = SimulatedButton(index=index, text=f"{names[index]}'s button  [{key_names(index)}]")
            button.panel = self
            lamp = Lamp()
            self.sim_buttons.append(button)
            self.lamps.append(lamp)
            self.ids.seats.add_widget(button)
            self.ids.seats.add_widget(lamp)
        self._poll: Any = None

    def press(self, index: int, pressed: bool) -> None:
        """Drive seat `index`'s mock pin (pressed pulls it low)."""
        self.buttons.simulate(index, pressed)

    def start(self) -> None:
        if self._poll is None:
            self._poll = Clock.schedule_interval(lambda _dt: self.show_lights(), 0.1)
        self.show_lights()

    def stop(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None

    def show_lights(self) -> None:
        """Copy the LED and buzzer pins' states onto the lamps."""
        states = self.buttons.led_states()
        for index, lamp in enumerate(self.lamps):
            lamp.lit = bool(states[index]) if index < len(states) else False
        self.buzzing = self.buttons.buzzer_state()
