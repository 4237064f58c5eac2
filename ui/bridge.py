"""The bridge: the only way other threads reach the session.

Camera, serial-die and GPIO callbacks run on their own threads. Kivy widgets and the
:class:`companion.session.Session` are not thread-safe, so every such callback is wrapped
here and re-scheduled on the UI thread with ``Clock.schedule_once``. Handlers registered with
:meth:`Bridge.on` always run on the UI (main) thread, in arrival order.

    bridge = Bridge()
    bridge.on("die", screen.on_die_reading)           # runs on the UI thread
    serial_die = SerialDie(port, on_reading=bridge.callback("die"))   # called from a worker

``bridge.callback(kind)`` returns a plain function safe to call from any thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kivy.clock import Clock

Handler = Callable[..., None]


@dataclass
class Delivery:
    """One callback that reached the UI thread (kept for the status line and tests)."""

    kind: str
    args: tuple[Any, ...]
    thread: str
    origin_thread: str
    kwargs: dict[str, Any] = field(default_factory=dict)


class Bridge:
    """Moves callbacks from worker threads onto the Kivy UI thread."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[Handler]] = {}
        self._lock = threading.Lock()
        self.main_thread = threading.main_thread()
        self.delivered: list[Delivery] = []
        self.errors: list[str] = []
        self.on_error: Callable[[str], None] | None = None

    def on(self, kind: str, handler: Handler) -> Callable[[], None]:
        """Run ``handler(*args)`` on the UI thread for every ``post(kind, *args)``."""
        with self._lock:
            self._handlers.setdefault(kind, []).append(handler)

        def off() -> None:
            with self._lock:
                if handler in self._handlers.get(kind, []):
                    self._handlers[kind].remove(handler)

        return off

    def post(self, kind: str, *args: Any, **kwargs: Any) -> None:
        """Thread-safe: deliver ``args`` to the ``kind`` handlers on the UI thread, soon."""
        origin = threading.current_thread().name

        def deliver(_dt: float) -> None:
            self._deliver(kind, args, kwargs, origin)

        Clock.schedule_once(deliver, 0)

    def callback(self, kind: str) -> Callable[..., None]:
        """A function to hand to a worker (serial die, camera, GPIO panel)."""

        def cb(*args: Any, **kwargs: Any) -> None:
            self.post(kind, *args, **kwargs)

        return cb

    def _deliver(self, kind: str, args: tuple[Any, ...], kwargs: dict[str, Any], origin: str) -> None:
        here = threading.current_thread()
        self.delivered.append(Delivery(kind, args, here.name, origin, kwargs))
        del self.delivered[:-200]
        with self._lock:
            handlers = list(self._handlers.get(kind, []))
        for handler in handlers:
            try:
                handler(*args, **kwargs)
            except Exception as exc:  # a bad reading must never take the app down
                msg = f"{kind}: {type(exc).__name__}: {exc}"
                self.errors.append(msg)
                del self.errors[:-200]  # the latest ones, like ``delivered``
                if self.on_error is not None:
                    self.on_error(msg)
