"""A second-family scene (``vision.synth.scene_b``) with a mug hiding the corner marker nearest
the camera, at a steep tilt (36-45 degrees) through a strong barrel lens (k1 0.15-0.22): the
pose then comes from three markers. For the tests of the print's alignment
(``SpotFeatures.refine``); written for session 19's handfalse (docs/readme/board.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from companion.boards import Board
from vision.synth.board3d_play import group_layouts
from vision.synth.raster3d import Mesh
from vision.synth.scene_b import SceneB, make_setup_b, render_b_scene
from vision.synth.scene_b_world import table_things


def mug_scene(board: Board, seed: int) -> tuple[SceneB, Any]:
    """The first scene of a group whose camera is steep and strongly bent, a mug over a marker;
    returns the scene and its setup (``SetupB``: the camera is ``setup.camera``)."""
    rng = np.random.default_rng(seed)
    while True:
        setup = make_setup_b(board, rng, 45.0)
        if setup.camera.tilt_deg >= 36 and setup.camera.k[0] >= 0.15:
            break
    cups: list[Mesh] = []
    while not cups:
        cups = [m for m in table_things(board, rng) if np.ptp(m.v[:, 2]) > 90]  # a mug (95 mm tall)
    cup = cups[0]
    foot = setup.camera.C[:2]
    mk = min(board.markers, key=lambda m: float(np.linalg.norm(np.mean(m.corners(), axis=0) - foot)))
    mc = np.mean(np.asarray(mk.corners(), float), axis=0)
    towards = (foot - mc) / np.linalg.norm(foot - mc)
    centre = mc + towards * (0.5 * float(np.ptp(cup.v[:, 0])) + float(rng.uniform(5, 25)))
    v = cup.v.copy()
    v[:, :2] += centre - 0.5 * (v[:, :2].min(axis=0) + v[:, :2].max(axis=0))
    setup = replace(setup, things=[Mesh(v, cup.f, cup.n, cup.colour, cup.obj, cup.gloss)])
    layout = group_layouts(board, 2, rng, transient=True)[0]
    return render_b_scene(board, layout, setup, rng, hand=False), setup


def truth_px(setup: Any, scene: SceneB, pts_mm: np.ndarray) -> np.ndarray:
    """Where board points (mm) appear in the scene's frame, through its camera and lens."""
    cam = setup.camera
    h = scene.homography
    q = np.column_stack([pts_mm, np.ones(len(pts_mm))]) @ np.asarray(h, np.float64).T
    pin = q[:, :2] / q[:, 2:]
    out: np.ndarray = cam.distort(pin)
    return out
