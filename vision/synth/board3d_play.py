"""Positions for ``vision.synth.board3d``: real ones, reached by seeded random legal play of the
game engines (``companion.games``), and what physically stands on each square.

A group's first layout is the engine's start (Chop! Chop!: after the cat is placed on the table
top, as C1 lays it); the next ones follow after a few random legal actions each (chance drawn
with its exact probabilities; a finished game is set up again and played on).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion import games
from companion.boards import Board

PLIES = {"katenmuis": (1, 5), "chopchop": (4, 30), "kilkenny": (3, 25), "qubism": (2, 14)}
"""Random legal actions (throws and reveals included) between two scenes of a group, per game."""


@dataclass(frozen=True)
class Layout:
    squares: dict[str, str]
    """The engine's board_view (mice numbered, "cat+mouse", a cat on "top:r,c" and a mouse on
    "r,c" both present); Qubism cubes with the arrow as drawn."""
    stands: list[tuple[str, list[str], str | None]]
    """(square, tokens standing there, the Chop! Chop! slab lying under them or None)."""
    unreportable: list[str]
    """Squares holding what the reader's tokens cannot say: two pieces on one printed square."""
    face_up: dict[str, str] = field(default_factory=dict)
    """Chop! Chop!: a face-up tile other than cheese lying under the piece that just turned it
    (while its bonus, arrow or fork move is due; only when asked for: ``transient``)."""


def _settings(board: Board, rng: np.random.Generator) -> dict[str, Any]:
    if board.game == "kilkenny":
        return {"players": int(rng.integers(2, 5))}
    return {}


def cat_over_mouse(state: Any) -> bool:
    """Chop! Chop!: the cat on a table-top square with a mouse under it."""
    cat = getattr(state, "cat", None)
    return bool(cat and str(cat).startswith("top:") and str(cat)[4:] in getattr(state, "mice", {}).values())


def _leads_to(state: Any, action: Any, want: Callable[[Any], bool]) -> bool:
    nxt = state.clone()
    nxt.apply(action)
    return want(nxt)


def random_action(state: Any, rng: np.random.Generator) -> Any:
    """One action of ``state`` at random: a chance outcome by its probability, else any legal
    action alike (the seeded random play of scenes and tests)."""
    if state.is_chance():
        outcomes = state.chance_outcomes()
        p = np.array([float(w) for _, w in outcomes])
        return outcomes[int(rng.choice(len(outcomes), p=p / p.sum()))][0]
    acts = state.legal_actions()
    return acts[int(rng.integers(0, len(acts)))]


Moved = Callable[[Any, Any], None]
"""Told of every action before it is applied, (state, action), and of each layout taken,
(state, None)."""


def _play(state: Any, rng: np.random.Generator, plies: int, prefer: Callable[[Any], bool] | None = None,
          moved: Moved | None = None) -> bool:
    """Apply up to ``plies`` random legal actions (four times in five, given one, an action leading
    to a state where ``prefer`` holds); False when the game ended first (``moved``: told of each
    action before it is applied; it draws nothing)."""
    for _ in range(plies):
        if state.to_move() is None:
            return False
        if state.is_chance() or prefer is None:
            action = random_action(state, rng)
        else:
            acts = state.legal_actions()
            action = acts[int(rng.integers(0, len(acts)))]
            if len(acts) > 1 and rng.random() < 0.8:
                good = [a for a in acts if _leads_to(state, a, prefer)]
                if good:
                    action = good[int(rng.integers(0, len(good)))]
        if moved is not None:
            moved(state, action)
        state.apply(action)
    return state.to_move() is not None


def _start(game: Any, board: Board, rng: np.random.Generator, moved: Moved | None = None) -> Any:
    state = game.new_state()
    if board.game == "chopchop" and not state.is_chance():
        acts = state.legal_actions()  # C1: the cat player places the cat on the table top
        if acts and type(acts[0]).__name__ == "PlaceCat":
            action = acts[int(rng.integers(0, len(acts)))]
            if moved is not None:
                moved(state, action)
            state.apply(action)
    return state


def layout_of(board: Board, state: Any, rng: np.random.Generator, transient: bool = False) -> Layout:
    """What stands where in an engine state (``transient``: with the face-up tile a Chop! Chop!
    piece has just turned still lying under it, while its move is due)."""
    view = dict(state.board_view())
    stands: list[tuple[str, list[str], str | None]] = []
    unreportable: list[str] = []
    face_up: dict[str, str] = {}
    if board.game == "chopchop":
        view = dict(sorted(view.items()))  # the engine's face-down tiles are a set: its order changes per process
        if transient and state.phase in ("bonus", "arrow", "fork") and state.revealed:
            sq, tile, piece = state.revealed[-1]
            where = state.cat if piece == "cat" else state.mice.get(piece)
            if tile != "cheese" and where == sq and sq not in state.face_down and sq not in state.face_up_cheese:
                face_up[sq] = tile
        holes = list(board.region("holes"))
        pieces: dict[str, list[str]] = {}
        for m, where in sorted(state.mice.items()):
            if where is not None:
                pieces.setdefault(where, []).append(m)
        if state.cat is not None:
            cat_sq = str(state.cat)
            floor = cat_sq.split(":", 1)[1] if cat_sq.startswith("top:") else cat_sq
            if cat_sq.startswith("top:") and floor in pieces:  # the cat on the table over a mouse
                pieces[floor].append("cat")
                unreportable += [cat_sq, floor]
            else:
                pieces.setdefault(cat_sq, []).append("cat")
        for sq in sorted(state.face_down):
            stands.append((sq, pieces.pop(sq, []), "slab"))
        for sq in sorted(state.face_up_cheese):
            stands.append((sq, pieces.pop(sq, []), "cheese"))
        for h in holes:
            stands.append((h, pieces.pop(h, []), "hole_open" if h in state.opened else "hole_closed"))
        for sq, toks in sorted(pieces.items()):
            stands.append((sq, toks, f"tile:{face_up[sq]}" if sq in face_up else None))
    else:
        for sq, token in sorted(view.items()):
            if token.startswith("cube:") and token[5:] not in ("N", "E", "S", "W"):
                token = "cube:" + "NESW"[int(rng.integers(0, 4))]
                view[sq] = token
            toks = token.split("+")
            if len(toks) > 1:
                unreportable.append(sq)
            stands.append((sq, toks, None))
    return Layout(view, stands, unreportable, face_up)


def group_layouts(board: Board, count: int, rng: np.random.Generator, transient: bool = False,
                  moved: Moved | None = None) -> list[Layout]:
    """The start and ``count - 1`` later positions of seeded random legal play (``transient``:
    see ``layout_of``; ``moved``: told of every action before it is applied and of each layout
    taken (``Moved``), the same play whether given or not, e.g. ``bench.board_lastmove`` keeping each scene's position one move
    back)."""
    game = games.make(board.game, _settings(board, rng))
    state = _start(game, board, rng, moved)
    out = [layout_of(board, state, rng)]
    if moved is not None:
        moved(state, None)
    lo, hi = PLIES.get(board.game, (2, 10))
    # Chop! Chop!: steer some groups to the cat on the table over a mouse (random play seldom
    # gets there, and the reader must be shown it)
    prefer = cat_over_mouse if board.game == "chopchop" and rng.random() < 0.5 else None
    while len(out) < count:
        if not _play(state, rng, int(rng.integers(lo, hi + 1)), prefer, moved):
            state = _start(game, board, rng, moved)
            _play(state, rng, int(rng.integers(lo, hi + 1)), moved=moved)
        for _ in range(8):  # not while a tile's reveal (chance) or a Qubism cube's arrow is pending
            pending = state.is_chance() or any(t == "cube:?" for t in state.board_view().values())
            if not pending or not _play(state, rng, 1, moved=moved):
                break
        out.append(layout_of(board, state, rng, transient))
        if moved is not None:
            moved(state, None)
    return out
