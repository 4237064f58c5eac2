"""The rendered groups written once per test run (``tests.vision.group_reads``): every test that
asks for the same group reads the one written first; a write that broke off is written again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.vision.group_reads import _once, run_dir


def test_a_group_is_written_once_per_run_and_a_broken_write_again(tmp_path_factory: pytest.TempPathFactory) -> None:
    written: list[Path] = []

    def write(root: Path) -> None:
        written.append(root)
        (root / "labels.json").write_text(json.dumps({"scenes": [{"file": "images/a.jpg"}]}))

    first, scenes = _once(tmp_path_factory, "test-once/a", write)
    again, _ = _once(tmp_path_factory, "test-once/a", write)
    assert first == again and len(written) == 1 and scenes == [{"file": "images/a.jpg"}]
    assert first.parent == run_dir(tmp_path_factory) / "rendered" and "/" not in first.name
    _once(tmp_path_factory, "test-once/b", write)
    assert len(written) == 2  # another key, another group

    def broken(root: Path) -> None:
        (root / "half.jpg").write_bytes(b"")
        raise RuntimeError("the renderer stopped")

    with pytest.raises(RuntimeError):
        _once(tmp_path_factory, "test-once/c", broken)
    root, _ = _once(tmp_path_factory, "test-once/c", write)
    assert len(written) == 3 and (root / "labels.json").is_file() and not (root / "half.jpg").exists()
