"""Chop! Chop!: the hidden-tile tracker beside the board (filled in when the engine lands)."""

from __future__ import annotations

from typing import Any

from ui.screens.boardgame import BoardGameScreen


class ChopChopScreen(BoardGameScreen):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("narration_height", 56)
        super().__init__(**kwargs)
