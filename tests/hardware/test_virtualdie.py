"""The virtual die, in-process and end to end against `companion dice watch` (subprocesses)."""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from hardware.protocol import Expected
from hardware.serialdie import CONNECTED, SerialDie
from hardware.virtualdie import VirtualDie, dice_for, main

ROOT = Path(__file__).resolve().parents[2]


def test_virtual_die_throws_reach_the_reader(tmp_path: Path, recorder: Any) -> None:
    throws, states = recorder(), recorder()
    with VirtualDie("chopchop", "cat", seed=3, link=tmp_path / "die") as vd:
        assert os.readlink(tmp_path / "die") == vd.path
        with SerialDie(vd.port, expected=Expected.for_game("chopchop", "cat"), on_throw=throws,
                       on_state=states):
            states.wait_for(lambda s: s.status == CONNECTED)
            sent = [vd.roll() for _ in range(20)]
            throws.wait_for(lambda t: len(throws.snapshot()) >= 20)
            assert [t.dice for t in throws.snapshot()] == sent
            assert {v for (v,) in sent} <= {1, 2, 3}
            vd.battery(42)
            states.wait_for(lambda s: s.battery == 42)
    assert not (tmp_path / "die").exists()


def test_dice_per_game_and_side() -> None:
    assert dice_for("katenmuis", None) == ((1, 2, 3, 4, 5, 6),) * 2
    assert dice_for("chopchop", "cat") == ((1, 1, 2, 2, 2, 3),)
    assert dice_for("chopchop", "mice") == ((1, 1, 2, 2, 3, 4),)
    assert dice_for("kilkenny", None) == ((1, 2, 3, 4, 5, 6),)
    with pytest.raises(ValueError):
        dice_for("qubism", None)
    a = [VirtualDie("katenmuis", seed=9).throw() for _ in range(3)]
    assert a[0] == a[1] == a[2]  # the same seed gives the same first throw


def test_bad_arguments_are_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--every", "0"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit):
        main(["--game", "qubism"])


# ------------------------------------------------------------------ end to end


class Proc:
    """A subprocess whose stdout and stderr lines are collected by threads."""

    def __init__(self, args: list[str]) -> None:
        self.p = subprocess.Popen(args, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)
        self.out: queue.Queue[str] = queue.Queue()
        self.err_lines: list[str] = []
        assert self.p.stdout is not None and self.p.stderr is not None
        threading.Thread(target=self._pump, args=(self.p.stdout, self.out.put), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.p.stderr, self.err_lines.append), daemon=True).start()

    @staticmethod
    def _pump(stream: IO[str], put: Any) -> None:
        for line in stream:
            put(line.rstrip("\n"))

    def line(self, timeout: float = 10.0) -> str:
        return self.out.get(timeout=timeout)

    def stop(self, sig: int) -> int:
        if self.p.poll() is None:
            self.p.send_signal(sig)
        try:
            return self.p.wait(30)  # a loaded 2-core machine can be slow to run the handler
        except subprocess.TimeoutExpired:
            self.signals = self._signal_masks()  # why it did not stop, for the failure message
            self.p.kill()
            return self.p.wait(5)

    def _signal_masks(self) -> str:
        try:
            status = Path(f"/proc/{self.p.pid}/status").read_text()
        except OSError:
            return "?"
        return " ".join(line for line in status.splitlines() if line.startswith(("SigBlk", "SigIgn", "SigCgt", "State")))


def _virtual_dice(link: Path, seed: int) -> Proc:
    proc = Proc([sys.executable, "-m", "companion", "virtual-dice", "--game", "katenmuis", "--every", "0.25",
                 "--rolling-time", "0.02", "--seed", str(seed), "--link", str(link)])
    first = proc.line()
    assert first.startswith("virtual die on /dev/"), first
    assert link.is_symlink()
    return proc


def _sent(proc: Proc) -> list[tuple[int, int]]:
    out = []
    while True:
        try:
            line = proc.out.get_nowait()
        except queue.Empty:
            return out
        if line.startswith("sent ROLL "):
            a, b = line.split()[2:]
            out.append((int(a), int(b)))




WATCHERS = ["hardware.cli"]
if importlib.util.find_spec("vision.cli") is not None:
    WATCHERS.append("companion dice watch")


@pytest.fixture
def cleanup() -> Iterator[list[Proc]]:
    procs: list[Proc] = []
    yield procs
    for p in procs:
        p.stop(signal.SIGKILL)


@pytest.mark.parametrize("watcher", WATCHERS)
def test_dice_watch_against_virtual_dice_end_to_end(tmp_path: Path, watcher: str, cleanup: list[Proc]) -> None:
    link = tmp_path / "ttyDIE"
    die = _virtual_dice(link, seed=11)
    cleanup.append(die)
    if watcher == "hardware.cli":
        cmd = [sys.executable, "-c", "import sys; from hardware.cli import main; sys.exit(main(sys.argv[1:]))",
               "watch"]
    else:
        cmd = [sys.executable, "-m", "companion", "dice", "watch"]
    watch = Proc(cmd + ["--serial", str(link), "--baud", "115200", "--game", "katenmuis", "--jsonl"])
    cleanup.append(watch)

    def throws(n: int) -> list[dict[str, Any]]:
        got = [json.loads(watch.line(timeout=15)) for _ in range(n)]
        for g in got:
            assert set(g) == {"dice", "source", "t"} and g["source"] == "serial"
            assert len(g["dice"]) == 2 and all(1 <= v <= 6 for v in g["dice"])
            assert abs(g["t"] - time.time()) < 30
        return got

    first = throws(4)
    seen = [tuple(g["dice"]) for g in first]
    sent = _sent(die)
    deadline = time.monotonic() + 5  # the die logs "sent" after writing: its log may lag the watcher
    while not any(sent[i:i + 4] == seen for i in range(len(sent))) and time.monotonic() < deadline:
        time.sleep(0.05)
        sent += _sent(die)
    # what was read is what the die sent, in order, none invented (the first throws may be
    # sent before the watcher opened the port)
    assert any(sent[i:i + 4] == seen for i in range(len(sent))), (sent, seen)

    # pull the cable: the die goes away, a new one appears under the same path
    assert die.stop(signal.SIGTERM) == 0
    deadline = time.monotonic() + 5
    while not any("waiting" in e for e in watch.err_lines) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any("waiting" in e for e in watch.err_lines), watch.err_lines
    while not watch.out.empty():
        watch.out.get_nowait()
    die2 = _virtual_dice(link, seed=12)
    cleanup.append(die2)
    again = [tuple(g["dice"]) for g in throws(2)]
    sent2: list[tuple[int, int]] = []
    deadline = time.monotonic() + 5
    while not any(sent2[i:i + 2] == again for i in range(len(sent2))) and time.monotonic() < deadline:
        sent2 += _sent(die2)  # the die prints "sent" just after writing: allow it a moment
        time.sleep(0.05)
    assert any(sent2[i:i + 2] == again for i in range(len(sent2))), (sent2, again)
    assert watch.p.poll() is None  # still running across the disconnect

    assert watch.stop(signal.SIGINT) == 0, getattr(watch, "signals", "")
    assert die2.stop(signal.SIGTERM) == 0
    assert any("connected" in e for e in watch.err_lines)
    assert not any("Traceback" in e for e in watch.err_lines), watch.err_lines


def test_watch_reports_rejected_lines_on_stderr(tmp_path: Path, cleanup: list[Proc]) -> None:
    with VirtualDie("katenmuis", link=tmp_path / "die") as vd:
        watch = Proc([sys.executable, "-m", "hardware.cli", "watch", "--serial", vd.port, "--game", "katenmuis",
                      "--jsonl"])
        cleanup.append(watch)
        deadline = time.monotonic() + 10
        while not any("connected" in e for e in watch.err_lines) and time.monotonic() < deadline:
            time.sleep(0.05)
        vd.send("ROLL 9 9")
        vd.send(b"\xff\xfe\n")
        vd.roll([2, 3])
        assert json.loads(watch.line())["dice"] == [2, 3]
        assert watch.stop(signal.SIGINT) == 0, getattr(watch, "signals", "")
    errors = [json.loads(e) for e in watch.err_lines if e.startswith("{")]
    assert errors[0] == {"error": "9 is not a face of this die (1-6)", "line": "ROLL 9 9"}
    assert errors[1]["error"] == "not UTF-8 text"


def test_watch_stops_on_sigint_even_when_started_with_it_ignored(tmp_path: Path, cleanup: list[Proc]) -> None:
    """A shell's background job starts with SIGINT ignored (and Python keeps it so): the watcher
    installs its own handler, so Ctrl-C / SIGINT still ends it cleanly."""
    with VirtualDie("katenmuis", link=tmp_path / "die") as vd:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)  # inherited by the child, as from `cmd &`
        try:
            watch = Proc([sys.executable, "-m", "hardware.cli", "watch", "--serial", vd.port, "--jsonl"])
        finally:
            signal.signal(signal.SIGINT, old)
        cleanup.append(watch)
        deadline = time.monotonic() + 15
        while not any("connected" in e for e in watch.err_lines) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any("connected" in e for e in watch.err_lines), watch.err_lines
        assert watch.stop(signal.SIGINT) == 0, getattr(watch, "signals", "")
