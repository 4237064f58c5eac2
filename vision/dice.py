"""Read real dice from a camera image.

    read_dice(image_bgr, config=None) -> list[DieReading]

Two small learned stages run with OpenCV's dnn module (no deep-learning framework at runtime),
both trained by ``scripts/train_dice.py`` on real photos' train splits plus synthetic scenes:

1. a detector (CenterNet-style heat map at stride 4) finds the top face of every die on the
   image letterboxed to ``config.det_size`` pixels (scale-adaptive: dice of any pixel size in
   the image become a similar fraction of the detector input);
2. classifiers read each die crop from the full-resolution image into {not a die, 1..6}:
   a quicker one (int8 weights and activations in its convolutions, made by
   ``scripts/quantize_dice.py``) reads every crop first and answers alone where it is sure, and
   two wide ones (int8 as well), averaged, read the others;
3. a die still asked about gets a second look (``vision.dice_whole.SecondLook``): the int8 pair
   that was the full classifier before the wide one, averaged, reads its crop again, and it gets
   their value where they read it with at least 0.85 (docs/readme/dice.md, nineteenth round).

A die whose value is not read with at least ``config.min_value_prob`` comes back with
``value=None`` (ask the player, never guess). An optional region of interest limits where dice
count (rectangle or polygon; "inside" keeps only dice whose centre is inside, "exclude" drops
them), and the table's plane, when the board's markers give it, drops boxes that cannot be a
die's top face there (``vision.dice_plane``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Sequence

import cv2
import numpy as np

from vision import dice_boxes as bx
from vision import dice_oblique as ob
from vision.colour_names import LUMA, colour_name
from vision.dice_boxes import Proposal
from vision.dice_models import CLS_SIZE, _net, normalised
from vision.dice_plane import TablePlane
from vision.dice_whole import Found, SecondLook, combine, looked_at
from vision.errors import InvalidImageError

MODELS = Path(__file__).resolve().parent / "models"
DET_STRIDE = 4
SMALL_MIN_SCORE = 0.3
CROP_GROW = 1.15  # classifier crop = box grown by this factor (context around the top face)


@dataclass(frozen=True)
class RegionOfInterest:
    """A rectangle [x1,y1,x2,y2] or a polygon [(x,y),...] in image pixels."""

    rect: tuple[float, float, float, float] | None = None
    polygon: tuple[tuple[float, float], ...] | None = None
    mode: Literal["inside", "exclude"] = "inside"

    def contains(self, x: float, y: float) -> bool:
        if self.rect is not None:
            x1, y1, x2, y2 = self.rect
            hit = x1 <= x <= x2 and y1 <= y <= y2
        elif self.polygon is not None:
            poly = np.float32(self.polygon).reshape(-1, 1, 2)
            hit = cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0
        else:
            hit = True
        return hit if self.mode == "inside" else not hit


@dataclass(frozen=True)
class DiceConfig:
    det_size: int = 320  # long side of the detector input, pixels (at least)
    det_scale: float = 0.5  # ... or this fraction of the image's long side (multiple of 32)
    det_size_max: int = 640  # ... but not more
    # ... only when the dice found at det_size are smaller than this there (median side, pixels;
    # the training scenes' are 9-40 px, 19 in the middle), at the size that makes them this big,
    # or none is found surely (0: always at det_scale)
    die_px: float = 20.0
    det_size_big: int = 128  # a second, coarser pass for dice close to the camera (0: off)
    big_min_frac: float = 0.12  # coarse-pass boxes kept from this fraction of the long side
    # a pass for small dice at small_size (640; 0: off, the default; docs/readme/dice.md,
    # thirteenth and twentieth rounds): its boxes under small_side px there read with at least
    # small_value_prob are added, or take the place of unsure readings
    small_size: int = 0
    small_side: float = 24.0
    small_value_prob: float = 0.95
    # ... but not one whose box comes this near the frame's edge (px): the pass's boxes hold a
    # small die's sides as often as its top, so their shape cannot tell a die cut by the frame
    # (cut_ratio) from a whole one (docs/readme/dice.md, twentieth round; negative: no such rule)
    small_edge: float = 2.0
    # ... nor one whose strip above (small_above_height of its height, stretched to a square) the
    # classifiers read surely (small_above) as a die face: a side face with the top face above it,
    # seen obliquely (vision.dice_oblique; twentieth round; 0: no such rule)
    small_above: float = 0.8
    small_above_height: float = 0.55
    det_threshold: float = 0.3  # heat-map peak needed to propose a die
    # ... or this much beside a die proposed so (dice packed together damp each other's peaks)
    crowd_threshold: float = 0.12
    crowd_value_prob: float = 0.8  # P(value) needed to report the value of a die found so
    # a frame with this many dice read surely is read again from the detector at crowd_size
    # (0: never; off by default, see docs/readme/dice.md: more packed dice found, a few more wrong)
    crowd_min: int = 0
    crowd_size: int = 416
    min_die_prob: float = 0.5  # classifier P(die) needed to keep a proposal
    min_value_prob: float = 0.65  # P(value) needed to report a value (else None); see docs/readme/dice.md
    nms_iou: float = 0.45
    # a reading whose box overlaps a more confident one's this much (IoU) is asked about: top
    # faces of dice lying side by side barely overlap, a die's side face seen steeply does (0: off)
    overlap_iou: float = 0.2
    # a die cut by the frame's edge (its box touches the edge and is shorter across it than along
    # it by this ratio) shows part of its top face: asked about, never read (0: off)
    cut_ratio: float = 0.85
    tta: bool = True  # re-read unsure crops rotated (see classify)
    tta_below: float = 0.95  # ... when their top probability is below this (docs/readme/dice.md)
    roi: RegionOfInterest | None = None
    det_model: Path = field(default=MODELS / "dice_det.onnx")
    # classifiers (ONNX file, crop growth) whose probabilities are averaged: two wide classifiers
    # (scripts/train_dice.py --cls-arch wide --set-repeat 3,1,1,1, trained on a lent GPU with
    # dice-dev's photos three times their balanced share; issue 29, nineteenth round of
    # docs/readme/dice.md): dice_wide_c fine-tuned from the eighteenth round's dice_wide_a,
    # dice_wide_d trained afresh. They replaced the int8 pair dice_cls + dice_cls_r10, now the
    # second look below (dice_cls.onnx also teaches the quick classifier). Read in int8 since the
    # twentieth round (scripts/quantize_dice.py; the float twins beside them are the fallback)
    cls_models: tuple[tuple[Path, float], ...] = ((MODELS / "dice_wide_c_int8.onnx", CROP_GROW),
                                                  (MODELS / "dice_wide_d_int8.onnx", CROP_GROW))
    # a quicker classifier (ONNX file, crop growth) that reads every crop first: its answer is kept
    # where its top probability is at least fast_sure, and only the other crops are read by the
    # cls_models (None: every crop is). The shipped one, dice_cls_fast_int8.onnx, has half the
    # work of dice_cls (trained beside it on the four real sets, eleventh round); the cls_models
    # read the crops it is unsure of (docs/readme/dice.md, eighth and eleventh rounds)
    cls_fast: tuple[Path, float] | None = (MODELS / "dice_cls_fast_int8.onnx", CROP_GROW)
    fast_sure: float = 0.95
    # the table's plane, when the board was found by its markers (vision.dice_plane): boxes
    # whose footprint there is not a die's top face are dropped (None: no such check)
    table: TablePlane | None = None
    # a second look at the dice asked about (vision.dice_whole.SecondLook; None: off): the int8
    # pair that read before the wide one (dice_cls, dice_cls_r10), averaged, gives an asked die the
    # value it reads with at least 0.85, so a die it read surely is not lost to the wide pair's
    # doubt (nineteenth round of docs/readme/dice.md; the eighteenth round's second look was the
    # wide dice_wide_a + dice_wide_b; _a is kept in vision/models, as dice_wide_c was fine-tuned
    # from it; _b, read by nothing, was removed in the twentieth round and is in git's history)
    second: SecondLook | None = SecondLook((MODELS / "dice_cls_int8.onnx", MODELS / "dice_cls_r10_int8.onnx"))


@dataclass(frozen=True)
class DieReading:
    value: int | None  # 1..6, or None when it cannot be read with confidence
    box: tuple[float, float, float, float]  # top face, x1,y1,x2,y2 in image pixels
    confidence: float  # 0..1: of the value when there is one, else of there being a die
    colour: str  # short colour name of the die body
    body: tuple[int, int, int] | None = None  # the body's colour, BGR (companion.dicecolour compares these)

    def to_json(self) -> dict[str, object]:
        return {"value": self.value, "box": [round(v, 1) for v in self.box],
                "confidence": round(self.confidence, 3), "colour": self.colour}


def warm_up(config: DiceConfig | None = None) -> None:
    """Load every model now (and run them once) so the first reading isn't slow."""
    cfg = config or DiceConfig()
    img = np.full((64, 64, 3), 127, np.uint8)
    detect(img, cfg)
    classify(img, [(16.0, 16.0, 48.0, 48.0)], cfg)
    for path, _grow in cfg.cls_models:  # the quick classifier may have read that crop alone
        _net(path)
    if cfg.second is not None:
        for path in cfg.second.paths:
            _net(path)
    if cfg.small_size > cfg.det_size:  # the pass for small dice has a net of its own
        _net(cfg.det_model, str(cfg.small_size), (1, 3, cfg.small_size, cfg.small_size))


# ---------------------------------------------------------------- preprocessing


def _warp(img: np.ndarray, box: Sequence[float], rot: float, grow: float) -> np.ndarray:
    """The square around ``box`` (grown by ``grow``) turned by ``rot`` degrees, CLS_SIZE^2 uint8."""
    x1, y1, x2, y2 = (float(v) for v in box)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    side = max(x2 - x1, y2 - y1, 2.0) * grow
    s = CLS_SIZE / side
    x0, y0 = int(max(0, cx - side)), int(max(0, cy - side))
    xe, ye = int(min(img.shape[1], cx + side + 1)), int(min(img.shape[0], cy + side + 1))
    # a strong downscale: area-resize first so the pips don't alias away (not for a square wholly
    # off the image: the warp below gives it the border's colour)
    if s < 0.5 and xe - x0 >= 2 and ye - y0 >= 2:
        f = s * 2
        img = cv2.resize(img[y0:ye, x0:xe], None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        cx, cy, s = (cx - x0) * f, (cy - y0) * f, 0.5
    m = cv2.getRotationMatrix2D((cx, cy), rot, s)
    m[0, 2] += CLS_SIZE / 2 - cx
    m[1, 2] += CLS_SIZE / 2 - cy
    return cv2.warpAffine(img, m, (CLS_SIZE, CLS_SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def crop_for_classifier(img: np.ndarray, box: Sequence[float], rot: float = 0.0,
                        grow: float = CROP_GROW) -> np.ndarray:
    """The square around ``box`` (grown by ``grow``), CLS_SIZE^2, normalised float32 HWC."""
    c = _warp(img, box, rot, grow).astype(np.float32)
    c -= c.mean()
    c /= c.std() + 8.0
    return c


def _crops(img: np.ndarray, boxes: Sequence[Sequence[float]], grow: float) -> np.ndarray:
    """:func:`crop_for_classifier` of every box (N x CLS_SIZE x CLS_SIZE x 3), normalised at once."""
    return normalised(np.stack([_warp(img, b, 0.0, grow) for b in boxes]))


def _letterbox(img: np.ndarray, size: int) -> tuple[np.ndarray, float]:
    h, w = img.shape[:2]
    s = size / max(h, w)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    small = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA)
    if nw == nh == size:  # a square frame: nothing to pad
        return small, s
    out = np.full((size, size, 3), 127, np.uint8)
    out[:nh, :nw] = small
    return out, s


def _blob(img: np.ndarray) -> np.ndarray:
    """The detector's input: ``cv2.dnn.blobFromImage(img, 1/255, mean=127.5)`` to the bit (1 x 3
    x H x W float32), made in a third of its time."""
    x = img.transpose(2, 0, 1).astype(np.float32, order="C")
    x -= np.float32(127.5)
    x *= np.float32(1 / 255.0)
    return x[None]


def _check(image: object) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise InvalidImageError("empty or missing image")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    elif not (image.ndim == 3 and image.shape[2] == 3):
        raise InvalidImageError(f"expected a BGR image, got shape {image.shape}")
    if image.dtype != np.uint8:
        if image.dtype.kind == "f" and float(np.nanmax(image)) <= 1.0:
            image = image * 255.0
        image = np.clip(np.nan_to_num(image), 0, 255).astype(np.uint8)
    if min(image.shape[:2]) < 16:
        raise InvalidImageError(f"image too small: {image.shape[1]}x{image.shape[0]}")
    return image


# ---------------------------------------------------------------- stages


def _detect_at(image: np.ndarray, size: int, config: DiceConfig) -> list[Proposal]:
    lb, s = _letterbox(image, size)
    # each input size keeps a net of its own: one net fed two sizes in turn is set up again at
    # every change (docs/readme/dice.md)
    role = "coarse" if size == config.det_size_big else ("" if size == config.det_size else str(size))
    net = _net(config.det_model, role, (1, 3, size, size))
    net.setInput(_blob(lb))
    out = net.forward()[0]  # 5 x G x G
    heat = 1 / (1 + np.exp(-out[0]))
    low = min(config.det_threshold, config.crowd_threshold or config.det_threshold)
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= low)
    res = bx.decode(out, heat, peaks, DET_STRIDE / s)
    kept = [p for p in res if p[1] >= config.det_threshold]
    weak = sorted((p for p in res if p[1] < config.det_threshold), key=lambda p: -p[1])
    while weak:  # a weak peak taken in may vouch for the next one (a heap's inner dice)
        took = [p for p in weak if bx.in_a_crowd(p[0], kept)]
        if not took:
            break
        kept += took
        weak = [p for p in weak if p not in took]
    return kept


def detect_fine(image: np.ndarray, config: DiceConfig) -> list[Proposal]:
    """The main detector pass, at :func:`fine_size`."""
    return _fine_pass(image, config)[1]


def _fine_pass(image: np.ndarray, config: DiceConfig) -> tuple[int, list[Proposal]]:
    """:func:`detect_fine`'s proposals and the input size they were found at."""
    size, first = fine_size(image, config)
    return size, first if first is not None else bx.nms(_detect_at(image, size, config), config.nms_iou)


def fine_size(image: np.ndarray, config: DiceConfig) -> tuple[int, list[Proposal] | None]:
    """The detector's input size for ``image`` (and that pass's proposals when it was run to
    choose it). ``det_size``, but a big frame (whose ``det_scale`` of the long side is more, up
    to ``det_size_max``) is looked at again more finely when the dice found at ``det_size`` are
    small there: at the size that makes their median side ``die_px``, or the biggest when none
    is found surely. Dice are read best at about the size the detector was trained on, whatever
    the camera's resolution."""
    size = _fine_size(image, config)
    if size <= config.det_size or not config.die_px:
        return size, None
    first = bx.nms(_detect_at(image, config.det_size, config), config.nms_iou)
    k = config.det_size / max(image.shape[:2])
    sides = sorted(bx.side(b) * k for b, sc in first if sc >= config.det_threshold)
    if not sides:
        return size, None
    median = sides[len(sides) // 2]
    if median >= config.die_px:
        return config.det_size, first
    return min(size, max(config.det_size + 32, round(config.det_size * config.die_px / median / 32) * 32)), None


def _fine_size(image: np.ndarray, config: DiceConfig) -> int:
    long_side = max(image.shape[:2])
    return min(config.det_size_max, max(config.det_size, round(long_side * config.det_scale / 32) * 32))


def detect_coarse(image: np.ndarray, config: DiceConfig, fine: Sequence[Proposal]) -> list[Proposal]:
    """The pass for dice close to the camera: the image letterboxed to ``det_size_big``; only
    boxes of at least ``big_min_frac`` of the long side that no fine box overlaps and that
    don't hold several fine boxes (a group of dice) are kept."""
    if not config.det_size_big:
        return []
    long_side = max(image.shape[:2])
    return [(b, sc) for b, sc in bx.nms(_detect_at(image, config.det_size_big, config), config.nms_iou)
            if bx.side(b) >= config.big_min_frac * long_side
            and all(bx.iou(b, f) < 0.3 for f, _ in fine)
            and not bx.is_group(b, [f for f, fs in fine if fs >= 0.4])]


def detect(image: np.ndarray, config: DiceConfig) -> list[Proposal]:
    """Top-face boxes and their detector scores, both passes (the training script mines these)."""
    fine = detect_fine(image, config)
    return fine + detect_coarse(image, config, fine)


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def read_crops(path: Path, crops: np.ndarray) -> np.ndarray:
    """Probabilities (N x 7: not a die, 1..6) the classifier at ``path`` gives crops made by
    :func:`_crops` (N x CLS_SIZE x CLS_SIZE x 3)."""
    net = _net(path)
    net.setInput(np.ascontiguousarray(crops.transpose(0, 3, 1, 2)))
    return _softmax(net.forward().reshape(len(crops), 7))


def classify(image: np.ndarray, boxes: Sequence[Sequence[float]], config: DiceConfig) -> np.ndarray:
    """Probabilities (N x 7: not a die, 1..6) for each box.

    The quick classifier (``cls_fast``) reads every crop first and answers for those it reads
    with at least ``fast_sure``. The others are read by the ``cls_models`` (averaged), and those
    they are unsure about (top probability below ``tta_below``) get a closer look: each model
    reads them turned by 0, 90, 180 and 270 degrees and all those answers are averaged. Cheap on
    a typical frame: the full classifier reads only the dice the quick one is unsure of, and only
    the few it is unsure of in turn pay for the turned views."""
    if not boxes:
        return np.zeros((0, 7), np.float32)
    grows = {g for _, g in config.cls_models} | ({config.cls_fast[1]} if config.cls_fast else set())
    crops = {grow: _crops(image, boxes, grow) for grow in grows}
    if config.cls_fast is not None:
        path, grow = config.cls_fast
        probs = read_crops(path, crops[grow])
        rest = np.nonzero(probs.max(1) < config.fast_sure)[0]
        if not len(rest):
            return probs
        crops = {grow: c[rest] for grow, c in crops.items()}
    else:
        probs, rest = np.zeros((len(boxes), 7), np.float32), np.arange(len(boxes))
    each = [read_crops(path, crops[grow]) for path, grow in config.cls_models]
    full = sum(each) / len(config.cls_models)
    if config.tta:
        unsure = np.nonzero(full.max(1) < config.tta_below)[0]
        if len(unsure):
            votes = np.zeros((len(unsure), 7), np.float32)
            for (path, grow), upright in zip(config.cls_models, each):
                c = crops[grow][unsure]
                views = np.concatenate([np.rot90(c, k, axes=(1, 2)) for k in range(1, 4)])
                votes += upright[unsure] + read_crops(path, views).reshape(3, len(unsure), 7).sum(0)  # upright: read already
            full[unsure] = votes / (4 * len(config.cls_models))
    probs[rest] = full
    return probs


def second_look(img: np.ndarray, found: list[Found], rule: SecondLook, min_value_prob: float) -> list[Found]:
    """Readings (box, P(die), value, confidence) after the second look at those under
    ``rule.below`` (``vision.dice_whole.combine``: agree-or-ask)."""
    idx = looked_at(found, rule, min_value_prob)
    if not idx:
        return found
    probs = np.full((len(found), 7), np.nan, np.float32)
    crops = _crops(img, [found[i][0] for i in idx], rule.grow)
    probs[idx] = sum(read_crops(path, crops) for path in rule.paths) / len(rule.paths)
    return combine(found, probs, rule, min_value_prob)


def die_body(image: np.ndarray, box: Sequence[float]) -> tuple[int, int, int] | None:
    """The body colour (BGR): the median of the top face's inner part without the pips (the
    smaller of its dark and light parts)."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    xa, ya = int(max(0, x1 + w * 0.15)), int(max(0, y1 + h * 0.15))
    xb, yb = int(min(image.shape[1], x2 - w * 0.15)), int(min(image.shape[0], y2 - h * 0.15))
    if xb <= xa or yb <= ya:
        return None
    px = cv2.resize(image[ya:yb, xa:xb], (12, 12), interpolation=cv2.INTER_AREA).reshape(-1, 3).astype(np.float32)
    # (no clip: LUMA's weights are positive and sum to 1, so px @ LUMA lies in [0, 256), where the
    # cast truncates as np.clip's result did)
    lum = (px @ LUMA).astype(np.uint8)
    # pips are the minority: split dark from light where the two groups are most apart
    # (Otsu) and keep the bigger group
    _thr, light = cv2.threshold(lum, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    dark = light.ravel() == 0
    part = px[dark] if np.count_nonzero(dark) * 2 >= len(px) else px[~dark]
    # its median per channel (np.median's result, without its overhead: 20 us a die instead of 31)
    k = len(part) // 2
    if len(part) % 2:
        body = np.partition(part, k, axis=0)[k]
    else:
        part = np.partition(part, (k - 1, k), axis=0)
        body = (part[k - 1] + part[k]) / np.float32(2)
    b, g, r = (int(round(float(v))) for v in body)
    return (b, g, r)


def body_name(body: tuple[int, int, int] | None) -> str:
    """Short name of a body colour from die_body ("unknown" without one)."""
    return "unknown" if body is None else colour_name(np.float32(body))


def _region(img: np.ndarray, cfg: DiceConfig) -> tuple[int, int, int, int]:
    """Where to look: the bounding box of an "inside" region of interest (grown 5 % so dice on
    its edge stay whole), else the whole image. A tray in a corner of a wide camera view is
    then a bigger part of the detector's input, so its dice are read more finely."""
    h, w = img.shape[:2]
    roi = cfg.roi
    if roi is None or roi.mode != "inside" or (roi.rect is None and roi.polygon is None):
        return 0, 0, w, h
    if roi.rect is not None:
        x1, y1, x2, y2 = roi.rect
    else:
        assert roi.polygon is not None
        xs, ys = [p[0] for p in roi.polygon], [p[1] for p in roi.polygon]
        x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
    m = 0.05 * max(x2 - x1, y2 - y1)
    return (int(max(0, x1 - m)), int(max(0, y1 - m)), int(min(w, x2 + m + 1)), int(min(h, y2 + m + 1)))


def _judge(img: np.ndarray, dets: list[Proposal], cfg: DiceConfig
           ) -> list[tuple[tuple[float, float, float, float], float, int, float]]:
    """Classify proposals: (box, P(die), best value, confidence of that value) of the dice."""
    probs = classify(img, [d[0] for d in dets], cfg)
    found = []
    for (box, score), p in zip(dets, probs):
        p_die = 1.0 - float(p[0])
        if p_die < cfg.min_die_prob:
            continue
        v = int(np.argmax(p[1:])) + 1
        conf = float(p[v]) / max(p_die, 1e-6) * min(1.0, p_die)  # P(value | die) P(die)
        if score < cfg.det_threshold and conf < cfg.crowd_value_prob:
            conf = 0.0  # found only in a crowd (a weak peak): its value only when read surely
        found.append((box, p_die, v, conf))
    return found


def _side_faces_left_out(img: np.ndarray, judged: list[Found], cfg: DiceConfig) -> list[Found]:
    """The small dice the pass would take (read with at least ``small_value_prob``) whose strip
    above is read surely as a die face get confidence 0 (``DiceConfig.small_above``)."""
    idx = [i for i, f in enumerate(judged) if f[3] >= cfg.small_value_prob]
    if not cfg.small_above or not idx:
        return judged
    rects = [ob.strip_above(judged[i][0], cfg.small_above_height) for i in idx]
    crops = ob.stretched_crops(img, rects, CROP_GROW)
    probs = sum(read_crops(path, crops) for path, _g in cfg.cls_models) / len(cfg.cls_models)
    out = list(judged)
    for i, above in zip(idx, ob.face_above(probs, cfg.small_above)):
        if above:
            out[i] = (out[i][0], out[i][1], out[i][2], 0.0)
    return out


def read_dice(image_bgr: np.ndarray, config: DiceConfig | None = None) -> list[DieReading]:
    """All dice on the image, sorted left to right. Unreadable dice have ``value=None``."""
    cfg = config or DiceConfig()
    img = _check(image_bgr)
    h, w = img.shape[:2]
    xa, ya, xb, yb = _region(img, cfg)
    if xb - xa < 16 or yb - ya < 16:
        return []
    region = img[ya:yb, xa:xb]

    def place(dets: list[Proposal]) -> list[Proposal]:  # to full-image pixels, clipped, in the ROI
        out = []
        for b, sc in dets:
            box = (max(0.0, b[0] + xa), max(0.0, b[1] + ya), min(float(w), b[2] + xa), min(float(h), b[3] + ya))
            if cfg.roi is None or cfg.roi.contains((box[0] + box[2]) / 2, (box[1] + box[3]) / 2):
                out.append((box, sc))
        return out

    size, fine = _fine_pass(region, cfg)
    found = _judge(img, place(fine), cfg)
    # a crowded table (many dice read surely): all read again from a finer pass, which tells
    # packed dice apart better (off by default: see docs/readme/dice.md)
    if (cfg.crowd_min and sum(f[3] >= cfg.min_value_prob for f in found) >= cfg.crowd_min
            and size < cfg.crowd_size):
        fine = bx.nms(_detect_at(region, cfg.crowd_size, cfg), cfg.nms_iou)
        found = _judge(img, place(fine), cfg)
    # the coarse pass only when the fine one read fewer than two dice surely (a close camera)
    if cfg.det_size_big and sum(f[3] >= cfg.min_value_prob for f in found) < 2:
        found += _judge(img, place(detect_coarse(region, cfg, fine)), cfg)
    px = max(region.shape[:2]) / max(1, cfg.small_size)  # image pixels per pixel of the pass for small dice
    # ... run where the fine pass left a die unsure, read none surely or found a small die
    if cfg.small_size > size and (not found or any(f[3] < cfg.min_value_prob or bx.side(f[0]) < cfg.small_side * px
                                                   for f in found)):
        small = [p for p in place(bx.nms(_detect_at(region, cfg.small_size, cfg), cfg.nms_iou))
                 if p[1] >= SMALL_MIN_SCORE and bx.side(p[0]) < cfg.small_side * px]
        small = bx.new_small(small, found, cfg.min_value_prob, 4 * cfg.small_side * px)
        judged = [(b, p, v, 0.0 if cfg.small_edge >= 0 and bx.at_the_edge(b, w, h, cfg.small_edge) else c)
                  for b, p, v, c in _judge(img, small, cfg)]
        judged = _side_faces_left_out(img, judged, cfg)
        found = bx.take_small(found, judged, cfg.min_value_prob, cfg.small_value_prob)
    if cfg.second is not None:
        found = second_look(img, found, cfg.second, cfg.min_value_prob)
    sure = [f[0] for f in found if f[3] >= cfg.min_value_prob]
    found = bx.one_per_die([f for f in found if not bx.is_group(f[0], sure)])
    found = bx.ask_overlapping(found, cfg.overlap_iou)
    sure = [f[0] for f in found if f[3] >= cfg.min_value_prob]
    out = []
    for box, p_die, v, conf in found:
        if bx.part_of_a_bigger_die(box, sure) or (cfg.table is not None and not cfg.table.fits(box)):
            continue
        body = die_body(img, box)
        if conf >= cfg.min_value_prob and not bx.cut_by_the_frame(box, w, h, cfg.cut_ratio):
            out.append(DieReading(v, box, conf, body_name(body), body))
        else:
            out.append(DieReading(None, box, p_die, body_name(body), body))
    out.sort(key=lambda r: (r.box[0], r.box[1]))
    return out


def read_dice_file(path: str | Path, config: DiceConfig | None = None) -> list[DieReading]:
    """:func:`read_dice` on a picture file, loaded through ``vision.imageload``: refused before
    decoding when absurdly big, read at :data:`vision.limits.DICE_MAX_SIDE` when bigger than
    that. Boxes (and the region of interest) are in the file's pixels either way."""
    from dataclasses import replace

    from vision.imageload import load_image
    from vision.limits import DICE_MAX_SIDE

    cfg = config or DiceConfig()
    loaded = load_image(path, DICE_MAX_SIDE)
    s = loaded.scale
    if s == 1.0:
        return read_dice(loaded.image, cfg)
    roi = cfg.roi
    if roi is not None:
        roi = replace(roi, rect=None if roi.rect is None else (roi.rect[0] * s, roi.rect[1] * s,
                                                                roi.rect[2] * s, roi.rect[3] * s),
                      polygon=None if roi.polygon is None else tuple((x * s, y * s) for x, y in roi.polygon))
    table = cfg.table
    if table is not None:  # plane mm -> the loaded image's pixels
        m = np.diag([s, s, 1.0]) @ np.asarray(table.homography, np.float64)
        table = replace(table, homography=tuple(tuple(float(v) for v in row) for row in m))
    found = read_dice(loaded.image, replace(cfg, roi=roi, table=table))
    return [replace(r, box=(r.box[0] / s, r.box[1] / s, r.box[2] / s, r.box[3] / s)) for r in found]
