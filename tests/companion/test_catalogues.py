"""The gettext catalogues in the repository (scripts/catalogues): up to date with the source,
every message translated in nl and fr with the same placeholders, the .mo compiled from the .po;
and the tool itself on a small tree: extraction from .py and .kv, JSON import, the --check
findings (stale .pot, missing, fuzzy, placeholders, stale .mo), no change on a second run."""

from __future__ import annotations

import gettext
import importlib.util
import shutil
import subprocess
import sys
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "catalogues"


def _tool() -> ModuleType:
    loader = SourceFileLoader("catalogues_tool", str(SCRIPT))
    spec = importlib.util.spec_from_loader("catalogues_tool", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    loader.exec_module(module)
    return module


cat = _tool()


@pytest.fixture(scope="module")
def found() -> list[object]:
    return list(cat.problems(ROOT))


def test_the_catalogues_are_up_to_date_and_every_message_is_translated(found: list[object]) -> None:
    """What ``scripts/catalogues --check`` reports: nothing. A stale .pot/.po/.mo, a missing or
    fuzzy translation in any catalogue, other placeholders than the message's, a wrong header
    all fail here."""
    wrong = [str(p) for p in found]
    assert wrong == [], "run scripts/catalogues, then translate in the .po files:\n" + "\n".join(wrong)


def test_the_app_reads_the_compiled_catalogues_with_their_plural_rules() -> None:
    """The stdlib reads the .mo (no Babel at run time); Dutch plural for n != 1, French for n > 1."""
    for lang, zero_is_plural in (("nl", True), ("fr", False)):
        with (ROOT / "companion" / "locale" / lang / "LC_MESSAGES" / "companion.mo").open("rb") as f:
            t = gettext.GNUTranslations(f)
        assert t.info()["language"] == lang and "utf-8" in t.info()["content-type"].lower()
        one, many = t.ngettext("{n} cat", "{n} cats", 1), t.ngettext("{n} cat", "{n} cats", 2)
        assert one != many and one != "{n} cat"
        assert (t.ngettext("{n} cat", "{n} cats", 0) == many) is zero_is_plural
        assert t.gettext("Undo") != "Undo"


def test_placeholder_rules() -> None:
    check = cat._placeholders
    assert check(["{player} wins"], 0, "{player} wint") == ""
    assert check(["{player} wins"], 0, "{speler} wint") == "placeholders ['speler'] instead of ['player']"
    assert check(["{player} wins"], 0, "{player} gagne {n}") != ""  # would raise KeyError at .format
    assert check(["{seconds:.1f} s"], 0, "{seconds:.1f}\u00a0s") == ""  # names, whatever the format spec
    assert check(["{a} and {a}"], 0, "{a}") == ""
    assert "not a valid" in check(["{n} chips"], 0, "{n jetons")
    one_many = ["One player is the Cat.", "{n} players are mice."]
    assert check(one_many, 0, "Een speler is de Kat.") == ""  # the singular form may leave {n} out
    assert check(one_many, 1, "{n} spelers zijn muizen.") == ""
    assert check(one_many, 1, "Spelers zijn muizen.") != ""
    assert check(["{n} cat", "{n} cats"], 0, "een kat") != ""  # English's singular has {n}: keep it


# -- the tool on a small tree ---------------------------------------------------------------

GAME_PY = '''from companion.i18n import N_, _, ngettext, pgettext

LABEL = N_("Cat")


def say(n: int, who: str) -> list[str]:
    return [_("{player} throws {total}.").format(player=who, total=n),
            ngettext("{n} chip", "{n} chips", n).format(n=n),
            pgettext("verb", "Roll")]
'''
SCREEN_KV = """#:import _ companion.i18n._
<Home>:
    Button:
        text: _('Start new game') if root.ready else _("Wait...")
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A repository in miniature: the tool, a source file of each kind, an empty locale."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(SCRIPT, tmp_path / "scripts" / "catalogues")
    for top in cat.SOURCES:
        (tmp_path / top).mkdir()
    (tmp_path / "companion" / "say.py").write_text(GAME_PY)
    (tmp_path / "ui" / "home.kv").write_text(SCREEN_KV)
    (tmp_path / "companion" / "locale").mkdir()
    return tmp_path


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(root / "scripts" / "catalogues"), *args],
                          capture_output=True, text=True, timeout=120)


def _write(root: Path, pending: dict[str, object]) -> None:
    import json

    (root / "companion" / "locale" / "core-translations.json").write_text(json.dumps(pending), encoding="utf-8")


FULL = {
    "Cat": {"nl": "Kat", "fr": "Chat"},
    "{player} throws {total}.": {"nl": "{player} gooit {total}.", "fr": "{player} fait {total}."},
    "Start new game": {"nl": "Nieuw spel", "fr": "Nouvelle partie"},
    "Wait...": {"nl": "Even wachten...", "fr": "Attends..."},
    "Roll": {"nl": "Gooi", "fr": "Lance"},
    "__plurals__": {"{n} chip": {"nl": ["{n} fiche", "{n} fiches"], "fr": ["{n} jeton", "{n} jetons"]}},
}


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted((root / "companion" / "locale").rglob("*")) if p.is_file()}


def test_the_tool_extracts_py_and_kv_imports_json_and_compiles(tree: Path) -> None:
    pot = cat.template(tree)
    ids = {(m.context, m.id) for m in pot if m.id}
    assert ids == {(None, "Cat"), (None, "{player} throws {total}."), (None, ("{n} chip", "{n} chips")),
                   ("verb", "Roll"), (None, "Start new game"), (None, "Wait...")}
    assert {loc for m in pot for loc, _line in m.locations} == {"companion/say.py", "ui/home.kv"}

    first = _run(tree, "--check")
    assert first.returncode == 1 and "companion/locale/companion.pot is missing" in first.stdout

    _write(tree, FULL)
    made = _run(tree)
    assert made.returncode == 0, made.stderr
    assert "imported 6" in made.stdout and "every message translated" in made.stdout
    assert _run(tree, "--check").returncode == 0
    snap = _snapshot(tree)
    assert _run(tree).returncode == 0 and _snapshot(tree) == snap  # a second run changes nothing
    po = (tree / "companion/locale/fr/LC_MESSAGES/companion.po").read_text(encoding="utf-8")
    assert '"Language: fr\\n"' in po and '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"' in po
    assert "charset=utf-8" in po and "Generated-By" not in po and "#: ui/home.kv\n" in po
    with (tree / "companion/locale/nl/LC_MESSAGES/companion.mo").open("rb") as f:
        nl = gettext.GNUTranslations(f)
    assert nl.pgettext("verb", "Roll") == "Gooi" and nl.ngettext("{n} chip", "{n} chips", 3) == "{n} fiches"

    # a translation the .po has is kept over a pending JSON's; a message not in the source is told
    pending = '{"Cat": {"nl": "Poes"}, "Dog": {"nl": "Hond"}}'
    (tree / "companion/locale/core-translations.json").write_text(pending, encoding="utf-8")
    kept = _run(tree)
    assert "'Cat': the .po's translation kept" in kept.stdout and _snapshot(tree) == {
        **snap, "companion/locale/core-translations.json": pending.encode()}
    assert "not in the source (left in the JSON): 'Dog'" in kept.stdout


def test_check_lists_what_is_wrong(tree: Path) -> None:
    _write(tree, FULL)
    assert _run(tree).returncode == 0
    (tree / "companion/locale/core-translations.json").unlink()
    # a new message in the source: the .pot is stale and nl/fr miss it
    say = tree / "companion" / "say.py"
    say.write_text(GAME_PY + '\n\ndef more() -> str:\n    return _("Out of cheese")\n')
    out = _run(tree, "--check")
    assert out.returncode == 1
    assert "companion/locale/companion.pot is out of date with the source's messages" in out.stdout
    assert "nl: no translation for 'Out of cheese'  (companion/say.py)" in out.stdout
    assert "fr: no translation for 'Out of cheese'" in out.stdout
    say.write_text(GAME_PY)
    assert _run(tree, "--check").returncode == 0

    # a translator's slip in the .po: another placeholder; and a fuzzy entry
    po_path = tree / "companion/locale/nl/LC_MESSAGES/companion.po"
    po = po_path.read_text(encoding="utf-8")
    po = po.replace('msgstr "{player} gooit {total}."', 'msgstr "{speler} gooit {total}."')
    po = po.replace('msgid "Start new game"', '#, fuzzy\nmsgid "Start new game"')
    po_path.write_text(po, encoding="utf-8")
    out = _run(tree, "--check")
    assert out.returncode == 1
    assert ("nl: '{player} throws {total}.' -> '{speler} gooit {total}.': placeholders ['speler', 'total'] "
            "instead of ['player', 'total']") in out.stdout
    assert "nl: fuzzy translation for 'Start new game'" in out.stdout
    assert "companion/locale/nl/LC_MESSAGES/companion.mo is out of date with its .po" in out.stdout
    assert "fr:" not in out.stdout

    # fixed in the .po but not compiled: only the .mo is stale, until the tool runs
    po = po.replace("{speler}", "{player}").replace('#, fuzzy\nmsgid "Start new game"', 'msgid "Start new game"')
    po_path.write_text(po.replace('msgstr "Nieuw spel"', 'msgstr "Nieuw potje"'), encoding="utf-8")
    out = _run(tree, "--check")
    assert out.returncode == 1 and out.stdout.count("out of date") == 1 and ".mo is out of date" in out.stdout
    assert _run(tree).returncode == 0 and _run(tree, "--check").returncode == 0


def test_a_message_that_leaves_the_source_becomes_obsolete_and_comes_back_translated(tree: Path) -> None:
    _write(tree, FULL)
    assert _run(tree).returncode == 0
    (tree / "companion/locale/core-translations.json").unlink()
    kv = tree / "ui" / "home.kv"
    kv.write_text(SCREEN_KV.replace("_(\"Wait...\")", "''"))
    assert _run(tree).returncode == 0
    po = (tree / "companion/locale/nl/LC_MESSAGES/companion.po").read_text(encoding="utf-8")
    assert '#~ msgid "Wait..."\n#~ msgstr "Even wachten..."' in po
    kv.write_text(SCREEN_KV)
    assert _run(tree).returncode == 0 and _run(tree, "--check").returncode == 0
