"""Frame sources: each yields (timestamp, frame BGR) and survives a lost device.

* ``VideoCaptureSource(0)`` / ``("rtsp://...")``: OpenCV VideoCapture, an index or a URL;
* ``VideoFileSource(path, loop=False)``: a video file (timestamps from the video's frame rate);
* ``ImageFolderSource(dir, fps=5, loop=False)``: a folder of images, sorted, fake frame rate;
* ``PiCameraSource()``: picamera2 on Raspberry Pi OS (imported lazily).

When a read fails (an error, no frame, or a broken frame: empty, not 8-bit BGR) the source
reports ``state = "lost"`` (and calls ``on_state``) at once, then reopens with exponential
backoff (``backoff_s`` doubling up to ``max_backoff_s``) until the device comes back
(``state = "running"`` again, ``reconnects`` counts it) or ``give_up_s`` has passed without a
frame (then it stops: ``state = "failed"``). A source that simply ends (last video frame, last
image without loop) stops with ``state = "ended"``. :meth:`FrameSource.stop` (any thread) ends
the iteration at the next frame or during a backoff wait. ``sleep`` and ``clock`` can be
injected for tests. Frames are scaled down to ``max_side`` here (``vision.limits``).
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
import time
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.i18n import _
from vision.errors import CameraError, InvalidImageError
from vision.imageload import ImageTooLargeError, check_size, decode_picture, fit_frame, load_image
from vision.limits import CAMERA_MAX_SIDE

IMAGE_EXTS = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}
StateCallback = Callable[[str, str], None]  # (state, detail)


class FrameSource:
    """Base class: iterate for (t, frame); ``state`` and ``detail`` tell what is going on."""

    def __init__(self, backoff_s: float = 0.5, max_backoff_s: float = 8.0, give_up_s: float | None = None,
                 on_state: StateCallback | None = None, sleep: Callable[[float], Any] | None = None,
                 clock: Callable[[], float] = time.time, max_side: int | None = CAMERA_MAX_SIDE) -> None:
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.give_up_s = give_up_s
        self.on_state = on_state
        self._stopping = threading.Event()
        self.sleep: Callable[[float], Any] = sleep if sleep is not None else self._stopping.wait
        """Waits out a backoff; by default it wakes up early when :meth:`stop` is called."""
        self.clock = clock
        self.state = "closed"
        self.detail = ""
        self.reconnects = 0
        self.max_side = max_side
        """Frames are scaled down to this long side at the source (None: as delivered)."""
        self.broken_frames = 0
        """Frames dropped because they were empty or not 8-bit BGR (the device was failing)."""

    def _set(self, state: str, detail: str = "") -> None:
        if state != self.state or detail != self.detail:
            self.state, self.detail = state, detail
            if self.on_state is not None:
                self.on_state(state, detail)

    # subclasses implement these three
    def _open(self) -> None:
        raise NotImplementedError

    def _read(self) -> tuple[float, np.ndarray] | None:
        """A frame, None at a normal end; raise CameraError when the device is lost."""
        raise NotImplementedError

    def _release(self) -> None:
        pass

    @staticmethod
    def _check_capture(cap: Any, name: str) -> None:
        """Refuse (``ImageTooLargeError``, after releasing ``cap``) a video or stream whose frames
        the container or the device says are over ``MAX_IMAGE_PIXELS``: found from OpenCV's
        properties when opened, before a frame is decoded (a 2 MB MJPEG file of 13000 x 13000
        frames took 1.3 GB at its first frame)."""
        w = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0)
        h = int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
        try:
            check_size(w, h, name)
        except ImageTooLargeError:
            cap.release()
            raise

    def stop(self) -> None:
        """Ask the iteration to end (from any thread): after the frame being read, or at once
        when waiting to reconnect. The device is released by the iterating thread."""
        self._stopping.set()

    def close(self) -> None:
        self._release()
        self._set("closed")

    def _fit(self, frame: Any) -> np.ndarray:
        """A frame as the stages get it: 8-bit BGR, at most :data:`CAMERA_MAX_SIDE` long.

        A broken frame (nothing, empty, not 8-bit, not 3 channels: a device half unplugged) is a
        lost device (``CameraError``), never analysed; a frame over ``MAX_IMAGE_PIXELS`` is
        refused (``ImageTooLargeError``); a big one is scaled down here, once."""
        if (not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0
                or frame.dtype != np.uint8):
            self.broken_frames += 1
            raise CameraError(_("the camera delivered a broken frame"))
        h, w = frame.shape[:2]
        check_size(w, h, _("a camera frame"))
        return fit_frame(frame, self.max_side)[0]

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __iter__(self) -> Iterator[tuple[float, np.ndarray]]:
        delay = self.backoff_s
        lost_since: float | None = None
        opened = False
        while True:
            if self._stopping.is_set():
                self._release()
                self._set("closed")
                return
            try:
                if not opened:
                    self._set("opening")
                    self._open()
                    opened = True
                item = self._read()
                if item is not None:
                    item = (item[0], self._fit(item[1]))
            except ImageTooLargeError as e:  # refused, not lost: retrying would not help
                self._release()
                self._set("failed", str(e))
                return
            except CameraError as e:
                self._release()
                opened = False
                now = self.clock()
                if lost_since is None:
                    lost_since = now
                if self.give_up_s is not None and now - lost_since >= self.give_up_s:
                    self._set("failed", str(e))
                    return
                self._set("lost", str(e))
                self.sleep(delay)
                delay = min(self.max_backoff_s, delay * 2)
                continue
            if item is None:
                self._release()
                self._set("ended")
                return
            if lost_since is not None:
                self.reconnects += 1
            lost_since = None
            delay = self.backoff_s
            self._set("running")
            yield item


class VideoCaptureSource(FrameSource):
    """OpenCV VideoCapture on a device index or a URL (stream)."""

    def __init__(self, target: int | str, width: int | None = None, height: int | None = None,
                 **kw: Any) -> None:
        super().__init__(**kw)
        self.target = target
        self.width, self.height = width, height
        self._cap: cv2.VideoCapture | None = None

    def _open(self) -> None:
        cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"cannot open camera {self.target!r}")
        self._check_capture(cap, str(self.target))
        if self.width:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        if self.height:
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        self._cap = cap

    def _read(self) -> tuple[float, np.ndarray] | None:
        assert self._cap is not None
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"camera {self.target!r} stopped delivering frames")
        return self.clock(), frame

    def _release(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class VideoFileSource(FrameSource):
    """A video file. Timestamps are ``t0 + frame_index / fps`` (video time, not wall time)
    unless ``realtime=True`` (then frames are also paced at the video's rate).
    A file that vanishes or can't be read is a lost device; its end is a normal end.

    Frames are bounded before they are decoded: the container's frame size is checked when the
    file is opened, and an MJPEG video (each frame a JPEG, which may each claim any size,
    whatever the container says) is read as raw frames whose JPEG header is checked
    (:func:`vision.imageload.check_size`) before each is decoded, already reduced."""

    def __init__(self, path: str | Path, loop: bool = False, realtime: bool = False, t0: float = 0.0,
                 **kw: Any) -> None:
        super().__init__(**kw)
        self.path = Path(path)
        self.loop = loop
        self.realtime = realtime
        self.t0 = t0
        self._cap: cv2.VideoCapture | None = None
        self._index = 0  # frames delivered so far (resume there after a reopen)
        self._fps = 0.0
        self._mjpeg = False  # frames read raw (JPEG bytes) and decoded here

    def _open(self) -> None:
        if not self.path.is_file():
            raise CameraError(f"video not found: {self.path}")
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"cannot open video {self.path}")
        self._check_capture(cap, self.path.name)
        self._fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
        raw = self._raw_jpeg_capture()
        self._mjpeg = raw is not None
        if raw is not None:
            cap.release()
            cap = raw
        if self._index:
            cap.set(cv2.CAP_PROP_POS_FRAMES, self._index)
        self._cap = cap

    def _raw_jpeg_capture(self) -> Any:
        """A capture of this file giving raw frames, if its frames are JPEG pictures (MJPEG),
        else None (other codecs are decoded by OpenCV, bounded by the container's size)."""
        raw = cv2.VideoCapture(str(self.path))
        try:
            if raw.isOpened() and raw.set(cv2.CAP_PROP_FORMAT, -1):
                ok, packet = raw.read()
                if ok and packet is not None and packet.dtype == np.uint8 and bytes(packet.ravel()[:2]) == b"\xff\xd8":
                    raw.set(cv2.CAP_PROP_POS_FRAMES, 0)
                    return raw
        except cv2.error:
            pass
        raw.release()
        return None

    def _grab(self) -> tuple[bool, Any]:
        """The next frame: decoded by OpenCV, or for MJPEG its JPEG checked, then decoded here."""
        assert self._cap is not None
        ok, frame = self._cap.read()
        if not self._mjpeg or not ok or frame is None:
            return ok, frame
        try:  # ImageTooLargeError goes on: the source fails, nothing decoded
            return True, decode_picture(np.ascontiguousarray(frame).ravel(), self.path.name, self.max_side)
        except ImageTooLargeError:
            raise
        except InvalidImageError as exc:
            raise CameraError(f"frame {self._index} of {self.path}: {exc}") from None

    def _read(self) -> tuple[float, np.ndarray] | None:
        assert self._cap is not None
        if not self.path.exists():
            raise CameraError(f"video vanished: {self.path}")
        ok, frame = self._grab()
        if not ok or frame is None:
            n = self._cap.get(cv2.CAP_PROP_FRAME_COUNT)
            if n > 0 and self._index >= n:
                if not self.loop:
                    return None
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, frame = self._grab()
                if not ok:
                    raise CameraError(f"cannot rewind video {self.path}")
            else:
                raise CameraError(f"cannot read frame {self._index} of {self.path}")
        t = self.t0 + self._index / self._fps
        self._index += 1
        if self.realtime:
            self.sleep(1.0 / self._fps)
        return t, frame

    def _release(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class ImageFolderSource(FrameSource):
    """The images of a folder in name order at a fake frame rate (``t0 + i / fps``); with
    ``names``, only those of them. A missing folder or an image that disappears or can't be
    decoded is a lost device."""

    def __init__(self, folder: str | Path, fps: float = 5.0, loop: bool = False, realtime: bool = False,
                 t0: float = 0.0, names: Collection[str] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.folder = Path(folder)
        self.names = None if names is None else frozenset(names)
        self.fps = fps
        self.loop = loop
        self.realtime = realtime
        self.t0 = t0
        self._files: list[Path] = []
        self._pos = 0  # index into the sorted list
        self._count = 0  # frames delivered (drives the timestamp)

    def _list(self) -> list[Path]:
        return sorted(p for p in self.folder.iterdir()
                      if p.suffix.lower() in IMAGE_EXTS and (self.names is None or p.name in self.names))

    def _open(self) -> None:
        if not self.folder.is_dir():
            raise CameraError(f"image folder not found: {self.folder}")
        files = self._list()
        if not files:
            raise CameraError(f"no images in {self.folder}")
        self._files = files

    def _read(self) -> tuple[float, np.ndarray] | None:
        if self._pos >= len(self._files):
            if not self.loop:
                return None
            self._pos = 0
        path = self._files[self._pos]
        if not path.is_file():
            raise CameraError(f"image gone: {path}")  # lost: the same image is tried again
        try:
            frame = load_image(path, self.max_side).image
        except InvalidImageError as exc:  # unreadable or too big: reported, the next try moves on
            self._pos += 1
            raise CameraError(str(exc)) from None
        self._pos += 1
        t = self.t0 + self._count / self.fps
        self._count += 1
        if self.realtime:
            self.sleep(1.0 / self.fps)
        return t, frame


class PiCameraSource(FrameSource):
    """picamera2 (Raspberry Pi OS, libcamera). Imported only when opened."""

    def __init__(self, size: tuple[int, int] = (1280, 960), **kw: Any) -> None:
        super().__init__(**kw)
        self.size = size
        self._cam: Any = None

    def _open(self) -> None:
        try:
            mod = importlib.import_module("picamera2")
        except ImportError as e:
            raise CameraError("picamera2 is not installed (Raspberry Pi OS: apt install python3-picamera2)") from e
        try:
            cam = mod.Picamera2()
            cam.configure(cam.create_video_configuration(main={"size": self.size, "format": "RGB888"}))
            cam.start()
        except Exception as e:  # noqa: BLE001 - any libcamera failure is a lost device
            raise CameraError(f"cannot start the Pi camera: {e}") from e
        self._cam = cam

    def _read(self) -> tuple[float, np.ndarray] | None:
        try:
            frame = self._cam.capture_array()
        except Exception as e:  # noqa: BLE001
            raise CameraError(f"Pi camera read failed: {e}") from e
        return self.clock(), np.ascontiguousarray(frame[..., :3])  # RGB888 is BGR in memory

    def _release(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            except Exception:  # noqa: BLE001
                pass
            self._cam = None


def picamera2_available() -> bool:
    return importlib.util.find_spec("picamera2") is not None


def open_camera(index_or_url: int | str, **kw: Any) -> FrameSource:
    """A camera: picamera2 for index "pi" (or index 0 on a Pi with picamera2), else VideoCapture."""
    if index_or_url == "pi":
        return PiCameraSource(**kw)
    return VideoCaptureSource(index_or_url, **kw)
