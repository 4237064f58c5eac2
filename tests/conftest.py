from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
ARTIFACTS = ROOT / "artifacts"

# Under pytest-xdist (scripts/test runs the suite on every core) each worker process gets its own
# Kivy home and default database, so no two workers write one file: the names scripts/test gives
# (or the caller's) with the worker's id added, set here before any test module imports Kivy.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def worker_paths(env: dict[str, str], worker: str) -> dict[str, str]:
    """``KIVY_HOME`` and ``COMPANION_DB`` of ``env`` (those set) made the worker's own."""
    out = {}
    if env.get("KIVY_HOME"):
        out["KIVY_HOME"] = f"{env['KIVY_HOME']}-{worker}"
    if env.get("COMPANION_DB"):
        db = Path(env["COMPANION_DB"])
        out["COMPANION_DB"] = str(db.with_name(f"{db.stem}-{worker}{db.suffix}"))
    return out


if WORKER:
    os.environ.update(worker_paths(dict(os.environ), WORKER))

@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "companion.db"


@pytest.fixture(autouse=True)
def _isolated_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No test ever touches the user's real database."""
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "default.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    yield


# pytest-xdist's `--dist loadfile` hands whole files to the workers in the order they are
# collected, and each worker asks for the next when it is nearly idle: a slow file handed out last
# keeps one worker busy long after the other has finished. So each worker collects the files
# slowest first (tests/file_times.json: seconds per file, measured), the longest-processing-time-
# first rule, and the last files handed out are short ones; files it does not name go after them,
# the most tests first (xdist's own order). scripts/test passes --no-loadscope-reorder, so xdist
# keeps this order. A serial run keeps pytest's own order.
FILE_TIMES = Path(__file__).with_name("file_times.json")


def slowest_first(items: list[pytest.Item], times: dict[str, float]) -> list[pytest.Item]:
    """``items`` with each file's tests together and in their order: the files ``times`` names
    (seconds by path from the repository root) slowest first, then the others, the most tests
    first (ties in the order they came)."""
    first: dict[str, int] = {}
    count: dict[str, int] = {}
    for i, item in enumerate(items):
        first.setdefault(_file(item), i)
        count[_file(item)] = count.get(_file(item), 0) + 1

    def key(item: pytest.Item) -> tuple[bool, float, int, int]:
        path = _file(item)
        return path not in times, -times.get(path, 0.0), -count[path], first[path]

    return sorted(items, key=key)


def _file(item: pytest.Item) -> str:
    return item.nodeid.split("::")[0]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if WORKER and FILE_TIMES.is_file():
        items[:] = slowest_first(items, json.loads(FILE_TIMES.read_text()))
