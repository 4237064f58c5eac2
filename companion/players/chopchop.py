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

**Evaluation** (:func:`mice_chance`): the mice's winning chance in a simple model of the race.
With the default tiles the mice need every cheese: each cheese the cat turns must be won back
with a fork the mice find. If the cat turns a share ``phi`` of the slabs still face down, the
forks the mice will find minus the cheese the cat will turn, minus the face-up cheese already
lost, is roughly normal; its chance of staying >= 0 is the cheese part. ``phi`` leans on
tempo (face-down slabs within the cat's next throw against those near the mice). The mice's
survival multiplies it: mice left, and the chance the cat catches one on its next throw
(computed exactly from the cat die and C2/C3/C6 movement; with the mice to move, they can save
the most threatened mouse). A position where the mice can no longer collect enough cheese
is 0.

**Strengths** and their deterministic work budgets (counted in engine steps and evaluations,
so a given seed and position always give the same move; calibrated on the development machine,
2 cores, where ``easy`` takes about 0.01-0.05 s, ``normal`` about 0.3 s and ``strong`` about
0.8 s a decision): easy searches its own turn only, with a small budget; normal and strong also
search the other side's reply for the best first actions. A wall-clock cap of three times the
nominal time only stops a search on a much slower machine.
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
from companion.players.base import Option, Player, PlayerError

__all__ = ["BUDGETS", "Budget", "ChopChopPlayer", "cat_reach", "mice_chance"]

CAT: Final = "cat"
MICE: Final = "mice"


@dataclass(frozen=True)
class Budget:
    work: int
    """Engine steps and evaluations a decision may spend (deterministic)."""
    reply_top: int
    """How many of the best first actions get the other side's reply searched (0: none)."""
    full_reveals: int
    """Reveals per turn searched over every tile type; later ones as cheese or not."""
    seconds: float
    """Nominal time; the wall-clock cap is three times this."""


BUDGETS: Final[dict[str, Budget]] = {
    "easy": Budget(work=1500, reply_top=0, full_reveals=0, seconds=0.05),
    "normal": Budget(work=2500, reply_top=4, full_reveals=1, seconds=0.4),
    "strong": Budget(work=7000, reply_top=10, full_reveals=1, seconds=1.0),
}

_CAT_ODDS = [(v, float(p)) for v, p in die_odds(CAT_DIE).items()]
_SURVIVAL = (0.0, 0.12, 0.35, 0.65, 1.0)
"""Weight of the mice's chance by the number of mice left (0..4)."""


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


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def mice_chance(state: ChopChopState) -> float:
    """The mice's winning chance in the evaluation's model (see the module doc), 0..1."""
    if state.phase == "over":
        if state.winner == MICE:
            return 1.0
        return 0.5 if state.winner == "draw" else 0.0
    counts = state.tile_counts()
    held = state.cheese_held
    need = state.game.cheese_to_win - held
    up = len(state.face_up_cheese)
    rem_cheese = counts["cheese"][1]
    rem_fork = counts["fork"][1]
    face_down = len(state.face_down)
    if rem_cheese is None or rem_fork is None:  # contradicted tiles: guess from what is left
        rem_cheese = max(0, need - up) if rem_cheese is None else rem_cheese
        rem_fork = max(0, face_down // 8) if rem_fork is None else rem_fork
    if rem_cheese + min(up, rem_fork) < need:
        return 0.0
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
    phi = min(0.75, max(0.2, 0.45 + 0.006 * cat_near - 0.003 * mice_near))
    # cheese race: forks the mice find - cheese the cat turns - face-up cheese to win back
    mean = (1 - phi) * rem_fork - phi * rem_cheese - up + spare_cheese
    sd = math.sqrt(phi * (1 - phi) * (rem_cheese + rem_fork) + 0.25)
    race = _normal_cdf((mean + 0.5) / sd)
    # survival: mice left and the cat's next throw
    exposed = [sq for sq in mice_at if sq not in geo.holes]
    threat = [sum(p for p, r in reach if sq in r) for sq in exposed]
    if state.side == CAT:
        lost = sum(p for p, r in reach if any(sq in r for sq in exposed))
    elif threat:
        threat.sort()
        rest = threat[:-1]
        lost = 0.25 * threat[-1] + (1 - math.prod(1 - t for t in rest))
        lost = min(1.0, lost)
    else:
        lost = 0.0
    alive = len(mice_at) - lost
    lo = int(alive)
    frac = alive - lo
    survive = _SURVIVAL[lo] + (frac * (_SURVIVAL[lo + 1] - _SURVIVAL[lo]) if lo < 4 else 0.0)
    return max(0.0, min(1.0, race * survive))


# ---------------------------------------------------------------------------------------------
# the player


class ChopChopPlayer(Player):
    """Cat or mice (any mice seat) at easy, normal or strong; see the module doc."""

    def __init__(self, game: Game, seat: str, strength: str = "normal", seed: int = 0) -> None:
        super().__init__(game, seat, strength, seed)
        if game.key != "chopchop":
            raise PlayerError(f"the Chop! Chop! player cannot play {game.title}")
        self.side = CAT if seat == CAT else MICE
        self.budget = BUDGETS[strength]
        self._work = 0
        self._limit = 0
        self._full = 0
        self._deadline = 0.0

    # -- bookkeeping ------------------------------------------------------------------------

    def _start(self, limit: int, full_reveals: int, capped: bool = True) -> None:
        self._work = 0
        self._limit = limit
        self._full = full_reveals
        self._deadline = time.perf_counter() + 3 * self.budget.seconds if capped else math.inf

    def _spend(self, n: int = 1) -> None:
        self._work += n
        if self._work > self._limit:
            raise _OutOfWork
        if self._work % 64 == 0 and time.perf_counter() > self._deadline:
            raise _OutOfWork

    def _value(self, state: ChopChopState) -> float:
        """Leaf: the searching side's chance."""
        self._spend()
        pm = mice_chance(state)
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
                total += float(p) * self._node(self._child(state, action), replies - 1)
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
            raise PlayerError("the Chop! Chop! player needs a Chop! Chop! position")
        self._start(1 << 62, self.budget.full_reveals, capped=False)
        rng = random.Random(f"{self.seed}:{json.dumps(state.to_json(), sort_keys=True)}")
        ties = {i: rng.random() for i in range(len(actions))}
        if len(actions) == 1:
            after = state.clone()
            after.apply(actions[0])
            return [Option(actions[0], self._shallow(after))]
        # 1) every action, to the end of this turn: with every reveal type while the budget
        # lasts, else (a turn with many long chains) with later reveals as cheese or not
        shallow: dict[int, float] = {}
        children = [state.clone() for _ in actions]
        for i, a in enumerate(actions):
            children[i].apply(a)
        self._start(self.budget.work, self.budget.full_reveals)
        try:
            for i in range(len(actions)):
                shallow[i] = self._node(children[i], 0)
        except _OutOfWork:
            self._start(1 << 62, 0, capped=False)
            shallow = {i: self._node(children[i], 0) for i in range(len(actions))}
            self._work = self._limit
        order = sorted(range(len(actions)), key=lambda i: (-shallow[i], -ties[i]))
        # 2) the other side's reply for the best few, while the budget lasts
        deep: dict[int, float] = {}
        self._deadline = time.perf_counter() + 3 * self.budget.seconds
        if self.budget.reply_top and self._work < self._limit:
            for i in order[: self.budget.reply_top]:
                try:
                    deep[i] = self._node(children[i], 1)
                except _OutOfWork:
                    break
        if len(deep) < 2:
            deep = {}
        ranked = sorted(deep, key=lambda i: (-deep[i], -ties[i]))
        ranked += [i for i in order if i not in deep]
        return [Option(actions[i], deep.get(i, shallow[i])) for i in ranked]

    def _shallow(self, state: ChopChopState) -> float:
        return self._node(state, 0)
