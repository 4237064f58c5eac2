"""Each 3-D scene's position one move back, as the app confirms it (``bench/board.py --confirmed
last-move``; issue 31, session 29).

The app tells the Chop! Chop! reader the position confirmed before the move being made
(``ui.cammoves.know_position``: one move back). The 3-D sets hold, per group, positions several
random actions apart (``vision.synth.board3d_play.PLIES``); the generator plays every action in
between. Here the play is replayed and, for each scene, the position before its last player
action (not a chance outcome: a reveal follows the move that caused it) is kept, and checked:
that position with the actions from it on gives the scene's own labels.

The third family (``vision.synth.scene_c``) draws each group from its own random stream: the
play is replayed from the seed without rendering (``third_family``). The first and second
share one stream with the rendering: their play is only had by rendering the set again
(``rendered``, the command line below: slow), which writes ``last_move.json`` beside the copy
(and ``plays.pkl``: Chop! Chop!'s engine states and actions, for ``bench/board_moves.py``).

    .venv/bin/python bench/board_lastmove.py --renderer 3d|3d-b --seed S --out DIR [--games G --count-3d 48]
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from vision.synth import board3d_play  # noqa: E402

GROUP_3D = 8


class Recorder:
    """``board3d_play.Moved``: per layout taken, the state before its last player action and
    the actions from there to the layout."""

    def __init__(self) -> None:
        self.pre: Any = None
        self.actions: list[Any] = []
        self.taken: list[tuple[Any, list[Any]]] = []

    def __call__(self, state: Any, action: Any) -> None:
        if action is None:
            self.taken.append((self.pre, list(self.actions)))
        else:
            if not state.is_chance():
                self.pre, self.actions = state.clone(), []
            self.actions.append(action)

    def plays(self, layouts: list[board3d_play.Layout]) -> list[tuple[Any, list[Any]] | None]:
        """Each layout's engine state before its last player action and the actions from there
        to the layout (that player action first; None: the group's start, or none recorded),
        checked: the recorded actions from it give the layout's squares."""
        out: list[tuple[Any, list[Any]] | None] = []
        for k, (layout, (pre, acts)) in enumerate(zip(layouts, self.taken, strict=True)):
            if k == 0 or pre is None:
                out.append(None)
                continue
            state = pre.clone()
            for a in acts:
                state.apply(a)
            if dict(state.board_view()) != dict(layout.squares):
                raise ValueError(f"layout {k}: the move replayed does not give its position")
            out.append((pre, list(acts)))
        return out

    def positions(self, layouts: list[board3d_play.Layout]) -> list[dict[str, str] | None]:
        """Each layout's position one move back (None: the group's start, or none recorded),
        checked as ``plays``."""
        return [None if p is None else dict(sorted(p[0].board_view().items())) for p in self.plays(layouts)]


def third_family_plays(count: int, seed: int,
                       games: list[str] | None) -> dict[str, tuple[tuple[Any, list[Any]] | None, dict[str, str]]]:
    """Scene file -> (``Recorder.plays``' state before its last player action and the actions
    from there, or None; its squares) for a ``scene_c`` set, replayed from the seed without
    rendering."""
    from vision.boarddefaults import GAMES, board_for
    from vision.synth.scene_c import _plan, make_setup_c

    out: dict[str, tuple[tuple[Any, list[Any]] | None, dict[str, str]]] = {}
    for game, group_no, size, first in _plan(count, list(games or GAMES), GROUP_3D):
        board = board_for(game)  # as write_c_group draws it (default tilt and frame)
        rng = np.random.default_rng([seed, 31337, GAMES.index(game) if game in GAMES else len(GAMES), group_no])
        make_setup_c(board, rng, 45.0)
        rec = Recorder()
        layouts = board3d_play.group_layouts(board, size, rng, transient=True, moved=rec)
        for k, (play, layout) in enumerate(zip(rec.plays(layouts), layouts, strict=True)):
            out[f"images/{game}-{first + k:04d}.jpg"] = (play, dict(layout.squares))
    return out


def third_family(count: int, seed: int, games: list[str] | None) -> dict[str, tuple[dict[str, str] | None, dict[str, str]]]:
    """Scene file -> (its position one move back, its squares) for a ``scene_c`` set, replayed
    from the seed without rendering."""
    return {f: (None if play is None else dict(sorted(play[0].board_view().items())), sq)
            for f, (play, sq) in third_family_plays(count, seed, games).items()}


def rendered(renderer: str, out_dir: Path, count: int, seed: int, games: list[str] | None) -> Path:
    """Render a first (``3d``) or second (``3d-b``) family set again into ``out_dir`` recording
    the play; writes and returns ``out_dir``/last_move.json (file -> position one move back,
    and the file's squares, for checking against the set read)."""
    import vision.synth.board3d as b3
    import vision.synth.scene_b as sb

    mod: Any = b3 if renderer == "3d" else sb
    plain = mod.group_layouts
    kept: list[dict[str, str] | None] = []
    plays: list[tuple[Any, list[Any]] | None] = []

    def recording(board: Any, size: int, rng: np.random.Generator, transient: bool = False) -> Any:
        rec = Recorder()
        layouts = plain(board, size, rng, transient, moved=rec)
        kept.extend(rec.positions(layouts))
        plays.extend(rec.plays(layouts) if board.game == "chopchop" else [None] * len(layouts))
        return layouts

    mod.group_layouts = recording
    try:
        writer = b3.write_3d_dataset if renderer == "3d" else sb.write_b_dataset
        writer(out_dir, count, seed=seed, games=games, group_size=GROUP_3D)
    finally:
        mod.group_layouts = plain
    scenes = json.loads((out_dir / "labels.json").read_text(encoding="utf-8"))["scenes"]
    table = {str(sc["file"]): {"before": pos, "squares": sc["squares"]} for sc, pos in zip(scenes, kept, strict=True)}
    path = out_dir / "last_move.json"
    path.write_text(json.dumps(table, indent=1), encoding="utf-8")
    # the engine states and actions too (bench/board_moves.py --plays): Chop! Chop!'s scenes
    played = {str(sc["file"]): p for sc, p in zip(scenes, plays, strict=True) if p is not None}
    (out_dir / "plays.pkl").write_bytes(pickle.dumps(played))
    return path


def positions_for(renderer: str, root: Path, count: int, seed: int, games: list[str] | None,
                  table: Path | None) -> dict[str, dict[str, str] | None]:
    """Scene file -> position one move back for the set at ``root`` (``table``: a
    ``rendered`` last_move.json, needed for the first and second families), each checked
    against the set's labels."""
    if renderer == "3d-c":
        raw = {f: {"before": pos, "squares": sq} for f, (pos, sq) in third_family(count, seed, games).items()}
        where = f"seed {seed}"
    elif table is not None:
        raw = json.loads(table.read_text(encoding="utf-8"))
        where = str(table)
    else:
        raise ValueError(f"{renderer}: the play is had by rendering again: bench/board_lastmove.py, then --last-move")
    for sc in _scenes(root):  # the replayed play is this set's: every scene's squares alike
        if games and str(sc.get("board") or Path(str(sc["file"])).name.split("-")[0]) not in games:
            continue  # a game not replayed (--games): its scenes are not checked
        if raw.get(str(sc["file"]), {}).get("squares") != sc["squares"]:
            raise ValueError(f"{root}: {sc['file']} is not the scene {where} plays")
    return {f: v["before"] for f, v in raw.items()}


def _scenes(root: Path) -> list[dict[str, Any]]:
    return list(json.loads((Path(root) / "labels.json").read_text(encoding="utf-8"))["scenes"])


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--renderer", required=True, choices=["3d", "3d-b"])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True, help="a new folder: the set rendered again, and last_move.json")
    ap.add_argument("--count-3d", type=int, default=192)
    ap.add_argument("--games", default="")
    a = ap.parse_args()
    path = rendered(a.renderer, Path(a.out), a.count_3d, a.seed, a.games.split(",") if a.games else None)
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
