"""Chop! Chop!: a mouse gone under the table-top cat that stayed, one move back known (session 32, chopcat).

The table top ``top:r,c`` and the floor square ``r,c`` under it are one spot on the print: a
mouse that walks under the cat standing on the table top is hidden by it (on a real board the
table top hides it; in the renders the cat figure mostly does), so the camera reads the cat
alone there. ``vision.chop_who.pairs_by_rules`` keeps a mouse under the cat where the confirmed
position had one there; this module adds the mouse that came there in the move just made, with
the app's knowledge of that move (``BoardReader.confirmed_one_move``: the frame shows one turn
since the confirmed position, ``ui.cammoves``):

``came_under``: a table spot read as the cat where the cat stood in the confirmed position (the
cat did not move: the move was a mouse's), the floor square under it empty in that position,
exactly one mouse of that position read nowhere where it stood, no mouse read where none stood
(the mouse that moved is seen nowhere else), and that mouse could reach the floor square under
the cat in one move (``vision.chop_moved.mouse_could_reach``: the floor squares under the table
are the mice's, C3): the mouse is there, unsure (``vision.chop_known.UNSURE``: the players are
asked). Several such spots or several such mice: nothing (asked as before).

With the classifier's probabilities (``probs``, session 32 chopcat2) the mouse must also be gone
from everywhere else the camera could show it: its own spot shows no figure (the classifier's
mouse and cat together under ``vision.chop_landed.GONE_FIGURE``; a spot read as a hole aside:
a dark hole looks like a mouse to it), and no square it could reach shows one either (the same
sum under ``GONE_FIGURE`` on every square a mouse may stand on that it could reach, the cat's
spot, holes read as holes and squares read or standing with another figure aside). Otherwise the
mouse missed where it stood, or landed on a slab square read as the slab, is as likely as the
mouse under the cat: nothing (asked as before).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.chop_known import base_token
from vision.chop_landed import GONE_FIGURE
from vision.chop_moved import mouse_could_reach
from vision.chop_squares import ALLOWED, CLASSES


def came_under(decided: Sequence[tuple[str | None, float]], groups: Sequence[Sequence[str]],
               confirmed: Mapping[str, str], probs: np.ndarray | None = None,
               kinds: Sequence[str] | None = None) -> list[int]:
    """The table spot (its index, in a list; empty for none) where a mouse came under the cat
    that stood on the table top in the ``confirmed`` position one move back (module doc).
    ``decided``: one reading per spot; ``groups``: each spot's squares; ``probs``: the
    classifier's (rows as ``CLASSES``) and ``kinds`` each spot's kind, or None (not checked)."""
    if not confirmed:
        return []
    spot = {s: i for i, ids in enumerate(groups) for s in ids}
    cats = [i for i, ((token, _), ids) in enumerate(zip(decided, groups))
            if base_token(token) == "cat" and any(s.startswith("top:") and confirmed.get(s) == "cat" for s in ids)]
    if len(cats) != 1:
        return []
    i = cats[0]
    floor = [s for s in groups[i] if not s.startswith("top:")]
    if len(floor) != 1 or base_token(confirmed.get(floor[0])) == "mouse":  # that one: pairs_by_rules
        return []
    mice = [s for s, t in confirmed.items() if base_token(t) == "mouse"]
    away = [s for s in mice if s not in spot or base_token(decided[spot[s]][0]) != "mouse"]
    arrived = [j for j, ((t, _), ids) in enumerate(zip(decided, groups))
               if base_token(t) == "mouse" and not any(base_token(confirmed.get(s)) == "mouse" for s in ids)]
    if len(away) != 1 or arrived:
        return []
    read = {ids[0]: t for ids, (t, _) in zip(groups, decided)}
    if not mouse_could_reach(confirmed, away[0], floor[0], read):
        return []
    if probs is not None and kinds is not None and shows_figure(decided, groups, kinds, confirmed, probs, away[0], i):
        return []
    return [i]


def shows_figure(decided: Sequence[tuple[str | None, float]], groups: Sequence[Sequence[str]],
                 kinds: Sequence[str], confirmed: Mapping[str, str], probs: np.ndarray, start: str,
                 cat: int) -> bool:
    """Whether the mouse gone from ``start`` may be seen elsewhere than under the cat (spot
    ``cat``): its own spot or a square it could reach shows a figure (module doc)."""
    p = np.asarray(probs, np.float64)
    m, c = CLASSES.index("mouse"), CLASSES.index("cat")
    spot = {s: j for j, ids in enumerate(groups) for s in ids}
    now = [base_token(t) for t, _ in decided]

    def figure(j: int) -> bool:
        return now[j] != "hole" and float(p[j, m] + p[j, c]) >= GONE_FIGURE

    if start in spot and figure(spot[start]):
        return True  # the mouse missed where it stood
    read = {ids[0]: t for ids, (t, _) in zip(groups, decided)}
    return any(figure(j) for j, ids in enumerate(groups)
               if j != cat and ids[0] != start and "mouse" in ALLOWED[kinds[j]]
               and now[j] not in ("mouse", "cat", "cheese")
               and not any(base_token(confirmed.get(s)) in ("mouse", "cat", "cheese") for s in ids)
               and mouse_could_reach(confirmed, start, ids[0], read))
