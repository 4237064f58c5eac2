"""Issue 30: no command deletes or overwrites a file the player did not ask to replace.

Every ``-o``/``--output`` (and ``board synth``'s folder, ``virtual-dice --link``) is tried
through the real ``companion`` command: an existing file is refused unless ``--force``, a name
that does not end in what the command writes is refused, a missing folder is an error (never
created), and the refused file is left byte for byte as it was.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.outfile import OutputFileError, check_link, check_output, check_output_folder
from tests.hardware.speech_helpers import requires_espeak

ROOT = Path(__file__).resolve().parents[1]
PRECIOUS = b"SQLite format 3\x00 a family's games"


def _precious(path: Path) -> Path:
    path.write_bytes(PRECIOUS)
    return path


def _refused(argv: list[str], kept: Path | None, capsys: pytest.CaptureFixture[str], *words: str) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    if kept is not None:
        assert kept.read_bytes() == PRECIOUS
    for word in words:
        assert word in err
    assert "internal error" not in err
    return err


# -- the helper ---------------------------------------------------------------------------------


def test_check_output_rules(tmp_path: Path) -> None:
    f = _precious(tmp_path / "a.wav")
    with pytest.raises(OutputFileError, match="already exists.*--force"):
        check_output(f, (".wav",))
    assert check_output(f, (".wav",), force=True) == f
    assert check_output(tmp_path / "new.WAV", (".wav",)) == tmp_path / "new.WAV"
    with pytest.raises(OutputFileError, match="does not end in .wav"):
        check_output(tmp_path / "family.db", (".wav",), force=True)
    with pytest.raises(OutputFileError, match="does not exist"):
        check_output(tmp_path / "no" / "x.wav", (".wav",), force=True)
    assert not (tmp_path / "no").exists()
    (tmp_path / "d.wav").mkdir()
    with pytest.raises(OutputFileError, match="not a plain file"):
        check_output(tmp_path / "d.wav", (".wav",), force=True)
    (tmp_path / "l.wav").symlink_to(f)
    with pytest.raises(OutputFileError, match="link"):
        check_output(tmp_path / "l.wav", (".wav",), force=True)


def test_check_output_folder_and_link(tmp_path: Path) -> None:
    assert check_output_folder(tmp_path / "new", ("labels.json",)) == tmp_path / "new"
    with pytest.raises(OutputFileError, match="does not exist"):
        check_output_folder(tmp_path / "no" / "new", ("labels.json",))
    _precious(tmp_path / "labels.json")
    with pytest.raises(OutputFileError, match="labels.json.*--force"):
        check_output_folder(tmp_path, ("labels.json", "images"))
    assert check_output_folder(tmp_path, ("labels.json",), force=True) == tmp_path
    with pytest.raises(OutputFileError, match="not a folder"):
        check_output_folder(tmp_path / "labels.json", ("labels.json",), force=True)
    (tmp_path / "old").symlink_to("/dev/pts/999")
    assert check_link(tmp_path / "old") == tmp_path / "old"
    (tmp_path / "other").symlink_to(tmp_path / "labels.json")
    with pytest.raises(OutputFileError, match="link to something else"):
        check_link(tmp_path / "other")
    with pytest.raises(OutputFileError, match="already exists"):
        check_link(tmp_path / "labels.json")


# -- companion say -o ---------------------------------------------------------------------------


def test_say_refuses_a_database_an_existing_file_and_a_missing_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _precious(tmp_path / "family.db")
    _refused(["say", "hello", "-o", str(db)], db, capsys, "does not end in .wav")
    _refused(["say", "hello", "-o", str(db), "--force"], db, capsys, "does not end in .wav")
    wav = _precious(tmp_path / "hello.wav")
    _refused(["say", "hello", "-o", str(wav)], wav, capsys, "already exists", "--force")
    _refused(["say", "hello", "-o", str(tmp_path / "no" / "such" / "x.wav")], None, capsys, "does not exist")
    assert not (tmp_path / "no").exists()


@requires_espeak
def test_say_replaces_a_wav_with_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wav = _precious(tmp_path / "hello.wav")
    assert main(["say", "hello", "-o", str(wav), "--force"]) == 0
    assert wav.read_bytes()[:4] == b"RIFF"
    capsys.readouterr()


# -- companion board print / learn / calibrate / synth ------------------------------------------


def test_board_print_refuses_then_replaces_with_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = _precious(tmp_path / "board.png")
    _refused(["board", "print", "qubism", "-o", str(png)], png, capsys, "already exists")
    db = _precious(tmp_path / "game.db")
    _refused(["board", "print", "qubism", "-o", str(db), "--force"], db, capsys, ".pdf or .png")
    _refused(["board", "print", "qubism", "-o", str(tmp_path / "no" / "b.pdf")], None, capsys, "does not exist")
    assert not (tmp_path / "no").exists()
    assert main(["board", "print", "qubism", "--markers-only", "-o", str(png), "--force"]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    capsys.readouterr()


def test_board_learn_refuses_before_reading_anything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _precious(tmp_path / "game.db")
    photo = str(tmp_path / "photo.jpg")  # never read: the output is checked first
    _refused(["board", "learn", photo, "--board", "qubism", "-o", str(db)], db, capsys, "does not end in .json")
    model = _precious(tmp_path / "model.json")
    _refused(["board", "learn", photo, "--board", "qubism", "-o", str(model)], model, capsys, "already exists")


def test_board_calibrate_refuses_an_existing_board_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    toml = _precious(tmp_path / "mine.toml")
    args = ["board", "calibrate", "--board", "qubism", "--image", str(tmp_path / "p.jpg"),
            "--corners", "1,1", "9,1", "9,9", "1,9"]
    _refused([*args, "-o", str(toml)], toml, capsys, "already exists")
    db = _precious(tmp_path / "game.db")
    _refused([*args, "-o", str(db), "--force"], db, capsys, "does not end in .toml")


def test_board_synth_refuses_a_folder_with_a_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    labels = _precious(tmp_path / "labels.json")
    _refused(["board", "synth", str(tmp_path), "--count", "1"], labels, capsys, "labels.json", "--force")
    _refused(["board", "synth", str(tmp_path / "no" / "ds"), "--count", "1"], None, capsys, "does not exist")
    assert not (tmp_path / "no").exists()
    assert main(["board", "synth", str(tmp_path), "--count", "1", "--games", "qubism", "--force"]) == 0
    assert labels.read_bytes() != PRECIOUS and (tmp_path / "images" / "00000.jpg").is_file()
    capsys.readouterr()


# -- companion virtual-dice --link --------------------------------------------------------------


def test_virtual_dice_link_never_deletes_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = _precious(tmp_path / "notes.txt")
    _refused(["virtual-dice", "--link", str(notes)], notes, capsys, "already exists")
    other = tmp_path / "photos"
    other.symlink_to(notes)
    _refused(["virtual-dice", "--link", str(other)], notes, capsys, "link to something else")
    assert os.readlink(other) == str(notes)


def test_virtual_dice_replaces_its_own_old_link(tmp_path: Path) -> None:
    link = tmp_path / "ttyDIE"
    link.symlink_to("/dev/pts/999")  # left by an earlier run
    proc = subprocess.run([sys.executable, "-m", "companion", "virtual-dice", "--link", str(link)],
                          input="q\n", capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert f"(link {link})" in proc.stdout
    assert not os.path.lexists(link)  # its own link, removed when it stopped
    assert [p.name for p in tmp_path.iterdir()] == []
