"""The rules on boxes that the dice reader applies after its two models (``vision.dice``):
overlap, which of two boxes is a die, a group or a part of one, and a die cut by the frame.

Boxes are ``(x1, y1, x2, y2)`` in image pixels; a proposal is a box and its detector score.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

Proposal = tuple[tuple[float, float, float, float], float]  # box (full-image pixels), score


def side(box: Sequence[float]) -> float:
    """The longer side of a box."""
    return max(box[2] - box[0], box[3] - box[1])


def intersection(a: Sequence[float], b: Sequence[float]) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def frac_inside(b: Sequence[float], a: Sequence[float]) -> float:
    """How much of box ``b``'s area lies inside box ``a``."""
    return intersection(a, b) / max(1e-6, (b[2] - b[0]) * (b[3] - b[1]))


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    inter = intersection(a, b)
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / u if u > 0 else 0.0


def decode(out: np.ndarray, heat: np.ndarray, peaks: np.ndarray, k: float) -> list[Proposal]:
    """The detector's proposals at ``peaks`` (a G x G mask): boxes from its 5 x G x G output
    (heat logit, log width, log height, x and y offsets, in cells of the heat map) scaled by
    ``k`` to image pixels, and their ``heat``. Row by row as a loop over the peaks computed them
    (the same float64 operations in the same order, ``math.exp``: the same boxes to the bit), at
    a tenth of its Python time."""
    ys, xs = np.nonzero(peaks)
    if not len(ys):
        return []
    v = out[1:5, ys, xs].astype(np.float64)
    bw = np.array([math.exp(t) for t in v[0].tolist()]) / 2
    bh = np.array([math.exp(t) for t in v[1].tolist()]) / 2
    cx, cy = xs + v[2], ys + v[3]
    boxes = np.stack([(cx - bw) * k, (cy - bh) * k, (cx + bw) * k, (cy + bh) * k], 1).tolist()
    return [((b[0], b[1], b[2], b[3]), sc) for b, sc in zip(boxes, heat[ys, xs].tolist())]


def nms(items: list, thr: float) -> list:
    items = sorted(items, key=lambda t: -t[1])
    keep: list = []
    for box, sc in items:
        if all(iou(box, k[0]) < thr for k in keep):
            keep.append((box, sc))
    return keep


def in_a_crowd(box: Sequence[float], strong: Sequence[Proposal]) -> bool:
    """A weak peak counts when its box is beside a surely proposed die of about its size (a die
    packed against it), not on it (a pip or a part of it)."""
    cx, cy, s = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, side(box)
    for b, _sc in strong:
        sb = side(b)
        if not 0.7 <= s / max(sb, 1e-6) <= 1.4:
            continue
        d = math.hypot(cx - (b[0] + b[2]) / 2, cy - (b[1] + b[3]) / 2)
        if 0.75 * sb <= d <= 1.6 * sb:
            return True
    return False


def parts(box: Sequence[float], dice: Sequence[Sequence[float]]) -> list[Sequence[float]]:
    """Other boxes mostly inside ``box`` that are not pips (at least 0.3 of its side)."""
    return [b for b in dice if b is not box and frac_inside(b, box) >= 0.6 and side(b) >= 0.3 * side(box)]


def is_group(box: Sequence[float], dice: Sequence[Sequence[float]]) -> bool:
    """A box holding two separate dice read surely is a box around a group, not a die."""
    inner = parts(box, dice)
    return any(iou(p, q) < 0.1 for i, p in enumerate(inner) for q in inner[i + 1:])


def part_of_a_bigger_die(box: Sequence[float], dice: Sequence[Sequence[float]]) -> bool:
    """A box mostly inside a bigger die is a pip, a mark or a part of that die, never a die:
    dice lie beside each other, their top faces don't overlap much."""
    return any(d is not box and side(d) >= 1.15 * side(box) and frac_inside(box, d) >= 0.6 for d in dice)


def centred_on(a: Sequence[float], b: Sequence[float], part: float = 0.8) -> bool:
    """The centre of box ``a`` lies in the middle ``part`` of box ``b`` (a die packed beside
    another is never centred on it: their centres are at least a side apart)."""
    x, y = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
    mx, my = (b[2] - b[0]) * (1 - part) / 2, (b[3] - b[1]) * (1 - part) / 2
    return b[0] + mx <= x <= b[2] - mx and b[1] + my <= y <= b[3] - my


def one_per_die(found: list) -> list:
    """Two readings centred on each other are one die seen twice (boxes shifted apart enough to
    pass the NMS): the more confident one stays."""
    keep: list = []
    for f in sorted(found, key=lambda f: -f[3]):
        if not any(centred_on(f[0], k[0]) or centred_on(k[0], f[0]) for k in keep):
            keep.append(f)
    return keep


def cut_by_the_frame(box: Sequence[float], w: int, h: int, ratio: float) -> bool:
    """The box touches an edge of the w x h frame and is shorter across that edge than along it
    (a top face is about square, seen from up to 45 degrees at most 0.7 of it): part of the die
    lies outside, and the pips in view may be part of any value (half a 6 is a 3)."""
    if ratio <= 0:
        return False
    x1, y1, x2, y2 = box
    bw, bh = x2 - x1, y2 - y1
    return ((x1 <= 1 or x2 >= w - 1) and bw < ratio * bh) or ((y1 <= 1 or y2 >= h - 1) and bh < ratio * bw)


def ask_overlapping(found: list, thr: float) -> list:
    """Readings (box, P(die), value, confidence) whose box overlaps a more confident one's by
    ``thr`` (IoU) or more get confidence 0: asked about, not read. The top faces of dice lying
    beside each other barely overlap (two squares touching along a side, turned 45 degrees:
    IoU 0.14), so such a box is most often the side face of a die seen steeply, or a die seen
    twice; a real die there is asked about rather than misread (0: off)."""
    if thr <= 0:
        return found
    out: list = []
    for f in sorted(found, key=lambda f: -f[3]):
        if any(iou(f[0], k[0]) >= thr for k in out):
            f = (f[0], f[1], f[2], 0.0)
        out.append(f)
    return out


def touches(a: Sequence[float], b: Sequence[float]) -> bool:
    """Two boxes on the same die: either's centre inside the other, or any overlap beyond a touch
    (IoU over 0.1)."""
    def centre_in(p: Sequence[float], q: Sequence[float]) -> bool:
        x, y = (p[0] + p[2]) / 2, (p[1] + p[3]) / 2
        return q[0] <= x <= q[2] and q[1] <= y <= q[3]
    return centre_in(a, b) or centre_in(b, a) or iou(a, b) > 0.1


def new_small(small: list, found: list, sure: float, biggest: float) -> list:
    """The proposals of the pass for small dice worth reading: none on a die read surely already
    (nor on its pips), none that is a pip of any die found (mostly inside it, under 0.4 of its
    side, itself at most ``biggest``: a top face seen obliquely inside a box round the whole die is
    0.5 of it or more, and a box round a whole close-up frame is no die's)."""
    return [p for p in small if not any((f[3] >= sure and touches(p[0], f[0]))
                                        or (frac_inside(p[0], f[0]) >= 0.6 and side(p[0]) < 0.4 * side(f[0]) and side(f[0]) <= biggest)
                                        for f in found)]


def at_the_edge(box: Sequence[float], w: int, h: int, margin: float) -> bool:
    """The box comes within ``margin`` px of the w x h frame's edge."""
    return box[0] <= margin or box[1] <= margin or box[2] >= w - margin or box[3] >= h - margin


def take_small(found: list, small: list, sure: float, bar: float) -> list:
    """Readings (box, P(die), value, confidence) of the reader's pass for small dice merged into
    those of its first pass: a small die read with at least ``bar`` is added where the first pass
    found nothing and takes the place of its unsure readings on it (at a coarser scale a small
    die is often boxed with its side faces, or with the printed art round it, and read unsurely);
    one read less surely is left out, and so is one on a die the first pass read with at least
    ``sure``."""
    kept = [s for s in small if s[3] >= bar and not any(f[3] >= sure and touches(s[0], f[0]) for f in found)]
    return [f for f in found if not any(touches(s[0], f[0]) for s in kept)] + kept
