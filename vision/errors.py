"""Errors raised by vision stages when they cannot answer."""

from __future__ import annotations


class VisionError(Exception):
    """A vision stage could not answer (bad input, missing model, lost camera...)."""


class InvalidImageError(VisionError, ValueError):
    """The image is empty, of the wrong shape or type, or could not be decoded."""


class ModelError(VisionError):
    """A model file shipped with the package is missing or cannot be loaded."""


class CameraError(VisionError):
    """A camera source could not be opened or read."""
