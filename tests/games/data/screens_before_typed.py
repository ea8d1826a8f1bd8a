"""Fingerprints of what every player's own display and phone show along every golden script, from before (issue 25).

Before issue 25 the small displays and the phone page were drawn from a player's view as JSON (the plain layout
read its keys; Quin's layout read it back typed); since, they are drawn from the typed view itself, read by
field. `screens-before-typed.json` holds, for each golden script, one fingerprint a step (the SHA-256 of every
player's first screen at four sizes, their setup menu's screen where there is one, and their phone page), written
by this module at the commit before (``python -m tests.games.data.screens_before_typed``, which then laid out
``session.private_view``); the test lays out ``session.own_view`` today and must find the very same screens.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.support.golden import read, scripts

SAVED = Path(__file__).with_name("screens-before-typed.json")

SIZES = ((16, 8), (20, 4), (21, 8), (40, 12))
"""The OLED firmware's screen, a 20×4 LCD, the emulator's 21×8 and a wide one."""

ViewOf = Callable[[Any, str], Any]
"""How a player's view is asked of a session: ``Session.private_view`` (before) or ``Session.own_view`` (now)."""


def screens_along(path: Path, view_of: ViewOf) -> list[dict[str, Any]]:
    """What each player's display and phone show after each line of the script: pages, menu, phone page."""
    import contextlib

    from companion.dice import RandomDice
    from companion.game import Options, RuleError
    from companion.session import Session
    from companion.small_display import pages_for
    from companion.store import Store

    golden = read(path)
    seen = []
    with Store.in_memory() as store:
        session = Session.start(
            store,
            golden.game,
            Options.for_names(*golden.players, **golden.settings),
            dice=RandomDice.seeded(golden.seed or 0),
            clock=lambda: 0.0,
        )
        shows = session.game.display
        for _number, action in [(0, None), *golden.actions]:
            if action is not None:
                if action.get("type") in ("undo", "redo"):
                    getattr(session, action["type"])()
                else:
                    with contextlib.suppress(RuleError):
                        session.act(action)
            step: dict[str, Any] = {}
            for name in golden.players:
                view = view_of(session, name)
                menu = shows.menu_for(view, None) if shows is not None else None
                step[name] = {
                    "pages": {f"{c}x{r}": pages_for(view, c, r, shows) for c, r in SIZES},
                    "menu": {f"{c}x{r}": menu.lines(view, c, r) for c, r in SIZES} if menu is not None else None,
                    "phone": session.game.phone_page(view),
                }
            seen.append(step)
    return seen


def fingerprint(screens: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(screens, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def fingerprints(view_of: ViewOf) -> dict[str, list[str]]:
    return {path.stem: [fingerprint(s) for s in screens_along(path, view_of)] for path in scripts()}


if __name__ == "__main__":
    SAVED.write_text(json.dumps(fingerprints(lambda s, p: s.private_view(p)), indent=0) + "\n", encoding="utf-8")
