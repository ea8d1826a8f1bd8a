"""The hardware layer knows no game: it imports nothing from `companion.games` and names none of them.

What a player display shows of a game comes from that game's package
(``display.py``) through the session; the hardware only draws it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.games import game, names

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
FIRMWARE = HARDWARE / "display" / "firmware"  # runs on the display itself; its comments may say what it was tested with
SOURCES = sorted(HARDWARE.rglob("*.py"))


def _words_for_every_game() -> list[str]:
    """Each game's registry name, package name and title: "quantum-link", "quantum_link", "Quantum Link"…"""
    return sorted({word for name in names() for word in (name, name.replace("-", "_"), game(name).title)})


def test_there_is_hardware_source_to_scan() -> None:
    assert HARDWARE / "display" / "hub.py" in SOURCES and HARDWARE / "race_buttons.py" in SOURCES


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(HARDWARE)))
def test_no_hardware_module_imports_a_game(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    imported: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    assert not [name for name in imported if name == "companion.games" or name.startswith("companion.games.")]
    assert "companion.games" not in path.read_text(encoding="utf-8")  # nor by name, for importlib


@pytest.mark.parametrize(
    "path", [p for p in SOURCES if FIRMWARE not in p.parents], ids=lambda path: str(path.relative_to(HARDWARE))
)
def test_no_hardware_module_names_a_game(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    words = _words_for_every_game()
    assert {"quin", "quinque", "Quantum Link", "quantum_link"} <= set(words)
    named = [w for w in words if w.lower() in text.lower()]  # as `grep -i` would find them, "quin_setup" too
    assert named == [], f"{path.name} names {named}"
