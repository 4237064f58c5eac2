"""Chop! Chop!: a slab read where its back's pattern is missing is not the slab.

Every slab is laid face down at the start (C1), so the group's start photo shows each slab
square under its slab, in this camera's view and this light; a slab is never moved, only turned
and removed (C5). A slab's back is one printed picture (the third family's paw print, the second
family's checker): its middle's spread of brightness over its level (``texture``) stays what the
start showed there under a shadow (a shadow scales the spread and the level alike), while the
empty floor in a shadow, a face-up tile's plain face or a figure's flat paint shows little of it.
``keep_slab_textures`` keeps, when a position is learned, each slab square's texture; and
``flat_slabs`` reads a slab whose texture is under ``ratio`` of the start's there (and of the
group's median, so one start picture crossed by a shadow's edge does not count) as its
likeliest other reading allowed there (no second cat, no fifth mouse: C1), unsure. Only where
the group's slab backs show a pattern at all (their median texture at least ``pattern``): the
first family's plain backs show none, and there the ratio is noise.

Measured (``docs/readme/board.md``, session 26, chopc): on the seven dev sets no true slab read
under 0.39 of its start texture where the backs show a pattern; the empty floor read as a slab
in a shadow band 0.07-0.35, face-up cheese 0.27-0.57.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from vision.chop_known import UNSURE
from vision.chop_squares import ALLOWED, CLASSES, MOST, likeliest_allowed

_MID = slice(4, 12)
"""The middle half of a spot's patch (``vision.piece_looks.INNER``)."""


def texture(patches: np.ndarray) -> np.ndarray:
    """Each spot's texture: the spread of its patch middle's brightness over its mean level
    (``patches``: spots x P x P x 3, light-normalised, as ``BoardReader.features`` gives)."""
    grey = np.asarray(patches, np.float64)[:, _MID, _MID, :].mean(axis=3).reshape(len(patches), -1)
    return np.asarray(grey.std(axis=1) / np.maximum(grey.mean(axis=1), 1e-6))


def keep_slab_textures(reader: Any, patches: np.ndarray, known: Mapping[str, str],
                       spot_index: Mapping[str, int]) -> None:
    """Keep (``reader.chop_slab_texture``: spot -> texture) each square the learned position
    ``known`` shows under a face-down slab (the latest learned picture of a square counts)."""
    tex = texture(patches)
    kept: dict[int, float] = dict(reader.chop_slab_texture)
    for sid, token in known.items():
        if token == "slab" and sid in spot_index:
            kept[spot_index[sid]] = float(tex[spot_index[sid]])
    reader.chop_slab_texture = kept


def flat_slabs(decided: list[tuple[str | None, float]], kinds: Sequence[str], patches: np.ndarray,
               starts: Mapping[int, float], probs: np.ndarray | None, pattern: float, ratio: float) -> int:
    """A slab read (``decided``, in place) whose texture now is under ``ratio`` of both its start
    texture (``starts``: spot -> texture, ``keep_slab_textures``) and the start slabs' median,
    where that median is at least ``pattern``: its likeliest other reading allowed there by the
    classifier's ``probs`` (the floor without them), never a second cat or a fifth mouse,
    unsure (module doc). Returns how many readings changed."""
    if not starts:
        return 0
    median = float(np.median(list(starts.values())))
    if median < pattern:
        return 0
    now = texture(patches)
    n = 0
    for i, (token, _) in enumerate(decided):
        if token != "slab" or i not in starts or now[i] >= ratio * min(starts[i], median):
            continue
        taken = {c for c in ("cat", "mouse")
                 if sum(1 for t, _ in decided if t is not None and t.split(":")[0] == c) >= MOST[c]}
        allowed = {c for c in CLASSES if c in ALLOWED[kinds[i]] and c != "slab" and c not in taken}
        decided[i] = likeliest_allowed(None if probs is None else probs[i], allowed, UNSURE)
        n += 1
    return n
