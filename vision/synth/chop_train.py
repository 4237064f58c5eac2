"""Train Chop! Chop!'s per-square classifier (``vision.chop_squares``) on rendered 3-D scenes.

    .venv/bin/python -m vision.synth.chop_train DIR [DIR ...] [--out vision/models/chop_squares.npz]

Each DIR is a scene folder of any renderer with Chop! Chop! groups: ``vision.synth.board3d``
(``bench/board.py --renderer 3d --games chopchop --3d-dir DIR``), the second 3-D family
``vision.synth.scene_b`` (``--renderer 3d-b --3db-dir DIR``) or the alt renderer, rendered with
seeds the benches never score. The shipped model is trained on both 3-D families and the alt
renderer; models trained without either 3-D family (leave one family out: how well the
features carry to a family never seen) are measured in ``docs/readme/board.md``
(``bench/board.py --chop-model FILE`` scores one).
Per group, the reader learns the start scene as the bench does, reads the others and keeps
each visible spot's features (``spot_features``) with its true class; the spots the camera
cannot see (hidden behind a piece) and the ones it cannot report (a cat over a mouse) are left
out. A one-hidden-layer network (tanh, softmax) is then fitted with Adam and weight decay,
deterministically (seeded), and written as a small .npz. ``--members E`` writes an ensemble of E
such networks whose probabilities the reader averages (the first on all spots, the others on
bootstrap samples; ``--jobs`` fits them in parallel processes, the same model); ``--cache DIR``
keeps each folder's spot features so that a second training skips the reading.

Session 22 (chopnet) trained one on Chop! Chop!-only scenes of all three 3-D families and the alt
renderer (``bench/board.py --games chopchop --count-3d 48``: ``--renderer 3d --seed 2261``,
``--renderer 3d-b --seed 3261``, ``--renderer 3d-c --seed 4261``; ``--renderer alt --count 100
--seed 4261``), then ``chop_train D2261 D3261 D4261 ALT4261 --members 5 --jobs 5`` (9,838 spots):
it read worse than the shipped model on held-out seeds and was not shipped (``docs/readme/board.md``,
"Chop! Chop!'s classifier on all three families", session 22). The shipped model is still session
17's, no longer reproduced byte for byte (the features moved since it was trained).
Session 28 (chopnet2) trained on the sixteen Chop! Chop! folders of all three families and alt
(32,174 spots) with ``--decay 0.01 --keep vision/models/chop_squares.npz`` (``--keep``: the shipped
network kept as a member beside the new one): it lost on held-out first- and second-family sets
and was not shipped either (board.md, "session 28, chopnet2"). Session 29 (chopnet3) added
``--balance`` (each family the same weight: the third family was half the spots) with the reader's
``chop_classifier_sure`` refitted leave-one-family-out (board.md, "session 29, chopnet3").
Measured and documented in ``docs/readme/board.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from vision.chop_squares import CLASSES, MODEL_PATH, N_FEATURES, SquareModel


def collect(root: Path) -> tuple[np.ndarray, np.ndarray]:
    """(features [M, F], class indices [M]) of every scored spot of a scene folder."""
    from vision.piece_config import PieceConfig
    from vision.pieces import BoardReader, comparable
    from vision.synth.board_scenes import board_for, load_image

    data = json.loads((root / "labels.json").read_text())
    groups: dict[str, list[dict[str, object]]] = {}
    for sc in data["scenes"]:
        if sc["board"] == "chopchop":
            groups.setdefault(str(sc.get("group", sc["board"])), []).append(sc)
    xs, ys = [], []
    for members in groups.values():
        board = board_for("chopchop")
        reader = BoardReader(board, config=PieceConfig(chop_classifier=False))
        learners = [s for s in members if s.get("learn")] or members[:1]
        for s in learners:
            reader.learn(load_image(root / str(s["file"])).image, dict(s["squares"]))  # type: ignore[call-overload]
        spot_of = {sid: ids[0] for ids in reader.groups for sid in ids}
        for s in members:
            if s in learners:
                continue
            r = reader.read(load_image(root / str(s["file"])).image, track=False)
            if not r.found:
                continue
            truth = comparable(board, dict(s["squares"]))  # type: ignore[call-overload]
            skip = set(s.get("occluded", ())) | {spot_of.get(x, x) for x in s.get("unreportable", ())}  # type: ignore[attr-defined]
            for i, ids in enumerate(reader.groups):
                if ids[0] in skip:
                    continue
                want = truth.get(ids[0]) or "-"
                if want not in CLASSES:
                    continue
                xs.append(reader.last_chop_features[i])
                ys.append(CLASSES.index(want))
    return np.asarray(xs, np.float32), np.asarray(ys, np.int64)


def train(x: np.ndarray, y: np.ndarray, hidden: int = 32, epochs: int = 1500, lr: float = 0.01,
          decay: float = 1e-3, seed: int = 0, norm: tuple[np.ndarray, np.ndarray] | None = None,
          weight: np.ndarray | None = None) -> SquareModel:
    """Fit the network (full batch, Adam); classes weighted by the square root of their rarity.
    ``norm``: the (mean, std) to standardise with (default: ``x``'s own); ``weight``: each spot's
    own weight besides (e.g. ``balanced``'s), default 1."""
    rng = np.random.default_rng(seed)
    mean, std = norm if norm is not None else (x.mean(axis=0), x.std(axis=0) + 1e-3)
    xn = ((x - mean) / std).astype(np.float64)
    k = len(CLASSES)
    onehot = np.eye(k)[y]
    freq = np.bincount(y, minlength=k) + 1.0
    cw = np.sqrt(freq.max() / freq)[y]
    if weight is not None:
        cw = cw * weight
    cw /= cw.mean()
    params = [rng.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden)), np.zeros(hidden),
              rng.normal(0, 1 / np.sqrt(hidden), (hidden, k)), np.zeros(k)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    for t in range(1, epochs + 1):
        w1, b1, w2, b2 = params
        h = np.tanh(xn @ w1 + b1)
        z = h @ w2 + b2
        z = np.exp(z - z.max(axis=1, keepdims=True))
        p = z / z.sum(axis=1, keepdims=True)
        dz = (p - onehot) * cw[:, None] / len(y)
        dh = (dz @ w2.T) * (1 - h ** 2)
        grads = [xn.T @ dh + decay * w1, dh.sum(axis=0), h.T @ dz + decay * w2, dz.sum(axis=0)]
        for j, g in enumerate(grads):
            m[j] = 0.9 * m[j] + 0.1 * g
            v[j] = 0.999 * v[j] + 0.001 * g * g
            params[j] = params[j] - lr * (m[j] / (1 - 0.9 ** t)) / (np.sqrt(v[j] / (1 - 0.999 ** t)) + 1e-8)
    return SquareModel(mean, std, *params)


def balanced(families: list[str]) -> np.ndarray:
    """Each spot's weight so that every family (one name a spot) weighs the same in all, its
    spots alike within it; mean 1."""
    names, idx, counts = np.unique(np.asarray(families), return_inverse=True, return_counts=True)
    w = len(families) / (len(names) * counts[idx])
    return np.asarray(w, np.float64)


def family(root: Path) -> str:
    """A scene folder's family for ``--balance``: its Chop! Chop! scenes' renderer, the alt
    renderer's counted with the first 3-D family's (``3d``), as leave-one-family-out does."""
    data = json.loads((root / "labels.json").read_text())
    names = {str(sc.get("renderer", "")) for sc in data["scenes"] if sc["board"] == "chopchop"}
    name = min(names) if names else ""
    return "3d" if name == "alt" else name


def _member(x: np.ndarray, y: np.ndarray, e: int, hidden: int, decay: float, seed: int, epochs: int,
            norm: tuple[np.ndarray, np.ndarray], weight: np.ndarray | None = None) -> SquareModel:
    """Member ``e`` of ``ensemble``: the whole set for the first, a bootstrap sample for the others."""
    if e == 0:
        return train(x, y, hidden=hidden, decay=decay, seed=seed, norm=norm, epochs=epochs, weight=weight)
    pick = np.random.default_rng(seed + 1000 * e).integers(0, len(y), len(y))
    return train(x[pick], y[pick], hidden=hidden, decay=decay, seed=seed + e, norm=norm, epochs=epochs,
                 weight=None if weight is None else weight[pick])


def ensemble(x: np.ndarray, y: np.ndarray, members: int = 1, hidden: int = 32, decay: float = 1e-3,
             seed: int = 0, epochs: int = 1500, jobs: int = 1, weight: np.ndarray | None = None) -> SquareModel:
    """``members`` networks averaged (``SquareModel.stack``): the first fitted on all spots with
    ``seed`` (alone, exactly ``train``'s model), each further one on a bootstrap sample of the
    spots (drawn with replacement) from its own seed; all standardised by the whole set.
    ``jobs``: members fitted at once in as many processes (the same model either way);
    ``weight``: each spot's weight (``train``)."""
    norm = (x.mean(axis=0), x.std(axis=0) + 1e-3)
    args = [(x, y, e, hidden, decay, seed, epochs, norm, weight) for e in range(members)]
    if jobs <= 1 or members == 1:
        return SquareModel.stack([_member(*a) for a in args])
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(min(jobs, members)) as pool:
        return SquareModel.stack(list(pool.map(_member, *zip(*args))))


def with_kept(model: SquareModel, kept: list[Path]) -> SquareModel:
    """``model`` with the networks of the models in ``kept`` added as members, unchanged (their
    standardisation folded into their first layer, ``SquareModel.renormed``): e.g. the shipped
    network kept beside networks trained on more families."""
    others = []
    for path in kept:
        m = SquareModel.load(path)
        if m is None or m.features != model.features:
            raise SystemExit(f"{path}: not a square model of {model.features} features")
        others.append(m.renormed(model.mean, model.std))
    return SquareModel.stack([model, *others])


def cached(root: Path, cache: Path | None) -> tuple[np.ndarray, np.ndarray]:
    """``collect(root)``, kept in ``cache`` (one .npz per scene folder, by its resolved path) and
    read back from there while it has this reader's feature count."""
    if cache is None:
        return collect(root)
    cache.mkdir(parents=True, exist_ok=True)
    key = cache / (str(root.resolve()).strip("/").replace("/", "_") + ".npz")
    if key.exists():
        with np.load(key) as z:
            if z["x"].ndim == 2 and z["x"].shape[1] == N_FEATURES:
                return z["x"], z["y"]
    x, y = collect(root)
    np.savez_compressed(key, x=x, y=y)
    return x, y


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--members", type=int, default=1, help="networks averaged (bootstrap samples)")
    ap.add_argument("--decay", type=float, default=1e-3, help="weight decay")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="members fitted at once (processes)")
    ap.add_argument("--cache", type=Path, default=None, help="keep each folder's spot features here")
    ap.add_argument("--keep", type=Path, action="append", default=[],
                    help="a trained model whose networks join the ensemble as they are (repeatable)")
    ap.add_argument("--balance", action="store_true",
                    help="weigh every family (the folders' renderer, alt with 3d) the same")
    args = ap.parse_args(argv)
    parts = [cached(d, args.cache) for d in args.dirs]
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    weight = None
    if args.balance:
        weight = balanced([family(d) for d, p in zip(args.dirs, parts) for _ in range(len(p[1]))])
    model = ensemble(x, y, members=args.members, hidden=args.hidden, decay=args.decay, seed=args.seed,
                     jobs=args.jobs, weight=weight)
    if args.keep:
        model = with_kept(model, args.keep)
    acc = float((model.probs(x).argmax(axis=1) == y).mean())
    print(f"{len(y)} spots ({', '.join(f'{c} {int((y == i).sum())}' for i, c in enumerate(CLASSES))}); "
          f"training accuracy {acc * 100:.2f}%")
    model.save(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
