"""Issue 11: the real app, started on each damaged games file of the fault campaign, shows a screen.

Each file is one single-bit flip of the pulled-plug corpus (`tests.support.fault_corpus`, the same flips
as `tests/core/test_store_faults.py`). For each, the app does what the appliance does at a restart:
`open_store` (never raises), a fresh `Table`, `start_where_left` (resume the unfinished game, or stay
home). A screen must be current, the home screen must refresh, and a sentence the store has about the
file must be on the home screen: that is where the table's notices go (`CompanionApp.reset`); a game
screen's banner shows only `store.problem` (the card's weather), not damage found at opening.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.config import Config
from companion.dice import RandomDice
from tests.support import fault_corpus
from tests.support.fault_corpus import Corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return fault_corpus.build(tmp_path_factory.mktemp("damaged-files"))


@pytest.mark.slow
def test_the_app_starts_on_every_damaged_file_of_the_campaign(ui: Any, corpus: Corpus, tmp_path: Path) -> None:
    from ui.screens.base import GameScreen
    from ui.table import Table, open_store

    app = ui.app
    flips = fault_corpus.flips(corpus)
    assert len(flips) >= 300
    seen: Counter[str] = Counter()
    bad: list[str] = []
    shots: dict[str, Path] = {}
    try:
        for n, flip in enumerate(flips):
            path = fault_corpus.damaged(corpus, flip, tmp_path / f"flip-{n}")
            problem = ""
            store, notices = open_store(path)
            try:
                table = Table(store=store, config=Config(), dice=RandomDice.seeded(1), notices=notices)
                app.reset(table)
                app.start_where_left()
                ui.frames(2)
                current = app.screens.current_screen
                if isinstance(current, GameScreen):
                    seen["resumed " + current.session.game.name] += 1
                elif current is app.home:
                    seen["home"] += 1
                else:
                    problem = f"the current screen is {current!r}"
                if "could not be resumed" in app.home.notice:
                    problem = f"resuming failed: {app.home.notice}"
                app.home.refresh()
                if store.notice:
                    seen["notice"] += 1
                    if store.notice not in app.home.notice:
                        problem = f"the notice {store.notice!r} is not on the home screen ({app.home.notice!r})"
                if not shots and store.notice and isinstance(current, GameScreen):
                    shots["game"] = ui.screenshot("damaged-file-game.png")
                    app.go_home()
                    shots["home"] = ui.screenshot("damaged-file-home.png")
            except Exception as error:
                problem = f"{type(error).__name__}: {error}"
            finally:
                store.close()
            if problem:
                bad.append(f"{flip}: {problem}")
    finally:
        app.reset(ui.table)  # the `ui` fixture's own table, whose store is still open, for its teardown
    print(f"damaged files: {len(flips)} started: {dict(sorted(seen.items()))}")
    assert not bad, f"{len(bad)} of {len(flips)} damaged files:\n" + "\n".join(bad)
    assert set(shots) == {"game", "home"}, "a damaged file with a notice, and an unfinished game resumed"
