"""DESIGN.md: the packages' imports are free of cycles.

Every module of companion/, vision/, hardware/ and ui/ is parsed with ``ast``; each import
anywhere in it (at module level or inside a function) is an edge of the graph, relative imports
resolved and ``from pkg import submodule`` counted as an import of the submodule. A cycle fails
the test, named module by module.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "vision", "hardware", "ui")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules that ``name`` imports anywhere in its source."""
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                if not is_package:
                    base = base[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets.add(module)
            targets.update(f"{module}.{alias.name}" for alias in node.names)
    edges = set()
    for target in targets:
        # ``import a.b.c`` also runs a and a.b; the nearest known module is the edge.
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            edges.add(target)
    return edges


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]], ignore_parents: bool = True) -> list[str] | None:
    """One cycle of the graph as a list of modules (first == last), or None.

    A package's ``__init__`` runs before any of its submodules, so an edge from a submodule up to
    its own package (``companion.games.x`` importing ``companion.games``) is not followed: every
    submodule "imports" its parents that way, and only the edges written in code count.
    """
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if ignore_parents and node.startswith(nxt + "."):
                continue
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_the_import_graph_sees_both_kinds_of_import() -> None:
    graph = import_graph()
    # module-level relative import and package-relative ``from . import x``
    assert "companion.games.base" in graph["companion.games.katenmuis"]
    assert "ui.screens" in graph or any(n.startswith("ui.screens.") for n in graph)


def test_find_cycle_names_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    # a submodule importing its own package is not a cycle of the code
    assert find_cycle({"p": {"p.x"}, "p.x": {"p"}}) is None


def test_the_packages_have_no_import_cycles() -> None:
    graph = import_graph()
    remaining = {k: set(v) for k, v in graph.items()}
    cycles = []
    while (cycle := find_cycle(remaining)) is not None:
        cycles.append(" -> ".join(cycle))
        remaining[cycle[0]].discard(cycle[1])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)
