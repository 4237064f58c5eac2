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
