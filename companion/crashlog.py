"""``crash.log``: the tracebacks of internal errors, kept small and written only where it belongs.

* capped: when an entry would make the file bigger than :data:`~companion.limits.MAX_CRASH_LOG_BYTES`
  the file is moved to ``crash.log.1`` (replacing the older one) and a new one begun, so the two
  together never hold more than twice the cap; one entry alone is cut to half the cap;
* never through a link: the file is opened with ``O_NOFOLLOW`` (a symlink named ``crash.log``,
  planted to make the companion append to another file, is an error, and nothing is written), and
  a ``crash.log`` that is not a plain file (a FIFO, a device) is left alone;
* new files are readable by their owner only (a traceback can hold names and paths).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from companion.limits import MAX_CRASH_LOG_BYTES


def _open_no_follow(path: Path) -> int:
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o600)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path} is not a plain file")
    return fd


def append_crash(log: str | os.PathLike[str], text: str, limit: int = MAX_CRASH_LOG_BYTES) -> Path:
    """Append ``text`` to ``log``, rotating it first to ``<log>.1`` when it would pass ``limit``
    bytes. Raises ``OSError`` when it cannot (a link in its place, no space, no permission)."""
    path = Path(log)
    data = text.encode("utf-8", "backslashreplace")
    if len(data) > limit // 2:
        data = b"[...]\n" + data[-(limit // 2):]
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise OSError(f"{path} is a link: nothing is written through it")
    if st is not None and stat.S_ISREG(st.st_mode) and st.st_size + len(data) > limit:
        os.replace(path, path.with_name(path.name + ".1"))  # renames the entry, follows no link
    fd = _open_no_follow(path)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
    return path
