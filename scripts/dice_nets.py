"""The dice models as PyTorch modules, for scripts/train_dice.py: the detector (``Det``, with
the stems ``DET_ARCHS``) and the classifier (``Cls``, with the widths ``CLS_WIDTHS``); reading
an exported model back into them (``load_onnx_det``, ``load_onnx_cls``), and what a detector
needs to learn from another (``teach_stem``, ``distil_loss``). The reader never imports this:
it runs the ONNX exports with OpenCV."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F

from vision.dice import CLS_SIZE


def cbr(i: int, o: int, s: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]


def patch(i: int, o: int, k: int) -> list[nn.Module]:
    """A k x k convolution with stride k (non-overlapping patches), batch norm, ReLU."""
    return [nn.Conv2d(i, o, k, k, 0, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]


class Separable(nn.Module):
    """A 3 x 3 convolution of each channel on its own (stride ``s``), then a 1 x 1 one mixing
    them: what a full 3 x 3 convolution sees, for a fraction of its work (no batch norm between)."""

    def __init__(self, i: int, o: int, s: int = 1) -> None:
        super().__init__()
        self.dw = nn.Conv2d(i, i, 3, s, 1, groups=i, bias=False)
        self.pw = nn.Conv2d(i, o, 1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pw(self.dw(x))


# detector stems to /4 (docs/readme/dice.md, seventh round): "base", the shipped one, is two 3x3
# stride-2 convolutions and one 3x3; OpenCV's dnn runs strided 3x3 convolutions slowly, and the
# 12 -> 24 one at 160 px is a quarter of the detector's time. "patch" cuts the image into 4 x 4
# patches at once; "patch2" keeps the first convolution and makes the second 2 x 2 patches;
# "sep" makes the second a separable one (Separable). Each keeps the layer names of the rest.
DET_ARCHS = ("base", "patch", "patch2", "sep")


class Det(nn.Module):
    def __init__(self, arch: str = "base") -> None:
        super().__init__()
        if arch == "patch":
            self.s2 = nn.Sequential(*patch(3, 24, 4), *cbr(24, 24))  # /4
        elif arch == "patch2":
            self.s2 = nn.Sequential(*cbr(3, 12, 2), *patch(12, 24, 2), *cbr(24, 24))  # /4
        elif arch == "sep":
            self.s2 = nn.Sequential(*cbr(3, 12, 2), Separable(12, 24, 2), nn.BatchNorm2d(24), nn.ReLU(inplace=True),
                                    *cbr(24, 24))  # /4
        else:
            self.s2 = nn.Sequential(*cbr(3, 12, 2), *cbr(12, 24, 2), *cbr(24, 24))  # /4
        self.s3 = nn.Sequential(*cbr(24, 32, 2), *cbr(32, 32))  # /8
        self.s4 = nn.Sequential(*cbr(32, 48, 2), *cbr(48, 48), *cbr(48, 48))  # /16
        self.l4 = nn.Conv2d(48, 32, 1)
        self.m3 = nn.Sequential(*cbr(32, 32))
        self.l3 = nn.Conv2d(32, 24, 1)
        self.m2 = nn.Sequential(*cbr(24, 24))
        self.head = nn.Conv2d(24, 5, 1)
        self.head.bias.data[0] = -2.2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a = self.s2(x)
        b = self.s3(a)
        c = self.s4(b)
        b = self.m3(b + F.interpolate(self.l4(c), scale_factor=2.0, mode="nearest"))
        a = self.m2(a + F.interpolate(self.l3(b), scale_factor=2.0, mode="nearest"))
        return self.head(a)  # 0: centre logit, 1-2: log size (w,h) in cells, 3-4: offset


# classifier widths: "base" is the shipped model's (about 17 M multiply-adds a crop), "slim" does
# about half the work (the forwards are most of the reader's time on the Pi); "wide" about 2.3
# times base's (issue 29, eighteenth round: a second look read only at the dice asked about)
CLS_WIDTHS = {"base": (24, 32, 48, 64, 64, 64), "slim": (16, 24, 32, 48, 48, 64),
              "wide": (32, 48, 64, 96, 128, 128)}


class Cls(nn.Module):
    def __init__(self, arch: str = "base") -> None:
        super().__init__()
        a, b, c, d, e, f = CLS_WIDTHS[arch]
        self.f = nn.Sequential(*cbr(3, a), *cbr(a, b, 2), *cbr(b, c), *cbr(c, d, 2),
                               *cbr(d, e), *cbr(e, f, 2))
        g = (CLS_SIZE + 7) // 8
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(f * g * g, 128), nn.ReLU(inplace=True),
                                nn.Dropout(0.2), nn.Linear(128, 7))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.f(x))


def _onnx_weights(path: Path) -> tuple[Any, dict[str, torch.Tensor]]:
    """The graph of the ONNX model at ``path`` and its weights by name, as tensors."""
    import onnx
    from onnx import numpy_helper

    g = onnx.load(str(path)).graph
    return g, {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in g.initializer}


def _norm_after(mods: dict[str, nn.Module], name: str) -> nn.BatchNorm2d | None:
    """The batch norm right after the layer ``name`` in its Sequential ("s2.3" -> "s2.4"), if any."""
    head, _, i = name.rpartition(".")
    bn = mods.get(f"{head}.{int(i) + 1}") if head and i.isdigit() else None
    return bn if isinstance(bn, nn.BatchNorm2d) else None


def _set_conv(conv: nn.Conv2d, bn: nn.BatchNorm2d | None, w: torch.Tensor, b: torch.Tensor) -> None:
    """An exported convolution (its batch norm folded in) back into ``conv`` and ``bn``: the
    batch norm becomes the identity plus the bias (kept so in eval mode: keep_loaded_norms)."""
    conv.weight.copy_(w)
    if bn is None:
        conv.bias.copy_(b)
        return
    bn.running_mean.zero_()
    bn.running_var.fill_(1.0)
    bn.weight.fill_(1.0)
    bn.bias.copy_(b)
    bn.eps = 1e-12  # the identity (torch 2.9 and later refuse an eps of 0: "batch_norm eps must be positive")


def load_onnx_det(model: Det, path: Path) -> list[str]:
    """Set ``model``'s layers to those of the detector in ``path`` (an export of ``Det``) where
    their shapes agree; returns the names of those left as they were (a different stem)."""
    g, init = _onnx_weights(path)
    mods = dict(model.named_modules())
    convs = [(n, _onnx_layer(n.name)) for n in g.node if n.op_type == "Conv"]
    shift = stem_shift(model, [name for _, name in convs])
    loaded = set()
    with torch.no_grad():
        for node, name in convs:
            if name.startswith("s2."):  # the stems are aligned at their ends (stem_shift)
                head, _, rest = name[3:].partition(".")
                if int(head) < shift:
                    continue  # a layer before the other stem's part that this one keeps
                name = ".".join(["s2", str(int(head) - shift)] + ([rest] if rest else []))
            conv = mods.get(name) if name in mods else mods.get(name.split(".")[0])  # l4, l3, head
            if conv is None:
                raise SystemExit(f"{path}: no layer {name} in this detector")
            w = init[node.input[1]]
            if isinstance(conv, nn.Conv2d) and tuple(w.shape) == tuple(conv.weight.shape):
                _set_conv(conv, _norm_after(mods, name), w, init[node.input[2]])
                loaded.add(_place(name))
    fresh = []  # the layers not loaded
    for n, m in model.named_modules():
        n = _place(n)
        if isinstance(m, nn.Conv2d) and n not in loaded and n not in fresh:
            fresh.append(n)
    print(f"detector initialised from {path}: {len(loaded)} layers, new: {', '.join(fresh) or 'none'}", flush=True)
    return fresh


def _place(name: str) -> str:
    """A layer's name, a stem's by its place in s2 ("s2.3.dw" -> "s2.3"; others as they are)."""
    return ".".join(name.split(".")[:2]) if name.startswith("s2.") else name


def _onnx_layer(node_name: str) -> str:
    """The module an exported node came from ("/s2/s2.3/Conv" -> "s2.3", "/s2/s2.3/dw/Conv" ->
    "s2.3.dw", "/head/Conv" -> "head")."""
    return node_name.strip("/").rsplit("/", 1)[0].replace("/", ".").split(".", 1)[-1]


def stem_shift(model: Det, other_convs: list[str]) -> int:
    """How many more places the stem of another detector (its conv layers named ``other_convs``,
    each followed by a batch norm and a ReLU) has than ``model``'s: the two stems end alike (the
    /4 map's 24 -> 24 convolution), so its layer ``s2.k`` is ``model``'s ``s2.(k - shift)``."""
    last = max(int(n.split(".")[1]) for n in other_convs if n.startswith("s2."))
    return last + 3 - len(model.s2)


def distil_loss(y: torch.Tensor, teacher: Det, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """How far the detector's outputs ``y`` are from the teacher's on ``x``: its heat map's logits
    (squared error, where either is not sure there is nothing) and its boxes (L1, weighted by the
    teacher's heat)."""
    with torch.no_grad():
        t = teacher(x)
        heat = torch.sigmoid(t[:, 0:1])
        care = ((t[:, 0] > -4) | (y[:, 0] > -4)).float()  # below about 0.02 both say "nothing"
    lh = ((y[:, 0] - t[:, 0]) ** 2 * care).sum() / care.sum().clamp(min=1)
    lr_ = ((y[:, 1:5] - t[:, 1:5]).abs() * heat).sum() / heat.sum().clamp(min=1)
    return lh, lr_


def soft_loss(y: torch.Tensor, t: torch.Tensor, temp: float = 2.0) -> torch.Tensor:
    """How far a classifier's logits ``y`` are from a teacher's ``t``: the KL divergence of their
    probabilities softened by ``temp``, times ``temp`` squared (Hinton et al.'s scaling)."""
    return F.kl_div(F.log_softmax(y / temp, 1), F.log_softmax(t / temp, 1), reduction="batchmean",
                    log_target=True) * temp * temp


def _fresh_modules(model: Det, fresh: list[str]) -> list[nn.Module]:
    """The layers named in ``fresh`` and their batch norms."""
    mods = dict(model.named_modules())
    out = []
    for name in fresh:
        bn = _norm_after(mods, name)
        out += [mods[name]] + ([bn] if bn is not None else [])
    return out


def keep_loaded_norms(model: Det, fresh: list[str]) -> None:
    """Training mode for the new layers' batch norms only: the loaded ones hold the folded
    export's identity and must not learn statistics."""
    model.eval()
    for m in _fresh_modules(model, fresh):
        m.train()


def teach_stem(model: Det, teacher: Det, fresh: list[str], batches: Callable[[], torch.Tensor],
               iters: int) -> None:
    """Train only ``model``'s new stem layers (``fresh``, all in ``s2``) to give what the
    teacher's stem gives before the ReLU after the last new layer, the rest of ``model`` being
    the teacher's: a new, cheaper stem learns the old one's features first. ``batches`` gives
    the inputs (on the models' device)."""
    if not all(n.startswith("s2.") for n in fresh):
        raise SystemExit(f"--stem-iters teaches a new stem (s2) only, not {', '.join(fresh)}")
    last = max(int(n.split(".")[1]) for n in fresh)  # the index of the last new conv in s2
    cut = last + 2 + len(teacher.s2) - len(model.s2)  # the same place in the teacher's stem
    params = [p for m in _fresh_modules(model, fresh) for p in m.parameters()]
    keep_loaded_norms(model, fresh)
    opt = torch.optim.AdamW(params, 3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=iters, pct_start=0.1)
    t0 = time.time()
    for it in range(iters):
        x = batches()
        with torch.no_grad():
            want = teacher.s2[:cut](x)
        loss = F.mse_loss(model.s2[: last + 2](x), want)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 100 == 0:
            print(f"stem {it} loss {loss.item():.4f} {time.time() - t0:.0f}s", flush=True)
    model.eval()


def load_onnx_cls(model: Cls, path: Path, arch: str) -> None:
    """Set ``model`` to the classifier in ``path`` (an export of ``Cls``, whose batch norms the
    export folded into the convolutions: each becomes the identity plus the conv's bias)."""
    g, init = _onnx_weights(path)
    convs = [n for n in g.node if n.op_type == "Conv"]
    gemms = [n for n in g.node if n.op_type == "Gemm"]
    mods = list(model.f)
    pairs = [(mods[i], mods[i + 1]) for i in range(0, len(mods), 3)]
    if len(convs) != len(pairs) or len(gemms) != 2:
        raise SystemExit(f"{path}: not a classifier of this architecture ({arch})")
    with torch.no_grad():
        for node, (conv, bn) in zip(convs, pairs):
            w, b = init[node.input[1]], init[node.input[2]]
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise SystemExit(f"{path}: layer shapes differ from --cls-arch {arch}")
            _set_conv(conv, bn, w, b)
        for node, lin in zip(gemms, (model.fc[1], model.fc[4])):
            lin.weight.copy_(init[node.input[1]])
            lin.bias.copy_(init[node.input[2]])
    print("classifier initialised from", path, flush=True)
