"""Cross-check: the camera's observation against the engine's board_view -> prompts."""

from __future__ import annotations

from typing import Any

from companion.crosscheck import Mismatch, check_state, crosscheck
from companion.games.base import State
from tests.companion.toygame import Toy, ToyState


class BoardToyState(ToyState):
    """The toy race with a board view: each player's piece on square "<pos>"."""

    def board_view(self) -> dict[str, str]:
        return {str(p): player for player, p in self.pos.items() if p > 0}


def _seen(**squares: Any) -> dict[str, tuple[str | None, float]]:
    return {k.lstrip("s"): v for k, v in squares.items()}


def test_wrong_move_gives_a_prompt_naming_both_squares() -> None:
    from companion.games.katenmuis import KatEnMuis, Throw

    state = KatEnMuis().new_state()
    state.apply(Throw((3, 4)))  # Cat moves 7 (to red 7)
    expected = state.board_view()
    assert expected.get("7") == "cat"
    observation = {sid: (None, 0.95) for sid in (str(k) for k in range(1, 67))}
    observation["6"] = ("cat", 0.93)  # the player moved one square short
    observation["mouse-start"] = ("mouse", 0.9)
    prompts = check_state(state, observation)
    assert [m.kind for m in prompts] == ["moved"]
    m = prompts[0]
    assert (m.square, m.seen_at, m.expected) == ("7", "6", "cat")
    # the square as printed on it (red/black) and where it is, chess-style
    assert m.message == "Cat should be on 7/60 (square B1); I see it on 6/61 (square A1)"
    # Nothing was changed behind the players' back.
    assert state.board_view() == expected


def test_agreement_gives_no_prompt_and_mice_look_alike() -> None:
    view = {"2,3": "mouse:1", "0,0": "slab", "4,4": "cube:N"}
    seen = {"2,3": ("mouse", 0.9), "0,0": ("slab", 0.8), "4,4": ("cube:?", 0.7), "1,1": (None, 0.99)}
    assert crosscheck(view, seen) == []


def test_low_confidence_is_asked_not_trusted() -> None:
    state = BoardToyState(Toy(), {"a": 1, "b": 2}, "a", None)
    seen = {"1": (None, 0.3), "2": ("b", 0.95), "3": ("a", 0.2)}
    prompts = check_state(state, seen)
    assert {m.kind for m in prompts} == {"unsure"}
    assert {m.square for m in prompts} == {"1", "3"}
    assert all("please check" in m.message for m in prompts)


def test_missing_extra_and_wrong_pieces() -> None:
    view = {"a": "cat:red", "b": "cube:N", "c": "cheese"}
    seen = {"a": (None, 0.9), "b": ("cube:S", 0.9), "c": ("cheese", 0.9), "d": ("slab", 0.9)}
    kinds = {(m.kind, m.square) for m in crosscheck(view, seen)}
    assert kinds == {("wrong", "b"), ("missing", "a"), ("extra", "d")}
    wrong = next(m for m in crosscheck(view, seen) if m.kind == "wrong")
    assert isinstance(wrong, Mismatch) and "pointing south" in wrong.message


def test_unseen_squares_are_not_judged() -> None:
    assert crosscheck({"9": "cat"}, {"1": (None, 0.9)}) == []
    assert isinstance(BoardToyState(Toy(), {"a": 0, "b": 0}, "a", None), State)
