"""Which die is which, by the colour of its body.

Chop! Chop! throws a blue cat die and a grey mouse die; in Kilkenny Cats each colour throws its
own die. The camera reports each die's body colour (BGR, see ``vision.dice.die_body``); this
module says how much a body looks like a named colour and, among several dice, which one is
the named die. Light changes colours (a warm lamp makes a grey die orange-ish, a dim room takes
colour away), so dice are compared with each other and a choice is made only when one die is
clearly the most like the colour; otherwise the answer is "can't tell" and the players decide.

Pure Python: no OpenCV here (``companion`` never imports it).
"""

from __future__ import annotations

import colorsys
import itertools
import math
from typing import Sequence

BGR = Sequence[float]

# hue of each colour name, degrees (0 red, 120 green, 240 blue)
HUES: dict[str, float] = {
    "red": 0.0, "orange": 28.0, "brown": 25.0, "yellow": 55.0, "lime": 90.0, "green": 125.0,
    "teal": 175.0, "cyan": 185.0, "blue": 225.0, "navy": 230.0, "purple": 275.0, "violet": 275.0,
    "pink": 330.0, "magenta": 310.0,
}
NEUTRAL = frozenset({"white", "grey", "gray", "black", "silver", "ivory"})
FULL_CHROMA = 0.3  # chroma (max - min of r, g, b in 0..1) from which a body counts as fully coloured
MARGIN = 0.2  # how much better than every other die (or colour) a choice must be
WARN_MARGIN = 0.35  # looks_like, behind the "that looks like another side's die" warning: surer still
MIN_LIKENESS = 0.3  # a chosen die must look like its colour at least this much


def known(colour: str) -> bool:
    """Whether ``colour`` is a name this module can compare with."""
    c = colour.strip().lower()
    return c in HUES or c in NEUTRAL


def likeness(body: BGR, colour: str) -> float | None:
    """How much a die body (BGR 0..255) looks like ``colour``, 0..1; None for an unknown name."""
    c = colour.strip().lower()
    b, g, r = (min(255.0, max(0.0, float(v))) / 255.0 for v in body)
    chroma = max(r, g, b) - min(r, g, b)
    strength = min(1.0, chroma / FULL_CHROMA)
    if c in NEUTRAL:
        return 1.0 - strength
    if c not in HUES:
        return None
    hue = colorsys.rgb_to_hsv(r, g, b)[0] * 360.0
    diff = abs((hue - HUES[c] + 180.0) % 360.0 - 180.0)
    closeness = max(0.0, math.cos(math.radians(diff)))  # 0 from 90 degrees away
    return strength * closeness


def _matchings(n_dice: int, colours: Sequence[str]) -> list[dict[int, str]]:
    """Every way to pair dice with distinct colours, as many pairs as the fewer of the two."""
    if n_dice <= len(colours):
        return [dict(enumerate(p)) for p in itertools.permutations(colours, n_dice)]
    return [{d: c for c, d in zip(colours, p)} for p in itertools.permutations(range(n_dice), len(colours))]


def pick(bodies: Sequence[BGR | None], colour: str, colours: Sequence[str] = (),
         margin: float = MARGIN) -> int | None:
    """The index of the die that is ``colour``'s, or None when that can't be told.

    ``colours`` are all the game's dice (``colour`` among them): the dice are paired with them
    as a whole (each die a different colour, the pairing most like what is seen), so a grey
    die under a bluish lamp is still told from the blue die beside it. A die is chosen only
    when every pairing that gives ``colour`` another die (or none) is worse by ``margin``, and
    it looks like ``colour`` at least a little. None too for an unknown colour name or a die
    with no body colour."""
    names = list(dict.fromkeys([colour, *colours]))
    if not bodies or any(b is None for b in bodies) or not all(known(c) for c in names):
        return None
    like = [{c: float(likeness(b, c) or 0.0) for c in names} for b in bodies if b is not None]
    best: dict[int | None, float] = {}
    for m in _matchings(len(like), names):
        total = sum(like[d][c] for d, c in m.items())
        owner = next((d for d, c in m.items() if c == colour), None)
        best[owner] = max(best.get(owner, -1.0), total)
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    top, score = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else -1.0
    if top is None or score - runner_up < margin or like[top][colour] < MIN_LIKENESS:
        return None
    return top


def looks_like(body: BGR | None, colours: Sequence[str], margin: float = WARN_MARGIN) -> str | None:
    """Which of ``colours`` (the game's dice) a die body is, when one is clearly the most like
    it; None when it can't be told."""
    if body is None or len(colours) < 2 or not all(known(c) for c in colours):
        return None
    scores = {c: float(likeness(body, c) or 0.0) for c in colours}
    order = sorted(scores, key=lambda c: -scores[c])
    if scores[order[0]] < MIN_LIKENESS or scores[order[0]] - scores[order[1]] < margin:
        return None
    return order[0]
