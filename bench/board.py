"""Benchmark of board reading on synthetic scenes of three independent renderers (deterministic).

    .venv/bin/python bench/board.py [--count 520] [--seed 2026] [--renderer main|alt|3d|3d-b|3d-c|both|all]
                                    [--dir DIR] [--alt-dir DIR] [--3d-dir DIR] [--3db-dir DIR] [--3dc-dir DIR]
                                    [--count-3d 192]
                                    [--games chopchop,qubism]

Writes ``count`` scenes across the four boards with each renderer (``vision.synth.board``, and
the independent ``vision.synth.board_alt`` with other piece shapes, camera, light and
occluders; about a quarter of the scenes with one marker hidden), then reads them on one core
(cv2.setNumThreads(1), OPENBLAS_NUM_THREADS=1) and prints, per renderer, the board-found rate
(all, and with a hidden marker), per-square accuracy (all and per board) and the median ms per
1280x720 frame. A directory that already holds labels.json is reused, not rewritten.

``--renderer 3d`` (``vision.synth.board3d``: z-buffered meshes, shadow maps, tilts to 45
degrees, lens distortion; groups of 8 scenes sharing camera and light, the first the game's
start, learned, the rest positions of random legal play) writes ``--count-3d`` scenes (192: 48
per game, 42 scored; ``--games chopchop --count-3d 48`` writes Chop! Chop!'s alone: other
scenes than the four-game set's, as the generator draws the games in turn). ``both`` is main
and alt (as before); ``all`` adds 3d. For every renderer it then prints, per game and per
token kind (the truth's token: "-" is an empty square), the squares and how many were read
right, what they were read as (truth -> read, counts; "?" when the board was not found), the
squares the reader cannot report (two pieces on one printed square: Kat en Muis's cat+mouse,
a Chop! Chop! cat on the table over a mouse; scored as the pair "cat+mouse" and counted apart),
which mouse is which (``MiceNamed``: each Chop! Chop! scene's mice named from the scene before it
in its group, or with ``--confirmed last-move`` from the position one move back, as the app names
them from the last confirmed position) and the median ms per read
after each group's first. ``--learn-in-play``: the reader learns each Chop! Chop! scene's face-up
cheese after reading it, as the app learns it from confirmed positions (``CheeseInPlay``).
``--confirmed``: each Chop! Chop! scene is read knowing the position of the scene before it (the
group's first read: its learned start), as the app reads knowing the last confirmed position
(``ui.cammoves.know_position``: the game's state before the move, from the start on;
``vision.chop_known``). ``--confirmed last-move``: each read knows the position one move before
its scene, as the app confirms every move (``bench/board_lastmove.py``: the third family's
replayed from the seed; the first and second families' from a set rendered again, ``--last-move``).

``--renderer 3d-b`` (``vision.synth.scene_b``: the second 3-D family, made differently: other
pieces, print, paper, light, table and camera; a held-out test) writes ``--count-3d`` scenes
to ``--3db-dir`` in the same groups of 8 and prints the same tables. ``--renderer 3d-c``
(``vision.synth.scene_c``: the third family, unseen: a Pi camera on a stand, other prints,
paper, light, tables and pieces) does the same with ``--3dc-dir``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402

from vision.chop_who import cheese_lesson, name_mice  # noqa: E402
from vision.synth.board_scenes import evaluate_dir, write_dataset  # noqa: E402
from vision.synth.board_alt import write_alt_dataset  # noqa: E402
from vision.synth.board3d import write_3d_dataset  # noqa: E402
from vision.synth.scene_b import write_b_dataset  # noqa: E402
from vision.synth.scene_c import write_c_dataset  # noqa: E402

WRITERS_3D = {"3d": write_3d_dataset, "3d-b": write_b_dataset, "3d-c": write_c_dataset}
GROUP_3D = 8
"""Scenes per group of the 3-D renderer (one learned start, seven read)."""


def run(renderer: str, root: Path, count: int, seed: int, games: list[str] | None = None,
        learn_in_play: bool = False, confirmed: bool | str = False, last_move: Path | None = None) -> None:
    t0 = time.perf_counter()
    if not (root / "labels.json").exists():
        if renderer in WRITERS_3D:
            WRITERS_3D[renderer](root, count, seed=seed, games=games, group_size=GROUP_3D)
        else:
            (write_alt_dataset if renderer == "alt" else write_dataset)(root, count, seed=seed, games=games)
    t1 = time.perf_counter()
    confirmed = "scene" if confirmed is True else str(confirmed or "")  # --confirmed alone: "scene"
    named = MiceNamed("the position one move back" if confirmed == "last-move" else "the scene before in the group")
    taught = CheeseInPlay(root) if learn_in_play else None

    back: dict[str, dict[str, str] | None] = {}
    if confirmed == "last-move":  # the app confirms every move: each read knows the position one move back
        from bench.board_lastmove import positions_for

        back = positions_for(renderer, root, count, seed, games, last_move)

    def ready(scene: dict[str, Any], reader: Any) -> None:
        if reader.board.game == "chopchop":  # one turn back, as the app (ui.cammoves.know_position)
            reader.confirmed_one_move = back.get(str(scene["file"])) is not None
            if reader.confirmed_one_move:
                reader.confirmed = dict(back[str(scene["file"])] or {})

    def observe(scene: dict[str, Any], before: dict[str, Any], reader: Any, reading: Any) -> None:
        if back.get(str(scene["file"])) is not None:  # the mice named from the position one move back
            before = {"squares": back[str(scene["file"])]}
        named.observe(scene, before, reader, reading)
        if taught is not None:
            taught.observe(scene, before, reader, reading)
        if confirmed == "scene" and reader.board.game == "chopchop":  # the app: once the players confirmed it
            reader.confirmed = dict(scene["squares"])

    def start(scene: dict[str, Any], reader: Any) -> None:
        if confirmed and reader.board.game == "chopchop":  # as the app: the start is the first confirmed position
            reader.confirmed = dict(scene["squares"])

    r = evaluate_dir(root, threads=1, observe=observe, learned=start, ready=ready if back else None)
    if taught is not None:
        print(f"learned in play (--learn-in-play): {taught.learned} face-up cheese looks, each from the "
              "position confirmed after the read that saw it")
    t2 = time.perf_counter()
    group = GROUP_3D if renderer in WRITERS_3D else 25
    print(f"== renderer {renderer}: {root} (written in {t1 - t0:.0f} s); {r['scenes']} scenes scored "
          f"(one reference scene per group of {group} teaches the piece looks)")
    print(f"board found: {r['found_rate'] * 100:.2f}%  (scenes with a hidden marker: "
          f"{r['found_rate_hidden'] * 100:.2f}% of {r['scenes_hidden']})")
    print(f"per-square accuracy: {r['square_accuracy'] * 100:.3f}% of {r['squares']} squares")
    for game, g in sorted(r["per_game"].items()):
        print(f"  {game:<10} found {g['found_rate'] * 100:6.2f}%  squares {g['square_accuracy'] * 100:7.3f}%"
              f"  ({g['scenes']} scenes)")
    print(f"median ms per 1280x720 frame (locate + read, one core): {r['median_ms']:.1f}")
    common = Counter((m["want"], m["got"]) for m in r["mistakes"]).most_common(8)
    print("most common mistakes (truth -> read):", ", ".join(f"{a}->{b} x{n}" for (a, b), n in common))
    print(f"evaluation took {t2 - t1:.0f} s")
    print_kinds(r)
    named.print()


class CheeseInPlay:
    """``--learn-in-play``: as the app does (``ui.cammoves.learn_cheese``), after each Chop! Chop!
    scene is read the reader learns the face-up cheese of that scene's position (confirmed by
    the players in the app; the truth here), new ones only, for the group's later scenes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.learned = 0
        self.done: dict[int, set[str]] = {}

    def observe(self, scene: dict[str, Any], before: dict[str, Any], reader: Any, reading: Any) -> None:
        if not reading.found or reader.board.game != "chopchop":
            return
        known = cheese_lesson(dict(scene["squares"]), self.done.setdefault(id(reader), set()))
        if known:
            from vision.imageload import load_image

            reader.learn(load_image(self.root / str(scene["file"])).image, known)
            self.learned += 1


class MiceNamed:
    """Which mouse is which, scored: each Chop! Chop! scene's mice read by the camera, named
    by ``vision.chop_who.name_mice`` from the truth of the group's scene before it (the last
    confirmed position), against the scene's own truth ("mouse:2")."""

    def __init__(self, source: str = "the scene before in the group") -> None:
        self.counts: Counter[str] = Counter()
        self.source = source

    def observe(self, scene: dict[str, Any], before: dict[str, Any], reader: Any, reading: Any) -> None:
        if not reading.found or reader.board.game != "chopchop":
            return
        seen = [s for s, (t, _) in reading.squares.items() if t is not None and t.startswith("mouse")]
        names = name_mice(seen, dict(before["squares"]))
        skip = set(scene.get("occluded", ()))
        for sq, token in dict(scene["squares"]).items():
            if not token.startswith("mouse:") or sq in skip:
                continue
            self.counts["mice"] += 1
            if sq not in names:
                self.counts["not read"] += 1
            elif names[sq] is None:
                self.counts["asked"] += 1
            else:
                self.counts["right" if names[sq] == token else "wrong"] += 1

    def print(self) -> None:
        c = self.counts
        if c["mice"]:
            print(f"mice named right {c['right']} of {c['mice']} (asked {c['asked']}, named wrong {c['wrong']}, "
                  f"not read as a mouse {c['not read']}); named from {self.source}")


def kind_of(token: str) -> str:
    """A confusion table's truth token as a token kind (cubes of every arrow together)."""
    return "cube" if token.startswith("cube:") else token


def print_kinds(r: dict[str, object]) -> None:
    """Per game and token kind: squares, right, what they were read as; unreportable squares;
    the median ms per read after each group's first."""
    confusion = r.get("confusion") or {}
    assert isinstance(confusion, dict)
    print('per game and token kind (truth: squares, right; read as; "-" empty, "?" board not found):')
    for game in sorted(confusion):
        kinds: dict[str, Counter[str]] = {}
        exact: Counter[str] = Counter()
        for key, n in confusion[game].items():
            want, got = key.split(" -> ")
            kinds.setdefault(kind_of(want), Counter())[got] += n
            exact[kind_of(want)] += n if got == want else 0
        for kind in sorted(kinds):
            c = kinds[kind]
            total = sum(c.values())
            line = f"  {game:<10} {kind:<11} {total:6d}  right {exact[kind] / total * 100:7.2f}%"
            if kind == "cube":  # the arrow counts: a cube read with another arrow is wrong
                seen = sum(n for got, n in c.items() if got.startswith("cube:"))
                line += (f"  (a cube {seen / total * 100:6.2f}%, arrow wrong {seen - exact[kind]}: "
                         f"{seen - exact[kind] - c['cube:?']} another way, {c['cube:?']} asked)")
                wrong = [(got, n) for got, n in c.most_common() if not got.startswith("cube:")]
            else:
                wrong = [(got, n) for got, n in c.most_common() if got != kind]
            line += "  read as: " + (", ".join(f"{got} x{n}" for got, n in wrong) or "nothing else")
            if c.get("?", 0):
                line += f"  ({c['?']} not read: board not found)"
            print(line)
    unrep = r.get("unreportable") or {}
    assert isinstance(unrep, dict)
    if unrep:
        print("two pieces on one printed square (scored above as the pair):",
              ", ".join(f"{k} x{n}" for k, n in sorted(unrep.items())))
    per_ms = r.get("per_game_median_ms") or {}
    assert isinstance(per_ms, dict)
    print(f"median ms per read after each group's first (one core): {r.get('median_ms_after_first', 0.0):.1f}"
          + "".join(f"; {g} {v:.1f}" for g, v in sorted(per_ms.items())))


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--count", type=int, default=520)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--renderer", default="both", choices=["main", "alt", "3d", "3d-b", "3d-c", "both", "all"])
    ap.add_argument("--dir", default="", help="scene folder of the main renderer")
    ap.add_argument("--alt-dir", default="", help="scene folder of the alt renderer")
    ap.add_argument("--3d-dir", dest="dir3d", default="", help="scene folder of the 3-D renderer")
    ap.add_argument("--3db-dir", dest="dir3db", default="", help="scene folder of the second 3-D family")
    ap.add_argument("--3dc-dir", dest="dir3dc", default="", help="scene folder of the third 3-D family")
    ap.add_argument("--count-3d", type=int, default=192, help="scenes of a 3-D renderer (48 per game)")
    ap.add_argument("--games", default="", help="comma-separated games to write (default: all four)")
    ap.add_argument("--learn-in-play", action="store_true",
                    help="Chop! Chop!: learn each read scene's face-up cheese (the app: confirmed positions)")
    ap.add_argument("--confirmed", nargs="?", const="scene", default="", choices=["scene", "last-move"],
                    help="Chop! Chop!: read each scene knowing the position confirmed before it (vision.chop_known): "
                    "the group's scene before, its start for the first read; 'last-move': the position one move "
                    "before the scene, as the app confirms (bench/board_lastmove.py)")
    ap.add_argument("--last-move", default="", help="--confirmed last-move on a first or second family set: "
                    "the last_move.json of bench/board_lastmove.py (the third family's is replayed from the seed)")
    ap.add_argument("--chop-model", default="", help="Chop! Chop!: read with this square model "
                    "(vision.synth.chop_train --out) instead of the shipped one")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.chop_model:
        from vision.chop_squares import use_model

        try:
            use_model(Path(args.chop_model))
        except ValueError as e:
            ap.error(str(e))
    chosen = {"both": ["main", "alt"], "all": ["main", "alt", "3d"]}.get(args.renderer, [args.renderer])
    for renderer in chosen:
        given = {"alt": args.alt_dir, "3d": args.dir3d, "3d-b": args.dir3db,
                 "3d-c": args.dir3dc}.get(renderer, args.dir)
        root = Path(given) if given else Path(tempfile.mkdtemp(prefix=f"board-bench-{renderer}-"))
        run(renderer, root, args.count_3d if renderer in WRITERS_3D else args.count, args.seed,
            args.games.split(",") if args.games else None, args.learn_in_play, args.confirmed,
            Path(args.last_move) if args.last_move else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
