"""Chop! Chop!: when no legal move fits the camera's reading, the likeliest ones (session 31).

``vision.chop_who.camera_moves`` proposes a move only when the reading shows its result on every
square it changes and no confident reading of a square another move would change disagrees.
When **none** fits (a piece misread, a square unsure), the app used to offer nothing. Here every
legal move is scored by how well the reading shows its result, the moves ranked by that score and
the first few offered to the players as a question ("The camera is not sure. Was it one of
these?"), never as a proposal: nothing is applied but the players' touch.

The score of a move is, over the squares it changes (the floor square under the cat on the table
top excepted: the cat hides it), the reading's confidence where it shows the move's result there
(a figure's kind, or no figure) minus where it shows the position before: a reading of the position before
(the players have not moved yet) scores every move 0 or less. No offer (``NearMoves.moves``
empty) when the best score is not above ``min_score`` (0: the reading must show some move better
than no move at all); otherwise the best ``offer`` (3) scored within ``margin`` (1.0) of the best.
Chosen on dev sets 4651 and 4652 (third family, 14 scenes where none fits;
``bench/board_moves.py``): the played move among those offered in 11, nothing offered in 2, offered
but not among them in 1; a moves-read-confidently gate, or a higher ``min_score``, offered fewer
with the played move among them, and no margin from 0.25 to any changed a thing there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vision.chop_who import Trials, changed_squares, figure_kind, hidden_by_cat, trials

NEAR_OFFER = 3
"""The most moves offered."""

NEAR_MARGIN = 1.0
"""Moves scored within this of the best are offered (``NEAR_OFFER`` at most)."""

NEAR_MIN_SCORE = 0.0
"""The best move's score must be above this for any offer."""


@dataclass(frozen=True)
class NearMoves:
    """The legal moves the reading shows best, best first (``scores`` alike), ``moves`` the ones
    to offer (empty: none); ``ranked``: every move tried, best first (for measuring)."""

    moves: tuple[Any, ...]
    scores: tuple[float, ...]
    ranked: tuple[tuple[Any, float], ...] = ()


def rank_moves(state: Any, observation: Mapping[str, tuple[str | None, float]],
               tried: Trials | None = None) -> list[tuple[Any, float]]:
    """Every legal piece move of ``state`` with its score (module doc), best first (ties in the
    engine's order). ``tried``: ``vision.chop_who.trials(state)`` if already made."""
    before, tries = tried if tried is not None else trials(state)
    if not tries:
        return []
    read = {s: (figure_kind(t), float(c)) for s, (t, c) in observation.items()}
    out: list[tuple[Any, float]] = []
    for action, after in tries:
        score = 0.0
        for s in changed_squares(before, after) - hidden_by_cat(after):
            if s in read:
                token, conf = read[s]
                score += conf * ((token == figure_kind(after.get(s))) - (token == figure_kind(before.get(s))))
        out.append((action, score))
    order = sorted(range(len(out)), key=lambda i: -out[i][1])
    return [out[i] for i in order]


def nearest_moves(state: Any, observation: Mapping[str, tuple[str | None, float]],
                  offer: int = NEAR_OFFER, margin: float = NEAR_MARGIN,
                  min_score: float = NEAR_MIN_SCORE, tried: Trials | None = None) -> NearMoves:
    """The moves to offer when none fits (module doc): the best ``offer`` at most, each scored
    within ``margin`` of the best, the best above ``min_score``. ``tried``: as ``rank_moves``."""
    ranked = rank_moves(state, observation, tried)
    if not ranked or ranked[0][1] <= min_score:
        return NearMoves((), (), tuple(ranked))
    best = ranked[0][1]
    chosen = [(a, sc) for a, sc in ranked[:offer] if sc >= best - margin]
    return NearMoves(tuple(a for a, _ in chosen), tuple(sc for _, sc in chosen), tuple(ranked))
