"""The turn clock's screen: thin over its presenter (`ui.presenters.turn_clock`).

The running player's time is very large and a tap anywhere on it ends the turn
(or starts the clock); the others are small along the bottom, beside Pause and
End. The table's buttons (handed over by `ui.wiring.table_buttons`, never
opened here) end a turn too, and the running player's light is lit. At 10 s
left and at zero the screen flashes, the buzzer (if wired) beeps and the lights
blink; a sound plays too if Kivy has an audio backend.

The time ticks just after each shown second changes, and each tick saves the
second of play reached (`TurnClockPresenter.keep_time`): a power cut loses at
most the running second. Coming back to a running clock (from home, or after a
restart) finds it paused, so the time it took to come back is nobody's.
"""

from __future__ import annotations

import logging
import math
import struct
import tempfile
import wave
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.animation import Animation
from kivy.clock import Clock, ClockEvent
from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.game import GameView, Refusal
from ui import theme
from ui.presenters.turn_clock import Alert, ClockShown, TurnClockPresenter
from ui.screens.base import GameScreen, next_tick
from ui.widgets.fitted_popup import FittedPopup

if TYPE_CHECKING:
    from companion.session import AnySession
    from hardware.table_buttons import TableButtons
    from ui.table import Table

log = logging.getLogger(__name__)


class ClockTile(BoxLayout):
    """One other player's time, small: their name in their colour, the time under it."""

    name = StringProperty("")
    time = StringProperty("")
    note = StringProperty("")
    tone = StringProperty("text")
    seat_colour = ListProperty([1.0, 1.0, 1.0, 1.0])


class TurnClockBoard(BoxLayout):
    screen = ObjectProperty(None)
    name = StringProperty("")
    time = StringProperty("")
    note = StringProperty("")
    tone = StringProperty("text")
    summary = StringProperty("")
    seat_colour = ListProperty(list(theme.MUTED))
    can_tap = BooleanProperty(True)
    pause_text = StringProperty("Pause")
    can_pause = BooleanProperty(False)
    can_stop = BooleanProperty(True)
    flash = NumericProperty(0.0)


class StopConfirm(FittedPopup):
    """ "Stop the clock for good?" Yes stops it (Undo takes it back), No goes back to the clock."""

    screen = ObjectProperty(None)

    def confirm(self) -> None:
        self.dismiss()
        self.screen.stop()


def _beep_file() -> Path:
    """A short beep as a WAV file in the temporary folder (made once): what SoundLoader plays, if it can."""
    path = Path(tempfile.gettempdir()) / "companion-turn-clock-beep.wav"
    if not path.exists():
        rate = 22050
        frames = b"".join(
            struct.pack("<h", int(12000 * math.sin(2 * math.pi * 880 * i / rate))) for i in range(rate // 5)
        )
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(rate)
            out.writeframes(frames)
    return path


class TurnClockScreen(GameScreen):
    board_shows_the_clock = True
    kept_off_screen = False  # its table buttons are open while it exists: home would hand them to a hidden clock
    def __init__(self, session: AnySession, table: Table, **kwargs: Any) -> None:
        self.presenter = TurnClockPresenter(session)
        self.buttons: TableButtons | None = None
        self._second: ClockEvent | None = None
        self._sound: Any = None
        self._sound_tried = False
        super().__init__(session, table, **kwargs)
        if session.view().running and not session.paused:
            session.pause_clock()  # back from home or a restart: nobody's time runs until the table says so
        # On the next frame: a screen built only to be drawn (the Log's replay) is closed before it, and never
        # takes the table's buttons from the game in play.
        Clock.schedule_once(lambda _dt: self._open_buttons(), 0)

    def build_body(self) -> Widget | None:
        self.board = TurnClockBoard(screen=self)
        return self.board

    def _open_buttons(self) -> None:
        from ui import wiring

        if self._closed:
            return
        try:
            self.buttons = wiring.table_buttons(self.table)
        except Exception as error:  # pins busy, a bad pin number: the screen alone still works
            log.warning("table buttons unavailable: %s", error)
            self.say(f"The table's buttons could not be used ({error}); tap the clock instead.", error=True)
            return
        self.buttons.when_pressed = self.pressed
        self._show_lights()

    # -- drawing -----------------------------------------------------------------------------------

    def hardware_opened(self) -> None:
        # Resumed at start-up, the clock came before the table's buttons and took simulated ones: the table's now.
        if self.buttons is not None and self.table.race is not None and self.buttons.buttons is not self.table.race:
            self.buttons.close()
            self.buttons = None
            self._open_buttons()

    def render(self, view: GameView) -> None:
        self._draw(self.presenter.shown())
        self._show_lights()
        self._schedule_second()

    def _draw(self, shown: ClockShown) -> None:
        board = self.board
        players = self.session.options.players
        board.name = shown.name
        board.time = shown.time
        board.note = shown.note
        board.tone = shown.tone
        board.summary = shown.summary
        board.seat_colour = list(theme.rgba(players[shown.seat].colour)) if shown.seat is not None else theme.MUTED
        board.can_tap = shown.can_tap
        board.pause_text = shown.pause_text
        board.can_pause = shown.can_pause
        board.can_stop = shown.can_stop
        row = board.ids.tiles
        if len(row.children) != len(shown.tiles):
            row.clear_widgets()
            for _ in shown.tiles:
                row.add_widget(ClockTile())
        for widget, tile in zip(reversed(row.children), shown.tiles, strict=True):
            widget.name, widget.time, widget.note, widget.tone = tile.name, tile.time, tile.note, tile.tone
            widget.seat_colour = list(theme.rgba(players[tile.seat].colour))

    def _show_lights(self) -> None:
        if self.buttons is None:
            return
        index, every = self.presenter.lights(self.buttons.count)
        self.buttons.light_only(index, every=every)

    def _schedule_second(self) -> None:
        """Come back just after the running clock's shown second changes (nothing while no time runs)."""
        if self._second is not None:
            self._second.cancel()
            self._second = None
        view = self.session.view()
        if self._closed or self.session.paused or not view.running:
            return
        spent = max(0.0, self.session.elapsed - view.turn_began)
        self._second = Clock.schedule_once(lambda _dt: self._tick_second(), next_tick(spent))

    def _tick_second(self) -> None:
        self._second = None
        self.presenter.keep_time()
        alert = self.presenter.alert()
        if alert is not None:
            self.buzz(alert)
        self._draw(self.presenter.shown())
        self._schedule_second()

    # -- taps and presses ----------------------------------------------------------------------------

    def tap(self) -> None:
        """A tap anywhere on the big clock."""
        action = self.presenter.tap()
        if action is not None:
            self.send(action)

    def pressed(self, index: int) -> None:
        """A table button, on the UI thread (the dispatcher brought it)."""
        if self.buttons is None or self._closed:
            return
        action = self.presenter.press(index, self.buttons.count)
        if action is not None:
            self.send(action)

    def ask_stop(self) -> None:
        self.open_once("stop", lambda: StopConfirm(screen=self))

    def stop(self) -> None:
        try:
            self.session.act(self.presenter.stop())
        except Refusal as refusal:
            self.say(str(refusal), error=True)

    def toggle_clock(self) -> None:
        super().toggle_clock()
        self.presenter.alert()  # the clock's position after a pause is where the next buzz is counted from

    # -- the buzz -------------------------------------------------------------------------------------

    def buzz(self, alert: Alert) -> None:
        """10 s left or zero: the screen flashes, the buzzer beeps and the lights blink; a sound if there is one."""
        times = 3 if alert == "zero" else 1
        self.board.flash = 1.0
        Animation.cancel_all(self.board, "flash")
        Animation(flash=0.0, duration=0.6 * times).start(self.board)
        if self.buttons is not None:
            index, every = self.presenter.lights(self.buttons.count)
            self.buttons.blink(None if every else index, times=times)
            self.buttons.beep(times=times)
        sound = self._beep()
        if sound is not None:
            sound.play()

    def _beep(self) -> Any:
        if not self._sound_tried:
            self._sound_tried = True
            try:
                from kivy.core.audio import SoundLoader

                self._sound = SoundLoader.load(str(_beep_file()))
            except Exception as error:  # no audio backend, no temporary folder: the flash says it alone
                log.info("no sound for the turn clock: %s", error)
        return self._sound

    def close(self) -> None:
        super().close()
        if self._second is not None:
            self._second.cancel()
            self._second = None
        if self.buttons is not None:
            self.buttons.close()
            self.buttons = None


Factory.register("TurnClockBoard", cls=TurnClockBoard)
SCREEN = TurnClockScreen
