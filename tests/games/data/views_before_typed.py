"""Fingerprints of every view along every golden script, as the views were before they were typed (issue 25).

Before issue 25 each game's views were dicts built by hand; since, they are frozen dataclasses turned into JSON
by `companion.codec` at the edges. `views-before-typed.json` holds, for each golden script, one fingerprint a
step (the SHA-256 of the public, revealed and every private view as sorted JSON), written by this module at the
commit before the views were typed (``python -m tests.games.data.views_before_typed``); the test plays the same
scripts today and must find the very same JSON.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from tests.support.golden import read, scripts

SAVED = Path(__file__).with_name("views-before-typed.json")


def views_along(path: Path) -> list[dict[str, Any]]:
    """Every view of the script's game after each line, as the edges see it (JSON)."""
    import contextlib

    from companion.dice import RandomDice
    from companion.game import Options, RuleError
    from companion.session import Session
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
        for _number, action in [(0, None), *golden.actions]:
            if action is not None:
                if action.get("type") in ("undo", "redo"):
                    getattr(session, action["type"])()
                else:
                    with contextlib.suppress(RuleError):
                        session.act(action)
            seen.append(
                {
                    "public": session.public_view(),
                    "revealed": session.game.revealed_view(session.state),
                    "private": {name: session.private_view(name) for name in golden.players},
                }
            )
    return seen


def fingerprint(views: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(views, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def fingerprints() -> dict[str, list[str]]:
    return {path.stem: [fingerprint(v) for v in views_along(path)] for path in scripts()}


if __name__ == "__main__":
    SAVED.write_text(json.dumps(fingerprints(), indent=0) + "\n", encoding="utf-8")
