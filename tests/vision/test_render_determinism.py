"""One seed, the same scenes to the byte: the three 3-D families rendered twice, each time in a
fresh process with another hash seed (Python orders a set of strings by their hashes, which
change from process to process), and the third family with one worker and with two. The first
family's Kilkenny cats drew their colours' jitter in a set's order, so one seed gave other cats
run to run (docs/readme/board.md, session 19, "tidy")."""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

RENDER = """
import sys
from pathlib import Path
family, root, jobs = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
kw = dict(seed=5202, games=["kilkenny", "chopchop"], group_size=2)
if family == "3d":
    from vision.synth.board3d import write_3d_dataset
    write_3d_dataset(root, 4, **kw)
elif family == "b":
    from vision.synth.scene_b import write_b_dataset
    write_b_dataset(root, 4, **kw)
else:
    from vision.synth.scene_c import write_c_dataset
    write_c_dataset(root, 4, jobs=jobs, frame=(640, 480), **kw)
"""


def _render(family: str, root: Path, hash_seed: int, jobs: int = 1) -> list[Path]:
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed)}
    subprocess.run([sys.executable, "-c", RENDER, family, str(root), str(jobs)], cwd=ROOT, env=env, check=True,
                   timeout=600)
    return sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file())


@pytest.mark.slow
@pytest.mark.parametrize("family", ["3d", "b", "c"])
def test_one_seed_renders_the_same_bytes_in_every_process(family: str, tmp_path: Path) -> None:
    a = _render(family, tmp_path / "a", 1)
    b = _render(family, tmp_path / "b", 2, jobs=2)
    assert a == b and len([p for p in a if p.suffix == ".jpg"]) == 4, (a, b)
    differ = [str(p) for p in a if not filecmp.cmp(tmp_path / "a" / p, tmp_path / "b" / p, shallow=False)]
    assert not differ, differ
