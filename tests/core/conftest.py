from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tinygame import RULES

from companion.games import register, unregister


@pytest.fixture
def tiny() -> Iterator[object]:
    """The tiny test game, registered for the length of one test."""
    register(RULES)
    yield RULES
    unregister(RULES.name)
