"""No two modules import each other, even only for the type checker: "no import circle"."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("companion", "ui", "hardware", "bench")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Each module of ours and the modules of ours it names in an import (type-checking ones too)."""
    paths = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py") if "firmware" not in p.parts]
    ours = {_module_name(p) for p in paths}
    found: dict[str, set[str]] = {}
    for path in paths:
        here = _module_name(path)
        package = here if path.name == "__init__.py" else here.rpartition(".")[0]
        named: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                module = ".".join([*base, *([node.module] if node.module else [])])
                named.add(module)
                named |= {f"{module}.{a.name}" for a in node.names}
        found[here] = {m for m in named if m in ours and m != here and not here.startswith(m + ".")}
    return found


def test_no_two_modules_import_each_other():
    """"no import circle (farm-studio `look` shows none)": Quark's scoring and state named each other."""
    imports = _imports()
    both_ways = sorted((a, b) for a, named in imports.items() for b in named if a < b and a in imports.get(b, ()))
    assert both_ways == []
