"""The messages of the rules engines, the terminal games and the How to play texts, and a
locale folder that speaks them, for the language tests.

``core_messages()`` finds every message ``companion/games``, ``companion/terminal``,
``companion/teach``, ``companion/companion_turn.py`` and ``companion/proposals.py`` mark for translation (``_``, ``N_``, ``ngettext``, read with ``ast``).
``core_translations()`` reads their translations from the real compiled catalogues
(``companion/locale/*/LC_MESSAGES/companion.mo``) and ``core_catalogue_dir()`` gives that folder.
"""

from __future__ import annotations

import ast
import gettext
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "companion" / "locale"
CORE_DIRS = ("companion/games", "companion/terminal", "companion/teach")
CORE_FILES = ("companion/companion_turn.py", "companion/proposals.py")
"""The companion's own moves and hints, said like the games' narration."""
PLURAL_FORMS = {"nl": "nplurals=2; plural=(n != 1);", "fr": "nplurals=2; plural=(n > 1);"}


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def python_files() -> list[Path]:
    return sorted([p for d in CORE_DIRS for p in (ROOT / d).rglob("*.py")] + [ROOT / f for f in CORE_FILES])


def core_messages() -> tuple[dict[str, list[str]], dict[str, tuple[str, list[str]]]]:
    """(msgid -> where, singular -> (plural, where)) for every message marked in CORE_DIRS."""
    singles: dict[str, list[str]] = {}
    plurals: dict[str, tuple[str, list[str]]] = {}
    for path in python_files():
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            name = node.func.id
            if name in ("_", "N_") and node.args and _literal(node.args[0]) is not None:
                singles.setdefault(str(_literal(node.args[0])), []).append(f"{where}:{node.lineno}")
            elif name == "ngettext" and len(node.args) >= 2:
                one, many = _literal(node.args[0]), _literal(node.args[1])
                if one is not None and many is not None:
                    plurals.setdefault(one, (many, []))[1].append(f"{where}:{node.lineno}")
    return singles, plurals


def core_translations() -> dict[str, Any]:
    """The real compiled catalogues' translations of the core messages, in the shape
    ``{msgid: {"nl": ..., "fr": ...}, "__plurals__": {singular: {"nl": [one, many], ...}}}``."""
    out: dict[str, Any] = {"__plurals__": {}}
    for lang in PLURAL_FORMS:
        for key, value in _real(lang).items():
            if isinstance(key, tuple):
                forms = out["__plurals__"].setdefault(key[0], {}).setdefault(lang, ["", ""])
                forms[key[1]] = value
            elif key:
                out.setdefault(key, {})[lang] = value
    return out


def _real(lang: str) -> dict[Any, Any]:
    mo = LOCALE / lang / "LC_MESSAGES" / "companion.mo"
    if not mo.is_file():
        return {}
    with mo.open("rb") as f:
        return dict(gettext.GNUTranslations(f)._catalog)  # type: ignore[attr-defined]


def core_catalogue_dir(tmp: Path) -> Path:
    """The locale folder whose nl and fr catalogues speak the core messages: the real one
    (``companion/locale``, made by ``scripts/catalogues``). ``tmp`` is unused."""
    return LOCALE
