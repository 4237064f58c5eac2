"""vision.aim: the set-up wizard's camera guidance from a rendered printed board placed in a
camera-sized picture, partly out of it (OpenCV's real marker detector on the project's own board
art): how many corners are seen and which way to move the camera, in one sentence."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from companion.i18n import set_language
from vision.aim import SteadyAim, aim_at, aim_from
from vision.boarddefaults import board_for
from vision.printing import render_board

BOARD = board_for("katenmuis")
ART = render_board(BOARD, 2.0)  # 594 x 420 px


def placed(dx: float, dy: float, scale: float = 1.0, size: tuple[int, int] = (700, 520)) -> Any:
    m = np.float32([[scale, 0, dx], [0, scale, dy]])
    return cv2.warpAffine(ART, m, size, borderValue=(90, 90, 90))


def turned(angle: float, dx: float, dy: float) -> Any:
    h, w = ART.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[0, 2] += dx
    m[1, 2] += dy
    return cv2.warpAffine(ART, m, (640, 560), borderValue=(90, 90, 90))


@pytest.mark.parametrize(("image", "sentence"), [
    (placed(50, 50), "4 of 4 corners seen: hold still"),
    (placed(-80, 50), "2 of 4 corners seen: move the camera left"),
    (placed(200, 50), "2 of 4 corners seen: move the camera right"),
    (placed(50, -70), "2 of 4 corners seen: move the camera up"),
    (placed(50, 190), "2 of 4 corners seen: move the camera down"),
    (placed(-80, -70), "1 of 4 corners seen: move the camera up and left"),
    (turned(-12, 10, 60), "3 of 4 corners seen: move the camera left"),  # only the top-left corner cut off
    (turned(12, 60, 60), "3 of 4 corners seen: move the camera right"),  # only the top-right one
    (np.full((480, 640, 3), 90, np.uint8), "No corners seen: is the board in view and lit?"),
], ids=["all", "left", "right", "up", "down", "up-left", "3-left", "3-right", "none"])
def test_guidance_sentence(image: Any, sentence: str) -> None:
    assert aim_at(image, BOARD).sentence() == sentence


def test_a_covered_corner_is_not_a_direction() -> None:
    image = placed(50, 50).copy()
    m = BOARD.markers[2]
    x0, y0 = 50 + int(m.x_mm * 2) - 4, 50 + int(m.y_mm * 2) - 4
    image[y0:y0 + int(m.size_mm * 2) + 8, x0:x0 + int(m.size_mm * 2) + 8] = 230  # a hand, paper over it
    aim = aim_at(image, BOARD)
    assert (aim.seen, aim.move) == (3, "covered")
    assert aim.sentence() == "3 of 4 corners seen: a corner is covered or in shadow, clear it"


def test_a_board_bigger_than_the_picture_asks_to_raise_the_camera() -> None:
    # a camera close over the board, turned 45 degrees: one corner marker in the middle of the
    # picture, the next ones beyond its right and its left edge (the marker finder's output, made
    # with the same homography OpenCV would fit)
    c, s = np.cos(np.pi / 4) * 3, np.sin(np.pi / 4) * 3
    h = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    m0 = BOARD.markers[0]
    h[:2, 2] = np.array([320.0, 100.0]) - h[:2, :2] @ np.array([m0.x_mm, m0.y_mm])
    corners = cv2.perspectiveTransform(np.array(m0.corners(), np.float64).reshape(-1, 1, 2), h).reshape(4, 2)
    aim = aim_from({m0.id: corners}, BOARD, (640, 480))
    assert (aim.seen, aim.move) == (1, "raise"), aim
    assert aim.sentence() == "1 of 4 corners seen: raise the camera, the board is bigger than the picture"


def test_other_boards_markers_are_not_counted() -> None:
    aim = aim_at(placed(50, 50), board_for("chopchop"))
    assert aim.seen == 0 and aim.move == "none"


def test_said_in_dutch_and_french() -> None:
    try:
        set_language("nl")
        assert aim_at(placed(-80, 50), BOARD).sentence() == "2 van 4 hoeken gezien: beweeg de camera naar links"
        set_language("fr")
        assert aim_at(placed(-80, 50), BOARD).sentence() == "2 coins sur 4 vus\u00a0: déplace la caméra vers la gauche"
    finally:
        set_language("en")


def test_steady_after_frames_in_a_row() -> None:
    steady = SteadyAim(frames=3)
    full, cut = aim_at(placed(50, 50), BOARD), aim_at(placed(-80, 50), BOARD)
    assert [steady.update(a) for a in (full, full, cut, full, full, full)] == [False, False, False, False, False, True]
