"""The messages of the rules engines, the terminal games and the How to play texts, and a
locale folder that speaks them, for the language tests.

``core_messages()`` finds every message ``companion/games``, ``companion/terminal``,
``companion/teach``, ``companion/companion_turn.py`` and ``companion/proposals.py`` mark for translation (``_``, ``N_``, ``ngettext``, read with ``ast``).
``core_translations()`` reads their translations from the real compiled catalogues
(``companion/locale/*/LC_MESSAGES/companion.mo``) and ``core_catalogue_dir()`` gives that folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.ui.catalogue import PLURAL_FORMS, catalogue, python_messages

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "companion" / "locale"
CORE_DIRS = ("companion/games", "companion/terminal", "companion/teach")
CORE_FILES = ("companion/companion_turn.py", "companion/proposals.py")
"""The companion's own moves and hints, said like the games' narration."""


def python_files() -> list[Path]:
    return sorted([p for d in CORE_DIRS for p in (ROOT / d).rglob("*.py")] + [ROOT / f for f in CORE_FILES])


def core_messages() -> tuple[dict[str, list[str]], dict[str, tuple[str, list[str]]]]:
    """(msgid -> where, singular -> (plural, where)) for every message marked in CORE_DIRS."""
    return python_messages(python_files())


def core_translations() -> dict[str, Any]:
    """The real compiled catalogues' translations of the core messages, in the shape
    ``{msgid: {"nl": ..., "fr": ...}, "__plurals__": {singular: {"nl": [one, many], ...}}}``."""
    out: dict[str, Any] = {"__plurals__": {}}
    for lang in PLURAL_FORMS:
        for key, value in catalogue(lang).items():
            if isinstance(key, tuple):
                forms = out["__plurals__"].setdefault(key[0], {}).setdefault(lang, ["", ""])
                forms[key[1]] = value
            elif key:
                out.setdefault(key, {})[lang] = value
    return out


def core_catalogue_dir(tmp: Path) -> Path:
    """The locale folder whose nl and fr catalogues speak the core messages: the real one
    (``companion/locale``, made by ``scripts/catalogues``). ``tmp`` is unused."""
    return LOCALE
