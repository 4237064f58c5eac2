"""The ui/ messages and their translations, for the language tests.

``ui_messages()`` finds every message ui/ marks for translation (``_``, ``N_`` and ``ngettext``
in .py files, read with ``ast``; ``_('...')`` in .kv files). ``ui_catalogue_dir()`` gives a
locale folder whose nl and fr catalogues hold those messages: the real ones
(``companion/locale``) once they do, else (before the coordinator merges
``companion/locale/ui-translations.json`` into them) catalogues compiled here from the real
ones' messages plus that file's.
"""

from __future__ import annotations

import ast
import gettext
import json
import re
import struct
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"
LOCALE = ROOT / "companion" / "locale"
UI_JSON = LOCALE / "ui-translations.json"
PLURAL_FORMS = {"nl": "nplurals=2; plural=(n != 1);", "fr": "nplurals=2; plural=(n > 1);"}
KV_CALL = re.compile(r"""\b_\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*\)""")


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def ui_messages() -> tuple[dict[str, list[str]], dict[str, tuple[str, list[str]]]]:
    """(msgid -> where, singular -> (plural, where)) for every message marked in ui/."""
    singles: dict[str, list[str]] = {}
    plurals: dict[str, tuple[str, list[str]]] = {}
    for path in sorted(UI.rglob("*.py")):
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
    for path in sorted(UI.rglob("*.kv")):
        where = str(path.relative_to(ROOT))
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            for m in KV_CALL.finditer(line):
                text = m.group(1) if m.group(1) is not None else m.group(2)
                singles.setdefault(ast.literal_eval(repr(text).replace("\\\\", "\\")), []).append(f"{where}:{lineno}")
    return singles, plurals


def json_translations() -> dict[str, Any]:
    return json.loads(UI_JSON.read_text(encoding="utf-8")) if UI_JSON.is_file() else {}


def write_mo(path: Path, messages: dict[str, str]) -> None:
    """A GNU .mo file of ``messages`` (msgid -> msgstr; plural entries joined by NUL)."""
    keys = sorted(messages)
    ids = [k.encode("utf-8") for k in keys]
    strs = [messages[k].encode("utf-8") for k in keys]
    n = len(keys)
    start = 7 * 4 + 16 * n
    offsets: list[int] = []
    blob = b""
    for data in ids + strs:
        offsets += [len(data), start + len(blob)]
        blob += data + b"\0"
    header = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + struct.pack(f"{4 * n}i", *offsets) + blob)


def _real(lang: str) -> dict[Any, Any]:
    """The messages of the real compiled catalogue for ``lang`` (empty if none)."""
    mo = LOCALE / lang / "LC_MESSAGES" / "companion.mo"
    if not mo.is_file():
        return {}
    with mo.open("rb") as f:
        return dict(gettext.GNUTranslations(f)._catalog)  # type: ignore[attr-defined]


def missing_in_real(lang: str) -> list[str]:
    singles, plurals = ui_messages()
    have = _real(lang)
    return [m for m in singles if m not in have] + [m for m in plurals if (m, 0) not in have]


def ui_catalogue_dir(tmp: Path) -> Path | None:
    """A locale folder with nl and fr catalogues covering ui/'s messages (see module doc), or
    None when neither the real catalogues nor ui-translations.json cover them."""
    if not any(missing_in_real(lang) for lang in PLURAL_FORMS):
        return LOCALE
    data = json_translations()
    if not data:
        return None
    for lang, forms in PLURAL_FORMS.items():
        messages: dict[str, str] = {}
        for key, value in _real(lang).items():
            if isinstance(key, tuple):
                continue  # plural entries of the real catalogue are added back below
            messages[key] = value
        plural_real: dict[str, list[str]] = {}
        for key, value in _real(lang).items():
            if isinstance(key, tuple) and key[0]:
                plural_real.setdefault(key[0], []).append(value)
        messages[""] = f"Content-Type: text/plain; charset=UTF-8\nPlural-Forms: {forms}\n"
        for msgid, tr in data.items():
            if msgid != "__plurals__" and tr.get(lang):
                messages[msgid] = tr[lang]
        for entry in data.get("__plurals__", []):
            messages[entry["msgid"] + "\0" + entry["msgid_plural"]] = "\0".join(entry[lang])
        write_mo(tmp / lang / "LC_MESSAGES" / "companion.mo", messages)
    return tmp


@pytest.fixture(scope="module")
def locale_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The locale folder to test nl and fr with (skips when nothing covers ui/'s messages)."""
    found = ui_catalogue_dir(tmp_path_factory.mktemp("locale"))
    if found is None:
        pytest.skip("the nl/fr catalogues do not hold ui/'s messages and ui-translations.json is gone")
    return found


@pytest.fixture
def lang_app(make_app: Any, locale_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Any]]:
    """``lang_app("nl")``: an app started in that language, with the catalogues above."""
    from companion import i18n

    monkeypatch.setattr(i18n, "LOCALE_DIR", locale_dir)

    def make(lang: str | None, **kwargs: Any) -> Any:
        app = make_app(lang=lang, **kwargs)
        if lang is not None:
            assert i18n.language() == lang
        return app

    yield make
    i18n.set_language("en")
