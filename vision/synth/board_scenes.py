"""Datasets of labelled board scenes: written from ``vision.synth.board``'s renderer, read
back and scored by the pieces reader (``evaluate_dir``, whatever renderer made them).

Format::

    DIR/labels.json  {"format": "companion-board-scenes/1", "scenes": [scene, ...]}
    DIR/images/<n>.jpg

    scene = {"file": "images/000.jpg", "board": "chopchop" (name or .toml path),
             "group": "chopchop-0",   # one physical set of pieces; learning is per group
             "learn": true|false,     # a reference position whose labels teach piece looks
             "squares": {square id: token},       # occupied squares only (board_view tokens)
             "occluded": [square id, ...],         # hidden by a hand: not scored
             "markers_visible": [id, ...], "markers_hidden": [id, ...],
             "homography": [[...], [...], [...]]}  # board mm -> pixels (truth)

Scenes of other renderers (``vision.synth.board_alt``) use the same format; if a group has no
``learn`` scene, its first scene is used as the reference.

Additions (optional: older datasets read as before), written by ``vision.synth.board3d``::

    "renderer": "3d",
    "squares": the engine's board_view as it is: mice numbered ("mouse:2": which mouse),
               Kat en Muis's "cat+mouse" on one square, a Chop! Chop! cat on "top:r,c" and a
               mouse on "r,c" both listed;
    "unreportable": [square id, ...]   # two pieces on one printed square (the engine's
                                       # "cat+mouse", a cat on the table top over a mouse):
                                       # scored as the pair ("cat+mouse"), counted apart too
    "camera": {"tilt_deg", "f_px", "k1", "k2"}, "light": {"tint", "lights"}   # for reports
    "objects": "objects/00001.png",   # only with write_3d_dataset(maps=True): 16-bit object map
    "pieces": [{"square", "token", "object", "top_mm": [x, y, z]}, ...]   # what each object is
                                      # (slabs too: "slab", "cheese", "hole_open", "hole_closed")

``evaluate_dir`` scores a spot against ``comparable`` (mice as "mouse"), scores a spot of two
pieces as the pair (``vision.chop_who.pair_token``: "cat+mouse") and counts those apart, and
reports per game a confusion table (truth -> read, "-" for empty, "?" when the board was not
found) and the median ms per read after each group's first read.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.boards import Board
from companion.i18n import _
from companion.limits import MAX_JSON_FILE_BYTES, read_text_capped
from vision.boarddefaults import GAMES, board_for
from vision.chop_who import pair_token
from vision.imageload import load_image
from vision.synth.board import FORMAT, H, W, PieceLook, random_look, random_position, render_scene


# what a renderer draws for one scene: (board, position, look, rng, learn) -> the image and the
# scene's labels (every key of the format but file, board, group and learn, in file order)
Draw = Callable[[Board, dict[str, str], Any, np.random.Generator, bool], tuple[np.ndarray, dict[str, Any]]]


def write_scenes(root: Path, count: int, rng: np.random.Generator, games: list[str] | None, group_size: int,
                 new_look: Callable[[Board, np.random.Generator], Any], draw: Draw) -> int:
    """Write ``count`` scenes drawn by ``draw`` (spread over ``games``, a new set of pieces,
    ``new_look``, every ``group_size`` scenes of a game, its first scene a reference position)
    and labels.json under ``root``. Each renderer's ``write_*dataset`` calls this."""
    root = Path(root)
    (root / "images").mkdir(parents=True, exist_ok=True)
    games = list(games or GAMES)
    scenes: list[dict[str, Any]] = []
    boards = {g: board_for(g) for g in games}
    looks: dict[str, Any] = {}
    made_in_group: dict[str, int] = {}
    group_no: dict[str, int] = {g: 0 for g in games}
    for n in range(count):
        game = games[n % len(games)]
        board = boards[game]
        group = f"{game}-{group_no[game]}"
        learn = group not in looks
        if learn:
            looks[group] = new_look(board, rng)
        pos = random_position(board, rng, reference=learn)
        image, labels = draw(board, pos, looks[group], rng, learn)
        name = f"images/{n:05d}.jpg"
        cv2.imwrite(str(root / name), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        scenes.append({"file": name, "board": game, "group": group, "learn": learn, **labels})
        made_in_group[group] = made_in_group.get(group, 0) + 1
        if made_in_group[group] >= group_size:
            group_no[game] += 1
    (root / "labels.json").write_text(json.dumps({"format": FORMAT, "scenes": scenes}, indent=1),
                                      encoding="utf-8")
    return count


def homography_json(h: np.ndarray) -> list[list[float]]:
    """A scene's homography as the labels hold it."""
    return [[round(float(v), 6) for v in row] for row in h]


def write_dataset(root: Path, count: int, seed: int = 0, games: list[str] | None = None,
                  group_size: int = 25) -> int:
    """Write ``count`` scenes of ``vision.synth.board`` (spread over ``games``) and labels.json
    under ``root``."""

    def draw(board: Board, pos: dict[str, str], look: PieceLook, rng: np.random.Generator,
             learn: bool) -> tuple[np.ndarray, dict[str, Any]]:
        scene = render_scene(board, pos, look, rng, hand=False if learn else None,
                             hide_marker=False if learn else None)
        return scene.image, {"width": W, "height": H, "squares": scene.squares,
                             "occluded": scene.occluded, "markers_visible": scene.markers_visible,
                             "markers_hidden": scene.markers_hidden,
                             "homography": homography_json(scene.homography)}

    return write_scenes(root, count, np.random.default_rng(seed), games, group_size, random_look, draw)


Observe = Callable[[dict[str, Any], dict[str, Any], Any, Any], None]
"""(scene, the group's scene before it, its reader, its reading): told of every read scene."""

Learned = Callable[[dict[str, Any], Any], None]
"""(a group's learned scene, its reader): told once the reader has learned it, before any read."""


def evaluate_dir(root: Path, threads: int = 1, observe: Observe | None = None,
                 learned: Learned | None = None, ready: Learned | None = None) -> dict[str, Any]:
    """Read every scene of a dataset; accuracy per square, board-found rate, median ms
    (``observe``: told of every scene read, e.g. to score which mouse is which; ``learned``:
    told of each learned scene, e.g. to confirm its position before the group's first read;
    ``ready``: told of each scene just before it is read, untimed)."""
    from vision.pieces import BoardReader, PieceError, comparable

    cv2.setNumThreads(threads)
    root = Path(root)
    data = json.loads(read_text_capped(root / "labels.json", MAX_JSON_FILE_BYTES, _("dataset labels")))
    scenes = data["scenes"]
    groups: dict[str, list[dict[str, Any]]] = {}
    for sc in scenes:
        groups.setdefault(str(sc.get("group", sc["board"])), []).append(sc)
    readers: dict[str, BoardReader] = {}
    times: list[float] = []
    times_after_first: list[float] = []
    per_game_times: dict[str, list[float]] = {}
    confusion: dict[str, dict[str, int]] = {}
    unreportable: dict[str, int] = {}
    per_game: dict[str, dict[str, float]] = {}
    total = found = hidden_n = hidden_found = 0
    sq_total = sq_right = sq_total_found = 0
    mistakes: list[dict[str, Any]] = []
    learn_failed = 0
    for gname, members in groups.items():
        learners = [sc for sc in members if sc.get("learn")] or members[:1]
        board = board_for(str(members[0]["board"]))
        reader = BoardReader(board)
        for sc in learners:
            img = load_image(root / str(sc["file"])).image  # labels in the file's pixels: not scaled
            try:
                reader.learn(img, dict(sc["squares"]))
            except PieceError:
                learn_failed += 1  # board not found there: the group is read with built-in looks
            if learned is not None:
                learned(sc, reader)
        readers[gname] = reader
        spot_of = {sid: ids[0] for ids in reader.groups for sid in ids}
        first_read = True
        for n_sc, sc in enumerate(members):
            if sc in learners:
                continue
            img = load_image(root / str(sc["file"])).image  # labels in the file's pixels: not scaled
            if ready is not None:
                ready(sc, reader)
            t0 = time.perf_counter()
            reading = reader.read(img, track=False)
            ms = (time.perf_counter() - t0) * 1000
            times.append(ms)
            if observe is not None and n_sc > 0:
                observe(sc, members[n_sc - 1], reader, reading)
            game = board.game
            if not first_read:
                times_after_first.append(ms)
                per_game_times.setdefault(game, []).append(ms)
            first_read = False
            conf = confusion.setdefault(game, {})
            cannot = {spot_of.get(sid, sid) for sid in sc.get("unreportable", ())}
            g = per_game.setdefault(game, {"scenes": 0, "found": 0, "squares": 0, "right": 0})
            total += 1
            g["scenes"] += 1
            hid = bool(sc.get("markers_hidden"))
            hidden_n += hid
            if reading.found:
                found += 1
                g["found"] += 1
                hidden_found += hid
            truth = comparable(board, dict(sc["squares"]))
            skip = set(sc.get("occluded", ()))
            # a spot is one place on the print: Chop! Chop!'s table-top square and the floor
            # square under it are read together (a cat on "top:2,3" is the spot "2,3")
            spots = reader.read_spots(reading) if reading.found else None
            for sid in reader.observable:
                if sid in skip:
                    continue
                want = truth.get(sid)
                if sid in cannot:  # two pieces on one printed square: scored as the pair
                    kinds = "+".join(sorted(dict(sc["squares"])[i] for i in dict(sc["squares"])
                                            if spot_of.get(i, i) == sid))
                    unreportable[f"{game} {kinds}"] = unreportable.get(f"{game} {kinds}", 0) + 1
                    want = pair_token(kinds.split("+"))
                got = spots.get(sid) if spots is not None else "?"
                key = f"{want or '-'} -> {got or '-'}"
                conf[key] = conf.get(key, 0) + 1
                sq_total += 1
                g["squares"] += 1
                sq_total_found += reading.found
                if got == want:
                    sq_right += 1
                    g["right"] += 1
                elif len(mistakes) < 5000:
                    mistakes.append({"file": sc["file"], "square": sid, "want": want, "got": got})
    report: dict[str, Any] = {
        "scenes": total,
        "found_rate": found / total if total else 0.0,
        "scenes_hidden": hidden_n,
        "found_rate_hidden": hidden_found / hidden_n if hidden_n else 1.0,
        "squares": sq_total,
        "square_accuracy": sq_right / sq_total if sq_total else 0.0,
        "square_accuracy_found": sq_right / sq_total_found if sq_total_found else 0.0,
        "median_ms": float(np.median(times)) if times else 0.0,
        "per_game": {k: {"scenes": v["scenes"], "found_rate": v["found"] / max(1, v["scenes"]),
                         "square_accuracy": v["right"] / max(1, v["squares"])}
                     for k, v in per_game.items()},
        "learn_failed": learn_failed,
        "median_ms_after_first": float(np.median(times_after_first)) if times_after_first else 0.0,
        "per_game_median_ms": {k: float(np.median(v)) for k, v in per_game_times.items()},
        "confusion": confusion,
        "unreportable": unreportable,
        "mistakes": mistakes,
    }
    return report
