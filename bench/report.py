"""One benchmark's printed line: the figure, its baseline from the same run, their ratio and the goal.

Its own module so that `bench/__main__.py` (which runs every bench_*.py) and
the benchmarks that print with it import it from below, not from each other.
"""

from __future__ import annotations


def line(label: str, value: str, baseline: str = "", ratio: float | None = None, goal: str = "") -> str:
    text = f"{label:<46} {value:>14}"
    if baseline:
        text += f"   baseline {baseline:>12}"
    if ratio is not None:
        text += f"   ratio {ratio:5.2f}"
    if goal:
        text += f"   (goal {goal})"
    return text
