from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.games import register, unregister
from tests.support.tinygame import GAME


@pytest.fixture
def tiny() -> Iterator[object]:
    """The tiny test game, registered for the length of one test."""
    register(GAME)
    yield GAME
    unregister(GAME.name)


@pytest.fixture(autouse=True)
def _no_test_game_left_behind() -> Iterator[None]:
    """A test that registered the tiny game itself leaves no trace for the next test in this process."""
    yield
    unregister(GAME.name)
