"""Settings on the home screen turns the phones on and off (issue 15: "Turn it on in the config ... or in the
home screen's settings. It is off by default."), kept across a restart, on a real server and a real window."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from companion.choices import TableChoices
from companion.config import PhonesConfig
from hardware.phones.server import NO_TOKEN
from ui.phone_switch import start_phones, switch_of
from ui.presenters.settings import OFF


@pytest.fixture
def table(ui: Any, tmp_path: Path) -> Any:
    """The test's table with its own choices file, phones on port 0 (any free one), stopped afterwards."""
    ui.table.config = replace(ui.table.config, phones=PhonesConfig(port=0))
    ui.table.choices = TableChoices.load(tmp_path / "table-choices.json")
    yield ui.table
    switch_of(ui.table).stop()


def open_settings(ui: Any) -> Any:
    ui.tap(ui.screen.ids.settings_button)
    ui.settle()
    return next(w for w in ui.window.children if type(w).__name__ == "SettingsPopup")


def choice(ui: Any, popup: Any, value: str) -> Any:
    return ui.find(popup, "phones_choice").buttons[value]


def fetch(url: str) -> tuple[int, str]:
    async def get() -> tuple[int, str]:
        async with aiohttp.ClientSession() as client, client.get(url) as response:
            return response.status, await response.text()

    return asyncio.run(get())


def test_settings_turn_the_phones_on_for_a_network_and_off_again_and_the_choice_is_kept(
    ui: Any, table: Any, tmp_path: Path
) -> None:
    """Issue 15: "Turn it on ... in the home screen's settings. It is off by default." Each network of this
    machine is a choice by its name; the server starts at once, and Off stops it."""
    popup = open_settings(ui)
    assert popup.chosen == OFF and "Phones are off (as the config file says)" in popup.status
    lo = next(value for value, words in popup.choices if words.startswith("This machine only"))
    ui.screenshot("settings-phones-off.png")
    ui.tap(choice(ui, popup, lo))
    assert table.phones is not None and popup.chosen == lo
    url = switch_of(table).url
    assert url is not None and url.startswith("http://127.0.0.1:")
    assert f"The table answers at {url}." in popup.status and "no phone can reach it" in popup.status
    assert fetch(url + "/")[0] == 200, "the server answers at once (its notice page: no code, nothing private)"
    ui.screenshot("settings-phones-on.png")
    kept = json.loads((tmp_path / "table-choices.json").read_text())
    assert kept["phones"] == {"on": True, "listen": lo}
    assert (tmp_path / "table-choices.json").stat().st_mode & 0o777 == 0o600
    ui.tap(ui.find(popup, "close_button"))

    screen = ui.start_game("quin", ["Ann", "Bo"])
    assert ui.find_text(screen, "Phones"), "the Quin screen offers the codes"
    seat = table.phones.server.url_for("Ann")
    assert seat is not None and seat.startswith(url + "/seat/")
    ui.tap(screen.ids.menu_button)  # the Menu offers the phones too, as in every game with private views
    menu = next(w for w in ui.window.children if type(w).__name__ == "GameMenu")
    ui.screenshot("menu-phones.png")
    ui.tap(ui.find(menu, "phones_button"))
    ui.settle()
    panel = next(w for w in ui.window.children if type(w).__name__ == "PhonesPanel")
    ui.tap(ui.find(panel, "close_button"))
    ui.app.go_home()
    ui.frames(3)

    popup = open_settings(ui)
    ui.tap(choice(ui, popup, OFF))
    assert table.phones is None and popup.chosen == OFF and popup.status.startswith("Phones are off.")
    with pytest.raises(aiohttp.ClientConnectionError):
        fetch(url + "/")
    assert json.loads((tmp_path / "table-choices.json").read_text())["phones"] == {"on": False, "listen": ""}
    ui.tap(ui.find(popup, "close_button"))
    screen = ui.start_game("quin", ["Ann", "Bo"])
    with pytest.raises(LookupError):
        ui.find_text(screen, "Phones")
    ui.tap(screen.ids.menu_button)
    menu = next(w for w in ui.window.children if type(w).__name__ == "GameMenu")
    assert "phones_button" in menu.ids, "the Menu has a place for it"
    with contextlib.suppress(ReferenceError):  # a button taken off the Menu may already be gone: ids are weak
        assert menu.ids.phones_button.parent is None, "nor in the Menu"


def test_the_choice_made_in_settings_wins_over_the_config_file_after_a_restart(ui: Any, table: Any) -> None:
    """Settings' choice outlives the app: at the next start the phones come on as chosen, even though the
    config file says `enabled = false`; and a choice of Off keeps them off though the config says true."""
    switch_of(table).choose("lo")
    switch_of(table).stop()
    table.choices = TableChoices.load(table.choices.path)  # as the next start reads it
    assert switch_of(table).wanted.on and start_phones(table) == [] and table.phones is not None
    assert fetch(switch_of(table).url + "/seat/nonsense")[1].count(NO_TOKEN) == 1
    switch_of(table).choose(None)
    table.config = replace(table.config, phones=PhonesConfig(enabled=True, port=0))
    table.choices = TableChoices.load(table.choices.path)
    assert not switch_of(table).wanted.on and start_phones(table) == [] and table.phones is None


def test_a_network_without_an_address_is_waited_for_and_said_so(ui: Any, table: Any) -> None:
    """The Pi may start before its Wi-Fi has joined: the phones wait for the chosen network, and Settings and
    the home screen say so in one sentence instead of failing."""
    ui.app.choose_phones("wlan-nowhere")
    sentence = "Phones wait for wlan-nowhere to join a network; they start when it has an address."
    assert ui.screen.notice == sentence and table.phones is None
    ui.tap(ui.screen.ids.notice)  # it lies over the bottom bar until a tap puts it away
    popup = open_settings(ui)
    assert popup.chosen == "wlan-nowhere" and popup.status == sentence
    assert ("wlan-nowhere", "wlan-nowhere\nno address now") in [tuple(c) for c in popup.choices]
    ui.tap(choice(ui, popup, OFF))
    assert switch_of(table).note == "" and table.phones is None


def test_a_choices_file_the_app_did_not_write_is_left_alone(ui: Any, table: Any, tmp_path: Path) -> None:
    """ "Never rename, truncate or replace a file the app did not create": a foreign file at the choices'
    path stays byte for byte; the choice still holds until the app stops, and one sentence says so."""
    foreign = tmp_path / "table-choices.json"
    foreign.write_text('{"theme": "dark"}\n')
    table.choices = TableChoices.load(foreign)
    assert table.choices.problem and "is not the companion's table-choices file" in table.choices.problem
    ui.app.choose_phones("lo")
    assert table.phones is not None, "the phones came on all the same"
    assert ui.screen.notice.startswith("This choice lasts until the app stops: ")
    assert foreign.read_text() == '{"theme": "dark"}\n'


def test_the_config_files_own_interface_starts_the_phones_as_it_says(ui: Any, table: Any) -> None:
    """Without a choice in Settings, `[phones] enabled = true` with `interface = "localhost"` (as docs/phones.md
    allows) starts the server there, not a wait for a network of that name."""
    table.config = replace(table.config, phones=PhonesConfig(enabled=True, interface="localhost", port=0))
    assert start_phones(table) == [] and table.phones is not None
    assert switch_of(table).note == ""
