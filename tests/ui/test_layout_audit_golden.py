"""The layout audit's shard of the golden scripts of Quintet, Quin, Quantum Link and Quinque (Quark's are a
shard of their own), apart so that the test workers share the audit. The audit itself: `test_layout_audit.py`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.test_layout_audit import GOLDEN_SHARDS, golden_states, run_audit

pytestmark = pytest.mark.ui


@pytest.mark.timeout(600)
def test_layout_audit_of_the_golden_scripts(ui: Any, tmp_path: Path) -> None:
    """Issue 21: "A layout audit in `make test` that walks every screen state the golden scripts of every game
    reach": every game's but Quark's, every state of each shortest script with its Menu and popups."""
    run_audit(ui, tmp_path, "golden", (golden_states(*GOLDEN_SHARDS["golden"]),))
