"""Chop! Chop!'s state: where everything is, the legal moves, and applying an action (C1–C8).

Split out of :mod:`companion.games.chopchop` (see its docstring for the turn, the paths and
the interpretations); the game (:class:`~companion.games.chopchop.ChopChop`) makes these.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from companion.games.base import CHANCE, Action, Effect, IllegalAction, State
from companion.games.chopchop_actions import (
    CAT,
    CAT_DIE,
    DIE_COLOURS,
    MICE,
    MOUSE_DIE,
    NO_MOVE_ARROW,
    NO_MOVE_ROLL,
    NO_MOVE_STEPS,
    TILE_TYPES,
    WON_CAUGHT,
    WON_HOME,
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
    english_piece,
    piece_label,
)
from companion.games.chopchop_end import cannot_win_reason
from companion.games.chopchop_paths import Paths, walk_paths
from companion.games.chopchop_rules import ChopChopRules
from companion.i18n import _, capitalised, ngettext


class ChopChopState(State):
    game: ChopChopRules

    def __init__(
        self,
        game: ChopChopRules,
        *,
        phase: str,
        cat: str | None,
        mice: dict[str, str | None],
        face_down: set[str],
        face_up_cheese: set[str],
        opened: set[str],
        cheese_held: int,
        revealed: list[tuple[str, str, str]],
        side: str,
        mice_turn: int,
        roll: int | None,
        piece: str | None,
        pre_roll: str | None,
        just_left: str | None,
        steps: int,
        skip: dict[str, bool],
        bonus_mouse: str | None,
        double: bool,
        moved_mouse: str | None,
        winner: str | None,
        won_reason: str,
    ) -> None:
        self.game = game
        self.geo = game.geometry
        self.phase = phase
        """setup | roll | move | reveal | bonus | arrow | fork | over"""
        self.cat = cat
        self.mice = mice
        """piece -> square, or None once caught"""
        self.face_down = face_down
        self.face_up_cheese = face_up_cheese
        self.opened = opened
        self.cheese_held = cheese_held
        self.revealed = revealed
        """(square, tile, piece) in the order turned"""
        self.side = side
        self.mice_turn = mice_turn
        self.roll = roll
        self.piece = piece
        """the piece acting this turn (after its move)"""
        self.pre_roll = pre_roll
        self.just_left = just_left
        self.steps = steps
        """+1/+2 follow-up steps due (phase bonus)"""
        self.skip = skip
        self.bonus_mouse = bonus_mouse
        """in the mice's second turn of a knife double: the mouse that must move"""
        self.double = double
        """this is the second of two turns in a row for ``side``"""
        self.moved_mouse = moved_mouse
        self.winner = winner
        self.won_reason = won_reason

    # -- serialisation ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "cat": self.cat,
            "mice": dict(self.mice),
            "face_down": sorted(self.face_down),
            "face_up_cheese": sorted(self.face_up_cheese),
            "opened": sorted(self.opened),
            "cheese_held": self.cheese_held,
            "revealed": [list(r) for r in self.revealed],
            "side": self.side,
            "mice_turn": self.mice_turn,
            "roll": self.roll,
            "piece": self.piece,
            "pre_roll": self.pre_roll,
            "just_left": self.just_left,
            "steps": self.steps,
            "skip": dict(self.skip),
            "bonus_mouse": self.bonus_mouse,
            "double": self.double,
            "moved_mouse": self.moved_mouse,
            "winner": self.winner,
            "won_reason": self.won_reason,
        }

    def clone(self) -> ChopChopState:
        copy = self.game.state_from_json(self.to_json())
        assert isinstance(copy, ChopChopState)
        return copy

    # -- whose turn -------------------------------------------------------------------------

    def side_player(self) -> str:
        return CAT if self.side == CAT else f"mice{self.mice_turn + 1}"

    def to_move(self) -> str | None:
        if self.phase == "over":
            return None
        if self.phase in ("roll", "reveal"):
            return CHANCE
        return self.side_player()

    def current_player(self) -> str | None:
        return None if self.phase == "over" else self.side_player()

    # -- where things are -------------------------------------------------------------------

    def position(self, piece: str) -> str | None:
        return self.cat if piece == CAT else self.mice.get(piece)

    def mice_left(self) -> list[str]:
        return [m for m, sq in self.mice.items() if sq is not None]

    def occupant(self, square: str) -> str | None:
        if self.cat == square:
            return CAT
        for m, sq in self.mice.items():
            if sq == square:
                return m
        return None

    def _occupied(self) -> dict[str, str]:
        occ = {sq: m for m, sq in self.mice.items() if sq is not None}
        if self.cat is not None:
            occ[self.cat] = CAT
        return occ

    def barred_for_cat(self) -> str | None:
        """C6: with one mouse left and it in a hole, the square in front of that hole."""
        left = self.mice_left()
        if len(left) == 1:
            sq = self.mice[left[0]]
            if sq in self.geo.front:
                return self.geo.front[sq]
        return None

    def board_view(self) -> dict[str, str]:
        view: dict[str, str] = {sq: "slab" for sq in self.face_down}
        for sq in self.face_up_cheese:
            view[sq] = "cheese"
        for h in self.opened:
            view[h] = "hole"
        for m, where in self.mice.items():
            if where is not None:
                view[where] = m
        if self.cat is not None:
            view[self.cat] = "cat"
        return view

    # -- movement (C2, C3, C6) --------------------------------------------------------------

    def _paths(self, piece: str, start: str, steps: int, no_first: str | None) -> Paths:
        """Every path of exactly ``steps`` steps from ``start`` ending on a legal square."""
        kind = CAT if piece == CAT else MICE
        barred = self.barred_for_cat() if kind == CAT else None
        return walk_paths(self.geo, piece, self._occupied(), self.face_up_cheese, barred, start, steps, no_first)

    def _movers(self) -> list[str]:
        if self.phase == "bonus":
            return [self.piece] if self.piece else []
        if self.side == CAT:
            return [CAT]
        if self.bonus_mouse is not None and self.mice.get(self.bonus_mouse) is not None:
            return [self.bonus_mouse]
        return self.mice_left()

    def legal_destinations(self, piece: str) -> Paths:
        """For the UI highlight: destination -> every path (squares after the start) reaching it.

        Empty unless ``piece`` may move now (after a roll, or a +1/+2 follow-up)."""
        if self.phase not in ("move", "bonus") or piece not in self._movers():
            return {}
        start = self.position(piece)
        if start is None:
            return {}
        if self.phase == "move":
            assert self.roll is not None
            return self._paths(piece, start, self.roll, None)
        return self._paths(piece, start, self.steps, self.just_left)

    def _move_actions(self) -> list[Action]:
        acts: list[Action] = []
        for piece in self._movers():
            start = self.position(piece)
            assert start is not None
            for dest, paths in sorted(self.legal_destinations(piece).items()):
                vias = sorted({p[-2] if len(p) > 1 else start for p in paths})
                if dest in self.face_down and len(vias) > 1:
                    acts.extend(Move(piece, dest, v) for v in vias)
                else:
                    acts.append(Move(piece, dest, ""))
        return acts

    def arrow_targets(self) -> list[str]:
        """C5 arrow: squares the acting piece may go to."""
        if self.phase != "arrow" or self.piece is None:
            return []
        kind = CAT if self.piece == CAT else MICE
        here = self.position(self.piece)
        occ = self._occupied()
        barred = self.barred_for_cat() if kind == CAT else None
        return sorted(
            sq
            for sq in self.geo.board.squares
            if sq != here
            and self.geo.may_stand(kind, sq)
            and sq not in self.geo.holes
            and sq not in self.face_up_cheese
            and sq not in occ
            and sq != barred
        )

    def fork_targets(self) -> list[str]:
        """C5 fork: face-up cheese the cat is not sitting on."""
        return sorted(sq for sq in self.face_up_cheese if sq != self.cat)

    # -- the API ----------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        if self.phase == "setup":
            return [PlaceCat(sq) for sq in sorted(self.geo.table_top)]
        if self.phase in ("move", "bonus"):
            return self._move_actions()
        if self.phase == "arrow":
            return [Teleport(sq) for sq in self.arrow_targets()]
        if self.phase == "fork":
            return [Spear(sq) for sq in self.fork_targets()]
        return []

    def die(self) -> tuple[int, ...]:
        return CAT_DIE if self.side == CAT else MOUSE_DIE

    def die_colours(self) -> tuple[str, ...]:
        return (DIE_COLOURS[self.side],) if self.phase == "roll" else ()

    def tile_counts(self) -> dict[str, tuple[int, int | None]]:
        """type -> (revealed, remaining or None when the composition is contradicted)."""
        revealed = {t: 0 for t in TILE_TYPES}
        for _sq, tile, _piece in self.revealed:
            revealed[tile] += 1
        return {
            t: (revealed[t], None if revealed[t] > self.game.tiles[t] else self.game.tiles[t] - revealed[t])
            for t in TILE_TYPES
        }

    def reveal_odds(self) -> dict[str, Fraction]:
        """Chance of each type on the next slab (see *Contradictions* in the module doc)."""
        counts = self.tile_counts()
        known = {t: rem for t, (_, rem) in counts.items() if rem is not None and rem > 0}
        total = sum(known.values())
        if total > 0:
            return {t: Fraction(known.get(t, 0), total) for t in TILE_TYPES}
        unknown = [t for t, (_, rem) in counts.items() if rem is None] or list(TILE_TYPES)
        return {t: (Fraction(1, len(unknown)) if t in unknown else Fraction(0)) for t in TILE_TYPES}

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase == "roll":
            return [(Roll(v), p) for v, p in die_odds(self.die()).items()]
        if self.phase == "reveal":
            return [(Reveal(t), p) for t, p in self.reveal_odds().items()]
        return []

    def outcome(self) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        mice_ids = [p for p in self.game.players if p != CAT]
        extra = {"side": self.winner, "reason": self.won_reason, "cheese": self.cheese_held,
                 "mice_caught": len(self.mice) - len(self.mice_left())}
        if self.winner == "draw":
            return {"winner": None, "scores": {p: 0 for p in self.game.players}, **extra}
        if self.winner == CAT:
            winner: Any = CAT
        else:
            winner = mice_ids[0] if len(mice_ids) == 1 else mice_ids
        scores = {p: (1 if (p == CAT) == (self.winner == CAT) else 0) for p in self.game.players}
        return {"winner": winner, "scores": scores, **extra}

    def apply(self, action: Action) -> list[Effect]:
        if self.phase == "over":
            raise IllegalAction(_("the game is over"))
        trial = self.clone()
        effects = trial._apply(action)
        self.__dict__.update(trial.__dict__)
        return effects

    # -- applying (on a clone; raising leaves the real state untouched) ---------------------

    def _apply(self, action: Action) -> list[Effect]:
        ph = self.phase
        if isinstance(action, PlaceCat):
            if ph != "setup":
                raise IllegalAction(_("the cat is already on the board"))
            if action.square not in self.geo.table_top:
                raise IllegalAction(_("the cat starts on a table-top square, not {square}").format(square=self.game.square_words(action.square)))
            self.cat = action.square
            self.phase, self.side = "roll", MICE
            return [Moved(CAT, "", action.square)]
        if isinstance(action, Roll):
            if ph != "roll":
                raise IllegalAction(self._not_now(_("a die throw")))
            if action.value not in self.die():
                faces = str(sorted(set(self.die())))
                if self.side == CAT:
                    text = _("the cat die has no {n} (faces {faces})")
                else:
                    text = _("the mouse die has no {n} (faces {faces})")
                raise IllegalAction(text.format(n=action.value, faces=faces))
            return self._rolled(action.value)
        if isinstance(action, Reveal):
            if ph != "reveal":
                raise IllegalAction(self._not_now(_("a tile reveal")))
            if action.tile not in TILE_TYPES:
                raise IllegalAction(_("unknown tile {tile}; tiles are {tiles}").format(
                    tile=repr(action.tile), tiles=", ".join(TILE_TYPES)))
            return self._revealed(action.tile)
        if isinstance(action, Move):
            if ph not in ("move", "bonus"):
                raise IllegalAction(self._not_now(_("a move")))
            return self._move(action)
        if isinstance(action, Teleport):
            if ph != "arrow":
                raise IllegalAction(self._not_now(_("an arrow move")))
            if action.square not in self.arrow_targets():
                raise IllegalAction(_("{piece} cannot go to {square} with the arrow").format(
                    piece=piece_label(self.piece or ""), square=self.game.square_words(action.square)))
            assert self.piece is not None
            frm = self.position(self.piece)
            self._put(self.piece, action.square)
            self.just_left = frm
            return [Moved(self.piece, frm or "", action.square), *self._land(self.piece, action.square)]
        if isinstance(action, Spear):
            if ph != "fork":
                raise IllegalAction(self._not_now(_("a fork")))
            if action.square not in self.fork_targets():
                raise IllegalAction(_("there is no cheese the mice may spear at {square}").format(square=self.game.square_words(action.square)))
            self.face_up_cheese.discard(action.square)
            self.cheese_held += 1
            eff: list[Effect] = [CheeseTaken(self.piece or "", action.square, self.cheese_held, True)]
            return eff + self._end_turn()
        raise IllegalAction(_("{action} is not a Chop! Chop! action").format(action=action))

    def _not_now(self, what: str) -> str:
        piece = piece_label(self.piece or "")
        due = {
            "setup": _("the cat player must first put the cat on the table"),
            "roll": _("the die must be thrown first"),
            "move": _("a piece must be moved first"),
            "bonus": _("{piece} must first make its extra steps").format(piece=piece),
            "reveal": _("the slab just landed on must be turned first"),
            "arrow": _("{piece} must first make its arrow move").format(piece=piece),
            "fork": _("the mice must first choose a cheese to spear"),
        }[self.phase]
        return _("not {what} now: {due}").format(what=what, due=due)

    def _put(self, piece: str, square: str) -> None:
        if piece == CAT:
            self.cat = square
        else:
            self.mice[piece] = square

    def _rolled(self, value: int) -> list[Effect]:
        self.roll = value
        self.phase = "move"
        effects: list[Effect] = [Thrown(self.side_player(), value)]
        if not self._move_actions():
            effects.append(NoMove(self.side_player(), NO_MOVE_ROLL.format(n=value)))
            effects += self._end_turn()
        return effects

    def _move(self, action: Move) -> list[Effect]:
        piece = action.piece
        if piece not in self._movers():
            if self.phase == "bonus":
                raise IllegalAction(_("{piece} must make the extra steps").format(piece=piece_label(self.piece or "")))
            if self.side == CAT:
                raise IllegalAction(_("it is the cat's turn"))
            if piece == CAT:
                raise IllegalAction(_("it is the mice's turn"))
            if self.bonus_mouse is not None:
                raise IllegalAction(_("in this second turn {piece} must move again").format(
                    piece=piece_label(self.bonus_mouse)))
            raise IllegalAction(_("{piece} is not a mouse still in the game").format(piece=piece_label(piece)))
        start = self.position(piece)
        assert start is not None
        n = self.roll if self.phase == "move" else self.steps
        paths = self.legal_destinations(piece).get(action.to)
        if not paths:
            steps = n or 0
            raise IllegalAction(ngettext("{piece} cannot reach {square} in exactly {n} step",
                                         "{piece} cannot reach {square} in exactly {n} steps", steps).format(
                piece=capitalised(piece_label(piece)), square=self.game.square_words(action.to), n=steps))
        vias = sorted({p[-2] if len(p) > 1 else start for p in paths})
        if action.via:
            if action.via not in vias:
                raise IllegalAction(_("{piece} cannot step onto {square} from {via}").format(
                    piece=capitalised(piece_label(piece)), square=self.game.square_words(action.to),
                    via=self.game.square_words(action.via)))
            via = action.via
        elif len(vias) == 1 or action.to not in self.face_down:
            via = vias[0]
        else:
            raise IllegalAction(_("say which square {piece} steps onto {square} from: {squares}").format(
                piece=piece_label(piece), square=self.game.square_words(action.to),
                squares=", ".join(self.game.square_words(v) for v in vias)))
        effects: list[Effect] = []
        if self.phase == "move":
            self.pre_roll = start
            if piece != CAT:
                self.moved_mouse = piece
        self._put(piece, action.to)
        self.piece = piece
        self.just_left = via
        effects.append(Moved(piece, start, action.to))
        idx = self.game.mice.index(piece) if piece != CAT else -1
        if idx >= 0 and start == self.geo.holes[idx] and start not in self.opened:
            self.opened.add(start)  # C4
            effects.append(HoleOpened(start, piece))
            if self.mice_have_won():  # C8 "at once": before any slab under it is turned
                return effects + self._win(MICE, WON_HOME.format(n=self.cheese_held))
        return effects + self._land(piece, action.to)

    def _land(self, piece: str, square: str) -> list[Effect]:
        """C5/C6: the piece ends a move (or follow-up) on ``square``."""
        if piece == CAT:
            for m, sq in self.mice.items():
                if sq == square:
                    self.mice[m] = None
                    effects: list[Effect] = [Captured(m, square)]
                    if not self.mice_left():
                        return effects + self._win(CAT, WON_CAUGHT)
                    return effects + self._end_turn()
        if square in self.face_down:
            self.phase = "reveal"
            return []
        return self._end_turn()

    def _revealed(self, tile: str) -> list[Effect]:
        piece = self.piece
        assert piece is not None
        square = self.position(piece)
        assert square is not None
        self.face_down.discard(square)
        self.revealed.append((square, tile, piece))
        effects: list[Effect] = [TileRevealed(square, tile, piece)]
        if tile == "cheese":
            if piece == CAT:
                self.face_up_cheese.add(square)
                effects.append(CatOnCheese(square))
            else:
                self.cheese_held += 1
                effects.append(CheeseTaken(piece, square, self.cheese_held))
            return effects + self._end_turn()
        if tile in ("plus1", "plus2"):
            self.steps = 1 if tile == "plus1" else 2
            self.phase = "bonus"
            effects.append(ExtraSteps(piece, self.steps))
            if not self._move_actions():
                effects.append(NoMove(self.side_player(), NO_MOVE_STEPS.format(piece=english_piece(piece))))
                return effects + self._end_turn()
            return effects
        if tile == "arrow":
            self.phase = "arrow"
            effects.append(FreeMove(piece))
            if not self.arrow_targets():
                effects.append(NoMove(self.side_player(), NO_MOVE_ARROW.format(piece=english_piece(piece))))
                return effects + self._end_turn()
            return effects
        if tile == "fork":
            if piece != CAT and self.fork_targets():
                self.phase = "fork"
                return effects
            effects.append(ForkUseless(piece))
            return effects + self._end_turn()
        if tile == "knife":
            self.skip[self.side] = True
            effects.append(LosesNextTurn(self.side_player(), self.side))
        return effects + self._end_turn()

    def _win(self, side: str, reason: str) -> list[Effect]:
        self.phase = "over"
        self.winner = side
        self.won_reason = reason
        self.roll = None
        self.steps = 0
        return [Won(side, reason)]

    def mice_have_won(self) -> bool:
        """C8: 10 cheese held, every hole opened, a mouse in a hole."""
        return (
            self.cheese_held >= self.game.cheese_to_win
            and len(self.opened) == len(self.geo.holes)
            and any(sq in self.geo.holes for sq in self.mice.values() if sq is not None)
        )

    def _end_turn(self) -> list[Effect]:
        if self.mice_have_won():
            return self._win(MICE, WON_HOME.format(n=self.cheese_held))
        why = cannot_win_reason(self)
        if why is not None:  # C8: the mice can no longer win
            return self._win(CAT if self.game.out_of_cheese == "cat" else "draw", why)
        effects: list[Effect] = []
        done = self.side
        moved = self.moved_mouse
        nxt = MICE if done == CAT else CAT
        for _turn in range(2):
            if not self.skip[nxt]:
                break
            self.skip[nxt] = False
            player = CAT if nxt == CAT else f"mice{self.mice_turn + 1}"
            effects.append(TurnSkipped(player, nxt))
            nxt = MICE if nxt == CAT else CAT
        if nxt == done:
            self.double = True
            if done == MICE:
                self.bonus_mouse = moved if moved is not None and self.mice.get(moved) else None
            else:
                self.bonus_mouse = None
            effects.append(ThrowsAgain(self.side_player(), self.bonus_mouse or ""))
        else:
            if done == MICE:
                self.mice_turn = (self.mice_turn + 1) % self.game.mice_players
            self.double = False
            self.bonus_mouse = None
        self.side = nxt
        self.phase = "roll"
        self.roll = None
        self.piece = None
        self.pre_roll = None
        self.just_left = None
        self.steps = 0
        self.moved_mouse = None
        return effects
