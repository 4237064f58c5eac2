"""Exact winning chances and expected chips for Kat en Muis.

A position is everything that affects the future: both squares (each in its own numbering,
0..65), whose throw it is and the lost-turn flags. Chips do not change who wins. The game is an
absorbing Markov chain over 66 x 66 x 2 x 2 positions (the thrower's own flag is always clear
because a lost turn is taken at once, K9; the other's flag is kept). The chances solve the linear
system ``x = b + P x``; we split it into strongly connected components (Tarjan) and solve each
exactly in reverse topological order with a dense solve, so the result is exact up to floating
point rounding (residual below 1e-13), not an iteration stopped early.

The same chain with rewards = chip transfers between the banks gives the expected net transfer
to Cat; with the pots (taken by the winner) that is each player's expected chip gain.

The transitions come from :func:`companion.games.katenmuis.resolve_throw`, the function the
engine itself moves with; tests cross-check against Monte-Carlo games of the real engine.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.games.katenmuis import (
    DOUBLE_SQUARES,
    HOME,
    LOSE_TURN_SQUARES,
    SHORTCUT_SETTINGS,
    SQUARE_NUMBERS,
    THROW_AGAIN_SQUARES,
    THROWS,
    KatEnMuisState,
    jump_square,
    resolve_throw,
)

__all__ = ["OddsTable", "Odds", "table", "odds_for_state", "cat_win_probability", "N_POSITIONS"]

N_SQ = HOME  # squares 0..65 are live; 66 ends the game
N_POSITIONS = N_SQ * N_SQ * 2 * 2
_PLAYERS = ("cat", "mouse")


def _index(cat: int, mouse: int, thrower: int, other_flag: bool) -> int:
    return ((cat * N_SQ + mouse) * 2 + thrower) * 2 + int(other_flag)


@dataclass(frozen=True)
class Odds:
    """Chances from one position; ``cat_chips``/``mouse_chips`` are expected bank gains
    from now to the end (pots included, taken by the winner)."""

    cat_wins: float
    mouse_wins: float
    cat_chips: float
    mouse_chips: float

    def to_json(self) -> dict[str, Any]:
        return {
            "cat_wins": self.cat_wins,
            "mouse_wins": self.mouse_wins,
            "cat_expected_chips": self.cat_chips,
            "mouse_expected_chips": self.mouse_chips,
        }


def _transitions(shortcut_from: str) -> tuple[list[list[tuple[int, float]]], np.ndarray]:
    """Per position: [(next position, probability)], and rewards b[:, 0] = chance Cat wins on
    this throw, b[:, 1] = expected chips moved from Mouse's bank to Cat's on this throw."""
    probs = [(d, (1.0 if d[0] == d[1] else 2.0) / 36.0) for d in THROWS]
    moves = [[resolve_throw(s, d, shortcut_from) for d, _ in probs] for s in range(N_SQ)]
    succ: list[list[tuple[int, float]]] = [[] for _ in range(N_POSITIONS)]
    b = np.zeros((N_POSITIONS, 2))
    for c in range(N_SQ):
        for m in range(N_SQ):
            for t in (0, 1):
                for f in (False, True):
                    i = _index(c, m, t, f)
                    s, o = (c, m) if t == 0 else (m, c)
                    sign = 1.0 if t == 0 else -1.0  # chips to the thrower count + for Cat
                    win = 0.0
                    chips = 0.0
                    out: dict[int, float] = {}
                    for (_, p), res in zip(probs, moves[s]):
                        if res.kind == "forfeit":
                            chips -= 2 * p
                            stop, lose, again = s, False, False
                        else:
                            stop = res.stop
                            if jump_square(res.passed, o) is not None:
                                chips -= p
                            if stop == HOME:
                                win += p
                                continue
                            if stop in DOUBLE_SQUARES:
                                chips += 2 * p
                            if stop in SQUARE_NUMBERS:
                                chips -= p
                            lose = stop in LOSE_TURN_SQUARES
                            again = stop in THROW_AGAIN_SQUARES
                        if again:
                            nt, nf = t, f
                        elif f:  # the other's lost turn is taken; then maybe the thrower's
                            nt, nf = (1 - t, False) if lose else (t, False)
                        else:
                            nt, nf = 1 - t, lose
                        nc, nm = (stop, o) if t == 0 else (o, stop)
                        j = _index(nc, nm, nt, nf)
                        out[j] = out.get(j, 0.0) + p
                    b[i, 0] = win if t == 0 else 0.0
                    b[i, 1] = sign * chips
                    succ[i] = list(out.items())
    return succ, b


def _components(succ: list[list[tuple[int, float]]]) -> list[list[int]]:
    """Tarjan's strongly connected components, sinks first (iterative)."""
    n = len(succ)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    comps: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, k = work[-1]
            edges = succ[v]
            if k < len(edges):
                work[-1] = (v, k + 1)
                w = edges[k][0]
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
    return comps


def _solve(succ: list[list[tuple[int, float]]], b: np.ndarray) -> np.ndarray:
    x = np.zeros_like(b)
    for comp in _components(succ):
        if len(comp) == 1:
            i = comp[0]
            rhs = b[i].copy()
            self_p = 0.0
            for j, p in succ[i]:
                if j == i:
                    self_p += p
                else:
                    rhs += p * x[j]
            x[i] = rhs / (1.0 - self_p)
            continue
        local = {v: k for k, v in enumerate(comp)}
        a = np.eye(len(comp))
        rhs = b[comp].copy()
        for k, i in enumerate(comp):
            for j, p in succ[i]:
                kk = local.get(j)
                if kk is None:
                    rhs[k] += p * x[j]
                else:
                    a[k, kk] -= p
        x[comp] = np.linalg.solve(a, rhs)
    return x


class OddsTable:
    """The whole table for one ``shortcut_from`` setting. Build with :func:`table` (cached)."""

    def __init__(self, shortcut_from: str = "reached") -> None:
        if shortcut_from not in SHORTCUT_SETTINGS:
            raise ValueError(f"shortcut_from must be one of {', '.join(SHORTCUT_SETTINGS)}")
        self.shortcut_from = shortcut_from
        succ, b = _transitions(shortcut_from)
        x = _solve(succ, b)
        self._win: list[float] = [float(v) for v in x[:, 0]]
        self._chips: list[float] = [float(v) for v in x[:, 1]]
        rows = np.fromiter((i for i, edges in enumerate(succ) for _ in edges), dtype=np.int64)
        cols = np.fromiter((j for edges in succ for j, _ in edges), dtype=np.int64)
        probs = np.fromiter((p for edges in succ for _, p in edges), dtype=np.float64)
        res = x - b
        for q in range(2):
            res[:, q] -= np.bincount(rows, weights=probs * x[cols, q], minlength=N_POSITIONS)
        self.residual = float(np.abs(res).max())
        """max |x - (b + P x)| over all positions and both quantities."""

    @staticmethod
    def _key(cat: int, mouse: int, to_move: str, cat_skips: bool, mouse_skips: bool) -> int | float:
        if to_move not in _PLAYERS:
            raise ValueError("to_move is 'cat' or 'mouse'")
        for sq in (cat, mouse):
            if not 0 <= sq <= HOME:
                raise ValueError(f"a square is 0 to 66, not {sq}")
        if cat == HOME:
            return 1.0
        if mouse == HOME:
            return 0.0
        flags = {"cat": cat_skips, "mouse": mouse_skips}
        turn = to_move
        while flags[turn]:  # K9: a lost turn is taken at once
            flags[turn] = False
            turn = "mouse" if turn == "cat" else "cat"
        other = "mouse" if turn == "cat" else "cat"
        return _index(cat, mouse, _PLAYERS.index(turn), flags[other])

    def cat_wins(
        self, cat: int = 0, mouse: int = 0, to_move: str = "cat", cat_skips: bool = False, mouse_skips: bool = False
    ) -> float:
        """The chance that Cat wins (squares in each player's own numbering)."""
        key = self._key(cat, mouse, to_move, cat_skips, mouse_skips)
        return key if isinstance(key, float) else self._win[key]

    def cat_transfer(
        self, cat: int = 0, mouse: int = 0, to_move: str = "cat", cat_skips: bool = False, mouse_skips: bool = False
    ) -> float:
        """Expected chips moving from Mouse's bank to Cat's from here to the end (pots apart)."""
        key = self._key(cat, mouse, to_move, cat_skips, mouse_skips)
        return 0.0 if isinstance(key, float) else self._chips[key]

    def odds(
        self,
        cat: int = 0,
        mouse: int = 0,
        to_move: str = "cat",
        cat_skips: bool = False,
        mouse_skips: bool = False,
        pots: int = 10,
    ) -> Odds:
        p = self.cat_wins(cat, mouse, to_move, cat_skips, mouse_skips)
        t = self.cat_transfer(cat, mouse, to_move, cat_skips, mouse_skips)
        if cat == HOME or mouse == HOME:
            pots = 0
        return Odds(p, 1.0 - p, t + p * pots, -t + (1.0 - p) * pots)


@functools.lru_cache(maxsize=None)
def table(shortcut_from: str = "reached") -> OddsTable:
    """The odds table for a setting, computed once per process."""
    return OddsTable(shortcut_from)


def odds_for_state(state: KatEnMuisState) -> Odds:
    """Chances from a live game state (its own settings, its pots)."""
    if state.winner is not None:
        cat_won = state.winner == "cat"
        return Odds(1.0 if cat_won else 0.0, 0.0 if cat_won else 1.0, 0.0, 0.0)
    return table(state.game.shortcut_from).odds(
        state.square["cat"],
        state.square["mouse"],
        state.turn,
        state.skip["cat"],
        state.skip["mouse"],
        pots=state.pots(),
    )


def cat_win_probability(state: KatEnMuisState) -> float:
    """Cat's chance of winning from a live game state (1.0 or 0.0 once over)."""
    return odds_for_state(state).cat_wins
