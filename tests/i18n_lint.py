"""One check for every package's Python files: user-facing text is translated when shown.

Used by ``tests/companion/test_terminal_lang.py`` (companion/) and ``tests/ui/test_language.py``
(ui/). It flags ``_()``/``ngettext()`` run at import time (a module's top level or a class
attribute: the language is not chosen yet, so the text would stay in English), an f-string inside
``_()``, ``N_()`` or ``ngettext()`` (the catalogue cannot hold a message that changes), and a
function that both calls ``_()`` and shadows it (a parameter, loop variable or ``*_`` named ``_``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

TRANSLATE = ("_", "ngettext")


def _is_call(node: ast.AST, names: tuple[str, ...]) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names


def problems(paths: Iterable[Path]) -> list[str]:
    """Every problem found, as ``file:line what`` in file and line order; empty when all is well."""
    found: list[tuple[str, int, str]] = []
    for path in paths:
        found += _problems(path)
    return [f"{name}:{line} {what}" for name, line, what in sorted(found)]


def _problems(path: Path) -> list[tuple[str, int, str]]:
    bad: list[tuple[str, int, str]] = []
    tree = ast.parse(path.read_text(), str(path))
    at_import: list[ast.AST] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):  # class attributes are evaluated at import too
            at_import += [n for n in node.body if isinstance(n, ast.Assign | ast.AnnAssign)]
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            at_import.append(node)
    for part in at_import:
        bad += [(path.name, sub.lineno, "translated at import time")
                for sub in ast.walk(part) if isinstance(sub, ast.Call) and _is_call(sub, TRANSLATE)]
    for fn in ast.walk(tree):
        if isinstance(fn, ast.Call) and isinstance(fn.func, ast.Name) and _is_call(fn, ("_", "N_", "ngettext")):
            if any(isinstance(a, ast.JoinedStr) for a in fn.args):
                bad.append((path.name, fn.lineno, f"f-string inside {fn.func.id}()"))
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        a = fn.args
        shadows = "_" in [x.arg for x in a.args + a.kwonlyargs] + [x.arg for x in (a.vararg, a.kwarg) if x]
        calls = False
        for sub in ast.walk(fn):
            if isinstance(sub, ast.Name) and sub.id == "_" and isinstance(sub.ctx, ast.Store):
                shadows = True
            calls = calls or _is_call(sub, ("_",))
        if shadows and calls:
            bad.append((path.name, fn.lineno, f"{fn.name} shadows _"))
    return bad
