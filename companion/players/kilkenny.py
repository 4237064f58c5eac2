"""The companion's Kilkenny Cats player: expectimax over the throws, max^n for 2-4 colours.

The search runs through the engine API only (``to_move``, ``legal_actions``,
``chance_outcomes`` with their exact probabilities, ``clone``, ``apply``, ``outcome``); the
evaluation reads the state's public fields (``cats``, ``turn``) and the board geometry.

**Search.** Every position is valued as a vector: each colour's estimated chance to win (they
sum to 1). A throw is a chance node: the expectation over the six faces, each with its exact
probability. A decision node takes the child best for the colour to move (max^n; with two
colours this is expectiminimax). The horizon is counted in decisions after the root move, and
deepened one pass at a time (iterative deepening), the root moves taken best first by the last
pass, while a deterministic work budget (evaluations counted) lasts: a given position always
gives the same move on any machine.

- ``easy``: one decision: its own move, then the evaluation (which holds the coming throw's
  threats).
- ``normal``: two: its move, every throw of the next colour, that colour's best reply, then the
  evaluation (all the root moves in most positions).
- ``strong``: that, then a third pass (its own next throw and move) on the best root moves; at
  a node with two decisions below it only the 3 best replies by the one-deep value are
  searched further.

A wall-clock cap (:attr:`Level.cap`, several times the budget's time) stops the deepening early
only on a far slower or heavily loaded machine than the one the budgets were calibrated on.

**Evaluation.** Per colour a score: mobile cats, parked cats (the first one is worth more than
a mobile cat: half the way to a win), how far the mobile cats have come, how many lines to a
free mouse they stand on, and the threats of the coming throws: for each face, the best capture
or parking it allows (full weight for the colour whose throw is next, a fraction for the
others). The colour to throw wins at once with the faces that give it a winning move (second
mouse, or the last mobile cat of the others); the others' winning faces count next; the rest is
shared by a softmax of the scores (:attr:`Weights.temperature`).

**What** :attr:`Option.win_chance` **means**: the seat's estimated chance of winning after
that move: exact (0 or 1) where the search reaches the end of the game, otherwise the
expectation, over the throws searched, of that evaluation at the horizon. It is a heuristic
estimate, not a measured frequency.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Final

from companion.games.base import CHANCE, Action, Game, State
from companion.games.kilkenny import DIRECTIONS, KilkennyCats, KilkennyState, Move
from companion.i18n import _
from companion.players.base import Option, Player, PlayerError

__all__ = ["KilkennyPlayer", "LEVELS", "Level", "WEIGHTS", "Weights", "evaluate"]

Vector = tuple[float, ...]

# -- evaluation weights (score units: one mobile cat = 1) -------------------------------------


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights, in score units (a mobile cat is worth 1)."""

    parked_first: float = 2.2
    """A colour's first cat on its mouse (it no longer fights, but it is half a win)."""
    advance: float = 0.25
    """A mobile cat that has crossed the whole board towards its mice (scaled by the distance)."""
    line: float = 0.15
    """A mobile cat standing on a line within six squares of a free own mouse."""
    tempo_next: float = 0.8
    """Weight of the expected best gain of the coming throw, for the colour to throw."""
    tempo_later: float = 0.3
    """The same for the other colours (the colour to throw may act first)."""
    win_later: float = 0.6
    """The share of another colour's winning faces that counts against the colour to throw."""
    temperature: float = 1.6
    """Scores to chances: a lead of this many points is e : 1 odds."""


WEIGHTS: Final = Weights()


@dataclass(frozen=True)
class Level:
    """How hard one strength searches."""

    depth: int
    """Decisions looked at after the root move (1 to 3), deepened one at a time."""
    budget: int
    """Evaluations allowed (a deterministic work budget): a deeper pass goes on through the
    root moves, best first, only while fewer have been spent."""
    beam: int
    """With two or more decisions left below it, a decision node deepens only its ``beam``
    best children by the one-deep value (the others keep that value)."""
    seconds: float
    """Nominal time of a decision: the budget keeps the median below it on the reference machine."""
    cap: float
    """Wall-clock safety cap in seconds: the deepening stops there (then the move may depend on
    the machine's speed). Far above the budget's time, it only triggers on a much slower or
    heavily loaded machine."""


LEVELS: Final[dict[str, Level]] = {
    "easy": Level(depth=1, budget=0, beam=0, seconds=0.05, cap=0.5),
    "normal": Level(depth=2, budget=4000, beam=0, seconds=0.4, cap=3.0),
    "strong": Level(depth=3, budget=9000, beam=3, seconds=1.0, cap=6.0),
}
"""The strengths: ``budget`` is calibrated so that ``seconds`` bounds the median decision time."""


# -- geometry per colour ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Side:
    """Precomputed per colour: progress of each square, and the lines to each own mouse."""

    advance: dict[str, float]
    lines: dict[str, tuple[str, ...]]
    """square -> own mice within six squares on a straight line (ignoring other cats)."""


_SIDES: dict[tuple[str, tuple[str, ...]], _Side] = {}


def _side(game: KilkennyCats, colour: str) -> _Side:
    mice = sorted(game.mice_of[colour])
    key = (game.board_name, tuple(mice))
    side = _SIDES.get(key)
    if side is not None:
        return side
    geo = game.geometry
    cells = [geo.cells[m] for m in mice]
    advance: dict[str, float] = {}
    lines: dict[str, tuple[str, ...]] = {}
    for sq, (r, c) in geo.cells.items():
        if sq in geo.mice:
            continue
        across = cells[0][0] == cells[-1][0]  # mice on the north or south edge: count rows
        dist = abs(r - cells[0][0]) if across else abs(c - cells[0][1])
        advance[sq] = max(0.0, min(1.0, (15 - dist) / 14))
        reach = []
        for m, (mr, mc) in zip(mice, cells):
            dr, dc = mr - r, mc - c
            n = max(abs(dr), abs(dc))
            if 1 <= n <= 6 and (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
                reach.append(m)
        lines[sq] = tuple(reach)
    side = _Side(advance, lines)
    _SIDES[key] = side
    return side


# -- evaluation -------------------------------------------------------------------------------


def _scan(state: KilkennyState, colour: str, mobile: dict[str, int], parked: int,
          park_gain: float) -> tuple[list[float], list[bool]]:
    """For each face 1-6 the best gain ``colour`` could take (capture or parking) and whether it
    would win the game at once."""
    game = state.game
    geo = game.geometry
    cats = state.cats
    mice = geo.mice
    own_mice = game.mice_of[colour]
    rays = geo.rays
    gain = [0.0] * 7
    wins = [False] * 7
    others_mobile = sum(n for c, n in mobile.items() if c != colour)
    for sq, col in cats.items():
        if col != colour or sq in mice:
            continue
        for line in rays[sq]:
            k = 0
            for target in line:
                k += 1
                occupant = cats.get(target)
                if target in mice:
                    if occupant is None and target in own_mice:
                        if parked >= 1:
                            wins[k] = True
                        elif gain[k] < park_gain:
                            gain[k] = park_gain
                    break
                if occupant is None:
                    continue
                if occupant != colour:
                    if others_mobile == 1:
                        wins[k] = True
                    elif gain[k] < 1.0:
                        gain[k] = 1.0
                break
    return gain, wins


def evaluate(state: KilkennyState, w: Weights = WEIGHTS) -> Vector:
    """Each colour's estimated chance to win (in ``state.game.players`` order), summing to 1."""
    game = state.game
    players = game.players
    if state.over:
        return tuple(1.0 if p == state.winner else (0.0 if state.winner else 1.0 / len(players)) for p in players)
    mice = game.geometry.mice
    mobile = {p: 0 for p in players}
    parked = {p: 0 for p in players}
    adv = {p: 0.0 for p in players}
    for sq, col in state.cats.items():
        if sq in mice:
            parked[col] += 1
            continue
        mobile[col] += 1
        side = _side(game, col)
        adv[col] += w.advance * side.advance[sq]
        for m in side.lines[sq]:
            if m not in state.cats:
                adv[col] += w.line
    turn = state.turn
    scores: list[float] = []
    win_now = [0.0] * len(players)
    for i, p in enumerate(players):
        if not mobile[p]:
            scores.append(-1e3)
            continue
        s = mobile[p] + w.parked_first * parked[p] + adv[p]
        gain, wins = _scan(state, p, mobile, parked[p], w.parked_first - 1.0)
        n_win = sum(wins)
        win_now[i] = n_win / 6
        expected = sum(0.0 if wins[d] else gain[d] for d in range(1, 7)) / 6
        s += (w.tempo_next if p == turn else w.tempo_later) * expected
        scores.append(s)
    top = max(scores)
    weights = [math.exp((s - top) / w.temperature) for s in scores]
    total = sum(weights)
    share = [x / total for x in weights]
    t = players.index(turn)
    rest = 1.0 - win_now[t]
    later = [w.win_later * x if i != t else 0.0 for i, x in enumerate(win_now)]
    later_total = min(1.0, sum(later))
    if later_total > 0:
        later = [x * min(1.0, later_total) / sum(later) for x in later]
    out = []
    for i in range(len(players)):
        v = rest * (later[i] + (1.0 - later_total) * share[i])
        if i == t:
            v += win_now[t]
        out.append(v)
    return tuple(out)


# -- search -----------------------------------------------------------------------------------


class _OutOfTime(Exception):
    """The wall-clock cap was reached (only on a far slower machine than the reference)."""


def _order(action: Action) -> tuple[int, int, int, int]:
    if isinstance(action, Move):
        r0, c0 = (int(x) for x in action.frm.split(","))
        r1, c1 = (int(x) for x in action.to.split(","))
        return (r0, c0, r1, c1)
    return (0, 0, 0, 0)


class _Search:
    def __init__(self, players: tuple[str, ...], deadline: float, weights: Weights, beam: int) -> None:
        self.weights = weights
        self.index = {p: i for i, p in enumerate(players)}
        self.deadline = deadline
        self.beam = beam
        self.evaluations = 0

    def leaf(self, state: State) -> Vector:
        self.evaluations += 1
        assert isinstance(state, KilkennyState)
        return evaluate(state, self.weights)

    def value(self, state: State, depth: int) -> Vector:
        """Expectimax/max^n value of ``state`` with ``depth`` decisions left."""
        mover = state.to_move()
        if mover is None or depth == 0:
            return self.leaf(state)
        if mover == CHANCE:
            if time.perf_counter() > self.deadline:
                raise _OutOfTime
            acc: list[float] | None = None
            for outcome, p in state.chance_outcomes():
                child = state.clone()
                child.apply(outcome)
                v = self.value(child, depth)
                w = float(p)
                if acc is None:
                    acc = [w * x for x in v]
                else:
                    for i, x in enumerate(v):
                        acc[i] += w * x
            assert acc is not None
            return tuple(acc)
        i = self.index[mover]
        children: list[State] = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            children.append(child)
        if depth >= 2 and 0 < self.beam < len(children):
            first = [self.leaf(c) for c in children]
            ranked = sorted(range(len(children)), key=lambda k: -first[k][i])
            if first[ranked[0]][i] >= 1.0:
                return first[ranked[0]]
            children = [children[k] for k in ranked[: self.beam]]
        best: Vector | None = None
        for child in children:
            v = self.value(child, depth - 1)
            if best is None or v[i] > best[i]:
                best = v
                if v[i] >= 1.0:
                    break
        assert best is not None
        return best


class KilkennyPlayer(Player):
    """Expectimax (max^n over 2-4 colours) with exact throw probabilities; see the module."""

    def __init__(self, game: Game, seat: str, strength: str = "normal", seed: int = 0) -> None:
        super().__init__(game, seat, strength, seed)
        if not isinstance(game, KilkennyCats):
            raise PlayerError(_("the Kilkenny Cats player cannot play {game}").format(game=game.title))
        self.level = LEVELS[strength]
        self.weights = WEIGHTS

    def analyse(self, state: State) -> list[Option]:
        actions = sorted(self._check(state), key=_order)
        if not isinstance(state, KilkennyState):
            raise PlayerError(_("the Kilkenny Cats player needs a Kilkenny Cats position"))
        level = self.level
        search = _Search(self.game.players, time.perf_counter() + level.cap, self.weights, level.beam)
        me = search.index[self.seat]
        children: list[State] = []
        value: list[Vector] = []
        for action in actions:
            child = state.clone()
            child.apply(action)
            children.append(child)
            value.append(search.value(child, 0))
        reached = [1] * len(actions)
        if len(actions) > 1 and max(v[me] for v in value) < 1.0:
            try:
                for depth in range(2, level.depth + 1):
                    # root moves best first by what the last pass said
                    order = sorted(range(len(actions)), key=lambda k: (-reached[k], -value[k][me], k))
                    for n, k in enumerate(order):
                        if (n or depth > 2) and search.evaluations >= level.budget:
                            break
                        value[k] = search.value(children[k], depth - 1)
                        reached[k] = depth
                    if search.evaluations >= level.budget:
                        break
            except _OutOfTime:
                pass
        ranked = sorted(range(len(actions)), key=lambda k: (-reached[k], -value[k][me], k))
        top = reached[ranked[0]]
        # a chance from a shallower search is not comparable with the deeper ones: left out
        return [Option(actions[k], value[k][me] if reached[k] == top else None) for k in ranked]
