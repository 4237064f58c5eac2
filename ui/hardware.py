"""What hardware is attached, and demo mode when there is none (no Kivy here).

Detection is cheap and never opens a device: it looks for serial ports (``/dev/ttyACM*``,
``/dev/ttyUSB*``, ``/dev/serial0`` or the port saved in settings), cameras (``/dev/video*``,
or the Pi camera through picamera2) and the GPIO chip (``/dev/gpiochip*``). Each part also
needs its software module (``hardware.serialdie``, ``vision.camera``, ``hardware.panel``); a
missing module is reported as "not available" with the reason, never faked.
"""

from __future__ import annotations

import glob
import importlib
import importlib.util
import os
from dataclasses import dataclass, field

from companion.i18n import N_, _


@dataclass
class Part:
    name: str
    """What the part is, in English (marked for translation: show ``_(part.name)``)."""
    found: bool
    detail: str
    """Ports/devices found, or why none (English when it is a reason: show ``_(part.detail)``)."""
    module_ok: bool = True


@dataclass
class HardwareReport:
    serial: Part
    camera: Part
    gpio: Part
    notes: list[str] = field(default_factory=list)

    @property
    def any_found(self) -> bool:
        return self.serial.found or self.camera.found or self.gpio.found


def module_available(name: str) -> tuple[bool, str]:
    """Whether a module of the project can be imported (without importing it twice)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return (False, _("{module} is not installed yet").format(module=name))
    return (True, "")


def serial_ports(saved: str | None = None) -> list[str]:
    ports = sorted(glob.glob("/dev/ttyACM*") + glob.glob("/dev/ttyUSB*"))
    if os.path.exists("/dev/serial0"):
        ports.append("/dev/serial0")
    if saved and saved not in ports and (saved.startswith(("loop://", "socket://")) or os.path.exists(saved)):
        ports.insert(0, saved)
    return ports


def cameras() -> list[str]:
    return sorted(glob.glob("/dev/video*"))


def gpio_chips() -> list[str]:
    return sorted(glob.glob("/dev/gpiochip*"))


def detect(saved_port: str | None = None) -> HardwareReport:
    ports = serial_ports(saved_port)
    ok, why = module_available("hardware.serialdie")
    serial = Part(N_("Serial die"), bool(ports) and ok,
                  ", ".join(ports) if ports else N_("no serial port found"), ok)
    if not ok:
        serial.detail = why
    cams = cameras()
    cam_ok, cam_why = module_available("vision.camera")
    camera = Part(N_("Camera"), bool(cams) and cam_ok, ", ".join(cams) if cams else N_("no camera found"), cam_ok)
    if not cam_ok:
        camera.detail = cam_why
    chips = gpio_chips()
    gp_ok, gp_why = module_available("hardware.panel")
    gpio = Part(N_("GPIO panel"), bool(chips) and gp_ok, ", ".join(chips) if chips else N_("no GPIO chip found"), gp_ok)
    if not gp_ok:
        gpio.detail = gp_why
    return HardwareReport(serial, camera, gpio)
