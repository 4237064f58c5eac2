"""Chop! Chop!: a square that looks as it looked when the position was confirmed holds what it held.

A piece moves only when it is moved (C2), so between the frame read when the players' last
position was confirmed (``BoardReader.confirmed``) and now, most squares do not change: what
changes is where a piece came or went. The board reader samples every spot through the board's
pose in the same light-normalised patch (``BoardReader.features``), so a square's patch now
against its patch in that frame says whether anything came or went there; the frame's own
median change over all its spots is the scale (a little camera shake, the light, a pose a
fraction of a millimetre off move every spot alike, and most spots hold what they held).

``remember`` keeps (``reader._chop_still``) the patches of the last frame read before the
confirmed position changed: the frame that showed that position (the bench sets it right after
reading the scene; the app after the move the camera saw). ``stays_still`` then, on the spots
off the holes (a mouse in an opened hole of the third 3-D family looks like the empty hole: no
cue there), reads a spot whose patch changed less than ``STILL`` of the frame's median change as
its confirmed holding: a mouse read where the confirmed position has nobody is the empty floor,
and the floor read where it has one mouse (and nothing else) is that mouse, never a fifth
(C1); unsure, so the cross-check asks. Not in a new game (``vision.chop_known.new_game``).

Measured (``docs/readme/board.md``, session 27, chopc4): on four third-family dev sets the
mice read on a confirmed-empty floor square changed 0.11-0.20 of the frame's median where no
mouse was there, and the mice that came there 0.45 and up (5th percentile 0.86).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from vision.chop_known import UNSURE, base_token, new_game

STILL = 0.3
"""A spot whose patch changed less than this share of the frame's median change is unchanged."""
MOST_MICE = 4
"""Four mice at most (C1)."""


def remember(reader: Any, patches: np.ndarray) -> np.ndarray | None:
    """The reference patches for this frame (None: none yet), and this frame's ``patches`` kept
    as the next frame's candidate: the reference is the patches of the frame read last before
    ``reader.confirmed`` took its present value (kept while it stays the same)."""
    last_conf, last_patches, ref = getattr(reader, "_chop_still", ({}, None, None))
    confirmed = dict(reader.confirmed)
    if confirmed != last_conf:
        ref = last_patches
    reader._chop_still = (confirmed, np.asarray(patches, np.float32).copy(), ref)
    return None if ref is None or ref.shape != np.shape(patches) else ref


def changes(now: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Each spot's change: its patch's mean absolute difference from ``ref`` over the frame's
    median of that (1.0: a typical spot)."""
    diff = np.abs(np.asarray(now, np.float32) - np.asarray(ref, np.float32))  # float32: 7 times cheaper
    d = diff.reshape(len(ref), -1).mean(axis=1, dtype=np.float64)
    return np.asarray(d / max(float(np.median(d)), 1e-9))


def stays_still(decided: list[tuple[str | None, float]], kinds: Sequence[str], groups: Sequence[Sequence[str]],
                confirmed: Mapping[str, str], change: np.ndarray, still: float = STILL) -> int:
    """The spots off the holes whose ``change`` is under ``still`` read as the ``confirmed``
    position holds them (module doc; ``groups``: each spot's squares, its first the spot's own;
    in place). Returns how many readings changed."""
    if not confirmed or new_game(decided, [ids[0] for ids in groups], confirmed, kinds):
        return 0
    mice = sum(1 for t, _ in decided if base_token(t) == "mouse")
    n = 0
    for i, (kind, ids) in enumerate(zip(kinds, groups)):
        if kind == "hole" or change[i] >= still:
            continue
        held = [base_token(confirmed[s]) for s in ids if confirmed.get(s) is not None]
        now = base_token(decided[i][0])
        if now == "mouse" and not held:
            decided[i] = (None, UNSURE)
            mice -= 1
        elif now == "-" and held == ["mouse"] and mice < MOST_MICE:
            decided[i] = ("mouse", UNSURE)
            mice += 1
        else:
            continue
        n += 1
    return n
