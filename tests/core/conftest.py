from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tinygame import RULES  # noqa: E402

from companion.games import register, unregister  # noqa: E402


@pytest.fixture
def tiny() -> Iterator[object]:
    """The tiny test game, registered for the length of one test."""
    register(RULES)
    yield RULES
    unregister(RULES.name)
