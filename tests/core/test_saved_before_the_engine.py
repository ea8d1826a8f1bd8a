"""Games saved before the engine's one shape resume exactly: an upgrade loses nothing.

`data/saved-before-the-engine.db.gz` was written by the app at commit dd21d8c
(see `data/make_saved_before_the_engine.py`), when events still carried
English sentences (Quark's "notice", Quin's "sentence" and "detail") and
actions and events were plain JSON. Each of its games must load in today's
code to the very state, redo list, pending dice and outcome that playing the
same script today gives.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from companion.session import Session
from companion.store import Store
from tests.core.data.make_saved_before_the_engine import GOLDEN, play

# Its module fixture is made once: its tests stay on one worker (`make test` runs --dist loadgroup).
pytestmark = pytest.mark.xdist_group("test_saved_before_the_engine")

SAVED = Path(__file__).parent / "data" / "saved-before-the-engine.db.gz"
# The golden scripts as they were at that commit: the file holds these, and scripts added since have no old save.
SAVED_SCRIPTS = [
    "quantum-link-full-board",
    "quantum-link-refusals",
    "quantum-link-rules-example",
    "quantum-link-tie",
    "quark-2p-beryllium-tie",
    "quark-3p-dry-bank",
    "quark-4p-lithium",
    "quin-arcade-first-sight",
    "quin-key-light-captured",
    "quin-undo-light-takes-light",
    "quinque-advanced-full-game",
    "quinque-advanced-move-win",
    "quinque-diagonal-win",
    "quinque-full-tie",
    "quinque-row-win",
    "quinque-small-tie",
    "quintet-five-players",
    "quintet-three-tie",
    "quintet-two-players",
]
SCRIPTS = [GOLDEN / f"{name}.jsonl" for name in SAVED_SCRIPTS]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("saved") / "games.db"
    with gzip.open(SAVED) as packed, path.open("wb") as unpacked:
        shutil.copyfileobj(packed, unpacked)
    return path


def test_the_saved_file_holds_every_script_twice(saved):
    with Store.read(saved) as store:
        assert store.counts()[0] == 2 * len(SCRIPTS)


def _name(number: int) -> str:
    return f"{SCRIPTS[number // 2].stem}-{'short' if number % 2 else 'end'}"


RULED_SINCE = {"quark-3p-dry-bank"}
"""Scripts whose game the rules have changed since the save: Cy's End-turn hand count now draws the card from
the quark deck (RULINGS, Quark corrections), so the deck runs out a round earlier than it did when it was saved."""


@pytest.mark.parametrize(
    "number", [n for n in range(2 * len(SCRIPTS)) if SCRIPTS[n // 2].stem not in RULED_SINCE], ids=_name
)
def test_a_game_saved_before_resumes_exactly(saved, tmp_path, number):
    script, stop_short = SCRIPTS[number // 2], 3 * (number % 2)
    with Store.open(tmp_path / "today.db") as today:
        play(today, script, stop_short)
        expected = Session.load(today, 1, clock=lambda: 0.0)
        with Store.read(saved) as before:
            loaded = Session.load(before, number + 1, clock=lambda: 0.0)
        assert loaded.game.name == expected.game.name
        assert loaded.state == expected.state
        assert loaded.events == expected.events
        assert loaded.redo_moves == expected.redo_moves
        assert loaded.pending_draws == expected.pending_draws
        assert loaded.outcome == expected.outcome
        assert loaded.public_view() == expected.public_view()


@pytest.mark.parametrize(
    "number", [n for n in range(2 * len(SCRIPTS)) if SCRIPTS[n // 2].stem in RULED_SINCE], ids=_name
)
def test_a_game_ruled_since_loads_with_every_card_counted(saved, number):
    """RULINGS: "The hand count given at End turn is the same correction … Every card of the game stays
    counted". An older save's hand count is read as today's correction: it loads, and every card is somewhere."""
    from companion.games.quark.state import CARDS_IN, DECKS

    with Store.read(saved) as before:
        loaded = Session.load(before, number + 1, clock=lambda: 0.0)
    assert {name: loaded.state.cards_counted(name) for name in DECKS} == CARDS_IN
