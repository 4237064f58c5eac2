"""How to play shows the pictures of the Chop! Chop! tiles a page names (ui/art.py's, as on the
tile picker), and takes no room for them on a page that names none."""

from __future__ import annotations

from typing import Any

from tests.ui.helpers import pump, tap


def test_chop_chop_pages_show_the_tiles_they_name(make_app: Any) -> None:
    app = make_app()
    app.go("home")
    app.screen("home").select_game("chopchop")
    tap(app.screen("home").ids.howto_button)
    howto = app.screen("howto")
    named = {page.tiles for _s, page in howto.pages if page.tiles}
    assert {("cheese",), ("fork",), ("knife",), ("crockery",), ("arrow",), ("plus1", "plus2")} <= named
    for index, (_s, page) in enumerate(howto.pages):
        howto.go(index)
        pump()
        row = howto.ids.tiles_row
        assert [icon.tile for icon in howto.tile_icons] == list(page.tiles)
        assert all(icon.parent.parent == row for icon in howto.tile_icons)  # (row: a weak proxy)
        assert (row.height > 0) == bool(page.tiles), index
    cheese = next(i for i, (_s, p) in enumerate(howto.pages) if p.tiles == ("cheese",))
    howto.go(cheese)
    pump(2)
    icon = howto.tile_icons[0]
    assert icon.height >= 40 and len(icon.canvas.children) > 3  # drawn, not an empty box
    assert "cheese" in [w.text for w in icon.parent.children if hasattr(w, "text")]
