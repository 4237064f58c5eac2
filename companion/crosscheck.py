"""Cross-check what the camera sees with what the rules expect; mismatches become prompts.

    mismatches = crosscheck(state.board_view(), observation, min_confidence=0.6)

``observation`` maps square id -> (token or None for an empty square, confidence), as
``vision.pieces.BoardReading.squares`` gives it. Squares absent from the observation were not
seen (hidden by a hand, under the table) and are not judged. Squares seen with a confidence
below ``min_confidence`` are never trusted: they become ``Mismatch(kind="unsure")`` prompts only
when the expected contents there matter (something should stand there, or the camera thinks
something does), so the player is asked, never overruled.

Nothing here changes a game state: a :class:`Mismatch` is a question for the player ("Mouse
should be on 17; I see it on 16"), who moves the piece back or corrects the game by touch.

Tokens are compared as the camera can tell them apart: ``"mouse:2"`` counts as ``"mouse"``
(mice look alike), and a cube's arrow is compared only when the camera read one
(``"cube:?"`` matches any cube).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

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


def _label(token: str | None) -> str:
    if token is None:
        return "nothing"
    base, _, rest = token.partition(":")
    if base == "cube":
        return f"a cube pointing {dict(N='north', E='east', S='south', W='west').get(rest, '?')}"
    if base in ("pawn", "cat") and rest:
        return f"{rest.title()}'s {base}" if base == "pawn" else f"a {rest} cat"
    names = {"cat": "Cat", "mouse": "Mouse", "slab": "a face-down slab", "cheese": "a face-up cheese",
             "hole": "an open hole", "cat+mouse": "Cat and Mouse"}
    return names.get(base, token)


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
               min_confidence: float = 0.6) -> list[Mismatch]:
    """Every disagreement between ``expected_view`` (an engine's board_view) and the camera."""
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
            out.append(Mismatch("wrong", sq, exp, tok,
                                f"{sq} should hold {_label(exp)}; I see {_label(tok)} there",
                                confidence=conf))
    # Pair a missing piece with the same piece seen elsewhere: it was moved there.
    for sq, exp in missing:
        match = next((e for e in extra if _same(exp, e[1])), None)
        if match is not None:
            extra.remove(match)
            name = _label(exp)
            out.append(Mismatch("moved", sq, exp, match[1],
                                f"{name[0].upper() + name[1:]} should be on {sq}; I see it on {match[0]}",
                                seen_at=match[0], confidence=match[2]))
        else:
            conf = seen_conf[sq][1]
            out.append(Mismatch("missing", sq, exp, None,
                                f"{_label(exp)[0].upper() + _label(exp)[1:]} should be on {sq}; "
                                "I don't see it", confidence=conf))
    for sq, tok, conf in extra:
        out.append(Mismatch("extra", sq, None, tok,
                            f"I see {_label(tok)} on {sq}, where nothing should be",
                            confidence=conf))
    for sq, (tok, conf) in sorted(unsure.items()):
        exp = expected_view.get(sq)
        if exp is None and tok is None:
            continue
        out.append(Mismatch("unsure", sq, exp, tok,
                            f"I can't tell what is on {sq} (expected {_label(exp)}); please check",
                            confidence=conf))
    order = {"moved": 0, "wrong": 1, "missing": 2, "extra": 3, "unsure": 4}
    out.sort(key=lambda m: (order.get(m.kind, 9), m.square))
    return out


def check_state(state: HasBoardView, observation: Observation,
                min_confidence: float = 0.6) -> list[Mismatch]:
    """``crosscheck(state.board_view(), observation)`` for any game state."""
    return crosscheck(state.board_view(), observation, min_confidence)
