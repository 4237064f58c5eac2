"""Qubism positions for the tests: a state from where the pawns and cubes stand."""

from __future__ import annotations

from typing import Any

from companion.games.qubism import Qubism, QubismState


def make_state(
    white: str = "4,2",
    black: str = "0,2",
    cubes: dict[str, str] | None = None,
    turn: str = "white",
    pool: int | None = None,
    **settings: Any,
) -> QubismState:
    cubes = dict(cubes or {})
    return Qubism(**settings).state_from_json({
        "pawns": {"white": white, "black": black},
        "cubes": cubes,
        "pool": 9 - len(cubes) if pool is None else pool,
        "turn": turn,
    })
