"""The real dice sets of ``../shared/datasets`` (its README), each scored by its own box convention.

dice-dev boxes the top face, rf-dice-public mostly the top face (on small or steeply seen dice
part of the sides too), rune55-trays the die as seen from above (the top face and a sliver of
side), epanemu-dice the whole visible die (the top face and the sides). The reader always boxes
the top face, so ``companion dice eval`` (``vision.cli.evaluate``) pairs a prediction with a label
by the set's ``box`` sentence (``vision.cli.box_convention``):

- ``top`` (dice-dev, rf-dice-public): the centre of either box inside the other grown by 20 %
  (``vision.cli.boxes_match``);
- ``inside`` (rune55-trays, epanemu-dice): the reader's box inside the set's, that is its centre
  inside the label box grown by 20 % and at least half its area inside that grown box
  (``vision.cli.inside_match``).

Either way pairs are one to one (greedy by confidence, same value first), so a side face read
as a die of its own is an extra prediction (against precision when it has a value) and never a
second die found.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vision.cli import evaluate
from vision.dice import DiceConfig

REAL_SETS = ("dice-dev", "rune55-trays", "epanemu-dice", "rf-dice-public")


def evaluate_real(dataset: Path, cfg: DiceConfig, split: str = "test") -> dict[str, Any]:
    """``companion dice eval``'s figures for one real set, paired by its convention."""
    fig = evaluate(dataset, split, cfg)[0]
    fig["dataset"] = dataset.name
    return fig


def datasets_dir(root: Path) -> Path:
    """``../shared/datasets`` beside the checkout (or beside its parent: a worktree's)."""
    for base in (root.parent, root.parent.parent):
        if (base / "shared" / "datasets").is_dir():
            return base / "shared" / "datasets"
    return root.parent / "shared" / "datasets"


def table(results: list[dict[str, Any]]) -> list[str]:
    """The side-by-side table (markdown) of real and synthetic sets."""
    rows = ["| set | split (pairing) | dice | value recall | precision | wrong values | unreadable | extra "
            "| median ms wall (CPU) |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for f in results:
        rows.append(f"| {f['dataset']} | {f['split']} ({f.get('match', 'top')}) | {f['dice']} "
                    f"| {f['value_recall']:.3f} | {f['precision']:.3f} | {f.get('wrong_values', 0)} | {f['unreadable']} "
                    f"| {f['extra_predictions']} | {f['median_ms']:.1f} ({f['median_cpu_ms']:.1f}) |")
    return rows
