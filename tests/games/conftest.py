"""The games' tests share helpers (`golden_scripts`, `quin_support`, `quinque_support`) beside them."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
