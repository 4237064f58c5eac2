"""The dice reader's learned models (``vision.dice``), loaded once per thread, each on its dnn
engine: an int8 model on the one that reads it quickest here, a float model on the classic one.

    _net(path, role="", shape=CLS_PROBE) -> cv2.dnn.Net

OpenCV 5 has two dnn engines, its default (new) one and the classic one; OpenCV 4 only the latter.
Which reads a model quicker depends on the model and the CPU (docs/readme/dice.md: on one x86_64
VM the int8 classifier ran 1.8 times quicker on the new engine, on another 2.3 times slower, and
the float detector a third quicker on the classic one on both). An int8 model is timed on each
engine when it is loaded and the quicker kept: both compute its numbers to the bit, so the pick
cannot change a reading. A float model's numbers differ between them by about 1e-5
(tests/vision/test_dice_int8.py), enough to move a box by 1e-5 px, its crop's pixels and a
probability across a threshold: a timed pick, which a busy moment can turn, read one photo of
rune55-trays differently between two runs (docs/readme/dice.md, twentieth round, ddet). So a float
model always runs on one engine, the classic one (where there are two; OpenCV 4's only one).
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import cv2
import numpy as np

from companion.i18n import _
from companion.limits import too_large_message
from vision.errors import ModelError
from vision.limits import MAX_MODEL_BYTES

log = logging.getLogger("vision.dice")  # the reader's log, as before these were a module of their own

CLS_SIZE = 40  # the classifiers' input side (pixels)

_local = threading.local()
_ENGINE = (cv2.dnn.ENGINE_CLASSIC,) if hasattr(cv2.dnn, "ENGINE_CLASSIC") else ()
_ENGINES: tuple[tuple[int, ...], ...] = ((), _ENGINE) if _ENGINE else ((),)
# the one engine a float model runs on (see the docstring): the classic one, as quick as the default
# one or quicker for the float models on this project's VMs (docs/readme/dice.md, twentieth round)
_FLOAT_ENGINE: tuple[int, ...] = _ENGINE
CLS_PROBE = (8, 3, CLS_SIZE, CLS_SIZE)  # the batch a classifier is timed on (about a frame's proposals)


def normalised(crops: np.ndarray) -> np.ndarray:
    """A stack of uint8 crops (N x CLS_SIZE x CLS_SIZE x 3) as the classifiers read them: float32,
    each crop less its mean, over its spread + 8."""
    c = crops.astype(np.float32)
    c -= c.mean(axis=(1, 2, 3), keepdims=True)
    c /= c.std(axis=(1, 2, 3), keepdims=True) + 8.0
    return c


def _quantized(path: Path) -> bool:
    """An int8 model (``scripts/quantize_dice.py``: QLinearConv layers). Both of OpenCV 5's
    engines run it, to the same numbers and at speeds that depend on the CPU (see _load)."""
    with open(path, "rb") as f:
        return b"QLinearConv" in f.read()


def float_twin(path: Path) -> Path:
    """The float model an int8 one was made from (``dice_cls_int8.onnx``: ``dice_cls.onnx``)."""
    return path.with_name(path.name.replace("_int8", ""))


def _engines(quantized: bool) -> tuple[tuple[int, ...], ...]:
    """The engines a model may run on, in turn: an int8 (``quantized``) one on either (they compute its
    numbers to the bit, so the quicker is kept), a float one on the first of ``_FLOAT_ENGINE`` and
    then the other that can run it (their numbers differ by float rounding, and a reading must not
    depend on a timing)."""
    if quantized:
        return _ENGINES
    return (_FLOAT_ENGINE,) + tuple(e for e in _ENGINES if e != _FLOAT_ENGINE)


def _load(path: Path, shape: tuple[int, ...] = CLS_PROBE) -> cv2.dnn.Net:
    """The model at ``path`` on its engine (see :func:`_engines`): for an int8 model, the one that
    reads an input of ``shape`` quickest here.

    Each engine's net is loaded and run once (an OpenCV may fail at either step: one without int8
    layers, for instance). An int8 model no engine can run gives way to its float twin (slower,
    as well, and on the float models' engine), with a warning in the log."""
    if not path.is_file():
        raise ModelError(f"dice model missing: {path} (train it with scripts/train_dice.py)")
    if path.stat().st_size > MAX_MODEL_BYTES:
        raise ModelError(too_large_message(path, path.stat().st_size, MAX_MODEL_BYTES, _("a dice model")))
    nets, errors, quantized = [], [], _quantized(path)
    for engine in _engines(quantized):
        try:
            net = cv2.dnn.readNetFromONNX(str(path), *engine)
            net.setInput(np.zeros(shape, np.float32))
            net.forward()
            nets.append((engine, net))
            if not quantized:
                break  # a float model: the first engine that runs it, never a timed pick
        except cv2.error as e:
            errors.append(e)
    if nets:
        return _quickest(path, nets, shape)
    twin = float_twin(path)
    if not quantized or twin == path or not twin.is_file():
        raise ModelError(f"cannot load dice model {path}: {errors[-1]}") from errors[-1]
    log.warning("this OpenCV (%s) cannot run the int8 dice model %s (%s); using %s",
                cv2.__version__, path.name, str(errors[-1]).strip().splitlines()[-1][:200], twin.name)
    return _load(twin, shape)


def _forward_ms(net: cv2.dnn.Net, shape: tuple[int, ...]) -> float:
    """Milliseconds ``net`` takes to read an input of ``shape`` (one run)."""
    x = np.zeros(shape, np.float32)
    t = time.perf_counter()
    net.setInput(x)
    net.forward()
    return (time.perf_counter() - t) * 1000


def _quickest(path: Path, nets: list[tuple[tuple[int, ...], cv2.dnn.Net]], shape: tuple[int, ...]) -> cv2.dnn.Net:
    """The net that reads ``shape`` quickest on this machine (the best of 5 runs each, taken in
    turn so that a busy moment costs them alike); the choice is logged."""
    if len(nets) == 1:
        return nets[0][1]
    best = [_forward_ms(net, shape) for _, net in nets]
    for _round in range(4):
        best = [min(b, _forward_ms(net, shape)) for b, (_, net) in zip(best, nets)]
    k = int(np.argmin(best))
    log.info("dice model %s: %s engine (%s ms for %s)", path.name, _engine_name(nets[k][0]),
             ", ".join(f"{_engine_name(e)} {b:.2f}" for (e, _), b in zip(nets, best)), "x".join(map(str, shape)))
    return nets[k][1]


def _engine_name(engine: tuple[int, ...]) -> str:
    return "classic" if engine == _ENGINE else "default"


def _net(path: Path, role: str = "", shape: tuple[int, ...] = CLS_PROBE) -> cv2.dnn.Net:
    """The model at ``path``, loaded once per thread and ``role`` (a pass fed inputs of another
    shape gets a net of its own), on the engine quickest for inputs of ``shape``."""
    nets: dict[tuple[str, str], cv2.dnn.Net] = getattr(_local, "nets", None) or {}
    _local.nets = nets
    key = (str(path), role)
    if key not in nets:
        nets[key] = _load(Path(path), shape)
    return nets[key]
