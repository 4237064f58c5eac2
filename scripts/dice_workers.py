"""Batches drawn ahead in forked worker processes (``scripts/train_dice.py --det-workers``).

Batch k is drawn from its own stream, ``SeedSequence(seed, spawn_key=(k,))``, so any number of
workers draws the same batches; the workers see the caller's data as it was at the fork."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

_JOB: tuple[Callable[[Any, np.random.Generator], Any], Any, int] | None = None


def _draw(k: int) -> Any:
    assert _JOB is not None
    draw, data, seed = _JOB
    return draw(data, np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k,))))


def drawn_ahead(draw: Callable[[Any, np.random.Generator], Any], data: Any, seed: int, n: int,
                workers: int) -> Iterator[Any]:
    """``draw(data, rng_k)`` for k in 0..n-1, in order, made by ``workers`` forked processes."""
    global _JOB
    _JOB = (draw, data, seed)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            yield from pool.imap(_draw, range(n), chunksize=2)
    finally:
        _JOB = None
