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


def test_stored_groups_are_kept_per_version_of_the_code_and_old_versions_go(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import time

    from tests.vision import group_reads

    monkeypatch.setattr(group_reads, "STORED", tmp_path / ".venv" / "test-cache" / "rendered")
    monkeypatch.delenv("TEST_RENDER_CACHE", raising=False)
    for top in ("companion", "vision"):
        (tmp_path / top).mkdir()
        (tmp_path / top / "code.py").write_text("A = 1\n")
    group_reads.code_version.cache_clear()
    try:
        first = group_reads.code_version()
        folder = group_reads.stored(tmp_path_factory)
        assert folder == group_reads.STORED / first and (folder / ".used").is_file()
        written: list[Path] = []

        def write(root: Path) -> None:
            written.append(root)
            (root / "labels.json").write_text(json.dumps({"scenes": [{"file": "images/a.jpg"}]}))

        root, _ = group_reads._once(tmp_path_factory, "group", write, folder)
        again, _ = group_reads._once(tmp_path_factory, "group", write, group_reads.stored(tmp_path_factory))
        assert again == root and len(written) == 1 and root.parent == folder  # a later run: not rendered again
        old, recent = group_reads.STORED / "old", group_reads.STORED / "recent"
        for other, days in ((old, 3.0), (recent, 1.0)):
            (other / "group").mkdir(parents=True)
            (other / ".used").touch()
            then = time.time() - days * 86400
            os.utime(other / ".used", (then, then))
        (tmp_path / "vision" / "code.py").write_text("A = 2\n")  # the renderer changed: a new version
        group_reads.code_version.cache_clear()
        assert group_reads.code_version() != first
        newer = group_reads.stored(tmp_path_factory)
        assert newer != folder and not (newer / "group").exists()
        assert folder.is_dir() and recent.is_dir() and not old.exists()  # unused for 3 days: deleted
        monkeypatch.setenv("TEST_RENDER_CACHE", "0")
        assert group_reads.stored(tmp_path_factory) == run_dir(tmp_path_factory) / "rendered"
        monkeypatch.setenv("TEST_RENDER_CACHE", str(tmp_path / "elsewhere"))
        assert group_reads.stored(tmp_path_factory) == tmp_path / "elsewhere" / group_reads.code_version()
    finally:
        group_reads.code_version.cache_clear()
