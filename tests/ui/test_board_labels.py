"""The words printed on a board's squares, on screen: in the language in use ("Kat", "Chat"),
and none on squares that share their place (Chop! Chop!'s table top over the floor under it,
where the pieces fill the cell and a corner label was drawn under them)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.catalogue import lang_app, locale_dir  # noqa: F401  (fixtures)
from tests.ui.helpers import pump


def _drawn(screen: Any, what: str = "drawn") -> dict[str, str]:
    """square label's place -> its text as drawn ("" where it would not fit whole), or as meant."""
    pump(2)
    return {lab.where: getattr(lab, what) for lab in screen.ids.board.drawn_labels if lab.where.startswith("square ")}


@pytest.mark.parametrize(("lang", "cat"), [("en", "Cat"), ("nl", "Kat"), ("fr", "Chat")])
def test_square_words_are_drawn_in_the_language_in_use(lang_app: Any, lang: str, cat: str) -> None:
    app = lang_app(lang)
    app.start_game("katenmuis", {}, {})
    drawn = _drawn(app.game_screen, "intended")
    assert drawn["square cat-start"] == cat  # (in French "Chat" is wider than the square: not drawn)
    assert drawn["square 1"] == "1/66"  # numbers as printed


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_chop_chop_table_squares_carry_no_label_under_their_pieces(lang_app: Any, lang: str) -> None:
    app = lang_app(lang)
    app.start_game("chopchop", {}, {})
    screen = app.game_screen
    drawn = _drawn(screen)
    table = [sid for sid, sq in screen.board.squares.items() if sq.label == "table"]
    assert len(table) == 6
    assert not any(f"square {sid}" in drawn for sid in table), drawn
    assert not any(text in ("table", "tafel") for text in drawn.values())
