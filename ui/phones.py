"""The app's side of the phone server: which session the phones show, and what a tap on a phone plays.

`PhoneTable` sits between a `Session` and ``hardware.phones.server.PhoneServer``
(which knows no game). The server calls `render` and `act` on the UI thread
(through the table's dispatcher); `render(player)` is the game's phone page
of ``session.view_for(player)``, the player's own private view and nothing
else; `act(player, action)` plays a tapped choice and answers a refusal with
its sentence. Every change of the attached session is pushed to the phones.

`attach(session)` gives the seats fresh tokens when the game is a new one (the
phones panel attaches the session it is opened on, and the app may attach
each session it shows); `detach()` shows nothing any more.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.game import Refusal
from companion.session import Session

log = logging.getLogger(__name__)


class PhoneTable:
    """The session the phones show; `server` is set once the `PhoneServer` is built (it needs our callbacks)."""

    def __init__(self) -> None:
        self.server: Any = None
        self.session: Session | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._codes_for: int | None = None  # the game the seats' codes were made for

    # -- the app (UI thread) ------------------------------------------------------------------

    def attach(self, session: Session) -> None:
        """Show `session` on the phones. A game other than the one the seats' codes were made for gets fresh
        codes; the same game coming back from the home screen keeps them, so nobody scans again."""
        if session is self.session:
            return
        self._stop_following()
        self.session = session
        self._unsubscribe = session.subscribe(self._changed)
        if self.server is not None:
            if session.game_id != self._codes_for:
                self.server.new_game(list(session.options.names))
                self._codes_for = session.game_id
            self.server.changed()

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

    def close(self) -> None:
        self._stop_following()
        if self.server is not None:
            self.server.close()

    # -- the server's callbacks (on the UI thread) -----------------------------------------------

    def render(self, player: str) -> dict[str, Any] | None:
        """`player`'s phone page: the game's rendering of their own private view (None: nothing to show)."""
        session = self.session
        if session is None or player not in session.options.names:
            return None
        return session.game.phone_page(session.view_for(player))

    def act(self, player: str, action: dict[str, Any]) -> str | None:
        """Play `action` for `player` (the server has already made it theirs); None if taken, else why not."""
        session = self.session
        if session is None:
            return "No game is being played."
        if action.get("player") != player:  # the server forces it; this keeps it true whoever calls
            return f"This page is {player}'s: it can only make {player}'s choices."
        try:
            session.act(action)
        except Refusal as refusal:
            return str(refusal)
        return None

    def _changed(self, *_args: Any) -> None:
        if self.server is not None:
            self.server.changed()
