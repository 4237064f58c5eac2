"""The one way the companion loads a picture: size checked from the header, then decoded small.

Every command and screen that opens an image file calls :func:`load_image`:

1. the file's size is checked (:data:`vision.limits.MAX_IMAGE_FILE_BYTES`) before it is read;
2. its format is recognised by its first bytes (:data:`FORMATS`: PNG, JPEG, BMP, GIF, WebP, TIFF;
   anything else, e.g. Radiance HDR or OpenEXR, is refused unread) and its width and height are
   read from the header alone (PNG ``IHDR``, JPEG ``SOFn``, BMP, GIF, WebP here; TIFF through
   Pillow's ``Image.open``, which reads only the header; no size, no decoding) and a
   picture over :data:`~vision.limits.MAX_IMAGE_PIXELS` or :data:`~vision.limits.MAX_IMAGE_SIDE`
   is refused with :class:`ImageTooLargeError`, one sentence, before a byte of pixels is decoded;
3. it is decoded already reduced where the format allows (``cv2.IMREAD_REDUCED_COLOR_2/4/8``:
   JPEG decodes at 1/2, 1/4, 1/8 scale for free) and scaled down (``INTER_AREA``) to the
   caller's working size, so a stage never holds more than it needs.

:func:`fit_frame` does the same for a frame already in memory (a camera's).
"""

from __future__ import annotations

import os
import struct
import warnings
from dataclasses import dataclass
from pathlib import Path

from companion.i18n import _
from companion.limits import FileTooLargeError, read_bytes_capped
from vision import limits
from vision.errors import InvalidImageError

# OpenCV's own guard for any decode that does not come through here (default 2^30 pixels).
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(limits.MAX_IMAGE_PIXELS))

import cv2  # noqa: E402  (after the environment variable, which OpenCV reads on first decode)
import numpy as np  # noqa: E402


class ImageTooLargeError(InvalidImageError):
    """A picture (or a camera frame) has more pixels than the companion will decode."""


@dataclass(frozen=True)
class LoadedImage:
    """A decoded picture, scaled to the caller's working size."""

    image: np.ndarray
    """BGR, uint8; its long side at most the ``max_side`` asked for."""
    scale: float
    """Pixels of :attr:`image` per pixel of the file (1.0: not scaled; below 1: scaled down)."""
    size: tuple[int, int]
    """(width, height) of the picture in the file."""


def _megapixels(w: int, h: int) -> str:
    mp = w * h / 1e6
    return f"{mp:.0f}" if mp >= 10 else f"{mp:.1f}"


def check_size(w: int, h: int, name: str) -> None:
    """Refuse a picture of ``w`` x ``h`` pixels that is over the limits (one sentence)."""
    if w * h > limits.MAX_IMAGE_PIXELS or max(w, h) > limits.MAX_IMAGE_SIDE:
        raise ImageTooLargeError(
            _("{name} is {w} × {h} pixels ({mp} megapixels), more than the {limit} megapixels the companion "
              "reads: use a smaller picture.").format(
                name=name, w=w, h=h, mp=_megapixels(w, h), limit=limits.MAX_IMAGE_PIXELS // 1_000_000))


def _jpeg_size(head: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 < len(head):
        if head[i] != 0xFF:
            return None
        marker = head[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            i += 2
            continue
        (length,) = struct.unpack(">H", head[i + 2:i + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # SOFn
            h, w = struct.unpack(">HH", head[i + 5:i + 9])
            return w, h
        if marker == 0xDA or length < 2:  # start of scan before any frame header: broken
            return None
        i += 2 + length
    return None


def header_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the first bytes of a PNG, JPEG, BMP, GIF or WebP file, else None."""
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR" and len(head) >= 24:
        w, h = struct.unpack(">II", head[16:24])
        return int(w), int(h)
    if head[:2] == b"\xff\xd8":
        return _jpeg_size(head)
    if head[:2] == b"BM" and len(head) >= 26:
        w, h = struct.unpack("<ii", head[18:26])
        return abs(int(w)), abs(int(h))
    if head[:4] == b"GIF8" and len(head) >= 10:
        w, h = struct.unpack("<HH", head[6:10])
        return int(w), int(h)
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP" and len(head) >= 30:
        kind = head[12:16]
        if kind == b"VP8 ":
            w, h = struct.unpack("<HH", head[26:30])
            return int(w) & 0x3FFF, int(h) & 0x3FFF
        if kind == b"VP8L":
            bits = int.from_bytes(head[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if kind == b"VP8X":
            return int.from_bytes(head[24:27], "little") + 1, int.from_bytes(head[27:30], "little") + 1
    return None


def _pillow_size(path: Path) -> tuple[int, int] | None:
    """Pillow reads only the header in ``Image.open`` (TIFF and the rarer formats)."""
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow is a dependency
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                return int(im.size[0]), int(im.size[1])
    except Image.DecompressionBombError:
        return limits.MAX_IMAGE_SIDE + 1, limits.MAX_IMAGE_SIDE + 1  # Pillow's own bomb limit: far too big
    except Exception:  # noqa: BLE001 - not a picture Pillow knows: OpenCV may still
        return None


FORMATS: tuple[str, ...] = ("PNG", "JPEG", "BMP", "GIF", "WebP", "TIFF")
"""The picture formats the companion decodes, recognised by their first bytes. OpenCV decodes
more (Radiance HDR, OpenEXR, PFM, PxM, JPEG 2000, ...), some into 32-bit floats and with no size
this module can read first: a 3 MB ``.hdr`` took 845 MB to decode. They are refused unread."""


def picture_format(head: bytes) -> str | None:
    """The format of a file by its first bytes (one of :data:`FORMATS`), or None."""
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if head[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if head[:2] == b"BM":
        return "BMP"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WebP"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "TIFF"
    return None


def _not_a_picture(name: str) -> InvalidImageError:
    return InvalidImageError(_("{name} is not a picture the companion can read (PNG, JPEG, BMP, WebP, TIFF).")
                             .format(name=name))


def image_size(path: str | Path) -> tuple[int, int] | None:
    """(width, height) of the picture at ``path`` from its header, or None when unknown."""
    p = Path(path)
    with p.open("rb") as fh:
        head = fh.read(64 * 1024)
    return header_size(head) or _pillow_size(p)


def is_cut_short(data: bytes) -> bool:
    """A JPEG without its end marker or a PNG without its ``IEND`` chunk: a file still being
    written or cut off. OpenCV would decode it with grey or garbage where the rest should be."""
    if data[:2] == b"\xff\xd8":
        return not data.rstrip(b"\x00\r\n ").endswith(b"\xff\xd9")
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return b"IEND" not in data[-32:]
    return False


def _reduce_flag(long_side: int, max_side: int | None) -> tuple[int, int]:
    """(OpenCV read flag, factor): the biggest 1/2, 1/4, 1/8 that keeps at least ``max_side``."""
    if max_side:
        for factor, flag in ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4),
                             (2, cv2.IMREAD_REDUCED_COLOR_2)):
            if long_side // factor >= max_side:
                return flag, factor
    return cv2.IMREAD_COLOR, 1


def fit_frame(frame: np.ndarray, max_side: int | None) -> tuple[np.ndarray, float]:
    """``frame`` scaled down (``INTER_AREA``) so its long side is at most ``max_side``, and the
    scale used (1.0: untouched)."""
    h, w = frame.shape[:2]
    long_side = max(h, w)
    if not max_side or long_side <= max_side:
        return frame, 1.0
    s = max_side / long_side
    size = (max(1, round(w * s)), max(1, round(h * s)))
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA), s


def decode_picture(data: np.ndarray, name: str, max_side: int | None = None) -> np.ndarray:
    """A picture already in memory (``data``: its file's bytes as uint8, e.g. a raw MJPEG video
    frame) as BGR: format and size checked from its header first (:class:`ImageTooLargeError`,
    :class:`~vision.errors.InvalidImageError`), then decoded reduced toward ``max_side``."""
    head = data[:64 * 1024].tobytes()
    size = header_size(head) if picture_format(head) not in (None, "TIFF") else None
    if size is None:
        raise _not_a_picture(name)
    check_size(*size, name)
    flag, _factor = _reduce_flag(max(size), max_side)
    try:
        img = cv2.imdecode(data, flag)
    except cv2.error:
        img = None
    if img is None or img.size == 0:
        raise _not_a_picture(name)
    check_size(img.shape[1], img.shape[0], name)
    return fit_frame(img, max_side)[0]


def load_image(path: str | Path, max_side: int | None = None) -> LoadedImage:
    """The picture at ``path`` as BGR, scaled down to ``max_side`` (long side) when bigger.

    Raises :class:`ImageTooLargeError` (file or picture too big, found before decoding) or
    :class:`~vision.errors.InvalidImageError` (missing, unreadable, not a picture).
    """
    p = Path(path)
    name = p.name or str(p)
    if not p.is_file():
        raise InvalidImageError(_("{name}: no such picture file.").format(name=name))
    try:
        with p.open("rb") as fh:
            head = fh.read(64 * 1024)
        kind = picture_format(head)
        if kind is None:  # not an allowed format: never handed to a decoder
            raise _not_a_picture(name)
        size = header_size(head) or (_pillow_size(p) if kind == "TIFF" else None)
        if size is None:  # an allowed format whose size its header does not give: broken
            raise InvalidImageError(_("{name} is damaged: its size cannot be read from it.").format(name=name))
        check_size(*size, name)
        data = read_bytes_capped(p, limits.MAX_IMAGE_FILE_BYTES, _("a picture"))
    except FileTooLargeError as exc:
        raise ImageTooLargeError(str(exc)) from None
    except OSError as exc:
        raise InvalidImageError(_("{name} cannot be read ({why}).").format(
            name=name, why=exc.strerror or exc)) from None
    if is_cut_short(data):
        raise InvalidImageError(_("{name} is incomplete (cut short): it is not read.").format(name=name))
    flag, _factor = _reduce_flag(max(size), max_side)
    buf = np.frombuffer(data, np.uint8)
    try:
        img = cv2.imdecode(buf, flag)
    except cv2.error:
        img = None
    del data, buf
    if img is None or img.size == 0:
        raise _not_a_picture(name)
    check_size(img.shape[1], img.shape[0], name)  # what the decoder made, in case a header lied
    original = size
    img, _s = fit_frame(img, max_side)
    scale = 1.0 if max(img.shape[:2]) == max(original) else max(img.shape[:2]) / max(original)
    return LoadedImage(img, scale, original)
