"""Cross-check what the camera sees with what the rules expect; mismatches become prompts.

    mismatches = crosscheck(state.board_view(), observation, min_confidence=0.6)

``observation`` maps square id -> (token or None for an empty square, confidence), as
``vision.pieces.BoardReading.squares`` gives it. Squares absent from the observation were not
seen (hidden by a hand, under the table) and are not judged. Squares seen with a confidence
below ``min_confidence`` are never trusted: they become ``Mismatch(kind="unsure")`` prompts only
when the expected contents there matter (something should stand there, or the camera thinks
something does), so the player is asked, never overruled.

Nothing here changes a game state: a :class:`Mismatch` is a question for the player ("Mouse
should be on 17/50 (square C2); I see it on 16/51 (square C3)", squares named by
:func:`phrase` as the game's ``square_words`` says them), who moves the piece back or corrects the game by touch.

Tokens are compared as the camera can tell them apart: ``"mouse:2"`` counts as ``"mouse"``
(mice look alike), and a cube's arrow is compared only when the camera read one
(``"cube:?"`` matches any cube).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from companion.games.base import SquareWords
from companion.i18n import N_, _, capitalised

Observation = Mapping[str, tuple[str | None, float]]


class HasBoardView(Protocol):
    def board_view(self) -> dict[str, str]: ...


@dataclass(frozen=True)
class Mismatch:
    """One disagreement between the rules and the camera, phrased for the player."""

    kind: str
    """"moved" (a piece expected on ``square`` is seen on ``seen_at``), "missing" (expected,
    not seen anywhere), "extra" (seen, not expected), "wrong" (a different piece or arrow
    stands there), "unsure" (the camera cannot tell; please check)."""
    square: str
    expected: str | None
    seen: str | None
    message: str
    seen_at: str | None = None
    confidence: float = 0.0


_NAMES = {"cat": N_("Cat"), "mouse": N_("Mouse"), "slab": N_("a face-down slab"), "cheese": N_("a face-up cheese"),
          "hole": N_("an open hole"), "cat+mouse": N_("Cat and Mouse")}
_ARROWS = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west")}


def _label(token: str | None) -> str:
    """A piece token in words, in the current language ("Cat", "a cube pointing north")."""
    if token is None:
        return _("nothing")
    base, _sep, rest = token.partition(":")
    if base == "cube":
        return _("a cube pointing {direction}").format(direction=_(_ARROWS[rest]) if rest in _ARROWS else "?")
    if base == "pawn" and rest:
        return _("{player}'s pawn").format(player=_(rest.title()))
    if base == "cat" and rest:
        return _("a {colour} cat").format(colour=_(rest))
    return _(_NAMES[base]) if base in _NAMES else _("a piece")


def phrase(m: Mismatch, squares: SquareWords | None = None) -> str:
    """The mismatch as a question for the players, in the current language, squares named as
    ``squares`` names them (the game's ``square_words``: "Mouse should be on C3; I see it on C2")."""
    w = squares or (lambda sq: sq)
    if m.kind == "moved":
        return _("{piece} should be on {square}; I see it on {other}").format(
            piece=capitalised(_label(m.expected)), square=w(m.square), other=w(m.seen_at or ""))
    if m.kind == "missing":
        return _("{piece} should be on {square}; I don't see it").format(
            piece=capitalised(_label(m.expected)), square=w(m.square))
    if m.kind == "extra":
        return _("I see {piece} on {square}, where nothing should be").format(piece=_label(m.seen), square=w(m.square))
    if m.kind == "wrong":
        return _("{square} should hold {piece}; I see {other} there").format(
            square=w(m.square), piece=_label(m.expected), other=_label(m.seen))
    return _("I can't tell what is on {square} (expected {piece}); please check").format(
        square=w(m.square), piece=_label(m.expected))


def _same(expected: str | None, seen: str | None) -> bool:
    if expected is None or seen is None:
        return expected is seen
    e_base, _, e_rest = expected.partition(":")
    s_base, _, s_rest = seen.partition(":")
    if e_base != s_base:
        return False
    if e_base == "mouse":
        return True  # mice look alike
    if e_base == "cube" and s_rest in ("", "?"):
        return True
    return e_rest == s_rest


def crosscheck(expected_view: Mapping[str, str], observation: Observation,
               min_confidence: float = 0.6, squares: SquareWords | None = None) -> list[Mismatch]:
    """Every disagreement between ``expected_view`` (an engine's board_view) and the camera;
    each message names squares as ``squares`` does (:func:`phrase`)."""
    out: list[Mismatch] = []
    seen_conf = {s: (t, c) for s, (t, c) in observation.items() if c >= min_confidence}
    unsure = {s: (t, c) for s, (t, c) in observation.items() if c < min_confidence}
    missing: list[tuple[str, str]] = []
    extra: list[tuple[str, str, float]] = []
    for sq, (tok, conf) in seen_conf.items():
        exp = expected_view.get(sq)
        if _same(exp, tok):
            continue
        if exp is None and tok is not None:
            extra.append((sq, tok, conf))
        elif exp is not None and tok is None:
            missing.append((sq, exp))
        else:
            out.append(Mismatch("wrong", sq, exp, tok, "", confidence=conf))
    # Pair a missing piece with the same piece seen elsewhere: it was moved there.
    for sq, exp in missing:
        match = next((e for e in extra if _same(exp, e[1])), None)
        if match is not None:
            extra.remove(match)
            out.append(Mismatch("moved", sq, exp, match[1], "", seen_at=match[0], confidence=match[2]))
        else:
            conf = seen_conf[sq][1]
            out.append(Mismatch("missing", sq, exp, None, "", confidence=conf))
    for sq, tok, conf in extra:
        out.append(Mismatch("extra", sq, None, tok, "", confidence=conf))
    for sq, (tok, conf) in sorted(unsure.items()):
        exp = expected_view.get(sq)
        if exp is None and tok is None:
            continue
        out.append(Mismatch("unsure", sq, exp, tok, "", confidence=conf))
    order = {"moved": 0, "wrong": 1, "missing": 2, "extra": 3, "unsure": 4}
    out.sort(key=lambda m: (order.get(m.kind, 9), m.square))
    return [dataclasses.replace(m, message=phrase(m, squares)) for m in out]


def check_state(state: HasBoardView, observation: Observation,
                min_confidence: float = 0.6) -> list[Mismatch]:
    """``crosscheck(state.board_view(), observation)`` for any game state, squares named on
    its game's board when it has one."""
    game = getattr(state, "game", None)
    words = getattr(game, "square_words", None)
    return crosscheck(state.board_view(), observation, min_confidence, words if callable(words) else None)
