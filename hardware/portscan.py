"""Finding the electronic die: the serial ports pyserial lists, each named in words.

    ports = scan()                     # [FoundPort(device="/dev/ttyACM0", words="USB serial device (ttyACM0)")]
    scan_sentence(ports)               # "No electronic die found: plug it in and touch Search again."

``scan`` asks ``serial.tools.list_ports.comports()`` (or the ``lister`` given) and keeps the
ports a die can be on: USB serial devices (the die's Arduino, ttyACM/ttyUSB) and the Pi's own
serial pins (ttyAMA, serial0). Linux lists 32 legacy ``ttyS`` ports whether or not anything is
there; those without hardware behind them are left out. Nothing is opened.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from companion.i18n import _


@dataclass(frozen=True)
class FoundPort:
    device: str
    """Where it is ("/dev/ttyACM0"): saved in settings, never shown alone."""
    words: str
    """What a person reads: "USB serial device (ttyACM0)"."""
    usb: bool = False


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) and value.strip() not in ("", "n/a") else ""


def describe(info: Any) -> FoundPort | None:
    """One of pyserial's ``ListPortInfo`` as words, or None when no die can be on it."""
    device = str(getattr(info, "device", "") or "")
    name = str(getattr(info, "name", "") or device.rsplit("/", 1)[-1])
    if not device:
        return None
    product = _text(getattr(info, "product", None))
    usb = getattr(info, "vid", None) is not None or name.startswith(("ttyACM", "ttyUSB"))
    if usb:
        if product:
            words = _("{product}, a USB device ({port})").format(product=product, port=name)
        else:
            words = _("USB serial device ({port})").format(port=name)
    elif name.startswith(("ttyAMA", "serial", "ttyS0")) and (name != "ttyS0" or _text(getattr(info, "hwid", None))):
        words = _("The Pi's serial pins ({port})").format(port=name)
    elif name.startswith("ttyS"):
        return None  # a legacy port with nothing behind it
    else:
        words = _("Serial device ({port})").format(port=name)
    return FoundPort(device, words, usb)


def scan(lister: Callable[[], Iterable[Any]] | None = None) -> list[FoundPort]:
    """The ports a die can be on, USB first. Raises ``OSError`` only if listing itself fails."""
    if lister is None:
        from serial.tools import list_ports

        lister = list_ports.comports
    found = [p for p in (describe(info) for info in lister()) if p is not None]
    return sorted(found, key=lambda p: (not p.usb, p.device))


def scan_sentence(ports: list[FoundPort]) -> str:
    """What the search found, in one sentence."""
    if not ports:
        return _("No electronic die found: plug it in and touch Search again.")
    if len(ports) == 1:
        return _("Found {port}: touch it to use it.").format(port=ports[0].words)
    return _("Found {n} serial devices: touch the one the die is plugged into.").format(n=len(ports))
