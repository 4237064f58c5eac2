"""Issue 30: ``crash.log`` is capped and rotated and never written through a link; a game number
too big for SQLite is a sentence."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion import cli
from companion.crashlog import append_crash
from companion.limits import MAX_CRASH_LOG_BYTES


def test_capped_and_rotated_keeping_one_old_file(tmp_path: Path) -> None:
    log = tmp_path / "crash.log"
    for i in range(40):
        append_crash(log, f"--- entry {i}\n" + "x" * 90 + "\n", limit=1000)
        assert log.stat().st_size <= 1000
    old = tmp_path / "crash.log.1"
    assert old.stat().st_size <= 1000 and sorted(p.name for p in tmp_path.iterdir()) == ["crash.log", "crash.log.1"]
    assert "entry 39" in log.read_text() and "entry 0\n" not in log.read_text() + old.read_text()
    append_crash(log, "y" * 5000, limit=1000)  # one entry alone is cut to half the cap
    assert log.stat().st_size <= 1000 and log.read_text().endswith("[...]\n" + "y" * 500)
    assert oct(log.stat().st_mode & 0o777) == oct(0o600)


def test_never_through_a_link(tmp_path: Path) -> None:
    victim = tmp_path / "notes.txt"
    victim.write_text("mine")
    log = tmp_path / "crash.log"
    log.symlink_to(victim)
    with pytest.raises(OSError):
        append_crash(log, "boom\n")
    assert victim.read_text() == "mine" and log.is_symlink()
    dangling = tmp_path / "d" / "crash.log"
    dangling.parent.mkdir()
    dangling.symlink_to(tmp_path / "created-by-the-link")
    with pytest.raises(OSError):
        append_crash(dangling, "boom\n")
    assert not (tmp_path / "created-by-the-link").exists()


def _boom(argv: list[str]) -> int:
    raise RuntimeError("a bug \x1b[2J")


def test_the_command_writes_it_beside_the_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "family.db"))
    monkeypatch.setattr(cli, "games_main", _boom)
    log = tmp_path / "crash.log"
    log.write_bytes(b"z" * (MAX_CRASH_LOG_BYTES - 10))
    assert cli.main(["games"]) == 1
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: a bug ?[2J" in err and f"details in {log}" in err
    assert "RuntimeError" in log.read_text() and (tmp_path / "crash.log.1").stat().st_size == MAX_CRASH_LOG_BYTES - 10
    log.unlink()
    victim = tmp_path / "notes.txt"
    victim.write_text("mine")
    os.symlink(victim, log)
    assert cli.main(["games"]) == 1
    err = capsys.readouterr().err
    assert "internal error" in err and "details in" not in err
    assert victim.read_text() == "mine"


@pytest.mark.parametrize("number", ["1180591620717411303424", "9223372036854775808", "0", "-3", "²", "9" * 5000])
def test_history_export_of_a_number_sqlite_cannot_hold(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       number: str) -> None:
    assert cli.main(["history", "--db", str(tmp_path / "g.db"), "--export", number]) == 2
    err = capsys.readouterr().err
    assert "is not a game number" in err and "internal error" not in err
