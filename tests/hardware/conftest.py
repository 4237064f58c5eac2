"""Helpers for the hardware tests: real pseudo-terminals and a callback recorder."""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.virtualdie import point_link


class Pty:
    """A pseudo-terminal in raw mode with a stable symlink path, like a USB device node.

    ``write`` goes in at the die's end; the code under test opens ``path`` with pyserial.
    ``unplug`` closes both ends and removes the link (the device node vanishes);
    ``plug`` opens a fresh pty and points the same link at it.
    """

    def __init__(self, link: Path) -> None:
        self.link = link
        self.master: int | None = None
        self.slave: int | None = None
        self.plug()

    @property
    def path(self) -> str:
        return str(self.link)

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        self.master, self.slave = master, slave
        point_link(self.link, os.ttyname(slave))

    def unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.link.unlink()
        for fd in (self.master, self.slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.master = self.slave = None

    def write(self, data: bytes) -> None:
        assert self.master is not None
        os.write(self.master, data)


@pytest.fixture
def pty(tmp_path: Path) -> Iterator[Pty]:
    p = Pty(tmp_path / "ttyDIE0")
    yield p
    p.unplug()


class Recorder:
    """Collects callback arguments from other threads; ``wait_for`` polls with a deadline."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self.lock = threading.Lock()
        self.q: queue.Queue[Any] = queue.Queue()

    def __call__(self, item: Any) -> None:
        with self.lock:
            self.items.append(item)

    def snapshot(self) -> list[Any]:
        with self.lock:
            return list(self.items)

    def wait_for(self, pred: Callable[[Any], bool], timeout: float = 3.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for item in self.snapshot():
                if pred(item):
                    return item
            time.sleep(0.005)
        raise AssertionError(f"nothing matched within {timeout}s; got {self.snapshot()!r}")

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


@pytest.fixture
def recorder() -> Callable[[], Recorder]:
    return Recorder
