"""Every terminal game's prompts and names, fuzzed (issue 30): whatever is typed, no internal
error, nothing raw reaches the terminal, and the game goes on (it is saved and resumes).

Each game is driven in-process through its real ``play`` with a real database; hypothesis
draws the lines: answers that move the game on, near-misses, numbers with thousands of digits,
unicode digits (``"²"`` is ``isdigit()`` but not ``int()``), escape sequences and other control
characters, and any text at all.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.session import Session
from companion.store import Store
from companion.terminal import Console, chopchop, katenmuis, kilkenny, qubism
from tests.hardware.speech_helpers import requires_espeak

ROOT = Path(__file__).resolve().parents[2]

ESC = "\x1b"
NASTY = [
    "1 " + "9" * 5000, "²", "3 ²", "٣ 4", "pawn 1," + "9" * 5000, "pawn 1," + "9" * 150, "9" * 150,
    "\x1b[2J\x1b[31m", "\x1b]0;owned\x07", "1\x00", "\u202e5 3", "-1", "0", "7", "99999999999999999999",
    "cat " + "1," * 90, "slide 0,0 " + "9" * 100, "t 9," + "9" * 100, "\ud800", "u", "h", "b", "?", "t", "",
]
WORDS = {
    "katenmuis": ["r", "3 5", "66", "1-1", "u"],
    "chopchop": ["r", "2,3", "top:2,3", "1 0,2", "cat 1,4", "2", "cheese", "x", "+1", "arrow", "fork", "u", "t"],
    "kilkenny": ["r", "4", "9,5 7,5", "t 9,5", "?", "u"],
    "qubism": ["r", "pawn 3,2", "place 2,2 N", "slide 2,2 3", "N", "tip S", "u", "hint"],
}


def lines(game: str) -> st.SearchStrategy[list[str]]:
    line = st.one_of(
        st.sampled_from(WORDS[game]),
        st.sampled_from(NASTY),
        st.text(max_size=40),
        st.from_regex(r"\A(pawn |place |slide |cat |t |[1-4] )?[0-9²٣-]{1,12}([ ,][0-9]{0,30})?( [NESWnesw]| [0-9]{1,5})?\Z"),
    )
    return st.lists(line, max_size=30)


def _play(game: str, db: Path, text: str, names: str | None = None) -> str:
    out = io.StringIO()
    inp = io.StringIO(text)
    args = ["--db", str(db), "--seed", "3"]
    code: int
    if game == "katenmuis":
        if names:
            args += ["--cat", names, "--mouse", names + "2"]
        code = katenmuis.play(args, console=Console(inp, out))
    elif game == "chopchop":
        code = chopchop.play(args, inp=inp, out=out)
    else:
        play: Callable[..., int] = kilkenny.play if game == "kilkenny" else qubism.play
        if names:
            args += ["--names", f"{names},{names}2"]
        code = play(args, inp=inp, out=out)
    assert code == 0
    return out.getvalue()


def _check(game: str, typed: list[str]) -> None:
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "g.db"
        text = _play(game, db, "".join(line.replace("\n", " ") + "\n" for line in typed))
        assert ESC not in text and "\x00" not in text
        assert "Traceback" not in text and "internal error" not in text
        again = _play(game, db, "q\n")  # the game goes on: saved, and resumed
        with Store.open(db) as store:
            games = store.unfinished_games(game) + store.finished_games(game, 5)
            assert games, "the game was not saved"
            Session.load(store, games[0].id)
        assert "Traceback" not in again


FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(lines("katenmuis"))
def test_katenmuis_prompts(typed: list[str]) -> None:
    _check("katenmuis", typed)


@FUZZ
@given(lines("chopchop"))
def test_chopchop_prompts(typed: list[str]) -> None:
    _check("chopchop", typed)


@FUZZ
@given(lines("kilkenny"))
def test_kilkenny_prompts(typed: list[str]) -> None:
    _check("kilkenny", typed)


@FUZZ
@given(lines("qubism"))
def test_qubism_prompts(typed: list[str]) -> None:
    _check("qubism", typed)


def test_every_nasty_line_in_every_game() -> None:
    """The lines of the issue, in every game, one after the other, then a real move."""
    for game in WORDS:
        _check(game, NASTY + WORDS[game])


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["katenmuis", "kilkenny", "qubism"]),
       st.text(min_size=1, max_size=60).filter(lambda s: s.strip() and "," not in s))
def test_names_never_reach_the_terminal_raw(game: str, name: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        text = _play(game, Path(d) / "g.db", "q\n", names=name + "\x1b[2J\udcff")
        assert ESC not in text
        text.encode("utf-8")  # no lone surrogate left: a UTF-8 terminal can show it


def test_bytes_that_are_not_utf8_on_stdin_and_argv(tmp_path: Path) -> None:
    """A Latin-1 terminal: the name on the command line and the typed lines are not UTF-8."""
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "play", "katenmuis", "--db", str(tmp_path / "g.db"), "--new",
         "--cat", b"Ren\xe9e\x1b[2J".decode("utf-8", "surrogateescape"), "--mouse", "Bo"],
        input=b"\xff\xfe\n\xe9 3\n3 5\nq\n", capture_output=True, timeout=120, cwd=ROOT,
        env={**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": ""})
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "internal error" not in err
    out = proc.stdout.decode("utf-8")  # all of it UTF-8, no escape sequence
    assert "\x1b" not in out and "Ren?e?[2J (Cat) throws" in out
    assert "Move 1 saved" in out  # the good line after the bad ones was played


@requires_espeak
def test_say_with_text_that_is_not_utf8(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "say", b"caf\xe9 \x1b[2J".decode("utf-8", "surrogateescape"),
         "-o", str(tmp_path / "x.wav")], capture_output=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert b"Traceback" not in proc.stderr and (tmp_path / "x.wav").is_file()


def test_history_never_prints_a_stored_name_raw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A name stored before names were cleaned (or by another program) is shown made printable."""
    from companion.cli import main
    from companion.games.katenmuis import Throw

    db = tmp_path / "c.db"
    with Store.open(db) as store:
        session = Session.start(store, "katenmuis", {"cat": "Ann\x1b[2J", "mouse": "Bo\x07"}, None)
        for pair in "11 12 22 12 33 12 44 12 55 12 12 66".split():
            session.apply(Throw((int(pair[0]), int(pair[1]))))
        assert session.is_over()
    assert main(["history", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "Ann?[2J (cat)" in out and "Bo?" in out


def test_rules_set_values_of_the_wrong_kind(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    for item in ("board=5", "mice_players=²", "mice_players=" + "9" * 5000, "board="):
        assert main(["rules", "chopchop", "--set", item]) == 2
        err = capsys.readouterr().err
        assert "not valid" in err and "internal error" not in err


def test_replay_throws_with_thousands_of_digits(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    for throws in ("1-" + "9" * 5000, "3-4 2²", "3-4 ٣-4"):
        assert main(["replay", "katenmuis", "--throws", throws]) == 2
        err = capsys.readouterr().err
        assert "is not two dice like 3-4" in err and "4300" not in err


def test_a_strict_stream_that_cannot_decode_its_bytes(tmp_path: Path) -> None:
    """A caller's own input stream that raises on bad bytes: read as '?', then as the end."""
    out = io.StringIO()
    inp = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\xfd\n" * 50), encoding="utf-8", errors="strict")
    assert katenmuis.play(["--db", str(tmp_path / "g.db")], console=Console(inp, out)) == 0
    assert "Game saved" in out.getvalue()
