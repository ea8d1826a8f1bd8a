"""The screens of unfinished games, kept while home shows, so that Resume shows one at once (issue 26).

Made on its tap, a whole game screen took 35–110 ms here: its widgets and their rules, its words, and its first
drawing. So home keeps a screen for each of its newest unfinished games (`KEPT_AT_MOST`):

- A game left for home, unfinished, keeps the screen it was played on, as it was left.
- An unfinished game home lists without one (after a start-up, or a game taken back) has one made ahead while
  the table looks at home, a step a frame: its session read from the games file as Resume reads it, its screen
  made at the window's size, its words rendered, and its buffers (`StillLayer`) drawn.

Resume then shows that screen: its clock starts, the displays and phones follow it, and the next frame draws its
buffers, nothing more.

A kept screen listens only to its own session, which nothing changes while home shows (the app is the games
file's one writer), and its clock is paused. A screen that holds a device for as long as it exists (the turn
clock's table buttons) is never kept: `GameScreen.kept_off_screen` says so. Ending a game from home (Discard)
throws its screen away; so does a game falling out of the newest `KEPT_AT_MOST`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kivy.clock import Clock, ClockEvent

if TYPE_CHECKING:
    from ui.screens.base import GameScreen

log = logging.getLogger(__name__)

KEPT_AT_MOST = 3
"""Screens kept at most: those of the newest unfinished games (home's first rows; a table seldom leaves more games
unfinished). Each costs memory: about 14 MiB here, where the software GL keeps its buffers and textures in the
process's memory (six kept: +85 MiB, measured; not measured on a Pi)."""
AHEAD_SECONDS = 0.5
"""Home shows this long before the first screen is made ahead: its own first frames and a quick tap come first."""
ONCE_MORE_SECONDS = 0.5
"""The screens made ahead are drawn once more after this: some go on changing for a few frames after they are made
(the score pad adds its rounds below the fold, four a frame)."""
WORD_FRAMES = 3
"""Frames in which a screen made ahead has its words rendered (`render_words_now`) before its buffers are drawn:
fitted words settle a frame or two after the layout (as for the race made ahead)."""


class KeptScreens:
    """Game screens kept by their game's number while home shows; `make` makes one ahead (None: it cannot)."""

    def __init__(self, make: Callable[[int], GameScreen | None]) -> None:
        self._make = make
        self._kept: dict[int, GameScreen] = {}
        self._waiting: list[int] = []  # games whose screen is still to be made ahead, the first next
        self._once_more = False  # whether the kept screens are drawn once more when those are done
        self._step: ClockEvent | None = None

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._kept

    @property
    def busy(self) -> bool:
        """Whether screens are still to be made or drawn ahead."""
        return self._step is not None

    def keep(self, screen: GameScreen) -> None:
        """`screen`, taken off the window with its game unfinished: kept for Resume, or closed if it cannot be."""
        if not screen.kept_off_screen:
            screen.close()
            return
        game_id = screen.session.game_id
        old = self._kept.pop(game_id, None)
        if old is not None and old is not screen:
            old.close()
        screen.put_aside()
        self._kept[game_id] = screen

    def take(self, game_id: int) -> GameScreen | None:
        """The kept screen of game `game_id`, for it to show (it is no longer kept), or None."""
        if game_id in self._waiting:
            self._waiting.remove(game_id)
        return self._kept.pop(game_id, None)

    def drop(self, game_id: int) -> None:
        """Game `game_id` ended from home (or went): its screen, if kept, is thrown away."""
        if game_id in self._waiting:
            self._waiting.remove(game_id)
        screen = self._kept.pop(game_id, None)
        if screen is not None:
            screen.close()

    def drop_all(self) -> None:
        self.stop()
        for game_id in list(self._kept):
            self.drop(game_id)

    def home_shows(self, unfinished: Sequence[int], *, make_ahead: bool) -> None:
        """Home lists `unfinished` (game numbers, newest first): the screens of the newest `KEPT_AT_MOST` are
        kept, the others thrown away. With `make_ahead`, from `AHEAD_SECONDS` on, those missing are made and every
        kept one is drawn ahead (a screen left for home was drawn last with its game's clock running)."""
        wanted = list(unfinished)[:KEPT_AT_MOST]
        for game_id in [g for g in self._kept if g not in wanted]:
            self.drop(game_id)
        self.stop()
        if make_ahead and wanted:
            self._waiting, self._once_more = wanted, True
            self._step = Clock.schedule_once(lambda _dt: self._next(), AHEAD_SECONDS)

    def stop(self) -> None:
        """Make and draw nothing more ahead (a game is showing: its frames are the table's)."""
        self._waiting, self._once_more = [], False
        if self._step is not None:
            self._step.cancel()
            self._step = None

    def _next(self) -> None:
        """The next game's screen made (if it is not kept already) in one frame, then its words over `WORD_FRAMES`
        frames, and its buffers in the next (a kept one's buffers only): a tap on home meanwhile waits for one step
        at most."""
        self._step = None
        if not self._waiting:
            if self._once_more:
                self._waiting, self._once_more = list(self._kept), False
                self._step = Clock.schedule_once(lambda _dt: self._next(), ONCE_MORE_SECONDS)
            return
        game_id = self._waiting.pop(0)
        screen = self._kept.get(game_id)
        frames = 0  # a screen kept already has its words: only its buffers may need drawing
        if screen is None:
            frames = WORD_FRAMES
            try:
                screen = self._make(game_id)
            except Exception:  # Resume makes it again, and says why it cannot, to the table
                log.exception("making the screen of game %s ahead failed", game_id)
                screen = None
            if screen is None:
                self._step = Clock.schedule_once(lambda _dt: self._next(), 0)
                return
            screen.put_aside()
            self._kept[game_id] = screen
        made = screen
        self._step = Clock.schedule_once(lambda _dt: self._draw_ahead(made, frames), 0)

    def _draw_ahead(self, screen: GameScreen, frames: int) -> None:
        from ui.widgets.fitting import render_words_now
        from ui.widgets.layer import StillLayer

        self._step = None
        if self._kept.get(screen.session.game_id) is not screen:  # thrown away meanwhile: on with the others
            self._step = Clock.schedule_once(lambda _dt: self._next(), 0)
            return
        if frames > 0:
            render_words_now(screen)
            self._step = Clock.schedule_once(lambda _dt: self._draw_ahead(screen, frames - 1), 0)
            return
        for widget in screen.walk(restrict=True):
            if isinstance(widget, StillLayer):
                widget.draw_now()
        self._step = Clock.schedule_once(lambda _dt: self._next(), 0)
