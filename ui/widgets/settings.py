"""Settings, opened from the home screen: today, turning the phones on or off and choosing their network.

Thin over `ui.presenters.settings`. A tap on a choice asks the app to turn
the phones that way (`choose_phones`); the choice is kept across restarts
(`companion.choices`), and the line under the choices says how it went.
"""

from __future__ import annotations

from typing import Any, Protocol

from kivy.factory import Factory
from kivy.properties import ListProperty, StringProperty
from kivy.uix.popup import Popup

from ui import kv
from ui.presenters.settings import OFF, PhonesSetting, phones_setting

KV = kv.beside(__file__)


class Shell(Protocol):
    """What Settings needs of the app (`ui.app.CompanionApp`)."""

    table: Any

    def choose_phones(self, listen: str | None) -> None: ...


class SettingsPopup(Popup):
    choices = ListProperty([])
    chosen = StringProperty(OFF)
    status = StringProperty("")

    def __init__(self, *, app: Shell, **kwargs: Any) -> None:
        kv.load_kv(KV)
        self.app = app
        super().__init__(**kwargs)

    def on_pre_open(self) -> None:
        self.refresh()  # at every opening: home keeps its Settings (`KeptPopups`), and the phones change

    def shown(self) -> PhonesSetting:
        from hardware.phones.networks import networks
        from ui.phone_switch import switch_of

        table = self.app.table
        switch = switch_of(table)
        from_config = table.choices is None or table.choices.phones is None
        return phones_setting(switch.wanted, networks(), url=switch.url, note=switch.note, from_config=from_config)

    def refresh(self) -> None:
        shown = self.shown()
        self.choices = [list(choice) for choice in shown.choices]
        self.chosen = shown.chosen
        self.status = shown.status

    def choose(self, value: str | None) -> None:
        """A tap on a choice (the row also reports the choice it was given: that one changes nothing)."""
        if value is None or value == self.chosen:
            return
        self.app.choose_phones(None if value == OFF else value)
        self.refresh()


Factory.register("SettingsPopup", cls=SettingsPopup)
