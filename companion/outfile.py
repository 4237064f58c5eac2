"""Where a command may write: the one check every ``-o``/``--output`` (and ``--link``) goes through.

A command never deletes or overwrites a file the player did not ask to replace:

* an existing file is refused unless the command was given ``--force``;
* the name must end in what the command writes (``say -o family.db`` is refused: it writes a
  WAV file), so a typo cannot turn a game database into a sound file;
* the folder must already exist: a typo in a folder name is an error, not a new folder;
* a folder, a device or a link in the file's place is refused even with ``--force``.

:class:`OutputFileError` is an ``OSError`` whose message is one sentence naming what to do, so
the commands that already report ``OSError``s report it as they are.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from companion.i18n import _


class OutputFileError(OSError):
    """A command was asked to write where it must not."""


def _folder_of(p: Path) -> Path:
    return p.parent if str(p.parent) else Path(".")


def _need_folder(p: Path) -> None:
    """:class:`OutputFileError` unless the folder ``p`` goes in exists (it is never created)."""
    folder = _folder_of(p)
    if not folder.is_dir():
        raise OutputFileError(
            _("The folder {folder} does not exist: create it first, or choose another place for {name}.")
            .format(folder=folder, name=p.name))


def check_output(path: str | os.PathLike[str], suffixes: Sequence[str], force: bool = False) -> Path:
    """``path`` as a :class:`Path` if a command may write a file there, else :class:`OutputFileError`.

    ``suffixes`` are the endings the command writes (``(".wav",)``), compared without case;
    ``force`` is the command's ``--force``: only then is an existing regular file replaced.
    """
    p = Path(path)
    if p.suffix.lower() not in {s.lower() for s in suffixes}:
        raise OutputFileError(
            _("{path} does not end in {suffixes}: this command writes only such a file; choose a name that does.")
            .format(path=p, suffixes=_(" or ").join(suffixes)))
    _need_folder(p)
    if p.is_symlink():
        raise OutputFileError(
            _("{path} is a link: the companion does not write through it; choose another name.").format(path=p))
    if p.exists():
        if not p.is_file():
            raise OutputFileError(
                _("{path} exists and is not a plain file: choose another name.").format(path=p))
        if not force:
            raise OutputFileError(
                _("{path} already exists: choose another name, or add --force to replace it.").format(path=p))
    return p


def check_output_folder(path: str | os.PathLike[str], keep: Sequence[str], force: bool = False) -> Path:
    """``path`` as a :class:`Path` if a command may write its files (``keep``: the names it
    writes there, e.g. ``labels.json``, ``images``) into that folder, else :class:`OutputFileError`.

    The folder itself may be new (its parent must exist); an existing one that already holds
    one of ``keep`` is refused unless ``force``.
    """
    p = Path(path)
    if p.is_symlink() or (p.exists() and not p.is_dir()):
        raise OutputFileError(
            _("{path} exists and is not a folder: choose another name.").format(path=p))
    if not p.exists():
        _need_folder(p)
        return p
    there = [name for name in keep if os.path.lexists(p / name)]
    if there and not force:
        raise OutputFileError(
            _("{path} already holds {names}: choose another folder, or add --force to replace them.")
            .format(path=p, names=", ".join(there)))
    return p


def check_link(path: str | os.PathLike[str], owned: str = "/dev/pts/") -> Path:
    """``path`` as a :class:`Path` if a command may (re)make a symlink there: nothing is there
    yet, or a symlink to a target under ``owned`` (one it left before). Anything else, a
    file, a folder or a link elsewhere, is refused with :class:`OutputFileError`."""
    p = Path(path)
    _need_folder(p)
    if p.is_symlink():
        if os.readlink(p).startswith(owned):
            return p
        raise OutputFileError(
            _("{path} is a link to something else: the companion replaces only its own link; choose another name.")
            .format(path=p))
    if os.path.lexists(p):
        raise OutputFileError(
            _("{path} already exists: the companion does not replace it with a link; choose another name.")
            .format(path=p))
    return p
