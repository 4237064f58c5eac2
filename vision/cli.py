"""``companion dice ...``: read dice from photos, evaluate on a dataset, watch a camera.

    companion dice read IMAGE... [--jsonl]
    companion dice eval DATASET_DIR [--split test] [--json]
    companion dice watch (--camera N|URL | --video FILE | --images DIR | --serial PORT) [--jsonl]

Evaluation rules (``eval``): a prediction matches a labelled die when the centre of either box
lies inside the other box grown by 20% (one-to-one, greedy by confidence). *detect recall* =
labelled dice matched by any prediction; *value recall* = labelled dice matched by a prediction
with the right value; *precision* = predictions with a value that match a labelled die with that
value / all predictions with a value. Dice reported unreadable (value None, "asking the player")
are not counted as wrong in precision, they only cost value recall. *images fully right* = every
labelled die found with the right value, no unreadable and no extra predictions.
Time per image is all stages of ``read_dice`` (decoding the file excluded), one OpenCV thread:
wall-clock and this process's CPU time (the latter is not inflated by other jobs on the machine).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import signal
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import cv2

from vision.dice import DiceConfig, DieReading, RegionOfInterest, read_dice, read_dice_file, warm_up
from companion.i18n import _
from companion.limits import MAX_JSON_FILE_BYTES, read_text_capped
from vision.errors import VisionError
from vision.imageload import load_image


def _config(a: argparse.Namespace) -> DiceConfig:
    roi = None
    if getattr(a, "roi", None):
        try:
            nums = [float(v) for v in a.roi.replace(";", ",").split(",") if v.strip()]
        except ValueError:
            raise SystemExit("--roi needs numbers: x1,y1,x2,y2 or a polygon x,y,x,y,x,y...") from None
        if not all(math.isfinite(v) for v in nums):
            raise SystemExit("--roi needs finite numbers: x1,y1,x2,y2 or a polygon x,y,x,y,x,y...")
        mode = "exclude" if a.roi_exclude else "inside"
        if len(nums) == 4:
            roi = RegionOfInterest(rect=(nums[0], nums[1], nums[2], nums[3]), mode=mode)
        elif len(nums) >= 6 and len(nums) % 2 == 0:
            roi = RegionOfInterest(polygon=tuple(zip(nums[::2], nums[1::2])), mode=mode)
        else:
            raise SystemExit("--roi needs x1,y1,x2,y2 or a polygon x,y,x,y,x,y...")
    kw: dict[str, Any] = {"roi": roi}
    if getattr(a, "min_value_prob", None) is not None:
        kw["min_value_prob"] = a.min_value_prob
    return DiceConfig(**kw)


def _number(text: str, low: float, low_ok: bool) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < low or (value == low and not low_ok):
        raise argparse.ArgumentTypeError(
            f"{text} is out of range: give a number {'of at least' if low_ok else 'above'} {low:g}")
    return value


def _positive(text: str) -> float:
    """An argparse type: a finite number above 0 (``--fps``)."""
    return _number(text, 0.0, False)


def _not_negative(text: str) -> float:
    """An argparse type: a finite number, 0 or more (``--window``)."""
    return _number(text, 0.0, True)


def _baud(text: str) -> int:
    value = _number(text, 1.0, True)
    if value != int(value) or value > 4_000_000:
        raise argparse.ArgumentTypeError(f"{text} is not a baud rate (e.g. 115200 or 9600)")
    return int(value)


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--roi", help="region of interest: x1,y1,x2,y2 or a polygon x,y,x,y,x,y,...")
    p.add_argument("--roi-exclude", action="store_true", help="ignore dice inside --roi instead")
    p.add_argument("--min-value-prob", type=float, default=None,
                   help="confidence needed to report a value (else the die is unreadable)")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="companion dice", description="Read dice with the camera stages.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("read", help="read dice on photos", description="Read the dice on each image.")
    r.add_argument("images", nargs="+", metavar="IMAGE")
    r.add_argument("--jsonl", action="store_true", help="one JSON line per image")
    _add_common(r)
    e = sub.add_parser("eval", help="evaluate on a labelled dataset",
                       description="Detect recall, value recall, precision, images fully right, ms per image.")
    e.add_argument("dataset", metavar="DATASET_DIR")
    e.add_argument("--split", default="test", help="split to evaluate ('all' for every image)")
    e.add_argument("--json", action="store_true", help="print the figures as JSON")
    e.add_argument("--errors", action="store_true", help="list the images that are not fully right")
    _add_common(e)
    w = sub.add_parser("watch", help="report each settled throw",
                       description="Watch a source; print one line per throw once the dice are at rest.")
    src = w.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", help="camera index, URL, or 'pi' for picamera2")
    src.add_argument("--video", help="a video file")
    src.add_argument("--images", help="a folder of images (sorted)")
    src.add_argument("--serial", help="an electronic die on a serial port or URL (hardware.serialdie)")
    w.add_argument("--baud", type=_baud, default=115200, help="serial baud rate (with --serial; default 115200, the protocol's; 9600 also works)")
    w.add_argument("--game", default=None, help="game id, to check throws against (with --serial)")
    w.add_argument("--fps", type=_positive, default=5.0, help="fake frame rate of --images")
    w.add_argument("--loop", action="store_true", help="loop --video/--images")
    w.add_argument("--window", type=_not_negative, default=0.7, help="seconds the reading must hold")
    w.add_argument("--jsonl", action="store_true", help="one JSON line per throw")
    _add_common(w)
    return ap


def _line(path: str, dice: list[DieReading], ms: float) -> dict[str, Any]:
    return {"file": path,
            "dice": [d.to_json() for d in dice if d.value is not None],
            "unreadable": [{"box": [round(v, 1) for v in d.box], "confidence": round(d.confidence, 3),
                            "colour": d.colour} for d in dice if d.value is None],
            "ms": round(ms, 2)}


def cmd_read(a: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    cv2.setNumThreads(1)
    cfg = _config(a)
    warm_up(cfg)  # model loading is not part of any image's time
    failed = 0
    for path in a.images:
        t = time.perf_counter()
        try:
            dice = read_dice_file(path, cfg)
        except VisionError as e:
            failed += 1
            if a.jsonl:
                print(json.dumps({"file": path, "error": str(e)}), file=out, flush=True)
            else:
                print(f"{path}: error: {e}", file=err, flush=True)
            continue
        ms = (time.perf_counter() - t) * 1000
        if a.jsonl:
            print(json.dumps(_line(path, dice, ms)), file=out, flush=True)
        else:
            vals = [d.value for d in dice if d.value is not None]
            unread = sum(1 for d in dice if d.value is None)
            extra = f", {unread} unreadable (please enter)" if unread else ""
            print(f"{path}: {len(vals)} dice {vals} sum {sum(vals)}{extra} ({ms:.1f} ms)", file=out, flush=True)
    return 1 if failed else 0


# ---------------------------------------------------------------- evaluation


def _grown_contains(box: list[float], x: float, y: float, grow: float = 0.2) -> bool:
    w, h = box[2] - box[0], box[3] - box[1]
    return box[0] - w * grow / 2 <= x <= box[2] + w * grow / 2 and box[1] - h * grow / 2 <= y <= box[3] + h * grow / 2


def boxes_match(a: list[float], b: list[float]) -> bool:
    """The centre of either box inside the other grown by 20%."""
    ca = ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2)
    cb = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    return _grown_contains(b, *ca) or _grown_contains(a, *cb)


Match = Callable[[list[float], list[float]], bool]


def inside_match(pred: list[float], label: list[float], grow: float = 0.2) -> bool:
    """The reader's top-face box ``pred`` inside a set's box of the whole die ``label``: its
    centre inside ``label`` grown by ``grow`` and at least half its area inside that grown box."""
    if not _grown_contains(label, (pred[0] + pred[2]) / 2, (pred[1] + pred[3]) / 2, grow):
        return False
    w, h = label[2] - label[0], label[3] - label[1]
    gx1, gy1, gx2, gy2 = label[0] - w * grow / 2, label[1] - h * grow / 2, label[2] + w * grow / 2, label[3] + h * grow / 2
    iw = max(0.0, min(pred[2], gx2) - max(pred[0], gx1))
    ih = max(0.0, min(pred[3], gy2) - max(pred[1], gy1))
    return iw * ih >= 0.5 * max(1e-6, (pred[2] - pred[0]) * (pred[3] - pred[1]))


def box_convention(doc: dict[str, Any]) -> str:
    """What a set's boxes hold, from its labels.json's ``box`` sentence: "top" (the top face:
    dice-dev, rf-dice-public) or "inside" (the whole visible die, or the die seen from above with
    a sliver of side: epanemu-dice, rune55-trays), where the reader's top-face box lies inside."""
    what = str(doc.get("box", "")).lower()
    return "inside" if ("whole" in what or "seen from above" in what) else "top"


def matcher(convention: str) -> Match:
    """How a prediction pairs with a label of a set of that :func:`box_convention`."""
    return inside_match if convention == "inside" else boxes_match


def score_image(labels: list[dict[str, Any]], preds: list[DieReading], match: Match | None = None
                ) -> dict[str, int]:
    """Counts for one image (see the module docstring for the rules). ``match(prediction box,
    label box)`` pairs them (:func:`boxes_match` unless given: a set that boxes the whole die
    pairs otherwise, see ``bench/dice_real.py``). *wrong* counts the labelled dice paired with a
    prediction of another value (a made-up value, what must not happen)."""
    match = match or boxes_match
    order = sorted(range(len(preds)), key=lambda i: -preds[i].confidence)
    taken: set[int] = set()
    found = right = 0
    right_preds = 0
    # first pass: prefer pairing predictions with labels of the same value
    pairs: dict[int, int] = {}
    for same_value in (True, False):
        for i in order:
            if i in pairs:
                continue
            p = preds[i]
            for j, lab in enumerate(labels):
                if j in taken or not match(list(p.box), lab["box"]):
                    continue
                if same_value and p.value != lab["value"]:
                    continue
                pairs[i] = j
                taken.add(j)
                break
    wrong = 0
    for i, j in pairs.items():
        found += 1
        if preds[i].value == labels[j]["value"]:
            right += 1
            right_preds += 1
        elif preds[i].value is not None:
            wrong += 1
    valued = sum(1 for p in preds if p.value is not None)
    return {"labels": len(labels), "found": found, "right": right, "preds": valued,
            "right_preds": right_preds, "unreadable": len(preds) - valued,
            "extra": len(preds) - len(pairs),
            "wrong": wrong,
            "fully_right": int(right == len(labels) and len(preds) == len(labels))}


Score = Callable[[dict[str, Any], list[DieReading]], dict[str, int]]
_SCORE_KEYS = frozenset(("labels", "found", "right", "preds", "right_preds", "unreadable", "extra", "fully_right",
                         "wrong"))


def score_entry(entry: dict[str, Any], preds: list[DieReading]) -> dict[str, int]:
    """:func:`score_image` of a datasets entry (the centre rule: sets that box the top face)."""
    return score_image(entry["dice"], preds)


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def check_labels(doc: Any, dataset: Path) -> list[dict[str, Any]]:
    """The image entries of a dataset's labels.json, each checked for the shape
    :func:`evaluate` reads; anything else is a :class:`VisionError` naming the first fault:
    ``{"images": [{"file": "a.jpg", "split": "test", "dice": [{"box": [x1, y1, x2, y2],
    "value": 1-6}, ...]}, ...]}``."""
    where = dataset / "labels.json"
    if not isinstance(doc, dict) or not isinstance(doc.get("images"), list):
        raise VisionError(f'{where} is not dataset labels: it needs {{"images": [...]}}')
    for i, e in enumerate(doc["images"]):
        what = f"{where}: images[{i}]"
        if not isinstance(e, dict) or not isinstance(e.get("file"), str) or not e["file"]:
            raise VisionError(f'{what} needs "file", the image\'s path in the dataset')
        if "split" in e and not isinstance(e["split"], str):
            raise VisionError(f'{what}: "split" must be text (e.g. "test")')
        dice = e.get("dice")
        if not isinstance(dice, list):
            raise VisionError(f'{what} needs "dice", a list of {{"box": [x1, y1, x2, y2], "value": 1-6}}')
        for j, d in enumerate(dice):
            if (not isinstance(d, dict) or not isinstance(d.get("box"), list) or len(d["box"]) != 4
                    or not all(_is_number(v) for v in d["box"])):
                raise VisionError(f'{what}: dice[{j}] needs "box": [x1, y1, x2, y2] in pixels')
            if not _is_number(d.get("value")):
                raise VisionError(f'{what}: dice[{j}] needs "value", a number 1-6')
    return list(doc["images"])


def evaluate(dataset: Path, split: str = "test", config: DiceConfig | None = None, score: Score | None = None
             ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Figures of ``read_dice`` on a dataset's ``split``. ``score`` counts one image: by default
    :func:`score_image`'s counts, pairing boxes by the set's :func:`box_convention`; another (the
    bench's crowded and hand sets) may add counts of its own, which the figures carry summed."""
    cv2.setNumThreads(1)
    try:
        doc = json.loads(read_text_capped(dataset / "labels.json", MAX_JSON_FILE_BYTES, _("dataset labels")))
    except FileNotFoundError:
        raise VisionError(f"{dataset} has no labels.json: give a dataset folder (labels.json and its images)") from None
    except ValueError as exc:
        raise VisionError(f"{dataset / 'labels.json'} is not JSON text ({exc})") from None
    images = check_labels(doc, dataset)
    convention = box_convention(doc)
    if score is None:
        match = matcher(convention)

        def score(entry: dict[str, Any], preds: list[DieReading]) -> dict[str, int]:
            return score_image(entry["dice"], preds, match)
    entries = [e for e in images if split == "all" or e.get("split") == split]
    if not entries:
        raise VisionError(f"no images with split {split!r} in {dataset}")
    warm_up(config)
    tot: dict[str, int] = {}
    times, cpu, per_image = [], [], []
    for e in entries:
        img = load_image(dataset / e["file"]).image  # labels are in the file's pixels: not scaled
        t, c = time.perf_counter(), time.process_time()
        preds = read_dice(img, config)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        s = score(e, preds)
        for k, v in s.items():
            tot[k] = tot.get(k, 0) + v
        per_image.append({"file": e["file"], **s,
                          "truth": sorted(d["value"] for d in e["dice"]),
                          "read": sorted((p.value or 0) for p in preds)})
    figures = {
        "dataset": str(dataset), "split": split, "match": convention, "images": len(entries), "dice": tot["labels"],
        "detect_recall": tot["found"] / max(1, tot["labels"]),
        "value_recall": tot["right"] / max(1, tot["labels"]),
        "precision": tot["right_preds"] / max(1, tot["preds"]),
        "unreadable": tot["unreadable"], "extra_predictions": tot["extra"], "wrong_values": tot.get("wrong", 0),
        "images_fully_right": tot["fully_right"] / len(entries),
        "median_ms": statistics.median(times), "p90_ms": sorted(times)[int(0.9 * (len(times) - 1))],
        "median_cpu_ms": statistics.median(cpu),
    }
    figures.update({k: v for k, v in tot.items() if k not in _SCORE_KEYS})  # a ``score`` of its own's counts
    return figures, per_image


def cmd_eval(a: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        fig, per = evaluate(Path(a.dataset), a.split, _config(a))
    except (VisionError, OSError, KeyError, ValueError) as e:
        print(f"companion dice eval: {e}", file=err)
        return 2
    if a.json:
        print(json.dumps(fig), file=out)
    else:
        print(f"{fig['dataset']} [{fig['split']}]: {fig['images']} images, {fig['dice']} dice", file=out)
        print(f"  detect recall      {fig['detect_recall']:.4f}", file=out)
        print(f"  value recall       {fig['value_recall']:.4f}", file=out)
        print(f"  precision          {fig['precision']:.4f}", file=out)
        print(f"  images fully right {fig['images_fully_right']:.4f}", file=out)
        print(f"  unreadable dice    {fig['unreadable']}, extra predictions {fig['extra_predictions']}, "
              f"wrong values {fig['wrong_values']}", file=out)
        print(f"  median ms/image    {fig['median_ms']:.2f} wall (p90 {fig['p90_ms']:.2f}), "
              f"{fig['median_cpu_ms']:.2f} CPU, one thread", file=out)
    if a.errors:
        for p in per:
            if not p["fully_right"]:
                print(f"  wrong: {p['file']} truth {p['truth']} read {p['read']}", file=out)
    return 0


# ---------------------------------------------------------------- watch


def cmd_watch(a: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if a.serial:
        try:
            mod = importlib.import_module("hardware.serialdie")
        except ImportError as e:
            print(f"companion dice watch --serial: the serial die support is not available ({e})", file=err)
            return 2
        return int(mod.watch_serial(a.serial, a.baud, out, err, a.game))
    from vision import camera
    from vision.settle import SettleConfig, Settler

    cv2.setNumThreads(1)
    failed: list[str] = []

    def on_state(state: str, detail: str) -> None:
        if state == "failed":
            failed.append(detail)
        if state in ("lost", "failed", "running", "opening"):
            print(f"source {state}{': ' + detail if detail else ''}", file=err, flush=True)

    src: camera.FrameSource
    if a.camera is not None:
        target: int | str = int(a.camera) if a.camera.isdigit() else a.camera
        src = camera.open_camera(target, on_state=on_state)
        name = "camera"
    elif a.video is not None:
        src = camera.VideoFileSource(a.video, loop=a.loop, on_state=on_state, give_up_s=10.0, t0=time.time())
        name = "video"
    else:
        src = camera.ImageFolderSource(a.images, fps=a.fps, loop=a.loop, on_state=on_state, give_up_s=10.0,
                                       t0=time.time())
        name = "images"
    cfg = _config(a)
    settler = Settler(SettleConfig(window_s=a.window), lambda f: read_dice(f, cfg))
    n = 0
    previous: Any = None
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C (SIGINT) ends it even where a shell started it in the background with SIGINT ignored
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with src:
            for t, frame in src:
                th = settler.feed(t, frame)
                if th is None:
                    continue
                n += 1
                d = th.to_json(name)
                if a.jsonl:
                    print(json.dumps(d), file=out, flush=True)
                else:
                    extra = f", {d['unreadable']} unreadable (please enter)" if d["unreadable"] else ""
                    print(f"throw {n}: {d['dice']} sum {sum(d['dice'])}{extra}", file=out, flush=True)
    except KeyboardInterrupt:
        pass
    except VisionError as e:
        print(f"companion dice watch: {e}", file=err)
        return 2
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    return 1 if failed else 0  # the source gave up (not found, refused, lost for good)


def main(argv: list[str] | None = None) -> int:
    a = parser().parse_args(sys.argv[1:] if argv is None else argv)
    out, err = sys.stdout, sys.stderr
    try:
        if a.cmd == "read":
            return cmd_read(a, out, err)
        if a.cmd == "eval":
            return cmd_eval(a, out, err)
        return cmd_watch(a, out, err)
    except VisionError as e:  # e.g. a model file missing
        print(f"companion dice: {e}", file=err)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
