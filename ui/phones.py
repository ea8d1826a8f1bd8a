"""The app's side of the phone server: which session the phones show, and what a tap on a phone plays.

`PhoneTable` sits between a `Session` and ``hardware.phones.server.PhoneServer``
(which knows no game). The server calls `render` and `act` on the UI thread
(through the table's dispatcher); `render(player)` is the game's phone page
of ``session.own_view(player)``, the player's own private view and nothing
else; `act(player, action)` plays a tapped choice and answers a refusal with
its sentence. A phone does its seat's private work only (a private setup step,
a private choice: ``game.is_private``); public moves, Pass, Leave, Undo and
Redo are the touchscreen's, and a phone asking for one is told so in a
sentence. Every change of the attached session is pushed to the phones.

`attach(session)` gives the seats their tokens when the game changes (the
phones panel attaches the session it is opened on, and the app attaches each
session it shows); `detach()` shows nothing any more. With `codes` (a
``hardware.phones.codes.SeatCodes``), each unfinished game's tokens are kept in
a file: a game resumed after a restart gets its own tokens back, so the
phones still open on its pages reconnect by themselves; a game that ends, or
is no longer unfinished in the store, has its tokens dropped from the file.
A seat given a new code at the table (Release) has its new code kept at once:
the codes that survive a restart are the current ones only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.game import Refusal
from companion.session import AnySession
from hardware.phones.codes import SeatCodes

log = logging.getLogger(__name__)

ON_THE_TOUCHSCREEN = (
    "This page makes your private choices only: moves, Pass, Leave, Undo and Redo are made on the table's touchscreen."
)


class PhoneTable:
    """The session the phones show; `server` is set once the `PhoneServer` is built (it needs our callbacks)."""

    def __init__(self, codes: SeatCodes | None = None) -> None:
        self.server: Any = None
        self.session: AnySession | None = None
        self.codes = codes  # each unfinished game's tokens, kept over a restart (None: this run only)
        self._unsubscribe: Callable[[], None] | None = None
        self._codes_for: int | None = None  # the game the seats' codes were made for

    # -- the app (UI thread) ------------------------------------------------------------------

    def attach(self, session: AnySession) -> None:
        """Show `session` on the phones. A game other than the one the seats' codes were made for gets the
        codes kept for it (after a restart, or coming back to it), else fresh ones; the same game coming
        back from the home screen keeps them, so nobody scans again."""
        if session is self.session:
            return
        self._stop_following()
        self.session = session
        self._unsubscribe = session.subscribe(self._changed)
        if self.server is not None:
            if session.game_id != self._codes_for:
                self._give_codes(session)
                self._codes_for = session.game_id
            self.server.changed()

    def _give_codes(self, session: AnySession) -> None:
        names = list(session.options.names)
        key = str(session.game_id)
        # Only the unfinished games' codes are kept: a finished or discarded game's are dropped below.
        unfinished = (
            {str(game.record.id) for game in session.store.unfinished_games()} if self.codes is not None else set()
        )
        # The phones of the game shown until now: told to scan a new code, or (its codes kept) to come back later.
        old_kept = self._codes_for is not None and str(self._codes_for) in unfinished
        kept = self.codes.codes_for(key) if self.codes is not None else None
        if kept is not None:
            try:
                self.server.new_game(names, tokens=kept, old_codes_kept=old_kept)
            except ValueError as refused:  # other players than when they were kept: fresh codes then
                log.warning("game %s's kept seat codes were not used (%s); its seats get new ones", key, refused)
                kept = None
        if kept is None:
            self.server.new_game(names, old_codes_kept=old_kept)
        if self.codes is not None:
            if session.outcome is None:
                unfinished.add(key)  # in play whatever the store says (a store not saving lists nothing)
                if kept is None:
                    self.codes.keep(key, self.server.tokens())
            self.codes.forget_all_but(unfinished)

    def detach(self) -> None:
        """Nothing is shown any more (the game went back to the home screen); its codes stay for its return."""
        self._stop_following()
        self.session = None
        if self.server is not None:
            self.server.changed()

    def _stop_following(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def close(self, *, turned_off: bool = False) -> None:
        """The app stops (the pages keep trying), or the phones were `turned_off` in Settings (they stop)."""
        self._stop_following()
        if self.server is not None:
            if turned_off:
                from hardware.phones.server import TURNED_OFF

                self.server.close(TURNED_OFF, retry=False)
            else:
                self.server.close()

    # -- the server's callbacks (on the UI thread) -----------------------------------------------

    def render(self, player: str) -> dict[str, Any] | None:
        """`player`'s phone page: the game's rendering of their own private view (None: nothing to show)."""
        session = self.session
        if session is None or player not in session.options.names:
            return None
        return session.game.phone_page(session.own_view(player))  # typed: the game's page reads its fields

    def act(self, player: str, action: dict[str, Any]) -> str | None:
        """Play `action` for `player` (the server has already made it theirs); None if taken, else why not."""
        session = self.session
        if session is None:
            return "No game is being played."
        if action.get("player") != player:  # the server forces it; this keeps it true whoever calls
            return f"This page is {player}'s: it can only make {player}'s choices."
        if not session.game.is_private(action):  # a guest with a seat's code must not end or steer the game
            return ON_THE_TOUCHSCREEN
        try:
            session.act(action)
        except Refusal as refusal:
            return str(refusal)
        return None

    def _changed(self, *_args: Any) -> None:
        if self.server is not None:
            self.server.changed()
            self._keep_codes()

    def codes_changed(self) -> None:
        """The table gave seats new codes (Release, "New code for Ann", Forget every phone): the file keeps
        the new ones at once, so an old code opens nothing even after a restart."""
        if self.codes is None or self.server is None or self._codes_for is None:
            return
        key = str(self._codes_for)
        session = self.session
        in_play = session is not None and session.game_id == self._codes_for and session.outcome is None
        if in_play or self.codes.codes_for(key) is not None:
            self.codes.keep(key, self.server.tokens())

    def _keep_codes(self) -> None:
        """A game that ends drops its codes from the file; one undone back into play keeps them again."""
        session = self.session
        if self.codes is None or session is None or session.game_id != self._codes_for:
            return
        key = str(session.game_id)
        if session.outcome is not None:
            self.codes.forget(key)
        elif self.codes.codes_for(key) is None:
            self.codes.keep(key, self.server.tokens())
