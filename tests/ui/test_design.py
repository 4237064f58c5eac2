"""Issue 28's design bar: every scene of tests/ui/scenes.py (the screens and states the screen
tests render), in English, Dutch and French, rendered offscreen at 800x480, saved to
artifacts/screens/<scene>_<lang>_800x480.png and measured (tests/ui/design.py):

- every text against its fill: >= 4.5:1, large text >= 3:1 (WCAG 2 relative luminance); board
  labels against their squares, the marks of the squares to touch >= 3:1 against each square;
- board labels at 16 px or more and never cut short; coordinates around every board;
- touch targets >= 48 px;
- every square a legal move starts from (or, a piece selected, ends on) marked on the board;
- no internal notation in any text a player sees.

The walk runs once per language; each check is its own test, so a failure names its check.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui import design
from tests.ui.catalogue import lang_app, locale_dir  # noqa: F401  (fixtures)
from tests.ui.helpers import pump, screenshot
from tests.ui.scenes import SCENES

LANGS = ["en", "nl", "fr"]
CHECKS = ("contrast", "board labels", "touch targets", "unmarked targets", "notation")
_walked: dict[str, dict[str, list[str]]] = {}


def _close_popups(app: Any) -> None:
    window = app.root.get_root_window()
    for w in list(window.children):
        if type(w).__name__.endswith("View") and hasattr(w, "dismiss"):
            w.dismiss(animation=False)
    pump(2)


def walk_scenes(app: Any, lang: str) -> dict[str, list[str]]:
    """Every scene built, rendered and measured: check -> problems ("scene: what")."""
    from ui import guide

    found: dict[str, list[str]] = {check: [] for check in CHECKS}
    for scene in SCENES:
        popup = scene.build(app)
        pump(3)
        target = popup if popup is not None else app.sm.current_screen
        screenshot(app.root, f"{scene.name}_{lang}_800x480")
        for check, problems in (
            ("contrast", design.contrast_problems(target)),
            ("board labels", design.board_label_problems(target)),
            ("touch targets", design.touch_problems(target)),
            ("unmarked targets", design.unmarked_targets(target) if popup is None else []),
            ("notation", design.notation_problems(target)),
        ):
            found[check] += [f"{scene.name}: {p}" for p in problems]
        _close_popups(app)
        guide.set_guide(app, False)
    return found


def _results(lang_app: Any, lang: str) -> dict[str, list[str]]:
    if lang not in _walked:
        _walked[lang] = walk_scenes(lang_app(lang), lang)
    return _walked[lang]


def _assert_none(found: dict[str, list[str]], check: str) -> None:
    problems = found[check]
    assert problems == [], f"{len(problems)} {check} problem(s):\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_contrast(lang_app: Any, lang: str) -> None:
    _assert_none(_results(lang_app, lang), "contrast")


@pytest.mark.parametrize("lang", LANGS)
def test_board_labels_readable_and_whole(lang_app: Any, lang: str) -> None:
    _assert_none(_results(lang_app, lang), "board labels")


@pytest.mark.parametrize("lang", LANGS)
def test_touch_targets(lang_app: Any, lang: str) -> None:
    _assert_none(_results(lang_app, lang), "touch targets")


@pytest.mark.parametrize("lang", LANGS)
def test_every_legal_target_marked(lang_app: Any, lang: str) -> None:
    _assert_none(_results(lang_app, lang), "unmarked targets")


@pytest.mark.parametrize("lang", LANGS)
def test_no_internal_notation(lang_app: Any, lang: str) -> None:
    _assert_none(_results(lang_app, lang), "notation")
