"""The design checks of issue 28, measured on rendered widgets (tests/ui/test_design.py):

- ``contrast_problems``: every visible text against the fill under it (its own or its nearest
  ancestor's background, read from the widgets' canvas instructions), WCAG 2 contrast >= 4.5:1,
  >= 3:1 for large text (>= 24 px, or >= 18.7 px bold); a board's labels against their squares
  and its marks (>= 3:1) against every marked square;
- ``board_label_problems``: a board label under 16 px, or drawn other than intended (cut short);
  a board on screen without its coordinates;
- ``touch_problems``: a button or other touchable under 48 px (and a board's path numbers);
- ``unmarked_targets``: a square a legal move starts from (or ends on, once a piece is
  selected) that the board does not mark;
- ``notation_problems``: player-visible text in internal notation (``top:``, `` via ``,
  ``mouse:3``, ``(K5)``, snake_case words, raw exception text).
"""

from __future__ import annotations

import re
from typing import Any

from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from tests.ui.helpers import small_touch_targets, visible, walk
from ui import theme

_COLOUR_TAG = re.compile(r"\[color=#?([0-9a-fA-F]{6})\]")


def own_fill(widget: Widget) -> Any:
    """The colour a widget paints behind itself (the last Color before a rectangle the widget's
    size in its canvas.before), or None."""
    if isinstance(widget, ModalView):
        return tuple(widget.background_color)
    found = None
    colour: Any = None
    for canvas in (widget.canvas.before,):
        for ins in canvas.children:
            if isinstance(ins, Color):
                colour = tuple(ins.rgba)
            elif isinstance(ins, Rectangle | RoundedRectangle) and colour is not None and colour[3] > 0:
                (x, y), (w, h) = ins.pos, ins.size
                if abs(x - widget.x) <= 2 and abs(y - widget.y) <= 2 and abs(w - widget.width) <= 2 \
                        and abs(h - widget.height) <= 2:
                    found = colour
    return found


def fill_under(widget: Widget) -> Any:
    """The opaque colour under a widget: its own fill, else its nearest ancestor's, blended
    where a fill is translucent; the screen's background at the top."""
    layers = []
    w: Any = widget
    while isinstance(w, Widget):
        fill = own_fill(w)
        if fill is not None:
            layers.append(fill)
            if fill[3] >= 0.999:
                break
        w = w.parent
    colour: Any = theme.BG
    for fill in reversed(layers):
        colour = theme.blend(fill, colour)
    return colour


def _active(w: Widget) -> bool:
    return visible(w) and not getattr(w, "disabled", False)


def contrast_problems(root: Widget) -> list[str]:
    from ui.widgets.board import BoardView

    bad = []
    for w in walk(root):
        if isinstance(w, Label) and w.text.strip() and _active(w):
            fill = fill_under(w)
            ink = theme.blend(tuple(w.color), fill)
            floor = theme.LARGE_FLOOR if theme.is_large(w.font_size, w.bold) else theme.TEXT_FLOOR
            inks = [ink] + [theme.hex_colour(h) for h in _COLOUR_TAG.findall(w.text)] if w.markup else [ink]
            for c in inks:
                ratio = theme.contrast(c, fill)
                if ratio < floor - 0.005:
                    bad.append(f"{type(w).__name__} {w.text!r:.40}: {ratio:.2f}:1 < {floor}:1 "
                               f"({_hex(c)} on {_hex(fill)}, {w.font_size:.0f} px{' bold' if w.bold else ''})")
        elif isinstance(w, BoardView) and visible(w) and w.board is not None:
            ground = fill_under(w)
            for lab in w.drawn_labels:
                if not lab.drawn:
                    continue
                fill = lab.fill if lab.fill is not None else ground
                floor = theme.LARGE_FLOOR if theme.is_large(lab.font_size, False) else theme.TEXT_FLOOR
                ratio = theme.contrast(lab.ink, fill)
                if ratio < floor - 0.005:
                    bad.append(f"board {lab.where} {lab.drawn!r}: {ratio:.2f}:1 < {floor}:1")
            for sid in w.marked:
                fill = w.square_fills.get(sid)
                if fill is None:
                    continue
                ratio = max(theme.contrast(theme.MARK_DARK, fill), theme.contrast(theme.MARK_LIGHT, fill))
                if ratio < theme.MARK_FLOOR:
                    bad.append(f"board mark on {sid}: {ratio:.2f}:1 < {theme.MARK_FLOOR}:1 against {_hex(fill)}")
    return bad


def _hex(c: Any) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in c[:3])


def boards(root: Widget) -> list[Any]:
    from ui.widgets.board import BoardView

    return [w for w in walk(root) if isinstance(w, BoardView) and visible(w) and w.board is not None]


def board_label_problems(root: Widget) -> list[str]:
    from companion.boards.coords import axes

    bad = []
    for view in boards(root):
        for lab in view.drawn_labels:
            if lab.drawn and lab.font_size < 16:
                bad.append(f"board {lab.where} {lab.drawn!r} at {lab.font_size:.0f} px < 16 px")
            if lab.drawn and lab.drawn != lab.intended:
                bad.append(f"board {lab.where}: {lab.drawn!r} drawn for {lab.intended!r}")
        frame = axes(view.board)
        if frame is not None and view.zoom_rect is None:
            drawn = {lab.drawn for lab in view.drawn_labels if lab.where.startswith(("column ", "row "))}
            missing = [t for t in frame.column_labels() + frame.row_labels() if t not in drawn]
            if missing:
                bad.append(f"board {view.board.name}: coordinates {missing} not drawn")
    return bad


def touch_problems(root: Widget) -> list[str]:
    bad = list(small_touch_targets(root))
    for view in boards(root):
        for index, _x, _y, r in view.path_badges:
            if 2 * r < 48:
                bad.append(f"board path {index + 1}: {2 * r:.0f} px < 48 px")
    return bad


def unmarked_targets(screen: Any) -> list[str]:
    """Squares a legal move starts from (nothing selected) or ends on (a piece selected) that the
    board leaves unmarked, on a game screen waiting for a person's move."""
    from companion.games.base import CHANCE
    from ui import actions

    state = getattr(screen, "state", None)
    view = getattr(screen, "ids", {}).get("board")
    if state is None or view is None or screen.board is None or state.is_over():
        return []
    if state.to_move() in (None, CHANCE) or not visible(view):
        return []
    turn = getattr(screen, "_companion_turn", None)
    session = screen.session
    if turn is not None and session is not None and session.companions and turn.seats is not None \
            and turn.seats.due() is not None:
        return []  # the companion's own move, shown for the players to make
    if screen.path_choices:
        return [] if len(view.path_badges) == len(screen.path_choices) else \
            [f"{len(screen.path_choices)} ways offered, {len(view.path_badges)} numbers drawn"]
    squares = screen.board.squares
    pieces = screen.pieces()
    want: set[str] = set()
    for a in state.legal_actions():
        named = actions.squares_of(a, squares, pieces)
        if not named:
            continue
        if screen.selected:
            if named[0] == screen.selected:
                want.add(named[-1])
        else:
            want.add(named[0])
    missing = sorted(want - view.marked)
    return [f"{len(missing)} of {len(want)} squares to touch not marked: {missing[:8]}"] if missing else []


NOTATION = [
    (re.compile(r"\btop:"), "a table-top square id"),
    (re.compile(r"\bvia\b"), "'via'"),
    (re.compile(r"\b[a-z]+:\d"), "a piece id like mouse:3"),
    (re.compile(r"\([A-Z]{1,2}\d+[a-z]?\)"), "a rule id like (K5)"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a snake_case word"),
    (re.compile(r"Traceback|Error:|Exception|errno|\w+\.py\b|: \w+:\d+:"), "raw exception text"),
]


def notation_problems(root: Widget) -> list[str]:
    bad = []
    for w in walk(root):
        if isinstance(w, Label) and w.text.strip() and visible(w):
            text = re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", w.text) if w.markup else w.text
            for pattern, what in NOTATION:
                m = pattern.search(text)
                if m:
                    bad.append(f"{type(w).__name__} {text!r:.60}: {what} ({m.group(0)!r})")
    return bad
