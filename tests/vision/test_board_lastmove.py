"""bench/board.py --confirmed last-move: each Chop! Chop! read knows the position one move before
its scene (bench/board_lastmove.py), as the app confirms every move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bench import board_lastmove as lm
from vision.synth import board3d_play
from vision.boarddefaults import GAMES, board_for
from vision.synth.scene_c import _plan, make_setup_c


def _played(count: int, seed: int) -> dict[str, list[tuple[Any, Any]]]:
    """Scene file -> every (state before, action) of the third family's play up to it, logged
    apart from the module under test (None: a layout taken)."""
    out: dict[str, list[tuple[Any, Any]]] = {}
    for game, group_no, size, first in _plan(count, ["chopchop"], 8):
        rng = np.random.default_rng([seed, 31337, GAMES.index(game), group_no])
        make_setup_c(board_for(game), rng, 45.0)
        log: list[tuple[Any, Any]] = []
        taken: list[list[tuple[Any, Any]]] = []

        def moved(state: Any, action: Any, log: list[tuple[Any, Any]] = log,
                  taken: list[list[tuple[Any, Any]]] = taken) -> None:
            if action is None:
                taken.append(list(log))
            else:
                log.append((state.clone(), action))

        board3d_play.group_layouts(board_for(game), size, rng, transient=True, moved=moved)
        for k, steps in enumerate(taken):
            out[f"images/{game}-{first + k:04d}.jpg"] = steps
    return out


def test_the_confirmed_position_is_the_scene_before_its_last_move() -> None:
    got = lm.third_family(16, 7, ["chopchop"])
    played = _played(16, 7)
    assert sorted(got) == sorted(played) and len(got) == 16
    moves_between = []
    files = sorted(got)
    for n, f in enumerate(files):
        before, scene = got[f]
        if f.endswith(("-0000.jpg", "-0008.jpg")):  # a group's start: learned, nothing before
            assert before is None
            continue
        steps = played[f]
        # the last player action (not a chance outcome) before this scene, and the state it met
        last = max(i for i, (st, _) in enumerate(steps) if not st.is_chance())
        pre, _ = steps[last]
        assert before == dict(pre.board_view())
        state = pre.clone()
        for _, action in steps[last:]:  # that move (and its reveal) gives the scene's own labels
            state.apply(action)
        assert dict(state.board_view()) == scene
        assert before != scene
        moves_between.append(sum(not st.is_chance() for st, _ in steps[len(played[files[n - 1]]):]))
    # not the old --confirmed: several player actions lie between two scenes of a group
    assert max(moves_between) > 1


def test_positions_are_checked_against_the_set(tmp_path: Path) -> None:
    played = lm.third_family(16, 7, ["chopchop"])
    scenes: list[dict[str, Any]] = [{"file": f, "squares": sq} for f, (_, sq) in sorted(played.items())]
    (tmp_path / "labels.json").write_text(json.dumps({"scenes": scenes}), encoding="utf-8")
    got = lm.positions_for("3d-c", tmp_path, 16, 7, ["chopchop"], None)
    assert got == {f: before for f, (before, _) in played.items()}
    scenes[3]["squares"] = dict(scenes[3]["squares"], **{"0,0": "mouse:1"})
    (tmp_path / "labels.json").write_text(json.dumps({"scenes": scenes}), encoding="utf-8")
    with pytest.raises(ValueError, match="is not the scene"):
        lm.positions_for("3d-c", tmp_path, 16, 8, ["chopchop"], None)
    with pytest.raises(ValueError, match="rendering again"):
        lm.positions_for("3d", tmp_path, 16, 7, ["chopchop"], None)


def test_the_bench_reads_each_scene_knowing_its_position_one_move_back(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from bench.board import run
    from vision.pieces import BoardReader

    table = lm.rendered("3d", tmp_path, 3, 4, ["chopchop"])  # the first family: rendered again
    back = {f: v["before"] for f, v in json.loads(table.read_text(encoding="utf-8")).items()}
    told: list[dict[str, str]] = []
    plain_read = BoardReader.read

    def read(self: Any, img: Any, track: bool = True) -> Any:
        told.append(dict(self.confirmed))
        return plain_read(self, img, track=track)

    BoardReader.read = read  # type: ignore[method-assign,assignment]
    try:
        run("3d", tmp_path, 3, 4, ["chopchop"], confirmed="last-move", last_move=table)
    finally:
        BoardReader.read = plain_read  # type: ignore[method-assign]
    files = sorted(back)
    assert back[files[0]] is None and all(back[f] for f in files[1:])
    assert told == [back[f] for f in files[1:]]
    scenes = json.loads((tmp_path / "labels.json").read_text(encoding="utf-8"))["scenes"]
    assert told[1] != scenes[1]["squares"]  # not the old mode's scene before
    assert "named from the position one move back" in capsys.readouterr().out
    # the engine states too (bench/board_moves.py --plays): each scene's play gives its squares
    import pickle

    plays = pickle.loads((tmp_path / "plays.pkl").read_bytes())
    assert sorted(plays) == files[1:]
    for sc in scenes[1:]:
        pre, acts = plays[sc["file"]]
        assert dict(pre.board_view()) == back[sc["file"]]
        state = pre.clone()
        for a in acts:
            state.apply(a)
        assert dict(state.board_view()) == sc["squares"]


def test_with_games_only_their_scenes_are_checked(tmp_path: Path) -> None:
    """A set holding other games too, replayed for Chop! Chop! alone (``--games chopchop``):
    the other games' scenes are not the replay's and are not checked; Chop! Chop!'s still are."""
    played = lm.third_family(16, 7, ["chopchop"])
    scenes: list[dict[str, Any]] = [{"file": f, "board": "chopchop", "squares": sq}
                                    for f, (_, sq) in sorted(played.items())]
    scenes.append({"file": "images/qubism-0016.jpg", "board": "qubism", "squares": {"0,0": "pawn:white"}})
    (tmp_path / "labels.json").write_text(json.dumps({"scenes": scenes}), encoding="utf-8")
    assert lm.positions_for("3d-c", tmp_path, 16, 7, ["chopchop"], None) == {
        f: before for f, (before, _) in played.items()}
    scenes[2]["squares"] = dict(scenes[2]["squares"], **{"0,0": "mouse:1"})
    (tmp_path / "labels.json").write_text(json.dumps({"scenes": scenes}), encoding="utf-8")
    with pytest.raises(ValueError, match="is not the scene"):
        lm.positions_for("3d-c", tmp_path, 16, 7, ["chopchop"], None)
