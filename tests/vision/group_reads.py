"""A rendered group of scenes read as the bench reads it (its first scene, the start, learned;
occluded squares left out), for the reader tests made from rendered scenes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from companion.boards import Board
from vision.imageload import load_image
from vision.piece_config import PieceConfig
from vision.pieces import BoardReader, comparable


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
    cubes = found = right = wrong = false = false_sure = 0
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
                wrong += read.startswith("cube") and read not in (want, "cube:?")
            else:
                false += read.startswith("cube")
                false_sure += read.startswith("cube") and sid in sure
    return CubeCounts(cubes, found, right, wrong, false, false_sure)
