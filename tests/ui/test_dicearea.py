"""The dice area setting (ui.dicearea): validation, a tray from two touches, and which
readings count, off the board with a real located board (a rendered scene)."""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.boards import load_board
from ui import dicearea
from vision.boardlocate import locate_board
from vision.dice import DieReading
from vision.synth.board import random_look, render_scene


def test_valid_areas() -> None:
    assert dicearea.is_area("anywhere") and dicearea.is_area("off_board")
    assert dicearea.is_area([0.1, 0.2, 0.5, 0.9])
    for bad in ("tray", [0.5, 0.5, 0.52, 0.9], [0.1, 0.2, 1.5, 0.9], [0.1, 0.2, 0.5], [True, 0, 1, 1], None, 3):
        assert not dicearea.is_area(bad), bad


def test_tray_from_two_corners_in_any_order_and_its_filter() -> None:
    tray = dicearea.tray_from_corners((600.0, 400.0), (64.0, 48.0), (640, 480))
    assert tray == [0.1, 0.1, 0.9375, 0.8333]
    inside = DieReading(3, (100.0, 100.0, 130.0, 130.0), 0.9, "red")
    outside = DieReading(5, (10.0, 10.0, 40.0, 40.0), 0.9, "red")
    assert dicearea.keep([inside, outside], tray, (640, 480)) == [inside]
    assert np.allclose(dicearea.reader_config(tray, (640, 480)).roi.rect, (64.0, 48.0, 600.0, 399.984))
    assert dicearea.reader_config("anywhere", (640, 480)) is None
    assert dicearea.describe(tray) == "in the tray" and dicearea.describe("off_board") == "off the board"


def test_off_the_board_drops_dice_on_the_located_board_only() -> None:
    board = load_board("katenmuis")
    rng = np.random.default_rng(3)
    scene = render_scene(board, {}, random_look(board, rng), rng, clean=True)
    pose = locate_board(scene.image, board)
    assert pose.found
    sq = next(iter(board.squares.values()))
    cx, cy = pose.to_pixels(np.float64(sq.polygon)).mean(0)
    on_board = DieReading(4, (cx - 10, cy - 10, cx + 10, cy + 10), 0.9, "white")
    corners = pose.to_pixels(np.float64([p for s in board.squares.values() for p in s.polygon]))
    far_x = corners[:, 0].max() + 60 if corners[:, 0].max() + 80 < scene.image.shape[1] else corners[:, 0].min() - 60
    off_board = DieReading(2, (far_x - 10, cy - 10, far_x + 10, cy + 10), 0.9, "white")
    size = (scene.image.shape[1], scene.image.shape[0])
    assert dicearea.keep([on_board, off_board], "off_board", size, pose, board) == [off_board]
    assert dicearea.keep([on_board, off_board], "anywhere", size, pose, board) == [on_board, off_board]
    assert dicearea.keep([on_board, off_board], "off_board", size, None, board) == [on_board, off_board]


def test_by_default_counters_on_the_board_are_not_taken_for_dice() -> None:
    """Chop! Chop!'s mice (a white dot on green) look like dice showing 1 to the dice reader;
    with the default area (off the board) none of them counts. Real reader, rendered boards."""
    from ui.prefs import SPECS
    from vision.dice import read_dice
    from vision.synth.board import random_position

    default = SPECS["ui.dice_area"][0]
    board = load_board("chopchop")
    rng = np.random.default_rng(11)
    anywhere = kept = 0
    for _ in range(4):
        scene = render_scene(board, random_position(board, rng), random_look(board, rng), rng)
        pose = locate_board(scene.image, board)
        assert pose.found
        size = (scene.image.shape[1], scene.image.shape[0])
        seen = read_dice(scene.image)
        anywhere += len(dicearea.counted(seen, "anywhere", size, pose, board))  # markers never count
        kept += len(dicearea.counted(seen, default, size, pose, board))
    assert anywhere >= 4  # the reader does see "dice" on the board...
    assert kept == 0  # ...and the default setting keeps none of them


def test_with_the_board_located_boxes_that_are_no_top_face_there_do_not_count() -> None:
    """The table's plane from the board's markers (vision.dice_plane): a box the size of a 16 mm
    die's top face where it lies counts; one four times too big, or long and thin (a side face
    seen steeply), does not, whatever the area; without the board all three count. The reader's
    own config carries the plane too."""
    board = load_board("katenmuis")
    rng = np.random.default_rng(3)
    scene = render_scene(board, {}, random_look(board, rng), rng, clean=True)
    pose = locate_board(scene.image, board)
    assert pose.found
    size = (scene.image.shape[1], scene.image.shape[0])
    sq = list(board.squares.values())[len(board.squares) // 2]
    x, y = sq.centre

    def box(w_mm: float, h_mm: float) -> tuple[float, float, float, float]:
        q = pose.to_pixels(np.float64([[x - w_mm / 2, y - h_mm / 2], [x + w_mm / 2, y + h_mm / 2],
                                       [x - w_mm / 2, y + h_mm / 2], [x + w_mm / 2, y - h_mm / 2]]))
        return (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))

    die = DieReading(4, box(16, 16), 0.9, "white")
    huge = DieReading(6, box(64, 64), 0.9, "white")
    side = DieReading(2, box(16, 4), 0.9, "white")
    assert dicearea.counted([die, huge, side], "anywhere", size, pose, board) == [die]
    assert dicearea.counted([die, huge, side], "anywhere", size, None, board) == [die, huge, side]
    cfg = dicearea.reader_config("anywhere", size, pose)
    assert cfg is not None and cfg.roi is None and cfg.table.fits(die.box) and not cfg.table.fits(huge.box)
    tray = dicearea.reader_config([0.1, 0.1, 0.9, 0.9], size, pose)
    assert tray.roi is not None and tray.table is not None
    assert dicearea.reader_config("anywhere", size, None) is None


def test_the_camera_screen_judges_each_box_on_the_table_plane_once(monkeypatch: Any) -> None:
    """The Camera screen reads with the board's pose (dicearea.seen): the table's plane judges
    every box the real reader found once, not once in the reader and again when counting; what
    counts is the same as the reader's boxes counted with the plane."""
    from vision.dice import read_dice
    from vision.dice_plane import TablePlane
    from vision.synth.board import random_position

    board = load_board("chopchop")
    rng = np.random.default_rng(11)
    scene = render_scene(board, random_position(board, rng), random_look(board, rng), rng)
    pose = locate_board(scene.image, board)
    assert pose.found
    size = (scene.image.shape[1], scene.image.shape[0])
    judged: list[tuple[float, ...]] = []
    fits = TablePlane.fits

    def counting(self: Any, box: Any) -> bool:
        judged.append(tuple(box))
        return fits(self, box)

    monkeypatch.setattr(TablePlane, "fits", counting)
    got = dicearea.seen(scene.image, "anywhere", None, pose, board)
    assert judged and len(judged) == len(set(judged))  # each box once
    monkeypatch.setattr(TablePlane, "fits", fits)
    assert got == dicearea.counted(read_dice(scene.image), "anywhere", size, pose, board)
