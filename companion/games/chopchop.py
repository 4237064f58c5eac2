"""Chop! Chop! (Djeco, 2017): one cat against four mice, 38 hidden tile slabs (RULES.md §2, C1–C8).

Everything geometric comes from the board file (setting ``board``: a shipped board name such as
``"chopchop"`` or a path to a ``.toml``). The board must define the regions ``table_top``,
``under_table``, ``holes`` (mouse *i* starts on the *i*-th), ``slabs`` (squares that start with
a face-down slab) and, for each hole ``h``, ``front:h`` (the square in front of it, C6).

Players: ``"cat"`` and ``"mice1"`` … ``"miceN"`` (``mice_players`` = N, 1–4). The mice players
take the mice turns in rotation and each may move any mouse. Pieces: ``"cat"`` and
``"mouse:1"`` … ``"mouse:4"``.

A turn, as actions (player actions, and CHANCE outcomes a camera/die/touch reports):

1. setup (once): the cat player chooses a table-top square — :class:`PlaceCat` (C1);
2. CHANCE :class:`Roll` — the side's die (cat 1,1,2,2,2,3; mice 1,1,2,2,3,4);
3. the player's :class:`Move` ``(piece, to, via)`` — exactly that many orthogonal steps (C2/C3);
4. if the piece lands on a face-down slab: CHANCE :class:`Reveal` ``(tile)`` — probabilities
   follow the remaining composition (see *Contradictions*); then the tile acts (C5):
   ``plus1``/``plus2`` → another :class:`Move` of that piece; ``arrow`` → :class:`Teleport`;
   ``fork`` (a mouse, with a face-up cheese the cat is not on) → :class:`Spear`; cheese,
   crockery, knife act at once. After an arrow, "the square just left" (for a +1/+2 found
   next) is the square the piece jumped from.

**Paths.** Only one part of a path can matter to the rules: the square the piece stepped onto
its destination from (``via``), because after a +1/+2 the piece may not step straight back onto
"the square just left" (C5). Passing over slabs does nothing, and an unopened hole always has
its own mouse on it, so no path can open a hole other than the mover's own start hole (C4 opens
that whatever the path). So a move is ``Move(piece, to, via)``: ``legal_actions()`` lists
``via=""`` when it cannot matter (no face-down slab at ``to``, or only one way in), and one
action per possible ``via`` when it can. ``apply`` also accepts an explicit valid ``via`` where it
does not matter. :meth:`ChopChopState.legal_destinations` gives every full path for the UI.

**Interpretations** (also in ``Game.interpretations()``): no step straight back within a move
(C2); a +1/+2 or arrow with no legal follow-up leaves the piece where it is (NoMove); the C6
"square in front of the last mouse's hole" is barred for every landing of the cat (die move,
+1/+2, arrow); after a knife, "misses its next turn" is a skip flag per side — if both sides
are flagged, both skips are taken in turn order; during the mice's double turn the same mice
player rolls twice and the mouse moved in the first turn must move in the second; the mice
rotation advances only after a mice turn followed by a cat turn. C8's end for the mice (once
they can no longer win, judged at the end of every turn: too little cheese left, no face-down
slab a mouse can walk to, or a mouse walled in on its unopened hole for good) is
:mod:`companion.games.chopchop_end`; the cat then wins (setting ``out_of_cheese="cat"``) or the
game is a draw (``"draw"``), and the Won effect says why.

**Contradictions.** Reveals are chance outcomes over all seven tile types. A type whose
revealed count exceeds the composition setting is *contradicted*: its remaining count becomes
unknown (``None`` in the tracker). Probabilities (``chance_outcomes``) are proportional to the
remaining counts of the types still believed present (known and > 0); exhausted and unknown
types are still accepted with probability 0, so a physical reveal is never refused; if no
type is believed present while slabs remain, the unknown types share the chance equally.

**board_view() tokens**: ``"cat"`` (also when the cat sits on a face-up cheese), ``"mouse:<i>"``
(also in a hole), ``"slab"`` (a face-down slab), ``"cheese"`` (a face-up cheese with no cat),
``"hole"`` (an opened hole slab with no mouse). Unopened hole slabs always carry their mouse.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.chopchop_actions import (
    CAT,
    CAT_DIE,
    DEFAULT_TILES,
    DIE_COLOURS,
    MICE,
    MOUSE_DIE,
    TILE_NAMES,
    TILE_TYPES,
    Captured,
    CatOnCheese,
    CheeseTaken,
    ExtraSteps,
    ForkUseless,
    FreeMove,
    HoleOpened,
    LosesNextTurn,
    Move,
    Moved,
    NoMove,
    PlaceCat,
    Reveal,
    Roll,
    Spear,
    Teleport,
    ThrowsAgain,
    Thrown,
    TileRevealed,
    TurnSkipped,
    Won,
    die_odds,
    effect_types,
    english_piece,
    mice_cannot_win,
    piece_label,
    reason_text,
    square_words,
    tile_label,
)
from companion.games.chopchop_paths import Paths
from companion.games.chopchop_rules import ChopChopRules, Geometry
from companion.games.chopchop_state import ChopChopState

__all__ = [
    "square_words",
    "TILE_TYPES",
    "DEFAULT_TILES",
    "TILE_NAMES",
    "CAT_DIE",
    "MOUSE_DIE",
    "DIE_COLOURS",
    "CAT",
    "MICE",
    "ChopChop",
    "ChopChopState",
    "Geometry",
    "Paths",
    "PlaceCat",
    "Roll",
    "Move",
    "Reveal",
    "Teleport",
    "Spear",
    "Thrown",
    "Moved",
    "HoleOpened",
    "TileRevealed",
    "CheeseTaken",
    "CatOnCheese",
    "ExtraSteps",
    "FreeMove",
    "ForkUseless",
    "Captured",
    "LosesNextTurn",
    "TurnSkipped",
    "ThrowsAgain",
    "NoMove",
    "Won",
    "die_odds",
    "effect_types",
    "piece_label",
    "english_piece",
    "mice_cannot_win",
    "reason_text",
    "tile_label",
]


# ---------------------------------------------------------------------------------------------
# the game


class ChopChop(ChopChopRules):
    key = "chopchop"
    title = "Chop! Chop!"
    action_types = (PlaceCat, Roll, Move, Reveal, Teleport, Spear)

    def new_state(self) -> ChopChopState:
        holes = self.geometry.holes
        return ChopChopState(
            self,
            phase="setup",
            cat=None,
            mice={m: holes[i] for i, m in enumerate(self.mice)},
            face_down=set(self.geometry.slabs),
            face_up_cheese=set(),
            opened=set(),
            cheese_held=0,
            revealed=[],
            side=CAT,
            mice_turn=0,
            roll=None,
            piece=None,
            pre_roll=None,
            just_left=None,
            steps=0,
            skip={CAT: False, MICE: False},
            bonus_mouse=None,
            double=False,
            moved_mouse=None,
            winner=None,
            won_reason="",
        )

    def state_from_json(self, data: Mapping[str, Any]) -> ChopChopState:
        d = dict(data)
        return ChopChopState(
            self,
            phase=str(d["phase"]),
            cat=d["cat"],
            mice={str(k): v for k, v in dict(d["mice"]).items()},
            face_down=set(d["face_down"]),
            face_up_cheese=set(d["face_up_cheese"]),
            opened=set(d["opened"]),
            cheese_held=int(d["cheese_held"]),
            revealed=[(str(a), str(b), str(c)) for a, b, c in d["revealed"]],
            side=str(d["side"]),
            mice_turn=int(d["mice_turn"]),
            roll=d["roll"],
            piece=d["piece"],
            pre_roll=d["pre_roll"],
            just_left=d["just_left"],
            steps=int(d["steps"]),
            skip={CAT: bool(d["skip"][CAT]), MICE: bool(d["skip"][MICE])},
            bonus_mouse=d["bonus_mouse"],
            double=bool(d["double"]),
            moved_mouse=d["moved_mouse"],
            winner=d["winner"],
            won_reason=str(d["won_reason"]),
        )
