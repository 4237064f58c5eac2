"""Qubism's white pawn is coloured like the print (``PieceConfig.print_like``): a spot whose look is
no nearer the learned white pawn's than its own empty print's is not the white pawn, neither at the
first look nor for the search for a missing pawn (``SpotChecks._print_like``, ``BoardReader._counts``)."""

from __future__ import annotations

import numpy as np

from vision.boarddefaults import board_for
from vision.piece_config import PieceConfig
from vision.piece_looks import _look_distance
from vision.pieces import BoardReader

BOARD = board_for("qubism")
WHITE = np.array([0.323, 0.337, -0.152, 0.11])  # a learned white pawn's look (third family, 4562)
BLACK = np.array([0.329, 0.336, -0.299, 0.206])


def _reader(config: PieceConfig | None = None) -> BoardReader:
    reader = BoardReader(BOARD, config=config)
    reader.model.add("pawn:white", WHITE)
    reader.model.add("pawn:black", BLACK)
    n = len(reader.groups)
    empty = np.tile(np.array([0.337, 0.333, -0.02, 0.05]), (n, 1))  # the light print's look
    reader._last_look_empty = empty
    reader.last_centre = np.full(n, np.nan)
    return reader


def _like(reader: BoardReader, i: int, look: np.ndarray, token: str = "pawn:white") -> bool:
    names, protos = reader._classes()
    d = float(_look_distance(protos[[n == token for n in names]], look).min())
    return reader._print_like(i, look, token, d)


def test_a_look_nearer_the_print_than_the_white_pawn_is_print_like() -> None:
    reader = _reader()
    print_look = np.array([0.338, 0.333, -0.029, 0.051])  # 4562 scene 3's empty 1,3, read as the white pawn
    pawn_look = np.array([0.325, 0.337, -0.177, 0.092])  # scene 7's white pawn on 1,1
    assert _like(reader, 8, print_look)
    assert not _like(reader, 6, pawn_look)
    assert not _like(reader, 8, print_look, "pawn:black")  # the black pawn is not coloured like the print


def test_nothing_is_print_like_before_the_pawn_is_learned_or_with_the_rule_off() -> None:
    look = np.array([0.338, 0.333, -0.029, 0.051])
    unlearned = BoardReader(BOARD)
    unlearned._last_look_empty = _reader()._last_look_empty
    assert not unlearned._print_like(8, look, "pawn:white", 0.5)  # built-in looks are guesses
    assert not _like(_reader(PieceConfig(print_like={})), 8, look)


def _search(reader: BoardReader, pawn: bool) -> list[tuple[str | None, float]]:
    """The piece count's search for the missing white pawn: spot 2 holds the black pawn, spot 8 looks
    like the print (strong evidence: a light's change), spot 17 (when ``pawn``) the white pawn, weakly."""
    n = len(reader.groups)
    names, protos = reader._classes()
    looks = np.tile(np.array([0.26, 0.35, -0.26, 0.0]), (n, 1))  # elsewhere nearest the cube's look
    looks[2] = BLACK
    looks[8] = np.array([0.338, 0.333, -0.029, 0.051])  # 4562 scene 3's empty 1,3
    score = np.zeros(n)
    score[2], score[8] = 3.0, 3.5
    if pawn:
        looks[17] = np.array([0.326, 0.337, -0.16, 0.115])
        score[17] = 0.7
    decided: list[tuple[str | None, float]] = [(None, 0.9)] * n
    decided[2] = ("pawn:black", 0.9)
    reader._counts(score, looks, names, protos, decided, np.ones(n), np.zeros((8, 8, 3), np.uint8), None)  # type: ignore[arg-type]
    return decided


def test_the_missing_white_pawn_is_not_put_on_a_spot_that_looks_like_the_print() -> None:
    assert _search(_reader(PieceConfig(print_like={})), pawn=False)[8][0] == "pawn:white"  # the rule off: taken
    on = _search(_reader(), pawn=False)
    assert [t for t, _ in on].count("pawn:white") == 0, on[8]  # on: the pawn stays unread (the app asks)
    found = _search(_reader(), pawn=True)
    assert found[17][0] == "pawn:white" and found[8][0] is None
