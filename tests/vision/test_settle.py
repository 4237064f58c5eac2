"""Settling: one report per throw, only at rest, never while dice roll or a hand is over them."""

from __future__ import annotations

import numpy as np

from vision.synth import dice as synth_dice
from vision.dice import DieReading, read_dice
from vision.cli import score_image
from vision.settle import SettleConfig, Settler, settled_throws


def _throw(seed: int) -> tuple[list[tuple[float, np.ndarray]], dict]:
    return synth_dice.render_throw(np.random.default_rng(seed), fps=10.0, roll_s=1.0, hand_s=0.6, rest_s=1.6)


def test_rendered_throw_is_reported_once_at_rest() -> None:
    frames, labels = _throw(7)
    rest_starts = 1.6  # roll + hand
    throws = list(settled_throws(frames, SettleConfig(window_s=0.5, armed_at_start=False)))
    assert len(throws) == 1
    th = throws[0]
    assert th.started >= rest_starts - 1e-6  # nothing read while rolling or under the hand
    assert th.t - th.started >= 0.5
    assert th.values == sorted(d["value"] for d in labels["dice"])


def test_two_throws_two_reports_and_nothing_while_still() -> None:
    f1, _ = _throw(11)
    f2, _ = _throw(12)
    dt = f1[-1][0] + 0.1
    stream = f1 + [(t + dt, im) for t, im in f2] + [(f2[-1][0] + dt + 0.1 * k, f2[-1][1]) for k in range(1, 30)]
    throws = list(settled_throws(stream, SettleConfig(window_s=0.5, armed_at_start=False)))
    assert len(throws) == 2
    assert throws[1].started > dt


def _fake_reader(values: list[int]) -> object:
    def read(frame: np.ndarray) -> list[DieReading]:
        return [DieReading(v, (10.0 * i, 0.0, 10.0 * i + 8, 8.0), 0.99, "red") for i, v in enumerate(values)]
    return read


def test_motion_blocks_reports_and_rearms() -> None:
    still = np.full((120, 160, 3), 100, np.uint8)
    moving = [np.roll(still, k, axis=1) for k in range(3)]
    moving[1][40:80, 40:80] = 255
    moving[2][30:90, 60:120] = 0
    s = Settler(SettleConfig(window_s=0.5, quiet_s=0.2), _fake_reader([3, 4]))  # type: ignore[arg-type]
    reports = []
    t = 0.0
    seq = [still] * 10 + moving * 5 + [still] * 12 + [still] * 10
    for f in seq:
        r = s.feed(t, f)
        if r is not None:
            reports.append((t, r))
        t += 0.1
    # the scene at start (armed_at_start) and once after the motion: two reports, none during it
    assert len(reports) == 2
    assert reports[0][0] < 1.0 and reports[1][0] > 2.5
    assert reports[1][1].values == [3, 4]


def test_unstable_reading_is_not_reported() -> None:
    still = np.full((60, 80, 3), 90, np.uint8)
    k = {"n": 0}

    def flicker(frame: np.ndarray) -> list[DieReading]:
        k["n"] += 1
        return [DieReading(1 + k["n"] % 2, (0.0, 0.0, 8.0, 8.0), 0.9, "red")]

    s = Settler(SettleConfig(window_s=0.3), flicker)
    assert all(s.feed(0.1 * i, still) is None for i in range(30))


def test_real_reader_on_still_frame_matches_read_dice() -> None:
    frames, labels = _throw(3)
    last = frames[-1][1]
    got = read_dice(last)
    assert len(got) == len(labels["dice"])  # every die found, nothing else
    s = score_image(labels["dice"], got)
    assert s["right_preds"] == s["preds"] >= len(got) - 1  # no wrong value; at most one asked for


def test_new_dice_are_those_not_lying_there_before() -> None:
    from vision.settle import new_dice, same_dice

    grey = DieReading(4, (10.0, 10.0, 30.0, 30.0), 0.95, "grey")
    blue = DieReading(3, (100.0, 50.0, 120.0, 70.0), 0.95, "blue")
    nudged = DieReading(4, (13.0, 12.0, 33.0, 32.0), 0.95, "grey")  # the same die, a little moved
    turned = DieReading(2, (10.0, 10.0, 30.0, 30.0), 0.95, "grey")  # thrown again on the spot
    assert new_dice([nudged, blue], [grey]) == [blue]
    assert new_dice([turned, blue], [grey]) == [turned, blue]
    assert new_dice([grey], None) == [grey]
    assert same_dice([nudged], [grey]) and not same_dice([grey, blue], [grey]) and not same_dice([grey], None)
