"""How many random examples the heaviest property tests try (whole random games, each a few hundred moves).

`make test` keeps the whole suite within its ten minutes on two cores; ``TEST_DEPTH=5 make test`` tries five
times as many, for a change to the rules or the secrets, or a quiet night. A failure found either way is kept
in Hypothesis's database (git-ignored) and tried first on the next run.
"""

from __future__ import annotations

import os


def examples(n: int) -> int:
    """`n` examples at the everyday depth, `n` × TEST_DEPTH when that is set (a whole number, at least 1)."""
    depth = os.environ.get("TEST_DEPTH", "").strip()
    return n * max(1, int(depth)) if depth.isdigit() else n
