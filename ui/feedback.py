"""What the players see and hear when something happens on the game screen.

- :class:`BigThrow`: the throw just entered, drawn big over the board in the dice' own colours
  for :data:`THROW_SECONDS` (touches go through to the board). It replaces the old ``DiceShow``
  of ui.widgets.dice, which nothing used.
- :func:`animate_moves`: each piece that moved slides from square to square
  (:data:`STEP_SECONDS` a square) as a sprite over the board, never blocking input; the board
  shows it on its square when the sprite arrives.
- :func:`react`: a capture, a cheese, a lost turn and a win each get a short animation on the
  board and a sound cue (``hardware.cues``, silent while muted).

Motion is skipped when ``ui.reduced_motion`` is set in Settings, and every transient display
(motion and the big throw) when :data:`ANIMATE` is False (``COMPANION_ANIMATE=0``: the UI tests
set it so their screenshots and touches see the board at rest; a test that checks feedback turns
it back on); sound cues likewise with :data:`SOUNDS` (``COMPANION_CUES=0``).
"""

from __future__ import annotations

import math
import os
from collections import deque
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, RoundedRectangle
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.widget import Widget

from ui import art, theme

ANIMATE = os.environ.get("COMPANION_ANIMATE", "1").strip() != "0"
SOUNDS = os.environ.get("COMPANION_CUES", "1").strip() != "0"
"""False: no sound cue is even queued (``COMPANION_CUES=0``; the UI tests, which check cues
with a WAV-file output, turn it back on)."""
THROW_SECONDS = 2.0
STEP_SECONDS = 0.3
MAX_STEPS = 12
FLASH_SECONDS = 0.9

PIECE_KINDS = ("cat", "mouse", "mice", "pawn", "cube")
"""Tokens that move (slabs, cheese and holes stay where they are)."""

CUE_OF = {"Won": "win", "Captured": "capture", "CheeseTaken": "cheese", "LosesNextTurn": "lost_turn",
          "NoMove": "lost_turn", "DoubleSixForfeit": "lost_turn"}
"""Effect type -> sound cue; the first in this order wins when a turn has several."""


def motion_on(app: Any) -> bool:
    """Whether pieces may move on screen (not in tests, not with reduced motion)."""
    if not ANIMATE:
        return False
    prefs = getattr(app, "prefs", None)
    try:
        return not (prefs is not None and prefs.get("ui.reduced_motion"))
    except KeyError:
        return True


# -- the big throw ------------------------------------------------------------------------------

class BigThrow(Widget):
    """The last throw, big, over the board; hidden again after :data:`THROW_SECONDS`."""

    values = ListProperty([])
    colours = ListProperty([])
    shown = NumericProperty(0)
    """1 while the throw is on screen."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._hide_event: Any = None
        self.bind(pos=self._draw, size=self._draw, values=self._draw, colours=self._draw, shown=self._draw)

    def show(self, values: list[int], colours: list[str], seconds: float = THROW_SECONDS) -> None:
        self.values, self.colours = list(values), list(colours)
        self.shown = 1
        if self._hide_event is not None:
            self._hide_event.cancel()
        self._hide_event = Clock.schedule_once(lambda _dt: self.hide(), seconds)

    def hide(self) -> None:
        if self._hide_event is not None:
            self._hide_event.cancel()
            self._hide_event = None
        self.shown = 0

    def die_rects(self) -> list[tuple[float, float, float]]:
        """(left, bottom, side) of each die drawn, in window-parent pixels."""
        n = max(1, len(self.values))
        side = min(self.height * 0.5, (self.width * 0.8 - 24 * (n - 1)) / n, 150.0)
        total = n * side + 24 * (n - 1)
        x0, y0 = self.x + (self.width - total) / 2, self.y + (self.height - side) / 2  # not the lagging aliases
        return [(x0 + i * (side + 24), y0, side) for i in range(n)]

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        if not self.shown or not self.values or self.width < 20:
            return
        rects = self.die_rects()
        pad = rects[0][2] * 0.2
        left, bottom, side = rects[0]
        right = rects[-1][0] + side
        with self.canvas:
            Color(*theme.BG[:3], 0.82)
            RoundedRectangle(pos=(left - pad, bottom - pad), size=(right - left + 2 * pad, side + 2 * pad),
                             radius=[pad])
        for i, (x, y, s) in enumerate(rects):
            colour = str(self.colours[i]) if i < len(self.colours) else ""
            art.die(self.canvas, int(self.values[i]), x, y, s, colour)

    def on_touch_down(self, touch: Any) -> bool:
        return False  # the board under it stays touchable


# -- moving pieces --------------------------------------------------------------------------------

class PieceSprite(Widget):
    """One piece drawn with ui.art, centred on the widget (moved by an Animation)."""

    token = StringProperty("")
    radius = NumericProperty(10)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, token=self._draw, radius=self._draw)
        self._draw()

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        if self.token:
            art.piece(self.canvas, self.token, self.x + self.width / 2, self.y + self.height / 2, self.radius)

    def on_touch_down(self, touch: Any) -> bool:
        return False


def _kind(token: str) -> str:
    return token.split(":")[0]


def moved_pieces(before: dict[str, str], after: dict[str, str]) -> list[tuple[str, str, str]]:
    """(token, from square, to square) of every piece that left one square for another.

    A token (or, for a cube that turned on its way, a kind) that vanished from exactly one
    square and appeared on exactly one other moved; "cat+mouse" counts as two tokens."""

    def parts(view: dict[str, str]) -> set[tuple[str, str]]:
        return {(sq, t) for sq, tok in view.items() for t in str(tok).split("+") if _kind(t).startswith(PIECE_KINDS)}

    old, new = parts(before), parts(after)
    gone, came = old - new, new - old
    out: list[tuple[str, str, str]] = []
    for key in (lambda t: t, _kind):
        for name in sorted({key(t) for _sq, t in gone}):
            lost = [(sq, t) for sq, t in gone if key(t) == name]
            got = [(sq, t) for sq, t in came if key(t) == name]
            if len(lost) == 1 and len(got) == 1 and lost[0][0] != got[0][0]:
                out.append((got[0][1], lost[0][0], got[0][0]))
                gone.discard(lost[0])
                came.discard(got[0])
    return out


def path_between(board: Any, start: str, stop: str) -> list[str]:
    """The squares a piece passes from ``start`` to ``stop``, both included: a straight line
    of grid cells where there is one, else the shortest walk along the board's adjacency, else
    one hop."""
    squares = board.squares
    a, b = squares[start].cell, squares[stop].cell
    if a is not None and b is not None:
        dr, dc = b[0] - a[0], b[1] - a[1]
        n = max(abs(dr), abs(dc))
        if n and (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
            by_cell = {sq.cell: sid for sid, sq in squares.items() if sq.cell is not None}
            line = [by_cell.get((a[0] + dr * i // n, a[1] + dc * i // n)) for i in range(n + 1)]
            if all(line) and line[0] == start and line[-1] == stop:
                return [str(s) for s in line]
    seen = {start: ""}
    todo = deque([start])
    while todo:
        sq = todo.popleft()
        if sq == stop:
            path = [sq]
            while seen[path[-1]]:
                path.append(seen[path[-1]])
            path.reverse()
            return path if len(path) <= MAX_STEPS + 1 else [start, stop]
        for nb in board.neighbours(sq):
            if nb not in seen:
                seen[nb] = sq
                todo.append(nb)
    return [start, stop]


def animate_moves(screen: Any, before: dict[str, str]) -> list[Animation]:
    """Slide every piece that moved (``before`` -> the board's tokens now) square by square;
    while it travels its square shows what was there before. Returns the animations."""
    view = screen.ids.get("board")
    area = screen.ids.get("board_area")
    if view is None or area is None or view.board is None or not motion_on(screen.app):
        return []
    stop_moves(screen)  # a piece still sliding from the last move lands at once
    after = dict(view.tokens)
    moves = [m for m in moved_pieces(before, after) if m[1] in view.board.squares and m[2] in view.board.squares]
    if not moves:
        return []
    shown = dict(after)
    for _token, _frm, to in moves:
        if to in before:
            shown[to] = before[to]  # the victim stays until the cat arrives
        else:
            shown.pop(to, None)
    view.tokens = shown
    view._fit()  # the board's geometry now (a layout may be pending)
    anims: list[Animation] = []
    pending = [len(moves)]

    def arrived(sprite: PieceSprite) -> None:
        if sprite.parent is not None:
            sprite.parent.remove_widget(sprite)
        pending[0] -= 1
        if pending[0] == 0 and screen.state is not None:
            screen.refresh_board(screen.state)  # every piece on its square again

    for token, frm, to in moves:
        path = path_between(view.board, frm, to)
        x, y, w, h = view.square_rect(frm)
        r = min(w, h) * 0.42
        sprite = PieceSprite(token=token, radius=r, size_hint=(None, None), size=(2 * r, 2 * r))
        sprite.center = view.square_centre(frm)
        area.add_widget(sprite)
        anim: Animation | None = None
        for sq in path[1:]:
            step = Animation(center=view.square_centre(sq), duration=STEP_SECONDS, t="in_out_quad")
            anim = step if anim is None else anim + step
        assert anim is not None
        anim.bind(on_complete=lambda _a, s: arrived(s))
        anim.start(sprite)
        anims.append(anim)
    screen.moving = anims
    return anims


def sprites_of(area: Any) -> list[PieceSprite]:
    return [w for w in reversed(area.children) if isinstance(w, PieceSprite)]


def stop_moves(screen: Any) -> None:
    """End every move animation now: sprites gone, the board as the game stands."""
    area = screen.ids.get("board_area")
    if area is None:
        return
    sprites = sprites_of(area)
    for sprite in sprites:
        Animation.cancel_all(sprite)
        area.remove_widget(sprite)
    screen.moving = []
    if sprites and screen.state is not None:
        screen.refresh_board(screen.state)


# -- captures, cheese, lost turns, wins -------------------------------------------------------

class Flash(Widget):
    """A ring (or a picture) that grows and fades where something happened."""

    colour = ListProperty([1, 1, 1, 1])
    picture = StringProperty("")
    """A tile kind or token to draw inside the ring ("cheese", "knife", ...), or ""."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, opacity=self._draw)
        self._draw()

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        r = min(self.width, self.height) / 2
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        with self.canvas:
            Color(*self.colour[:3], 0.35)
            Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
            Color(*self.colour)
            Line(circle=(cx, cy, r), width=max(2.0, r * 0.08))
        if self.picture in art.TILE_COLOURS:
            art.tile_picture(self.canvas, self.picture, cx - r * 0.7, cy - r * 0.7, r * 1.4, r * 1.4)
        elif self.picture:
            art.piece(self.canvas, self.picture, cx, cy, r * 0.6)

    def on_touch_down(self, touch: Any) -> bool:
        return False


def cue_for(effects: list[Any]) -> str:
    """The sound cue for a turn's effects ("" for none)."""
    names = {type(e).__name__ for e in effects}
    for effect_name, cue in CUE_OF.items():
        if effect_name in names:
            return cue
    return ""


def react(screen: Any, effects: list[Any]) -> str:
    """The cue (played unless muted) and the flash for a turn's effects; returns the cue."""
    cue = cue_for(effects)
    if not cue:
        return ""
    app = screen.app
    player = getattr(app, "cues", None)
    if player is not None and SOUNDS:
        player.play(cue)
    if motion_on(app):
        _flash(screen, cue, effects)
    return cue


def _flash(screen: Any, cue: str, effects: list[Any]) -> None:
    view = screen.ids.get("board")
    area = screen.ids.get("board_area")
    if view is None or area is None or view.board is None:
        return
    square = ""
    for e in effects:
        sq = getattr(e, "square", "")
        if isinstance(sq, str) and sq in view.board.squares:
            square = sq
            break
    colour, picture = {"capture": (theme.BAD, ""), "cheese": (theme.PLAYER_COLOURS["cheese"], "cheese"),
                       "lost_turn": (theme.MUTED, ""), "win": (theme.GOOD, "")}[cue]
    if cue == "lost_turn" and any(type(e).__module__.endswith("chopchop_actions") for e in effects):
        picture = "knife"  # Chop! Chop!'s knife tile made the turn be lost
    if square and cue != "win":
        view._fit()  # the board's geometry now (a layout may be pending)
        x, y, w, h = view.square_rect(square)
        centre = view.square_centre(square)
        start, end = max(min(w, h) * 0.8, 36.0), max(min(w, h) * 3.0, 120.0)  # seen even on small squares
    else:
        centre = area.center
        start, end = min(area.width, area.height) * 0.25, min(area.width, area.height) * 0.9
    flash = Flash(colour=list(colour), picture=picture, size_hint=(None, None), size=(start, start))
    flash.center = centre
    area.add_widget(flash)
    seconds = FLASH_SECONDS * (1.6 if cue == "win" else 1.0)
    anim = Animation(size=(end, end), opacity=0.0, duration=seconds, t="out_quad")
    anim.bind(on_progress=lambda _a, w, _p: setattr(w, "center", centre))
    anim.bind(on_complete=lambda _a, w: w.parent.remove_widget(w) if w.parent is not None else None)
    anim.start(flash)
    if cue == "win":
        _confetti(area, seconds)


CONFETTI = ("#e5484d", "#3e7bfa", "#30a46c", "#f5d90a", "#ff8c42", "#8e4ec6")


def _confetti(area: Any, seconds: float, n: int = 18) -> None:
    """Coloured discs flying out from the board's centre and fading (a win)."""
    cx, cy = area.center
    reach = min(area.width, area.height) * 0.48
    for i in range(n):
        angle = 2 * math.pi * i / n
        dot = Flash(colour=list(theme.hex_colour(CONFETTI[i % len(CONFETTI)])), size_hint=(None, None),
                    size=(18, 18))
        dot.center = (cx, cy)
        area.add_widget(dot)
        far = reach * (0.7 + 0.3 * ((i * 7) % 5) / 4)
        target = (cx + math.cos(angle) * far - 9, cy + math.sin(angle) * far - 9)
        anim = Animation(pos=target, duration=seconds * 0.7, t="out_cubic") + Animation(opacity=0.0, duration=seconds * 0.3)
        anim.bind(on_complete=lambda _a, w: w.parent.remove_widget(w) if w.parent is not None else None)
        anim.start(dot)


def throw_values(effects: list[Any]) -> list[int]:
    """The dice of a throw among a turn's effects (a ``Thrown`` effect), or []."""
    for e in effects:
        if type(e).__name__ == "Thrown":
            dice = getattr(e, "dice", None)
            if isinstance(dice, tuple | list):
                return [int(v) for v in dice]
            value = getattr(e, "value", None)
            if isinstance(value, int):
                return [value]
    return []


def after_applied(screen: Any, effects: list[Any], before: dict[str, str]) -> None:
    """Everything the players see and hear after an action was applied and the screen redrawn."""
    values = throw_values(effects)
    big = screen.ids.get("big_throw")
    if values and big is not None and ANIMATE:
        big.show(values, list(getattr(screen, "throw_colours", [])))
    animate_moves(screen, before)
    react(screen, effects)
