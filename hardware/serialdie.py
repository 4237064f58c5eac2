"""The serial electronic die: a reader thread that survives bad bytes and pulled cables.

::

    with SerialDie("/dev/ttyACM0", on_throw=bridge.throw, on_state=bridge.die_state) as die:
        die.set_expected(Expected.for_game("chopchop", side="cat"))
        ...

The port is a device path or any pyserial URL (``loop://``, ``/dev/serial/by-id/...``), or
``None``/``"auto"`` to look for a USB serial device (:func:`find_port`) on every attempt. For
tests, ``factory`` replaces the opening: a callable returning a ``serial.Serial``-like object.

The reader thread opens the port, reads, and hands each message to the callbacks (on the
reader thread: the app's bridge moves them to the UI thread). When the port cannot be opened
or vanishes (cable pulled), the state becomes ``waiting`` and the port is tried again every
``retry_interval`` seconds; when it comes back the state is ``connected`` again. Exceptions
raised by callbacks are logged and never stop the reader.
"""

from __future__ import annotations

import errno
import json
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TextIO

import serial  # type: ignore[import-untyped]
from serial.tools import list_ports  # type: ignore[import-untyped]

from hardware.protocol import (
    BAUD_RATES,
    Battery,
    Decoder,
    Expected,
    Hello,
    Message,
    Rejected,
    Rolling,
    Throw,
)

log = logging.getLogger(__name__)

# USB vendor ids of boards and USB-serial chips a die is likely to use.
KNOWN_VIDS: dict[int, str] = {
    0x2341: "Arduino",
    0x2A03: "Arduino",
    0x1A86: "CH340",
    0x0403: "FTDI",
    0x10C4: "CP210x",
    0x239A: "Adafruit",
    0x2E8A: "Raspberry Pi RP2040",
    0x16C0: "Teensy",
    0x303A: "Espressif",
}
DEVICE_PREFIXES = ("/dev/ttyACM", "/dev/ttyUSB", "/dev/cu.usbmodem", "/dev/cu.usbserial")

CONNECTED = "connected"
WAITING = "waiting"
ERROR = "error"
STOPPED = "stopped"


class SerialLike(Protocol):
    """What the reader needs of a ``serial.Serial``."""

    def read(self, size: int = 1) -> bytes: ...

    def close(self) -> None: ...

    @property
    def in_waiting(self) -> int: ...


@dataclass(frozen=True)
class DieState:
    """The die's connection as the UI shows it."""

    status: str = STOPPED  # connected, waiting, error or stopped
    port: str | None = None
    reason: str = ""
    hello: tuple[str, str] | None = None  # (name, version) from the last HELLO
    battery: int | None = None  # percent, from the last BATT
    rolling: bool = False  # a ROLLING came after the last throw

    def describe(self) -> str:
        where = f" on {self.port}" if self.port else ""
        text = {
            CONNECTED: f"die connected{where}",
            WAITING: f"waiting for the die{where}",
            ERROR: f"die error{where}",
            STOPPED: "die reader stopped",
        }.get(self.status, self.status)
        if self.reason:
            text += f": {self.reason}"
        if self.status == CONNECTED and self.hello:
            text += f" ({self.hello[0]} {self.hello[1]})"
        if self.status == CONNECTED and self.battery is not None:
            text += f", battery {self.battery}%"
        return text


def _is_usb_serial(port: Any) -> bool:
    vid = getattr(port, "vid", None)
    if vid is not None and vid in KNOWN_VIDS:
        return True
    device = str(getattr(port, "device", ""))
    return device.startswith(DEVICE_PREFIXES)


def find_port(ports: Iterable[Any] | None = None) -> str | None:
    """The device path of the most likely die, or None.

    Looks at ``serial.tools.list_ports.comports()`` (or ``ports``, for tests): USB serial
    devices with a known vendor id (Arduino, CH340, FTDI, CP210x, ...) first, then any
    ``/dev/ttyACM*`` or ``/dev/ttyUSB*``.
    """
    found = list(list_ports.comports() if ports is None else ports)
    known = [p for p in found if getattr(p, "vid", None) in KNOWN_VIDS]
    generic = [p for p in found if p not in known and _is_usb_serial(p)]
    for group in (known, generic):
        if group:
            return str(sorted(group, key=lambda p: str(p.device))[0].device)
    return None


def _open_reason(exc: BaseException) -> tuple[str, str]:
    """(status, reason) for a failure to open a port."""
    code = getattr(exc, "errno", None)
    text = str(exc)
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO) or "No such file" in text:
        return WAITING, "port not found (is the die plugged in?)"
    if code in (errno.EACCES, errno.EPERM) or "Permission denied" in text:
        return ERROR, "permission denied (add the user to the 'dialout' group)"
    if code == errno.EBUSY or "busy" in text.lower():
        return ERROR, "port busy (another program has it open)"
    return ERROR, text or type(exc).__name__


class SerialDie:
    """A die on a serial port, read in a background thread (a context manager).

    Callbacks (all optional, called on the reader thread):

    - ``on_throw(Throw)`` for each accepted throw;
    - ``on_reject(Rejected)`` for each rejected line;
    - ``on_state(DieState)`` whenever the state changes (connected, waiting, error, HELLO,
      BATT, ROLLING);
    - ``on_message(Message)`` for every message, including ROLLING, BATT and HELLO.
    """

    def __init__(
        self,
        port: str | None = None,
        *,
        baud: int = BAUD_RATES[0],
        factory: Callable[[], SerialLike] | None = None,
        expected: Expected | None = None,
        on_throw: Callable[[Throw], None] | None = None,
        on_reject: Callable[[Rejected], None] | None = None,
        on_state: Callable[[DieState], None] | None = None,
        on_message: Callable[[Message], None] | None = None,
        retry_interval: float = 0.5,
        read_timeout: float = 0.1,
    ) -> None:
        if baud not in BAUD_RATES:
            raise ValueError(f"baud must be one of {', '.join(map(str, BAUD_RATES))}, not {baud}")
        self.port = None if port in (None, "", "auto") else port
        self.baud = baud
        self._factory = factory
        self.decoder = Decoder(expected if expected is not None else Expected())
        self.on_throw = on_throw
        self.on_reject = on_reject
        self.on_state = on_state
        self.on_message = on_message
        self.retry_interval = retry_interval
        self.read_timeout = read_timeout
        self._state = DieState(port=self.port)
        self._state_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: SerialLike | None = None
        self.connects = 0  # how many times the port was opened (tests, diagnostics)

    # -- public API -------------------------------------------------------------------
    @property
    def state(self) -> DieState:
        return self._state

    @property
    def expected(self) -> Expected:
        return self.decoder.expected

    def set_expected(self, expected: Expected) -> None:
        """What counts as a valid throw from now on (set it from the game state)."""
        self.decoder.expected = expected

    def start(self) -> SerialDie:
        if self._thread is not None and self._thread.is_alive():
            return self
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="serial-die", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        self._thread = None
        self._close()
        self._set_state(status=STOPPED, reason="")

    def __enter__(self) -> SerialDie:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- internals --------------------------------------------------------------------
    def _set_state(self, **changes: Any) -> None:
        with self._state_lock:
            new = replace(self._state, **changes)
            if new == self._state:
                return
            self._state = new
        self._call(self.on_state, new)

    def _call(self, fn: Callable[[Any], None] | None, arg: Any) -> None:
        if fn is None:
            return
        try:
            fn(arg)
        except Exception:  # a broken callback must not stop the die
            log.exception("serial die callback %r failed", fn)

    def _open(self) -> SerialLike:
        if self._factory is not None:
            return self._factory()
        port = self.port or find_port()
        if port is None:
            raise FileNotFoundError(errno.ENOENT, "no USB serial device found")
        if self.port is None:
            self._set_state(port=port)
        ser: SerialLike = serial.serial_for_url(port, baudrate=self.baud, timeout=self.read_timeout)
        return ser

    def _close(self) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except Exception:
                log.debug("closing the die's port failed", exc_info=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._serial = self._open()
            except Exception as exc:  # serial.SerialException, OSError, a factory's error
                status, reason = _open_reason(exc)
                self._set_state(status=status, reason=reason, rolling=False)
                self._stop.wait(self.retry_interval)
                continue
            self.connects += 1
            self.decoder.reset()
            self._set_state(status=CONNECTED, reason="", rolling=False)
            self._read_until_gone(self._serial)
            self._close()
            if not self._stop.is_set():
                self._stop.wait(min(self.retry_interval, 0.1))

    def _read_until_gone(self, ser: SerialLike) -> None:
        while not self._stop.is_set():
            try:
                waiting = ser.in_waiting
                data = ser.read(max(1, min(waiting, 4096)))
            except Exception as exc:  # cable pulled: SerialException / OSError
                reason = "the die was disconnected"
                if not isinstance(exc, serial.SerialException | OSError):
                    reason = f"read failed: {exc}"
                self._set_state(status=WAITING, reason=reason, rolling=False)
                return
            if data:
                for msg in self.decoder.feed(data):
                    self._dispatch(msg)

    def _dispatch(self, msg: Message) -> None:
        if isinstance(msg, Throw):
            self._set_state(rolling=False)
            self._call(self.on_throw, msg)
        elif isinstance(msg, Rejected):
            self._call(self.on_reject, msg)
        elif isinstance(msg, Rolling):
            self._set_state(rolling=True)
        elif isinstance(msg, Battery):
            self._set_state(battery=msg.level)
        elif isinstance(msg, Hello):
            self._set_state(hello=(msg.name, msg.version))
        self._call(self.on_message, msg)


def watch_serial(port: str, baud: int, out: TextIO, err: TextIO, game: str | None) -> int:
    """``companion dice watch --serial PORT --jsonl``: print throws until interrupted.

    Each accepted throw is one JSON line on ``out``: ``{"dice": [a, b], "source": "serial",
    "t": <unix time>}``; each rejected line is ``{"error": reason, "line": text}`` on ``err``;
    state changes are readable lines on ``err``. Keeps running across disconnects; returns 0
    on KeyboardInterrupt.
    """
    lock = threading.Lock()

    def emit(stream: TextIO, text: str) -> None:
        with lock:
            try:
                stream.write(text + "\n")
                stream.flush()
            except (BrokenPipeError, ValueError):
                pass

    def on_throw(t: Throw) -> None:
        emit(out, json.dumps({"dice": list(t.dice), "source": "serial", "t": round(time.time(), 3)}))

    def on_reject(r: Rejected) -> None:
        emit(err, json.dumps({"error": r.reason, "line": r.line}))

    last = [""]

    def on_state(s: DieState) -> None:
        text = s.describe()  # ROLLING is not worth a line
        if text != last[0]:
            last[0] = text
            emit(err, text)

    try:
        expected = Expected.for_game(game)
        die = SerialDie(port, baud=baud, expected=expected, on_throw=on_throw, on_reject=on_reject,
                        on_state=on_state)
    except ValueError as exc:
        emit(err, f"companion dice watch: {exc}")
        return 2
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        # A service stop (SIGTERM) ends it cleanly, and so does Ctrl-C (SIGINT) even where it was
        # started in the background by a shell, which leaves SIGINT ignored for its children.
        for sig in (signal.SIGTERM, signal.SIGINT):
            previous[sig] = signal.signal(sig, _raise_interrupt)
    try:
        with die:
            while True:
                time.sleep(0.2)
    except KeyboardInterrupt:
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _raise_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def describe_ports(ports: Sequence[Any] | None = None) -> list[str]:
    """One line per serial port, for a settings screen's port picker."""
    found = list(list_ports.comports() if ports is None else ports)
    lines = []
    for p in found:
        vid = getattr(p, "vid", None)
        maker = KNOWN_VIDS.get(vid, "") if vid is not None else ""
        desc = getattr(p, "description", "") or ""
        lines.append(" ".join(x for x in (str(p.device), maker, desc if desc != "n/a" else "") if x))
    return lines
