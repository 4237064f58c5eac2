"""Seconds per test file from a pytest --junitxml report, as tests/file_times.json (the order in
which the workers of scripts/test take the files, slowest first: tests/conftest.py).

    ./scripts/test --junitxml=/tmp/run.xml
    .venv/bin/python scripts/file_times.py /tmp/run.xml > tests/file_times.json

Only files that took a second or more are kept; times are rounded to the second."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_file(classname: str) -> str | None:
    """The test file of a junit ``classname`` ("tests.ui.test_flow" or "tests.x.test_y.TestZ")."""
    parts = classname.split(".")
    for n in range(len(parts), 0, -1):
        path = "/".join(parts[:n]) + ".py"
        if (ROOT / path).is_file():
            return path
    return None


def file_times(report: Path) -> dict[str, float]:
    times: dict[str, float] = defaultdict(float)
    for case in ET.parse(report).iter("testcase"):
        path = test_file(case.get("classname", ""))
        if path is not None:
            times[path] += float(case.get("time", 0))
    return {p: round(t) for p, t in sorted(times.items(), key=lambda kv: -kv[1]) if t >= 1.0}


if __name__ == "__main__":
    json.dump(file_times(Path(sys.argv[1])), sys.stdout, indent=0)
    sys.stdout.write("\n")
