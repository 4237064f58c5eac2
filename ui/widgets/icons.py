"""Icons on buttons, from Font Awesome Free's solid icon font (the ``fontawesomefree`` package:
the font under the SIL Open Font License 1.1, see the README).

``IconButton`` is a :class:`~ui.widgets.common.BigButton` with an ``icon`` name drawn beside
its text (the text stays the button's label: a picture alone is not enough for a first-time
player). The glyph is at least :data:`MIN_ICON` px. Without the font (a machine set up before the
dependency was added) the buttons keep their text and lose only the picture.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Rectangle
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.widget import Widget

from ui.widgets.common import BigButton

MIN_ICON = 24
"""Smallest icon, pixels (legible at 800x480 from across the table)."""
GAP = 8
"""Between the icon and the text, pixels."""

# Font Awesome 6 Free Solid code points, by the name the screens use
GLYPHS: dict[str, str] = {
    "home": "\uf015",  # house
    "undo": "\uf2ea",  # rotate-left
    "speaker": "\uf028",  # volume-high
    "mute": "\uf6a9",  # volume-xmark
    "gear": "\uf013",
    "camera": "\uf030",
    "dice": "\uf522",
    "help": "\uf059",  # circle-question
    "rules": "\uf518",  # book-open
    "history": "\uf1da",  # clock-rotate-left
    "play": "\uf04b",
    "plus": "\uf067",
    "trash": "\uf2ed",  # trash-can
    "trophy": "\uf091",
    "chart": "\uf201",  # chart-line
    "back": "\uf048",  # backward-step
    "forward": "\uf051",  # forward-step
    "list": "\uf03a",
    "zoom_out": "\uf010",  # magnifying-glass-minus
    "close": "\uf00d",  # xmark
    "check": "\uf00c",
    "repeat": "\uf363",
    "board": "\uf00a",  # table-cells
    "back_arrow": "\uf060",  # arrow-left
    "setup": "\uf7d9",  # screwdriver-wrench
}


def font_path() -> Path | None:
    """The solid icon font's file, or None when the package is not installed."""
    try:
        import fontawesomefree
    except ImportError:
        return None
    path = Path(fontawesomefree.__file__).parent / "static" / "fontawesomefree" / "webfonts" / "fa-solid-900.ttf"
    return path if path.exists() else None


_textures: dict[tuple[str, int], Any] = {}


def icon_texture(name: str, size: int) -> Any:
    """The white glyph of icon ``name`` at ``size`` px (cached), or None (no font, no such icon)."""
    key = (name, size)
    if key not in _textures:
        path = font_path()
        glyph = GLYPHS.get(name)
        if path is None or glyph is None:
            _textures[key] = None
        else:
            core = CoreLabel(text=glyph, font_size=size, font_name=str(path))
            core.refresh()
            _textures[key] = core.texture
    return _textures[key]


class IconButton(BigButton):
    """A button with an icon beside its text; both centred together, in the text's colour."""

    icon = StringProperty("")
    icon_size = NumericProperty(MIN_ICON)
    stacked = BooleanProperty(False)
    """The icon above the text (a crowded top bar) instead of beside it."""

    def __init__(self, **kwargs: Any) -> None:
        self._icon_colour: Any = None
        self._place = Clock.create_trigger(self._place_now, -1)  # after the layout settles
        super().__init__(**kwargs)
        with self.canvas.after:
            self._icon_colour = Color(*self.color)
            self._icon_rect = Rectangle(size=(0, 0))
        self.bind(icon=self._relayout, icon_size=self._relayout, font_size=self._relayout, stacked=self._relayout,
                  pos=self._place, size=self._place, texture_size=self._place, color=self._place,
                  opacity=self._place)
        self._relayout()

    @property
    def icon_px(self) -> int:
        if self.stacked:
            return int(max(MIN_ICON, self.icon_size))
        return int(max(MIN_ICON, self.icon_size, self.font_size + 4))

    def _relayout(self, *_: Any) -> None:
        texture = icon_texture(self.icon, self.icon_px) if self.icon else None
        if texture is None:
            padding = [0, 0, 0, 0]
        elif self.stacked:
            padding = [0, texture.height - 2, 0, 0]
        else:
            padding = [texture.width + GAP, 0, 0, 0]
        if list(_four(self.padding)) != padding:
            self.padding = padding
        self._place()

    def _place_now(self, *_: Any) -> None:
        if self._icon_colour is None:
            return
        texture = icon_texture(self.icon, self.icon_px) if self.icon else None
        if texture is None:
            self._icon_rect.size = (0, 0)
            return
        w, h = texture.size
        if self.stacked:  # centred above the text, at the top of the label's texture
            self._icon_rect.texture = texture
            self._icon_rect.pos = (round(self.center_x - w / 2),
                                   round(self.center_y + self.texture_size[1] / 2 - h + 1))
            self._icon_rect.size = (w, h)
            self._icon_colour.rgba = tuple(self.color)
            return
        pad = _four(self.padding)[0]
        # the label's texture (the left padding, then the text area) is centred in the button,
        # and each line centred in the text area: the icon goes just left of the line
        area = max(0.0, self.texture_size[0] - pad)
        line = min(area, float(self._label.get_extents(self.text)[0])) if self.text else 0.0
        x = max(self.x + 4, self.center_x - (pad + line) / 2)
        self._icon_rect.texture = texture
        self._icon_rect.pos = (round(x), round(self.center_y - h / 2))
        self._icon_rect.size = (w, h)
        self._icon_colour.rgba = tuple(self.color)


def _four(padding: Any) -> tuple[float, float, float, float]:
    values = list(padding)
    if len(values) == 1:
        values = values * 4
    elif len(values) == 2:
        values = [values[0], values[1], values[0], values[1]]
    return values[0], values[1], values[2], values[3]


class IconLabel(Widget):
    """An icon alone (a picture beside a text that says it, such as the winner's trophy)."""

    icon = StringProperty("")
    icon_size = NumericProperty(MIN_ICON)
    color = ColorProperty([1, 1, 1, 1])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas:
            self._colour = Color(*self.color)
            self._rect = Rectangle(size=(0, 0))
        self.bind(icon=self._draw, icon_size=self._draw, color=self._draw, pos=self._draw, size=self._draw)
        self._draw()

    def _draw(self, *_: Any) -> None:
        texture = icon_texture(self.icon, int(max(MIN_ICON, self.icon_size))) if self.icon else None
        self._colour.rgba = tuple(self.color)
        if texture is None:
            self._rect.size = (0, 0)
            return
        self._rect.texture = texture
        self._rect.size = texture.size
        self._rect.pos = (round(self.center_x - texture.width / 2), round(self.center_y - texture.height / 2))
