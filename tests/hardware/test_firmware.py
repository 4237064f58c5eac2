"""The Arduino sketch, compiled for the host with a tiny Arduino stand-in: what it sends parses."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hardware.protocol import Expected, Hello, Rolling, Throw, decode_all

HERE = Path(__file__).resolve().parent


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_the_sketch_speaks_the_protocol(tmp_path: Path) -> None:
    exe = tmp_path / "die"
    subprocess.run(["g++", "-std=c++11", "-Wall", "-Werror", "-o", str(exe), str(HERE / "firmware" / "run_sketch.cpp")],
                   check=True, capture_output=True, timeout=120)
    out = subprocess.run([str(exe)], check=True, capture_output=True, timeout=30).stdout
    assert b"\r\n" in out
    msgs = decode_all([out], Expected.for_game("katenmuis"))
    kinds = [type(m) for m in msgs]
    assert kinds[0] is Hello and set(kinds) == {Hello, Rolling, Throw}
    throws = [m for m in msgs if isinstance(m, Throw)]
    assert len(throws) == 4  # three presses and one shake, each one throw
    assert kinds[1] is Rolling  # ROLLING comes before the throw
