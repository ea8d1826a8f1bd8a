"""The layout audit's shard of Quark's golden scripts (the longest: three games of 100 to 160 moves), apart
so that the test workers audit it while another walks the rest. The audit itself: `test_layout_audit.py`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.test_layout_audit import GOLDEN_SHARDS, golden_states, run_audit

pytestmark = pytest.mark.ui


@pytest.mark.timeout(600)
def test_layout_audit_of_quarks_golden_scripts(ui: Any, tmp_path: Path) -> None:
    """Issue 21: "A layout audit in `make test` that walks every screen state the golden scripts of every game
    reach": Quark's, every state of the shortest with its Menu and popups, and with the longest names."""
    run_audit(ui, tmp_path, "quark", (golden_states(*GOLDEN_SHARDS["quark"]),))
