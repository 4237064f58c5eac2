"""Colours and sizes shared by every screen: one palette, readable from across the table.

Sizes are in pixels at the 800x480 reference display; the 7" panel is ~133 dpi, so 48 px is
about 9 mm (a comfortable fingertip) and 20 px text is readable from the other side of a table.
"""

from __future__ import annotations

Colour = tuple[float, float, float, float]


def hex_colour(text: str, alpha: float = 1.0) -> Colour:
    text = text.lstrip("#")
    r, g, b = (int(text[i : i + 2], 16) / 255.0 for i in (0, 2, 4))
    return (r, g, b, alpha)


BG = hex_colour("#1b1f2a")
PANEL = hex_colour("#262c3b")
PANEL_HI = hex_colour("#323a4e")
LINE = hex_colour("#3f4961")
TEXT = hex_colour("#f2f4f8")
MUTED = hex_colour("#a8b0c2")
ACCENT = hex_colour("#ffb547")
GOOD = hex_colour("#4cc38a")
BAD = hex_colour("#ef5b5b")
INFO = hex_colour("#5aa9f0")
BOARD = hex_colour("#f3e7cf")
BOARD_LINE = hex_colour("#8c7a5b")
BOARD_TEXT = hex_colour("#5b4a2e")
HIGHLIGHT = hex_colour("#4cc38a", 0.75)
SELECTED = hex_colour("#ffb547", 0.85)
MARK_DARK = hex_colour("#0b2545")
"""A square to touch: the outer ring and the dot (>= 3:1 against every light square fill)."""
MARK_LIGHT = hex_colour("#ffffff")
"""... and the inner ring and the dot's rim (>= 3:1 against the dark fills: holes, slabs)."""
FREE_TINT = hex_colour("#7fd1ff", 0.55)
"""Any of these squares will do (an Arrow tile's jump, a Qubism cube): the tint under the marks."""
INK_DARK = hex_colour("#14171f")
"""Text on a light fill (a green, blue or amber button)."""

TEXT_FLOOR = 4.5
"""WCAG 2 contrast floor for text; large text (>= 24 px, or >= 18.7 px bold) needs LARGE_FLOOR."""
LARGE_FLOOR = 3.0
MARK_FLOOR = 3.0
"""Highlights against the board (WCAG's floor for graphics)."""

MIN_TOUCH = 48
"""Smallest touch target, pixels."""
MIN_TEXT = 20
"""Smallest font size for key figures, pixels."""

FONT_SMALL = 18
FONT = 20
FONT_BIG = 26
FONT_HUGE = 34

# player / piece colours by token or player id (first match wins; see piece_colour)
PLAYER_COLOURS: dict[str, Colour] = {
    "cat": hex_colour("#ff8c42"),
    "mouse": hex_colour("#7fb2ff"),
    "red": hex_colour("#e5484d"),
    "blue": hex_colour("#3e7bfa"),
    "green": hex_colour("#30a46c"),
    "yellow": hex_colour("#f5d90a"),
    "black": hex_colour("#2b2b2b"),
    "white": hex_colour("#fafafa"),
    "south": hex_colour("#e5484d"),
    "north": hex_colour("#3e7bfa"),
    "west": hex_colour("#30a46c"),
    "east": hex_colour("#f5d90a"),
    "first": hex_colour("#e5484d"),
    "second": hex_colour("#3e7bfa"),
    "slab": hex_colour("#a48b6c"),
    "cheese": hex_colour("#ffd23f"),
    "hole": hex_colour("#3b2f2f"),
    "cube": hex_colour("#c9d1e0"),
    "pawn": hex_colour("#e5484d"),
}
FALLBACK = [hex_colour(c) for c in ("#e5484d", "#3e7bfa", "#30a46c", "#f5d90a", "#8e4ec6")]


def piece_colour(token: str, index: int = 0) -> Colour:
    """A colour for a board_view token ("cat", "mouse:2", "cat:red", "pawn:first", ...)."""
    parts = ["mouse" if p.startswith("mice") else p for p in token.split(":")]
    for part in reversed(parts):
        if part in PLAYER_COLOURS:
            return PLAYER_COLOURS[part]
    for part in parts:
        if part in PLAYER_COLOURS:
            return PLAYER_COLOURS[part]
    return FALLBACK[index % len(FALLBACK)]


def luminance(c: Colour) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def _linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else float(((v + 0.055) / 1.055) ** 2.4)


def relative_luminance(c: Colour | tuple[float, ...]) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0 black .. 1 white)."""
    return 0.2126 * _linear(c[0]) + 0.7152 * _linear(c[1]) + 0.0722 * _linear(c[2])


def contrast(a: Colour | tuple[float, ...], b: Colour | tuple[float, ...]) -> float:
    """WCAG 2's contrast ratio of two opaque colours (1 .. 21)."""
    la, lb = relative_luminance(a), relative_luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def blend(top: Colour | tuple[float, ...], under: Colour | tuple[float, ...]) -> Colour:
    """``top`` (with its alpha) painted over the opaque ``under``."""
    a = top[3] if len(top) > 3 else 1.0
    r, g, b = (top[i] * a + under[i] * (1 - a) for i in range(3))
    return (r, g, b, 1.0)


def is_large(font_size: float, bold: bool) -> bool:
    """WCAG's large text: 18 pt (24 px) or 14 pt bold (18.7 px)."""
    return font_size >= 24 or (bold and font_size >= 18.66)


def readable(fg: Colour | tuple[float, ...], fill: Colour | tuple[float, ...], floor: float = TEXT_FLOOR) -> Colour:
    """``fg`` where it reaches ``floor`` against ``fill``, else the dark or white ink that reads best."""
    fg4: Colour = (fg[0], fg[1], fg[2], fg[3] if len(fg) > 3 else 1.0)
    if contrast(fg4, fill) >= floor:
        return fg4
    return ink_on((fill[0], fill[1], fill[2], 1.0))


def text_colour(player: str, index: int = 0) -> Colour:
    """A player's colour made readable on the dark panels (black becomes light grey; a dark red
    or blue is lightened until it reaches 4.5:1 on the lightest panel)."""
    c = piece_colour(player, index)
    if luminance(c) < 0.35:
        return hex_colour("#d7dbe4")
    mixed = c
    for step in range(1, 11):
        if contrast(mixed, PANEL_HI) >= TEXT_FLOOR:
            break
        t = step / 10
        mixed = (c[0] + (1 - c[0]) * t, c[1] + (1 - c[1]) * t, c[2] + (1 - c[2]) * t, 1.0)
    return mixed


def ink_on(c: Colour) -> Colour:
    """Dark or white ink for text drawn on a fill of colour ``c``: whichever contrasts more."""
    white = (1.0, 1.0, 1.0, 1.0)
    return white if contrast(white, c) >= contrast(INK_DARK, c) else INK_DARK
