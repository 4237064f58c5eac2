"""The companion's Qubism player: alpha-beta search with chance nodes (RULES.md section 4).

**Search.** Negamax alpha-beta with iterative deepening over the engine API only
(``to_move``, ``legal_actions``, ``chance_outcomes``, ``apply``, ``clone``, ``outcome``). A cube
slide under the default ``cube_model="observed"`` is followed by a chance step (the new top
arrow, Q5): that node is the expectation over ``chance_outcomes()`` with their exact
probabilities (expectimax). Under a predicting cube model there is no chance step.

- A transposition table (keyed by pawns, cubes, pool, turn) keeps each position's best move and
  bound; the table's move, then killer moves, then a static ordering (each child's evaluation,
  where the remaining depth makes that worth it) order the moves.
- At the root every legal action is searched. Deeper, the search looks only at the moves that
  can change the race: every pawn move, placements on a square of one of the opponent's
  shortest paths (a cube anywhere else does not lengthen it), and slides that land on such a
  square or free one of the mover's shorter paths.
- A leaf is scored from the two pawns' shortest distances to their goal rows over cube-free
  squares (bit-parallel breadth-first floods), ``h = d_opponent - d_mover + 1/2`` (the mover
  wins a plain race when it is not further away), plus a small pull towards the goal so a
  won race is actually run, not shuffled.

**Values and winning chances.** Every value is ``2 P - 1`` for the side to move, where ``P``
is a winning chance: a won game is worth almost 1 (less per ply, so quicker wins come first),
a lost one almost -1, a leaf ``0.9 (2 logistic(h / 2) - 1)`` plus the pull. Expectations over
chance outcomes then stay expectations of a winning chance. :meth:`QubismPlayer.analyse`
reports ``win_chance = (v + 1) / 2`` of the seat: exactly 1.0 or 0.0 where the search proved a
forced win or loss (over every arrow a tipped cube may show), otherwise a heuristic estimate
between 0.05 and 0.95. The best option's chance comes from the full search; the next few
alternatives get their own full-window search at the last completed depth; the rest are listed
in search order without a chance.

**Strengths** are deterministic work budgets (nodes = actions applied during one decision, and a
maximum depth), so a seed and a position always give the same move: ``easy`` looks one ply ahead
with seeded noise on its evaluation (it blunders; a child can beat it), ``normal`` and ``strong``
deepen until their node budget is spent. Two safety caps only cut in on a much slower machine:
three times the intended time in the search thread's own CPU time (``time.thread_time``: a
busy machine does not trigger it, a slow one does), and ten times it on the wall clock.

Pure core: no I/O; typed for ``mypy --strict``.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass

from companion.games.base import Action, Game, State
from companion.games.qubism import ARROWS, PawnMove, PlaceCube, QubismState, SlideCube
from companion.i18n import _
from companion.players.base import Option, Player, PlayerError

__all__ = ["LEVELS", "Level", "QubismPlayer"]

WIN = 1.0
"""The value of a won game (less ``PLY`` per ply it takes)."""
PLY = 0.001
PROVEN = 0.95
"""Values at least this large (in size) are proven wins or losses."""
SCALE = 2.0
"""Distance steps per unit of the logistic: one step ahead is about a 62% chance."""
PULL = 0.002
"""Value per step of the mover's own distance: run a won race home."""
TEMPO = 0.5
INF = 10.0


@dataclass(frozen=True)
class Level:
    """One strength: a deterministic work budget and what it was calibrated to take."""

    depth: int
    """The deepest iteration (plies)."""
    nodes: int
    """Actions applied during one decision before the search stops deepening."""
    seconds: float
    """The intended time per decision; the search gives up at three times this."""
    noise: float = 0.0
    """Standard deviation of the seeded noise on each root option's value (easy only)."""
    alternatives: int = 2
    """How many options after the best :meth:`QubismPlayer.analyse` gives a searched chance."""


LEVELS: dict[str, Level] = {
    "easy": Level(depth=1, nodes=400, seconds=0.05, noise=0.3, alternatives=2),
    "normal": Level(depth=12, nodes=10000, seconds=0.4),
    "strong": Level(depth=20, nodes=25000, seconds=1.0),
}


class _OutOfBudget(Exception):
    pass


@dataclass
class _Entry:
    depth: int
    value: float
    flag: int  # 0 exact, 1 lower bound, 2 upper bound
    move: Action | None


class _Board:
    """The board as bits, for the distance floods (one bit a square, a spare column between rows)."""

    def __init__(self, state: QubismState) -> None:
        game = state.game
        cells = game.geometry.cells
        cols = max(c for _r, c in cells.values()) + 2
        self.width = cols
        self.bit = {sq: 1 << (r * cols + c) for sq, (r, c) in cells.items()}
        self.square = {b: sq for sq, b in self.bit.items()}
        self.full = sum(self.bit.values())
        self.goal = {p: sum(self.bit[sq] for sq in game.goal_of[p]) for p in game.players}

    def layers(self, start: int, free: int, target: int) -> list[int]:
        """Breadth-first layers from ``start`` over ``free`` until one meets ``target`` (empty
        list if it cannot be reached)."""
        w = self.width
        seen = start
        layer = start
        out = [start]
        while not layer & target:
            grown = ((layer << 1) | (layer >> 1) | (layer << w) | (layer >> w)) & free & ~seen
            if not grown:
                return []
            seen |= grown
            layer = grown
            out.append(layer)
        return out

    def distance(self, start: int, free: int, target: int) -> int:
        w = self.width
        seen = layer = start
        d = 0
        while not layer & target:
            layer = ((layer << 1) | (layer >> 1) | (layer << w) | (layer >> w)) & free & ~seen
            if not layer:
                return 99
            seen |= layer
            d += 1
        return d

    def shortest_squares(self, start: int, free: int, target: int) -> int:
        """The squares on some shortest path from ``start`` to ``target`` over ``free``."""
        fwd = self.layers(start, free, target)
        if not fwd:
            return 0
        w = self.width
        on = fwd[-1] & target
        keep = on
        for layer in reversed(fwd[:-1]):
            on = ((on << 1) | (on >> 1) | (on << w) | (on >> w)) & layer
            keep |= on
        return keep


class QubismPlayer(Player):
    """Alpha-beta (expectimax at the observed tips) with a distance-race evaluation."""

    def __init__(self, game: Game, seat: str, strength: str = "normal", seed: int = 0) -> None:
        super().__init__(game, seat, strength, seed)
        self.level = LEVELS[strength]
        self._board: _Board | None = None
        self._tt: dict[str, _Entry] = {}
        self._killers: dict[int, list[Action]] = {}
        self._nodes = 0
        self._limit = 0
        self._deadline = 0.0
        self._wall_deadline = 0.0
        self.last_depth = 0
        """The deepest iteration the last decision completed (for tests and the bench)."""

    # -- the engine's state ------------------------------------------------------------------

    def _state(self, state: State) -> QubismState:
        if not isinstance(state, QubismState):
            raise PlayerError(_("the Qubism player needs a Qubism position"))
        self._check(state)
        if self._board is None:
            self._board = _Board(state)
        return state

    @staticmethod
    def _key(s: QubismState) -> str:
        pawns = ",".join(s.pawns[p] for p in s.game.players)
        cubes = ";".join(f"{sq}{a}" for sq, a in sorted(s.cubes.items()))
        return f"{s.turn}|{pawns}|{cubes}|{s.pool}|{s.tipping}"

    def _other(self, s: QubismState, player: str) -> str:
        a, b = s.game.players
        return b if player == a else a

    # -- evaluation --------------------------------------------------------------------------

    def _free(self, s: QubismState) -> int:
        assert self._board is not None
        bit = self._board.bit
        blocked = 0
        for sq in s.cubes:
            blocked |= bit[sq]
        return self._board.full & ~blocked

    def _value(self, d_me: int, d_opp: int, me_to_move: bool) -> float:
        """The static value for "me" of a position where nobody's pawn is home yet."""
        if me_to_move:
            if d_me <= 1:
                return 0.9 - PULL * d_me
            h = d_opp - d_me + TEMPO
        else:
            if d_opp <= 1:
                return -0.9 + PULL * d_opp
            h = d_opp - d_me - TEMPO
        return 0.9 * (2.0 / (1.0 + math.exp(-h / SCALE)) - 1.0) - PULL * d_me

    def _evaluate(self, s: QubismState, me: str, me_to_move: bool) -> float:
        board = self._board
        assert board is not None
        free = self._free(s)
        opp = self._other(s, me)
        d_me = board.distance(board.bit[s.pawns[me]], free, board.goal[me])
        d_opp = board.distance(board.bit[s.pawns[opp]], free, board.goal[opp])
        return self._value(d_me, d_opp, me_to_move)

    def _leaf(self, s: QubismState, free: int, action: Action, ply: int) -> float:
        """The static value for the mover of the position ``action`` leads to, read off the action
        (a legal one) without applying it: where the pawn goes or which square a cube leaves and
        takes; a tipped cube's new arrow does not change the distances."""
        self._tick()
        board = self._board
        assert board is not None
        me = s.turn
        opp = self._other(s, me)
        bit = board.bit
        here = bit[s.pawns[me]]
        if isinstance(action, PawnMove):
            if action.to in s.game.goal_of[me]:
                return WIN - PLY * ply
            here = bit[action.to]
        elif isinstance(action, PlaceCube):
            free &= ~bit[action.square]
        elif isinstance(action, SlideCube):
            free = (free | bit[action.square]) & ~bit[self._dest(s, action)]
        d_me = board.distance(here, free, board.goal[me])
        d_opp = board.distance(bit[s.pawns[opp]], free, board.goal[opp])
        return self._value(d_me, d_opp, False)

    @staticmethod
    def _dest(s: QubismState, action: SlideCube) -> str:
        geo = s.game.geometry
        r, c = geo.cells[action.square]
        dr, dc = ARROWS[s.cubes[action.square]]
        return geo.at[(r + action.distance * dr, c + action.distance * dc)]

    # -- search ------------------------------------------------------------------------------

    def _tick(self) -> None:
        self._nodes += 1
        if self._nodes > self._limit:
            raise _OutOfBudget
        if not self._nodes & 255 and (time.thread_time() > self._deadline
                                       or time.perf_counter() > self._wall_deadline):
            raise _OutOfBudget

    def _apply(self, s: QubismState, action: Action) -> QubismState:
        self._tick()
        child = s.clone()
        child.apply(action)
        return child

    def _after(self, child: QubismState, mover: str, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value for ``mover`` of ``child``, the position after one of its actions, searched
        ``depth`` more plies."""
        if child.winner is not None:
            return WIN - PLY * ply if child.winner == mover else -WIN + PLY * ply
        if depth <= 0:
            return self._evaluate(child, mover, False)
        if child.tipping is not None:
            total = 0.0
            for outcome, p in child.chance_outcomes():
                nxt = self._apply(child, outcome)
                total += float(p) * -self._search(nxt, depth, -INF, INF, ply + 1)
            return total
        return -self._search(child, depth, -beta, -alpha, ply + 1)

    def _interesting(self, s: QubismState, free: int, actions: list[Action]) -> list[Action]:
        """The moves that can change the race (see the module's docstring)."""
        board = self._board
        assert board is not None
        me = s.turn
        opp = self._other(s, me)
        opp_path = board.shortest_squares(board.bit[s.pawns[opp]], free, board.goal[opp])
        start = board.bit[s.pawns[me]]
        d_me = -1
        out: list[Action] = []
        for a in actions:
            if isinstance(a, PawnMove):
                out.append(a)
            elif isinstance(a, PlaceCube):
                if board.bit[a.square] & opp_path:
                    out.append(a)
            elif isinstance(a, SlideCube):
                dest = board.bit[self._dest(s, a)]
                if dest & opp_path:
                    out.append(a)
                    continue
                if d_me < 0:
                    d_me = board.distance(start, free, board.goal[me])
                if board.distance(start, (free | board.bit[a.square]) & ~dest, board.goal[me]) < d_me:
                    out.append(a)
        return out

    def _search(self, s: QubismState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Negamax value of ``s`` (a decision, nobody home yet) for the side to move."""
        key = self._key(s)
        entry = self._tt.get(key)
        tt_move = None
        if entry is not None:
            tt_move = entry.move
            if entry.depth >= depth:
                if entry.flag == 0:
                    return entry.value
                if entry.flag == 1 and entry.value >= beta:
                    return entry.value
                if entry.flag == 2 and entry.value <= alpha:
                    return entry.value
        mover = s.turn
        free = self._free(s)
        actions = self._interesting(s, free, s.legal_actions())
        killers = self._killers.get(ply, [])
        alpha0 = alpha
        best = -INF
        best_move: Action | None = None
        if depth == 1:
            goal_row = s.game.goal_row[mover]
            cells = s.game.geometry.cells

            def rank(a: Action) -> float:
                if a == tt_move:
                    return -100.0
                if a in killers:
                    return -50.0 + killers.index(a)
                if isinstance(a, PawnMove):
                    return -10.0 + abs(cells[a.to][0] - goal_row)
                return 0.0 if isinstance(a, PlaceCube) else 10.0

            order = sorted(actions, key=rank)
        else:
            guesses = []
            for i, a in enumerate(actions):
                g = self._leaf(s, free, a, ply)
                if a == tt_move:
                    g += 10.0
                elif a in killers:
                    g += 5.0
                guesses.append((-g, i, a))
            guesses.sort(key=lambda t: (t[0], t[1]))
            order = [a for _g, _i, a in guesses]
        for a in order:
            if depth == 1:
                v = self._leaf(s, free, a, ply)
            else:
                v = self._after(self._apply(s, a), mover, depth - 1, alpha, beta, ply)
            if v > best:
                best, best_move = v, a
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self._killer(ply, a)
                        break
        flag = 0 if alpha0 < best < beta else (1 if best >= beta else 2)
        self._tt[key] = _Entry(depth, best, flag, best_move)
        return best

    def _killer(self, ply: int, action: Action) -> None:
        if isinstance(action, PawnMove):
            return  # pawn moves come early anyway
        killers = self._killers.setdefault(ply, [])
        if action in killers:
            return
        killers.insert(0, action)
        del killers[2:]

    # -- the root ----------------------------------------------------------------------------

    def _root(self, s: QubismState) -> tuple[list[Action], dict[Action, float], int]:
        """Iterative deepening: every legal action, best first, with the values of the last
        completed iteration (exact for the best, upper bounds for the others) and its depth."""
        self._tt = {}
        self._killers = {}
        self._nodes = 0
        self._limit = self.level.nodes
        self._caps(3.0)
        mover = s.turn
        actions = s.legal_actions()
        order = list(actions)
        values: dict[Action, float] = {}
        done = 0
        # depth 1 is always completed, whatever the budget: it orders the moves
        free = self._free(s)
        self._limit = 1 << 60
        for a in actions:
            values[a] = self._leaf(s, free, a, 0)
        self._limit = self.level.nodes
        done = 1
        order.sort(key=lambda a: -values[a])
        for depth in range(2, self.level.depth + 1):
            if abs(values[order[0]]) >= PROVEN:
                break
            new: dict[Action, float] = {}
            alpha = -INF
            try:
                for a in order:
                    child = self._apply(s, a)
                    v = self._after(child, mover, depth - 1, alpha, INF, 0)
                    new[a] = v
                    alpha = max(alpha, v)
            except _OutOfBudget:
                if new:  # the moves searched so far at this depth: the best of them if it is better
                    best = max(new, key=lambda a: new[a])
                    if best != order[0] and new[best] > new.get(order[0], -INF):
                        values = {**values, **new}
                        order.remove(best)
                        order.insert(0, best)
                break
            values = new
            done = depth
            order.sort(key=lambda a: -values[a])
        return order, values, done

    def _caps(self, factor: float) -> None:
        self._deadline = time.thread_time() + factor * self.level.seconds
        self._wall_deadline = time.perf_counter() + 10 * factor / 3 * self.level.seconds

    def _noisy(self, s: QubismState, order: list[Action], values: dict[Action, float]) -> list[Action]:
        rng = random.Random(f"{self.seed}:{json.dumps(s.to_json(), sort_keys=True)}")
        noisy = {a: values[a] + rng.gauss(0.0, self.level.noise) for a in order}
        return sorted(order, key=lambda a: -noisy[a])

    def _decide(self, state: State) -> tuple[QubismState, list[Action], dict[Action, float], int]:
        s = self._state(state)
        order, values, depth = self._root(s)
        if self.level.noise > 0:
            order = self._noisy(s, order, values)
        return s, order, values, depth

    def choose(self, state: State) -> Action:
        s, order, _values, depth = self._decide(state)
        self.last_depth = depth
        return order[0]

    def analyse(self, state: State) -> list[Option]:
        """Every legal action, best first; the best and the next ``alternatives`` with the seat's
        winning chance (1.0 / 0.0 for a proven win / loss), ordered by it, the rest without."""
        s, order, values, depth = self._decide(state)
        self.last_depth = depth
        mover = s.turn
        known = {order[0]: values[order[0]]}
        self._limit = self._nodes + self.level.nodes // 2
        self._caps(1.5)
        for a in order[1:1 + self.level.alternatives]:
            child = s.clone()
            child.apply(a)
            try:
                known[a] = self._after(child, mover, depth - 1, -INF, INF, 0)
            except _OutOfBudget:
                if depth <= 1:
                    known[a] = values[a]
                break
        # Best first by what is known: a re-searched alternative can come out ahead of the first
        # pick (a deeper look, or easy's noise); those without a chance follow in search order.
        ranked = sorted((a for a in order if a in known), key=lambda a: -_chance(known[a]))
        return ([Option(a, _chance(known[a])) for a in ranked]
                + [Option(a, None) for a in order if a not in known])


def _chance(value: float) -> float:
    """The seat's winning chance for a search value (see the module's docstring)."""
    if value >= PROVEN:
        return 1.0
    if value <= -PROVEN:
        return 0.0
    return min(0.95, max(0.05, (value + 1.0) / 2.0))
