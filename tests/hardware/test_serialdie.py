"""The serial die reader through a real pyserial port on a pseudo-terminal."""

from __future__ import annotations

import itertools
import random
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import serial
from serial.tools.list_ports_common import ListPortInfo

from hardware.protocol import Expected, Hello, Message, Rejected, Throw
from hardware.serialdie import CONNECTED, STOPPED, WAITING, DieState, SerialDie, find_port

from .conftest import Pty, Recorder

_sync = itertools.count()


class Rig:
    """A SerialDie on a pty, with every callback recorded."""

    def __init__(self, pty: Pty, expected: Expected | None = None, **kw: Any) -> None:
        self.pty = pty
        self.throws, self.rejects, self.states, self.messages = Recorder(), Recorder(), Recorder(), Recorder()
        self.die = SerialDie(pty.path, expected=expected, on_throw=self.throws, on_reject=self.rejects,
                             on_state=self.states, on_message=self.messages, **kw)

    def __enter__(self) -> "Rig":
        self.die.start()
        self.states.wait_for(lambda s: s.status == CONNECTED)
        return self

    def __exit__(self, *exc: object) -> None:
        self.die.stop()

    def exchange(self, data: bytes) -> list[Message]:
        """Write ``data``, then a sync line; return the messages that came before the sync."""
        n = next(_sync)
        start = len(self.messages.snapshot())
        self.pty.write(data)
        self.pty.write(f"\nHELLO sync {n}\n".encode())
        self.messages.wait_for(lambda m: isinstance(m, Hello) and m.version == str(n))
        got = self.messages.snapshot()[start:]
        i = next(i for i, m in enumerate(got) if isinstance(m, Hello) and m.version == str(n))
        return got[:i]


KATENMUIS = Expected.for_game("katenmuis")


@pytest.mark.parametrize("data", [
    b"ROLL 3 5\n",
    b"3 5\n",
    b"3,5\n",
    b'{"dice": [3, 5]}\n',
    b"roll 3, 5\r\n",
    b"  3 ,5  \r",
    b"\r\n\r\nROLL 3 5\n\n",
])
def test_accepts_each_form(pty: Pty, data: bytes) -> None:
    with Rig(pty, KATENMUIS) as rig:
        got = rig.exchange(data)
        assert [type(m) for m in got] == [Throw]
        assert got[0].dice == (3, 5)
        assert [t.dice for t in rig.throws.snapshot()] == [(3, 5)]


def test_one_and_many_dice_when_the_count_is_open(pty: Pty) -> None:
    with Rig(pty, Expected()) as rig:
        got = rig.exchange(b"ROLL 4\nROLL 1 2 3\n6,6,6,6\n")
        assert [m.dice for m in got if isinstance(m, Throw)] == [(4,), (1, 2, 3), (6, 6, 6, 6)]


def test_rolling_battery_and_hello_update_the_state(pty: Pty) -> None:
    with Rig(pty, KATENMUIS) as rig:
        rig.exchange(b"HELLO companion-die 1.2\nBATT 73\nROLLING\n")
        st = rig.die.state
        assert st.battery == 73 and st.rolling
        rig.states.wait_for(lambda s: s.hello == ("companion-die", "1.2"))  # (the sync line is a HELLO too)
        rig.exchange(b"ROLL 2 2\n")
        assert not rig.die.state.rolling
        assert "battery 73%" in rig.die.state.describe()


@pytest.mark.parametrize("data, reason", [
    (b"\xff\xfe\xfd\n", "not UTF-8"),
    (b"ROLL 7 2\n", "7 is not a face of this die (1-6)"),
    (b"ROLL 0 2\n", "0 is not a face"),
    (b"ROLL 3\n", "expected 2 dice, got 1"),
    (b"3 5 2\n", "expected 2 dice, got 3"),
    (b"ROLL\n", "ROLL without values"),
    (b"ROLL three five\n", "whole numbers"),
    (b"ROLL 3.5 2\n", "whole numbers"),
    (b"HELLO\n", "HELLO needs a name and a version"),
    (b"BATT full\n", "BATT needs a level"),
    (b"BATT 150\n", "BATT needs a level"),
    (b"hello world from a modem\n", "HELLO needs"),
    (b"+++ATH0\n", "unknown message"),
    (b"\x1b[A\x1b[B\n", "control characters"),
    (b"ROLL 3 5\x00\n", "NUL"),
    (b'{"dice": [3]}\n', "expected 2 dice, got 1"),
    (b'{"dice": "35"}\n', "list of whole numbers"),
    (b'{"dice": [true, 5]}\n', "list of whole numbers"),
    (b'{"value": 3}\n', 'without a "dice"'),
    (b'{"dice": [3, 5\n', "not valid JSON"),
    (b"x" * 300 + b"\n", "longer than 256 bytes"),
    ("ROLL ３ ５\n".encode(), "not ASCII"),
])
def test_rejects_each_form_with_its_reason_and_goes_on(pty: Pty, data: bytes, reason: str) -> None:
    with Rig(pty, KATENMUIS) as rig:
        got = rig.exchange(data)
        assert len(got) == 1 and isinstance(got[0], Rejected), got
        assert reason in got[0].reason
        assert rig.throws.snapshot() == []
        # the stream goes on
        assert [m.dice for m in rig.exchange(b"ROLL 6 1\n") if isinstance(m, Throw)] == [(6, 1)]


def test_faces_follow_the_side_to_move_in_chopchop(pty: Pty) -> None:
    with Rig(pty, Expected.for_game("chopchop", "cat")) as rig:
        got = rig.exchange(b"ROLL 4\n")
        assert isinstance(got[0], Rejected) and "4 is not a face of this die (1-3)" in got[0].reason
        rig.die.set_expected(Expected.for_game("chopchop", "mice"))
        got = rig.exchange(b"ROLL 4\n")
        assert isinstance(got[0], Throw) and got[0].dice == (4,)
        got = rig.exchange(b"ROLL 4 4\n")
        assert isinstance(got[0], Rejected) and "expected 1 die" in got[0].reason


def test_qubism_has_no_dice(pty: Pty) -> None:
    with Rig(pty, Expected.for_game("qubism")) as rig:
        got = rig.exchange(b"ROLL 3 5\n4\n")
        assert all(isinstance(m, Rejected) and "uses no dice" in m.reason for m in got) and len(got) == 2


def test_a_line_split_across_writes_is_one_throw(pty: Pty) -> None:
    with Rig(pty, KATENMUIS) as rig:
        for part in (b"RO", b"LL ", b"3", b" ", b"5", b"\r"):
            pty.write(part)
            time.sleep(0.05)  # separate reads on the reader side
        pty.write(b"\n")
        throw = rig.throws.wait_for(lambda t: True)
        assert throw.dice == (3, 5)
        assert rig.exchange(b"") == []  # the CR LF did not make a second, empty message
        assert len(rig.throws.snapshot()) == 1 and rig.rejects.snapshot() == []


def test_a_stream_without_line_ends_cannot_eat_memory(pty: Pty) -> None:
    with Rig(pty, KATENMUIS) as rig:
        for _ in range(20):
            pty.write(b"7" * 1000)
            time.sleep(0.005)
        deadline = time.monotonic() + 2
        while rig.die.decoder.pending() == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert rig.die.decoder.pending() <= 256
        rig.rejects.wait_for(lambda r: "longer than 256" in r.reason)
        got = rig.exchange(b"\n2 2\n")
        assert [m.dice for m in got if isinstance(m, Throw)] == [(2, 2)]
        assert len(rig.rejects.snapshot()) == 1  # one rejection for the whole runaway line


# An oracle for "a valid throw line", written independently of the parser.
_ORACLE = re.compile(
    r"^[ \t]*(?:(?i:roll)[ \t]+)?([1-6])[ \t]*(?:,|[ \t])[ \t]*([1-6])[ \t]*$"
    r'|^[ \t]*\{[ \t]*"dice"[ \t]*:[ \t]*\[[ \t]*([1-6])[ \t]*,[ \t]*([1-6])[ \t]*\][ \t]*\}[ \t]*$'
)


def _oracle_throws(data: bytes) -> list[tuple[int, int]]:
    out = []
    for raw in re.split(rb"[\r\n]", data):
        if len(raw) > 256:
            continue
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            continue
        m = _ORACLE.match(text)
        if m:
            a, b = (g for g in m.groups() if g is not None)
            out.append((int(a), int(b)))
    return out


def _random_bytes(rng: random.Random) -> bytes:
    alphabet = b"0123456789 ,\r\n\tROLLING{}[]\":dice\x00\xff\xc3"
    n = rng.randint(0, 80)
    if rng.random() < 0.5:
        data = bytes(rng.choice(alphabet) for _ in range(n))
    else:
        data = rng.randbytes(n)
    if rng.random() < 0.4:  # splice in a real throw, which the bytes around it may spoil
        line = rng.choice([b"ROLL %d %d", b"%d,%d", b"%d %d", b'{"dice": [%d, %d]}'])
        line = line % (rng.randint(1, 6), rng.randint(1, 6))
        cut = rng.randint(0, len(data))
        ends = [b"", b"\n", b"\r", b"\r\n"]
        data = data[:cut] + rng.choice(ends) + line + rng.choice(ends) + data[cut:]
    return data


def test_random_bytes_through_the_port_never_crash_or_throw_falsely(pty: Pty) -> None:
    rng = random.Random(20240607)
    seen = 0
    with Rig(pty, KATENMUIS) as rig:
        for i in range(300):
            data = _random_bytes(rng)
            got = rig.exchange(data)
            throws = [m.dice for m in got if isinstance(m, Throw)]
            # every throw is one the oracle sees in the bytes written: no false throws
            # (a partial line left from the previous string is cut off by the sync line's LF)
            expected = _oracle_throws(data)
            assert throws == expected, (i, data, got)
            seen += len(expected)
        assert rig.die.state.status == CONNECTED
        assert seen > 30  # the strings did carry real throws, and they were all read


def test_a_pulled_cable_resumes_within_two_seconds(pty: Pty) -> None:
    with Rig(pty, KATENMUIS) as rig:
        assert [m.dice for m in rig.exchange(b"ROLL 1 2\n") if isinstance(m, Throw)] == [(1, 2)]
        pty.unplug()
        waiting = rig.states.wait_for(lambda s: s.status == WAITING)
        assert waiting.reason
        time.sleep(0.7)  # a few retries against a missing port
        assert rig.die.state.status == WAITING
        rig.states.clear()
        plugged = time.monotonic()
        pty.plug()
        rig.states.wait_for(lambda s: s.status == CONNECTED, timeout=2.0)
        assert time.monotonic() - plugged < 2.0
        assert [m.dice for m in rig.exchange(b"ROLL 6 6\n") if isinstance(m, Throw)] == [(6, 6)]
        assert rig.die.connects == 2


def test_a_missing_port_at_start_is_waiting_not_a_crash(tmp_path: Path, recorder: Any) -> None:
    states = recorder()
    pty = Pty(tmp_path / "later")
    pty.unplug()
    with SerialDie(pty.path, on_state=states, retry_interval=0.1) as die:
        st = states.wait_for(lambda s: s.status == WAITING)
        assert "not found" in st.reason
        pty.plug()
        states.wait_for(lambda s: s.status == CONNECTED)
        assert die.state.status == CONNECTED
    assert die.state.status == STOPPED
    pty.unplug()


def test_a_failing_callback_does_not_stop_the_reader(pty: Pty, recorder: Any) -> None:
    got = recorder()

    def boom(t: Throw) -> None:
        got(t)
        raise RuntimeError("UI bug")

    states = recorder()
    with SerialDie(pty.path, expected=KATENMUIS, on_throw=boom, on_state=states):
        states.wait_for(lambda s: s.status == CONNECTED)
        pty.write(b"1 1\n")
        got.wait_for(lambda t: t.dice == (1, 1))
        pty.write(b"2 2\n")
        got.wait_for(lambda t: t.dice == (2, 2))


def test_a_serial_object_factory_is_injected(recorder: Any) -> None:
    loop = serial.serial_for_url("loop://", timeout=0.05)
    throws, states = recorder(), recorder()
    with SerialDie(factory=lambda: loop, expected=KATENMUIS, on_throw=throws, on_state=states):
        states.wait_for(lambda s: s.status == CONNECTED)
        loop.write(b"ROLL 4 5\n")
        assert throws.wait_for(lambda t: True).dice == (4, 5)


def test_9600_baud_is_accepted_other_rates_are_not(pty: Pty) -> None:
    with Rig(pty, KATENMUIS, baud=9600) as rig:
        assert [m.dice for m in rig.exchange(b"5 5\n") if isinstance(m, Throw)] == [(5, 5)]
    with pytest.raises(ValueError, match="baud"):
        SerialDie(pty.path, baud=57600)


def _port(device: str, vid: int | None = None, pid: int | None = None) -> ListPortInfo:
    p = ListPortInfo(device, skip_link_detection=True)
    p.vid, p.pid = vid, pid
    return p


def test_find_port_prefers_known_usb_serial_chips() -> None:
    ports = [_port("/dev/ttyS0"), _port("/dev/ttyUSB3"), _port("/dev/ttyACM1", 0x2341, 0x0043)]
    assert find_port(ports) == "/dev/ttyACM1"
    assert find_port([_port("/dev/ttyS0"), _port("/dev/ttyUSB3")]) == "/dev/ttyUSB3"
    assert find_port([_port("/dev/ttyS0"), _port("/dev/ttyAMA0")]) is None
    assert find_port([_port("/dev/ttyS9", 0x1A86, 0x7523)]) == "/dev/ttyS9"  # CH340 anywhere


def test_auto_port_with_no_device_waits(recorder: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import hardware.serialdie as sd

    monkeypatch.setattr(sd, "find_port", lambda ports=None: None)
    states = recorder()
    with SerialDie("auto", on_state=states, retry_interval=0.05) as die:
        st = states.wait_for(lambda s: s.status == WAITING)
        assert "plugged in" in st.reason
        assert die.port is None


def test_state_describe_reads_well() -> None:
    assert DieState(WAITING, "/dev/ttyACM0", "port not found").describe() == \
        "waiting for the die on /dev/ttyACM0: port not found"
    assert DieState(CONNECTED, "/dev/ttyACM0", hello=("die", "1.0"), battery=50).describe() == \
        "die connected on /dev/ttyACM0 (die 1.0), battery 50%"


def test_stop_ends_the_thread(pty: Pty) -> None:
    before = threading.active_count()
    rig = Rig(pty, KATENMUIS)
    with rig:
        assert threading.active_count() == before + 1
    assert threading.active_count() == before
    assert rig.die.state.status == STOPPED
