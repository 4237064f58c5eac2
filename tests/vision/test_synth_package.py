"""The synthetic generators live in ``vision.synth`` (training and test tools): the runtime
modules of ``vision`` never load them, and the reader's colour names are the generator's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def test_no_runtime_vision_module_loads_a_generator() -> None:
    code = (
        "import importlib, pkgutil, sys, vision\n"
        "for m in pkgutil.iter_modules(vision.__path__, 'vision.'):\n"
        "    if m.name != 'vision.synth': importlib.import_module(m.name)\n"
        "print(','.join(sorted(n for n in sys.modules if n.startswith('vision.synth'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == ""


def test_no_generator_left_at_the_top_of_vision() -> None:
    left = sorted(p.name for p in (ROOT / "vision").glob("*.py")
                  if p.name.startswith("synth_") or p.name == "board_scenes.py")
    assert left == []


def test_reader_and_generator_name_colours_alike() -> None:
    from vision.dice import body_name
    from vision.synth import dice as synth_dice

    assert synth_dice.colour_name is body_name.__globals__["colour_name"]
    assert body_name((30, 30, 200)) == "red" and body_name(None) == "unknown"
    assert synth_dice.colour_name(np.float32([30, 30, 200])) == "red"
