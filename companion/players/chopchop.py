"""The companion's Chop! Chop! player: cat or mice, a turn-by-turn expectimax with a model of
the cheese race (RULES.md §2).

**Search.** Chance is searched exactly: die throws and slab reveals are expanded with the
probabilities of ``state.chance_outcomes()`` (the reveals follow the tracker's odds of the
hidden tiles). The searching side's whole turn is expanded (its move, the reveal, a +1/+2
follow-up, an arrow, a fork) and each finished turn is scored by :func:`mice_chance`. At
"normal" and "strong" the most promising first actions are then searched one turn deeper: every
throw of the other side, its best whole turn (again with its reveals and follow-ups), scored
the same way. Only the engine API is used to search (``to_move``, ``legal_actions``,
``chance_outcomes``, ``apply``, ``clone``, ``outcome``); the evaluation reads public state.

**Evaluation** (:func:`mice_chance`): the mice's winning chance, a logistic of a score in
cheese units: cheese held (+10), face-up cheese they must win back with a fork (-6), mice
expected to be left after the cat's next throw (+8 each), holes opened (+2), and a model of
the cheese race (+4 x its chance). The cat's next throw is computed exactly from the cat die
and C2/C3/C6 movement (:func:`cat_threat`); with the mice to move they can save the most
threatened mouse, and a knife's double turn counts. The mice player also counts the catches a
+1/+2 under a slab the cat lands on would allow (the slab's odds of that tile); the cat
player's evaluation leaves them out, as before (its own search sees its follow-ups). The
race: with the default tiles the mice need every cheese, so each cheese the cat turns must be
won back with a fork the mice find. If the cat turns a share
``phi`` of the slabs still face down (from the tempo so far and the slabs within each side's
reach), forks found minus cheese the cat turns minus face-up cheese is roughly normal; the
race is its chance of staying >= 0. A position where the mice can no longer collect enough
cheese is 0. (A multiplicative model, race x survival, played the mice worse against the
greedy cat in short trials than this sum; the weights are hand-set, not fitted. A heavier,
exact (hypergeometric) race, a heavier weight on the mice, or a bonus for leaving the cat no
slab to turn did not raise the mice's wins against the greedy cat beyond noise in 400 seeded
games at easy; a large such bonus lowered them (the mice block the cat and are caught). The
race itself is the limit: see ``bench/chopchop_race.py``.)

**Strengths** and their deterministic work budgets (counted in engine steps and evaluations,
so a given seed and position always give the same move; calibrated on the development machine,
2 cores, in thread CPU time: ``easy`` about 0.002 s median (0.01 s at most), ``normal`` about
0.1 s and ``strong`` about 0.3 s median a decision): easy searches its own turn only; normal
and strong also search the other side's reply for the best first actions. Safety caps (``CPU_CAP`` times the
nominal time of this thread's CPU, ``WALL_CAP`` times it of wall-clock time) only stop a search
on a much slower (or overloaded) machine.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass
from typing import Final

from companion.games.base import Action, Game, State
from companion.games.chopchop import CAT_DIE, ChopChopState, Reveal, die_odds
from companion.i18n import _
from companion.players.base import Option, Player, PlayerError

__all__ = ["BUDGETS", "Budget", "ChopChopPlayer", "cat_reach", "cat_threat", "mice_chance", "race_counts", "race_lost"]

CAT: Final = "cat"
MICE: Final = "mice"


@dataclass(frozen=True)
class Budget:
    work: int
    """Engine steps and evaluations a decision may spend (deterministic)."""
    refine: int
    """How many of the best first actions are searched again more deeply (0: none)."""
    replies: int
    """Turns of the other side searched in that deeper search."""
    seconds: float
    """Nominal time of one decision on one core (see ``CPU_CAP`` and ``WALL_CAP``)."""


BUDGETS: Final[dict[str, Budget]] = {
    "easy": Budget(work=0, refine=0, replies=0, seconds=0.05),
    "normal": Budget(work=3000, refine=6, replies=1, seconds=0.2),
    "strong": Budget(work=10000, refine=12, replies=1, seconds=0.5),
}

CPU_CAP: Final = 3.0
"""Safety cap: a search stops after this many times its nominal time of this thread's CPU
(a much slower machine); the work budget normally stops it long before."""
WALL_CAP: Final = 10.0
"""Safety cap in wall-clock time, for a machine so loaded that the thread hardly runs."""

_CAT_ODDS = [(v, float(p)) for v, p in die_odds(CAT_DIE).items()]
SCALE: Final = (75.0, 15.0)
"""The logistic from the evaluation's score (cheese units) to a chance: centre, width."""
PHI: Final = (0.45, 0.006, 0.003)
"""The cat's share of the slabs still face down: base, + per slab in the cat's next throw,
- per slab within 3 steps of a mouse."""
TEMPO: Final = 10.0
"""Weight (in slabs) of the base share against the share of slabs the cat turned so far."""
STAY: Final = 0.25
"""With the mice to move: the part of the most threatened mouse's danger they cannot undo."""


class _OutOfWork(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# evaluation


def _reach(state: ChopChopState, piece: str, start: str, steps: int) -> set[str]:
    """Squares ``piece`` could end on with exactly ``steps`` steps (C2, C3, C6)."""
    geo = state.geo
    kind = CAT if piece == CAT else MICE
    occ = {sq for sq in state.mice.values() if sq is not None}
    if state.cat is not None:
        occ.add(state.cat)
    cheese = state.face_up_cheese
    barred = state.barred_for_cat() if kind == CAT else None
    out: set[str] = set()

    def walk(cur: str, prev: str | None, left: int) -> None:
        for nxt in geo.adjacency.get(cur, ()):
            if nxt == prev or not geo.may_stand(kind, nxt) or nxt in cheese:
                continue
            if left == 1:
                if nxt == start:
                    continue
                if kind == CAT:
                    if nxt != barred:
                        out.add(nxt)
                elif nxt not in occ:
                    out.add(nxt)
            elif nxt not in occ:
                walk(nxt, cur, left - 1)

    walk(start, None, steps)
    return out


def cat_reach(state: ChopChopState) -> list[tuple[float, set[str]]]:
    """For each cat throw: its probability and the squares the cat could end on."""
    if state.cat is None:
        return []
    return [(p, _reach(state, CAT, state.cat, v)) for v, p in _CAT_ODDS]


def cat_threat(state: ChopChopState, follow_ups: bool = False,
               reach: list[tuple[float, set[str]]] | None = None) -> tuple[dict[str, float], float]:
    """The cat's next throw against the mice outside a hole: for each such mouse's square the
    chance the cat can end on it, and the chance it can end on one of them (the cat catches at
    most one a turn). With ``follow_ups`` a throw that cannot catch directly may still catch
    through a +1/+2 found on a slab it lands on (C5): that chance is the slab's odds of the
    follow-up that reaches a mouse, the best slab for each throw. ``reach``: :func:`cat_reach`
    if already known."""
    reach = cat_reach(state) if reach is None else reach
    exposed = [sq for sq in state.mice.values() if sq is not None and sq not in state.geo.holes]
    threat = {sq: 0.0 for sq in exposed}
    if not exposed or not reach:
        return threat, 0.0
    extra: list[float] = []
    near: list[str] = []
    if follow_ups and state.face_down:
        odds = state.reveal_odds()
        extra = [float(odds.get("plus1", 0)), float(odds.get("plus2", 0))]
        cells = [_cell(state, sq) for sq in exposed]
        near = [sq for sq in sorted(state.face_down) if _within(_cell(state, sq), cells, 2)]
    follow: dict[str, tuple[set[str], set[str]]] = {}
    lost = 0.0
    for p, squares in reach:
        direct = [sq for sq in exposed if sq in squares]
        best = {sq: 1.0 for sq in direct}
        best_any = 1.0 if direct else 0.0
        if not direct and extra:
            for land in near:
                if land not in squares:
                    continue
                if land not in follow:
                    follow[land] = (_reach(state, CAT, land, 1), _reach(state, CAT, land, 2))
                one, two = follow[land]
                chance_any = (extra[0] * any(sq in one for sq in exposed)
                              + extra[1] * any(sq in two for sq in exposed))
                best_any = max(best_any, chance_any)
                for sq in exposed:
                    q = extra[0] * (sq in one) + extra[1] * (sq in two)
                    if q > best.get(sq, 0.0):
                        best[sq] = q
        for sq, q in best.items():
            threat[sq] += p * q
        lost += p * best_any
    return threat, lost


def _cell(state: ChopChopState, square: str) -> tuple[int, int]:
    cell = state.geo.board.squares[square].cell
    return cell if cell is not None else (-99, -99)


def _within(cell: tuple[int, int], others: list[tuple[int, int]], steps: int) -> bool:
    """Could a piece on ``cell`` reach one of ``others`` in ``steps`` steps (each step changes a
    grid cell by one)? A cheap filter before the exact walk."""
    return any(abs(cell[0] - r) + abs(cell[1] - c) <= steps for r, c in others)


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def race_counts(state: ChopChopState) -> tuple[int, int, int, int]:
    """The cheese race: cheese the mice still need, face-up cheese, cheese and forks still face
    down (guessed from what is left where reveals contradicted the tile setting)."""
    counts = state.tile_counts()
    need = state.game.cheese_to_win - state.cheese_held
    up = len(state.face_up_cheese)
    rem_cheese, rem_fork = counts["cheese"][1], counts["fork"][1]
    if rem_cheese is None:
        rem_cheese = max(0, need - up)
    if rem_fork is None:
        rem_fork = max(0, len(state.face_down) // 8)
    return need, up, rem_cheese, rem_fork


def race_lost(state: ChopChopState) -> bool:
    """The mice can no longer hold enough cheese: too few cheese and usable forks left."""
    need, up, rem_cheese, rem_fork = race_counts(state)
    return rem_cheese + min(up, rem_fork) < need


def mice_chance(state: ChopChopState, follow_ups: bool = False) -> float:
    """The mice's winning chance in the evaluation's model (see the module doc), 0..1.
    ``follow_ups``: the cat's next throw may also catch through a +1/+2 (:func:`cat_threat`)."""
    if state.phase == "over":
        if state.winner == MICE:
            return 1.0
        return 0.5 if state.winner == "draw" else 0.0
    need, up, rem_cheese, rem_fork = race_counts(state)
    if rem_cheese + min(up, rem_fork) < need:
        return 0.0
    held = state.cheese_held
    spare_cheese = rem_cheese + up - need  # cheese the mice may lose and still win
    geo = state.geo
    mice_at = [sq for sq in state.mice.values() if sq is not None]
    if not mice_at:
        return 0.0
    # tempo: slabs within the cat's next throw against slabs near the mice
    reach = cat_reach(state)
    cat_near = len(set().union(*(r for _, r in reach)) & state.face_down) if reach else 0
    mice_near = 0
    if state.face_down:
        seen: set[str] = set(mice_at)
        frontier = list(mice_at)
        for _ in range(3):
            nxt: list[str] = []
            for sq in frontier:
                for n in geo.adjacency.get(sq, ()):
                    if n not in seen and geo.may_stand(MICE, n) and n not in state.face_up_cheese:
                        seen.add(n)
                        nxt.append(n)
            frontier = nxt
        mice_near = len(seen & state.face_down)
    phi = min(0.75, max(0.2, PHI[0] + PHI[1] * cat_near - PHI[2] * mice_near))
    # ... and on the tempo so far: every slab one side turns is one the other side cannot
    cat_flips = sum(1 for _, _, piece in state.revealed if piece == CAT)
    phi = (cat_flips + TEMPO * phi) / (len(state.revealed) + TEMPO)
    # cheese race: forks the mice find - cheese the cat turns - face-up cheese to win back
    mean = (1 - phi) * rem_fork - phi * rem_cheese - up + spare_cheese
    sd = math.sqrt(phi * (1 - phi) * (rem_cheese + rem_fork) + 0.25)
    race = _normal_cdf((mean + 0.5) / sd)
    # the cat's next throw: the mice it may catch
    by_square, lost = cat_threat(state, follow_ups, reach)
    if state.side != CAT and by_square:  # the mice move first: they may save one mouse
        threat = sorted(by_square.values())
        lost = min(1.0, STAY * threat[-1] + (1 - math.prod(1 - t for t in threat[:-1])))
    if state.skip.get(MICE):  # knife: the cat plays twice in a row
        lost = min(1.0, 1.7 * lost)
    elif state.skip.get(CAT):
        lost *= 0.5
    # cheese units: cheese held, face-up cheese lost, mice expected to be left, holes opened,
    # the race's chance; mapped onto 0..1 by a logistic (about 0.05 at the start)
    score = (10.0 * held - 6.0 * up + 8.0 * (len(mice_at) - lost) + 2.0 * len(state.opened)
             + 4.0 * (race - 0.2))
    return 1.0 / (1.0 + math.exp(-(score - SCALE[0]) / SCALE[1]))


# ---------------------------------------------------------------------------------------------
# the player


class ChopChopPlayer(Player):
    """Cat or mice (any mice seat) at easy, normal or strong; see the module doc."""

    def __init__(self, game: Game, seat: str, strength: str = "normal", seed: int = 0) -> None:
        super().__init__(game, seat, strength, seed)
        if game.key != "chopchop":
            raise PlayerError(_("the Chop! Chop! player cannot play {game}").format(game=game.title))
        self.side = CAT if seat == CAT else MICE
        self.budget = BUDGETS[strength]
        self.follow_ups = self.side == MICE
        """The mice also fear the cat's +1/+2 follow-ups (see :func:`cat_threat`)."""
        self._work = 0
        self._limit = 0
        self._full = 0
        self._cpu_deadline = 0.0
        self._deadline = 0.0

    # -- bookkeeping ------------------------------------------------------------------------

    def _start(self, limit: int, full_reveals: int, capped: bool = True) -> None:
        self._work = 0
        self._limit = limit
        self._full = full_reveals
        nominal = self.budget.seconds
        self._cpu_deadline = time.thread_time() + CPU_CAP * nominal if capped else math.inf
        self._deadline = time.perf_counter() + WALL_CAP * nominal if capped else math.inf

    def _spend(self, n: int = 1) -> None:
        self._work += n
        if self._work > self._limit:
            raise _OutOfWork
        if self._work % 64 == 0 and (time.thread_time() > self._cpu_deadline
                                     or time.perf_counter() > self._deadline):
            raise _OutOfWork

    def _value(self, state: ChopChopState) -> float:
        """Leaf: the searching side's chance."""
        self._spend()
        pm = mice_chance(state, self.follow_ups)
        return pm if self.side == MICE else 1.0 - pm

    def _child(self, state: ChopChopState, action: Action) -> ChopChopState:
        self._spend()
        nxt = state.clone()
        nxt.apply(action)
        return nxt

    # -- search -----------------------------------------------------------------------------

    def _node(self, state: ChopChopState, replies: int, depth: int = 0) -> float:
        """The searching side's chance in ``state``: expectimax to the end of the turn in
        progress, and ``replies`` more turns of the other side. ``depth`` counts the reveals
        already passed this turn: past ``full_reveals`` of them a reveal is searched as
        cheese or not (crockery), which keeps arrows and +1/+2 chains cheap."""
        if state.phase == "over":
            return self._value(state)
        if state.phase == "roll":  # a turn is over
            if replies <= 0 or state.side == self.side:
                return self._value(state)
            total = 0.0
            for action, p in state.chance_outcomes():
                total += float(p) * self._node(self._child(state, action), replies - 1, self._full)
            return total
        if state.phase == "reveal":
            outcomes: list[tuple[Action, float]] = [(a, float(p)) for a, p in state.chance_outcomes() if p]
            if depth >= self._full:
                odds = state.reveal_odds()
                cheese = float(odds.get("cheese", 0))
                outcomes = [(Reveal("cheese"), cheese)] if cheese else []
                if cheese < 1:
                    outcomes.append((Reveal("crockery"), 1.0 - cheese))
            total = 0.0
            for action, q in outcomes:
                total += q * self._node(self._child(state, action), replies, depth + 1)
            return total
        mover_is_me = (CAT if state.side == CAT else MICE) == self.side
        values = [self._node(self._child(state, a), replies, depth) for a in state.legal_actions()]
        return max(values) if mover_is_me else min(values)

    def analyse(self, state: State) -> list[Option]:
        actions = self._check(state)
        if not isinstance(state, ChopChopState):
            raise PlayerError(_("the Chop! Chop! player needs a Chop! Chop! position"))
        self._start(1 << 62, 0, capped=False)
        rng = random.Random(f"{self.seed}:{json.dumps(state.to_json(), sort_keys=True)}")
        ties = {i: rng.random() for i in range(len(actions))}
        if len(actions) == 1:
            after = state.clone()
            after.apply(actions[0])
            return [Option(actions[0], self._shallow(after))]
        # 1) every action to the end of this turn, reveals as cheese or not: cheap, complete
        children = [state.clone() for _ in actions]
        for i, a in enumerate(actions):
            children[i].apply(a)
        shallow = {i: self._node(children[i], 0) for i in range(len(actions))}
        order = sorted(range(len(actions)), key=lambda i: (-shallow[i], -ties[i]))
        # 2) the best few again, every reveal type and the other side's whole reply (its
        # throws, its best turn), in order while the work budget lasts
        deep: dict[int, float] = {}
        self._start(self.budget.work, 1)
        for i in order[: self.budget.refine]:
            try:
                deep[i] = self._node(children[i], self.budget.replies)
            except _OutOfWork:
                break
        if len(deep) < 2:
            deep = {}
        ranked = sorted(deep, key=lambda i: (-deep[i], -ties[i]))
        ranked += [i for i in order if i not in deep]
        return [Option(actions[i], deep.get(i, shallow[i])) for i in ranked]

    def _shallow(self, state: ChopChopState) -> float:
        return self._node(state, 0)
