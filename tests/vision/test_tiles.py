"""Chop! Chop! tiles: learn from two confirmed reveals per type, then propose correctly."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.tiles import TileLearner

KINDS = ("cheese", "crockery", "knife", "fork", "plus1")


def _tile(kind: str, rng: np.random.Generator) -> np.ndarray:
    """A turned tile as a camera sees it: drawn face, random light, tilt, blur and noise."""
    s = 64
    img = np.full((s, s, 3), (205, 225, 235), np.uint8)
    if kind == "cheese":
        cv2.fillPoly(img, [np.int32([[10, 50], [54, 50], [54, 22], [10, 38]])], (40, 200, 240))
        cv2.circle(img, (30, 42), 4, (30, 150, 190), -1)
    elif kind == "crockery":
        cv2.circle(img, (32, 32), 20, (245, 245, 245), -1)
        cv2.circle(img, (32, 32), 20, (160, 90, 40), 3)
    elif kind == "knife":
        cv2.line(img, (30, 34), (54, 10), (150, 150, 150), 10)
        cv2.line(img, (10, 54), (30, 34), (40, 70, 130), 10)
    elif kind == "fork":
        cv2.line(img, (32, 58), (32, 24), (60, 60, 60), 6)
        cv2.rectangle(img, (20, 20), (44, 26), (60, 60, 60), -1)
        for x in (21, 32, 43):
            cv2.line(img, (x, 24), (x, 6), (60, 60, 60), 4)
    elif kind == "plus1":
        cv2.putText(img, "+1", (10, 44), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (30, 30, 160), 3)
    m = cv2.getRotationMatrix2D((32, 32), float(rng.uniform(-8, 8)), float(rng.uniform(0.92, 1.05)))
    m[:, 2] += rng.uniform(-2, 2, 2)
    img = cv2.warpAffine(img, m, (s, s), borderMode=cv2.BORDER_REPLICATE)
    f = img.astype(np.float32) * rng.uniform(0.6, 1.15) * rng.uniform(0.93, 1.07, 3)
    f = cv2.GaussianBlur(f, (0, 0), float(rng.uniform(0.3, 1.2)))
    f += rng.normal(0, 4, f.shape)
    return np.clip(f, 0, 255).astype(np.uint8)


def test_two_confirmed_examples_then_correct_proposals(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    learner = TileLearner()
    for kind in KINDS:
        for _ in range(2):
            learner.confirm(_tile(kind, rng), kind)
    right = total = 0
    for kind in KINDS:
        for _ in range(6):
            proposed, conf = learner.propose(_tile(kind, rng))
            total += 1
            right += proposed == kind
            assert proposed in (kind, None), f"{kind} proposed as {proposed} ({conf:.2f})"
    assert right >= total * 0.8
    # saved with the board, loaded back: same proposals
    path = tmp_path / "tiles.json"
    learner.save(path)
    again = TileLearner.load(path)
    probe = _tile("cheese", rng)
    assert again.propose(probe)[0] == learner.propose(probe)[0] == "cheese"


def test_unknown_look_proposes_nothing() -> None:
    rng = np.random.default_rng(3)
    learner = TileLearner()
    for kind in ("cheese", "crockery"):
        for _ in range(2):
            learner.confirm(_tile(kind, rng), kind)
    odd = np.zeros((64, 64, 3), np.uint8)
    odd[::8] = (255, 0, 255)
    assert learner.propose(odd)[0] is None
    assert TileLearner().propose(_tile("knife", rng)) == (None, 0.0)
