"""Bounded memory and time on any picture: vision.imageload, the CLIs that load pictures, and
camera frames. The CLIs run in a child process whose peak memory is measured."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import time
import tracemalloc
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from vision import limits
from vision.synth import dice as synth_dice
from vision.camera import FrameSource
from vision.errors import CameraError, InvalidImageError
from vision.imageload import ImageTooLargeError, fit_frame, header_size, image_size, load_image

ROOT = Path(__file__).resolve().parents[2]
PEAK_MB = 400  # a Pi 3/4 with 1 GB must survive any picture
ONE_SENTENCE = "robust-big.png is 30000 × 30000 pixels (900 megapixels), more than the 50 megapixels the companion reads: use a smaller picture."


def blank_png(path: Path, w: int, h: int) -> Path:
    """A 1-bit grey PNG of ``w`` x ``h`` zero pixels, written with zlib directly: tiny on disk."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = bytes(1 + (w + 7) // 8)
    z = zlib.compressobj(9)
    body = b"".join(z.compress(row) for _ in range(h)) + z.flush()
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0))
                     + chunk(b"IDAT", body) + chunk(b"IEND", b""))
    return path


@pytest.fixture(scope="module")
def big_png(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return blank_png(tmp_path_factory.mktemp("big") / "robust-big.png", 30000, 30000)


def run_measured(*args: str) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """``python -m companion ARGS`` in a fresh child: (result, seconds, peak RSS in MB). The
    child runs under a small Python parent so RUSAGE_CHILDREN holds that child alone."""
    probe = (
        "import resource, subprocess, sys, time, json\n"
        "t = time.perf_counter()\n"
        "r = subprocess.run([sys.executable, '-m', 'companion', *sys.argv[1:]], capture_output=True, text=True)\n"
        "dt = time.perf_counter() - t\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps({'rc': r.returncode, 'out': r.stdout, 'err': r.stderr, 's': dt, 'mb': peak}))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, env=env, timeout=300)
    d = json.loads(p.stdout)
    return subprocess.CompletedProcess(list(args), d["rc"], d["out"], d["err"]), d["s"], d["mb"]


# -- headers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ext", [".png", ".jpg", ".bmp", ".webp", ".tif"])
def test_size_from_the_header_alone(tmp_path: Path, ext: str) -> None:
    img = np.zeros((123, 457, 3), np.uint8)
    p = tmp_path / f"a{ext}"
    assert cv2.imwrite(str(p), img)
    assert image_size(p) == (457, 123)
    if ext != ".tif":  # TIFF goes through Pillow
        assert header_size(p.read_bytes()[:65536]) == (457, 123)


def test_gif_and_lossless_webp_headers(tmp_path: Path) -> None:
    Image.new("RGB", (301, 77)).save(tmp_path / "a.gif")
    Image.new("RGB", (301, 77)).save(tmp_path / "a.webp", lossless=True)
    assert image_size(tmp_path / "a.gif") == (301, 77)
    assert image_size(tmp_path / "a.webp") == (301, 77)


# -- refusing the absurd --------------------------------------------------------------------


def test_absurd_png_refused_from_the_header_fast_and_small(big_png: Path) -> None:
    assert big_png.stat().st_size < 200_000
    tracemalloc.start()
    t = time.perf_counter()
    with pytest.raises(ImageTooLargeError) as e:
        load_image(big_png, limits.DICE_MAX_SIDE)
    dt = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert str(e.value) == ONE_SENTENCE
    assert isinstance(e.value, InvalidImageError)
    assert dt < 1.0 and peak < 1_000_000


def test_too_long_a_side_and_too_big_a_file(tmp_path: Path) -> None:
    with pytest.raises(ImageTooLargeError, match="25000 × 10 pixels"):
        load_image(blank_png(tmp_path / "strip.png", 25000, 10))
    fat = tmp_path / "fat.png"
    cv2.imwrite(str(fat), np.zeros((8, 8, 3), np.uint8))
    with fat.open("ab") as fh:  # a valid small header, then a file far too big
        fh.truncate(limits.MAX_IMAGE_FILE_BYTES + 1)
    with pytest.raises(ImageTooLargeError, match="MiB"):
        load_image(fat)


def test_missing_and_broken_pictures(tmp_path: Path) -> None:
    with pytest.raises(InvalidImageError, match="no such picture"):
        load_image(tmp_path / "nothing.png")
    (tmp_path / "junk.jpg").write_bytes(b"not an image at all")
    with pytest.raises(InvalidImageError, match="not a picture"):
        load_image(tmp_path / "junk.jpg")
    (tmp_path / "junk2.jpg").write_bytes(b"\xff\xd8 a broken jpeg \xff\xd9")
    with pytest.raises(InvalidImageError, match="not a picture"):
        load_image(tmp_path / "junk2.jpg")


@pytest.mark.parametrize("cmd", [("dice", "read"), ("board", "read", "--board", "katenmuis")])
def test_cli_refuses_the_absurd_picture_with_bounded_memory(big_png: Path, cmd: tuple[str, ...]) -> None:
    args = (*cmd[:2], str(big_png), *cmd[2:])
    r, seconds, peak_mb = run_measured(*args)
    assert r.returncode != 0 and r.stdout == ""
    assert ONE_SENTENCE in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr
    assert peak_mb < PEAK_MB, f"peak {peak_mb:.0f} MB"
    assert seconds < 20  # process start and imports included (was 29-51 s and 5-13 GB)


# -- scaling the big-but-allowed ------------------------------------------------------------


def test_load_image_scales_down_to_the_working_size(tmp_path: Path) -> None:
    img = np.zeros((4000, 6000, 3), np.uint8)
    cv2.rectangle(img, (3000, 2000), (3600, 2600), (255, 255, 255), -1)
    for ext in (".png", ".jpg"):
        p = tmp_path / f"big{ext}"
        cv2.imwrite(str(p), img)
        got = load_image(p, 1920)
        assert got.image.shape == (1280, 1920, 3) and got.size == (6000, 4000)
        assert got.scale == pytest.approx(0.32)
        assert got.image[int(2300 * 0.32), int(3300 * 0.32)].min() > 200  # the square is where it was
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), img[:400, :600])
    assert load_image(small, 1920).scale == 1.0


def test_dice_read_on_a_big_photo_matches_the_small_one(tmp_path: Path) -> None:
    scene, _ = synth_dice.render_scene(np.random.default_rng(11))
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), scene)
    f = 6000 / scene.shape[1]
    big = tmp_path / "big.jpg"
    cv2.imwrite(str(big), cv2.resize(scene, None, fx=f, fy=f, interpolation=cv2.INTER_CUBIC),
                [cv2.IMWRITE_JPEG_QUALITY, 97])
    r_small, _, _ = run_measured("dice", "read", str(small), "--jsonl")
    r_big, _, peak_mb = run_measured("dice", "read", str(big), "--jsonl")
    assert r_small.returncode == 0 and r_big.returncode == 0, r_big.stderr
    a, b = json.loads(r_small.stdout)["dice"], json.loads(r_big.stdout)["dice"]
    assert a and sorted(d["value"] for d in a) == sorted(d["value"] for d in b)
    for da, db in zip(sorted(a, key=lambda d: d["box"]), sorted(b, key=lambda d: d["box"])):
        # boxes in the file's pixels: the big photo is read from a reduced copy whose detector
        # input is 480 px instead of 320, so the box may differ by a few pixels of the small photo
        # (under a sixth of the die's side); a box left in the reduced copy's pixels is off ~9x
        side = da["box"][2] - da["box"][0]
        assert np.allclose(np.array(db["box"]) / f, da["box"], atol=max(4.0, 0.15 * side)), (da, db)
    assert peak_mb < PEAK_MB, f"peak {peak_mb:.0f} MB"


def test_board_read_on_a_big_png(tmp_path: Path) -> None:
    from vision.boarddefaults import board_for
    from vision.synth.board import random_look, render_scene

    board = board_for("katenmuis")
    rng = np.random.default_rng(5)
    scene = render_scene(board, {}, random_look(board, rng), rng, hand=False, hide_marker=False, clean=True)
    f = 6000 / scene.image.shape[1]
    big = tmp_path / "board.png"
    cv2.imwrite(str(big), cv2.resize(scene.image, None, fx=f, fy=f, interpolation=cv2.INTER_LINEAR),
                [cv2.IMWRITE_PNG_COMPRESSION, 1])
    r, _, peak_mb = run_measured("board", "read", str(big), "--board", "katenmuis", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["found"] is True
    assert peak_mb < PEAK_MB, f"peak {peak_mb:.0f} MB"


# -- camera frames ----------------------------------------------------------------------------


class FramesSource(FrameSource):
    """A test double: hands out the given frames (an exception instance is raised instead)."""

    def __init__(self, frames: list[object], **kw: object) -> None:
        super().__init__(sleep=lambda s: None, **kw)  # type: ignore[arg-type]
        self.frames = list(frames)

    def _open(self) -> None:
        pass

    def _read(self) -> tuple[float, np.ndarray] | None:
        if not self.frames:
            return None
        f = self.frames.pop(0)
        if isinstance(f, Exception):
            raise f
        return 0.0, f  # type: ignore[return-value]


def test_camera_frames_scaled_at_the_source_and_absurd_ones_refused() -> None:
    states: list[tuple[str, str]] = []
    big = np.zeros((3000, 4000, 3), np.uint8)
    absurd = np.broadcast_to(np.zeros((1, 1, 3), np.uint8), (8000, 8000, 3))  # 64 MP, no memory
    src = FramesSource([big, absurd, big], on_state=lambda s, d: states.append((s, d)))
    got = [f for _, f in src]
    assert [f.shape for f in got] == [(1440, 1920, 3)]
    assert states[-1][0] == "failed" and "8000 × 8000 pixels" in states[-1][1]


def test_broken_frames_are_a_lost_camera_never_analysed() -> None:
    ok = np.zeros((48, 64, 3), np.uint8)
    states: list[str] = []
    src = FramesSource([ok, None, np.zeros((48, 64), np.uint8), np.zeros((0, 0, 3), np.uint8),
                        ok.astype(np.float32), CameraError("unplugged"), ok],
                       on_state=lambda s, d: states.append(s))
    got = [f for _, f in src]
    assert len(got) == 2 and all(f.dtype == np.uint8 and f.shape == (48, 64, 3) for f in got)
    assert src.broken_frames == 4 and src.reconnects == 1
    assert states[:3] == ["opening", "running", "lost"] and states[-2:] == ["running", "ended"]
    assert states.count("lost") == 5 and states.count("running") == 2


def test_fit_frame_keeps_small_frames() -> None:
    f = np.zeros((480, 640, 3), np.uint8)
    assert fit_frame(f, 1920)[0] is f


# -- the other files vision reads -----------------------------------------------------------


def test_learned_files_and_models_over_their_caps(tmp_path: Path) -> None:
    from companion.limits import MAX_JSON_FILE_BYTES
    from vision.dice import DiceConfig, warm_up
    from vision.errors import ModelError
    from vision.pieces import PieceError, PieceModel
    from vision.tiles import TileError, TileLearner

    big = tmp_path / "big.json"
    with big.open("wb") as fh:
        fh.truncate(MAX_JSON_FILE_BYTES + 1)  # sparse: nothing written
    with pytest.raises(PieceError, match="learned piece looks"):
        PieceModel.load(big)
    with pytest.raises(TileError, match="tile examples"):
        TileLearner.load(big)
    onnx = tmp_path / "det.onnx"
    with onnx.open("wb") as fh:
        fh.truncate(limits.MAX_MODEL_BYTES + 1)
    with pytest.raises(ModelError, match="a dice model"):
        warm_up(DiceConfig(det_model=onnx))


def test_a_picture_cut_short_is_never_decoded(tmp_path: Path) -> None:
    scene, _ = synth_dice.render_scene(np.random.default_rng(3))
    for ext in (".jpg", ".png"):
        whole = tmp_path / f"whole{ext}"
        cv2.imwrite(str(whole), scene)
        assert load_image(whole).image.shape == scene.shape
        cut = tmp_path / f"cut{ext}"
        cut.write_bytes(whole.read_bytes()[: whole.stat().st_size * 2 // 3])  # a file still being written
        with pytest.raises(InvalidImageError, match="incomplete"):
            load_image(cut)


def test_an_image_feed_skips_a_file_cut_short(tmp_path: Path) -> None:
    from vision.camera import ImageFolderSource

    scene, _ = synth_dice.render_scene(np.random.default_rng(4))
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.jpg"), scene)
    data = (tmp_path / "1.jpg").read_bytes()
    (tmp_path / "1.jpg").write_bytes(data[: len(data) // 2])
    states: list[str] = []
    got = list(ImageFolderSource(tmp_path, sleep=lambda s: None, on_state=lambda s, d: states.append(s)))
    assert len(got) == 2 and all(np.array_equal(f, got[0][1]) for _, f in got)
    assert states.count("lost") == 1 and states[-1] == "ended"
