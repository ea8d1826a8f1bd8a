"""A window for the emulated player display: its screen and its keys.

``companion display-emulator`` (without ``--headless``) opens this: the
screen is drawn like a small LCD, monospaced and sized from the device's
columns and rows; its keys are buttons (arrow keys and Enter work too). The
protocol work is done by `hardware.display.emulator.PtyDisplay`; this only
shows it.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button

from hardware.display.emulator import PtyDisplay
from ui.dispatch import clock_dispatcher
from ui.kv import THEME_KV, load_kv

KV = """
#:set lcd_bg (0.05, 0.12, 0.06, 1)
#:set lcd_text (0.55, 1.0, 0.55, 1)

<DisplayEmulatorView>:
    orientation: 'vertical'
    padding: dp(12)
    spacing: dp(10)
    canvas.before:
        Color:
            rgba: 0.09, 0.10, 0.13, 1
        Rectangle:
            pos: self.pos
            size: self.size
    Label:
        text: root.title
        font_size: '16sp'
        color: theme_muted
        size_hint_y: None
        height: self.texture_size[1] + dp(6)
        text_size: self.width, None
        halign: 'left'
        shorten: True
    Label:
        id: lcd
        text: root.screen_text
        font_name: 'RobotoMono-Regular'
        # RobotoMono's lines are about 1.35 font sizes apart: every row fits inside the padding.
        font_size: max(8, min((self.width - dp(24)) / (root.cols * 0.62), (self.height - dp(20)) / (root.rows * 1.4)))
        color: lcd_text
        text_size: self.size
        halign: 'left'
        valign: 'top'
        padding: dp(12), dp(10)
        canvas.before:
            Color:
                rgba: lcd_bg
            RoundedRectangle:
                pos: self.pos
                size: self.size
                radius: [dp(8)]
    BoxLayout:
        id: key_row
        size_hint_y: None
        height: dp(56)
        spacing: dp(8)

<EmulatorKey>:
    font_size: '18sp'
    background_normal: ''
    background_color: theme_button
"""

_loaded = False
_KEYBOARD = {273: "up", 274: "down", 13: "ok", 8: "back", 276: "left", 275: "right"}


def _load_kv() -> None:
    global _loaded
    if not _loaded:
        load_kv(THEME_KV)  # the colours it names
        Builder.load_string(KV, filename="display_emulator.kv")
        _loaded = True


class EmulatorKey(Button):
    """One of the display's keys."""


class DisplayEmulatorView(BoxLayout):
    """An emulated display's screen and keys; redrawn (in the UI thread) whenever the host sends something."""

    title = StringProperty("")
    screen_text = StringProperty("")
    cols = NumericProperty(20)
    rows = NumericProperty(4)

    def __init__(self, display: PtyDisplay, **kwargs: Any) -> None:
        _load_kv()
        super().__init__(**kwargs)
        self.display = display
        core = display.core
        self.cols, self.rows = core.cols, core.rows
        port = display.path if display.plugged else "unplugged"
        self.title = f"{core.identity}  ·  {core.cols}×{core.rows}  ·  {port}"
        for key in core.keys:
            button = EmulatorKey(text=key)
            button.bind(on_release=lambda _b, key=key: self.press(key))
            self.ids.key_row.add_widget(button)
        # The emulator's reader thread only asks; the redraw happens on the UI thread.
        display.on_change = lambda _core: clock_dispatcher(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        core = self.display.core
        self.screen_text = "\n".join(line.ljust(core.cols) for line in core.screen())

    def press(self, key: str) -> None:
        if self.display.plugged:
            self.display.press(key)

    def on_keyboard(self, _window: Any, code: int, *_args: Any) -> bool:
        key = _KEYBOARD.get(code)
        if key in self.display.core.keys:
            self.press(key)
            return True
        return False


class DisplayEmulatorApp(App):
    def __init__(self, display: PtyDisplay, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.display = display
        self.title = f"Player display {display.core.identity}"

    def build(self) -> DisplayEmulatorView:
        view = DisplayEmulatorView(self.display)
        Window.bind(on_key_down=view.on_keyboard)
        return view


def run_window(display: PtyDisplay) -> int:
    """Show `display` in a window until it is closed."""
    Window.size = (max(360, display.core.cols * 22), max(240, display.core.rows * 40 + 140))
    DisplayEmulatorApp(display).run()
    return 0
