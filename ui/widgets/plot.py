"""Per-player chips over time, drawn with Kivy graphics (no plotting library).

``set_history(rows)`` takes ``Store.player_history()``; for each player the running total of
Kat en Muis chips won (score) after each finished game is plotted as a line in the player's
colour, with the zero line, axis figures and a legend.
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.uix.widget import Widget

from companion.i18n import _
from ui import theme


def running_totals(rows: list[dict[str, Any]], game: str = "katenmuis") -> dict[str, list[float]]:
    """player -> cumulative score after each of their finished games (in time order)."""
    out: dict[str, list[float]] = {}
    for r in rows:
        if r.get("game") != game:
            continue
        series = out.setdefault(str(r["player"]), [])
        series.append((series[-1] if series else 0.0) + float(r["score"]))
    return out


class ChipsPlot(Widget):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.series: dict[str, list[float]] = {}
        self.bind(pos=self.redraw, size=self.redraw)

    def set_history(self, rows: list[dict[str, Any]]) -> None:
        self.series = running_totals(rows)
        self.redraw()

    def _text(self, text: str, size: int, colour: Any, width: float | None = None) -> Any:
        """A text texture; with ``width``, wrapped (centred) to that width."""
        lab = CoreLabel(text=text, font_size=size, color=colour,
                        text_size=(width, None) if width else (None, None), halign="center")
        lab.refresh()
        return lab.texture

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        if self.width < 50 or self.height < 50:
            return
        left, bottom, right, top = self.x + 56, self.y + 36, self.right - 12, self.top - 40
        with self.canvas:
            if not self.series:
                tex = self._text(_("No finished Kat en Muis games yet"), theme.FONT, theme.MUTED, self.width - 24)
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(self.center_x - tex.width / 2, self.center_y), size=tex.size)
                return
            values = [v for s in self.series.values() for v in s] + [0.0]
            lo, hi = min(values), max(values)
            if hi - lo < 1:
                hi, lo = hi + 1, lo - 1
            n = max(len(s) for s in self.series.values())

            def px(i: int, v: float) -> tuple[float, float]:
                x = left + (right - left) * (i / max(1, n - 1) if n > 1 else 0.5)
                y = bottom + (top - bottom) * (v - lo) / (hi - lo)
                return (x, y)

            Color(*theme.LINE)
            Line(points=[left, bottom, left, top], width=1)
            Line(points=[left, bottom, right, bottom], width=1)
            zy = px(0, 0.0)[1]
            Color(*theme.MUTED)
            Line(points=[left, zy, right, zy], width=1, dash_length=6, dash_offset=4)
            for v, y in ((hi, top), (lo, bottom), (0.0, zy)):
                tex = self._text(f"{v:+.0f}", theme.FONT_SMALL, theme.MUTED)
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(left - tex.width - 6, y - tex.height / 2), size=tex.size)
            tex = self._text(_("games 1..{n}").format(n=n), theme.FONT_SMALL, theme.MUTED)
            Rectangle(texture=tex, pos=(right - tex.width, self.y + 6), size=tex.size)
            lx = left + 8
            for i, (player, series) in enumerate(sorted(self.series.items())):
                colour = theme.FALLBACK[i % len(theme.FALLBACK)]
                Color(*colour)
                pts = [c for j, v in enumerate(series) for c in px(j, v)]
                if len(series) > 1:
                    Line(points=pts, width=2.2)
                for j, v in enumerate(series):
                    x, y = px(j, v)
                    Ellipse(pos=(x - 5, y - 5), size=(10, 10))
                tex = self._text(f"{player} {series[-1]:+.0f}", theme.FONT, colour)
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(lx, self.top - 32), size=tex.size)
                lx += tex.width + 24
