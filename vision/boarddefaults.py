"""Board files for vision: the shipped one, or a built-in stand-in in the same format.

``board_for(game)`` returns the shipped ``companion/boards/<game>.toml`` when it exists and a
generated stand-in laid out as RULES.md describes otherwise (A4 landscape, DICT_4X4_50 markers
24 mm at the corners, ids 0-3 / 4-7 / 8-11 / 12-15). The stand-ins let printing, the synthetic
scenes and the tests work before (or without) the shipped files; ``default_board_toml(game)``
gives the same stand-in as TOML text.
"""

from __future__ import annotations

from typing import Any

from companion.boards import Board, BoardError, load_board, parse_board

GAMES = ("katenmuis", "chopchop", "kilkenny", "qubism")
MARKER_BASE = {"katenmuis": 0, "chopchop": 4, "kilkenny": 8, "qubism": 12}
PAPER_W, PAPER_H = 297.0, 210.0
MARKER_MM, MARKER_INSET = 24.0, 8.0


def _markers(game: str) -> list[dict[str, Any]]:
    base = MARKER_BASE[game]
    s, m = MARKER_MM, MARKER_INSET
    spots = [(m, m), (PAPER_W - m - s, m), (PAPER_W - m - s, PAPER_H - m - s), (m, PAPER_H - m - s)]
    return [{"id": base + i, "x_mm": x, "y_mm": y, "size_mm": s} for i, (x, y) in enumerate(spots)]


def _rect(x: float, y: float, w: float, h: float) -> list[list[float]]:
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def default_board_data(game: str) -> dict[str, Any]:
    """The stand-in board of ``game`` as parsed-TOML data."""
    head = {"name": game, "game": game, "width_mm": PAPER_W, "height_mm": PAPER_H}
    data: dict[str, Any] = {"markers": _markers(game)}
    if game == "katenmuis":
        head["title"] = "Kat en Muis"
        cell, cols, rows = 19.0, 11, 6
        ox, oy = (PAPER_W - cols * cell) / 2, (PAPER_H - rows * cell) / 2
        squares = []
        for k in range(1, 67):
            col, i = divmod(k - 1, rows)
            row = i if col % 2 == 0 else rows - 1 - i
            squares.append({"id": str(k), "label": str(k), "kind": "track",
                            "polygon": _rect(ox + col * cell, oy + row * cell, cell, cell)})
        data["squares"] = squares
        data["adjacency"] = {str(k): [str(k + 1)] for k in range(1, 66)}
    elif game == "chopchop":
        head["title"] = "Chop! Chop!"
        cell = 24.0
        data["grid"] = {"rows": 6, "cols": 8, "cell_mm": cell,
                        "origin_mm": [(PAPER_W - 8 * cell) / 2, (PAPER_H - 6 * cell) / 2]}
        data["regions"] = {"table": [f"{r},{c}" for r in (2, 3) for c in (3, 4, 5)],
                           "holes": ["0,3", "2,7", "5,4", "3,0"]}
    elif game == "kilkenny":
        head["title"] = "Kilkenny Cats"
        cell = 12.0
        ox, oy = (PAPER_W - 14 * cell) / 2, (PAPER_H - 16 * cell) / 2 + cell
        data["grid"] = {"rows": 14, "cols": 14, "cell_mm": cell, "origin_mm": [ox, oy]}
        mice = [(-1, 6), (-1, 7), (14, 6), (14, 7), (6, -1), (7, -1), (6, 14), (7, 14)]
        data["squares"] = [{"id": f"{r},{c}", "kind": "mouse", "cell": [r, c], "label": "M",
                            "polygon": _rect(ox + c * cell, oy + r * cell, cell, cell)}
                           for r, c in mice]
        data["regions"] = {"mice": [f"{r},{c}" for r, c in mice]}
    elif game == "qubism":
        head["title"] = "Qubism"
        cell = 36.0
        data["grid"] = {"rows": 5, "cols": 5, "cell_mm": cell,
                        "origin_mm": [(PAPER_W - 5 * cell) / 2, (PAPER_H - 5 * cell) / 2]}
    else:
        raise BoardError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    data["board"] = head
    return data


def default_board(game: str) -> Board:
    return parse_board(default_board_data(game), f"<stand-in {game}>")


def board_for(name: str) -> Board:
    """The shipped board ``name`` (or a board file path); the stand-in if none is shipped."""
    try:
        return load_board(name)
    except BoardError:
        if name in GAMES:
            return default_board(name)
        raise


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else _toml_value(k)


def dump_board_toml(data: dict[str, Any]) -> str:
    """Write parsed-board data (tables, arrays of tables, simple values) back as TOML."""
    lines: list[str] = []
    for section in ("board", "grid", "adjacency", "regions", "settings"):
        if section in data and data[section] is not None:
            lines.append(f"[{section}]")
            lines += [f"{_key(k)} = {_toml_value(v)}" for k, v in data[section].items()]
            lines.append("")
    for section in ("squares", "markers"):
        for item in data.get(section, ()):
            lines.append(f"[[{section}]]")
            lines += [f"{_key(k)} = {_toml_value(v)}" for k, v in item.items()]
            lines.append("")
    return "\n".join(lines)


def default_board_toml(game: str) -> str:
    return dump_board_toml(default_board_data(game))
