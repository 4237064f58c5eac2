"""How much the core reads from any file or setting: every limit of ``companion/`` in one place.

A file is checked against its cap *before* it is read (and read with a bounded ``read``, so a
file that grows meanwhile, a pipe or ``/dev/zero`` cannot make the program swallow more), and a
file over its cap is refused with :class:`FileTooLargeError`, an ``OSError`` whose message is
one sentence a player can act on. The loaders already turn ``OSError`` into their own clear
errors (``BoardError``, ``PieceError``, ...), so nothing is read half-way and nothing is lost.
``docs/readme/limits.md`` lists every limit of every package.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from companion.i18n import _

KIB: Final = 1024
MIB: Final = 1024 * KIB

MAX_BOARD_FILE_BYTES: Final = 1 * MIB
"""A board file (TOML). The shipped ones are under 40 KiB; a board with a thousand squares and
their polygons fits in a few hundred KiB."""

MAX_JSON_FILE_BYTES: Final = 16 * MIB
"""A JSON file the app or a command reads: a position, learned piece looks, tile examples, a
dataset's or the demo feed's labels."""

MAX_SETTING_BYTES: Final = 64 * KIB
"""One value of the store's settings table (JSON text). A bigger one (a hand edit of the
database) is treated as missing: its default is used."""


class FileTooLargeError(OSError):
    """A file is bigger than the companion reads for what it is meant to be."""


def _size_text(n: int) -> str:
    if n >= MIB:
        return _("{n} MiB").format(n=round(n / MIB, 1))
    if n >= KIB:
        return _("{n} KiB").format(n=round(n / KIB, 1))
    return _("{n} bytes").format(n=n)


def too_large_message(path: str | Path, size: int | None, limit: int, what: str) -> str:
    """The one sentence for a file over its cap (``size`` None: more than ``limit``)."""
    if size is None:
        return _("{path} is bigger than {limit}, the most the companion reads for {what}: choose another file.").format(
            path=path, limit=_size_text(limit), what=what)
    return _("{path} is {size}, more than the {limit} the companion reads for {what}: choose another file.").format(
        path=path, size=_size_text(size), limit=_size_text(limit), what=what)


def read_bytes_capped(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of ``path``, refused with :class:`FileTooLargeError` when over ``limit``.

    ``what`` names the kind of file for the message ("a board file"). Other read errors are
    the usual ``OSError``s (missing file, no permission, a folder).
    """
    p = Path(path)
    with p.open("rb") as fh:
        try:
            size: int | None = p.stat().st_size if p.is_file() else None
        except OSError:
            size = None
        if size is not None and size > limit:
            raise FileTooLargeError(too_large_message(p, size, limit, what))
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise FileTooLargeError(too_large_message(p, None, limit, what))
    return data


def read_text_capped(path: str | Path, limit: int, what: str, encoding: str = "utf-8") -> str:
    """:func:`read_bytes_capped`, decoded (``UnicodeDecodeError`` is a ``ValueError``)."""
    return read_bytes_capped(path, limit, what).decode(encoding)


MAX_BOARD_SQUARES: Final = 2000
"""Squares on one board (grid cells and listed squares together). The shipped boards have 25 to
81; a board file asking for more (a ``[grid]`` of 100000 x 100000) is refused before anything is
built for it."""

MAX_POLYGON_POINTS: Final = 64
"""Corners of one square's polygon in a board file (the shipped squares have 4)."""

MAX_NAME_CHARS: Final = 40
"""A player's name: longer ones are cut (control characters are replaced first,
``companion.textsafe.clean_name``)."""

MAX_PROMPT_CHARS: Final = 200
"""One line typed at a terminal game's prompt: a longer line is no answer to any prompt and is
refused with a sentence (the prompt asks again)."""

MAX_CRASH_LOG_BYTES: Final = 256 * KIB
"""``crash.log`` beside the database: when an internal error would make it bigger, it is moved
to ``crash.log.1`` (the one older file kept, replacing the one before) and a new one begun."""

MAX_WINDOW_SIZE: Final = (7680, 4320)
"""The largest window ``companion app --size WxH`` opens (an 8K screen); a bigger one is a typo
that would ask the graphics driver for gigabytes."""
