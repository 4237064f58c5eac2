"""`companion app` arguments (no window needed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ui.app import build_parser, parse_size

ROOT = Path(__file__).resolve().parents[2]


def test_size_parses_and_rejects_nonsense() -> None:
    assert parse_size("1280x720") == (1280, 720)
    import argparse

    with pytest.raises(argparse.ArgumentTypeError):
        parse_size("big")
    args = build_parser().parse_args(["--demo", "--size", "800x480", "--fullscreen"])
    assert args.demo and args.fullscreen and args.size == (800, 480)


def test_companion_app_help_runs_without_a_window() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "companion", "app", "--help"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert out.returncode == 0
    assert "--demo" in out.stdout and "--fullscreen" in out.stdout
    assert "kivy" not in out.stderr.lower()
