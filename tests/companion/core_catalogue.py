"""The messages of the rules engines, the terminal games and the How to play texts, and a
locale folder that speaks them, for the language tests.

``core_messages()`` finds every message ``companion/games``, ``companion/terminal``,
``companion/teach``, ``companion/companion_turn.py`` and ``companion/proposals.py`` mark for translation (``_``, ``N_``, ``ngettext``, read with ``ast``).
``core_catalogue_dir(tmp)`` compiles nl and fr catalogues (Babel's ``write_mo``) from the real
catalogues' messages plus ``companion/locale/core-translations.json`` and
``ui-translations.json`` (until the coordinator merges them into the real ``.po`` files).
"""

from __future__ import annotations

import ast
import gettext
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "companion" / "locale"
CORE_JSON = LOCALE / "core-translations.json"
UI_JSON = LOCALE / "ui-translations.json"
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
    return json.loads(CORE_JSON.read_text(encoding="utf-8"))


def _json_entries(path: Path, lang: str) -> tuple[dict[str, str], dict[tuple[str, str], list[str]]]:
    """(msgid -> text, (singular, plural) -> forms) for ``lang`` from a translations file. The
    plurals are ``{singular: {lang: forms}}`` (core) or a list of entries (ui)."""
    if not path.is_file():
        return {}, {}
    data = json.loads(path.read_text(encoding="utf-8"))
    singles = {k: v[lang] for k, v in data.items() if k != "__plurals__" and v.get(lang)}
    plurals: dict[tuple[str, str], list[str]] = {}
    raw = data.get("__plurals__", {})
    if isinstance(raw, list):
        for entry in raw:
            plurals[(entry["msgid"], entry["msgid_plural"])] = list(entry[lang])
    else:
        _found, core_plurals = core_messages()
        for one, forms in raw.items():
            many = core_plurals[one][0] if one in core_plurals else one
            plurals[(one, many)] = list(forms[lang])
    return singles, plurals


def _real(lang: str) -> dict[Any, Any]:
    mo = LOCALE / lang / "LC_MESSAGES" / "companion.mo"
    if not mo.is_file():
        return {}
    with mo.open("rb") as f:
        return dict(gettext.GNUTranslations(f)._catalog)  # type: ignore[attr-defined]


def core_catalogue_dir(tmp: Path) -> Path:
    """A locale folder (under ``tmp``) whose nl and fr catalogues hold the real catalogues'
    messages, then ui-translations.json's, then core-translations.json's; compiled with Babel."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    for lang in PLURAL_FORMS:
        catalog = Catalog(locale=lang, domain="companion")
        real = _real(lang)
        real_plurals: dict[str, list[str]] = {}
        for key, value in real.items():
            if isinstance(key, tuple):
                real_plurals.setdefault(key[0], []).append(value)
            elif key:
                catalog.add(key, value)
        for path in (UI_JSON, CORE_JSON):
            singles, plurals = _json_entries(path, lang)
            for msgid, text in singles.items():
                catalog.add(msgid, text)
            for (one, many), forms in plurals.items():
                catalog.add((one, many), tuple(forms))
        out = tmp / lang / "LC_MESSAGES"
        out.mkdir(parents=True, exist_ok=True)
        with (out / "companion.mo").open("wb") as f:
            write_mo(f, catalog)
    return tmp
