"""Under Xvfb: the emulated display's window with a Quin private view and setup menu, and the pairing question."""

from __future__ import annotations

from collections.abc import Iterator
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
        assert ui.wait_until(lambda: strip.popup is not None)
        code = display.core.pair_code
        assert code and strip.popup.question == f"Whose display shows {' '.join(code)}?"
        ui.screenshot("display-pairing.png")
        ui.tap(strip.popup.choices["Ann"])
        assert ui.wait_until(lambda: strip.statuses and strip.statuses[0].state is DisplayState.CONNECTED)
        assert display.core.wait_for(lambda core: core.screen()[0].startswith("Ann"))
        ui.settle()
        ui.screenshot("display-strip.png")
        display.unplug()
        assert ui.wait_until(lambda: strip.statuses[0].state is DisplayState.UNPLUGGED)
        chips = [c.text for c in strip.ids.chips.children[::-1]]
        assert chips == ["Ann: display unplugged", "Bo: no display"]
    strip.close()
    holder.dismiss()
    ui.settle()


def test_a_display_that_cannot_prove_it_is_anns_is_shown_as_a_warning(
    ui: Any, tmp_path: Path, quin: Session, hub: DisplayHub
) -> None:
    """Issue 13: 'The shared screen says "A display claims to be Ann's but could not prove it", and the status
    strip never shows it as Ann's. Re-pairing a replaced display is one deliberate step on the touchscreen.'"""
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
    with PtyDisplay(DisplayCore("emu-ann", 21, 8), link=tmp_path / "ports" / "usb-ann") as real:
        assert ui.wait_until(lambda: strip.popup is not None)
        ui.tap(strip.popup.choices["Ann"])
        assert real.core.wait_for(lambda core: core.screen()[0].startswith("Ann"))
        impostor = PtyDisplay(DisplayCore("emu-ann", 21, 8), link=tmp_path / "ports" / "usb-other").plug()
        try:
            warning = "A display claims to be Ann's but could not prove it"
            assert ui.wait_until(lambda: any(warning in c.text for c in strip.ids.chips.children))
            ui.settle()
            assert strip.popup is None, "a claim is never asked about by itself"
            chips = [c.text for c in strip.ids.chips.children[::-1]]
            assert chips[:2] == ["Ann: display on", "Bo: no display"]
            ui.screenshot("display-impostor.png")
            ui.tap(next(c for c in strip.ids.chips.children if warning in c.text))
            assert ui.wait_until(lambda: strip.popup is not None)
            assert strip.popup.question.startswith(warning)
            ui.screenshot("display-impostor-repair.png")
            ui.tap(strip.popup.choices["Ann"])  # the one deliberate step: it is Ann's new display
            assert impostor.core.wait_for(lambda core: core.screen()[0].startswith("Ann"))
        finally:
            impostor.close()
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
        assert ui.wait_until(lambda: "Flash" in view.screen_text)
        ui.screenshot("display-emulator.png")
        ui.tap(ui.find_text(view, "down"))
        assert ui.wait_until(lambda: "2/" in view.screen_text.split("\n")[0])
        ui.screenshot("display-emulator-page-2.png")
        holder.dismiss()
        ui.settle()


def test_emulator_window_walks_the_games_setup_menu(ui: Any, tmp_path: Path, hub: DisplayHub) -> None:
    from kivy.uix.modalview import ModalView

    from ui.display_emulator import DisplayEmulatorView

    with Store.open(tmp_path / "setup.db") as store:
        session = Session.start(store, "quin", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(4))
        hub.attach(session)
        with PtyDisplay(DisplayCore("pico-setup", 21, 8), link=tmp_path / "ports" / "usb-pico") as display:
            assert display.core.wait_for(lambda core: core.pair_code is not None)
            assert hub.pair(display.core.pair_code or "", "Ann")
            view = DisplayEmulatorView(display)
            holder = ModalView(size_hint=(1, 1), auto_dismiss=False)
            holder.add_widget(view)
            holder.open()
            assert ui.wait_until(lambda: "Setup 0/17" in view.screen_text)
            ui.screenshot("display-emulator-setup.png")
            ui.tap(ui.find_text(view, "ok"))
            assert ui.wait_until(lambda: "Clone from" in view.screen_text)
            for _ in range(2):  # the first face the Clone may replace, and the first it may become
                ui.tap(ui.find_text(view, "ok"))
                ui.settle()
            assert ui.wait_until(lambda: len(session.moves) == 1)  # played on the UI thread, by the hub
            assert ui.wait_until(lambda: "Clone: Art.Light" in view.screen_text and "> Time" in view.screen_text)
            ui.screenshot("display-emulator-setup-clone.png")
            holder.dismiss()
            ui.settle()
        hub.detach()


@pytest.mark.parametrize("rows", [4, 8])
def test_the_pairing_screen_shows_every_word_whole_from_16_columns(rows: int) -> None:
    """Issue 21: 'The 16-column display emulator still shows "Pair this displa"'. Every width from 16 columns
    shows the pairing screen whole: each word of it on one line, the code complete."""
    for cols in range(16, 41):
        core = DisplayCore("emu-narrow", cols, rows)
        core.pair_code = "471"
        screen = core.screen()
        assert len(screen) == rows and all(len(line) <= cols for line in screen), (cols, screen)
        words = " ".join(screen).split()
        assert words == ["Pair", "this", "display", "Code:", "4", "7", "1", "Tap", "your", "name."], (cols, screen)


def test_the_16_column_emulator_window_shows_pair_this_display_whole(ui: Any, tmp_path: Path, hub: DisplayHub) -> None:
    """Issue 21: 'The 16-column display emulator still shows "Pair this displa"'."""
    from kivy.uix.modalview import ModalView

    from ui.display_emulator import DisplayEmulatorView

    with PtyDisplay(DisplayCore("emu-16", 16, 8), link=tmp_path / "ports" / "usb-16") as display:
        assert display.core.wait_for(lambda core: core.pair_code is not None)
        view = DisplayEmulatorView(display)
        holder = ModalView(size_hint=(1, 1), auto_dismiss=False)
        holder.add_widget(view)
        holder.open()
        assert ui.wait_until(lambda: "Code:" in view.screen_text)
        lines = [line.strip() for line in view.screen_text.split("\n")]
        assert lines[:2] == ["Pair this", "display"] and "displa" not in [w for line in lines for w in line.split()]
        ui.screenshot("display-emulator-16-pairing.png")
        holder.dismiss()
        ui.settle()
