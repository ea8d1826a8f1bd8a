"""Pytest fixtures for tests that drive a display hub: import them into a conftest or a test module.

    from tests.support.hub_fixtures import dispatcher, hub, table  # noqa: F401 (fixtures)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.display.hub import DisplayHub
from tests.support.dispatch import QueuedDispatcher
from tests.support.displays import DisplayPorts


@pytest.fixture
def dispatcher() -> QueuedDispatcher:
    """The UI thread: nothing handed over from a device's thread runs until the test calls `run()`."""
    return QueuedDispatcher()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[DisplayPorts]:
    """A folder of ports (like /dev/serial/by-id) to plug emulated displays into; all unplugged at the end."""
    with DisplayPorts(tmp_path) as ports:
        yield ports


@pytest.fixture
def hub(tmp_path: Path, table: DisplayPorts, dispatcher: QueuedDispatcher) -> Iterator[DisplayHub]:
    """A running hub scanning `table`'s ports, handing its work to `dispatcher`."""
    with DisplayHub(tmp_path / "pairings.json", ports=[table.pattern], call_soon=dispatcher) as started:
        yield started
