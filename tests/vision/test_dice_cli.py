"""``companion dice`` (vision.cli.main): read, eval, watch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synth import dice as synth_dice
from vision.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_help_for_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    for sub in ([], ["read"], ["eval"], ["watch"]):
        with pytest.raises(SystemExit) as e:
            main([*sub, "--help"])
        assert e.value.code == 0
        assert "companion dice" in capsys.readouterr().out


def test_read_jsonl_and_error_line(dice_dev, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root, entries = dice_dev
    good = [str(root / e["file"]) for e in entries[:2]]
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"not a jpeg")
    rc = main(["read", good[0], str(bad), good[1], "--jsonl"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert rc != 0
    assert [x["file"] for x in lines] == [good[0], str(bad), good[1]]
    assert "error" in lines[1] and "dice" not in lines[1]
    for x in (lines[0], lines[2]):
        assert x["ms"] >= 0 and isinstance(x["unreadable"], list)
        for d in x["dice"]:
            assert 1 <= d["value"] <= 6 and len(d["box"]) == 4 and 0 <= d["confidence"] <= 1
            assert isinstance(d["colour"], str)
    assert len(lines[0]["dice"]) + len(lines[0]["unreadable"]) >= 1


def test_read_human_readable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img, _ = synth_dice.render_scene(np.random.default_rng(2))
    p = tmp_path / "a.png"
    cv2.imwrite(str(p), img)
    assert main(["read", str(p)]) == 0
    assert capsys.readouterr().out.startswith(f"{p}: ")


def test_eval_json_on_rendered_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ds = synth_dice.write_dataset(tmp_path / "ds", 3, seed=4)
    assert main(["eval", str(ds), "--json"]) == 0
    fig = json.loads(capsys.readouterr().out)
    for k in ("detect_recall", "value_recall", "precision", "images_fully_right", "median_ms"):
        assert 0 <= fig[k] <= (1 if k != "median_ms" else 1e6)
    assert fig["images"] == 3
    assert main(["eval", str(ds), "--split", "train"]) == 2  # no such images: an error, not a crash


def test_eval_carries_a_scorers_own_counts_summed(tmp_path: Path) -> None:
    from vision.cli import evaluate, score_entry

    ds = synth_dice.write_dataset(tmp_path / "ds", 3, seed=4)
    plain, _ = evaluate(ds)

    def with_readings(entry: dict, preds: list) -> dict[str, int]:  # e.g. the bench's crowd counts
        return {**score_entry(entry, preds), "readings": len(preds)}

    fig, per = evaluate(ds, score=with_readings)
    assert fig["readings"] == sum(p["preds"] + p["unreadable"] for p in per) > 0
    assert {k: v for k, v in fig.items() if "ms" not in k and k != "readings"} == \
        {k: v for k, v in plain.items() if "ms" not in k}


def test_watch_images_folder_reports_one_throw(tmp_path: Path) -> None:
    frames, labels = synth_dice.render_throw(np.random.default_rng(7), fps=10.0, roll_s=1.0, hand_s=0.6, rest_s=1.6)
    d = tmp_path / "frames"
    d.mkdir()
    for i, (_, f) in enumerate(frames):
        cv2.imwrite(str(d / f"{i:04d}.png"), f)
    r = subprocess.run([sys.executable, "-c", "import sys; from vision.cli import main; sys.exit(main(sys.argv[1:]))",
                        "watch", "--images", str(d), "--fps", "10", "--window", "0.5", "--jsonl"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(lines) == 1
    assert lines[0]["dice"] == sorted(x["value"] for x in labels["dice"])
    assert lines[0]["source"] == "images" and lines[0]["t"] > 1e9 and len(lines[0]["details"]) == len(labels["dice"])


def test_watch_serial_dispatches_to_hardware(monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    calls = []
    fake = types.ModuleType("hardware.serialdie")
    fake.watch_serial = lambda port, baud, out, err, game: calls.append((port, baud, game)) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hardware.serialdie", fake)
    assert main(["watch", "--serial", "loop://", "--baud", "115200", "--game", "katenmuis"]) == 0
    assert calls == [("loop://", 115200, "katenmuis")]


def test_watch_stops_on_sigint_even_when_started_with_it_ignored(tmp_path: Path) -> None:
    """Started as a shell's background job (SIGINT ignored), ``dice watch`` still ends on SIGINT."""
    import signal
    import time

    frames, _labels = synth_dice.render_throw(np.random.default_rng(7), fps=10.0, roll_s=0.5, hand_s=0.3, rest_s=0.5)
    d = tmp_path / "frames"
    d.mkdir()
    for i, (_, f) in enumerate(frames):
        cv2.imwrite(str(d / f"{i:04d}.png"), f)
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)  # inherited by the child
    try:
        p = subprocess.Popen([sys.executable, "-c", "import sys; from vision.cli import main; sys.exit(main(sys.argv[1:]))",
                              "watch", "--images", str(d), "--fps", "10", "--loop", "--jsonl"],
                             cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    finally:
        signal.signal(signal.SIGINT, old)
    try:
        assert p.stderr is not None
        line = p.stderr.readline()  # "source opening/running": the watch loop is up
        assert "source" in line, line
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        assert p.wait(30) == 0
    finally:
        if p.poll() is None:
            p.kill()
            p.wait(5)
