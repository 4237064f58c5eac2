"""vision.chop_near: when no legal Chop! Chop! move fits the camera's reading, the likeliest ones
offered as a question (session 31); nothing offered when the reading shows nothing moved."""

from __future__ import annotations

from typing import Any

from bench import board_lastmove as lm
from vision.chop_near import nearest_moves, rank_moves
from vision.chop_who import camera_moves, figures


def _observe(view: dict[str, str], conf: float = 0.95) -> dict[str, tuple[str | None, float]]:
    from vision.boarddefaults import board_for

    out: dict[str, tuple[str | None, float]] = {s: (None, conf) for s in board_for("chopchop").squares}
    for s, t in view.items():
        out[s] = (t.split(":")[0] if t.startswith("mouse") else t, conf)
    return out


def _plays() -> list[tuple[Any, Any, dict[str, str]]]:
    """(state one move back, the piece move played, the figures after it) of a seeded play."""
    out = []
    for play, _ in lm.third_family_plays(16, 7, ["chopchop"]).values():
        if play is None or type(play[1][0]).__name__ not in ("Move", "Teleport", "PlaceCat"):
            continue
        trial = play[0].clone()
        trial.apply(play[1][0])
        out.append((play[0], play[1][0], figures(trial.board_view())))
    return out


def test_a_reading_of_the_position_before_offers_nothing() -> None:
    plays = _plays()
    assert len(plays) >= 10
    for pre, _, _ in plays:
        assert nearest_moves(pre, _observe(dict(pre.board_view()))).moves == ()  # nothing moved yet
        ranked = rank_moves(pre, _observe(dict(pre.board_view())))
        assert ranked and max(sc for _, sc in ranked) <= 0


def test_the_true_result_ranks_the_played_move_first_with_its_equals() -> None:
    for pre, played, after in _plays():
        ranked = rank_moves(pre, _observe(after))
        best = ranked[0][1]
        assert best > 0
        assert dict(ranked)[played] == best  # first, or tied with another way to the same result


def test_the_end_square_misread_nothing_fits_and_the_played_move_is_offered_as_a_question() -> None:
    offered = 0
    for pre, played, after in _plays():
        reading = _observe(after)
        end = getattr(played, "to", None)
        if end is None or end not in reading or end.startswith("top:"):
            continue
        reading[end] = (None, 0.5)  # the piece on its end square missed, unsure
        if camera_moves(pre, reading, 0.8).actions:
            continue
        near = nearest_moves(pre, reading)
        assert 0 < len(near.moves) <= 3 and list(near.scores) == sorted(near.scores, reverse=True)
        assert played in near.moves
        offered += 1
    assert offered >= 5
