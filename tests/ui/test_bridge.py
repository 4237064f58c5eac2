"""The bridge: callbacks from worker threads are applied on the UI (main) thread."""

from __future__ import annotations

import threading
from typing import Any

from tests.ui.helpers import pump, wait_for


def test_callback_from_worker_thread_runs_on_main_thread(window: Any) -> None:
    from ui.bridge import Bridge

    bridge = Bridge()
    seen: list[tuple[tuple[int, ...], str]] = []
    bridge.on("die", lambda values: seen.append((values, threading.current_thread().name)))
    cb = bridge.callback("die")
    worker = threading.Thread(target=cb, args=((3, 5),), name="serial-reader")
    worker.start()
    worker.join()
    assert seen == []  # nothing runs on the worker thread
    assert wait_for(lambda: bool(seen))
    assert seen == [((3, 5), threading.main_thread().name)]
    assert bridge.delivered[-1].origin_thread == "serial-reader"
    assert bridge.delivered[-1].thread == threading.main_thread().name


def test_handler_error_is_reported_not_raised(window: Any) -> None:
    from ui.bridge import Bridge

    bridge = Bridge()
    errors: list[str] = []
    bridge.on_error = errors.append

    def bad(_v: Any) -> None:
        raise ValueError("bad bytes")

    bridge.on("die", bad)
    threading.Thread(target=bridge.callback("die"), args=(1,)).start()
    assert wait_for(lambda: bool(errors))
    assert "bad bytes" in errors[0]
    pump()


def test_serial_throw_from_worker_reaches_the_session(make_app: Any) -> None:
    app = make_app()
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    applied_on: list[str] = []
    app.session.subscribe(lambda ev: applied_on.append(threading.current_thread().name))
    t = threading.Thread(target=app.bridge.callback("die"), args=((2, 3),), name="reader")
    t.start()
    t.join()
    assert wait_for(lambda: bool(app.session.turns))
    assert applied_on and set(applied_on) == {threading.main_thread().name}
    assert app.session.state.square["cat"] == 5
