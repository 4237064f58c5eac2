"""Chop! Chop!'s squares against the last confirmed position: what the rules let each square hold.

The camera alone cannot always tell a face-up cheese from a slab's back in a light it never saw,
from a pale mouse seen from above, or from the empty floor. The hidden-tile tracker can: it knows
the last position the players confirmed (``BoardReader.confirmed``: square -> engine token, as
``board_view``), and the rules say what each square can hold since (``/work/shared/RULES.md``
section 2), however many moves were made:

- **a slab never comes back** (C5: a slab is turned over and removed, or stays face up as a
  cheese): a square without a face-down slab in the confirmed position cannot show one now;
- **a face-up cheese appears only where a slab was** (C5: the slab turned is the cheese): a
  square that held neither a slab, nor a face-up cheese, nor the cat (who may sit on one) in
  the confirmed position cannot show a cheese now;
- so a slab or a cheese read where the rules forbid it was **something flat** (the classifier
  and the rules saw a tile, not a figure): the face-up cheese where one lay in the confirmed
  position (a cheese stays face up, C5), else the likelier of a cheese (where one may be) and
  the empty floor by the classifier's probabilities, else the floor.

- **nobody enters a face-up cheese** (C3) and only a fork takes it (C5): where the confirmed
  position has one, a spot read as a mouse or as the floor while the classifier's likeliest
  reading is a figure (something lies there: a pale tile seen from above can look like a pale
  mouse, and the four-mice rule then leaves the floor) is that cheese;
- **a caught mouse never comes back** (C6): more spots read as mice than the confirmed position
  has mice means the least likely of them (by the classifier's mouse probability) is something
  else: its likeliest other reading there, neither a mouse nor the cat.

- **a mouse on a hole stays until it leaves** (C3: the cat never enters a hole square, so a
  mouse there is never caught; C4: its slab is opened only when it leaves): where the confirmed
  position has a mouse on a hole, the rules' "opened" (the spot unlike the start's picture of the
  slab with its mouse, ``vision.chop_read.hole_reading``) says nothing, since the mouse that
  stayed, its figure turned, is as unlike it. A hole spot read as the opened hole there is the
  mouse, unsure, when the classifier's mouse is likelier than its hole by at least the
  classifier's usual margin (``mouse_stays_on_hole``; before the learned-mice check,
  ``vision.chop_squares.far_from_mice``, which may still call it the opened hole).

Otherwise figures are left as read (the cat on a square where a cheese lay: over several moves a
fork may take it and a piece step there). A reading changed here is always left unsure (``UNSURE``): the cross-check asks rather than
trusts it, and the tracker is never changed silently. A frame that shows many clear slabs where
the confirmed position had none (``NEW_GAME_SLABS``) is a new game, the slabs laid again: the
confirmed position is not used there. Knowing which spots are slab squares (``kinds``), a new
game is also told by what the laid slabs guarantee (C1: a slab on every slab square) when fewer
came back: of the slab squares without a slab in the confirmed position, at least
``NEW_GAME_LEAST`` read as clear slabs and more than twice as many as read empty (nothing or a
face-up cheese). A new game that starts from an early position (few squares had lost their
slab) is then seen.

A frame's new game is told once (``vision.chop_frame``; each step's ``new``): no step after it
can make a frame a new game, and none before the flat slabs can stop it being one. They change
a hole spot between the mouse and the hole (neither counted), or, when it is no new game, a
reading into something flat or no surer than ``UNSURE`` (a clear slab is never made, an empty
one never unmade); in a new game they change nothing. ``vision.chop_flat`` then may turn a
clear slab into something flat: only then is it told again (``missing_mice``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.chop_squares import ALLOWED, CLASSES, likeliest_allowed

UNSURE = 0.5
"""The most confidence a reading the confirmed position changed gets (under the cross-check's)."""
NEW_GAME_SLABS = 6
"""Clear slab readings (at least ``CLEAR``) where the confirmed position has no slab that
mean the slabs were laid again (a new game): the confirmed position is then not used."""
CLEAR = 0.9
NEW_GAME_LEAST = NEW_GAME_SLABS // 2
"""With the spots' kinds: the fewest clear slabs back that can mean a new game (module doc)."""


def base_token(token: str | None) -> str:
    """A token's kind (``"mouse:2"`` -> ``"mouse"``), ``"-"`` for an empty spot."""
    return "-" if token is None else token.split(":", 1)[0]


def allowed_now(kind: str, was: str | None) -> set[str]:
    """What a spot of ``kind`` (``vision.chop_read.spot_kinds``) can hold now, its square holding
    ``was`` in the last confirmed position (an engine token, None: nothing)."""
    out = set(ALLOWED[kind])
    if kind != "slab":
        return out
    before = base_token(was)
    if before != "slab":
        out.discard("slab")  # C5: a slab never comes back
    if before not in ("slab", "cheese", "cat"):
        out.discard("cheese")  # C5: a face-up cheese is a turned slab (the cat may sit on one)
    return out


def new_game(decided: Sequence[tuple[str | None, float]], squares: Sequence[str],
             confirmed: Mapping[str, str], kinds: Sequence[str] | None = None) -> bool:
    """The slabs were laid again: the frame shows at least ``NEW_GAME_SLABS`` clear slabs where the
    confirmed position has none; or, with ``kinds`` (each spot's kind, as
    ``vision.chop_read.spot_kinds``), of the slab squares without a slab in the confirmed
    position at least ``NEW_GAME_LEAST`` read as clear slabs and more than twice as many as
    read empty (module doc)."""
    gone = [(base_token(t), c) for (t, c), s in zip(decided, squares) if base_token(confirmed.get(s)) != "slab"]
    back = sum(1 for t, c in gone if t == "slab" and c >= CLEAR)
    if kinds is None or back >= NEW_GAME_SLABS:
        return back >= NEW_GAME_SLABS
    empty = sum(1 for (t, _), s, k in zip(decided, squares, kinds)
                if k == "slab" and base_token(confirmed.get(s)) != "slab" and base_token(t) in ("-", "cheese"))
    return back >= NEW_GAME_LEAST and back > 2 * empty


def follow_confirmed(decided: list[tuple[str | None, float]], kinds: Sequence[str], squares: Sequence[str],
                     confirmed: Mapping[str, str], probs: np.ndarray | None = None, new: bool | None = None) -> int:
    """Each spot's reading (``decided``, in place; ``squares``: each spot's square, the first of
    its group) against the ``confirmed`` position (see the module doc): a reading the rules no
    longer allow there (a slab or a cheese: figures are left) becomes the cheese where one lay,
    else the likelier of the flat readings allowed by the classifier's ``probs`` (rows as
    ``vision.chop_squares.CLASSES``), else nothing; unsure.
    ``new``: ``new_game`` of this frame where the caller told it (module doc; None: told here).
    Returns how many readings changed (0 in a new game)."""
    if not confirmed or (new_game(decided, squares, confirmed, kinds) if new is None else new):
        return 0
    n = 0
    for i, (kind, sq) in enumerate(zip(kinds, squares)):
        token = decided[i][0]
        now = allowed_now(kind, confirmed.get(sq))
        if base_token(token) in now:
            continue
        now &= {"cheese", "-"}  # a slab or a cheese was seen: something flat, not a figure
        if base_token(confirmed.get(sq)) == "cheese":
            decided[i] = ("cheese", UNSURE)  # the face-up cheese stays where it lay (C5)
        else:
            decided[i] = likeliest_allowed(None if probs is None else probs[i], now, UNSURE)
        n += 1
    return n + _cheese_stays(decided, kinds, squares, confirmed, probs) + _no_mouse_back(
        decided, kinds, squares, confirmed, probs)


def mouse_stays_on_hole(decided: list[tuple[str | None, float]], kinds: Sequence[str], squares: Sequence[str],
                        confirmed: Mapping[str, str], probs: np.ndarray | None, margin: float,
                        new: bool | None = None) -> int:
    """A hole spot read as the opened hole where the ``confirmed`` position has a mouse: the
    mouse, unsure, when the classifier's ``probs`` give the mouse at least ``margin`` more than
    the hole (module doc; in place; how many changed; 0 in a new game or without ``probs``;
    ``new`` as ``follow_confirmed``'s)."""
    if not confirmed or probs is None or (new_game(decided, squares, confirmed, kinds) if new is None else new):
        return 0
    m, h = CLASSES.index("mouse"), CLASSES.index("hole")
    n = 0
    for i, (kind, sq) in enumerate(zip(kinds, squares)):
        if (kind == "hole" and base_token(decided[i][0]) == "hole" and base_token(confirmed.get(sq)) == "mouse"
                and float(probs[i][m]) >= float(probs[i][h]) + margin):
            decided[i] = ("mouse", UNSURE)
            n += 1
    return n


def _cheese_stays(decided: list[tuple[str | None, float]], kinds: Sequence[str], squares: Sequence[str],
                  confirmed: Mapping[str, str], probs: np.ndarray | None) -> int:
    """A spot read as a mouse or the floor where the confirmed position has a face-up cheese, the
    classifier's likeliest reading a figure: the cheese, unsure (in place; how many)."""
    if probs is None:
        return 0
    n = 0
    figures = [CLASSES.index("mouse"), CLASSES.index("cat")]
    for i, (kind, sq) in enumerate(zip(kinds, squares)):
        if (kind == "slab" and base_token(confirmed.get(sq)) == "cheese" and base_token(decided[i][0]) in ("-", "mouse")
                and int(np.asarray(probs[i]).argmax()) in figures):
            decided[i] = ("cheese", UNSURE)
            n += 1
    return n


def _no_mouse_back(decided: list[tuple[str | None, float]], kinds: Sequence[str], squares: Sequence[str],
                   confirmed: Mapping[str, str], probs: np.ndarray | None) -> int:
    """More mice read than the confirmed position has (C6: a caught mouse never comes back): the
    least likely mice take their likeliest other reading, unsure (in place; how many)."""
    left = sum(1 for t in confirmed.values() if base_token(t) == "mouse")
    mice = [i for i, (t, _) in enumerate(decided) if base_token(t) == "mouse"]
    if len(mice) <= left:
        return 0
    j = CLASSES.index("mouse")
    mice.sort(key=lambda i: float(probs[i, j]) if probs is not None else decided[i][1])
    for i in mice[:len(mice) - left]:
        now = allowed_now(kinds[i], confirmed.get(squares[i])) - {"mouse", "cat"}
        decided[i] = likeliest_allowed(None if probs is None else probs[i], now, UNSURE,
                                       "hole" if "hole" in now else "-")
    return len(mice) - left
