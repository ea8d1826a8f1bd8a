"""The `ui` package imports without loops: each module alone, in a fresh interpreter, and no cycle at all.

No window is needed: the cycle check reads the sources, and each import runs
in a child interpreter without an X display. Imports under ``if TYPE_CHECKING:``
are not imports at run time and are left out; an import deferred into a
function is counted in a second check, because a deferred import that closes
a loop hides the loop rather than removing it.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Collection, Iterator, Mapping, Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {module_name(path): path for path in sorted(UI.rglob("*.py"))}


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def module_level_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run when the module is imported (not those in functions or TYPE_CHECKING)."""

    def walk(body: Sequence[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
        for node in body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                yield node
            elif isinstance(node, ast.If):
                if not _type_checking(node.test):
                    yield from walk(node.body)
                yield from walk(node.orelse)
            elif isinstance(node, ast.Try):
                yield from walk(node.body)
                for handler in node.handlers:
                    yield from walk(handler.body)
                yield from walk(node.orelse)
                yield from walk(node.finalbody)
            elif isinstance(node, ast.With | ast.ClassDef):
                yield from walk(node.body)

    yield from walk(tree.body)


def every_import(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, deferred ones (in functions) included, except those under TYPE_CHECKING."""

    def walk(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child
            elif isinstance(child, ast.If) and _type_checking(child.test):
                for statement in child.orelse:
                    yield from walk(ast.Module(body=[statement], type_ignores=[]))
            else:
                yield from walk(child)

    yield from walk(tree)


def imported(
    module: str, source: str, known: Collection[str], *, is_package: bool = False, deferred: bool = False
) -> set[str]:
    """The modules of `known` that `module` (with `source`) imports when it is imported (or later, if `deferred`)."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(source)
    for node in every_import(tree) if deferred else module_level_imports(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        found.update(target for target in targets if target in known and target != module)
    return found


def find_cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """One import cycle (``[a, b, a]``) in `graph`, or None."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for following in sorted(graph.get(node, ())):
            if following in on_path:
                return [*path[path.index(following) :], following]
            if following not in done:
                cycle = visit(following)
                if cycle:
                    return cycle
        on_path.discard(node)
        path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def import_graph(*, deferred: bool = False) -> dict[str, set[str]]:
    return {
        name: imported(
            name, path.read_text(encoding="utf-8"), MODULES, is_package=path.name == "__init__.py", deferred=deferred
        )
        for name, path in MODULES.items()
    }


# -- the checker checks ---------------------------------------------------------------------


def test_the_cycle_finder_finds_a_loop_and_ignores_type_checking_and_function_imports() -> None:
    known = {"ui", "ui.a", "ui.b", "ui.c"}
    a = "from ui.b import thing\n"
    b = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ui.a import x\nimport ui.c\n"
    c = "def later():\n    from ui.a import x\n"
    graph = {"ui.a": imported("ui.a", a, known), "ui.b": imported("ui.b", b, known), "ui.c": imported("ui.c", c, known)}
    assert graph == {"ui.a": {"ui.b"}, "ui.b": {"ui.c"}, "ui.c": set()}
    assert find_cycle(graph) is None
    assert imported("ui.c", c, known, deferred=True) == {"ui.a"}
    assert imported("ui.b", b, known, deferred=True) == {"ui.c"}
    graph["ui.c"] = imported("ui.c", "from . import a\n", known)
    assert find_cycle(graph) == ["ui.a", "ui.b", "ui.c", "ui.a"]


# -- the ui package ---------------------------------------------------------------------------------


def test_no_ui_module_imports_itself_back_through_others() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_loop_is_hidden_behind_an_import_deferred_into_a_function() -> None:
    cycle = find_cycle(import_graph(deferred=True))
    assert cycle is None, "import cycle (through a deferred import): " + " -> ".join(cycle or [])


def test_widgets_and_presenters_import_no_screen_and_presenters_no_kivy() -> None:
    graph = import_graph()
    for name, targets in graph.items():
        if name.startswith(("ui.widgets", "ui.presenters", "ui.kv", "ui.theme")):
            assert not {t for t in targets if t.startswith("ui.screens") or t == "ui.app"}, name
    for name, path in MODULES.items():
        if name.startswith("ui.presenters"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            roots = {
                (node.names[0].name if isinstance(node, ast.Import) else node.module or "").split(".")[0]
                for node in module_level_imports(tree)
            }
            assert "kivy" not in roots, f"{name} imports kivy: a presenter is tested without a window"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_ui_module_imports_on_its_own_in_a_fresh_interpreter(module: str, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY")}
    # No window on anyone's desktop: SDL draws off screen if a module creates Kivy's window.
    env.update(
        SDL_VIDEODRIVER="offscreen",
        KIVY_HOME=str(tmp_path),
        KIVY_NO_ARGS="1",
        KIVY_NO_FILELOG="1",
    )
    done = subprocess.run(
        [sys.executable, "-c", "import importlib, sys; importlib.import_module(sys.argv[1])", module],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"import {module} failed:\n{done.stderr[-3000:]}"
