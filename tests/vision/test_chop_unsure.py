"""Chop! Chop!'s moves against the camera where the reading is unsure of itself
(``vision.chop_who.camera_moves``, session 32): an end square read at ``UNSURE`` or less does
not rule a move out but never lets one be proposed; the square a piece left, read unsure, still
rules it out; the cat read as a mouse where it landed."""

from __future__ import annotations

from typing import Any

import numpy as np

from companion import games
from vision.chop_known import UNSURE
from vision.chop_who import camera_moves
from vision.synth.board3d_play import random_action


def _observe(view: dict[str, str], conf: float = 0.9) -> dict[str, tuple[str | None, float]]:
    from vision.boarddefaults import board_for

    out: dict[str, tuple[str | None, float]] = {s: (None, conf) for s in board_for("chopchop").squares}
    for s, t in view.items():
        out[s] = (t.split(":")[0] if t.startswith("mouse") else t, conf)
    return out


def _turn(piece: str, seed: int = 7) -> tuple[Any, list[Any]]:
    """Seeded legal play to a turn where ``piece`` ("cat" or "mouse") has two or more moves onto
    empty floor squares (no capture, not the table top), each by one way; those moves."""
    rng = np.random.default_rng(seed)
    state = games.make("chopchop", {}).new_state()
    for _ in range(2000):
        if state.is_over():
            state = games.make("chopchop", {}).new_state()
        if not state.is_chance():
            view = state.board_view()
            moves = [a for a in state.legal_actions() if type(a).__name__ == "Move"
                     and a.piece.startswith(piece) and not a.to.startswith("top:") and a.to not in view]
            ends = [a.to for a in moves]
            moves = [a for a in moves if ends.count(a.to) == 1]
            if len({a.piece for a in moves}) == 1 and len(moves) >= 2:
                return state, moves
        state.apply(random_action(state, rng))
    raise AssertionError("no such turn")


def _after(state: Any, move: Any) -> dict[str, str]:
    after = state.clone()
    after.apply(move)
    return dict(after.board_view())


def test_an_end_square_read_unsure_leaves_the_move_possible_so_another_is_not_proposed() -> None:
    state, moves = _turn("cat")
    move, other = moves[:2]
    seen = _observe(_after(state, move))
    assert camera_moves(state, seen, 0.8).actions == (move,)
    # the reader marks the cat's end square unsure (one move back), and reads the cat faintly on
    # the other move's end square: base proposed that other move (2641 scene 28)
    seen[move.to] = (None, UNSURE)
    seen[other.to] = ("cat", 0.3)
    fits = camera_moves(state, seen, 0.8)
    assert move in fits.actions and other in fits.actions and not fits.sure
    # read confidently empty there, the move is ruled out: the other one is proposed, as before
    seen[move.to] = (None, 0.9)
    assert camera_moves(state, seen, 0.8).actions == (other,)


def test_a_move_seen_only_by_elimination_is_not_proposed() -> None:
    state, moves = _turn("cat")
    move = moves[0]
    seen = _observe(_after(state, move))
    seen[move.to] = (None, UNSURE)  # the end square unsure, every other end square read empty
    assert camera_moves(state, seen, 0.8).actions == ()


def test_a_mouse_still_read_where_it_stood_even_unsure_is_not_proposed_to_move() -> None:
    state, moves = _turn("mouse")
    move = moves[0]
    seen = _observe(_after(state, move))
    assert camera_moves(state, seen, 0.8).actions == (move,)
    # the square it left read as a mouse, unsure: the reader keeps it there (a mouse read where
    # none went is its likelier mistake: held-out 3855, session 32), so the move is not proposed
    seen[state.mice[move.piece]] = ("mouse", UNSURE)
    assert move not in camera_moves(state, seen, 0.8).actions


def test_the_cat_read_as_a_mouse_where_it_landed_is_the_cat_only_if_read_nowhere_else() -> None:
    state, moves = _turn("cat")
    move, other = moves[:2]
    seen = _observe(_after(state, move))
    seen[move.to] = ("mouse", 0.9)  # the classifier takes the cat for a mouse
    fits = camera_moves(state, seen, 0.8)
    assert fits.sure and fits.actions == (move,)
    seen[other.to] = ("cat", 0.3)  # the cat read elsewhere, even faintly: not the cat
    assert move not in camera_moves(state, seen, 0.8).actions
