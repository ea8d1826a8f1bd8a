"""The screens of unfinished games and of new ones, kept while home shows, so that Resume and a game's Start show
one at once (issue 26).

Made on its tap, a whole game screen took 35–110 ms here: its widgets and their rules, its words, and its first
drawing. So home keeps a screen for each of its newest unfinished games (`KEPT_AT_MOST`):

- A game left for home, unfinished, keeps the screen it was played on, as it was left.
- An unfinished game home lists without one (after a start-up, or a game taken back) has one made ahead while
  the table looks at home, a step a frame: its session read from the games file as Resume reads it, its screen
  made at the window's size, its words rendered, and its buffers (`StillLayer`) drawn.

Resume then shows that screen: its clock starts, the displays and phones follow it, and the next frame draws its
buffers, nothing more.

A game's Start does the same with a new game's screen, made ahead for each game on home's list (not the tools) as
its Start would start it now: the seats and the game's variant (`Maker.new_games`). Its session is not written
until the tap (`Session.ahead`, then `Session.begin`), so a screen made for seats the table then changes leaves no
trace: it is made again once the seats are still for `STILL_SECONDS`, and a tap before that makes its game's screen
on the tap, as before.

A kept screen listens only to its own session, which nothing changes while home shows (the app is the games
file's one writer), and its clock is paused. A screen that holds a device for as long as it exists (the turn
clock's table buttons) is never kept: `GameScreen.kept_off_screen` says so. Ending a game from home (Discard)
throws its screen away; so does a game falling out of the newest `KEPT_AT_MOST`.

Nothing is made ahead while a game shows: its frames are the table's.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from kivy.clock import Clock, ClockEvent

if TYPE_CHECKING:
    from companion.game import Options
    from ui.screens.base import GameScreen

log = logging.getLogger(__name__)

KEPT_AT_MOST = 5
"""Screens kept at most: those of the newest unfinished games, the rows home's Unfinished page shows at 800×480
without a scroll (five; a table seldom leaves more). Each costs memory: 7–10 MiB here, where the software GL
keeps its buffers and textures in the process's memory (measured with `make bench`'s idle figures; not measured
on a Pi)."""
AHEAD_SECONDS = 0.5
"""Home shows this long before the first screen is made ahead: its own first frames and a quick tap come first."""
ONCE_MORE_SECONDS = 0.5
"""The screens made ahead are drawn once more after this: some go on changing for a few frames after they are made
(the score pad adds its rounds below the fold, four a frame)."""
STILL_SECONDS = 1.0
"""Seconds the seats and variants stay as they are before the new games' screens are made again for them: a name
being typed changes them at every key."""
WORD_FRAMES = 3
"""Frames in which a screen made ahead has its words rendered (`render_words_now`) before its buffers are drawn:
fitted words settle a frame or two after the layout (as for the race made ahead)."""


class Maker(Protocol):
    """What makes the screens ahead (the app)."""

    def screen_made_ahead(self, game_id: int) -> GameScreen | None:
        """Unfinished game `game_id`'s screen as Resume would show it, its clock stopped (None: it cannot be kept)."""

    def new_game_made_ahead(self, game: str, options: Options) -> GameScreen | None:
        """A new game's screen as its Start would show it, its session not written (None: it cannot be)."""

    def new_games(self) -> Sequence[tuple[str, Options]]:
        """Each game home would start now, with the options its Start would give it."""


class KeptScreens:
    """Game screens kept while home shows: an unfinished game's by its number, a new game's by its name."""

    def __init__(self, maker: Maker) -> None:
        self._maker = maker
        self._kept: dict[int, GameScreen] = {}
        self._new: dict[str, GameScreen] = {}  # a new game's screen, made for the options its session holds
        self._not_made: list[tuple[str, Options]] = []  # new games that could not be made (too many seats...)
        self._waiting: list[int | str] = []  # screens still to be made or drawn ahead, the first next
        self._new_due = False  # whether the new games' screens are still to be made (after those waiting)
        self._once_more = False  # whether the screens are drawn once more when those are done
        self._ahead = False  # whether screens are made ahead now (home shows, in the appliance)
        self._step: ClockEvent | None = None
        self._when_still: ClockEvent | None = None  # the new games' screens made again once the seats are still

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._kept

    def has_new(self, game: str) -> bool:
        """Whether a new game of `game` has its screen made ahead (for whatever options it was made)."""
        return game in self._new

    @property
    def busy(self) -> bool:
        """Whether screens are still to be made or drawn ahead."""
        return self._step is not None or self._when_still is not None

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

    def take_new(self, game: str, options: Options) -> GameScreen | None:
        """The screen made ahead for a new game of `game` with `options`, for it to show (its session still to be
        begun), or None: none made, or one made for other options (thrown away)."""
        if game in self._waiting:
            self._waiting.remove(game)
        screen = self._new.pop(game, None)
        if screen is not None and screen.session.options != options:
            screen.close()
            return None
        return screen

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
        for screen in self._new.values():
            screen.close()
        self._new.clear()

    def home_shows(self, unfinished: Sequence[int], *, make_ahead: bool) -> None:
        """Home lists `unfinished` (game numbers, newest first): the screens of the newest `KEPT_AT_MOST` are
        kept, the others thrown away. With `make_ahead`, from `AHEAD_SECONDS` on, those missing are made and every
        kept one is drawn ahead (a screen left for home was drawn last with its game's clock running), then the new
        games' screens missing are made."""
        wanted = list(unfinished)[:KEPT_AT_MOST]
        for game_id in [g for g in self._kept if g not in wanted]:
            self.drop(game_id)
        self.stop()
        if make_ahead:
            self._ahead, self._not_made = True, []
            self._waiting, self._new_due, self._once_more = list(wanted), True, True
            self._step = Clock.schedule_once(lambda _dt: self._next(), AHEAD_SECONDS)

    def choices_changed(self) -> None:
        """Home's seats or a game's variant changed: the new games' screens are made again for them once they are
        still for `STILL_SECONDS` (each change puts that off)."""
        if not self._ahead:
            return
        if self._when_still is not None:
            self._when_still.cancel()
        self._when_still = Clock.schedule_once(lambda _dt: self._choices_still(), STILL_SECONDS)

    def stop(self) -> None:
        """Make and draw nothing more ahead (a game is showing: its frames are the table's)."""
        self._ahead = False
        self._waiting, self._new_due, self._once_more = [], False, False
        for event in (self._step, self._when_still):
            if event is not None:
                event.cancel()
        self._step = self._when_still = None

    def _choices_still(self) -> None:
        self._when_still = None
        self._new_due = True
        if self._step is None:  # else the steps under way come to the new games in their turn
            self._step = Clock.schedule_once(lambda _dt: self._next(), 0)

    def _next(self) -> None:
        """The next screen made (if it is not kept already) in one frame, then its words over `WORD_FRAMES`
        frames, and its buffers in the next (a kept one's buffers only): a tap on home meanwhile waits for one step
        at most. First the unfinished games', then the new games' missing, then every one once more."""
        self._step = None
        fresh = False  # whether the screen is made in this step (a kept one has its words)
        if self._waiting:
            key = self._waiting.pop(0)
            screen = self._new.get(key) if isinstance(key, str) else self._kept.get(key)
            if screen is None and isinstance(key, int):
                screen, fresh = self._made_for_resume(key), True
        elif self._new_due:
            screen, fresh = self._new_game_missing(), True
            self._new_due = screen is not None
            self._once_more = self._once_more or screen is not None  # a screen made is drawn once more, later
        elif self._once_more:
            self._waiting, self._once_more = [*self._kept, *self._new], False
            self._step = Clock.schedule_once(lambda _dt: self._next(), ONCE_MORE_SECONDS)
            return
        else:
            return
        if screen is None:
            self._step = Clock.schedule_once(lambda _dt: self._next(), 0)
            return
        made, frames = screen, WORD_FRAMES if fresh else 0
        self._step = Clock.schedule_once(lambda _dt: self._draw_ahead(made, frames), 0)

    def _made_for_resume(self, game_id: int) -> GameScreen | None:
        """Unfinished game `game_id`'s screen, made now and kept (None: it cannot be)."""
        try:
            screen = self._maker.screen_made_ahead(game_id)
        except Exception:  # Resume makes it again, and says why it cannot, to the table
            log.exception("making the screen of game %s ahead failed", game_id)
            return None
        if screen is not None:
            screen.put_aside()
            self._kept[game_id] = screen
        return screen

    def _new_game_missing(self) -> GameScreen | None:
        """The first new game home would start whose screen is not made for its options, made now; None when every
        one is (the screens of games home would no longer start, or not so, are thrown away)."""
        wanted = list(self._maker.new_games())
        for game in [g for g, screen in self._new.items() if (g, screen.session.options) not in wanted]:
            self._new.pop(game).close()
        for game, options in wanted:
            if game in self._new or (game, options) in self._not_made:
                continue
            try:
                screen = self._maker.new_game_made_ahead(game, options)
            except Exception:  # its Start makes it again, and says why it cannot, to the table
                log.exception("making a new %s screen ahead failed", game)
                screen = None
            if screen is None:
                self._not_made.append((game, options))
                continue
            screen.put_aside()
            self._new[game] = screen
            return screen
        return None

    def _holds(self, screen: GameScreen) -> bool:
        return screen in self._kept.values() or screen in self._new.values()

    def _draw_ahead(self, screen: GameScreen, frames: int) -> None:
        from ui.widgets.fitting import render_words_now
        from ui.widgets.layer import StillLayer

        self._step = None
        if not self._holds(screen):  # thrown away meanwhile: on with the others
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
