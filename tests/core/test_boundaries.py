"""The layers hold: the core imports no kivy, gpiozero or serial; only ui/ imports kivy."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BLOCKER = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split('.')[0] in {'kivy', 'gpiozero', 'serial', 'lgpio', 'ui', 'hardware'}:
            raise ImportError('the core must not import ' + name)
sys.meta_path.insert(0, Block())
import pkgutil, importlib, companion
for module in pkgutil.walk_packages(companion.__path__, 'companion.'):
    importlib.import_module(module.name)
print('ok')
"""


def test_every_core_module_imports_with_kivy_gpiozero_and_serial_blocked():
    result = subprocess.run([sys.executable, "-c", BLOCKER], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def _top_level_imports(folder: str) -> set[tuple[str, str]]:
    found = set()
    for path in (ROOT / folder).rglob("*.py"):
        if "firmware" in path.parts:
            continue  # MicroPython code for the display itself
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {(str(path.relative_to(ROOT)), a.name.split(".")[0]) for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add((str(path.relative_to(ROOT)), node.module.split(".")[0]))
    return found


def test_only_ui_imports_kivy_and_only_hardware_imports_devices():
    assert not {(f, m) for f, m in _top_level_imports("hardware") if m in {"kivy", "ui"}}
    assert not {(f, m) for f, m in _top_level_imports("ui") if m in {"gpiozero", "serial", "lgpio"}}
    assert not {
        (f, m) for f, m in _top_level_imports("companion") if m in {"kivy", "gpiozero", "serial", "ui", "hardware"}
    }
