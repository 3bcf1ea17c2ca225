"""No import circle anywhere in `referee/`.

Every `import` statement counts, function-level (deferred) ones included: deferring an
import hides a circle from Python at start-up but keeps the two modules depending on each
other (the store's service and its delivery worker were tied that way). Imports under
`if TYPE_CHECKING:` count too; there are none to excuse. An import names one module: `from
referee.engine import x` depends on `referee/engine/__init__.py` (or on the submodule
`referee.engine.x` when `x` is one); importing a submodule is not counted as depending on
its parent packages' `__init__`, which Python runs first but which the importer does not use.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "referee"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The referee modules this module imports, anywhere in its body."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known)
    return {m for m in found if m in known and m != name}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph (its modules in import order, the first repeated), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_walk_sees_relative_deferred_and_package_imports():
    edges = graph()
    assert "referee.store.models" in edges["referee.store.delivery"]      # from .models import (top level)
    assert "referee.store.db" in edges["referee.cli.database"]          # inside a function
    assert "referee.engine" in edges["referee.store.matches"]              # from referee.engine import ...
    assert "referee.store.feed" in edges["referee.store.publishing"]       # from . import feed


@pytest.mark.parametrize("edges, cycle", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
    ({"a": {"b"}, "b": set()}, None),
])
def test_find_cycle_finds_a_circle_and_only_a_circle(edges, cycle):
    assert find_cycle(edges) == cycle


def test_no_import_circle_in_referee():
    cycle = find_cycle(graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle)
