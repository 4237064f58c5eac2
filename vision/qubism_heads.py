"""Qubism: a pawn's round head told from a cube's top (a stage after ``vision.piece_cubes``' cube stage).

A cube's top, in the plane of the cubes' tops (``vision.qubism_read.top_crops``), is a square plate
carrying an arrow, a chevron, a triangle or a needle: a glyph that fills little of the smallest circle
around it. A pawn's head seen there is a ball: a blob of one strong tone (dark for the black pawn, a
highlight for a light one) that nearly fills its smallest enclosing circle. Where the looks read a spot
as pawn ``c``, the piece count took it off (too many spots looked like ``c``) and the cube stage then read
its head as a cube's top, while the one spot still read as ``c`` shows a cube's top that is not round, the
pawn and the cube swapped places (second family 3551 group 5, near straight down: a black peg pawn among
white cubes with black chevrons). ``heads_swapped`` puts them back: the pawn where its head is seen, the
cube where its top is. It never puts a pawn on a spot read empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


@dataclass(frozen=True)
class HeadRule:
    """When a top crop shows a pawn's round head (``round_blob``) and when a pawn and a cube swap."""

    tone: float = 40 / 255
    """The blob's core (the crop's 1st or 99th percentile) differs from the crop's median by at least this."""
    round_min: float = 0.8
    """A head: the blob fills at least this share of its smallest enclosing circle (a disc about 0.9)."""
    reach: float = 0.25
    """The blob's centre lies within this share of the crop's side of its middle."""
    look_conf: float = 0.5
    """The head's spot was read as the pawn by its look at least this surely (before the piece count)."""
    conf: float = 0.55
    """Both spots are reported this surely (under the reading's 0.6: the app asks)."""


def round_blob(top: np.ndarray, rule: HeadRule, inset: int = 4) -> float:
    """How round the most central blob of a strong tone in a top crop (grey, 0-1) is: its area over its
    smallest enclosing circle's (0: no such blob; a ring, a glyph with a hole or a notch fills less). Each tone's blob is cut halfway between
    its core (the crop's 1st or 99th percentile) and the crop's median, so a head's own shadow, lighter
    than the head, stays out of it; thin print lines are opened away."""
    g = np.asarray(top, np.float32)[inset:-inset, inset:-inset]
    h, w = g.shape
    ranks = (round(0.01 * (g.size - 1)), g.size // 2, round(0.99 * (g.size - 1)))  # by rank: one partial sort
    low, med, high = np.partition(g.ravel(), ranks)[list(ranks)].tolist()
    best = 0.0
    for core in (low, high):
        if abs(core - med) < rule.tone:
            continue
        cut = (core + med) / 2
        mask = ((g <= cut) if core < med else (g >= cut)).astype(np.uint8)
        n, lab, stats, centres = cv2.connectedComponentsWithStats(cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN), 8)
        for j in range(1, n):
            x, y, bw, bh, area = (int(v) for v in stats[j])
            if area < 20 or x == 0 or y == 0 or x + bw >= w or y + bh >= h:
                continue  # a speck, or one that runs out of the crop (print, a side, a shadow)
            if np.hypot(centres[j][0] - w / 2, centres[j][1] - h / 2) / w > rule.reach:
                continue
            pts = np.column_stack(np.nonzero(lab == j))[:, ::-1].astype(np.float32)
            _, r = cv2.minEnclosingCircle(pts)
            best = max(best, float(area / (np.pi * r * r + 1e-6)))
    return best


def heads_swapped(decided: list[tuple[str | None, float]], looked: list[tuple[str | None, float]],
                  counted: list[tuple[str | None, float]], pawns: tuple[str, ...], roundness: Callable[[int], float],
                  topped: Callable[[int], bool], cube_at: Callable[[int], str], rule: HeadRule) -> list[int]:
    """A pawn's head read as a cube's top and that cube kept as the pawn, swapped back (in place): for pawn
    ``c`` read on one spot ``p`` now, whose top shows a cube's top (``topped``) that is not round
    (``roundness`` under ``HeadRule.round_min``), a spot ``j`` read as a cube now that the looks read as ``c``
    (``looked``, at least ``HeadRule.look_conf`` surely) and the piece count took ``c`` from or kept it on
    (empty or ``c`` in ``counted``: not a cube the count made) whose top shows a round head gets the pawn,
    while more than half the frame's other cubes' tops are not round (one set of cubes shares one print: a
    round glyph on every cube is no head); ``p`` gets the cube
    ``cube_at(p)`` (its own arrow read there, or ``cube:?``). Of several heads, the roundest. Both at
    ``HeadRule.conf`` (asked). Returns the spots changed."""
    changed: list[int] = []
    for c in pawns:
        now = [i for i, (t, _) in enumerate(decided) if t == c]
        if len(now) != 1 or not topped(now[0]):
            continue
        p = now[0]
        heads = [j for j, ((seen, sure), (was, _), (t, _)) in enumerate(zip(looked, counted, decided))
                 if seen == c and sure >= rule.look_conf and was in (None, c) and t is not None and t.startswith("cube")]
        if not heads or roundness(p) >= rule.round_min:  # (measured only where asked: a read's time)
            continue
        found = {j: roundness(j) for j in heads}
        j = max(found, key=lambda k: found[k])
        if found[j] < rule.round_min:
            continue
        others = [i for i, (t, _) in enumerate(decided) if t is not None and t.startswith("cube") and i != j]
        if not others or not _mostly_not_round(others, roundness, rule.round_min):
            continue
        decided[p] = (cube_at(p), rule.conf)
        decided[j] = (c, rule.conf)
        changed += [p, j]
    return changed


def _mostly_not_round(spots: list[int], roundness: Callable[[int], float], least: float) -> bool:
    """More than half of ``spots`` measure under ``least`` (measured one by one until that is decided)."""
    below = above = 0
    for i in spots:
        if roundness(i) < least:
            below += 1
        else:
            above += 1
        if 2 * below > len(spots):
            return True
        if 2 * above >= len(spots):
            return False
    return False
