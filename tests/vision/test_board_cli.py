"""The board CLI: learning piece looks from the start position; calibrating the Kat en Muis track."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.boards import load_board_file
from vision.boardcli import main, start_position
from vision.boarddefaults import board_for
from vision.pieces import PieceModel
from vision.synth.board import PieceLook, random_look, render_scene


def _photo(tmp_path: Path, name: str, image: np.ndarray) -> str:
    path = tmp_path / name
    cv2.imwrite(str(path), image)
    return str(path)


def test_learn_from_start_position_then_read_with_the_model(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    board = board_for("katenmuis")
    start = start_position("katenmuis")
    assert set(start.values()) == {"cat", "mouse"}
    # counters in colours the built-in guesses (red cat, black mouse) would get backwards
    look = PieceLook({"cat": (45, 45, 45), "mouse": (40, 40, 190)})
    rng = np.random.default_rng(3)
    first = render_scene(board, start, look, rng, hand=False, hide_marker=False)
    model_path = tmp_path / "kem.json"
    assert main(["learn", _photo(tmp_path, "start.jpg", first.image), "--board", "katenmuis",
                 "-o", str(model_path)]) == 0
    assert "learned 2 piece looks" in capsys.readouterr().out
    model = PieceModel.load(model_path)
    assert set(model.looks) == {"cat", "mouse"}
    later = render_scene(board, {"12": "cat", "40": "mouse"}, look, rng, hand=False, hide_marker=False)
    photo = _photo(tmp_path, "later.jpg", later.image)
    assert main(["read", photo, "--board", "katenmuis", "--json", "--model", str(model_path)]) == 0
    squares = json.loads(capsys.readouterr().out)["squares"]
    assert {s: v["token"] for s, v in squares.items() if v["token"]} == {"12": "cat", "40": "mouse"}
    # without the learned model the built-in guesses mix the two up
    assert main(["read", photo, "--board", "katenmuis", "--json"]) == 0
    squares = json.loads(capsys.readouterr().out)["squares"]
    assert squares["12"]["token"] != "cat" or squares["40"]["token"] != "mouse"


def test_learn_rejects_a_position_off_the_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = board_for("qubism")
    rng = np.random.default_rng(4)
    scene = render_scene(board, {}, random_look(board, rng), rng, hand=False, hide_marker=False, clean=True)
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"9,9": "pawn:white"}))
    assert main(["learn", _photo(tmp_path, "q.png", scene.image), "--board", "qubism",
                 "--position", str(pos), "-o", str(tmp_path / "m.json")]) == 2
    assert "not on board" in capsys.readouterr().err


def test_calibrate_katenmuis_track_from_points_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = board_for("katenmuis")
    rng = np.random.default_rng(8)
    scene = render_scene(board, {}, random_look(board, rng), rng, hand=False, hide_marker=False, clean=True)
    track = [sid for sid, sq in board.squares.items() if sq.kind != "start"]
    centres = cv2.perspectiveTransform(np.float64([board.squares[s].centre for s in track]).reshape(-1, 1, 2),
                                       scene.homography).reshape(-1, 2)
    points = tmp_path / "track.txt"
    points.write_text("# square centres in order\n" + "\n".join(f"{x:.1f},{y:.1f}" for x, y in centres) + "\n")
    photo = _photo(tmp_path, "kem.png", scene.image)
    out = tmp_path / "own.toml"
    assert main(["calibrate", "--board", "katenmuis", "--image", photo, "--points-file", str(points),
                 "-o", str(out)]) == 0
    assert f"{len(track)} squares" in capsys.readouterr().out
    own = load_board_file(out)
    assert list(own.squares) == track
    for sid in (track[0], track[len(track) // 2], track[-1]):
        assert np.allclose(own.squares[sid].centre, board.squares[sid].centre, atol=1.0)
        assert own.squares[sid].polygon is not None and len(own.squares[sid].polygon) == 4
    assert own.adjacency[track[0]] == tuple(s for s in board.adjacency[track[0]] if s in track)
    # the start spots may be tapped too (after the track): then they are mapped as well
    starts = [sid for sid, sq in board.squares.items() if sq.kind == "start"]
    extra = cv2.perspectiveTransform(np.float64([board.squares[s].centre for s in starts]).reshape(-1, 1, 2),
                                     scene.homography).reshape(-1, 2)
    points.write_text("\n".join(f"{x:.1f},{y:.1f}" for x, y in np.vstack([centres, extra])))
    assert main(["calibrate", "--board", "katenmuis", "--image", photo, "--points-file", str(points),
                 "-o", str(out)]) == 2  # the board file of the first run is not replaced unasked
    assert "already exists" in capsys.readouterr().err
    assert main(["calibrate", "--board", "katenmuis", "--image", photo, "--points-file", str(points),
                 "-o", str(out), "--force"]) == 0
    own = load_board_file(out)
    assert list(own.squares) == track + starts
    assert np.allclose(own.squares[starts[0]].centre, board.squares[starts[0]].centre, atol=1.0)
    # one point short: a clear message, exit status 2
    points.write_text("\n".join(f"{x:.1f} {y:.1f}" for x, y in centres[:-1]))
    assert main(["calibrate", "--board", "katenmuis", "--image", photo, "--points-file", str(points),
                 "-o", str(tmp_path / "x.toml")]) == 2
    assert f"tap all {len(track)} squares" in capsys.readouterr().err


def test_print_on_letter_paper_or_a_sentence_why_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``companion board print --paper letter``: Chop! Chop! fits at true size (a Letter PDF);
    Kat en Muis does not, and the command says so in a sentence (exit 2, no file)."""
    out = tmp_path / "c.pdf"
    assert main(["print", "chopchop", "-o", str(out), "--paper", "letter"]) == 0
    assert "Letter, 300 dpi" in capsys.readouterr().out and b"/MediaBox [ 0 0 792" in out.read_bytes()
    bad = tmp_path / "k.pdf"
    assert main(["print", "katenmuis", "-o", str(bad), "--paper", "Letter"]) == 2
    err = capsys.readouterr().err
    assert "does not fit on Letter paper" in err and "Print it on A4 paper." in err and not bad.exists()
