"""The third 3-D scene family (vision.synth.scene_c): deterministic per seed, labels that agree
with the engine's positions and with the picture through the labelled camera, all four games
written in the bench's format (small frames: these tests stay quick)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion import games
from tests.vision.scene_checks import assert_labels_drawn
from vision.boarddefaults import board_for
from vision.boardlocate import locate_board
from vision.synth.board3d_play import group_layouts, layout_of
from vision.synth.board_scenes import evaluate_dir
from vision.synth.scene_c import RENDERER, make_setup_c, render_c_scene, write_c_dataset, write_c_group

SMALL = (640, 480)


def _scene(game: str, seed: int, index: int = 0, hand: bool = False, frame: tuple[int, int] | None = SMALL,
           skew: bool | None = None, **kw: Any) -> tuple[Any, Any, Any, Any]:
    board = board_for(game)
    rng = np.random.default_rng(seed)
    setup = make_setup_c(board, rng, frame=frame, **kw)
    layout = group_layouts(board, index + 1, rng, transient=True)[index]
    return board, layout, setup, render_c_scene(board, layout, setup, rng, hand=hand, skew=skew)


def test_same_seed_same_picture_and_labels_another_seed_another() -> None:
    _, layout_a, setup_a, a = _scene("kilkenny", 5, 1, hand=True)
    _, layout_b, _, b = _scene("kilkenny", 5, 1, hand=True)
    _, _, _, c = _scene("kilkenny", 6, 1, hand=True)
    assert a.image.shape == (SMALL[1], SMALL[0], 3)
    assert np.array_equal(a.image, b.image) and layout_a == layout_b
    assert a.occluded == b.occluded and a.markers_hidden == b.markers_hidden
    assert np.array_equal(a.homography, b.homography)
    assert np.abs(a.image.astype(int) - c.image.astype(int)).mean() > 5


def _cat_over_mouse() -> tuple[Any, Any, np.random.Generator]:
    board = board_for("chopchop")
    rng = np.random.default_rng(3)
    state = games.make("chopchop", {}).new_state()
    state.apply(state.legal_actions()[1])  # C1: the cat on a table-top square
    state.mice["mouse:1"] = str(state.cat)[4:]  # mouse 1 has run under the table
    return board, layout_of(board, state, rng), rng


def test_every_labelled_piece_is_drawn_on_its_square_and_shows_where_the_camera_puts_it() -> None:
    board, layout, rng = _cat_over_mouse()
    setup = make_setup_c(board, rng, max_tilt_deg=30, frame=SMALL)
    scene = render_c_scene(board, layout, setup, rng, skew=False)
    cam = setup.camera
    assert_labels_drawn(layout.squares, scene.placed)  # the engine's position, every token drawn
    own = other = 0
    for i, p in enumerate(scene.placed):
        poly = np.asarray(board.squares[p.square].polygon)
        x, y, top = p.top
        assert poly[:, 0].min() < x < poly[:, 0].max() and poly[:, 1].min() < y < poly[:, 1].max(), p
        base = float(p.mesh.v[:, 2].min())
        u, v = np.round(cam.distort(cam.project(np.array([[x, y, base + (top - base) * 0.6]])))[0]).astype(int)
        assert 0 <= u < cam.w and 0 <= v < cam.h
        seen = int(scene.objects[v, u])
        assert seen > 0, f"{p.square} {p.token}: the print shows where it stands"
        own += seen == i + 1
        other += seen != i + 1
    assert own >= 0.85 * (own + other), (own, other)


@pytest.mark.parametrize("game,seed", [("qubism", 21), ("katenmuis", 22)])
def test_markers_lie_where_the_labels_homography_puts_them(game: str, seed: int) -> None:
    """Lens-free and without rolling shutter, the markers the locator finds lie within 3 px of
    where the labelled homography (the table plane, z = 0) maps them."""
    board, _, _, scene = _scene(game, seed, 0, frame=(1280, 720), skew=False, lens=False, max_tilt_deg=35)
    assert scene.skew == 0.0
    pose = locate_board(scene.image, board)
    assert pose.found
    hm = scene.homography
    near = 0
    for mk in board.markers:
        if mk.id in pose.corners and mk.id in scene.markers_visible:
            c = np.column_stack([np.asarray(mk.corners(), np.float64), np.ones(4)]) @ hm.T
            want = (c[:, :2] / c[:, 2:]).mean(axis=0)
            got = np.asarray(pose.corners[mk.id]).reshape(-1, 2).mean(axis=0)
            assert np.hypot(*(want - got)) < 3.0, (mk.id, want, got)
            near += 1
    assert near >= 3


def test_the_lens_and_the_rolling_shutter_move_the_picture_off_the_pinhole() -> None:
    board = board_for("qubism")
    rng = np.random.default_rng(4)
    setup = make_setup_c(board, rng, frame=SMALL)
    cam = setup.camera
    corner = np.array([[cam.w * 0.05, cam.h * 0.05]])
    assert setup.camera.a >= 0.0
    back = cam.distort(np.column_stack(cam.undistort((corner[:, 0] - cam.cx) / cam.f, (corner[:, 1] - cam.cy) / cam.f))
                       * cam.f + [cam.cx, cam.cy])
    assert np.allclose(back, corner, atol=0.05)  # the lens' two ways agree
    layout = group_layouts(board, 1, rng)[0]
    flat = render_c_scene(board, layout, setup, np.random.default_rng(1), skew=False)
    skewed = render_c_scene(board, layout, setup, np.random.default_rng(1), skew=True)
    assert flat.skew == 0.0 and skewed.skew != 0.0
    assert np.abs(flat.image.astype(int) - skewed.image.astype(int)).mean() > 2


@pytest.fixture(scope="module")
def four_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scene_c")
    assert write_c_dataset(root, 8, seed=4, group_size=2, frame=SMALL) == 8
    return root


def test_all_four_games_render_in_the_benchs_format(four_games: Path) -> None:
    scenes = json.loads((four_games / "labels.json").read_text())["scenes"]
    assert sorted({sc["board"] for sc in scenes}) == ["chopchop", "katenmuis", "kilkenny", "qubism"]
    for game in ("chopchop", "katenmuis", "kilkenny", "qubism"):
        mine = [sc for sc in scenes if sc["board"] == game]
        assert [sc["learn"] for sc in mine] == [True, False]
        assert mine[0]["camera"] == {**mine[1]["camera"], "skew_px": mine[0]["camera"]["skew_px"]}
        assert mine[0]["table"] == mine[1]["table"] and mine[0]["print"] == mine[1]["print"]
    start = games.make("katenmuis", {}).new_state().board_view()
    assert [sc for sc in scenes if sc["board"] == "katenmuis"][0]["squares"] == start
    assert all(sc["renderer"] == RENDERER and (four_games / sc["file"]).is_file() for sc in scenes)
    report = evaluate_dir(four_games)
    assert report["scenes"] == 4 and set(report["per_game"]) == {"chopchop", "katenmuis", "kilkenny", "qubism"}
    assert report["squares"] > 0


def test_a_group_written_alone_is_the_same_as_in_the_set(four_games: Path, tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    alone = write_c_group(tmp_path, "kilkenny", 0, 2, 0, 4, frame=SMALL)
    scenes = json.loads((four_games / "labels.json").read_text())["scenes"]
    assert alone == [sc for sc in scenes if sc["board"] == "kilkenny"]
    for sc in alone:
        assert (tmp_path / sc["file"]).read_bytes() == (four_games / sc["file"]).read_bytes()
