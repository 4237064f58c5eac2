"""A rendered group of scenes read as the bench reads it (its first scene, the start, learned;
occluded squares left out), for the reader tests made from rendered scenes; and a rendered group
written once (``c_group``, ``a_group``), read by every test that renders the same, and kept under
.venv/test-cache/ for later runs of the same code (``stored``)."""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import re
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pytest

from companion.boards import Board
from vision.imageload import load_image
from vision.piece_config import PieceConfig
from vision.pieces import BoardReader, comparable
from vision.synth.board3d import write_3d_dataset
from vision.synth.scene_c import write_c_group


def run_dir(factory: pytest.TempPathFactory) -> Path:
    """This test run's own folder, the one every pytest-xdist worker of the run shares (a
    worker's base folder lies in it; a new run gets a new one, so nothing is kept between runs)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


STORED = Path(__file__).resolve().parents[2] / ".venv" / "test-cache" / "rendered"
"""Rendered groups kept between runs (``stored``), a folder per version of the code that renders."""
STORED_DAYS = 2.0
"""A version's folder not used for this long is deleted when another version first stores."""


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of everything a rendered group can depend on: every file under companion/ and
    vision/ (the renderers, boards, pieces, printing; any change there makes a new version), the
    photo sets' labels that the third family's table textures are cut from, and the versions of
    Python, NumPy and OpenCV."""
    import cv2

    from vision.synth.scene_c_world import PHOTO_SETS, datasets_dir

    digest = hashlib.sha256(f"{sys.version} {np.__version__} {cv2.__version__}".encode())
    for name in PHOTO_SETS:
        labels = datasets_dir() / name / "labels.json"
        digest.update(str(labels).encode() + b"\0" + (labels.read_bytes() if labels.is_file() else b"-") + b"\0")
    root = STORED.parents[2]
    for top in ("companion", "vision"):
        for path in sorted((root / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def stored(factory: pytest.TempPathFactory) -> Path:
    """Where the groups of this version of the code are kept: under .venv/test-cache/rendered/,
    so a run renders only what no earlier run of the same code rendered (each group is
    deterministic in its seed; tests/vision/test_render_determinism.py). TEST_RENDER_CACHE=0: the
    run's own folder, nothing kept; TEST_RENDER_CACHE=FOLDER: kept in FOLDER instead."""
    setting = os.environ.get("TEST_RENDER_CACHE", "")
    if setting == "0":
        return run_dir(factory) / "rendered"
    top = Path(setting) if setting not in ("", "1") else STORED
    folder = top / code_version()
    if not folder.is_dir():
        top.mkdir(parents=True, exist_ok=True)
        for old in top.iterdir():  # other versions' folders, unused for days
            used = old / ".used"
            if used.is_file() and time.time() - used.stat().st_mtime > STORED_DAYS * 86400:
                shutil.rmtree(old, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".used").touch()
    return folder


def _once(factory: pytest.TempPathFactory, key: str, write: Callable[[Path], None],
          cache: Path | None = None) -> tuple[Path, list[dict[str, Any]]]:
    """The folder and scenes of ``key``'s group, written by ``write`` (into the folder, with its
    labels.json) by the first test that asks for it, into ``cache`` (default: this run's own
    folder); the others, in any worker (and any later run, for a ``stored`` cache), wait for it
    and read the same files. Tests only read them."""
    cache = cache if cache is not None else run_dir(factory) / "rendered"
    cache.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", key)
    root = cache / name
    with open(cache / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (root / "labels.json").is_file():
            part = cache / f"{name}.part"
            shutil.rmtree(part, ignore_errors=True)  # a test that failed while writing it
            part.mkdir()
            write(part)
            part.rename(root)
    return root, list(json.loads((root / "labels.json").read_text())["scenes"])


def need_photo_tables() -> None:
    """Skip where the dice photo sets the third family cuts its table tops from are absent
    (``vision.synth.scene_c_world.datasets_dir``: ``../shared/datasets``): there a seed draws
    other scenes (oilcloth tables, another random stream) than the ones a test was measured on."""
    from vision.synth.scene_c_world import PHOTO_SETS, datasets_dir

    missing = [name for name in PHOTO_SETS if not (datasets_dir() / name / "labels.json").is_file()]
    if missing:
        pytest.skip(f"the third 3-D family's tables are cut from shared/datasets' photos ({', '.join(missing)} "
                    "not present): without them this seed draws other scenes than the test was measured on")


def c_group(factory: pytest.TempPathFactory, game: str, group_no: int, size: int, first: int, seed: int,
            frame: tuple[int, int] | None = None) -> tuple[Path, list[dict[str, Any]]]:
    """``write_c_group``'s group (the third 3-D family) rendered once (``stored``): its folder (with
    a labels.json of its scenes) and its scenes. Another renderer's group is ``_once`` with its
    own writer. Skipped without the photo sets (``need_photo_tables``)."""
    need_photo_tables()
    def write(root: Path) -> None:
        (root / "images").mkdir()
        scenes = write_c_group(root, game, group_no, size, first, seed, frame=frame)
        (root / "labels.json").write_text(json.dumps({"scenes": scenes}))

    return _once(factory, f"c-{game}-{group_no}-{size}-{first}-{seed}-{frame}", write, stored(factory))


def a_group(factory: pytest.TempPathFactory, game: str, count: int, seed: int) -> tuple[Path, list[dict[str, Any]]]:
    """``write_3d_dataset``'s scenes of one game (the first 3-D family, groups of 8) rendered once
    (``stored``): its folder and its scenes."""
    def write(root: Path) -> None:
        write_3d_dataset(root, count, seed=seed, games=[game], group_size=8)

    return _once(factory, f"a-{game}-{count}-{seed}", write, stored(factory))


def c_group_images(factory: pytest.TempPathFactory, game: str, group_no: int, size: int, first: int, seed: int,
                   frame: tuple[int, int] | None = None) -> list[tuple[np.ndarray, dict[str, str]]]:
    """``c_group``'s scenes as (image, squares), the start first."""
    root, scenes = c_group(factory, game, group_no, size, first, seed, frame)
    return [(load_image(root / str(sc["file"])).image, dict(sc["squares"])) for sc in scenes]


def kind_confusion(group: tuple[Path, list[dict[str, Any]]], board: Board, config: PieceConfig) -> Counter[tuple[str, str]]:
    """(truth's kind, read kind) -> squares over a group's scenes but its start (learnt from), kinds
    without their colour or direction ("-" empty), occluded and unreportable squares left out."""
    root, scenes = group
    reader = BoardReader(board, config=config)
    start = next(s for s in scenes if s.get("learn"))
    reader.learn(load_image(root / str(start["file"])).image, dict(start["squares"]))
    out: Counter[tuple[str, str]] = Counter()
    for s in scenes:
        if s is start:
            continue
        got = reader.read_spots(reader.read(load_image(root / str(s["file"])).image, track=False))
        truth = comparable(board, dict(s["squares"]))
        skip = set(s.get("occluded", ())) | set(s.get("unreportable", ()))
        for sid in reader.observable:
            if sid not in skip:
                out[((truth.get(sid) or "-").split(":")[0], (got.get(sid) or "-").split(":")[0])] += 1
    return out


def piece_counts(root: Path, board: Board, config: PieceConfig) -> tuple[int, int, int, int]:
    """(pieces, pieces read right, pieces read empty, empty squares read as a piece) over the
    reads of the group in ``root``'s labels.json."""
    scenes = json.loads((root / "labels.json").read_text())["scenes"]
    reader = BoardReader(board, config=config)
    reader.learn(load_image(root / scenes[0]["file"]).image, dict(scenes[0]["squares"]))
    pieces = right = missed = invented = 0
    for sc in scenes[1:]:
        got = reader.read_spots(reader.read(load_image(root / sc["file"]).image, track=False))
        truth = comparable(board, dict(sc["squares"]))
        for sid in reader.observable:
            if sid in set(sc.get("occluded", ())):
                continue
            want, read = truth.get(sid), got.get(sid)
            if want:
                pieces += 1
                right += read == want
                missed += read is None
            else:
                invented += read is not None
    return pieces, right, missed, invented


def wrong_squares(scenes: list[dict[str, Any]], root: Path, board: Board,
                  config: PieceConfig) -> list[tuple[str, str, str | None, str | None]]:
    """(file, square, truth, read) of every square of ``scenes`` (under ``root``) read wrong."""
    reader = BoardReader(board, config=config)
    reader.learn(load_image(root / str(scenes[0]["file"])).image, dict(scenes[0]["squares"]))
    out = []
    for sc in scenes[1:]:
        got = reader.read_spots(reader.read(load_image(root / str(sc["file"])).image, track=False))
        truth = comparable(board, dict(sc["squares"]))
        for sid in reader.observable:
            if sid not in set(sc.get("occluded", ())) and truth.get(sid) != got.get(sid):
                out.append((str(sc["file"]), sid, truth.get(sid), got.get(sid)))
    return out


class CubeCounts(NamedTuple):
    cubes: int
    found: int
    """Read as a cube."""
    right: int
    """Read with the right arrow."""
    asked: int
    """Read as a cube whose arrow is asked (``cube:?``)."""
    wrong: int
    """Read with a wrong arrow (not asked)."""
    false: int
    """Other squares read as a cube."""
    false_sure: int
    """Of those, read with the reading's confidence: the app takes them without asking."""


def cube_counts(group: list[tuple[np.ndarray, dict[str, str]]], board: Board, config: PieceConfig) -> CubeCounts:
    """How a Qubism group's reads (``(image, squares)``, the first the start, learned: pawns
    only, no cube to learn from) found its cubes."""
    reader = BoardReader(board, config=config)
    reader.learn(group[0][0], group[0][1])
    cubes = found = right = asked = wrong = false = false_sure = 0
    for image, squares in group[1:]:
        reading = reader.read(image, track=False)
        got = reader.read_spots(reading)
        sure = {s for s, (t, c) in reading.squares.items() if t is not None and c >= reading.min_confidence}
        truth = comparable(board, squares)
        for sid in reader.observable:
            want, read = truth.get(sid, ""), got.get(sid, "")
            if want.startswith("cube"):
                cubes += 1
                found += read.startswith("cube")
                right += read == want
                asked += read == "cube:?"
                wrong += read.startswith("cube") and read not in (want, "cube:?")
            else:
                false += read.startswith("cube")
                false_sure += read.startswith("cube") and sid in sure
    return CubeCounts(cubes, found, right, asked, wrong, false, false_sure)
