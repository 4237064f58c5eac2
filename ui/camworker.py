"""Stopping a camera worker: the one way the Camera screen (ui.screens.camera), the camera
watching during play (ui.camwatch) and the set-up wizard's camera (ui.wizardcam) end theirs."""

from __future__ import annotations

import threading
from typing import Any


def stop_worker(stop: threading.Event, thread: threading.Thread | None, source: Any,
                consumed: threading.Event | None = None) -> None:
    """Tell the worker ``thread`` to stop and wait for it (3 s at most), then close its frame
    ``source``. The source is asked to stop first, so a worker waiting out a lost camera's
    backoff ends at once; ``consumed`` (the "UI has shown the last frame" event a worker may
    wait on) is set so that it does not wait for a frame nobody will show."""
    stop.set()
    if consumed is not None:
        consumed.set()
    if source is not None and hasattr(source, "stop"):
        source.stop()
    if thread is not None:
        thread.join(timeout=3)
    if source is not None:
        try:
            source.close()
        except Exception:
            pass
