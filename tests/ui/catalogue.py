"""The ui/ messages and their translations, for the language tests.

``ui_messages()`` finds every message ui/ marks for translation (``_``, ``N_`` and ``ngettext``
in .py files, read with ``ast``; ``_('...')`` in .kv files), independently of the Babel
extraction of scripts/catalogues; ``catalogue(lang)`` reads the compiled catalogue the app uses
(companion/locale/<lang>/LC_MESSAGES/companion.mo, made by scripts/catalogues).
"""

from __future__ import annotations

import ast
import gettext
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "ui"
LOCALE = ROOT / "companion" / "locale"
PLURAL_FORMS = {"nl": "nplurals=2; plural=(n != 1);", "fr": "nplurals=2; plural=(n > 1);"}
KV_CALL = re.compile(r"""\b_\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*\)""")


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def python_messages(paths: list[Path]) -> tuple[dict[str, list[str]], dict[str, tuple[str, list[str]]]]:
    """(msgid -> where, singular -> (plural, where)) for every ``_``/``N_``/``ngettext`` call with
    literal text in the .py files ``paths`` (read with ``ast``)."""
    singles: dict[str, list[str]] = {}
    plurals: dict[str, tuple[str, list[str]]] = {}
    for path in paths:
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


def ui_messages() -> tuple[dict[str, list[str]], dict[str, tuple[str, list[str]]]]:
    """(msgid -> where, singular -> (plural, where)) for every message marked in ui/."""
    singles, plurals = python_messages(sorted(UI.rglob("*.py")))
    for path in sorted(UI.rglob("*.kv")):
        where = str(path.relative_to(ROOT))
        for lineno, line in enumerate(path.read_text().splitlines(), 1):
            for m in KV_CALL.finditer(line):
                text = m.group(1) if m.group(1) is not None else m.group(2)
                singles.setdefault(ast.literal_eval(repr(text).replace("\\\\", "\\")), []).append(f"{where}:{lineno}")
    return singles, plurals


def catalogue(lang: str) -> dict[Any, Any]:
    """The messages of the compiled catalogue for ``lang`` in companion/locale (empty if none):
    msgid -> text, and (singular, i) -> plural form i."""
    mo = LOCALE / lang / "LC_MESSAGES" / "companion.mo"
    if not mo.is_file():
        return {}
    with mo.open("rb") as f:
        return dict(gettext.GNUTranslations(f)._catalog)  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def locale_dir() -> Path:
    """The locale folder to test nl and fr with: the catalogues in the repository."""
    return LOCALE


@contextmanager
def in_language(make_app: Any, locale_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Any]]:
    """``lang_app``'s body: ``make("nl")`` makes an app (with ``make_app``) started in that language,
    with the catalogues in ``locale_dir``.

    Nothing switches back to English on leaving: the app is still listening then (``make_app``
    closes it after), and a switch would build every screen again in English for nothing, a whole
    app's build per Dutch or French test; ``make_app``'s close lets go of it, then switches back."""
    from companion import i18n

    monkeypatch.setattr(i18n, "LOCALE_DIR", locale_dir)

    def make(lang: str | None, **kwargs: Any) -> Any:
        app = make_app(lang=lang, **kwargs)
        if lang is not None:
            assert i18n.language() == lang
        return app

    yield make


@pytest.fixture
def lang_app(make_app: Any, locale_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Any]]:
    """``lang_app("nl")``: an app started in that language, with the catalogues above."""
    with in_language(make_app, locale_dir, monkeypatch) as make:
        yield make
