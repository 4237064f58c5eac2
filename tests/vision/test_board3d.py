"""The 3-D board scene renderer (vision.synth.board3d): deterministic, labels that match the
picture, groups that share a camera, and datasets the evaluation reads back."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from bench.board import print_kinds
from companion import games
from tests.vision.scene_checks import assert_labels_drawn
from vision.boardcli import main
from vision.boarddefaults import board_for
from vision.boardlocate import locate_board
from vision.synth.board3d import H, W, make_setup, render_3d_scene, scene_labels, write_3d_dataset
from vision.synth.board3d_play import _play, group_layouts, layout_of
from vision.synth.board_scenes import evaluate_dir


def _scene(game: str, seed: int, layout_index: int = 0) -> tuple[Any, Any, Any]:
    board = board_for(game)
    rng = np.random.default_rng(seed)
    setup = make_setup(board, rng)
    layout = group_layouts(board, layout_index + 1, rng)[layout_index]
    return board, layout, render_3d_scene(board, layout, setup, rng, arm=False)


def test_same_seed_same_picture_and_labels() -> None:
    t0 = time.perf_counter()
    _, layout_a, a = _scene("katenmuis", 7, 1)
    took = time.perf_counter() - t0
    _, layout_b, b = _scene("katenmuis", 7, 1)
    _, _, c = _scene("katenmuis", 8, 1)
    assert a.image.shape == (H, W, 3)
    assert np.array_equal(a.image, b.image) and layout_a == layout_b
    assert a.occluded == b.occluded and a.markers_hidden == b.markers_hidden
    assert np.abs(a.image.astype(int) - c.image.astype(int)).mean() > 5  # another seed, another scene
    assert took < 12.0, f"a Kat en Muis scene took {took:.1f} s"


def _chopchop_cat_over_mouse() -> Any:
    """The engine's start, played on, then the cat on the table over mouse 1 (under it)."""
    board = board_for("chopchop")
    rng = np.random.default_rng(4)
    state = games.make("chopchop", {}).new_state()
    state.apply(state.legal_actions()[1])  # C1: the cat on "top:2,4"
    state.mice["mouse:1"] = "2,4"  # mouse 1 has run under the table
    return board, layout_of(board, state, rng), rng


def test_every_labelled_piece_is_where_the_picture_shows_it() -> None:
    board, layout, rng = _chopchop_cat_over_mouse()
    assert layout.squares["top:2,4"] == "cat" and layout.squares["2,4"] == "mouse:1"
    assert set(layout.unreportable) == {"top:2,4", "2,4"}
    setup = make_setup(board, rng, max_tilt_deg=40)
    scene = render_3d_scene(board, layout, setup, rng, arm=False)
    cam = setup.camera
    # every label is drawn on its square, and nothing else is
    assert_labels_drawn(layout.squares, scene.placed)
    # each piece stands on its square and shows in the picture where its body projects
    own = other = 0
    for i, p in enumerate(scene.placed):
        poly = np.asarray(board.squares[p.square].polygon)
        x, y, top = p.top
        assert poly[:, 0].min() < x < poly[:, 0].max() and poly[:, 1].min() < y < poly[:, 1].max(), p
        if p.token == "hole_open":
            continue  # its middle is the hole: the print shows through
        inside = np.array([[x, y, top * 0.8]])
        u, v = np.round(cam.distort(cam.project(inside))[0]).astype(int)
        assert 0 <= u < W and 0 <= v < H
        seen = int(scene.objects[v, u])
        assert seen > 0, f"{p.square} {p.token}: the table shows where it stands"
        own += seen == i + 1
        other += seen != i + 1
    assert own >= 0.9 * (own + other), (own, other)
    # and the print is where the labels put it: the markers found in the picture are where the
    # labelled camera projects them
    pose = locate_board(scene.image, board)
    assert pose.found and len(pose.corners) >= 3
    for mk in board.markers:
        if mk.id in pose.corners:
            want = cam.distort(cam.project(np.column_stack([np.asarray(mk.corners()), np.zeros(4)]))).mean(axis=0)
            got = np.asarray(pose.corners[mk.id]).reshape(-1, 2).mean(axis=0)
            assert np.hypot(*(want - got)) < 3.0, (mk.id, want, got)


def test_two_pieces_on_one_square_stand_apart() -> None:
    board, layout, rng = _chopchop_cat_over_mouse()
    scene = render_3d_scene(board, layout, make_setup(board, rng, max_tilt_deg=5), rng)
    on = {p.token: p.top for p in scene.placed if p.square == "2,4"}
    assert set(on) == {"cat", "mouse:1"}
    assert np.hypot(on["cat"][0] - on["mouse:1"][0], on["cat"][1] - on["mouse:1"][1]) > 6.0
    objs = set(np.unique(scene.objects).tolist())
    ids = {p.token: i + 1 for i, p in enumerate(scene.placed) if p.square == "2,4"}
    assert ids["cat"] in objs and ids["mouse:1"] in objs  # both seen from nearly straight above


@pytest.fixture(scope="module")
def km_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("km3d")
    assert main(["synth", str(root), "--count", "3", "--seed", "5", "--renderer", "3d", "--games", "katenmuis"]) == 0
    return root


def test_a_group_shares_camera_and_starts_from_the_engines_start(km_dataset: Path) -> None:
    scenes = json.loads((km_dataset / "labels.json").read_text())["scenes"]
    assert [sc["learn"] for sc in scenes] == [True, False, False]
    assert len({sc["group"] for sc in scenes}) == 1
    assert all(sc["homography"] == scenes[0]["homography"] and sc["camera"] == scenes[0]["camera"]
               and sc["light"] == scenes[0]["light"] for sc in scenes)
    assert scenes[0]["squares"] == games.make("katenmuis", {}).new_state().board_view()
    assert scenes[1]["squares"] != scenes[0]["squares"] or scenes[2]["squares"] != scenes[0]["squares"]
    assert all((km_dataset / sc["file"]).is_file() and sc["renderer"] == "3d" for sc in scenes)


def test_the_dataset_reads_back_with_evaluate_dir(km_dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = evaluate_dir(km_dataset)
    assert report["scenes"] == 2 and report["found_rate"] == 1.0
    assert report["square_accuracy"] > 0.9
    conf = report["confusion"]["katenmuis"]
    assert sum(conf.values()) == report["squares"]
    print_kinds(report)
    out = capsys.readouterr().out
    assert "katenmuis  -" in out and "median ms per read after each group's first" in out


def test_two_counters_on_one_square_are_scored_as_the_pair_and_counted(tmp_path: Path) -> None:
    board = board_for("katenmuis")
    rng = np.random.default_rng(11)
    layouts = group_layouts(board, 2, rng)
    state = games.make("katenmuis", {}).new_state()
    for _ in range(200):  # seeded random play until both counters share a square
        layout = layout_of(board, state, rng)
        if layout.unreportable:
            break
        if state.to_move() is None:
            state = games.make("katenmuis", {}).new_state()
        acts = state.chance_outcomes() if state.is_chance() else [(a, 1) for a in state.legal_actions()]
        state.apply(acts[int(rng.integers(0, len(acts)))][0])
    assert layout.unreportable and "cat+mouse" in layout.squares.values()
    setup = make_setup(board, rng, max_tilt_deg=20)
    (tmp_path / "images").mkdir()
    scenes = []
    for k, lay in enumerate([layouts[0], layout]):
        sc = render_3d_scene(board, lay, setup, rng)
        name = f"images/{k}.jpg"
        cv2.imwrite(str(tmp_path / name), sc.image)
        scenes.append(scene_labels(board, name, "km", k == 0, lay, setup, sc))
    (tmp_path / "labels.json").write_text(json.dumps({"format": "companion-board-scenes/1", "scenes": scenes}))
    report = evaluate_dir(tmp_path)
    assert report["unreportable"] == {"katenmuis cat+mouse": 1}
    assert report["squares"] == len(board.squares) - len(scenes[1]["occluded"])  # the pair's square scored
    assert sum(n for k, n in report["confusion"]["katenmuis"].items() if k.startswith("cat+mouse -> ")) == 1


def test_object_maps_name_every_piece_drawn(tmp_path: Path) -> None:
    assert write_3d_dataset(tmp_path, 2, seed=2, games=["qubism"], maps=True) == 2
    for sc in json.loads((tmp_path / "labels.json").read_text())["scenes"]:
        objects = cv2.imread(str(tmp_path / sc["objects"]), cv2.IMREAD_UNCHANGED)
        assert objects.dtype == np.uint16 and objects.shape == (H, W)
        listed = {p["object"]: p for p in sc["pieces"]}
        seen = set(np.unique(objects).tolist()) - {0}
        assert seen and seen <= set(listed) | {1000, 1001}
        assert {(p["square"], p["token"]) for p in sc["pieces"]} == set(sc["squares"].items())


def test_a_turned_tile_lies_under_its_piece_while_the_move_is_due() -> None:
    board = board_for("chopchop")
    rng = np.random.default_rng(3)
    state = games.make("chopchop", {}).new_state()
    layout = layout_of(board, state, rng, transient=True)
    while not layout.face_up:  # seeded random legal play until a +1, +2, arrow or fork is turned
        assert _play(state, rng, 1), "the game ended before any such tile was turned"
        layout = layout_of(board, state, rng, transient=True)
    (sq, tile), = layout.face_up.items()
    assert tile in ("crockery", "plus1", "plus2", "arrow", "fork", "knife")
    assert layout.squares[sq] in ("cat", *(f"mouse:{i}" for i in range(1, 5)))  # the piece is what is read
    assert not layout_of(board, state, rng).face_up  # only when asked for
    setup = make_setup(board, rng, max_tilt_deg=10)
    scene = render_3d_scene(board, layout, setup, rng)
    assert [(p.square, p.token) for p in scene.placed if p.token.startswith("tile:")] == [(sq, f"tile:{tile}")]
    on_tile = next(p for p in scene.placed if p.square == sq and not p.token.startswith("tile:"))
    plain = render_3d_scene(board, layout_of(board, state, rng), setup, rng)
    on_print = next(p for p in plain.placed if p.square == sq)
    assert on_tile.top[2] - on_print.top[2] == pytest.approx(setup.pieces["thick"])  # it stands on the tile
