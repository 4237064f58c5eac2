"""Qubism's pawns told from shadows by their shape against the print (issue 31).

A white pawn on a light square changes its spot's look (chroma, brightness, spread) about as
little as a cube's or a hand's shadow does, so where two spots read as the white pawn the
nearest look was often the shadow (measured on both 3-D families: the real pawn kept in 69 of
79 frames with two or more candidates). What a shadow lacks is the figure's shape: the pattern
of its change from the empty print (a lit head, its dark side and its own cast shadow, in the
board's plane and in the raised plane a square's 0.4 up). The same camera sees the same pawn
alike wherever it stands nearby, so the pattern in the known position (``BoardReader.learn``)
is the reference: each spot's pattern now is correlated with it (log ratio to the print, every
channel, weighted to the spot's middle, its mean taken off: light level and tint drop out).

``PawnShape.classes`` say which pieces keep such a pattern; when more spots read as one of them
than the game has (``PieceConfig.counts``), the spot kept is the one whose pattern is most
like the learned one, the look's distance counting a little (``look_weight``); a spot very like
it is not turned into a cube by a neighbour's side (``keep``). Only under the camera that
learned the pattern (``same_camera``): from elsewhere a figure leans another way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np

from vision.piece_looks import WINDOW, P
from vision.qubism_bare import cube_count

SHAPE_SIZE = 2 * P * P * 3
"""Numbers in one learned pattern: the board's plane and the raised plane, P x P x 3 each."""

_SQRT_W = np.sqrt(WINDOW)[None, :, :, None].astype(np.float64)


@dataclass(frozen=True)
class PawnShape:
    """Which pieces are told apart by their learned shape, and how the look counts."""

    classes: tuple[str, ...] = ("pawn:white",)
    look_weight: float = 0.2
    """Order of the spots read as such a piece: ``look_weight`` x the look's distance (as the
    count's order had it: over the raised middle's support), at most ``look_cap``, less the
    shape's likeness (two correlations, -2 to 2). On both 3-D families' 2026 and 2027 sets the
    real pawn came first in 77 of 79 frames with two or more candidates for any weight from
    0.2 to 0.5 (69 by the look alone, 73 by the shape alone)."""
    look_cap: float = 3.0
    """Look distances beyond this count as this (a dark cube or a hand is far in any case)."""
    same_camera: float = 0.5
    """Learned shapes count only while the board's corners in the picture lie within this share
    of a square's side of where they were when learned (the same camera; the alt renderer moves
    the camera in every scene, and there the shapes read 22 white pawns wrong against 13)."""
    keep: float = 0.9
    """Before any cube's look is learned, a spot whose look is nearest such a piece's but whose
    top, at a cube's height, shows an arrow (a neighbouring cube's side) stays that piece when
    its shape is at least this like the learned one (measured on both 3-D families' 2026 and
    2027 sets: 4 of 6 white pawns read as cubes so, 13 of 375 cubes; the count then keeps one)."""


def change_shape(patches: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """[N, P, P, 3] spots and the empty print there -> [N, P*P*3]: each spot's change from the
    print (log ratio), weighted to its middle, each channel's mean off, scaled to length 1."""
    r = np.log(patches.astype(np.float64) + 0.03) - np.log(empty.astype(np.float64) + 0.03)
    r -= (WINDOW[None, :, :, None] * r).sum(axis=(1, 2), keepdims=True)
    v = (r * _SQRT_W).reshape(len(r), -1)
    out: np.ndarray = v / (np.linalg.norm(v, axis=1, keepdims=True) + 1e-9)
    return out


def spot_shape(base: np.ndarray, base_empty: np.ndarray, top: np.ndarray, top_empty: np.ndarray) -> np.ndarray:
    """[N, SHAPE_SIZE]: ``change_shape`` in the board's plane and in the raised plane, side by side."""
    return np.hstack([change_shape(base, base_empty), change_shape(top, top_empty)])


def likeness(shapes: np.ndarray, learned: list[list[float]] | np.ndarray) -> np.ndarray:
    """[N]: how like the best of the ``learned`` patterns each of ``shapes`` ([N, SHAPE_SIZE])
    is: the sum of the two planes' correlations (-2 to 2); 0 with nothing learned (``learned``: the
    lists, or them as a float64 array: ``vision.read_fast.ArrayMemo``)."""
    if not len(learned):
        return np.zeros(len(shapes))
    ref = np.asarray(learned, np.float64).reshape(len(learned), SHAPE_SIZE)
    out: np.ndarray = (shapes @ ref.T).max(axis=1)
    return out


def count_order(look_dist: float, like: float, rule: PawnShape) -> float:
    """The count's order of a spot read as a shape-learned piece: lowest kept first."""
    return rule.look_weight * min(look_dist, rule.look_cap) - like


@dataclass(frozen=True)
class PawnsBack:
    """When a pawn the cube stage took comes back (``pawns_back``)."""

    look_conf: float = 0.5
    """The spot was read as the pawn, before the piece count, at least this surely."""
    weak: float = 0.6
    """The cube read there now is less sure than this (the reading's threshold: asked)."""
    conf: float = 0.55
    """The pawn comes back this surely, under the reading's 0.6: the app asks."""
    cubes: bool = True
    """A cube the nine-cube cap took off while the pawn was read as a cube comes back with the pawn
    (``cubes_back``; False: not)."""
    swap: bool = True
    """A pawn the count kept on a spot whose top, at a cube's height, shows a cube's top plate and a
    glyph goes to a spot the count took that pawn from whose top shows none (``pawns_swapped``; False: not)."""
    off_top: bool = True
    """A pawn the count kept on a spot whose top, at a cube's height, shows a cube's glyph (``is_top``: any
    border, any plate) goes to a spot the count took that pawn from that shows no top at all and whose look
    is nearer the pawn's learned look than the kept spot's (``pawns_off_tops``; False: not)."""
    unhide: bool = False
    """A pawn the count kept on a spot whose middle a neighbouring cube's box hides as the camera sees it
    (its look is that cube's side) goes to a spot the count took that pawn from that no cube hides
    (``pawns_unhidden``; True: on). Off: on the second family's dev sets it read 3254 6 squares better
    and 3250 3 worse (a real pawn beside a cube moved to an empty square; session 29, qcube2)."""
    again: bool = True
    """A pawn still read nowhere after the cube stage (the cube stage took the spot the count kept
    it on, or read a cube there surely) is looked for again as the count looks for a missing one,
    among the spots read empty now (``pawns_again``; False: not)."""


def pawns_back(looked: list[tuple[str | None, float]], counted: list[tuple[str | None, float]],
               decided: list[tuple[str | None, float]], pawns: tuple[str, ...], rule: PawnsBack) -> list[int]:
    """Qubism's pawns never leave the board (Q1, Q3): a pawn read nowhere in ``decided`` (a frame's
    readings after the cube stage, corrected in place) is put back on the spot the cube stage took it
    from: a spot read as that pawn by its look (``looked``: before the piece count, at least
    ``PawnsBack.look_conf``) that the count left as the pawn or as empty (``counted``) and the cube
    stage then read as an unsure cube (under ``PawnsBack.weak``: a glyph with no clear direction, a
    pawn's head seen as one). Of several, the least like a cube: one with no arrow first, then the one
    the count kept as the pawn, then the least sure. A cube read surely, a spot read as empty and a
    spot the count itself turned into a cube are not touched. Returns the spots changed."""
    back: list[int] = []
    for c in pawns:
        if any(t == c for t, _ in decided):
            continue
        cands = [i for i, ((seen, sure), (kept, _), (now, conf)) in enumerate(zip(looked, counted, decided))
                 if seen == c and sure >= rule.look_conf and kept in (None, c)
                 and now is not None and now.startswith("cube") and conf < rule.weak]
        if cands:
            i = min(cands, key=lambda j: (decided[j][0] != "cube:?", counted[j][0] != c, decided[j][1]))
            decided[i] = (c, rule.conf)
            back.append(i)
    return back


def pawns_swapped(decided: list[tuple[str | None, float]], looked: list[tuple[str | None, float]],
                  counted: list[tuple[str | None, float]], topped: set[int], bare: set[int],
                  pawns: tuple[str, ...], most: int, rule: PawnsBack) -> list[int]:
    """A pawn the piece count kept on a cube (in place): where the count found more spots read as pawn
    ``c`` than the game has, it kept one by its look; a cube's top is a square plate 30 mm up carrying
    an arrow, which a pawn's round head is not. So where the spot kept as ``c`` (in ``counted`` and still
    in ``decided``) shows, in the plane of the cubes' tops, a clean top plate with a glyph-like blob
    (``topped``), and a spot the count took ``c`` from (read ``c`` in ``looked``, at least
    ``PawnsBack.look_conf`` surely; empty in ``counted`` and still in ``decided``) shows no top at all
    (``bare``: no top plate, no glyph), the two are swapped: the pawn goes to the latter (the surest look
    first) at ``PawnsBack.conf`` (asked), the former is read as a cube with its arrow asked (``cube:?``,
    at the same confidence; the stages after read its arrow), while the frame has fewer than ``most``
    cubes. Returns the spots changed."""
    changed: list[int] = []
    for c in pawns:
        move = _kept_pawn_move(decided, looked, counted, c, rule, lambda i: i in topped, lambda j: j in bare)
        if move is not None and cube_count(decided) < most:
            changed += _swap(decided, move, c, rule)
    return changed


def pawns_off_tops(decided: list[tuple[str | None, float]], looked: list[tuple[str | None, float]],
                   counted: list[tuple[str | None, float]], topped: set[int], bare: set[int],
                   dist: dict[str, np.ndarray], d_empty: np.ndarray, centre: np.ndarray, pawns: tuple[str, ...],
                   most: int, rule: PawnsBack) -> list[int]:
    """A pawn the piece count kept on a cube, told by two cues that do not use the learned shape (the count's
    order leans on it, and a white cube's change from the print can be more like the pawn's learned one than
    the pawn's own, off its start square): where the spot kept as ``c`` shows a cube's glyph in the plane of
    the cubes' tops (``topped``: a solid's top 30 mm up, whatever its border or plate, which ``pawns_swapped``
    asks for) and a spot the count took ``c`` from (read ``c`` in ``looked`` at least ``PawnsBack.look_conf``
    surely, empty in ``counted`` and still in ``decided``) shows no top at all (``bare``) and has a look nearer
    ``c``'s learned look (``dist[c]``: each spot's look distance to it) than the kept spot's, the pawn goes to
    the nearest such look at ``PawnsBack.conf`` (asked) and the kept spot is read as a cube with its arrow
    asked (``cube:?``; the stages after read its arrow), while the frame has fewer than ``most`` cubes. The
    spot the pawn goes to must look more like the pawn than like its own empty print (``d_empty``: each spot's
    look distance to the print there), as the count's own support asks: an empty square taken off with the
    pawn's look shows nothing there. And the kept spot must change the raised plane's middle more than the
    spot the pawn goes to (``centre``: each spot's ``vision.piece_looks._centre_change``): a cube, a solid as
    wide as its square and twice a pawn's height, fills that middle; a pawn less, a shadow on the board not at
    all (a real pawn kept on its own head's glyph stays, where the spot with the nearer look is a shadow).
    Returns the spots changed."""
    changed: list[int] = []
    for c in pawns:
        if c not in dist:
            continue
        d = dist[c]
        move = _kept_pawn_move(decided, looked, counted, c, rule, lambda i: i in topped,
                               lambda j: j in bare and d[j] < d_empty[j], nearest=lambda k: -float(d[k]))
        if (move is None or cube_count(decided) >= most or not d[move[1]] < d[move[0]]
                or not centre[move[0]] > centre[move[1]]):
            continue
        changed += _swap(decided, move, c, rule)
    return changed


def _swap(decided: list[tuple[str | None, float]], move: tuple[int, int], c: str, rule: PawnsBack) -> list[int]:
    """The pawn ``c`` kept at ``move[0]`` given to ``move[1]`` (in place), both asked (``PawnsBack.conf``): the
    kept spot read as a cube with its arrow asked (``cube:?``; the stages after read its arrow). Returns both."""
    kept, j = move
    decided[kept] = ("cube:?", rule.conf)
    decided[j] = (c, rule.conf)
    return [kept, j]


def _kept_pawn_move(decided: list[tuple[str | None, float]], looked: list[tuple[str | None, float]],
                    counted: list[tuple[str | None, float]], c: str, rule: PawnsBack,
                    keep_ok: Callable[[int], bool], take_ok: Callable[[int], bool],
                    nearest: Callable[[int], float] | None = None) -> tuple[int, int] | None:
    """The one spot the piece count kept as pawn ``c`` (in ``counted`` and still in ``decided``), where
    ``keep_ok`` holds, and the spot to move it to: of those the count took ``c`` from (read ``c`` in
    ``looked`` at least ``PawnsBack.look_conf`` surely, empty in ``counted`` and in ``decided``) where
    ``take_ok`` holds, the surest look (or the largest ``nearest``); None where there is no such pair."""
    kept = [i for i, ((now, _), (was, _)) in enumerate(zip(decided, counted)) if now == c and was == c]
    if len(kept) != 1 or not keep_ok(kept[0]):
        return None
    cands = [j for j, ((seen, sure), (was, _), (now, _)) in enumerate(zip(looked, counted, decided))
             if seen == c and sure >= rule.look_conf and was is None and now is None and take_ok(j)]
    key = nearest if nearest is not None else (lambda k: looked[k][1])
    return (kept[0], max(cands, key=key)) if cands else None


def hidden_by_cubes(centres_mm: np.ndarray, cubes: list[int], side_mm: float, lift: np.ndarray,
                    spots: list[int] | None = None) -> set[int]:
    """Spots (rows of ``centres_mm``, board mm; only ``spots`` where given) whose middle lies, as the camera
    sees it, inside another spot's cube (``cubes``): the cube a ``side_mm`` box on its spot, its top
    ``lift`` up (board mm of the tops' plane -> board mm where they are seen): the hull of its foot and its
    seen top."""
    ask = np.arange(len(centres_mm)) if spots is None else np.asarray(spots, int)
    out: set[int] = set()
    if not len(ask) or not cubes:
        return out
    q = np.asarray(centres_mm, np.float64)[ask]
    h = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * side_mm / 2
    for i in cubes:
        foot = centres_mm[i] + h
        top = np.column_stack([foot, np.ones(4)]) @ lift.T
        hull = cv2.convexHull(np.vstack([foot, top[:, :2] / top[:, 2:]]).astype(np.float32))[:, 0].astype(np.float64)
        e = np.roll(hull, -1, axis=0) - hull  # [m, 2] edges
        w = q[:, None, :] - hull[None]  # [n, m, 2]
        cross = e[None, :, 0] * w[..., 1] - e[None, :, 1] * w[..., 0]
        inside = np.all(cross > 0, axis=1) | np.all(cross < 0, axis=1)  # either turning of the hull
        out.update(int(j) for j in ask[inside] if j != i)
    return out


def pawns_unhidden(decided: list[tuple[str | None, float]], looked: list[tuple[str | None, float]],
                   counted: list[tuple[str | None, float]], hidden: set[int], pawns: tuple[str, ...],
                   rule: PawnsBack) -> list[int]:
    """A pawn the count kept on a spot a neighbouring cube hides (``hidden``: its look is that cube's side)
    moves (in place) to a spot the count took it from that no cube hides (read as the pawn in ``looked``
    at least ``PawnsBack.look_conf`` surely, empty in ``counted`` and in ``decided``), the surest look first;
    the hidden spot is read as empty. Returns the spots changed."""
    changed: list[int] = []
    for c in pawns:
        move = _kept_pawn_move(decided, looked, counted, c, rule, lambda i: i in hidden, lambda j: j not in hidden)
        if move is None:
            continue
        kept, j = move
        decided[kept] = (None, rule.conf)
        decided[j] = (c, rule.conf)
        changed += [kept, j]
    return changed


def cubes_back(decided: list[tuple[str | None, float]], capped: list[tuple[int, tuple[str | None, float]]],
               back: list[int], most: int) -> list[int]:
    """Cubes the nine-cube cap (Q1) took off come back (in place) once a pawn put back (``back``,
    ``pawns_back``) frees the cube it was counted as: the cap counted the pawn's spot among the cubes,
    so a real cube made way for it (held-out second family 3201: the black pawn's head read as a cube,
    the cube beside it dropped). The clearest of those taken off first (``capped``, the least clear
    first: ``vision.qubism_read.settle_cubes``), on spots still read as empty, while the frame has
    fewer than ``most`` cubes. Returns the spots changed."""
    if not back or not capped:
        return []
    room = most - cube_count(decided)
    out: list[int] = []
    for i, reading in reversed(capped):
        if len(out) >= min(room, len(back)):
            break
        if decided[i][0] is None:
            decided[i] = reading
            out.append(i)
    return out


def pawns_again(decided: list[tuple[str | None, float]], pawns: tuple[str, ...],
                missing: Callable[[str, list[tuple[str | None, float]]], tuple[int, float] | None]) -> list[int]:
    """Qubism's pawns never leave the board (Q1, Q3): a pawn read nowhere in ``decided`` after the cube
    stage (and ``pawns_back``) is put, as the piece count puts a missing one (``PieceConfig.always``),
    on the spot read empty now that shows it best (``missing``: that search, the count's own, with its
    low confidence, 0.3-0.7, so the app asks when unsure). The count looked only among the spots read
    empty then; the cube stage may since have taken the spot the count kept the pawn on, and a spot the
    count demoted from the pawn, or one too weak to read as a piece, is empty now. Returns the spots changed."""
    out: list[int] = []
    for c in pawns:
        if any(t == c for t, _ in decided):
            continue
        found = missing(c, decided)
        if found is not None:
            decided[found[0]] = (c, found[1])
            out.append(found[0])
    return out
