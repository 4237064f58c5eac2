"""Helpers for the Chop! Chop! tests: positions built by hand, and a random player."""

from __future__ import annotations

import random
from collections.abc import Iterable

from companion.games.base import CHANCE, Action
from companion.games.chopchop import ChopChop, ChopChopState, PlaceCat, Roll

GAME = ChopChop()
M1, M2, M3, M4 = "mouse:1", "mouse:2", "mouse:3", "mouse:4"


def kinds(effects: list[object]) -> list[str]:
    """The effects' class names, in order."""
    return [type(e).__name__ for e in effects]


def rolled(state: ChopChopState, value: int) -> ChopChopState:
    """``state`` after the die shows ``value``."""
    state.apply(Roll(value))
    return state


def position(
    *,
    cat: str = "top:2,3",
    mice: dict[str, str | None] | None = None,
    side: str = "mice",
    cleared: Iterable[str] = (),
    cheese_up: Iterable[str] = (),
    held: int = 0,
    game: ChopChop = GAME,
) -> ChopChopState:
    """A state at a die throw. ``mice`` moves mice (holes they left are opened); ``cleared``
    squares lose their slab (counted as revealed crockery, so the tile counts stay true);
    ``cheese_up`` squares hold a face-up cheese (counted as cheese revealed by the cat)."""
    s = game.new_state()
    s.apply(PlaceCat("top:2,3"))
    s.cat = cat
    holes = game.geometry.holes
    for i, m in enumerate(game.mice):
        if mice and m in mice:
            s.mice[m] = mice[m]
            if mice[m] != holes[i]:
                s.opened.add(holes[i])
    for sq in cleared:
        if sq in s.face_down:
            s.face_down.discard(sq)
            s.revealed.append((sq, "crockery", "cat"))
    for sq in cheese_up:
        s.face_down.discard(sq)
        s.face_up_cheese.add(sq)
        s.revealed.append((sq, "cheese", "cat"))
    for sq in [cat, *((mice or {}).values())]:
        if sq in s.face_down:  # pieces never stand on a face-down slab
            s.face_down.discard(sq)
            s.revealed.append((sq, "crockery", "cat"))
    s.cheese_held = held
    for _ in range(held):
        s.revealed.append(("", "cheese", "mouse:1"))
    s.side = side
    return s


def random_action(state: ChopChopState, rng: random.Random) -> Action:
    if state.to_move() == CHANCE:
        outs = state.chance_outcomes()
        return rng.choices([a for a, _ in outs], [float(p) for _, p in outs])[0]
    return rng.choice(state.legal_actions())


def play_random(seed: int, mice_players: int = 1, limit: int = 20000) -> tuple[ChopChopState, list[Action]]:
    rng = random.Random(seed)
    game = ChopChop(mice_players=mice_players)
    s = game.new_state()
    actions: list[Action] = []
    while not s.is_over() and len(actions) < limit:
        a = random_action(s, rng)
        s.apply(a)
        actions.append(a)
    return s, actions


def keen_action(state: ChopChopState, rng: random.Random) -> Action:
    """A mice player who heads for cheese and home: enough to see the mice win sometimes."""
    from companion.games.chopchop import Move

    if state.to_move() == CHANCE or state.side == "cat" or state.phase not in ("move", "bonus"):
        return random_action(state, rng)
    moves = [a for a in state.legal_actions() if isinstance(a, Move)]
    holes = set(state.geo.holes)
    ready = state.cheese_held >= state.game.cheese_to_win and len(state.opened) == len(holes)
    if ready:
        home = [a for a in moves if a.to in holes]
        if home:
            return rng.choice(home)
    # leave the start holes early so every hole gets opened
    leaving = [a for a in moves if state.position(a.piece) in holes and state.position(a.piece) not in state.opened]
    if leaving and rng.random() < 0.5:
        return rng.choice(leaving)
    slabs = [a for a in moves if a.to in state.face_down]
    if slabs:
        return rng.choice(slabs)
    return rng.choice(moves)


def play_keen(seed: int, mice_players: int = 1, limit: int = 20000) -> tuple[ChopChopState, list[Action]]:
    rng = random.Random(seed)
    game = ChopChop(mice_players=mice_players)
    s = game.new_state()
    actions: list[Action] = []
    while not s.is_over() and len(actions) < limit:
        a = keen_action(s, rng)
        s.apply(a)
        actions.append(a)
    return s, actions
