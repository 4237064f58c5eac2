"""A virtual electronic die on a pseudo-terminal: ``companion virtual-dice``.

It opens a pseudo-terminal in raw mode, prints the path of its serial end (and with
``--link PATH`` keeps a symlink there, so the path stays the same across restarts, as a USB
device path does), and speaks the die protocol (:mod:`hardware.protocol`): ``HELLO`` on
start, then ``ROLLING`` and ``ROLL a b`` on Enter or every ``--every`` seconds. Typing values
(``3 5``) sends that throw; typing anything else sends the text as it is (to try the
reader's rejections); ``q`` quits.

:class:`VirtualDie` is the same in-process (``start()``, ``roll()``, ``send()``, ``stop()``),
for demo mode and tests.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import random
import re
import secrets
import select
import signal
import sys
import threading
import time
import tty
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from companion.outfile import OutputFileError, check_link

# faces of the physical dice, with their repeats (RULES.md)
GAME_FACES: dict[str, dict[str | None, tuple[tuple[int, ...], ...]]] = {
    "katenmuis": {None: ((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6))},
    "chopchop": {
        "cat": ((1, 1, 2, 2, 2, 3),),
        "mice": ((1, 1, 2, 2, 3, 4),),
    },
    "kilkenny": {None: ((1, 2, 3, 4, 5, 6),)},
}
VERSION = "1.0"


def dice_for(game: str, side: str | None) -> tuple[tuple[int, ...], ...]:
    """The dice (each a tuple of its faces) a game throws; ``side`` for Chop! Chop!."""
    if game not in GAME_FACES:
        raise ValueError(f"no dice for {game!r}; choose one of: {', '.join(GAME_FACES)}")
    per_side = GAME_FACES[game]
    if side == "mouse":
        side = "mice"
    if game == "chopchop":
        return per_side[side or "cat"] if (side or "cat") in per_side else per_side["cat"]
    return per_side[None]


def point_link(link: Path, target: str) -> None:
    """Make ``link`` a symlink to ``target`` atomically: readers see the old or the new device
    node, never none (as udev does when a USB die is plugged in again).

    Only a missing path or a link this command left before (to a pseudo-terminal) is replaced:
    anything else there (``notes.txt``, a game database) is refused with
    :class:`companion.outfile.OutputFileError` and left as it is."""
    check_link(link)
    tmp = link.with_name(f".{link.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    os.symlink(target, tmp)  # a fresh name: never removes anything already there
    try:
        os.replace(tmp, link)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


class VirtualDie:
    """A pseudo-terminal that speaks the die protocol (a context manager)."""

    def __init__(
        self,
        game: str = "katenmuis",
        side: str | None = None,
        *,
        seed: int | None = None,
        link: str | os.PathLike[str] | None = None,
        rolling_time: float = 0.0,
        hello: bool = True,
    ) -> None:
        self.game = game
        self.side = side
        self.dice = dice_for(game, side)
        self.rng = random.Random(seed)
        self.link = Path(link) if link is not None else None
        self.rolling_time = rolling_time
        self.hello = hello
        self.master: int | None = None
        self.slave: int | None = None
        self.path: str | None = None
        self._lock = threading.Lock()

    @property
    def port(self) -> str:
        """The path to open: the link if there is one, else the pty's own path."""
        if self.path is None:
            raise RuntimeError("the virtual die is not started")
        return str(self.link) if self.link is not None else self.path

    def start(self) -> VirtualDie:
        master, slave = os.openpty()
        tty.setraw(slave)
        # never block the die when nobody reads: a full buffer drops throws as a real UART does
        flags = fcntl.fcntl(master, fcntl.F_GETFL)
        fcntl.fcntl(master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self.master, self.slave = master, slave
        self.path = os.ttyname(slave)
        if self.link is not None:
            point_link(self.link, self.path)
        if self.hello:
            self.send(f"HELLO virtual-die {VERSION}")
        return self

    def stop(self) -> None:
        """Close the pty (like pulling the cable). The link is removed if it still points here."""
        with self._lock:
            if self.link is not None and self.path is not None:
                with contextlib.suppress(OSError):
                    if os.readlink(self.link) == self.path:
                        self.link.unlink()
            for fd in (self.master, self.slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self.master = self.slave = None

    def __enter__(self) -> VirtualDie:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def send(self, data: str | bytes, end: bytes = b"\n") -> bool:
        """Write raw bytes (a str gets ``end`` appended). False if nobody could take them."""
        raw = data.encode("utf-8") + end if isinstance(data, str) else data
        with self._lock:
            if self.master is None:
                raise RuntimeError("the virtual die is not started")
            try:
                os.write(self.master, raw)
                return True
            except BlockingIOError:
                return False

    def throw(self) -> tuple[int, ...]:
        """Random values for the game's dice (no sending)."""
        return tuple(self.rng.choice(faces) for faces in self.dice)

    def roll(self, values: Sequence[int] | None = None) -> tuple[int, ...]:
        """Send ``ROLLING`` then ``ROLL a b``; returns the values sent."""
        dice = tuple(values) if values is not None else self.throw()
        self.send("ROLLING")
        if self.rolling_time > 0:
            time.sleep(self.rolling_time)
        self.send("ROLL " + " ".join(str(v) for v in dice))
        return dice

    def battery(self, level: int) -> None:
        self.send(f"BATT {level}")


_VALUES = re.compile(r"^\s*[0-9]{1,3}(\s*[ ,]\s*[0-9]{1,3})*\s*$")


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="companion virtual-dice",
        description="A virtual serial die on a pseudo-terminal: prints its path, then sends "
        "ROLLING and ROLL a b on Enter or every N seconds. Type values (3 5) to send that "
        "throw, other text to send it as it is, q to quit.",
    )
    parser.add_argument("--game", choices=list(GAME_FACES), default="katenmuis",
                        help="which dice to throw (default katenmuis: two dice 1-6)")
    parser.add_argument("--side", choices=["cat", "mice"], default=None,
                        help="chopchop: throw the cat die (1,1,2,2,2,3) or the mouse die (1,1,2,2,3,4)")
    parser.add_argument("--every", type=float, metavar="N", default=None,
                        help="also throw by itself every N seconds")
    parser.add_argument("--seed", type=int, default=None, help="random seed, for repeatable throws")
    parser.add_argument("--link", metavar="PATH", default=None,
                        help="keep a symlink to the pty here, so its path is stable across restarts")
    parser.add_argument("--rolling-time", type=float, default=0.3, metavar="S",
                        help="seconds between ROLLING and ROLL (default 0.3)")
    parser.add_argument("--count", type=int, default=None, metavar="K",
                        help="quit after K automatic throws")
    args = parser.parse_args(argv)
    if args.every is not None and args.every <= 0:
        parser.error("--every must be more than 0")

    if args.link is not None:
        try:
            check_link(args.link)
        except OutputFileError as exc:
            print(f"companion virtual-dice: {exc}", file=sys.stderr)
            return 2
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    die = VirtualDie(args.game, args.side, seed=args.seed, link=args.link, rolling_time=args.rolling_time)
    try:
        die.start()
    except OutputFileError as exc:
        die.stop()
        print(f"companion virtual-dice: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"companion virtual-dice: cannot open a pseudo-terminal: {exc}", file=sys.stderr)
        return 2
    try:
        print(f"virtual die on {die.path}" + (f" (link {die.link})" if die.link else ""), flush=True)
        print(f"open it with: companion dice watch --serial {die.port} --jsonl", flush=True)
        stdin_open = True
        next_at = time.monotonic() + args.every if args.every else None
        thrown = 0
        while True:
            timeout = None if next_at is None else max(0.0, next_at - time.monotonic())
            if not stdin_open and timeout is None:
                signal.pause()
                continue
            try:
                ready = select.select([sys.stdin], [], [], timeout)[0] if stdin_open else []
            except (ValueError, OSError):
                stdin_open = False
                ready = []
            if not stdin_open and timeout:
                time.sleep(timeout)
            if ready:
                line = sys.stdin.readline()
                if line == "":
                    stdin_open = False
                    continue
                text = line.strip()
                if text.lower() in ("q", "quit", "exit"):
                    break
                if not text:
                    print("sent ROLL " + " ".join(map(str, die.roll())), flush=True)
                elif _VALUES.match(text):
                    values = [int(v) for v in re.split(r"\s*[ ,]\s*", text.strip())]
                    print("sent ROLL " + " ".join(map(str, die.roll(values))), flush=True)
                else:
                    die.send(text)
                    print(f"sent {text!r}", flush=True)
            elif next_at is not None and time.monotonic() >= next_at:
                print("sent ROLL " + " ".join(map(str, die.roll())), flush=True)
                thrown += 1
                next_at = time.monotonic() + args.every
                if args.count is not None and thrown >= args.count:
                    break
    except KeyboardInterrupt:
        pass
    finally:
        die.stop()
        signal.signal(signal.SIGTERM, previous)
    return 0


if __name__ == "__main__":
    sys.exit(main())
