"""The app's own Chop! Chop! figure (issue 31, session 30): after each move, which legal moves the
camera's reading shows (``vision.chop_who.camera_moves``, as ``ui.cammoves`` asks it), counted.

For each Chop! Chop! scene of a 3-D set whose play one move back is known (the engine state
before the scene's last player action, and that action: ``bench/board_lastmove.py``; the third
family replays it from the seed; the first and second keep it in the ``plays.pkl`` written beside
the set rendered again) the scene is read as the app reads it (``BoardReader`` knowing
that position, ``ui.cammoves.know_position``) and ``camera_moves(state_before, reading.squares,
0.8)`` is judged against the action played:

- **proposed right**: one move fits and it is the one played;
- **proposed WRONG**: one move fits and it is not (the players confirming without looking would
  change the hidden-tile tracker): each printed on a line;
- **one square, path asked**: the moves that fit are the paths of one move into one slab square
  (``CameraMoves.paths``: the app proposes the move and asks only which way it came; counted
  apart, right or wrong by its destination);
- **asked (several fit)** / **asked (none fits)**: the players are asked.

Per kind of move (the cat placed, the cat onto a table-top square, the cat on the floor, a mouse,
a teleport after an arrow). ``--save`` keeps each scene's reading (JSON), ``--readings`` judges
saved readings again without reading (``camera_moves`` changed, the reader not).

    .venv/bin/python bench/board_moves.py --renderer 3d-c --seed S --dir DIR [--count-3d 48]
                                         [--save FILE | --readings FILE]
    .venv/bin/python bench/board_lastmove.py --renderer 3d|3d-b --seed S --out DIR --games chopchop --count-3d 48
    .venv/bin/python bench/board_moves.py --renderer 3d|3d-b --seed S --dir DIR --plays DIR/plays.pkl
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Mapping  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.chop_near import NEAR_MARGIN, NEAR_MIN_SCORE, NEAR_OFFER, nearest_moves  # noqa: E402
from vision.chop_who import camera_moves  # noqa: E402

THRESHOLD = 0.8
"""The confidence ``ui.cammoves`` passes (the camera watcher's threshold)."""

VERDICTS = ("proposed right", "one square, path asked", "asked (several fit)", "asked (none fits)",
            "proposed WRONG", "one square WRONG")

NEAR = ("first", "second", "third", "offered, not among", "none offered, among first 3",
        "none offered, not among")
"""Where no move fits: where the played move stands among the moves ``vision.chop_near`` offers."""

Reading = dict[str, tuple[str | None, float]]


def move_kind(state: Any, action: Any) -> str:
    """The kind of a played action: ``cat placed``, ``cat to table top``, ``cat on floor``,
    ``mouse``, ``teleport cat`` / ``teleport mouse``; ``other`` for the rest (a fork's spear)."""
    name = type(action).__name__
    if name == "PlaceCat":
        return "cat placed"
    if name == "Teleport":
        return "teleport " + ("cat" if state.piece == "cat" else "mouse")
    if name == "Move":
        if action.piece != "cat":
            return "mouse"
        return "cat to table top" if action.to.startswith("top:") else "cat on floor"
    return "other"


def judge(state: Any, action: Any, squares: Mapping[str, tuple[str | None, float]],
          threshold: float = THRESHOLD) -> tuple[str, tuple[Any, ...]]:
    """The verdict (one of ``VERDICTS``) on the reading ``squares`` of the scene the played
    ``action`` made from ``state``, and the moves that fit."""
    fits = camera_moves(state, squares, threshold)
    if not fits.actions:
        return "asked (none fits)", ()
    if fits.sure:
        return ("proposed right" if fits.actions[0] == action else "proposed WRONG"), fits.actions
    if getattr(fits, "paths", False):
        return ("one square, path asked" if action in fits.actions else "one square WRONG"), fits.actions
    return "asked (several fit)", fits.actions


def near(state: Any, action: Any, squares: Mapping[str, tuple[str | None, float]],
         offer: int = NEAR_OFFER, margin: float = NEAR_MARGIN,
         min_score: float = NEAR_MIN_SCORE) -> tuple[str, int]:
    """Where no move fits: the verdict (one of ``NEAR``) on the moves offered as the likeliest
    (``vision.chop_near.nearest_moves``), and the played move's rank among every move (1: best;
    0: not ranked)."""
    got = nearest_moves(state, squares, offer, margin, min_score)
    ranked = [a for a, _ in got.ranked]
    rank = ranked.index(action) + 1 if action in ranked else 0
    if got.moves:
        return (NEAR[got.moves.index(action)] if action in got.moves else NEAR[3]), rank
    return (NEAR[4] if 0 < rank <= offer else NEAR[5]), rank


def read_set(root: Path, plays: Mapping[str, Any]) -> dict[str, Reading]:
    """Each scene of ``plays`` (file -> (state before, actions)) read as the app reads it:
    knowing the position before its last move. File -> the reading's squares."""
    from vision.synth.board_scenes import evaluate_dir

    out: dict[str, Reading] = {}

    def ready(scene: dict[str, Any], reader: Any) -> None:
        play = plays.get(str(scene["file"]))
        if reader.board.game == "chopchop" and play is not None:
            reader.confirmed = dict(play[0].board_view())  # ui.cammoves.know_position: one move back
            reader.confirmed_one_move = True

    def observe(scene: dict[str, Any], before: dict[str, Any], reader: Any, reading: Any) -> None:
        if str(scene["file"]) in plays and reading.found:
            out[str(scene["file"])] = {s: (t, float(c)) for s, (t, c) in reading.squares.items()}

    def start(scene: dict[str, Any], reader: Any) -> None:
        if reader.board.game == "chopchop":
            reader.confirmed = dict(scene["squares"])

    evaluate_dir(root, threads=1, observe=observe, learned=start, ready=ready)
    return out


def score(plays: Mapping[str, Any], readings: Mapping[str, Reading],
          threshold: float = THRESHOLD, **rule: Any) -> tuple[Counter[tuple[str, str]], list[str]]:
    """(kind, verdict) -> scenes, and a line per wrong proposal and per question. A scene whose
    board was not found counts as ``asked (none fits)``; where none fits, (kind, ``"near: "`` +
    one of ``NEAR``) counts the offer of the likeliest moves (``near``; ``rule``: its
    ``offer``, ``margin``, ``min_score``)."""
    counts: Counter[tuple[str, str]] = Counter()
    lines: list[str] = []
    for f in sorted(plays):
        pre, acts = plays[f]
        action = acts[0]
        kind = move_kind(pre, action)
        if kind == "other":
            continue
        verdict, fits = judge(pre, action, readings.get(f, {}), threshold)
        counts[(kind, verdict)] += 1
        if verdict == "asked (none fits)":
            offered, rank = near(pre, action, readings.get(f, {}), **rule)
            counts[(kind, "near: " + offered)] += 1
            lines.append(f"  {verdict:<22} {f}: played {action}; near: {offered} (ranked {rank})")
        elif verdict != "proposed right":
            lines.append(f"  {verdict:<22} {f}: played {action}; fits {list(fits)}")
    return counts, lines


def report(counts: Counter[tuple[str, str]], lines: list[str]) -> str:
    total = Counter(v for (_, v) in counts.elements())
    out = [f"moves {sum(total[v] for v in VERDICTS)}: " + ", ".join(f"{v} {total[v]}" for v in VERDICTS)]
    for kind in sorted({k for k, _ in counts}):
        row = {v: counts[(kind, v)] for v in VERDICTS if counts[(kind, v)]}
        out.append(f"  {kind:<17} {sum(row.values()):4d}: " + ", ".join(f"{v} {n}" for v, n in row.items()))
        row = {v: counts[(kind, "near: " + v)] for v in NEAR if counts[(kind, "near: " + v)]}
        if row:
            out.append(f"  {'':<17}       none fits: " + ", ".join(f"{v} {n}" for v, n in row.items()))
    if total["asked (none fits)"]:
        out.append(f"none fits {total['asked (none fits)']}, the likeliest offered (vision.chop_near): "
                   + ", ".join(f"{v} {total['near: ' + v]}" for v in NEAR))
    return "\n".join(out + lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--renderer", default="3d-c", choices=["3d", "3d-b", "3d-c"])
    ap.add_argument("--plays", default="", help="first and second families: the plays.pkl that "
                    "bench/board_lastmove.py wrote beside the set rendered again (--dir: that set)")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--dir", required=True, help="the set (rendered by bench/board.py, Chop! Chop! alone)")
    ap.add_argument("--count-3d", type=int, default=48)
    ap.add_argument("--games", default="chopchop", help="the games the third family's set was rendered "
                    "with (its plan numbers the scenes): 'all' for a four-game set (--dir may hold its "
                    "Chop! Chop! scenes alone)")
    ap.add_argument("--save", default="", help="write each scene's reading here (JSON)")
    ap.add_argument("--readings", default="", help="judge these saved readings instead of reading the set")
    ap.add_argument("--threshold", type=float, default=THRESHOLD)
    ap.add_argument("--near-offer", type=int, default=NEAR_OFFER, help="none fits: the most moves offered")
    ap.add_argument("--near-margin", type=float, default=NEAR_MARGIN, help="none fits: offered within this of the best")
    ap.add_argument("--near-min-score", type=float, default=NEAR_MIN_SCORE, help="none fits: the best above this")
    a = ap.parse_args()
    from bench.board_lastmove import _scenes, third_family_plays

    if a.renderer == "3d-c":
        raw = third_family_plays(a.count_3d, a.seed, None if a.games == "all" else a.games.split(","))
    elif a.plays:
        import pickle

        with open(a.plays, "rb") as fh:
            kept = pickle.load(fh)  # written by bench/board_lastmove.py on this machine
        raw = {str(sc["file"]): (kept.get(str(sc["file"])), sc["squares"]) for sc in _scenes(Path(a.dir))}
        for f, (play, squares) in raw.items():
            if play is not None:
                state = play[0].clone()
                for act in play[1]:
                    state.apply(act)
                if dict(state.board_view()) != squares:
                    ap.error(f"{a.plays}: {f}'s play does not give its scene")
    else:
        ap.error(f"{a.renderer}: the play is had by rendering again (bench/board_lastmove.py), then --plays")
    for sc in _scenes(Path(a.dir)):
        if raw.get(str(sc["file"]), (None, None))[1] != sc["squares"]:
            ap.error(f"{a.dir}: {sc['file']} is not the scene seed {a.seed} plays")
    in_set = {str(sc["file"]) for sc in _scenes(Path(a.dir))}  # a four-game plan: the set's own scenes
    plays = {f: play for f, (play, _) in raw.items() if play is not None and f in in_set}
    if a.readings:
        got = json.loads(Path(a.readings).read_text(encoding="utf-8"))
        readings = {f: {s: (t, c) for s, (t, c) in sq.items()} for f, sq in got.items()}
    else:
        import cv2

        cv2.setNumThreads(1)
        readings = read_set(Path(a.dir), plays)
        if a.save:
            Path(a.save).write_text(json.dumps(readings, indent=0, sort_keys=True), encoding="utf-8")
    counts, lines = score(plays, readings, a.threshold, offer=a.near_offer, margin=a.near_margin,
                          min_score=a.near_min_score)
    print(f"== {a.dir} (seed {a.seed}): camera_moves(state one move back, reading, {a.threshold})")
    print(report(counts, lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
