"""Frame sources: a written video file, an image folder, a lost device and its recovery."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import ImageFolderSource, PiCameraSource, VideoCaptureSource, VideoFileSource, picamera2_available


def _frames(n: int) -> list[np.ndarray]:
    out = []
    for i in range(n):
        f = np.zeros((96, 128, 3), np.uint8)
        cv2.rectangle(f, (5 + 10 * i, 20), (25 + 10 * i, 40), (255, 255, 255), -1)
        out.append(f)
    return out


def _write_video(path: Path, n: int = 8, fps: float = 10.0) -> Path:
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (128, 96))
    assert w.isOpened()
    for f in _frames(n):
        w.write(f)
    w.release()
    return path


def _write_folder(d: Path, n: int = 5) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    for i, f in enumerate(_frames(n)):
        cv2.imwrite(str(d / f"frame_{i:03d}.png"), f)
    return d


def test_video_file_yields_timed_frames_then_ends(tmp_path: Path) -> None:
    src = VideoFileSource(_write_video(tmp_path / "v.avi"), t0=100.0)
    got = list(src)
    assert len(got) == 8
    assert [round(t - 100.0, 3) for t, _ in got] == [round(i / 10.0, 3) for i in range(8)]
    assert got[0][1].shape == (96, 128, 3)
    assert src.state == "ended"


def test_video_loop(tmp_path: Path) -> None:
    src = VideoFileSource(_write_video(tmp_path / "v.avi", n=4), loop=True)
    it = iter(src)
    got = [next(it) for _ in range(10)]
    assert len(got) == 10 and got[-1][0] > got[3][0]


def test_video_that_vanishes_and_comes_back(tmp_path: Path) -> None:
    path = _write_video(tmp_path / "v.avi")
    away = tmp_path / "away.avi"
    states: list[str] = []
    sleeps: list[float] = []

    def sleep(s: float) -> None:
        sleeps.append(s)
        if len(sleeps) == 3:  # the device comes back after a few retries
            shutil.move(str(away), str(path))

    src = VideoFileSource(path, sleep=sleep, on_state=lambda s, d: states.append(s))
    got = []
    for t, f in src:
        got.append(t)
        if len(got) == 3:
            shutil.move(str(path), str(away))
    assert len(got) == 8  # resumed where it was
    assert sleeps == [0.5, 1.0, 2.0]  # exponential backoff
    assert "lost" in states and states[-1] == "ended"
    assert src.reconnects == 1


def test_image_folder_sorted_fake_fps_and_loop(tmp_path: Path) -> None:
    d = _write_folder(tmp_path / "imgs")
    (d / "notes.txt").write_text("not an image")
    got = list(ImageFolderSource(d, fps=4.0))
    assert [t for t, _ in got] == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert np.array_equal(got[0][1], cv2.imread(str(d / "frame_000.png")))
    it = iter(ImageFolderSource(d, fps=4.0, loop=True))
    assert len([next(it) for _ in range(12)]) == 12


def test_image_folder_lost_and_recovered(tmp_path: Path) -> None:
    d = _write_folder(tmp_path / "imgs")
    backup = tmp_path / "backup"
    states: list[str] = []

    def sleep(s: float) -> None:
        if backup.exists() and len([x for x in states if x == "lost"]) >= 1 and not d.exists():
            shutil.move(str(backup), str(d))

    src = ImageFolderSource(d, fps=5.0, sleep=sleep, on_state=lambda s, _d: states.append(s))
    got = []
    for t, f in src:
        got.append(t)
        if len(got) == 2:
            shutil.move(str(d), str(backup))  # the device disappears
    assert len(got) == 5
    assert states.count("lost") == 1 and "running" in states and states[-1] == "ended"


def test_gives_up_after_a_while(tmp_path: Path) -> None:
    now = {"t": 0.0}

    def sleep(s: float) -> None:
        now["t"] += s

    src = ImageFolderSource(tmp_path / "missing", give_up_s=5.0, sleep=sleep, clock=lambda: now["t"])
    assert list(src) == []
    assert src.state == "failed" and "not found" in src.detail


def test_missing_camera_reports_lost_then_fails() -> None:
    now = {"t": 0.0}

    def sleep(s: float) -> None:
        now["t"] += s

    src = VideoCaptureSource("/nonexistent/device.mjpg", give_up_s=2.0, sleep=sleep, clock=lambda: now["t"])
    assert list(src) == []
    assert src.state == "failed"


@pytest.mark.skipif(picamera2_available(), reason="picamera2 present")
def test_picamera_without_picamera2_is_a_clear_error() -> None:
    src = PiCameraSource(give_up_s=0.0, sleep=lambda s: None)
    assert list(src) == []
    assert src.state == "failed" and "picamera2" in src.detail
