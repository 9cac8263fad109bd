"""The modules of the core import each other without a cycle, and each imports on its own.

The graph is read from the source with ``ast``: every ``import`` of a ``muster`` module anywhere
in a file, those inside functions (imported late) included, and the packages a module's import
runs (``muster.systems`` for ``muster.systems.hex_facing``). A cycle, even one a late import hides
at run time, is a seam only the order of imports holds.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import muster

PACKAGE = Path(muster.__file__).resolve().parent  # the sources, or the wheel's under Pyodide
PY = PACKAGE.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PY).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
# The core's own modules (the systems' are their owners'), each imported alone below.
CORE = sorted(m for m in MODULES if not m.startswith("muster.systems."))


def with_parents(name: str) -> set[str]:
    """``name`` and the packages importing it runs (``a.b.c``: ``a``, ``a.b``, ``a.b.c``)."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & set(MODULES)


def imports_of(name: str) -> set[str]:
    """The ``muster`` modules ``name`` imports, wherever in the file."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found |= with_parents(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found |= with_parents(target)
            for alias in node.names:  # "from . import x": the module x
                found |= {f"{target}.{alias.name}"} & set(MODULES)
    found.discard(name)
    return {m for m in found if not name.startswith(m + ".")}  # a package runs on its own way in


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of ``graph`` with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def path_between(graph: dict[str, set[str]], part: list[str]) -> list[str]:
    """One cycle through the first module of ``part``, to say where it is."""
    start = part[0]
    inside = set(part)
    trail = [start]
    seen = {start}
    while True:
        here = trail[-1]
        nxt = sorted(graph[here] & inside)
        if start in nxt and len(trail) > 1:
            return [*trail, start]
        fresh = [m for m in nxt if m not in seen]
        if not fresh:
            return [*trail, "…"]
        trail.append(fresh[0])
        seen.add(fresh[0])


def test_the_graph_reader_sees_late_imports_and_packages():
    assert len(MODULES) > 20 and "muster.play" in CORE
    graph = {m: imports_of(m) for m in MODULES}
    assert "muster.errors" in graph["muster.scenario"]
    assert "muster.systems" in graph["muster.hexmap"]  # the package its import runs
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert path_between({"a": {"b"}, "b": {"a"}}, ["a", "b"]) == ["a", "b", "a"]


def test_no_module_of_the_core_imports_itself_round_a_cycle():
    graph = {m: imports_of(m) for m in MODULES}
    found = [
        " -> ".join(path_between(graph, part)) + f"  (the cycle's modules: {', '.join(part)})"
        for part in cycles(graph)
    ]
    assert found == [], "import cycles:\n" + "\n".join(found)


@pytest.mark.skipif(sys.platform == "emscripten", reason="no new interpreter under Pyodide")
@pytest.mark.parametrize("name", CORE)
def test_each_core_module_imports_alone_in_a_fresh_interpreter(name):
    run = subprocess.run(
        [sys.executable, "-c", f"import {name}"],
        cwd=PY,
        env={"PYTHONPATH": str(PY), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
