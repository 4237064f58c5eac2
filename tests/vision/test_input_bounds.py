"""Issue 30's bounds on what the vision commands read: only the picture formats the companion
knows (by their first bytes), a video's frame size checked before a frame is decoded, and the
small command-line errors (bad labels, ``--fps 0``, a failed source, degenerate corners, a
foreign piece model) each a sentence and a non-zero exit, never an internal error."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.cli import main
from tests.vision.test_imageload import run_measured
from vision.calibrate import CalibrationError, check_corners
from vision.errors import InvalidImageError
from vision.imageload import load_image, picture_format

REFUSED_MB = 150  # a refused file costs the interpreter and its imports, never a decoded frame


def radiance_hdr(path: Path, w: int, h: int) -> Path:
    """A black Radiance RGBE picture, run-length encoded: a few bytes a row."""
    row = bytes([2, 2, w >> 8, w & 255])
    for _channel in range(4):
        left = w
        while left:
            n = min(127, left)
            row += bytes([128 + n, 0])
            left -= n
    path.write_bytes(b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n" + f"-Y {h} +X {w}\n".encode() + row * h)
    return path


def test_formats_are_recognised_by_their_first_bytes(tmp_path: Path) -> None:
    small = np.full((12, 16, 3), 90, np.uint8)
    for ext, kind in ((".png", "PNG"), (".jpg", "JPEG"), (".bmp", "BMP"), (".webp", "WebP"), (".tiff", "TIFF")):
        p = tmp_path / f"a{ext}"
        cv2.imwrite(str(p), small)
        assert picture_format(p.read_bytes()[:64]) == kind
        assert load_image(p).size == (16, 12)
    Image.new("RGB", (16, 12)).save(tmp_path / "a.gif")
    assert load_image(tmp_path / "a.gif").size == (16, 12)
    for ext in (".hdr", ".pfm", ".ppm", ".exr"):  # OpenCV decodes these; the companion does not
        p = tmp_path / f"a{ext}"
        if ext == ".exr":
            p.write_bytes(b"\x76\x2f\x31\x01" + bytes(100))
        else:
            cv2.imwrite(str(p), small.astype(np.float32) if ext in (".hdr", ".pfm") else small)
        assert cv2.imread(str(p)) is not None or ext == ".exr"
        with pytest.raises(InvalidImageError, match="not a picture the companion can read"):
            load_image(p)
    (tmp_path / "cut.png").write_bytes(b"\x89PNG\r\n\x1a\n")  # an allowed format with no size: broken
    with pytest.raises(InvalidImageError, match="damaged"):
        load_image(tmp_path / "cut.png")


def test_a_radiance_hdr_is_refused_unread(tmp_path: Path) -> None:
    """A 3 MB .hdr of 8000 x 6000 pixels took 845 MB in 'dice read' (decoded as 32-bit floats)."""
    hdr = radiance_hdr(tmp_path / "big.hdr", 6000, 8000)
    assert 2_000_000 < hdr.stat().st_size < 4_000_000
    r, seconds, peak_mb = run_measured("dice", "read", str(hdr))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "big.hdr is not a picture the companion can read (PNG, JPEG, BMP, WebP, TIFF)." in r.stderr
    assert peak_mb < REFUSED_MB, f"peak {peak_mb:.0f} MB"


def test_a_video_of_huge_frames_is_refused_before_a_frame_is_decoded(tmp_path: Path) -> None:
    """A small MJPEG file whose frames are 9000 x 6000 (54 MP): refused from the container's
    frame size when opened (a 13000 x 13000 one took 1.3 GB at its first frame), and the
    command exits 1 (it exited 0 when its source had failed)."""
    video = tmp_path / "big.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (9000, 6000), isColor=False)
    assert writer.isOpened()
    writer.write(np.zeros((6000, 9000), np.uint8))
    writer.release()
    r, seconds, peak_mb = run_measured("dice", "watch", "--video", str(video))
    assert r.returncode == 1, r.stderr
    assert "big.avi is 9000 × 6000 pixels (54 megapixels), more than the 50 megapixels" in r.stderr
    assert "Traceback" not in r.stderr
    assert peak_mb < REFUSED_MB, f"peak {peak_mb:.0f} MB"


def test_dice_watch_exits_non_zero_when_its_source_failed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "watch", "--video", str(tmp_path / "gone.avi")]) == 1
    assert "source failed" in capsys.readouterr().err
    for bad in ("0", "-2", "nan", "inf", "five"):
        assert main(["dice", "watch", "--images", str(tmp_path), "--fps", bad]) == 2
        assert "--fps" in capsys.readouterr().err
    assert main(["dice", "read", str(tmp_path / "x.png"), "--roi", "1,2,x,4"]) != 0
    assert "--roi needs numbers" in capsys.readouterr().err


def test_dice_eval_without_labels_or_with_broken_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "eval", str(tmp_path)]) == 2
    assert "has no labels.json" in capsys.readouterr().err
    (tmp_path / "labels.json").write_bytes(b'{"images": [\xff')
    assert main(["dice", "eval", str(tmp_path)]) == 2
    assert "is not JSON text" in capsys.readouterr().err


@pytest.mark.parametrize("labels, says", [
    ([1, 2], '{"images": [...]}'),
    ({"images": {"a": 1}}, '{"images": [...]}'),
    ({"images": [{"dice": []}]}, 'needs "file"'),
    ({"images": [{"file": 3, "dice": []}]}, 'needs "file"'),
    ({"images": [{"file": "a.png", "split": "test"}]}, 'needs "dice"'),
    ({"images": [{"file": "a.png", "split": "test", "dice": [{"value": 3}]}]}, 'needs "box"'),
    ({"images": [{"file": "a.png", "split": "test", "dice": [{"box": [1, 2, "x", 4], "value": 3}]}]}, 'needs "box"'),
    ({"images": [{"file": "a.png", "split": "test", "dice": [{"box": [1, 2, 3, 4], "value": "3"}]}]}, 'needs "value"'),
    ({"images": [{"file": "a.png", "split": 5, "dice": []}]}, '"split" must be text'),
])
def test_dice_eval_with_bad_labels(tmp_path: Path, capsys: pytest.CaptureFixture[str], labels: object, says: str) -> None:
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    assert main(["dice", "eval", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert says in err and "internal error" not in err


def test_calibrate_refuses_corners_that_are_no_grid() -> None:
    check_corners([(10, 10), (500, 12), (505, 400), (8, 390)])
    for corners, says in (
        ([(100, 100)] * 4, "same point"),
        ([(10, 10), (200, 10), (400, 10), (600, 10)], "three on one line"),
        ([(10, 10), (500, 400), (500, 10), (10, 400)], "crossed"),
        ([(10, 10), (500, 12), (505, float("nan")), (8, 390)], "pixel numbers"),
    ):
        with pytest.raises(CalibrationError, match=says):
            check_corners(corners)


def test_calibrate_cli_refuses_four_identical_corners(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.boarddefaults import board_for
    from vision.printing import print_board

    photo = print_board(board_for("qubism"), tmp_path / "q.png", dpi=60)
    out = tmp_path / "mine.toml"
    code = main(["board", "calibrate", "--board", "qubism", "--image", str(photo),
                 "--corners", "50,50", "50,50", "50,50", "50,50", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "same point" in err and not out.exists()
    assert main(["board", "calibrate", "--board", "qubism", "--image", str(photo),
                 "--corners", "50,50", "nan,3", "1,1", "2,2", "-o", str(out)]) == 2
    assert "a point is x,y in pixels" in capsys.readouterr().err


@pytest.mark.parametrize("model", [
    [1, 2, 3],
    {"looks": {"cat": [[1, 2]]}},
    {"looks": {"cat": [["a", "b", "c", "d"]]}},
    {"looks": {"cat": [1, 2, 3, 4]}},
    {"looks": {}, "arrows": [[1.0, 2.0]]},
    {"looks": {"cat": [[1, 2, 3, float("inf")]]}},
])
def test_a_foreign_piece_model_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], model: object) -> None:
    from vision.boarddefaults import board_for
    from vision.printing import print_board

    photo = print_board(board_for("qubism"), tmp_path / "q.png", dpi=60)
    path = tmp_path / "model.json"
    path.write_text(json.dumps(model))
    assert main(["board", "read", str(photo), "--board", "qubism", "--model", str(path)]) == 2
    err = capsys.readouterr().err
    assert "cannot load piece model" in err and "internal error" not in err


def test_radiance_helper_makes_a_picture_opencv_reads(tmp_path: Path) -> None:
    """The .hdr of the memory test is a real one (OpenCV decodes it), so its refusal counts."""
    img = cv2.imread(str(radiance_hdr(tmp_path / "s.hdr", 300, 200)), cv2.IMREAD_UNCHANGED)
    assert img is not None and img.shape == (200, 300, 3) and img.dtype == np.float32
    assert struct.unpack(">H", bytes([1, 44]))[0] == 300


@pytest.mark.parametrize("labels, says", [
    ({"scenes": [{"file": "x.hdr", "board": "qubism", "squares": {}}]}, "x.hdr is not a picture the companion can read"),
    ({"scenes": [{"fil": 1}]}, "is not a board scene dataset"),
    ([1], "is not a board scene dataset"),
])
def test_board_eval_with_bad_labels(tmp_path: Path, capsys: pytest.CaptureFixture[str], labels: object, says: str) -> None:
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    radiance_hdr(tmp_path / "x.hdr", 64, 48)
    assert main(["board", "eval", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert says in err and "internal error" not in err


def test_an_mjpeg_frame_bigger_than_its_container_says_is_refused_undecoded(tmp_path: Path) -> None:
    """Each MJPEG frame is a JPEG that may claim any size, whatever the AVI header says: the
    second frame's header is made to claim 9000 x 6000; it is refused from that header."""
    from vision.camera import VideoFileSource

    video = tmp_path / "liar.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    for i in range(3):
        writer.write(np.full((48, 64, 3), 60 * i, np.uint8))
    writer.release()
    data = bytearray(video.read_bytes())
    sofs = [i for i in range(len(data) - 9) if data[i] == 0xFF and data[i + 1] == 0xC0]
    assert len(sofs) == 3
    data[sofs[1] + 5:sofs[1] + 9] = struct.pack(">HH", 6000, 9000)  # height, width
    video.write_bytes(bytes(data))
    states: list[tuple[str, str]] = []
    src = VideoFileSource(video, on_state=lambda s, d: states.append((s, d)), give_up_s=2.0, backoff_s=0.01)
    frames = [frame.shape for _t, frame in src]
    assert frames == [(48, 64, 3)]
    assert states[-1][0] == "failed" and "liar.avi is 9000 × 6000 pixels" in states[-1][1]
