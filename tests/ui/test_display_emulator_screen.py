"""Under Xvfb: the emulated display's window showing a Quin private view, and the pairing question."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.game import Options
from companion.session import Session
from companion.store import Store
from hardware.display.emulator import DisplayCore, PtyDisplay
from hardware.display.hub import DisplayHub, DisplayState

pytestmark = pytest.mark.ui


def wait_frames(ui: Any, condition: Callable[[], Any], timeout: float = 5.0) -> bool:
    """Run Kivy frames until `condition` holds (the dispatcher's work is done in them)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        ui.frames(1)
    return bool(condition())


@pytest.fixture
def quin(tmp_path: Path) -> Iterator[Session]:
    from companion.games.quin.examples import example_setup

    with Store.open(tmp_path / "quin.db") as store:
        session = Session.start(store, "quin", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(4))
        session.act(example_setup("Ann"))
        session.act(example_setup("Bo"))
        session.act({"type": "flash", "player": "Ann", "attacker": "2", "defender": "5"})
        yield session


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[DisplayHub]:
    from ui.dispatch import clock_dispatcher

    (tmp_path / "ports").mkdir()
    with DisplayHub(
        tmp_path / "pairings.json", ports=[str(tmp_path / "ports" / "*")], call_soon=clock_dispatcher
    ) as started:
        yield started


def test_pairing_question_and_status_strip(ui: Any, tmp_path: Path, quin: Session, hub: DisplayHub) -> None:
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.modalview import ModalView

    from ui.widgets.displays import DisplayStatusStrip

    hub.attach(quin)
    holder = ModalView(size_hint=(1, 1), auto_dismiss=False)
    box = BoxLayout(orientation="vertical")
    strip = DisplayStatusStrip(hub=hub)
    box.add_widget(strip)
    box.add_widget(BoxLayout())
    holder.add_widget(box)
    holder.open()
    with PtyDisplay(DisplayCore("emu-ann", 21, 8), link=tmp_path / "ports" / "usb-ann") as display:
        assert wait_frames(ui, lambda: strip.popup is not None)
        code = display.core.pair_code
        assert code and strip.popup.question == f"Whose display shows {' '.join(code)}?"
        ui.screenshot("display-pairing.png")
        ui.tap(ui.find_text(strip.popup, "Ann"))
        assert wait_frames(ui, lambda: strip.statuses and strip.statuses[0].state is DisplayState.CONNECTED)
        assert display.core.wait_for(lambda core: core.screen()[0].startswith("Ann"))
        ui.settle()
        ui.screenshot("display-strip.png")
        display.unplug()
        assert wait_frames(ui, lambda: strip.statuses[0].state is DisplayState.UNPLUGGED)
        chips = [c.text for c in strip.ids.chips.children[::-1]]
        assert chips == ["Ann: display unplugged", "Bo: no display"]
    strip.close()
    holder.dismiss()
    ui.settle()


def test_emulator_window_shows_a_private_view(ui: Any, tmp_path: Path, quin: Session, hub: DisplayHub) -> None:
    from kivy.uix.modalview import ModalView

    from ui.display_emulator import DisplayEmulatorView

    hub.attach(quin)
    with PtyDisplay(DisplayCore("pico-e6614c31", 21, 8), link=tmp_path / "ports" / "usb-pico") as display:
        assert display.core.wait_for(lambda core: core.pair_code is not None)
        assert hub.pair(display.core.pair_code or "", "Ann")
        assert display.core.wait_for(lambda core: "Flash" in core.text())
        view = DisplayEmulatorView(display)
        holder = ModalView(size_hint=(1, 1), auto_dismiss=False)
        holder.add_widget(view)
        holder.open()
        assert wait_frames(ui, lambda: "Flash" in view.screen_text)
        ui.screenshot("display-emulator.png")
        ui.tap(ui.find_text(view, "down"))
        assert wait_frames(ui, lambda: "2/" in view.screen_text.split("\n")[0])
        ui.screenshot("display-emulator-page-2.png")
        holder.dismiss()
        ui.settle()
