"""Size caps on every file the core reads (companion.limits): refused before reading, clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.boards import BoardError, load_board, load_board_file
from companion.limits import (
    MAX_BOARD_FILE_BYTES,
    MAX_SETTING_BYTES,
    FileTooLargeError,
    read_bytes_capped,
    read_text_capped,
)
from companion.store import Store


def test_read_capped_refuses_before_reading(tmp_path: Path) -> None:
    p = tmp_path / "f.json"
    p.write_bytes(b"x" * 100)
    assert read_bytes_capped(p, 100, "a thing") == b"x" * 100
    with pytest.raises(FileTooLargeError) as e:
        read_text_capped(p, 99, "a thing")
    assert str(e.value) == f"{p} is 100 bytes, more than the 99 bytes the companion reads for a thing: choose another file."
    assert isinstance(e.value, OSError)


def test_read_capped_on_an_endless_file() -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    with pytest.raises(FileTooLargeError, match="bigger than 1.0 KiB"):
        read_bytes_capped("/dev/zero", 1024, "a thing")


def test_board_file_over_the_cap(tmp_path: Path) -> None:
    good = tmp_path / "own.toml"
    good.write_bytes(b"# a comment\n" + b"#" * 100 + b"\n")
    big = tmp_path / "huge.toml"
    big.write_bytes(b"#" * (MAX_BOARD_FILE_BYTES + 1))
    with pytest.raises(BoardError, match="more than the 1.0 MiB the companion reads for a board file"):
        load_board_file(big)
    if Path("/dev/zero").exists():  # a "file" that never ends
        with pytest.raises(BoardError, match="bigger than 1.0 MiB"):
            load_board("/dev/zero")
    bad = tmp_path / "latin.toml"
    bad.write_bytes(b"title = '\xe9'\n")
    with pytest.raises(BoardError, match="not UTF-8"):
        load_board_file(bad)


def test_shipped_boards_are_far_under_the_cap() -> None:
    root = Path(__file__).resolve().parents[2] / "companion" / "boards"
    assert max(p.stat().st_size for p in root.glob("*.toml")) < MAX_BOARD_FILE_BYTES // 10


def test_oversized_or_corrupt_setting_counts_as_missing(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c.db") as store:
        store.set_setting("ui.camera", "demo")
        store.set_setting("ui.big", "x" * MAX_SETTING_BYTES)
        store._conn.execute("INSERT INTO settings(key, value) VALUES ('ui.deep', ?)", ("[" * 100_000 + "]" * 100_000,))
        assert store.get_setting("ui.big", "default") == "default"
        assert store.get_setting("ui.deep", "default") == "default"
        assert store.get_setting("ui.camera") == "demo"
        assert store.settings() == {"ui.camera": "demo"}
