"""Chop! Chop!'s scenes for tests/ui/scenes.py: the game played to a wanted state (an Arrow
tile's jump, two ways to one square, the tile picker, the game's end) and the camera's offers of
a move (``ui.cammoves``: one move, two moves, the ways of one move, the likeliest moves when none
fits)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from tests.ui.helpers import play_fast, pump


def _chopchop_until(app: Any, want: Callable[[Any], bool], steps: int = 200) -> None:
    """Play Chop! Chop! (last legal move each time, tiles in the order offered) until
    ``want(state)``."""
    from companion.games.base import CHANCE
    from ui import actions

    app.start_game("chopchop", {"cat": "Anna", "mice1": "Ben"}, {})
    screen = app.game_screen
    for i in range(steps):
        state = app.session.state
        if want(state) or state.is_over():
            return
        if actions.chance_kind(state) == "dice":
            screen.picker.roll()
        elif state.to_move() == CHANCE:
            outcomes = actions.tile_outcomes(state)
            arrow = [o for o in outcomes if o[0] == "arrow"]
            screen.enter_tile((arrow or outcomes)[0][0] if i % 3 == 0 else outcomes[0][0])
        else:
            app.apply(state.legal_actions()[-1])
    raise AssertionError("Chop! Chop! never reached the wanted state")


def _chopchop_tile_picker(app: Any) -> Any:
    from ui import actions

    _chopchop_until(app, lambda s: actions.chance_kind(s) == "tile")
    app.game_screen.propose_tile("crockery")
    return None


def _chopchop_arrow(app: Any) -> Any:
    """The Arrow tile: the piece may go to any free square (43 of them)."""
    _chopchop_until(app, lambda s: any(type(a).__name__ == "Teleport" for a in s.legal_actions())
                    if not s.is_chance() else False)
    return None


def _two_ways(state: Any) -> dict[tuple[str, str], list[Any]]:
    ways: dict[tuple[str, str], list[Any]] = {}
    for a in state.legal_actions():
        if type(a).__name__ == "Move" and getattr(a, "via", ""):
            ways.setdefault((a.piece, a.to), []).append(a)
    return {k: v for k, v in ways.items() if len(v) > 1}


def _chopchop_paths(app: Any) -> Any:
    """Two ways lead to one square: the piece selected, the target touched, the ways drawn."""
    _chopchop_until(app, lambda s: not s.is_chance() and bool(_two_ways(s)))
    screen = app.game_screen
    (piece, to), _moves = next(iter(_two_ways(app.session.state).items()))
    frm = screen.pieces()[piece]
    screen.on_square(frm)
    screen.on_square(to)
    assert screen.path_choices, "the two ways are not offered"
    return None


def _chopchop_camera_move(two: bool) -> Callable[[Any], Any]:
    """The camera offers a Chop! Chop! mouse's move (ui.cammoves): one named move to use by a
    touch, or two that fit, asked about ("Which one was it?"), one touch each."""
    def build(app: Any) -> Any:
        from ui import cammoves

        def mice_move(state: Any) -> bool:
            if state.is_chance():
                return False
            moves = [a for a in state.legal_actions() if type(a).__name__ == "Move" and a.piece != "cat"]
            return len({a.piece for a in moves}) >= 2

        _chopchop_until(app, mice_move)
        pump(6)  # the game settled (a camera watcher stopping clears the camera's offers)
        state = app.session.state
        moves = [a for a in state.legal_actions() if type(a).__name__ == "Move" and a.piece != "cat"]
        other = next(a for a in moves if a.piece != moves[0].piece)
        cammoves.offer(app.game_screen, state, [moves[0], other] if two else [moves[0]])
        pump(3)  # the offer's wrapped lines take a frame or two to settle its height
        return None

    return build


def two_ways(state: Any) -> list[Any]:
    """Two ways of one Chop! Chop! piece onto one square (``Move.via`` apart), or []."""
    if state.is_chance():
        return []
    moves = [a for a in state.legal_actions() if type(a).__name__ == "Move" and a.via]
    return next(([a, b] for a in moves for b in moves if a.piece == b.piece and a.to == b.to
                 and a.via < b.via), [])


def _chopchop_camera_paths(app: Any) -> Any:
    """The camera sees one move onto a slab square but not which way it came (``ui.cammoves``:
    ``CameraMoves.paths``): one touch per way."""
    return _camera_offer(app, two_ways, paths=True)


def _camera_offer(app: Any, moves_of: Any, **how: bool) -> Any:
    """Chop! Chop! played until ``moves_of(state)`` gives moves, and the camera's offer of them
    shown (``ui.cammoves.offer`` with ``how``)."""
    from ui import cammoves

    _chopchop_until(app, lambda state: bool(moves_of(state)))
    pump(6)  # the game settled (a camera watcher stopping clears the camera's offers)
    state = app.session.state
    cammoves.offer(app.game_screen, state, moves_of(state), **how)
    pump(3)  # the offer's wrapped lines take a frame or two to settle its height
    return None


def moves_apart(state: Any, count: int) -> list[Any]:
    """``count`` Chop! Chop! moves ending apart (one piece's after another's, in the engine's
    order), or []."""
    if state.is_chance():
        return []
    apart: dict[tuple[str, str], Any] = {}
    for a in state.legal_actions():
        if type(a).__name__ == "Move":
            apart.setdefault((a.piece, a.to), a)
    pieces = [[a for (p, _), a in apart.items() if p == piece] for piece in dict.fromkeys(p for p, _ in apart)]
    turns = [a for row in itertools.zip_longest(*pieces) for a in row if a is not None]
    return turns[:count] if len(turns) >= count else []


def three_moves(state: Any) -> list[Any]:
    """Three Chop! Chop! moves ending apart, or []."""
    return moves_apart(state, 3)


def _chopchop_camera_near(app: Any) -> Any:
    """No legal move fits the camera's reading (``ui.cammoves``: ``vision.chop_near``): the
    likeliest three asked about, one touch each, and "None of these"."""
    return _camera_offer(app, three_moves, near=True)


def _chopchop_over(app: Any) -> Any:
    import random

    app.start_game("chopchop", {"cat": "Mum", "mice1": "Tom"}, {})
    rng = random.Random(5)
    play_fast(app, rng, 3000)
    pump(2)
    return None
