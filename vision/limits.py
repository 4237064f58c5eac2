"""Every size limit of ``vision/`` in one place (``docs/readme/limits.md`` lists them all).

Pictures are checked from their header before anything is decoded (``vision.imageload``), so a
tiny file that claims 30000 x 30000 pixels costs a few kilobytes to refuse, not gigabytes.
Each stage then works on a copy scaled down to what it needs: nothing it reads gets better
above its working size, only slower.
"""

from __future__ import annotations

from typing import Final

from companion.limits import MIB

MAX_IMAGE_FILE_BYTES: Final = 64 * MIB
"""A picture file: far above any camera's or phone's JPEG/PNG (a 50 MP JPEG is about 20 MiB)."""

MAX_IMAGE_PIXELS: Final = 50_000_000
"""Pixels in a picture or a camera frame (50 megapixels, e.g. 8660 x 5773): decoding it takes
150 MB as BGR. Bigger is refused with one sentence (:class:`vision.imageload.ImageTooLargeError`)."""

MAX_IMAGE_SIDE: Final = 20_000
"""The longest side of a picture (a 20000 x 2500 strip is 50 MP but no photo of a table)."""

DICE_MAX_SIDE: Final = 1920
"""Working size of the dice reader (long side, pixels). The detector's input stops growing at a
1280-pixel frame (``DiceConfig.det_size_max`` 640 at ``det_scale`` 0.5, for small dice only) and each die is
classified from a 40-pixel crop, so at 1920 even a die 1/40 of the frame wide keeps 48 pixels."""

BOARD_MAX_SIDE: Final = 2560
"""Working size of the board locator and the pieces reader (long side, pixels). The markers are
found at half size (``LocateConfig.detect_scale`` 0.5) and refined at this size; the pieces are
read from a top-down warp at 2 px/mm (``PieceConfig.px_per_mm``), 840 pixels for an A3 board."""

CAMERA_MAX_SIDE: Final = 1920
"""Camera frames (and the images of a recorded/demo feed) are scaled down to this long side at
the source, before the dice reader, the settle logic or the screen see them; a frame over
:data:`MAX_IMAGE_PIXELS` stops the source with a clear message instead."""

MAX_MODEL_BYTES: Final = 32 * MIB
"""An ONNX model file (the shipped dice models are 0.4, 1.3 and, in int8, 0.9 MiB)."""
