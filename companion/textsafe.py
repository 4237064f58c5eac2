"""Text a player typed, made safe to show, store and parse.

A name, a sentence for ``companion say`` or a line typed at a terminal prompt can hold what a
terminal must never get raw: escape sequences (``ESC [ 2 J`` clears the screen), other control
characters, bidirectional overrides that reorder what follows, and bytes that were not UTF-8
(Python keeps them as lone surrogates, which neither SQLite nor a UTF-8 terminal accepts).
:func:`printable` replaces each of them with ``?``; everything else (accents, emoji) is kept.
"""

from __future__ import annotations

import unicodedata

from companion.limits import MAX_NAME_CHARS, MAX_PROMPT_CHARS

REPLACEMENT = "?"

# bidirectional embeddings, overrides and isolates (the rest of the Cf category, e.g. the
# zero-width joiner inside emoji, is harmless)
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def _unsafe(ch: str, keep: str) -> bool:
    if ch in keep:
        return False
    if ch in _BIDI:
        return True
    return unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp")


def printable(text: str, keep: str = "") -> str:
    """``text`` with every control character, bidi override and undecodable byte replaced by
    ``?`` (the characters in ``keep``, e.g. ``"\\n"``, are left alone)."""
    if text.isprintable() and not any(ch in _BIDI for ch in text):
        return text
    return "".join(REPLACEMENT if _unsafe(ch, keep) else ch for ch in text)


def clean_name(name: str) -> str:
    """A player's name as it is stored and shown: :func:`printable`, on one line, without
    outer spaces, at most :data:`~companion.limits.MAX_NAME_CHARS` characters."""
    return printable(" ".join(name.split()))[:MAX_NAME_CHARS].strip()


def clean_line(line: str) -> str | None:
    """One line typed at a terminal prompt, ready to parse: :func:`printable`, without outer
    spaces; None when it is longer than :data:`~companion.limits.MAX_PROMPT_CHARS` (no answer
    to any prompt is that long: the prompt asks again)."""
    text = printable(line.strip())
    if len(text) > MAX_PROMPT_CHARS:
        return None
    return text


def ascii_int(text: str) -> int | None:
    """``text`` as a whole number when it is 1 to 9 ASCII digits (``"²"`` and ``"٣"`` are not;
    nor is a number with thousands of digits, which ``int`` refuses or makes slow), else None."""
    if 0 < len(text) <= 9 and text.isascii() and text.isdigit():
        return int(text)
    return None
