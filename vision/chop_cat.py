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

``cat_one_move`` (session 30): the app confirms every move (``ui.cammoves.know_position``), so the
confirmed position is one move back and the frame shows it changed by one piece's move (C2): a
move changes at most two spots' figures (the spot left, the spot reached; a capture too, C6).
Where the cat's reading makes the frame differ from the confirmed position on more spots than
that, and swapping it with a spot read as a mouse (a cat figure seen as a mouse, a mouse seen as
the cat) makes the frame differ on two spots at most, the two readings are swapped, unsure (the
swap that leaves the fewest differences; differences up to two count alike). A spot's figures
compare as cat, mouse or none; the table spot with the cat on its top shows the cat whatever is
under it. A swap never makes a frame that already fits one move fit it better, so a cat read
where a legal move put it stays; where the confirmed position is several moves back (the bench's
``--confirmed``), the frame rarely fits one move and nothing is done. Not moved back onto its
confirmed spot: there, the frame always differs less (the cat's move undone), right or not.
Nothing without a confirmed position, in a new game, or with the cat read on no spot or two.

``cat_on_table`` (session 30): at a tilted camera the cat figurine's body shows over the spot
behind the one it stands on (``vision.chop_body.front_spots``). On the table top over a mouse
(C1/C3: the mouse under the table, the cat on the top above it) the spot itself shows the mouse
under the table, and the cat is read on the spot behind. So where the cat is read on a spot it
did not stand on in the confirmed position, whose front neighbour is a table spot read as a
mouse where the confirmed position had a mouse under the table, the cat is on that table top
(unsure; the mouse under it is then reported by ``vision.chop_who.pairs_by_rules``), and the
spot behind takes its likeliest reading that is no figure, unsure.
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


def _figure(token: str | None) -> str:
    """A reading or an engine token as the figure it shows: "cat", "mouse" or "-"."""
    base = base_token(token)
    return base if base in ("cat", "mouse") else "-"


def cat_one_move(decided: list[tuple[str | None, float]], groups: Sequence[Sequence[str]], kinds: Sequence[str],
                 confirmed: Mapping[str, str], new: bool | None = None) -> bool:
    """The cat swapped with a spot read as a mouse where that makes the frame one move's change
    from the ``confirmed`` position (module doc; ``decided``: one reading per spot, in place;
    ``groups``: each spot's squares; ``kinds``: each spot's kind; ``new``: ``new_game`` of this
    frame where the caller told it, None: told here). True when the cat moved."""
    if not confirmed or (new_game(decided, [ids[0] for ids in groups], confirmed, kinds) if new is None else new):
        return False
    was = []
    for ids in groups:
        figs = {_figure(confirmed.get(s)) for s in ids}
        was.append("cat" if "cat" in figs else "mouse" if "mouse" in figs else "-")
    cats = [i for i, (t, _) in enumerate(decided) if base_token(t) == "cat"]
    if was.count("cat") != 1 or len(cats) != 1:
        return False
    k = cats[0]
    now = [_figure(t) for t, _ in decided]

    def cost(fig: list[str]) -> int:  # spots differing; up to two (one move) alike
        return max(2, sum(1 for a, b in zip(fig, was) if a != b))

    best, best_cost = None, cost(now)
    for x in [i for i, f in enumerate(now) if f == "mouse" and "cat" in ALLOWED[kinds[i]]]:
        fig = list(now)
        fig[k], fig[x] = "mouse", "cat"
        if (c := cost(fig)) < best_cost:
            best, best_cost = x, c
    if best is None or best_cost > 2:  # the swap must make the frame one move's change
        return False
    decided[k], decided[best] = ("mouse", UNSURE), ("cat", UNSURE)
    return True


def cat_on_table(decided: list[tuple[str | None, float]], groups: Sequence[Sequence[str]], kinds: Sequence[str],
                 confirmed: Mapping[str, str], probs: np.ndarray | None, front: Sequence[int],
                 new: bool | None = None) -> bool:
    """The cat read behind a table spot read as the mouse under the table: on that table top
    (module doc; ``decided`` in place; ``front``: each spot's front neighbour, -1: none, as
    ``vision.chop_body.front_spots``; ``probs``: the classifier's, for the spot behind). True
    when the cat moved."""
    if not confirmed or (new_game(decided, [ids[0] for ids in groups], confirmed, kinds) if new is None else new):
        return False
    cats = [i for i, (t, _) in enumerate(decided) if base_token(t) == "cat"]
    if len(cats) != 1 or front[cats[0]] < 0:
        return False
    k = cats[0]
    j = front[k]
    if (any(base_token(confirmed.get(s)) == "cat" for s in groups[k]) or kinds[j] != "table"
            or base_token(decided[j][0]) != "mouse"
            or not any(not s.startswith("top:") and base_token(confirmed.get(s)) == "mouse" for s in groups[j])):
        return False
    row = None if probs is None else np.asarray(probs, np.float64)[k]
    decided[k] = likeliest_allowed(row, set(ALLOWED[kinds[k]]) - {"cat", "mouse"}, UNSURE)
    decided[j] = ("cat", UNSURE)
    return True
