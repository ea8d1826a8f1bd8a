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
