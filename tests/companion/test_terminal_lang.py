"""The rules engines and the terminal games in the players' language: every message of
companion/games, companion/terminal and companion/teach translated (nl, fr) with the same
placeholders, translated when shown (never at import), and seeded terminal games of Kat en Muis
and Chop! Chop! played in Dutch and French through real compiled catalogues (Babel)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import i18n
from companion.session import Session
from companion.store import Store
from tests import i18n_lint
from tests.companion.core_catalogue import core_catalogue_dir, core_messages, core_translations, python_files

PLACEHOLDER = re.compile(r"\{(\w*)(?:![rsa])?\}")


def _names(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


@pytest.fixture(scope="module")
def core_locale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return core_catalogue_dir(tmp_path_factory.mktemp("core-locale"))


@pytest.fixture
def speak(core_locale: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """companion.i18n reads the compiled catalogues; English again afterwards."""
    monkeypatch.setattr(i18n, "LOCALE_DIR", core_locale)
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    yield
    i18n.set_language("en")


# -- the catalogue ------------------------------------------------------------------------------


def test_every_core_message_is_translated_with_the_same_placeholders() -> None:
    singles, plurals = core_messages()
    assert len(singles) > 300 and len(plurals) > 10  # the extraction found the messages
    data = core_translations()
    missing, wrong = [], []
    for msgid, where in singles.items():
        for lang in ("nl", "fr"):
            text = data.get(msgid, {}).get(lang)
            if not text:
                missing.append(f"{lang}: {msgid!r} ({where[0]})")
            elif _names(text) != _names(msgid):
                wrong.append(f"{lang}: {msgid!r} -> {text!r}")
    for one, (many, where) in plurals.items():
        for lang in ("nl", "fr"):
            forms = data.get("__plurals__", {}).get(one, {}).get(lang)
            if not forms or len(forms) != 2:
                missing.append(f"{lang} plural: {one!r} ({where[0]})")
            elif _names(forms[1]) != _names(many) or not set(_names(forms[0])) <= set(_names(many)):
                wrong.append(f"{lang}: {one!r} -> {forms!r}")
    assert missing == [] and wrong == []


def test_french_puts_a_no_break_space_before_high_punctuation() -> None:
    data = core_translations()
    texts = [tr["fr"] for key, tr in data.items() if key != "__plurals__"]
    texts += [f for tr in data["__plurals__"].values() for f in tr["fr"]]
    bad = [t for t in texts if re.search(r"\S [:;?!](\s|$)", t)]
    assert bad == []
    assert data["{landing}: {what}."]["fr"] == "{landing}\u00a0: {what}."


def test_messages_are_translated_when_shown_never_at_import() -> None:
    """No _()/ngettext at import time (top level or class attribute), no f-string inside _(),
    no _ shadowed in a function that translates (tests/i18n_lint.py)."""
    assert i18n_lint.problems(python_files()) == []


def test_the_translation_check_finds_each_kind_of_mistake(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        'TITLE = _("Chop! Chop!")\n'
        "class Seat:\n"
        '    label = _("cat")\n'
        "    def name(self):\n"
        '        return _("a seat")\n'
        "def won(n):\n"
        '    return _(f"{n} cheese")\n'
        "def names(items):\n"
        "    for _ in items:\n"
        '        print(_("again"))\n'
    )
    assert i18n_lint.problems([bad]) == [
        "bad.py:1 translated at import time",
        "bad.py:3 translated at import time",
        "bad.py:7 f-string inside _()",
        "bad.py:8 names shadows _",
    ]


# -- the engines speak the language --------------------------------------------------------------


def test_the_narration_of_the_engines_follows_the_language(speak: None) -> None:
    from companion.games.chopchop import CAT, ChopChop, LosesNextTurn, Moved, NoMove, PlaceCat, TileRevealed, Won
    from companion.games.katenmuis import KatEnMuis, Paid, Throw
    from companion.games.katenmuis import Won as KatWon
    from companion.games.kilkenny import KilkennyCats
    from companion.games.qubism import Qubism

    kat = KatEnMuis()
    effects = kat.new_state().apply(Throw((3, 5)))
    assert kat.narrate(effects) == ["Cat throws 3 and 5.", "Cat lands on 8 (square B2)."]
    assert i18n.set_language("nl") == "nl"
    assert kat.narrate(effects) == ["Kat gooit 3 en 5.", "Kat komt op 8 (vak B2)."]
    assert kat.narrate([Paid("mouse", "cat", 1, "jump")], {"cat": "Anna", "mouse": "Bram"}) == [
        "Bram springt over Anna heen: betaalt haar 1 fiche."
    ]
    assert KatWon("cat", 10).describe() == "Kat wint en krijgt beide potten (10 fiches)"
    assert kat.player_label("mouse") == "Muis"
    cc = ChopChop()
    s = cc.new_state()
    assert [e.describe() for e in s.apply(PlaceCat("top:2,3"))] == ["De kat begint op het tafelblad op D4"]
    assert TileRevealed("1,2", "crockery", "mouse:2").describe() == "Muis 2 draait de tegel op C5 om: gebroken servies"
    assert NoMove("mice1", "mouse 3 has nowhere to go").describe({"mice1": "Bo"}) == "Bo: muis 3 kan nergens heen; de beurt gaat over"
    assert Won("mice", "10 cheese, every hole opened and a mouse at home").describe() == (
        "De muizen winnen: 10 kaas, alle holen open en een muis thuis")
    assert LosesNextTurn(CAT, CAT).describe() == "Mes! De kat slaat de volgende beurt over"
    from companion.proposals import describe

    assert describe(cc.new_state(), PlaceCat("top:2,4")).sentence == "Kat zet de kat op het tafelblad op E4"
    assert KilkennyCats().player_label("red") == "Rood"
    assert Qubism().player_label("white") == "Wit"
    with pytest.raises(Exception, match="de kat staat al op het bord"):
        s.apply(PlaceCat("top:2,4"))
    assert i18n.set_language("fr") == "fr"
    assert kat.narrate(effects) == ["Chat fait 3 et 5.", "Chat arrive en 8 (case B2)."]
    assert Paid("cat", "mouse", 2, "double six").describe({"cat": "Anna", "mouse": "Bram"}) == "Anna paie 2 jetons à Bram"
    eleven = kat.new_state().apply(Throw((5, 6)))
    assert kat.narrate(eleven) == ["Chat fait 5 et 6.", "Chat arrive en 11 (case B5)\u00a0: Souris lui paie 2 jetons."]
    assert TileRevealed("1,2", "knife", "cat").describe() == "Le chat retourne la dalle en C5\u00a0: couteau"
    # the table top in words fits the sentences around it ("de la table", never "de le dessus")
    assert [e.describe() for e in cc.new_state().apply(PlaceCat("top:2,3"))] == ["Le chat commence sur la table en D4"]
    assert Moved(CAT, "top:2,3", "1,2").describe() == "Le chat va de la table en D4 à C5"
    assert cc.player_label("mice1") == "Souris"
    i18n.set_language("en")
    assert TileRevealed("1,2", "knife", "cat").describe() == "The cat turns the slab at C5: knife"


# -- the terminal games ------------------------------------------------------------------------


def _play_katenmuis(db: Path, *args: str, throws: int = 14) -> str:
    from companion.terminal.katenmuis import play
    from companion.terminal.seats import CompanionConsole

    out = io.StringIO()
    inp = io.StringIO("r\n" * throws + "q\n")
    assert play(["--db", str(db), "--new", "--seed", "3", "--cat", "Anna", "--mouse", "Bram", *args],
                CompanionConsole(inp, out)) == 0
    return out.getvalue()


def _turns(db: Path, key: str) -> Session:
    store = Store.open(db)
    session = Session.resume(store, key)
    assert session is not None
    return session


@pytest.mark.parametrize(
    ("lang", "intro", "prompt"),
    [
        ("nl", "Kat en Muis - Anna is Kat, Bram is Muis.", "Anna (Kat) gooit: "),
        ("fr", "Kat en Muis - Anna est le Chat, Bram est la Souris.", "Anna (Chat) lance\u00a0: "),
    ],
)
def test_a_seeded_kat_en_muis_game_in_the_terminal_speaks_the_language(
    speak: None, tmp_path: Path, lang: str, intro: str, prompt: str
) -> None:
    from companion.games.katenmuis import narrate

    text = _play_katenmuis(tmp_path / "k.db", "--lang", lang)
    assert intro in text and prompt in text
    assert "throws" not in text and "lands on" not in text and "Traceback" not in text
    session = _turns(tmp_path / "k.db", "katenmuis")
    assert len(session.turns) == 14
    assert i18n.language() == lang  # play() switched to it
    told = 0
    for turn in session.turns:
        for sentence in narrate(list(turn.effects), session.seats):
            assert f"  {sentence}" in text
            told += 1
    assert told >= 28
    numbers = "Winkans van Kat: " if lang == "nl" else "Chances du Chat\u00a0: "
    assert re.search(re.escape(numbers) + r"\d+,\d\u00a0?%", text)  # a decimal comma
    i18n.set_language("en")
    english = _play_katenmuis(tmp_path / "e.db")
    assert "Kat en Muis - Anna is Cat, Bram is Mouse." in english and "Anna throws" in english


def test_the_language_comes_from_lang_when_no_option_is_given(
    speak: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    text = _play_katenmuis(tmp_path / "k.db", throws=2)
    assert "Anna (Chat) lance" in text
    monkeypatch.setenv("LANG", "nl_BE.UTF-8")
    assert "Anna (Kat) gooit" in _play_katenmuis(tmp_path / "k.db", throws=2)
    # --lang wins over the environment
    assert "Anna (Cat) throws" in _play_katenmuis(tmp_path / "k.db", "--lang", "en", throws=2)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("nl", ["Kat: zet de kat op een vakje van het tafelblad", "Mogelijke zetten met", "Dichte tegels:",
                "De muizen hebben 0/10 kaas.", "Legenda:"]),
        ("fr", ["Chat\u00a0: pose le chat sur une case du dessus de la table", "Déplacements possibles avec",
                "Dalles face cachée\u00a0:", "Les souris ont 0/10 fromages.", "Légende\u00a0:"]),
    ],
)
def test_a_seeded_chop_chop_game_in_the_terminal_speaks_the_language(
    speak: None, tmp_path: Path, lang: str, words: list[str]
) -> None:
    from companion.terminal.chopchop import play

    db = tmp_path / "c.db"
    out = io.StringIO()
    inp = io.StringIO("2,3\n" + "r\n" * 60 + "q\n")
    assert play(["--db", str(db), "--new", "--seed", "5", "--lang", lang], inp, out) == 0
    text = out.getvalue()
    for word in words:
        assert word in text
    assert "Traceback" not in text and "moves from" not in text and "throws" not in text
    session = _turns(db, "chopchop")
    assert len(session.turns) > 20
    told = 0
    for turn in session.turns:
        for sentence in session.narrate(turn.effects):
            assert f"  * {sentence}" in text
            told += 1
    assert told > 25
    tiles = {"nl": ("draait de tegel op", "gaat van"), "fr": ("retourne la dalle en", " va de ")}[lang]
    assert all(t in text for t in tiles)


def test_a_dutch_tile_word_is_understood_at_the_tile_prompt(speak: None, tmp_path: Path) -> None:
    from companion.terminal.chopchop import play

    db = tmp_path / "c.db"
    # the cat on top:2,3; the mice throw 1; mouse 1 steps from its hole onto the slab at 1,3
    lines = ["d4", "1", "1 1,3", "kaas", "q"]
    out = io.StringIO()
    assert play(["--db", str(db), "--new", "--lang", "nl"], io.StringIO("\n".join(lines) + "\n"), out) == 0
    text = out.getvalue()
    assert "Muis 1 pakt de kaas op D5 (de muizen hebben er 1)" in text


@pytest.mark.parametrize("how", ["--lang", "LANG"])
def test_play_help_speaks_the_language(how: str, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``companion play GAME --help`` in the language asked for (argparse prints and exits)."""
    from companion.terminal import katenmuis

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    argv = ["--help"]
    if how == "--lang":
        argv += ["--lang", "nl"]
    else:
        monkeypatch.setenv("LANG", "nl_NL.UTF-8")
    try:
        with pytest.raises(SystemExit):
            katenmuis.play(argv)
        out = capsys.readouterr().out
        assert "de naam van wie de Kat speelt" in out and "hoe goed de tafelgenoot speelt" in out
        assert "the Cat player's name" not in out
    finally:
        i18n.set_language("en")
