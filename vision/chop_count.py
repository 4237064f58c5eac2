"""Chop! Chop!: a mouse missing against the last confirmed position is asked where it stood.

The camera alone misses mice: a pale mouse lying on a pale square, a grey one in a shadow, a
mouse on an opened hole whose picture is the hole's (the classifier and the rules then read the
floor, a slab or the hole under it). The hidden-tile tracker knows how many mice are on the
board: only the cat's move catches a mouse (C6), so while the cat stands where it stood in the
last position the players confirmed (``BoardReader.confirmed``), every mouse of that position is
still on the board, however many mice turns were played since. Fewer mice read than that means a
mouse was not seen, and a mouse that did not move since stands where it stood (one piece moves
per turn, C2), so:

- **a missing mouse is looked for where a mouse stood in the confirmed position** (a square of
  the spot's group: a mouse may stand there again whatever lay there, C3-C5): of those spots not
  read as a figure, those where the classifier finds a mouse at least ``LEAST`` likely and
  likelier than the cat become mice, the likeliest first, until the confirmed count is read,
  each unsure (``UNSURE``): the cross-check asks the players about it, never trusts it. A mouse
  that moved elsewhere is not guessed (a square no mouse stood on is read as before): the
  cross-check's "missing" question asks for it;
- the cat on the table top hides the floor square under it: one mouse may stand there unseen;
- **the cat moved** (read elsewhere, or not read): it may have caught mice since, on any square it
  ended a move on, so the count is not known and nothing is changed.

Nothing is done without a confirmed position or the classifier, or in a new game
(``vision.chop_known.new_game``: the slabs laid again, the mice back on their holes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.chop_known import UNSURE, base_token, new_game
from vision.chop_squares import CLASSES

LEAST = 0.1
"""The least classifier mouse probability of a spot where a mouse stood for a missing mouse to be
read there (unsure). On the bench sets' misses (``docs/readme/board.md``, session 21, chopmouse)
a mouse that stayed read 0.1-0.8 there."""


def mice_left(decided: Sequence[tuple[str | None, float]], groups: Sequence[Sequence[str]],
              confirmed: Mapping[str, str]) -> int | None:
    """The mice on the board now by the ``confirmed`` position: all of its mice while the cat is
    read on the spot where it stood (C6: no mouse caught since), else None (not known)."""
    cat = [k for k, t in confirmed.items() if base_token(t) == "cat"]
    stays = bool(cat) and any(cat[0] in ids and base_token(token) == "cat" for (token, _), ids in zip(decided, groups))
    return sum(1 for t in confirmed.values() if base_token(t) == "mouse") if stays else None


def missing_mice(decided: list[tuple[str | None, float]], groups: Sequence[Sequence[str]],
                 confirmed: Mapping[str, str], probs: np.ndarray | None, least: float = LEAST,
                 kinds: Sequence[str] | None = None, new: bool | None = None) -> int:
    """Mice missing against the ``confirmed`` position read, unsure, where a mouse stood (module
    doc), in place (``decided``: one reading per spot; ``groups``: each spot's squares, the first
    its own; ``probs``: the classifier's, rows as ``vision.chop_squares.CLASSES``; ``kinds``: each
    spot's kind, for ``new_game``; ``new``: that of this frame where the caller told it, None: told
    here). Returns how many readings changed."""
    if not confirmed or probs is None or (
            new_game(decided, [ids[0] for ids in groups], confirmed, kinds) if new is None else new):
        return 0
    left = mice_left(decided, groups, confirmed)
    if left is None:
        return 0
    need = left - sum(1 for t, _ in decided if base_token(t) == "mouse")
    if any(base_token(t) == "cat" and any(s.startswith("top:") for s in ids) for (t, _), ids in zip(decided, groups)):
        need -= 1  # the cat on the table top hides the floor square under it: a mouse may stand there
    if need <= 0:
        return 0
    q = np.asarray(probs, np.float64)
    p, cat = q[:, CLASSES.index("mouse")], q[:, CLASSES.index("cat")]
    spots = [i for i, ((token, _), ids) in enumerate(zip(decided, groups))
             if base_token(token) not in ("mouse", "cat") and p[i] >= max(least, cat[i])
             and any(base_token(confirmed.get(s)) == "mouse" for s in ids)]
    spots.sort(key=lambda i: -p[i])
    for i in spots[:need]:
        decided[i] = ("mouse", UNSURE)
    return len(spots[:need])
