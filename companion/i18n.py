"""The translation layer: every sentence a player sees or hears goes through here.

Standard gettext: the catalogues are ``companion/locale/<lang>/LC_MESSAGES/companion.po``
(kept in the repository, with their compiled ``.mo`` beside them) made from the template
``companion/locale/companion.pot``; English is the source language. Use::

    from companion.i18n import _, N_, ngettext

    _("Cat wins")                                   # translated now, in the current language
    ngettext("{n} chip", "{n} chips", n).format(n=n)  # plural forms of the current language
    LABEL = N_("Kattepot")                          # marked for extraction, translated later by _()

Placeholders are ``str.format`` names (``{name}``), never positional ``%s``, so a translation
may reorder them. Translate at the moment the text is shown (not at import time): the
language can change while the app runs, and ``on_change`` tells listeners when it does.
"""

from __future__ import annotations

import gettext
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Final

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "_",
    "available_languages",
    "language",
    "language_from_env",
    "ngettext",
    "npgettext",
    "on_change",
    "pgettext",
    "set_language",
]

DOMAIN: Final = "companion"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
LANGUAGES: Final[dict[str, str]] = {
    "en": "English",
    "nl": "Nederlands",
    "fr": "Français",
}
"""Language code -> its own name, for the language picker. English is the source language."""

_lock = threading.Lock()
_current: str = "en"
_translations: gettext.NullTranslations = gettext.NullTranslations()
_listeners: list[Callable[[str], None]] = []


def available_languages() -> dict[str, str]:
    """The languages the app can speak: English and every language with a compiled catalogue."""
    out = {"en": LANGUAGES["en"]}
    for code, name in LANGUAGES.items():
        if code != "en" and (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file():
            out[code] = name
    return out


def _normalise(code: str) -> str:
    """``"nl_BE.UTF-8"`` -> ``"nl"``; unknown or empty -> ``""``."""
    base = code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else ""


def language_from_env() -> str:
    """The language the environment asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, the first that names a language we have), else English."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in os.environ.get(var, "").split(":"):
            code = _normalise(part)
            if code:
                return code
    return "en"


def set_language(code: str) -> str:
    """Switch every later ``_()`` to ``code`` ("nl", "fr_FR.UTF-8", ...). Returns the language
    now in use: English when ``code`` is unknown or its catalogue is missing."""
    global _current, _translations
    lang = _normalise(code) or "en"
    if lang == "en":
        trans: gettext.NullTranslations = gettext.NullTranslations()
    else:
        try:
            trans = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])
        except OSError:
            lang, trans = "en", gettext.NullTranslations()
    with _lock:
        changed = lang != _current
        _current, _translations = lang, trans
        listeners = list(_listeners)
    if changed:
        for listener in listeners:
            listener(lang)
    return lang


def language() -> str:
    """The language code in use now ("en", "nl", "fr")."""
    return _current


def on_change(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call ``listener(code)`` after every change of language; returns an unsubscribe."""
    with _lock:
        _listeners.append(listener)

    def unsubscribe() -> None:
        with _lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return unsubscribe


def _(message: str) -> str:
    """``message`` in the current language."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form for ``n`` in the current language (format ``{n}`` in yourself)."""
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English by ``context``."""
    return _translations.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _translations.npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (module-level constants)."""
    return message


def capitalised(text: str) -> str:
    """``text`` with its first letter upper case, the rest untouched: a translated word put at
    the start of a sentence ("muis" -> "Muis", "l'oie" -> "L'oie")."""
    return text[:1].upper() + text[1:]
