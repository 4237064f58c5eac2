"""Qubism's markers clear of an edge cube, and boards printed with the older layout still read."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.boards import BoardError, parse_board
from vision.boardcli import main
from vision.boarddefaults import board_for
from vision.boardlocate import BoardTracker, detect_markers, locate_board
from vision.calibrate import calibrate_grid
from vision.pieces import BoardReader, comparable
from vision.printing import render_board
from vision.synth.board import random_look, random_position, render_scene
from vision.synth.board_alt import alt_look, render_alt_scene

NEW, OLD = (16, 17, 18, 19), (12, 13, 14, 15)


def test_no_marker_within_reach_of_a_30mm_cube_on_an_edge_square_at_45_degrees() -> None:
    board = board_for("qubism")
    cells = [sq for sq in board.squares.values() if sq.cell is not None]
    x0 = min(p[0] for sq in cells for p in sq.polygon)
    x1 = max(p[0] for sq in cells for p in sq.polygon)
    y0 = min(p[1] for sq in cells for p in sq.polygon)
    y1 = max(p[1] for sq in cells for p in sq.polygon)
    cell = x1 - x0
    cell /= 5
    inset = (cell - 30.0) / 2  # a 30 mm cube in the middle of its square
    reach = 30.0 * math.tan(math.radians(45)) - inset  # beyond the play area, seen at 45 degrees
    for m in board.markers:
        # the nearest edge of the marker's black square to the play area, with its 3 mm quiet zone
        gap = max(x0 - (m.x_mm + m.size_mm), m.x_mm - x1, y0 - (m.y_mm + m.size_mm), m.y_mm - y1) - 3.0
        assert gap > reach, (m.id, gap, reach)
        assert 5.0 <= m.x_mm and m.x_mm + m.size_mm <= board.width_mm - 5.0  # inside a printer's margin
    assert {m.id for m in board.markers} == set(NEW)
    assert {m.id for layout in board.older_markers for m in layout} == set(OLD)


def test_the_print_carries_the_new_markers_only() -> None:
    board = board_for("qubism")
    art = render_board(board, 3.0)
    seen = detect_markers(art, board)
    assert set(seen) == set(NEW)
    for m in board.markers:  # where the board file says
        assert np.allclose(seen[m.id][0], (m.x_mm * 3.0, m.y_mm * 3.0), atol=3.0)


@pytest.mark.parametrize("layout", ["new", "old"])
def test_both_prints_are_found_and_read(layout: str) -> None:
    board = board_for("qubism")
    printed = board if layout == "new" else board.printed_as(OLD)
    assert {m.id for m in printed.markers} == set(NEW if layout == "new" else OLD)
    rng = np.random.default_rng(4)
    look = random_look(board, rng)
    ref = render_scene(printed, random_position(board, rng, reference=True), look, rng,
                       hand=False, hide_marker=False)
    reader = BoardReader(board)  # the shipped board file, whichever print lies on the table
    assert reader.learn(ref.image, ref.squares) > 0
    right = total = 0
    for k in range(3):
        scene = render_scene(printed, random_position(board, rng), look, rng, hand=False, hide_marker=k == 2)
        pose = locate_board(scene.image, board)
        assert pose.found and set(pose.used) <= set(NEW if layout == "new" else OLD)
        # the pose is the true one: board millimetres land where the renderer put them
        pts = np.float64([[60, 20], [240, 190]])
        assert np.allclose(pose.to_pixels(pts), cv2.perspectiveTransform(pts.reshape(-1, 1, 2),
                                                                           scene.homography).reshape(-1, 2), atol=3)
        reading = reader.read(scene.image)
        assert reading.found
        truth = comparable(board, scene.squares)
        got = reader.read_spots(reading)
        for spot in reader.observable:
            total += 1
            right += truth.get(spot) == got.get(spot)
    assert right / total >= 0.9


def test_the_tracker_follows_a_board_swapped_for_its_other_print() -> None:
    board = board_for("qubism")
    rng = np.random.default_rng(9)
    look = alt_look(board, rng)
    tracker = BoardTracker(board)
    for printed, ids in ((board, NEW), (board.printed_as(OLD), OLD), (board, NEW)):
        scene = render_alt_scene(printed, {}, look, rng, occlude=False, hide_marker=False)
        pose = tracker.update(scene["image"])
        assert pose.found and set(pose.used) == set(ids)


def test_calibrating_with_older_markers_keeps_their_positions(tmp_path: Path) -> None:
    board = board_for("qubism")
    old = board.printed_as(OLD)
    rng = np.random.default_rng(2)
    scene = render_scene(old, {}, random_look(board, rng), rng, hand=False, hide_marker=False, clean=True)
    corners_mm = np.float64([[61, 17.5], [236, 17.5], [236, 192.5], [61, 192.5]]).reshape(-1, 1, 2)
    corners_px = cv2.perspectiveTransform(corners_mm, scene.homography).reshape(-1, 2)
    data = calibrate_grid(board, scene.image, [tuple(map(float, p)) for p in corners_px])
    assert [(m["id"], m["x_mm"]) for m in data["markers"]] == [(m.id, m.x_mm) for m in old.markers]
    assert np.allclose(data["squares"][0]["polygon"][0], [61, 17.5], atol=1.5)
    img = tmp_path / "old.png"
    cv2.imwrite(str(img), scene.image)
    assert main(["read", str(img), "--board", "qubism", "--json"]) == 0


def test_marker_layouts_must_not_share_ids() -> None:
    base = {"board": {"name": "b", "game": "qubism", "width_mm": 100, "height_mm": 100},
            "grid": {"rows": 1, "cols": 1, "cell_mm": 10, "origin_mm": [40, 40]},
            "markers": [{"id": 1, "x_mm": 0, "y_mm": 0, "size_mm": 10}]}
    with pytest.raises(BoardError, match="distinct"):
        parse_board({**base, "older_markers": [{"id": 1, "x_mm": 5, "y_mm": 5, "size_mm": 10}]})
    with pytest.raises(BoardError, match="layout must be a whole number"):
        parse_board({**base, "older_markers": [{"layout": "x", "id": 2, "x_mm": 5, "y_mm": 5, "size_mm": 10}]})
    two = parse_board({**base, "older_markers": [{"layout": 2, "id": 3, "x_mm": 5, "y_mm": 5, "size_mm": 10},
                                                 {"id": 2, "x_mm": 5, "y_mm": 5, "size_mm": 10}]})
    assert [[m.id for m in layout] for layout in two.older_markers] == [[2], [3]]
    assert two.printed_as([3]).markers[0].id == 3 and two.printed_as([]).markers[0].id == 1
    assert {m.id for layout in two.printed_as([3]).older_markers for m in layout} == {1, 2}
