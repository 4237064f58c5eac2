"""``companion board ...``: print boards, read a board from a photo, evaluate, calibrate.

    companion board print GAME -o FILE.pdf|.png [--paper A4|A3|Letter] [--markers-only]
    companion board read IMAGE --board GAME [--json] [--model MODEL.json]
    companion board learn IMAGE --board GAME -o MODEL.json [--position POS.json] [--model OLD.json]
    companion board eval DIR [--json]
    companion board synth DIR --count N [--seed S] [--games g1,g2] [--renderer main|alt|3d]
    companion board calibrate --board GAME --image PHOTO --corners x,y x,y x,y x,y -o OUT.toml
    companion board calibrate --board katenmuis --image PHOTO --points-file PTS.txt -o OUT.toml

An existing output file is never replaced without --force; its folder must exist.
GAME is a shipped board name (katenmuis, chopchop, kilkenny, qubism) or a board file path.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.boards import BoardError
from companion.i18n import _
from companion.limits import MAX_JSON_FILE_BYTES, read_text_capped
from companion.outfile import check_output, check_output_folder

# Small matrix work in the readers is faster single-threaded than through a BLAS thread pool.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


def _fail(msg: str) -> int:
    print(f"companion board: {msg}", file=sys.stderr)
    return 2


def _cmd_print(args: argparse.Namespace) -> int:
    from vision.boarddefaults import board_for
    from vision.printing import PAPER_NAMES, print_board

    check_output(args.output, (".pdf", ".png"), args.force)
    board = board_for(args.game)
    out = print_board(board, args.output, paper=args.paper, markers_only=args.markers_only)
    what = "markers" if args.markers_only else "board"
    print(f"wrote {out} ({board.title} {what}, {PAPER_NAMES[args.paper]}, 300 dpi)")
    return 0


def _image(path: Path) -> tuple[Any, str]:
    """(the picture at ``path`` as BGR, "") or (None, why not): loaded through
    ``vision.imageload`` (refused before decoding when absurdly big) and scaled down to the
    board stages' working size, ``vision.limits.BOARD_MAX_SIDE``."""
    from vision.errors import VisionError
    from vision.imageload import load_image
    from vision.limits import BOARD_MAX_SIDE

    try:
        return load_image(path, BOARD_MAX_SIDE).image, ""
    except VisionError as exc:
        return None, str(exc)


def _cmd_read(args: argparse.Namespace) -> int:
    from vision.boarddefaults import board_for
    from vision.pieces import PieceModel, read_board

    board = board_for(args.board)
    image, why = _image(Path(args.image))
    if image is None:
        return _fail(why)
    model = PieceModel.load(args.model) if args.model else None
    reading = read_board(image, board, model=model)
    if args.json:
        print(json.dumps(reading.to_json(), indent=1))
        return 0
    if not reading.found:
        print(f"board {board.name} not found (no marker of ids "
              f"{[m.id for m in board.markers]} visible)")
        return 0
    pose = reading.pose
    print(f"board {board.name} found: markers {list(pose.markers)}, error "
          f"{pose.error_px:.2f} px, confidence {pose.confidence:.2f}")
    for sid, (token, conf) in reading.squares.items():
        if token is not None:
            print(f"  {sid:>10}: {token} ({conf:.2f})")
    unsure = [s for s, (_, c) in reading.squares.items() if c < reading.min_confidence]
    if unsure:
        print(f"  unsure about: {', '.join(unsure)}")
    return 0


def start_position(game: str) -> dict[str, str]:
    """The game's start position as its engine sets it up (square -> board_view token)."""
    from companion import games

    return dict(games.make(game).new_state().board_view())


def _cmd_learn(args: argparse.Namespace) -> int:
    from vision.boarddefaults import board_for
    from vision.pieces import BoardReader, PieceModel

    check_output(args.output, (".json",), args.force)
    board = board_for(args.board)
    image, why = _image(Path(args.image))
    if image is None:
        return _fail(why)
    if args.position:
        try:
            text = read_text_capped(args.position, MAX_JSON_FILE_BYTES, _("a position"))
            known = {str(k): str(v) for k, v in json.loads(text).items()}
        except (OSError, ValueError, AttributeError) as exc:
            return _fail(f"cannot read position {args.position}: {exc} (expected a JSON object square -> token)")
    else:
        known = start_position(board.game)
    unknown = sorted(set(known) - set(board.squares))
    if unknown:
        return _fail(f"squares not on board {board.name}: {', '.join(unknown[:5])}")
    model = PieceModel.load(args.model) if args.model else PieceModel(board.game)
    reader = BoardReader(board, model=model)
    n = reader.learn(image, known)
    model.save(args.output)
    looks = ", ".join(f"{k} x{len(v)}" for k, v in sorted(model.looks.items()))
    extra = f", {len(model.arrows)} cube arrows" if model.arrows else ""
    print(f"learned {n} piece looks from {Path(args.image).name} ({looks}{extra}); saved {args.output} "
          f"(use: companion board read PHOTO --board {args.board} --model {args.output})")
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from vision.synth.board_scenes import evaluate_dir

    from vision.errors import VisionError

    try:
        report = evaluate_dir(Path(args.dir))
    except VisionError:
        raise  # a picture refused or unreadable: its own sentence
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return _fail(f"{Path(args.dir) / 'labels.json'} is not a board scene dataset as 'companion board synth' "
                     f"writes it ({type(exc).__name__}: {exc})")
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"scenes {report['scenes']}  board found {report['found_rate'] * 100:.2f}% "
              f"(with a hidden marker: {report['found_rate_hidden'] * 100:.2f}% of "
              f"{report['scenes_hidden']})")
        print(f"per-square accuracy {report['square_accuracy'] * 100:.3f}% over "
              f"{report['squares']} squares; median {report['median_ms']:.1f} ms per frame")
        for game, g in sorted(report["per_game"].items()):
            print(f"  {game:<10} found {g['found_rate'] * 100:.1f}%  squares "
                  f"{g['square_accuracy'] * 100:.3f}%  ({g['scenes']} scenes)")
    return 0


def _cmd_synth(args: argparse.Namespace) -> int:
    games = args.games.split(",") if args.games else None
    check_output_folder(args.dir, ("labels.json", "images"), args.force)
    if args.renderer == "alt":
        from vision.synth.board_alt import write_alt_dataset as write
    elif args.renderer == "3d":
        from vision.synth.board3d import write_3d_dataset as write
    else:
        from vision.synth.board_scenes import write_dataset as write
    n = write(Path(args.dir), args.count, seed=args.seed, games=games)
    print(f"wrote {n} scenes ({args.renderer} renderer) and labels.json to {args.dir}")
    return 0


def _parse_point(text: str) -> tuple[float, float]:
    try:
        x, y = text.split(",")
        point = float(x), float(y)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a point is x,y in pixels, not {text!r}") from None
    if not all(math.isfinite(v) for v in point):
        raise argparse.ArgumentTypeError(f"a point is x,y in pixels, not {text!r}")
    return point


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from vision.calibrate import calibrate_cli

    return calibrate_cli(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion board",
        description="Printable boards with ArUco markers; read what stands on a board from a photo.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("print", help="write a printable board (PDF or PNG, 300 dpi)",
                       description="Write a printable board at true scale (A4; Letter where the board "
                       "fits there) or scaled up (A3).")
    p.add_argument("game", metavar="GAME", help="katenmuis, chopchop, kilkenny, qubism or a .toml path")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.pdf or FILE.png")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p.add_argument("--paper", default="A4", type=str.upper, choices=["A4", "A3", "LETTER"],
                   help="paper size: A4, A3 or Letter (A4)")
    p.add_argument("--markers-only", action="store_true",
                   help="only the four markers with cut lines, to stick on an original board")
    p.set_defaults(func=_cmd_print)

    r = sub.add_parser("read", help="what stands on each square of a board in a photo",
                       description="Locate the board by its markers and read each square.")
    r.add_argument("image", metavar="IMAGE")
    r.add_argument("--board", required=True, metavar="GAME", help="board name or .toml path")
    r.add_argument("--json", action="store_true", help="print a JSON object")
    r.add_argument("--model", metavar="MODEL.json",
                   help="piece colours learned earlier (default: built-in guesses)")
    r.set_defaults(func=_cmd_read)

    lp = sub.add_parser("learn", help="learn the pieces' looks from a photo of a known position",
                        description="Learn what the pieces look like from a photo of the start "
                        "position (as the game's engine sets it up) or of a position given as JSON, "
                        "and save them as a model for 'board read --model'.")
    lp.add_argument("image", metavar="IMAGE")
    lp.add_argument("--board", required=True, metavar="GAME", help="board name or .toml path")
    lp.add_argument("-o", "--output", required=True, metavar="MODEL.json")
    lp.add_argument("--force", action="store_true", help="replace MODEL.json if it exists")
    lp.add_argument("--position", metavar="POS.json",
                    help='the position in the photo, {"square": "token"} (default: the start position)')
    lp.add_argument("--model", metavar="OLD.json", help="add to the looks of an earlier model")
    lp.set_defaults(func=_cmd_learn)

    e = sub.add_parser("eval", help="accuracy and speed over a labelled scene folder",
                       description="Per-square accuracy, board-found rate and median ms over DIR "
                       "(labels.json as written by 'companion board synth').")
    e.add_argument("dir", metavar="DIR")
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=_cmd_eval)

    s = sub.add_parser("synth", help="write synthetic labelled scenes for eval",
                       description="Render synthetic 1280x720 scenes of the boards with labels.")
    s.add_argument("dir", metavar="DIR")
    s.add_argument("--force", action="store_true", help="replace the labels.json and images already in DIR")
    s.add_argument("--count", type=int, default=40)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--games", default="", help="comma-separated games (default: all four)")
    s.add_argument("--renderer", default="main", choices=["main", "alt", "3d"],
                   help="main: vision.synth.board; alt: the independent vision.synth.board_alt; "
                        "3d: vision.synth.board3d (meshes, shadows; groups of 8 from the game's start)")
    s.set_defaults(func=_cmd_synth)

    c = sub.add_parser("calibrate", help="map an original board's squares once (marker-equipped)",
                       description="Write a board file for an original board with the printed "
                       "markers stuck on its corners: grid boards by the grid's 4 corners (TL TR "
                       "BR BL), the Kat en Muis track by its squares' centres in order.")
    c.add_argument("--board", required=True, metavar="GAME", help="the game's board to start from")
    c.add_argument("--image", required=True, metavar="PHOTO", help="a photo with the markers visible")
    c.add_argument("--corners", nargs=4, type=_parse_point, metavar="X,Y",
                   help="pixel coordinates of the grid's corners: top-left top-right bottom-right bottom-left")
    c.add_argument("--points-file", metavar="FILE",
                   help="square centres in pixels, one 'x,y' (or 'x y') a line, in square order")
    c.add_argument("-o", "--output", required=True, metavar="OUT.toml")
    c.add_argument("--force", action="store_true", help="replace OUT.toml if it exists")
    c.set_defaults(func=_cmd_calibrate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from vision.errors import VisionError

    try:
        return int(args.func(args))
    except (BoardError, VisionError, OSError) as exc:
        return _fail(str(exc))


if __name__ == "__main__":
    raise SystemExit(main())
