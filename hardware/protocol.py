"""The serial die protocol: pure parsing, no I/O.

The die speaks ASCII lines (115200 baud by default, 9600 accepted), each ended by LF, CR or
CR LF:

``ROLL a b ...``
    a throw: one value per die (1, 2 or more values), separated by spaces or commas.
``ROLLING``
    the die is being shaken (the UI may show "rolling...").
``BATT n``
    battery level in percent (0-100), optional.
``HELLO name version``
    sent once on boot, optional.

The simple forms many hobby dice send are accepted as throws too: ``3 5``, ``3,5`` and a JSON
object ``{"dice": [3, 5]}``. Keywords are case-insensitive. Empty lines are ignored.

Anything else is rejected with a reason a person can read, and the stream goes on: garbage,
bytes that are not UTF-8, control characters, lines longer than :data:`MAX_LINE` bytes (the
rest of such a line is dropped up to the next line end), values that are not faces of the
current game's die, the wrong number of dice. What counts as a valid throw is an
:class:`Expected` (number of dice and allowed faces), which the app sets from the current
state (:meth:`Expected.for_game`): e.g. Chop! Chop! accepts 1..3 when the cat moves and 1..4
when a mouse does.

:class:`Decoder` turns chunks of bytes, as they come from a serial port, into
:class:`Message` objects; :func:`parse_line` parses one complete line.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

MAX_LINE = 256
"""Longest accepted line in bytes (without its line end)."""

MAX_DICE = 8
"""Most dice one throw may carry when the count is not fixed."""

BAUD_RATES = (115200, 9600)
"""The baud rates the protocol allows; the first is the default."""

GAME_DICE: dict[str, tuple[int, tuple[int, ...]] | None] = {
    "katenmuis": (2, (1, 2, 3, 4, 5, 6)),
    "chopchop": (1, (1, 2, 3, 4)),
    "kilkenny": (1, (1, 2, 3, 4, 5, 6)),
    "qubism": None,
}
"""Per game: (number of dice, faces), or None for a game without dice."""

CHOPCHOP_SIDE_FACES: dict[str, tuple[int, ...]] = {
    "cat": (1, 2, 3),
    "mice": (1, 2, 3, 4),
    "mouse": (1, 2, 3, 4),
}
"""Chop! Chop!: the cat die shows 1,1,2,2,2,3; the mouse die 1,1,2,2,3,4."""


@dataclass(frozen=True)
class Expected:
    """What a valid throw looks like now.

    ``count`` is the number of dice (``None``: any number from 1 to :data:`MAX_DICE`),
    ``faces`` the allowed values, ``label`` a few words for messages ("Kat en Muis"), and
    ``none_reason`` when set makes every throw a rejection with that reason (a game without
    dice, or no throw due right now).
    """

    count: int | None = None
    faces: frozenset[int] = frozenset(range(1, 7))
    label: str = ""
    none_reason: str | None = None

    @classmethod
    def for_game(cls, game: str | None, side: str | None = None) -> Expected:
        """The throw a game expects; ``side`` picks the die where sides differ (Chop! Chop!)."""
        if game is None:
            return cls()
        if game not in GAME_DICE:
            raise ValueError(f"unknown game {game!r}; known: {', '.join(GAME_DICE)}")
        spec = GAME_DICE[game]
        if spec is None:
            return cls(count=0, faces=frozenset(), label=game, none_reason=f"{game} uses no dice")
        count, faces = spec
        label = game
        if game == "chopchop" and side is not None:
            if side not in CHOPCHOP_SIDE_FACES:
                raise ValueError(f"unknown side {side!r} for chopchop; use cat or mice")
            faces = CHOPCHOP_SIDE_FACES[side]
            label = f"chopchop {side} die"
        return cls(count=count, faces=frozenset(faces), label=label)

    @classmethod
    def nothing(cls, reason: str = "no throw is expected now") -> Expected:
        """Reject every throw with ``reason`` (e.g. while a player must move a piece)."""
        return cls(count=0, faces=frozenset(), none_reason=reason)

    def faces_text(self) -> str:
        values = sorted(self.faces)
        if values and values == list(range(values[0], values[-1] + 1)):
            return f"{values[0]}-{values[-1]}"
        return ",".join(str(v) for v in values)

    def check(self, dice: tuple[int, ...]) -> str | None:
        """The reason ``dice`` is not a valid throw now, or None when it is."""
        if self.none_reason is not None:
            return self.none_reason
        n = len(dice)
        if self.count is not None and n != self.count:
            want = "1 die" if self.count == 1 else f"{self.count} dice"
            return f"expected {want}, got {n}"
        if self.count is None and not 1 <= n <= MAX_DICE:
            return f"expected 1 to {MAX_DICE} dice, got {n}"
        for v in dice:
            if v not in self.faces:
                return f"{v} is not a face of this die ({self.faces_text()})"
        return None


@dataclass(frozen=True)
class Message:
    """Base of what the die says. ``line`` is the text as received (for logs)."""

    line: str


@dataclass(frozen=True)
class Throw(Message):
    dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class Rolling(Message):
    pass


@dataclass(frozen=True)
class Battery(Message):
    level: int = 0


@dataclass(frozen=True)
class Hello(Message):
    name: str = ""
    version: str = ""


@dataclass(frozen=True)
class Rejected(Message):
    reason: str = ""


_NUM = r"(?:0|[1-9][0-9]{0,2})"  # no leading zeros: "01" is not a die value
_VALUES = re.compile(rf"^({_NUM})(?:\s*[,\s]\s*({_NUM}))*$")
_SPLIT = re.compile(r"\s*[,\s]\s*")
_ROLL = re.compile(r"^roll(?:\s+(.*))?$", re.IGNORECASE | re.DOTALL)
_ROLLING = re.compile(r"^rolling$", re.IGNORECASE)
_BATT = re.compile(r"^batt(?:\s+(.*))?$", re.IGNORECASE | re.DOTALL)
_HELLO = re.compile(r"^hello(?:\s+(.*))?$", re.IGNORECASE | re.DOTALL)
_PRINTABLE = re.compile(r"^[\x20-\x7e\t]*$")


def _show(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _values(text: str) -> tuple[int, ...] | None:
    text = text.strip()
    if not _VALUES.match(text):
        return None
    return tuple(int(v) for v in _SPLIT.split(text))


def _throw(line: str, dice: tuple[int, ...], expected: Expected) -> Message:
    reason = expected.check(dice)
    if reason is not None:
        return Rejected(line, reason)
    return Throw(line, dice)


def _parse_json(line: str, expected: Expected) -> Message:
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return Rejected(line, "not valid JSON")
    if not isinstance(obj, dict) or "dice" not in obj:
        return Rejected(line, 'JSON without a "dice" list')
    raw = obj["dice"]
    if not isinstance(raw, list) or not all(type(v) is int for v in raw):
        return Rejected(line, '"dice" must be a list of whole numbers')
    if not raw:
        return Rejected(line, "no dice values")
    if any(v < 0 or v > 999 for v in raw) or len(raw) > 64:
        return Rejected(line, "dice values out of range")
    return _throw(line, tuple(raw), expected)


def parse_line(raw: bytes | str, expected: Expected | None = None) -> Message | None:
    """Parse one line (without its line end). None for an empty line, which is ignored."""
    expected = expected if expected is not None else Expected()
    if isinstance(raw, bytes):
        if len(raw) > MAX_LINE:
            return Rejected(_show(raw.decode("utf-8", "replace")), f"line longer than {MAX_LINE} bytes")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            return Rejected(_show(raw.decode("utf-8", "replace")), "not UTF-8 text")
    else:
        line = raw
        if len(line.encode("utf-8", "replace")) > MAX_LINE:
            return Rejected(_show(line), f"line longer than {MAX_LINE} bytes")
    if "\x00" in line:
        # a NUL is what a port sends while it powers up or after a glitch; never part of a line
        return Rejected(_show(line.replace("\x00", "\\0")), "contains NUL bytes")
    text = line.strip()
    if not text:
        return None
    if not _PRINTABLE.match(text):
        if all(ch.isprintable() or ch == "\t" for ch in text):
            return Rejected(line, "not ASCII")
        return Rejected(line, "contains control characters")
    if text.startswith("{"):
        return _parse_json(text, expected)
    m = _ROLLING.match(text)
    if m:
        return Rolling(line)
    m = _ROLL.match(text)
    if m:
        rest = m.group(1)
        if rest is None or not rest.strip():
            return Rejected(line, "ROLL without values")
        dice = _values(rest)
        if dice is None:
            return Rejected(line, "ROLL values must be whole numbers separated by spaces or commas")
        return _throw(line, dice, expected)
    m = _BATT.match(text)
    if m:
        arg = (m.group(1) or "").strip()
        if not re.fullmatch(r"[0-9]{1,3}", arg) or int(arg) > 100:
            return Rejected(line, "BATT needs a level from 0 to 100")
        return Battery(line, int(arg))
    m = _HELLO.match(text)
    if m:
        parts = (m.group(1) or "").split()
        if len(parts) != 2:
            return Rejected(line, "HELLO needs a name and a version")
        return Hello(line, parts[0], parts[1])
    dice = _values(text)
    if dice is not None:
        return _throw(line, dice, expected)
    return Rejected(line, "unknown message")


@dataclass
class Decoder:
    """Turns chunks of bytes into messages; keeps the unfinished tail between chunks.

    Line ends are LF, CR or CR LF in any mix. A line longer than :data:`MAX_LINE` bytes is
    rejected once and dropped up to the next line end, so a stream without line ends cannot
    use up memory. :attr:`expected` may be replaced at any time (from another thread too).
    """

    expected: Expected = field(default_factory=Expected)
    _buf: bytearray = field(default_factory=bytearray, repr=False)
    _overflow: bool = field(default=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def feed(self, data: bytes) -> list[Message]:
        out: list[Message] = []
        with self._lock:
            expected = self.expected
            start = 0
            n = len(data)
            while start <= n:
                cut = _next_eol(data, start)
                if cut < 0:
                    chunk = data[start:]
                    if self._overflow:
                        break
                    self._buf += chunk
                    if len(self._buf) > MAX_LINE:
                        out.append(Rejected(_show(bytes(self._buf).decode("utf-8", "replace")),
                                            f"line longer than {MAX_LINE} bytes"))
                        self._buf.clear()
                        self._overflow = True
                    break
                chunk = data[start:cut]
                if self._overflow:
                    self._overflow = False
                    self._buf.clear()
                else:
                    self._buf += chunk
                    line = bytes(self._buf)
                    self._buf.clear()
                    msg = parse_line(line, expected)
                    if msg is not None:
                        out.append(msg)
                start = cut + 1
        return out

    def pending(self) -> int:
        """Bytes of an unfinished line waiting for its line end."""
        return len(self._buf)

    def reset(self) -> None:
        """Forget an unfinished line (after a reconnect its start belonged to another stream)."""
        with self._lock:
            self._buf.clear()
            self._overflow = False


def _next_eol(data: bytes, start: int) -> int:
    lf = data.find(b"\n", start)
    cr = data.find(b"\r", start)
    if lf < 0:
        return cr
    if cr < 0:
        return lf
    return min(lf, cr)


def decode_all(chunks: Iterable[bytes], expected: Expected | None = None) -> list[Message]:
    """Decode a whole stream given as chunks (a convenience for tests and tools)."""
    dec = Decoder(expected if expected is not None else Expected())
    out: list[Message] = []
    for chunk in chunks:
        out += dec.feed(chunk)
    return out
