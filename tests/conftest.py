from __future__ import annotations

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
