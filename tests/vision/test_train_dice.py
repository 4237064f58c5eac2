"""scripts/train_dice.py and scripts/quantize_dice.py still run on a CPU and write models the
reader loads. They need the ``[train]`` extra (PyTorch, ONNX, onnxruntime), which the app and the
main suite never install: without it these tests are skipped (``pip install -e '.[train,test]'``
into a venv of its own runs them; docs/readme/dice.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

from vision import dice as D  # noqa: E402
from vision import dice_models as M  # noqa: E402
from vision.dice_whole import SecondLook  # noqa: E402
from vision.synth import dice as synth_dice  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str | Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def tiny_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four synthetic scenes in the train split (dice-dev's place in the scripts)."""
    return synth_dice.write_dataset(tmp_path_factory.mktemp("train-set"), 4, seed=5, split="train")


def test_training_on_the_cpu_writes_models_the_reader_runs(tiny_set: Path, tmp_path: Path) -> None:
    out = tmp_path / "models"
    r = _run("scripts/train_dice.py", "--dataset", tiny_set, "--synth", "3", "--det-iters", "3",
             "--cls-iters", "3", "--mine", "--device", "cpu", "--out", out)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "training on cpu" in r.stdout
    det, cls = out / "dice_det.onnx", out / "dice_cls.onnx"
    assert det.stat().st_size > 100_000 and cls.stat().st_size > 100_000
    cfg = D.DiceConfig(det_model=det, cls_models=((cls, D.CROP_GROW),))
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00000.png"))
    assert img is not None
    # three steps teach nothing: only that both models load and run through every stage
    for reading in D.read_dice(img, cfg):
        assert reading.value in (None, 1, 2, 3, 4, 5, 6)
    probs = D.classify(img, [(10.0, 10.0, 50.0, 50.0)], cfg)
    assert probs.shape == (1, 7) and np.isclose(probs.sum(), 1.0, atol=1e-4)


def test_a_gpu_asked_for_where_there_is_none_is_a_clear_error(tiny_set: Path, tmp_path: Path) -> None:
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a CUDA GPU")
    r = _run("scripts/train_dice.py", "--dataset", tiny_set, "--synth", "1", "--det-iters", "1",
             "--only", "det", "--device", "cuda", "--out", tmp_path)
    assert r.returncode != 0
    assert "--device cuda" in r.stderr and "no CUDA GPU" in r.stderr and "--device cpu" in r.stderr
    assert not (tmp_path / "dice_det.onnx").exists()


def test_quantizing_the_shipped_classifier_gives_an_int8_model_that_reads_alike(tiny_set: Path,
                                                                             tmp_path: Path) -> None:
    out = tmp_path / "dice_cls_int8.onnx"
    r = _run("scripts/quantize_dice.py", "--dataset", tiny_set, "--synth", "4", "--crowd", "1", "--out", out)
    assert r.returncode == 0, r.stderr[-2000:]
    assert M._quantized(out)
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00001.png"))
    shipped = D.read_dice(img, D.DiceConfig(cls_models=((D.MODELS / "dice_cls_int8.onnx", D.CROP_GROW),)))
    mine = D.read_dice(img, D.DiceConfig(cls_models=((out, D.CROP_GROW),)))
    assert [d.value for d in mine] == [d.value for d in shipped]


def _nets():  # scripts/dice_nets.py, as train_dice.py imports it
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import dice_nets
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return dice_nets


def test_a_detector_read_back_from_its_export_computes_what_the_reader_does() -> None:
    import torch

    N = _nets()
    model = N.Det("base")
    assert N.load_onnx_det(model, D.MODELS / "dice_det.onnx") == []  # every layer read back
    N.keep_loaded_norms(model, [])
    x = np.random.default_rng(3).uniform(-0.5, 0.5, (1, 3, 320, 320)).astype(np.float32)
    with torch.no_grad():
        mine = model(torch.from_numpy(x)).numpy()
    net = cv2.dnn.readNetFromONNX(str(D.MODELS / "dice_det.onnx"))
    net.setInput(x)
    assert np.abs(mine - net.forward()).max() < 1e-3
    # another stem: the layers it shares are read, its new one is named and left to train
    other = N.Det("patch2")
    assert N.load_onnx_det(other, D.MODELS / "dice_det.onnx") == ["s2.3"]
    assert torch.equal(other.s3[0].weight, model.s3[0].weight)


def test_a_shorter_stem_keeps_the_last_layer_of_the_shipped_one() -> None:
    import torch

    N = _nets()
    shipped = N.Det("base")
    N.load_onnx_det(shipped, D.MODELS / "dice_det.onnx")
    shipped.eval()
    # "patch" replaces both strided convolutions by one: its stem is three places shorter, and
    # its 24 -> 24 convolution (s2.3) is the shipped one's s2.6
    patch = N.Det("patch")
    assert N.load_onnx_det(patch, D.MODELS / "dice_det.onnx") == ["s2.0"]
    assert torch.equal(patch.s2[3].weight, shipped.s2[6].weight)
    # its new layer learns the shipped stem's features where the two stems meet (both strided
    # convolutions done): the loss falls, and no layer but the new one moves
    rng = torch.Generator().manual_seed(1)
    x = torch.rand(4, 3, 64, 64, generator=rng) - 0.5
    patch.eval()
    before = {k: v.clone() for k, v in patch.state_dict().items()}
    with torch.no_grad():
        far = torch.nn.functional.mse_loss(patch.s2[:2](x), shipped.s2[:5](x)).item()
    N.teach_stem(patch, shipped, ["s2.0"], lambda: x, 300)
    with torch.no_grad():
        near = torch.nn.functional.mse_loss(patch.s2[:2](x), shipped.s2[:5](x)).item()
    assert near < 0.75 * far, (far, near)
    moved = {k.rsplit(".", 1)[0] for k, v in patch.state_dict().items() if not torch.equal(v, before[k])}
    assert moved == {"s2.0", "s2.1"}  # the patch convolution and its batch norm


def test_a_cheaper_stem_learns_from_the_shipped_detector(tiny_set: Path, tmp_path: Path) -> None:
    r = _run("scripts/train_dice.py", "--dataset", tiny_set, "--synth", "2", "--only", "det", "--device", "cpu",
             "--det-arch", "patch2", "--det-init", D.MODELS / "dice_det.onnx", "--stem-iters", "3",
             "--distil", "--det-iters", "2", "--det-lr", "3e-4", "--out", tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "new: s2.3" in r.stdout and "stem 0 loss" in r.stdout
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00002.png"))
    for name in ("dice_det_stem.onnx", "dice_det.onnx"):  # after the stem alone, and after all of it
        cfg = D.DiceConfig(det_model=tmp_path / name)
        for reading in D.read_dice(img, cfg):
            assert reading.value in (None, 1, 2, 3, 4, 5, 6)
    r = _run("scripts/train_dice.py", "--dataset", tiny_set, "--synth", "1", "--only", "det", "--distil",
             "--out", tmp_path / "none")
    assert r.returncode != 0 and "--det-init" in r.stderr


def test_layers_left_in_float_by_the_quantizer(tiny_set: Path, tmp_path: Path) -> None:
    import onnx

    out = tmp_path / "mixed.onnx"
    r = _run("scripts/quantize_dice.py", "--dataset", tiny_set, "--synth", "2", "--crowd", "0",
             "--float-layers", "f.6", "--out", out)
    assert r.returncode == 0, r.stderr[-2000:]
    ops = {n.name: n.op_type for n in onnx.load(str(out)).graph.node}
    assert ops["/f/f.6/Conv"] == "Conv" and ops["/f/f.8/Relu"] == "Relu"  # left in float
    assert sum(op == "QLinearConv" for op in ops.values()) == 5  # the other five convolutions
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00003.png"))
    probs = D.classify(img, [(10.0, 10.0, 50.0, 50.0)], D.DiceConfig(cls_models=((out, D.CROP_GROW),)))
    assert probs.shape == (1, 7) and np.isclose(probs.sum(), 1.0, atol=1e-4)
    r = _run("scripts/quantize_dice.py", "--dataset", tiny_set, "--synth", "1", "--crowd", "0",
             "--float-layers", "f.5", "--out", tmp_path / "bad.onnx")
    assert r.returncode != 0 and "no convolution 'f.5'" in r.stderr and not (tmp_path / "bad.onnx").exists()


def test_a_slim_classifier_learns_from_the_shipped_one(tiny_set: Path, tmp_path: Path) -> None:
    import torch

    r = _run("scripts/train_dice.py", "--dataset", tiny_set, "--synth", "2", "--only", "cls", "--device", "cpu",
             "--cls-arch", "slim", "--cls-teacher", D.MODELS / "dice_cls.onnx", "--cls-iters", "3", "--out", tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "classifier initialised from" in r.stdout  # the teacher, read back
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00000.png"))
    probs = D.classify(img, [(10.0, 10.0, 50.0, 50.0)], D.DiceConfig(cls_models=((tmp_path / "dice_cls.onnx", D.CROP_GROW),)))
    assert probs.shape == (1, 7) and np.isclose(probs.sum(), 1.0, atol=1e-4)
    # the loss it learns by: nought for the teacher's own answers, more the further from them
    N = _nets()
    t = torch.tensor([[2.0, -1.0, 0.5, 0.0, 0.0, 0.0, 0.0]])
    assert float(N.soft_loss(t, t)) < 1e-6
    assert float(N.soft_loss(t * 0.5, t)) > 0.0 and float(N.soft_loss(-t, t)) > float(N.soft_loss(t * 0.5, t))


def test_photos_saved_again_as_jpeg_when_asked(tiny_set: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import train_dice as T
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00003.png"))
    assert img is not None
    assert T.JPEG == 0.0  # off unless --jpeg: the shipped commands' random draws are unchanged
    plain = T.colour_jitter(img, np.random.default_rng(5))
    try:
        T.JPEG = 1.0
        saved = T.colour_jitter(img, np.random.default_rng(5))
    finally:
        T.JPEG = 0.0
    diff = np.abs(plain.astype(np.int16) - saved.astype(np.int16))
    assert diff.max() > 0 and diff.mean() < 4  # the same photo, with compression's small errors
    # and the draws before it are the same: only compression tells them apart
    again = T.colour_jitter(img, np.random.default_rng(5))
    assert np.array_equal(again, plain)


def test_scenes_made_by_several_processes_are_the_same_for_any_number() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import dice_scenes as S
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    n = S.PART + 3  # two parts: the second one short
    one = S.make_synth(n, 11, close=0.3, procs=1)
    two = S.make_synth(n, 11, close=0.3, procs=2)
    assert len(one) == len(two) == n
    for (a, da), (b, db) in zip(one, two):
        assert np.array_equal(a, b) and da == db
    # not the single generator's draw (procs=0, what the shipped commands drew), nor one part twice
    assert not np.array_equal(S.make_synth(1, 11)[0][0], one[0][0])
    assert one[S.PART][1] != one[0][1]
    crowds = S.make_crowds(2, 3, procs=2)
    assert len(crowds) == 2 and all(len(d) >= 20 for _, d in crowds)


def test_classifier_batches_drawn_by_torch_train_a_model_the_reader_runs(tiny_set: Path, tmp_path: Path) -> None:
    """--batches torch (the default on a GPU) run on the CPU; the scenes made and mined by two
    processes (--procs 2)."""
    out = tmp_path / "models"
    out.mkdir()
    (out / "dice_det.onnx").write_bytes(D.DiceConfig().det_model.read_bytes())  # --mine reads the detector there
    r = _run("scripts/train_dice.py", "--dataset", tiny_set, "--synth", "3", "--only", "cls", "--mine",
             "--cls-iters", "3", "--procs", "2", "--batches", "torch", "--device", "cpu", "--out", out,
             "--cls-name", "c.onnx")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "batches by torch" in r.stdout and "mined" in r.stdout
    cfg = D.DiceConfig(cls_models=((out / "c.onnx", D.CROP_GROW),), cls_fast=None)
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00000.png"))
    probs = D.classify(img, [(10.0, 10.0, 50.0, 50.0)], cfg)
    assert probs.shape == (1, 7) and np.isclose(probs.sum(), 1.0, atol=1e-4)


def test_batches_drawn_by_torch_jitter_like_numpy_ones() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import train_dice as T
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    rng = np.random.default_rng(0)
    X = rng.uniform(-0.5, 0.5, (64, D.CLS_SIZE, D.CLS_SIZE, 3)).astype(np.float16)
    X[:, :, : D.CLS_SIZE // 2] = -0.5  # the left half dark: a mirrored crop shows on its right
    Y = np.arange(64) % 7
    for make in (T.numpy_batches, T.torch_batches):
        x, y = next(make(X, Y, 32, np.random.default_rng(3)))
        assert tuple(x.shape) == (32, 3, D.CLS_SIZE, D.CLS_SIZE) and tuple(y.shape) == (32,)
        diffs = []
        for k in range(32):  # each crop is one of X, with its label, jittered a little
            c = x[k].permute(1, 2, 0).numpy()
            cands = [X[i].astype(np.float32) for i in range(64) if Y[i] == int(y[k])]
            best = min(min(np.abs(c - a).mean(), np.abs(c - a[:, ::-1]).mean()) for a in cands)
            diffs.append(best)
        assert max(diffs) < 0.25
    xs = [next(T.torch_batches(X, Y, 32, np.random.default_rng(s)))[0] for s in (3, 3, 4)]
    assert np.array_equal(xs[0].numpy(), xs[1].numpy()) and not np.array_equal(xs[0].numpy(), xs[2].numpy())


def test_a_photo_seen_from_another_angle_keeps_its_dice_in_their_boxes() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import dice_scenes as S
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    img = np.full((480, 640, 3), 30, np.uint8)
    dice = []
    for i, (x, y) in enumerate([(20, 20), (560, 30), (300, 200), (40, 400), (570, 410)]):
        img[y : y + 50, x : x + 50] = 230  # five white "dice" at the corners and the middle
        dice.append({"box": [x, y, x + 50, y + 50], "value": i + 1})
    rng = np.random.default_rng(3)
    seen = 0
    for _ in range(20):
        out, moved = S.warp_photo(img, dice, rng, most=0.2)
        assert out.shape == img.shape and [d["value"] for d in moved] == [1, 2, 3, 4, 5]
        assert dice[0]["box"] == [20, 20, 70, 70]  # the caller's labels are left as they were
        for d in moved:
            x1, y1, x2, y2 = d["box"]
            inside = out[int(y1) + 3 : int(y2) - 2, int(x1) + 3 : int(x2) - 2]
            around = out[max(0, int(y1) - 4) : int(y2) + 5, max(0, int(x1) - 4) : int(x2) + 5]
            # the die fills its box (a tilted square leaves its box's corners dark) and none of it is outside
            assert (inside > 128).mean() > 0.6
            assert (around > 128).sum() == (out[max(0, int(y1) - 40) : int(y2) + 40, max(0, int(x1) - 40) : int(x2) + 40] > 128).sum()
        seen += out[:, :, 0].astype(int).sum() != img[:, :, 0].astype(int).sum()
    assert seen == 20  # every draw moves the photo


def test_the_detector_sees_only_real_photos_from_another_angle(tiny_set: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import train_dice as T
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    real = T.load_real(tiny_set, "none")
    assert T.WARP == 0.0 and T.REAL_N == 0  # off unless --warp

    warped_boxes: list[list[float]] = []
    real_warp = T.warp_photo

    def counted(img: np.ndarray, dice: list[dict], rng: np.random.Generator) -> tuple:
        out, moved = real_warp(img, dice, rng)
        warped_boxes.extend(d["box"] for d in moved)
        return out, moved

    def batch(warp: float, real_n: int) -> np.ndarray:
        T.WARP, T.REAL_N, T.warp_photo = warp, real_n, counted
        try:
            return T.det_batch(real, np.random.default_rng(8), bs=4)[0].cpu().numpy()
        finally:
            T.WARP, T.REAL_N, T.warp_photo = 0.0, 0, real_warp

    plain = batch(0.0, 0)
    assert np.array_equal(batch(1.0, 0), plain)  # no real photo among them: nothing warped, nothing drawn
    assert np.array_equal(batch(0.0, len(real)), plain) and not warped_boxes
    warped = batch(1.0, len(real))
    assert warped.shape == plain.shape and not np.array_equal(warped, plain)
    assert len(warped_boxes) >= 4  # each of the four samples was a real photo seen from another angle


def _train_module():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import train_dice as T
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return T


def test_a_whole_die_box_is_no_target_and_no_loss_for_the_detector(tiny_set: Path) -> None:
    import torch

    T = _train_module()
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00000.png"))
    dice = [{"value": 3, "box": [200.0, 200.0, 260.0, 270.0], "whole": True},
            {"value": 5, "box": [400.0, 400.0, 440.0, 440.0]}]
    _crop, heat, _reg, mask, ignore = T.det_sample(img, dice, np.random.default_rng(3))
    rng = np.random.default_rng(3)
    _c, heat2, _r, mask2, ignore2 = T.det_sample(img, [dice[1]], rng)
    assert np.array_equal(heat, heat2) and np.array_equal(mask, mask2)  # no target of the whole die
    assert ignore2.sum() == 0
    assert ignore.sum() > 0  # the whole die in this crop: no loss under it, nor at the other die's peak
    assert np.all(ignore[heat > 0.05] == 0)
    # the focal loss leaves out the negatives under an ignored box
    logit = torch.full((1, 8, 8), 3.0)
    gt = torch.zeros((1, 8, 8))
    some = torch.zeros((1, 8, 8))
    some[0, :4] = 1.0
    assert T.focal(logit, gt, some).item() == pytest.approx(T.focal(logit, gt).item() / 2, rel=1e-5)
    assert T.focal(logit, gt, torch.ones((1, 8, 8))).item() == 0.0


def test_mining_a_whole_die_set_reads_one_proposal_per_die(tiny_set: Path) -> None:
    T = _train_module()
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00000.png"))
    dice = [{"value": 4, "box": [100.0, 100.0, 160.0, 180.0], "inside": True, "whole": True}]
    props = [((104.0, 100.0, 156.0, 140.0), 0.9),  # the top face
             ((104.0, 140.0, 156.0, 178.0), 0.5),  # a side face: inside the box, not read
             ((300.0, 300.0, 340.0, 340.0), 0.7)]  # nothing there: not a die
    got = T.dice_mine.mine_inside(img, dice, props, T.crop_for_classifier)
    assert [y for _c, y in got] == [4, 0]
    assert np.array_equal(got[0][0], T.crop_for_classifier(img, [104.0, 100.0, 156.0, 140.0]))


def test_a_fine_tune_draws_the_crops_its_classifier_is_unsure_of_more_often(tiny_set: Path) -> None:
    """--cls-hard BOOST BELOW (dice_crops.hard_weights): crops whose label the --cls-init
    classifier reads under BELOW are drawn BOOST times as often as the others."""
    import json

    T = _train_module()
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00000.png"))
    dice = json.loads((tiny_set / "labels.json").read_text())["images"][0]["dice"]
    crops = [T.crop_for_classifier(img, d["box"]).astype(np.float32) for d in dice]
    X = np.stack(crops + crops)
    Y = np.int64([d["value"] for d in dice] + [0] * len(dice))  # each die again, labelled "not a die"
    model = D.MODELS / "dice_cls.onnx"
    w = T.hard_weights(X, Y, model, "base", 4.0, 0.9)
    n = len(dice)
    assert w.shape == (2 * n,) and np.isclose(w.sum(), 1.0)
    assert np.allclose(w[n:], w[n:].max())  # every wrongly labelled crop is hard
    assert (w[n:] > 3.9 * w[:n]).sum() >= n - 1  # the right labels read surely, but for one at most
    assert np.allclose(T.hard_weights(X, Y, model, "base", 1.0, 0.9), 1 / (2 * n))
    _x, y = next(T.numpy_batches(X.astype(np.float16), Y, 4000, np.random.default_rng(1), w))
    assert float((y.numpy() == 0).mean()) > 0.7  # 0.8 expected, 0.5 drawn evenly
    with pytest.raises(ValueError, match="boost"):
        T.hard_weights(X, Y, model, "base", 0.5, 0.9)


def test_the_detectors_batches_drawn_by_workers_are_the_same_for_any_number(tiny_set: Path) -> None:
    """--det-workers N: batch k comes from its own stream, so 1 and 3 workers draw the same batches,
    each batch differs from the next, and the workers' batches go to the device as tensors."""
    T = _train_module()
    real = T.load_real(tiny_set, "none")

    def draw(workers: int) -> list[np.ndarray]:
        T.DET_WORKERS = workers
        try:
            return [b[0].cpu().numpy() for b in T.det_batches(real, np.random.default_rng(4), 5)]
        finally:
            T.DET_WORKERS = 0

    one, three = draw(1), draw(3)
    assert len(one) == len(three) == 5
    assert all(np.array_equal(a, b) for a, b in zip(one, three))
    assert not np.array_equal(one[0], one[1])
    alone = draw(0)  # this process's own draw: as many batches, of the same shape
    assert len(alone) == 5 and alone[0].shape == one[0].shape


def test_a_wide_classifier_trains_and_the_shipped_wide_ones_read_back(tiny_set: Path, tmp_path: Path) -> None:
    """The second look's classifiers (issue 29, eighteenth round): ``--cls-arch wide`` trains on
    the CPU into a model the reader runs, and the shipped ones have that architecture's layers."""
    import torch

    r = _run("scripts/train_dice.py", "--dataset", tiny_set, "--synth", "2", "--only", "cls", "--device", "cpu",
             "--cls-arch", "wide", "--cls-name", "dice_cls_wide.onnx", "--cls-iters", "3", "--out", tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00000.png"))
    rule = D.DiceConfig().second
    assert rule is not None
    cfg = D.DiceConfig(second=SecondLook(tmp_path / "dice_cls_wide.onnx", below=1.0, sure=0.0))
    for reading in D.read_dice(img, cfg):
        assert reading.value in (None, 1, 2, 3, 4, 5, 6)
    N = _nets()
    for path in rule.paths:
        model = N.Cls("wide")
        N.load_onnx_cls(model, path, "wide")  # a SystemExit if its layers were not the wide ones
        x = torch.zeros(1, 3, D.CLS_SIZE, D.CLS_SIZE)
        assert model.eval()(x).shape == (1, 7)
