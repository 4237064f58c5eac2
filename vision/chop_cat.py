"""Chop! Chop!: the cat against the last confirmed position (issue 31, session 26), and one cat (session 29).

Nobody enters a face-up cheese (C3: the cat never goes onto or over one; the engine's paths,
``companion.games.chopchop_paths.walk_paths``, treat it as a wall), and only a mouse's fork takes
it away (C5). The cat sits on a cheese only when it turns the slab itself, and then the position
shows the cat there, not the cheese. So where the last confirmed position
(``BoardReader.confirmed``) has a face-up cheese, the cat cannot stand now: the fork that would
free the square is a mouse's move, which the players confirm before the cat moves again (the app
confirms every move, ``ui.cammoves``).

``cat_off_cheese``: a spot read as the cat on such a square is that cheese, unsure (the tile is
what lies there; the cat's look there is a pale figure's or the light's), unless the classifier
itself backs the cat there (its cat probability at least ``vision.chop_tall.BACKED``, the bar
``tall_cat`` keeps a cat read by): the bench's confirmed position is the group's scene before,
several moves back, where a fork and then the cat's move may have come between (two such cats on
the dev sets, the classifier 0.82 and 0.97 sure). The cat is then read nowhere and the players
are asked where it is: which other spot shows it the classifier and the looks did not say.
Nothing without a confirmed position or in a new game (``vision.chop_known.new_game``).

``one_cat``: the game has one cat (C1). A frame whose readings put it on two or more spots (the
rules' cat and the classifier's, or a pale floor the look took for it) keeps it where the
classifier finds the cat likeliest; each other spot takes the classifier's likeliest reading its
kind allows but the cat (no fifth mouse), unsure (asked).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.chop_known import UNSURE, base_token, new_game
from vision.chop_squares import ALLOWED, CLASSES, MOST, likeliest_allowed
from vision.chop_tall import BACKED


def cat_off_cheese(decided: list[tuple[str | None, float]], squares: Sequence[str],
                   confirmed: Mapping[str, str], probs: np.ndarray | None,
                   kinds: Sequence[str] | None = None, new: bool | None = None) -> int:
    """Spots read as the cat where the ``confirmed`` position has a face-up cheese (module doc)
    become that cheese, unsure, in place (``decided``: one reading per spot; ``squares``: each
    spot's square, the first of its group; ``probs``: the classifier's, rows as
    ``vision.chop_squares.CLASSES``: where it backs the cat, the cat stays; ``kinds``: each spot's
    kind, for ``new_game``; ``new``: that of this frame where the caller told it, None: told here).
    Returns how many changed (0 without a confirmed position or the classifier, or in a new game)."""
    if not confirmed or probs is None or (new_game(decided, squares, confirmed, kinds) if new is None else new):
        return 0
    cat = CLASSES.index("cat")
    n = 0
    for i, ((token, _), sq) in enumerate(zip(decided, squares)):
        if (base_token(token) == "cat" and base_token(confirmed.get(sq)) == "cheese"
                and float(probs[i][cat]) < BACKED):
            decided[i] = ("cheese", UNSURE)
            n += 1
    return n


def one_cat(decided: list[tuple[str | None, float]], kinds: Sequence[str], probs: np.ndarray | None) -> int:
    """Two or more spots read as the cat (``decided``, in place): the one the classifier's
    ``probs`` (rows as ``CLASSES``) find the cat likeliest at keeps it (ties: the surer reading),
    the others take its likeliest other reading, unsure (module doc). Returns how many changed
    (0 without the classifier)."""
    cats = [i for i, (t, _) in enumerate(decided) if base_token(t) == "cat"]
    if len(cats) < 2 or probs is None:
        return 0
    p = np.asarray(probs, np.float64)
    j = CLASSES.index("cat")
    keep = max(cats, key=lambda i: (float(p[i, j]), decided[i][1]))
    mice = sum(1 for t, _ in decided if base_token(t) == "mouse")
    for i in cats:
        if i == keep:
            continue
        allowed = set(ALLOWED[kinds[i]]) - {"cat"} - ({"mouse"} if mice >= MOST["mouse"] else set())
        decided[i] = likeliest_allowed(p[i], allowed, UNSURE)
        mice += base_token(decided[i][0]) == "mouse"
    return len(cats) - 1
