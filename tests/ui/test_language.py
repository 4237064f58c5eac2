"""The app in the players' language: the start language (--lang > the saved setting > LANG),
the Settings picker switching every screen at once, every ui/ message translated with the same
placeholders, and a font that has every letter the translations use."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

import pytest

from tests import i18n_lint
from tests.ui.catalogue import UI, lang_app, locale_dir, ui_messages  # noqa: F401  (fixtures)
from tests.ui.helpers import pump, tap, texts

PLACEHOLDER = re.compile(r"\{(\w*)\}")


def _names(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def _translations() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, list[str]]]]:
    """msgid -> {lang: text}, singular -> {lang: forms}, from the compiled catalogues."""
    from tests.ui.catalogue import PLURAL_FORMS, catalogue

    singles: dict[str, dict[str, str]] = {}
    plurals: dict[str, dict[str, list[str]]] = {}
    for lang in PLURAL_FORMS:
        for key, value in sorted(catalogue(lang).items(), key=lambda kv: str(kv[0])):
            if isinstance(key, tuple):
                plurals.setdefault(key[0], {}).setdefault(lang, []).append(value)
            elif key:
                singles.setdefault(key, {})[lang] = value
    return singles, plurals


def test_every_ui_message_is_translated_with_the_same_placeholders() -> None:
    singles, plurals = ui_messages()
    assert len(singles) > 200 and plurals  # the extraction found ui/'s messages
    have, have_plural = _translations()
    missing, wrong = [], []
    for msgid, where in singles.items():
        for lang in ("nl", "fr"):
            text = have.get(msgid, {}).get(lang)
            if not text:
                missing.append(f"{lang}: {msgid!r} ({where[0]})")
            elif _names(text) != _names(msgid):
                wrong.append(f"{lang}: {msgid!r} -> {text!r}")
    for msgid, (plural, where) in plurals.items():
        for lang in ("nl", "fr"):
            forms = have_plural.get(msgid, {}).get(lang)
            if not forms or len(forms) != 2:
                missing.append(f"{lang} plural: {msgid!r} ({where[0]})")
            elif any(_names(f) != _names(plural) for f in forms):
                wrong.append(f"{lang}: {msgid!r} -> {forms!r}")
    assert missing == [] and wrong == []


def test_messages_are_whole_sentences_translated_when_shown() -> None:
    """No f-string inside _(), no _ shadowed by a loop variable or a ``*_`` parameter in a
    function that translates (it would call the tuple), no _() at import time: a module's top
    level or a class attribute (tests/i18n_lint.py)."""
    assert i18n_lint.problems(sorted(UI.rglob("*.py"))) == []


def test_the_default_font_has_every_letter_of_english_dutch_and_french() -> None:
    """Kivy's Roboto (regular and bold, what every label uses) covers every character of every
    translation, and the accents and signs French and Dutch need; no other font is needed."""
    import kivy

    from tests.ui.fontcheck import font_chars

    needed = set("éèêëïôçàâœ€ùûüîÉÈÀÇŒ«»’…·•—–\u00a0")
    have, have_plural = _translations()
    for tr in have.values():
        for text in tr.values():
            needed |= set(text)
    for tr in have_plural.values():
        for forms in tr.values():
            needed |= set("".join(forms))
    fonts = Path(kivy.__file__).parent / "data" / "fonts"
    for name in ("Roboto-Regular.ttf", "Roboto-Bold.ttf"):
        chars = font_chars(fonts / name)
        assert len(chars) > 500
        missing = sorted(c for c in needed if c.isprintable() and ord(c) not in chars)
        assert missing == [], f"{name} lacks {missing}"
    assert ord("→") not in font_chars(fonts / "Roboto-Regular.ttf")  # the check can fail


def test_start_language_follows_lang_then_the_setting_then_the_flag(
        lang_app: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from companion import i18n
    from companion.store import Store
    from ui import language

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "fr_BE.UTF-8")
    assert language.choose(None, "") == "fr"
    assert language.choose(None, "nl") == "nl"
    assert language.choose("en", "nl") == "en"
    app = lang_app(None, db=tmp_path / "a.db")
    assert i18n.language() == "fr" and app.title == "Compagnon de jeu"
    assert "Nouvelle partie" in texts(app.screen("home"))
    with Store.open(tmp_path / "b.db") as store:
        store.set_setting("ui.language", "nl")
    app = lang_app(None, db=tmp_path / "b.db")
    assert i18n.language() == "nl"
    assert "Nieuw spel" in texts(app.screen("home"))
    app.store.close()  # that app has stopped: one writer per database
    app = lang_app("en", db=tmp_path / "b.db")
    assert "Start new game" in texts(app.screen("home"))
    with Store.open(tmp_path / "c.db") as store:
        store.set_setting("ui.language", "klingon")  # a hand-edited database
    app = lang_app(None, db=tmp_path / "c.db")
    assert i18n.language() == "fr"  # the bad setting is ignored, with a note
    assert any("langue" in note for note in app.prefs.notes)


def test_choosing_a_language_in_settings_redraws_every_screen_keeping_the_game(lang_app: Any) -> None:
    from companion import i18n

    app = lang_app("en")
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    game = app.game_screen
    game.picker.roll()
    narration = list(game.narration)
    turns = len(app.session.turns)
    app.go("settings")
    settings = app.screen("settings")
    assert settings.language_buttons["en"].state == "down"
    tap(settings.language_buttons["nl"])
    pump(2)
    assert i18n.language() == "nl" and app.prefs.get("ui.language") == "nl"
    assert app.store.get_setting("ui.language") == "nl"  # saved for the next start
    assert app.sm.current == "settings" and app.screen("settings") is not settings
    shown = texts(app.screen("settings"))
    assert "Instellingen" in shown and "TAAL" in shown and "Settings" not in shown
    assert app.screen("settings").language_buttons["nl"].state == "down"
    assert "Nieuw spel" in texts(app.screen("home")) and app.title == "Tafelgenoot"
    new_game = app.game_screen
    assert new_game is not game and new_game.session is app.session
    assert len(app.session.turns) == turns and len(new_game.narration) == len(narration)
    app.go("game")
    pump(2)
    shown = texts(new_game)
    assert "Herstel" in shown and any("aan de beurt" in t for t in shown)
    assert new_game.ids.board.tokens == app.session.state.board_view()
    new_game.picker.roll()  # play goes on in the new screen
    assert len(app.session.turns) == turns + 1
    app.go("settings")
    tap(app.screen("settings").language_buttons["fr"])
    pump(2)
    assert "Réglages" in texts(app.screen("settings"))
    tap(app.screen("settings").language_buttons["en"])
    pump(2)
    assert "Settings" in texts(app.screen("settings")) and app.prefs.get("ui.language") == "en"


def test_a_language_without_a_catalogue_cannot_be_chosen(
        make_app: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from companion import i18n

    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "no-locale")
    app = make_app(lang="nl")
    assert i18n.language() == "en"  # asked for Dutch, none installed: English
    app.go("settings")
    buttons = app.screen("settings").language_buttons
    assert not buttons["en"].disabled and buttons["nl"].disabled and buttons["fr"].disabled


def test_lang_option() -> None:
    from ui.app import build_parser, parse_lang

    assert parse_lang("nl_BE.UTF-8") == "nl" and parse_lang("FR") == "fr"
    with pytest.raises(argparse.ArgumentTypeError, match="en, nl, fr"):
        parse_lang("de")
    assert build_parser().parse_args(["--lang", "fr"]).lang == "fr"
    assert build_parser().parse_args([]).lang is None


def test_a_dutch_apps_test_ends_without_building_its_screens_again(
        window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """lang_app's end leaves the language alone while the app listens (a switch to English there
    built every screen again, for nothing); make_app's close lets go of the app, then switches."""
    from companion import i18n
    from tests.ui.catalogue import LOCALE, in_language
    from tests.ui.conftest import apps
    from ui.application import CompanionApp

    built: list[str] = []
    make_screens = CompanionApp.make_screens
    monkeypatch.setattr(CompanionApp, "make_screens", lambda app: built.append(i18n.language()) or make_screens(app))
    with apps(window, tmp_path) as make_app:
        with in_language(make_app, LOCALE, monkeypatch) as make:
            make("nl")
        assert built == ["nl"] and i18n.language() == "nl"
    assert built == ["nl"] and i18n.language() == "en"
