"""bench/board_moves.py: the app's own Chop! Chop! figure: which legal moves the camera's reading
of each scene shows (vision.chop_who.camera_moves from the state one move back), judged against
the move played."""

from __future__ import annotations

from typing import Any

from bench import board_lastmove as lm
from bench import board_moves as bm


def _observe(view: dict[str, str], conf: float = 0.95) -> dict[str, tuple[str | None, float]]:
    from vision.boarddefaults import board_for

    out: dict[str, tuple[str | None, float]] = {s: (None, conf) for s in board_for("chopchop").squares}
    for s, t in view.items():
        out[s] = (t.split(":")[0] if t.startswith("mouse") else t, conf)
    return out


def _plays() -> dict[str, tuple[Any, list[Any]]]:
    return {f: play for f, (play, _) in lm.third_family_plays(16, 7, ["chopchop"]).items() if play is not None}


def test_the_played_move_is_the_first_action_and_gives_the_scene() -> None:
    raw = lm.third_family_plays(16, 7, ["chopchop"])
    plays = {f: p for f, (p, _) in raw.items() if p is not None}
    assert len(plays) == 14  # two groups of 8: each group's start has no move before it
    for f, (pre, acts) in plays.items():
        assert not pre.is_chance()  # the state a player acts in
        state = pre.clone()
        for a in acts:
            state.apply(a)
        assert dict(state.board_view()) == raw[f][1]
        assert acts[0] in pre.legal_actions()


def test_a_true_reading_is_never_a_wrong_proposal_and_the_truth_always_fits() -> None:
    plays = _plays()
    readings = {}
    for f, (pre, acts) in plays.items():
        state = pre.clone()
        for a in acts:
            state.apply(a)
        readings[f] = _observe(dict(state.board_view()))
    counts, lines = bm.score(plays, readings)
    verdicts = {v for _, v in counts}
    assert "proposed WRONG" not in verdicts and "one square WRONG" not in verdicts
    assert "asked (none fits)" not in verdicts  # the truth's result always fits its own move
    assert counts and sum(counts.values()) == sum(bm.move_kind(p, a[0]) != "other" for p, a in plays.values())
    assert "moves " in bm.report(counts, lines)


def test_a_reading_of_another_legal_move_is_counted_wrong_and_none_read_is_asked() -> None:
    plays = _plays()
    wrong = none = 0
    for f, (pre, acts) in plays.items():
        played = acts[0]
        others = [a for a in pre.legal_actions() if type(a).__name__ in ("Move", "Teleport", "PlaceCat")
                  and a != played]
        for other in others:
            trial = pre.clone()
            trial.apply(other)  # its slab, if any, not turned yet: no figure either way
            got = bm.judge(pre, played, _observe(dict(trial.board_view())))
            if got[0] == "proposed WRONG":
                assert got[1] == (other,)
                wrong += 1
                break
        # the board as it was before the move: no legal move shows it
        verdict, fits = bm.judge(pre, played, _observe(dict(pre.board_view())))
        assert verdict == "asked (none fits)" and fits == ()
        none += 1
    assert wrong >= 3 and none == len(plays)


def test_the_kinds_of_moves() -> None:
    kinds = {bm.move_kind(pre, acts[0]) for pre, acts in _plays().values()}
    assert kinds <= {"cat placed", "cat to table top", "cat on floor", "mouse", "teleport cat",
                     "teleport mouse", "other"}
    assert "mouse" in kinds


def test_where_none_fits_the_offer_of_the_likeliest_is_counted() -> None:
    plays = _plays()
    readings = {}
    for f, (pre, acts) in plays.items():
        readings[f] = _observe(dict(pre.board_view()))  # nothing moved: none fits, nothing offered
    counts, lines = bm.score(plays, readings)
    near: dict[str, int] = {}
    for (_, v), n in counts.items():
        if v.startswith("near: "):
            near[v] = near.get(v, 0) + n
    assert sum(near.values()) == sum(n for (_, v), n in counts.items() if v == "asked (none fits)") > 0
    assert set(near) <= {"near: none offered, among first 3", "near: none offered, not among"}
    assert "the likeliest offered" in bm.report(counts, lines)
    for f, (pre, acts) in plays.items():  # the end square misread: the played move offered
        trial = pre.clone()
        trial.apply(acts[0])
        reading = _observe(dict(trial.board_view()))
        end = getattr(acts[0], "to", "")
        if end in reading and not end.startswith("top:"):
            reading[end] = (None, 0.5)
            if bm.judge(pre, acts[0], reading)[0] == "asked (none fits)":
                verdict, rank = bm.near(pre, acts[0], reading)
                assert verdict in ("first", "second", "third") and rank >= 1
