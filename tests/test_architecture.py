"""The structure ARCHITECTURE.md promises: specgen's modules import one another without a
cycle (imports under TYPE_CHECKING count too), and codegen does not read prose."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "specgen"


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each specgen module and the specgen modules it imports."""
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join([*base, node.module] if node.module else base)
                for alias in node.names:
                    found = next((c for c in (f"{target}.{alias.name}", target) if c in modules), None)
                    if found and found != name:
                        graph[name].add(found)
            elif isinstance(node, ast.Import):
                graph[name] |= {a.name for a in node.names if a.name in modules and a.name != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle():
    assert cycles(import_graph()) == []


def test_the_check_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_codegen_does_not_read_prose():
    graph = import_graph()
    codegen = [m for m in graph if m.startswith("specgen.codegen")]
    assert all(not any(t.startswith("specgen.parse.classify") for t in graph[m]) for m in codegen)
    assert "specgen.codegen.views" in graph and not graph["specgen.codegen.views"] & {
        "specgen.codegen.lower",
        "specgen.codegen.cases",
        "specgen.codegen.render",
    }
