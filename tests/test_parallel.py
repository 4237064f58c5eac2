"""The suite in parallel (pytest-xdist, as scripts/test runs it): no two workers share a file."""

from __future__ import annotations

import os

from tests.conftest import WORKER, worker_paths


def test_each_worker_gets_its_own_kivy_home_and_default_database() -> None:
    env = {"KIVY_HOME": "/x/.venv/kivy-home", "COMPANION_DB": "/x/.venv/test-default.db", "HOME": "/root"}
    gw0, gw1 = worker_paths(env, "gw0"), worker_paths(env, "gw1")
    assert gw0 == {"KIVY_HOME": "/x/.venv/kivy-home-gw0", "COMPANION_DB": "/x/.venv/test-default-gw0.db"}
    assert set(gw0.values()).isdisjoint(gw1.values())
    assert worker_paths({"HOME": "/root"}, "gw0") == {}  # unset: Kivy's and the tests' own defaults


def test_this_worker_uses_its_own_paths() -> None:
    """Under xdist, this process's KIVY_HOME (where set) carries its worker id."""
    if WORKER and os.environ.get("KIVY_HOME"):
        assert os.environ["KIVY_HOME"].endswith(f"-{WORKER}")
    assert bool(WORKER) == ("PYTEST_XDIST_WORKER" in os.environ)


class _Item:
    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid


def test_the_workers_take_the_slowest_files_first_each_file_kept_whole() -> None:
    from tests.conftest import slowest_first

    items = [_Item(n) for n in ("tests/a.py::t1", "tests/b.py::t1", "tests/a.py::t2", "tests/c.py::t1",
                                "tests/d.py::t1", "tests/b.py::t2[x]", "tests/c.py::t2", "tests/e.py::t1",
                                "tests/e.py::t2")]
    order = [i.nodeid for i in slowest_first(items, {"tests/c.py": 90.0, "tests/b.py": 30.0})]  # type: ignore[arg-type]
    # timed files slowest first, the others after them, the most tests first (ties as collected); a
    # file's tests together and in their order
    assert order == ["tests/c.py::t1", "tests/c.py::t2", "tests/b.py::t1", "tests/b.py::t2[x]",
                     "tests/a.py::t1", "tests/a.py::t2", "tests/e.py::t1", "tests/e.py::t2", "tests/d.py::t1"]
    assert [i.nodeid for i in slowest_first(items, {"tests/d.py": 1.0})] == [  # type: ignore[arg-type]
        "tests/d.py::t1", "tests/a.py::t1", "tests/a.py::t2", "tests/b.py::t1", "tests/b.py::t2[x]",
        "tests/c.py::t1", "tests/c.py::t2", "tests/e.py::t1", "tests/e.py::t2"]


def test_the_file_times_name_test_files_and_scripts_test_keeps_their_order() -> None:
    import json

    from tests.conftest import FILE_TIMES, ROOT

    times = json.loads(FILE_TIMES.read_text())
    assert times and all((ROOT / path).is_file() and path.startswith("tests/") for path in times), \
        [p for p in times if not (ROOT / p).is_file()]
    assert list(times.values()) == sorted(times.values(), reverse=True)
    # without it pytest-xdist hands out the files with the most tests first, not the slowest
    assert "--no-loadscope-reorder" in (ROOT / "scripts" / "test").read_text()
