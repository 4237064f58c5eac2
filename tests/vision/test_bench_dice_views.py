"""bench/dice_views.py: how a scheme of test-time views is scored against the shipped one, and a
run on a few rendered scenes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from bench import dice_views
from vision.synth import dice as synth_dice

ROOT = Path(__file__).resolve().parents[2]


def _p(value: int, prob: float) -> np.ndarray:
    """Probabilities (not a die, 1..6) with ``prob`` on ``value`` and the rest spread evenly."""
    p = np.full(7, (1 - prob) / 6, np.float32)
    p[value] = prob
    return p


def _record(labels: list[int], value: int | None, up: np.ndarray, turned: np.ndarray, shifted: np.ndarray,
            grown: np.ndarray, where: str = "var-dim") -> dict:
    return {"set": where, "file": "x.png", "labels": labels, "value": value,
            "views": {"up": up[None], "turns": np.stack([turned] * 3),
                      "shifts": np.stack([shifted] * 12), "grows": np.stack([grown] * 3)}}


def test_compare_counts_what_a_scheme_changes() -> None:
    shipped_wrong = _record([2], 1, _p(1, 0.8), _p(1, 0.9), _p(2, 0.95), _p(2, 0.95))  # a 2 read as 1
    shipped_right = _record([3], 3, _p(3, 0.9), _p(3, 0.8), _p(2, 0.95), _p(2, 0.95), where="dice-dev")
    extra = _record([], 4, _p(4, 0.9), _p(4, 0.9), _p(0, 0.9), _p(4, 0.9))  # no die under it
    asked_else = _record([5], None, _p(5, 0.9), _p(5, 0.9), _p(5, 0.9), _p(5, 0.9))  # cut by the frame
    recs = [shipped_wrong, shipped_right, extra, asked_else]
    every = dice_views.SCHEMES["every view"][0]
    n = dice_views.compare(recs, every, 0.65)
    # every view (19: upright, 3 turned, 12 shifted, 3 grown): the 2 read as 1 becomes a 2 (15 views
    # say 2); the right 3 becomes a 2 the same way; the extra die's shifted views say "not a die",
    # so it is asked about; the die asked about for another reason (a cut box) stays so
    assert n == {"bad_removed": 2, "bad_added": 1, "right_lost": 1, "right_won": 1, "dice_dev_right_lost": 1}
    assert dice_views.compare(recs, dice_views.SHIPPED, 0.65) == dict.fromkeys(n, 0)
    # upright only: nothing changes here (every upright view agrees with the turned ones)
    assert dice_views.compare(recs, dice_views.SCHEMES["upright only"][0], 0.65) == dict.fromkeys(n, 0)


def test_outcome() -> None:
    rec = _record([2], 2, _p(2, 0.9), _p(2, 0.9), _p(2, 0.9), _p(2, 0.9))
    assert dice_views.outcome(rec, _p(2, 0.9), 0.65) == "right"
    assert dice_views.outcome(rec, _p(3, 0.9), 0.65) == "wrong"
    assert dice_views.outcome(rec, _p(3, 0.6), 0.65) == "asked"
    assert dice_views.outcome({**rec, "labels": []}, _p(3, 0.9), 0.65) == "extra"


def test_runs_on_rendered_sets(tmp_path: Path) -> None:
    synth_dice.write_dataset(tmp_path / "sets" / "mixed", 3, seed=5)
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "dice_views.py"), str(tmp_path / "sets"),
                          "--dataset", str(tmp_path / "none"), "--json"],
                         capture_output=True, text=True, timeout=300, check=True)
    doc = json.loads(out.stdout)
    assert doc["sets"] == ["mixed"]
    assert [r["scheme"] for r in doc["schemes"]][0] == "upright only"
    for row in doc["schemes"]:
        assert row["bad_removed"] <= doc["wrong_or_extra"]
        assert row["right_lost"] + row["bad_removed"] <= doc["unsure_readings"]
    empty = subprocess.run([sys.executable, str(ROOT / "bench" / "dice_views.py"), str(tmp_path / "none"),
                            "--dataset", str(tmp_path / "none")], capture_output=True, text=True, timeout=120)
    assert empty.returncode == 2 and "no labelled sets" in empty.stderr
