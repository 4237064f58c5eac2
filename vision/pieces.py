"""What stands where: per-square contents of a located board, with a confidence.

    reader = BoardReader(board)              # precomputes the empty board's look
    reader.learn(image, {"cat-start": "cat", "mouse-start": "mouse"})   # a known position
    reading = reader.read(image)             # BoardReading: found, pose, squares
    reading.squares == {square id: (token or None, confidence)}

    read_board(image, board, model=None) -> BoardReading   (one-shot; built-in piece looks)

How: the board is warped to a top-down view at ``px_per_mm`` from the marker homography. Each
spot (square; squares with the same polygon, like Chop! Chop!'s table top over the floor, are
one spot) is compared with the empty printed board rendered from the board file (blurred to the
camera's own resolution when the board is far away), after a photometric normalisation: a
smooth per-channel gain fitted on the white paper margin around the playing area. The evidence
that a spot is occupied combines (L2) structure (normalised cross-correlation with the empty
print, insensitive to light level), colour (chromaticity, insensitive to shade), brightness and
spread.

Tall pieces lean in a top-down view (away from the point below the camera). The camera is
estimated from the homography (``vision.boardlocate.camera_from_homography``: focal length and
position), so for games whose pieces are all figures (Kilkenny, Qubism) each spot is also read
in a raised plane (``top_plane`` square sides up) against the empty print as seen there: a
piece on a neighbouring square that leans over this spot does not reach up there, so both
planes must show something. Looks are read in the raised plane too (no ground, no contact
shadow). An occupied spot's token is the nearest learned piece look: looks are learned from
known positions (the start position, or any confirmed one) and fall back to built-in guesses.
A frame's readings are then checked as a whole: pieces of one kind look alike within a frame
(a frame's own looks recruit weak spots; a crowd of look-alikes read as a kind the game has
fewer of is another kind), and the game's piece set bounds what can be read (Qubism: one pawn
each, nine cubes; Kat en Muis: one cat, one mouse; a pawn, cat or mouse read nowhere is looked
for among the weak spots; Kat en Muis's cat and mouse on one square, K7, are read as the
engine's ``"cat+mouse"``: ``vision.piece_pairs``).
A Qubism cube's arrow is read on the cube's top face (the plane of its top, from the camera):
matched against cube tops learned from known positions, turned four ways (any glyph: arrow,
triangle, chevron, light or dark), or, with nothing learned, from the shape of the dark glyph.
Qubism's cubes are then settled from their top faces, seen in the plane of a cube's top at any
tilt (``vision.qubism_read``: a clear glyph on a plain face is a cube, none is no cube; nine at
most).
Tokens are the engines' ``board_view`` tokens (mice are read as ``"mouse"``: the camera cannot
tell mice apart; ``comparable()`` maps engine views to what the camera can see).

Modules, one per stage: ``vision.piece_spots`` (warp, light, occupancy evidence and looks per
spot), ``vision.piece_looks`` (look features, learned looks), ``vision.piece_mix`` (Kilkenny: a
cat's colour seen partly, the plane of the cats' heads), ``vision.piece_shadow`` (Kilkenny: the
shadows of the start's light), ``vision.arrows`` (a cube's arrow), ``vision.piece_config``
(settings), ``vision.chop_read``, ``vision.chop_squares`` and ``vision.chop_frame`` (Chop! Chop!'s
rules, its learned per-square classifier, a frame's tokens decided), ``vision.piece_checks`` (one
spot's reading checked: a piece seen partly or only tinted, a learned shadow, the spot's middle,
Chop! Chop!'s holes), ``vision.piece_cubes`` (Qubism's cubes from their tops); this one reads the
spots (nearest look) and checks the frame as a whole.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.boards import Board
from vision.arrows import ARROW_SIDE, _TURNS, _glyph_map, arrow_direction, arrow_from_templates
from vision.boardlocate import BoardPose, BoardTracker, as_gray, locate_board
from vision.chop_read import hole_faces, ring_looks, spot_kinds, start_cat, start_like
from vision.chop_flat import keep_slab_textures
from vision.chop_frame import chop_decide
from vision.chop_squares import frame_holes
from vision.chop_who import chop_pairs, pair_token, spot_squares
from vision.errors import InvalidImageError
from vision.katenmuis_read import beyond_edges, count_weight, look_weight, missing_from_dropped, solid_score, spot_crowds
from vision.katenmuis_solid import footprint_swap
from vision.piece_config import PieceConfig
from vision.piece_hand import hand_spots
from vision.piece_looks import (DEFAULT_LOOKS, INNER, LOOK_SCALE, NFEAT, WINDOW, P, PieceError, PieceModel,
                                _centre_change, _detrend, _look_distance, _look_features, _smooth,
                                _step_fraction, _step_masks, appearance)
from vision.piece_checks import SpotChecks
from vision.piece_mix import drop_hidden, learn_head
from vision.piece_pairs import look_colour, pair_shares
from vision.piece_shadow import learn_shadows
from vision.piece_standing import front_occupied
from vision.piece_cubes import CubeSpots
from vision.piece_spots import SpotFeatures, _spot_groups, _square_for, comparable
from vision.qubism_pawns import count_order, likeness
from vision.stillpose import agreed_pose, learned_record, lost_pose
from vision.read_fast import MedianMemo, class_minima

__all__ = [
    "ARROW_SIDE", "DEFAULT_LOOKS", "INNER", "LOOK_SCALE", "NFEAT", "P", "WINDOW", "BoardReader", "BoardReading",
    "PieceConfig", "PieceError", "PieceModel", "SpotFeatures", "_TURNS", "_centre_change", "_detrend",
    "_glyph_map", "_look_distance", "_look_features", "_smooth", "_spot_groups", "_square_for",
    "_step_fraction", "_step_masks", "appearance", "arrow_direction", "arrow_from_templates", "comparable",
    "read_board",
]
"""Everything importers used before the stages moved to their own modules (``piece_config``,
``piece_looks``, ``piece_spots``, ``arrows``) is still importable from here."""


@dataclass
class BoardReading:
    found: bool
    pose: BoardPose
    squares: dict[str, tuple[str | None, float]] = field(default_factory=dict)
    """square id -> (token or None for empty, confidence); unobservable squares are absent."""
    min_confidence: float = 0.6

    def occupied(self, min_confidence: float | None = None) -> dict[str, str]:
        """The confident, occupied squares: like an engine's board_view()."""
        m = self.min_confidence if min_confidence is None else min_confidence
        return {s: t for s, (t, c) in self.squares.items() if t is not None and c >= m}

    def to_json(self) -> dict[str, Any]:
        return {"found": self.found, "board": self.pose.summary(),
                "squares": {s: {"token": t, "confidence": round(c, 3)} for s, (t, c) in self.squares.items()}}

class BoardReader(CubeSpots, SpotChecks):
    """Reads one board, frame after frame; learns piece looks from known positions."""

    def __init__(self, board: Board, model: PieceModel | None = None,
                 config: PieceConfig | None = None) -> None:
        cfg = config or PieceConfig()
        self.model = model if model is not None else PieceModel(board.game)
        self._defaults = PieceModel.defaults(board.game)
        self.tracker = BoardTracker(board, cfg.locate)
        self._medians = MedianMemo()  # of the learned centre changes (model.centre)
        super().__init__(board, cfg)
        self._chop_kinds = (spot_kinds(self.groups, set(board.region("slabs")), set(board.region("holes")))
                            if board.game == "chopchop" else [])
        self.confirmed: dict[str, str] = {}
        """Chop! Chop!: the last position the players confirmed (square -> engine token), or empty."""
        self.confirmed_one_move = False
        """Chop! Chop!: ``confirmed`` is at most one turn before the frame (the app: before the move
        due, or the move just confirmed): one piece moved since (vision.chop_moved)."""
        self.chop_slab_texture: dict[int, float] = {}
        """Chop! Chop!: each slab square's texture in the latest learned picture (vision.chop_flat)."""

    # -- learning and reading ------------------------------------------------------------------

    def learn(self, image: np.ndarray, known: dict[str, str], pose: BoardPose | None = None) -> int:
        """Learn piece looks from a known position (square -> token). Returns looks learned."""
        if pose is None:
            pose = self.tracker.update(_check(image))
        if not pose.found:
            raise PieceError("cannot learn: the board was not found in this image")
        pose = self.refine(image, pose)
        self.model.still_pose = learned_record(self, image, pose)  # where the board lay (vision.stillpose)
        score, looks, patches = self.features(image, pose)
        spot_index = {sid: i for i, ids in enumerate(self.groups) for sid in ids}
        if self._chop_kinds and start_like(known, self.board.region("holes"), self.board.region("slabs")):
            # C1/C4: at the start every hole slab is closed, its mouse on it
            faces, rings = hole_faces(patches), ring_looks(patches)
            holes = [h for h in self.board.region("holes") if h in spot_index]
            self.model.hole_starts = [[float(v) for v in faces[spot_index[h]]] for h in holes]
            self.model.rings += [[float(v) for v in rings[spot_index[h]]] for h in holes]
            self.model.start_corners = [float(v) for v in self._corners(pose).ravel()]
        if self._chop_kinds:  # each slab's back as this picture shows it (vision.chop_flat)
            keep_slab_textures(self, patches, known, spot_index)
        if self._chop_kinds and "cat" not in known.values():
            # C1: the cat stands on a table-top square of its player's choice (not in the engine's start)
            tops = [sid for sid in known if sid.startswith("top:")]
            at = start_cat(self._chop_kinds, score) if not tops else None
            if at is not None:
                known = {**known, _square_for(self.groups[at], "cat"): "cat"}
        n = 0
        for sid, token in known.items():
            if sid in spot_index and "+" not in token:  # two pieces on one square: a mix of looks
                self.model.add(appearance(token), looks[spot_index[sid]])
                centre = float(self.last_centre[spot_index[sid]])
                if np.isfinite(centre):
                    self.model.centre.setdefault(appearance(token), []).append(centre)
                n += 1
                if self._pawn_shape(appearance(token)) is not None:  # its shape against the print, this camera's
                    if not self._shapes_here(pose):
                        self.model.shapes, self.model.shape_corners = {}, [float(v) for v in self._corners(pose).ravel()]
                    self.model.shapes.setdefault(appearance(token), []).append(
                        [float(v) for v in self._spot_shapes([spot_index[sid]])[0]])
                parts = token.split(":")
                if parts[0] == "cube" and len(parts) == 2 and parts[1] in _TURNS:
                    glyph = _glyph_map(self.cube_top(image, pose, spot_index[sid]))
                    self.model.arrows.append([float(v) for v in np.rot90(glyph, _TURNS[parts[1]]).ravel()])
        rule = self.config.behind.get(self.board.game)
        if rule is not None:  # how tall the pieces are (vision.piece_mix)
            names, protos = self._classes()
            cats = {spot_index[s]: appearance(t) for s, t in known.items() if s in spot_index and t in names}
            if len(cats) >= 4:
                self.model.head_plane = learn_head(self, image, pose, cats, names, protos, rule)
        if (shade := self.config.shadow_looks.get(self.board.game)) is not None:  # this light's shadows
            learn_shadows(self, image, pose, score, looks, known, *self._classes(), self.model.shadows, shade)
        return n

    def _classes(self) -> tuple[list[str], np.ndarray]:
        names, protos = self.model.prototypes()
        dn, dp = self._defaults.prototypes()
        extra = [i for i, n in enumerate(dn) if n not in set(names)]
        if extra:
            names = names + [dn[i] for i in extra]
            protos = np.vstack([protos.reshape(-1, NFEAT), dp[extra]]) if len(protos) else dp[extra]
        return names, protos

    def read(self, image: np.ndarray, track: bool = True) -> BoardReading:
        img = _check(image)
        gray = as_gray(img)  # once, for the markers and the print's alignment
        pose = self.tracker.update(gray) if track else locate_board(gray, self.board, self.config.locate)
        pose = pose if pose.found else lost_pose(self, gray, track, pose)  # vision.stillpose
        cfg = self.config
        if not pose.found:
            return BoardReading(False, pose, {}, cfg.min_confidence)
        agreed = agreed_pose(self, pose)  # vision.stillpose: the learned pose where the markers seen agree
        pose = agreed if agreed is not pose else self.refine(img, pose, gray)  # (refined when learned)
        score, looks, patches = self.features(img, pose)
        names, protos = self._classes()
        out: dict[str, tuple[str | None, float]] = {}
        decided: list[tuple[str | None, float]] = []
        self._look_dist: dict[str, dict[int, float]] = {}
        self._top_match: dict[int, float] = {}
        self._arrow_conf: dict[int, float] = {}
        self._arrows: dict[int, tuple[str | None, float]] = {}  # this frame's cube arrows read (CubeSpots._arrow)
        self._margin_empty: set[int] = set()  # spots the count read empty by count_glyph_margin alone (CubeSpots)
        token: str | None
        step_frac = np.ones(len(self.groups))
        if (cfg.top_plane.get(self.board.game) or self.board.game in cfg.shadow_edge) and len(names):
            cand = np.nonzero((score >= 1) & ~self._never_empty)[0]
            if len(cand):
                step_frac[cand] = _step_fraction(self._last_patches[cand], self._last_empty_patches[cand])
        holes = frame_holes(self, pose, patches) if self._chop_kinds else None  # once for rules and features
        if self.board.game in cfg.standing_foot:  # a neighbour in front may lean over (vision.piece_standing)
            self._front = front_occupied(self, pose, (img.shape[1], img.shape[0]), score)
        for i, ids in enumerate(self.groups):
            occ_conf = float(1 / (1 + math.exp(-4 * (score[i] - 1))))
            if self._never_empty[i] and names:
                token, conf = self._hole_or_mouse(looks[i], names, protos)
                conf *= occ_conf
                if holes is not None:
                    token, conf = self._chop_hole(i, token, conf, looks[i], names, protos, holes)
            elif score[i] < 1 or not names:
                token = None
                conf = 1 - occ_conf
            elif step_frac[i] < cfg.shadow_step_frac:
                token = None  # a cast shadow's straight edge explains the change
                conf = float(0.5 + 0.5 * (1 - step_frac[i] / cfg.shadow_step_frac))
                token, conf = self._partly_seen(i, looks[i], names, protos, occ_conf) or (token, conf)
            elif self._centre_too_weak(i, looks[i], names, protos, d_all := _look_distance(protos, looks[i])):
                token = None  # something at the edge only: a neighbour leaning over, a shadow
                conf = 0.6
            else:
                per_cls = class_minima(names, d_all)
                ranked = sorted(per_cls, key=lambda k: per_cls[k])
                best = ranked[0]
                d = np.array([per_cls[k] for k in ranked])
                order = np.arange(len(ranked))
                second = float(d[1]) if len(d) > 1 else float(d[0]) + 6
                margin = (second - float(d[0])) / (second + 1e-6)
                conf = occ_conf * min(1.0, 0.4 + margin) * (1.0 if d[order[0]] < 6 else 0.6)
                token = best
                self._look_dist.setdefault(best, {})[i] = float(d[0])
                if conf < cfg.colourless_conf and self._colourless(i) and not self._standing(i):
                    # an unsure look and no colour change: a shadow, not a cat (unless partly one)
                    token, conf = self._partly_seen(i, looks[i], names, protos, occ_conf) or (None, 0.6)
                elif self._tinted(i, looks[i], best, float(d[0]), names, protos):
                    token, conf = None, 0.6  # tinted towards a cat's colour, no piece's shading
                elif self._shadowed(i, looks[i], float(d[0])):
                    token, conf = None, 0.6  # where this light's learned shadows lie (vision.piece_shadow)
                if best == "pawn:white" and "cube" in names and "cube" not in self.model.looks:
                    # no cube learned yet (Qubism starts without): a clear arrow at a cube's top is one
                    arrow, aconf = self._arrow(img, pose, i)
                    if arrow and aconf >= cfg.glyph_cube and not self._pawn_shaped(i, best, pose):
                        token, conf = f"cube:{arrow}", conf * aconf
                elif best == "cube":
                    arrow, aconf = self._arrow(img, pose, i)
                    token = f"cube:{arrow}" if arrow else "cube:?"
                    conf *= aconf
                    if self._no_cube_top(i):  # a shadow, a pawn or a neighbour's side: no cube's top here
                        other = [k for k in ranked[1:] if k != "cube" and per_cls[k] < cfg.demote_dist
                                 and not self._centre_weak_for(i, k)]
                        token, conf = (other[0], 0.5 * conf / max(aconf, 0.05)) if other else (None, 0.5)
            decided.append((token, conf))
        self._frame_looks(score, looks, decided, names, protos)
        looked = list(decided)  # before the counts: a pawn the cube stage takes comes back (CubeSpots._pawns_back)
        self._counts(score, looks, names, protos, decided, step_frac, img, pose)
        if self.board.game == "qubism" and cfg.cube_tops is not None and len(names):
            self._cube_stage(img, pose, score, looked, decided)  # vision.piece_cubes
        if self._chop_kinds:  # its rules, its classifier, the last confirmed position (vision.chop_frame)
            decided = chop_decide(self, img, pose, score, looks, patches, names, protos, holes, decided)
        if (rule := cfg.behind.get(self.board.game)) is not None:  # a figure's body over the square behind it
            drop_hidden(self, img, pose, self.model.head_plane, decided, names, protos, rule)
        if (hand := cfg.hand.get(self.board.game)) is not None:  # a hand, an arm or their shadow
            for i in hand_spots(self, score, looks, decided, self.model.looks, hand):
                decided[i] = (None, 0.5)  # asked (vision.piece_hand)
        both = chop_pairs(self, decided, names, protos) if self._chop_kinds else {}  # the cat over a mouse
        for i, (ids, (token, conf)) in enumerate(zip(self.groups, decided)):
            table = spot_squares(ids, token, conf, both.get(i, False)) if self._chop_kinds else None
            if table is not None:  # the cat on the table top, and a mouse under it (vision.chop_who)
                out.update(table)
            elif token is None:
                for sid in ids:
                    out[sid] = (None, conf)
            else:
                chosen = _square_for(ids, token)
                for sid in ids:
                    out[sid] = (token, conf) if sid == chosen else (None, conf)
        return BoardReading(True, pose, pose.doubted(out), cfg.min_confidence)  # asked when doubtful

    def _frame_looks(self, score: np.ndarray, looks: np.ndarray, decided: list[tuple[str | None, float]],
                     names: list[str] | None = None, protos: np.ndarray | None = None) -> None:
        """Pieces of one kind look alike within one frame (same light, same camera), even when
        the light differs from the frame they were learned in (games without a raised plane:
        flat pieces and counters). This frame's look of a kind is the median look of its
        clear pieces (evidence >= ``frame_clear``). Spots with weak evidence
        (``frame_weak`` <= score < 1) whose look is near it and much nearer than to their
        empty print are read as that kind, with a modest confidence, when they and the clear
        ones together are at least ``frame_agree`` (many spots agreeing on one look is itself
        evidence: a slab set under a light unlike the learning frame's); an occupied spot
        nearer the frame look of another kind (``frame_min`` clear ones) than its own learned
        look takes that kind."""
        cfg = self.config
        if cfg.top_plane.get(self.board.game):
            return  # figures: the raised plane and the spot's middle decide (see read)
        clear: dict[str, list[int]] = {}
        for i, (token, _) in enumerate(decided):
            if token is not None and score[i] >= cfg.frame_clear and not self._never_empty[i] and not token.startswith("cube"):
                clear.setdefault(token, []).append(i)
        most = cfg.counts.get(self.board.game, {})
        crowds = self._crowds(looks, decided, clear, names, protos, most) if names and protos is not None else []
        # this frame's looks: (kind, median look, how many clear spots show it)
        frame = [(t, np.median(looks[idx], axis=0), len(idx)) for t, idx in clear.items()] + crowds
        if not frame:
            return
        proposed: dict[int, list[tuple[int, float]]] = {}
        for i, (token, conf) in enumerate(decided):
            if token is not None and i in self._look_dist.get(token, {}) and not self._never_empty[i] and i not in clear.get(token, ()):
                # an occupied spot nearer this frame's look of another kind than its own learned look
                for t, m, n in frame:
                    if n < cfg.frame_min:
                        continue
                    d = float(_look_distance(looks[i], m))
                    if t != token and d < self._look_dist[token][i] and d < cfg.frame_look_dist:
                        decided[i] = (t, conf * 0.8)
                continue
            if token is not None or self._never_empty[i] or not cfg.frame_weak <= score[i] < 1:
                continue
            d_empty = float(_look_distance(looks[i], self._last_look_empty[i]))
            dists = [float(_look_distance(looks[i], m)) for _, m, _ in frame]
            j = int(np.argmin(dists))
            if dists[j] < cfg.frame_look_dist and dists[j] < 0.5 * d_empty:
                proposed.setdefault(j, []).append((i, dists[j]))
        for j, spots in proposed.items():
            t, _, n = frame[j]
            if most.get(t, len(decided)) >= cfg.frame_agree and n + len(spots) >= max(cfg.frame_agree, 1):
                for i, d_best in spots:
                    decided[i] = (t, float(0.5 + 0.3 * (1 - d_best / cfg.frame_look_dist)))

    def _crowds(self, looks: np.ndarray, decided: list[tuple[str | None, float]], clear: dict[str, list[int]],
                names: list[str], protos: np.ndarray, most: dict[str, int]) -> list[tuple[str, np.ndarray, int]]:
        """More clear pieces read as a kind than the game has of it (five mice where there are
        four, cats where there is one), at least ``frame_agree`` of them, are a crowd of
        another kind whose look, in this frame's light, sits near that one's: those within
        ``crowd_dist`` of their median look (more of them than the game has of the kind, else
        nothing changes) are re-read as
        the learned kind the game has enough of that is nearest their common look; the others
        keep their reading (the real ones among them). Returns each crowd as a frame look
        (kind, median look, size): this frame's look of that kind where the crowd stands."""
        cfg = self.config
        out: list[tuple[str, np.ndarray, int]] = []
        many = [k for k in sorted(set(names)) if most.get(k, len(decided)) >= cfg.frame_agree and k in self.model.looks]
        for t in list(clear):
            idx = clear[t]
            n_max = most.get(t, len(decided))
            if len(idx) <= n_max or len(idx) < cfg.frame_agree or not many:
                continue
            crowd = np.median(looks[idx], axis=0)
            moved = [i for i in idx if float(_look_distance(looks[i], crowd)) < cfg.crowd_dist]
            if len(moved) <= n_max or len(moved) < cfg.frame_agree:
                continue  # not more look-alikes than the game has: real pieces and a few misreads
            d_many = {k: float(_look_distance(protos[[n == k for n in names]], crowd).min()) for k in many
                      if k != t and most.get(k, len(decided)) >= len(moved)}
            if not d_many:
                continue
            target = min(d_many, key=lambda k: d_many[k])
            keep = set(idx) - set(moved)
            for i in moved:
                decided[i] = (target, decided[i][1] * 0.8)
            clear[t] = [i for i in idx if i in keep]
            if not clear[t]:
                del clear[t]
            out.append((target, np.median(looks[moved], axis=0), len(moved)))
        return out

    def _counts(self, score: np.ndarray, looks: np.ndarray, names: list[str], protos: np.ndarray,
                decided: list[tuple[str | None, float]], step_frac: np.ndarray, img: np.ndarray,
                pose: BoardPose) -> None:
        """The game's piece counts (``PieceConfig.counts`` and ``always``) applied to a frame's
        readings: too many of a class keeps the nearest looks; a piece that never leaves the
        board and is read nowhere is looked for among the weak spots."""
        cfg = self.config
        self._missing = self._count_dist = None
        most = cfg.counts.get(self.board.game, {}) if self.board.game in cfg.count_games else {}
        if not most or not len(names):
            return
        classes = sorted(set(names))
        dist = _look_distance(looks[:, None, :], protos[None, :, :])
        d_cls = {c: dist[:, [k for k, n in enumerate(names) if n == c]].min(axis=1) for c in classes}
        d_empty = _look_distance(looks, self._last_look_empty)
        self._count_dist = (d_cls, d_empty)  # for the cube stage (CubeSpots._pawns_moved)

        crowd = spot_crowds(self, score)  # spots under something larger than a piece (a hand)
        dropped: dict[int, str] = {}  # spots the count read empty -> the kind they were read as

        def support(i: int, c: str) -> float:
            """How well spot i shows a piece of class c: its evidence, times how much nearer
            its look is to c's than to its own empty print (as far as c's look differs from
            the print's: ``vision.katenmuis_read.look_weight``)."""
            ratio = d_empty[i] / (d_cls[c][i] + 1e-6)
            if self.board.game in cfg.crowd:  # a piece coloured like the paper: its evidence
                c_rows = protos[[k for k, n in enumerate(names) if n == c]]
                ratio **= look_weight(float(_look_distance(c_rows, self._last_look_empty[i]).min()))
            return float(min(score[i], 4.0) * ratio)

        def kind(token: str | None) -> str | None:
            return None if token is None else appearance(token)

        for c, n_max in most.items():
            if c not in d_cls:
                continue
            spots = [i for i, (t, _) in enumerate(decided) if kind(t) == c and not self._never_empty[i]]
            # pieces on spots that can hold nothing else (Chop! Chop!'s mice on holes) count too
            room_c = max(n_max - sum(kind(t) == c for i, (t, _) in enumerate(decided) if self._never_empty[i]), 0)
            if len(spots) <= room_c:
                continue
            w = count_weight(self, score, spots)  # evidence, light (katenmuis_read); a lone spot before a hand's crowd
            order = {i: float(d_cls[c][i] / (self._centre_support(i, c) * self._arrow_support(i, c) * w[i])) for i in spots}
            if (shape := self._pawn_shape(c)) is not None and self.model.shapes.get(c) and self._shapes_here(pose):
                # a pawn, not a shadow: the shape of its change from the print (vision.qubism_pawns)
                like = likeness(self._spot_shapes(spots), self._learned_shapes(c))
                order = {i: count_order(order[i], float(v), shape) for i, v in zip(spots, like)}
            spots.sort(key=lambda i: (bool(crowd.any() and (crowd[i] or d_cls[c][i] >= cfg.demote_dist)), order[i]))
            for i in spots[room_c:]:
                have = Counter(kind(t) for t, _ in decided)  # (counted once, not once a class)
                room = [k for k in classes if k != c and have[k] < most.get(k, len(decided))]
                alt = min(room, key=lambda k: d_cls[k][i], default=None)
                conf = decided[i][1]
                near = alt is not None and (d_cls[alt][i] < cfg.demote_dist or alt not in self.model.looks)
                if alt is not None and near and not self._centre_weak_for(i, alt):
                    token: str | None = alt
                    if alt == "cube":
                        arrow, aconf = self._arrow(img, pose, i)
                        token = f"cube:{arrow}" if arrow else "cube:?"
                        conf *= aconf
                        if self._no_count_cube(i):  # vision.piece_cubes: a margin over cube_glyph_min
                            token, conf = None, 1.0
                    decided[i] = (token, 0.5 * conf)
                else:
                    decided[i], dropped[i] = (None, 0.5), c
        self._pairs(decided, names, protos)
        footprint_swap(self, decided, dropped, d_cls, score, crowd, cfg.always.get(self.board.game, ()))  # K1
        def missing(c: str, now: list[tuple[str | None, float]]) -> tuple[int, float] | None:
            """The spot read empty in ``now`` that shows the missing piece ``c`` best, and how surely."""
            nearest = np.array([min(classes, key=lambda k: d_cls[k][i]) == c for i in range(len(now))])
            cand = beyond_edges(self, [i for i, (t, _) in enumerate(now) if t is None and not self._never_empty[i]
                                       and nearest[i] and score[i] >= cfg.always_min_score], step_frac)
            i = max(cand, key=lambda j: support(j, c), default=None)
            return None if i is None else (i, float(np.clip(0.3 + 0.3 * support(i, c), 0.3, 0.7)))

        self._missing = missing  # again after Qubism's cube stage (CubeSpots._cube_stage)
        for c in cfg.always.get(self.board.game, ()):
            if c not in d_cls or any(kind(t) == c or c in str(t).split("+") for t, _ in decided):
                continue
            if self.board.game in cfg.dropped_missing and missing_from_dropped(
                    decided, dropped, c, d_cls, crowd, *solid_score(self, score, dropped)) is not None:
                continue  # a dropped counter is the missing one (vision.katenmuis_read)
            if (found := missing(c, decided)) is not None:
                decided[found[0]] = (c, found[1])
        for i, (t, conf) in enumerate(decided):
            if t is not None and crowd[i]:
                decided[i] = (t, 0.5 * conf)  # a piece under a hand's crowd: unsure, asked

    def _pairs(self, decided: list[tuple[str | None, float]], names: list[str], protos: np.ndarray) -> None:
        """Two pieces on one square (``PieceConfig.pairs``; see ``vision.piece_pairs``): one
        of the pair read, the other nowhere, and the read one's spot showing both colours."""
        pair = self.config.pairs.get(self.board.game)
        if not pair:
            return
        where = {c: [i for i, (t, _) in enumerate(decided) if t is not None and appearance(t) == c] for c in pair}
        if sum(len(v) for v in where.values()) != 1 or any(c not in names for c in pair):
            return
        i = next(v[0] for v in where.values() if v)
        colours = [look_colour(np.median(protos[[n == c for n in names]], axis=0)) for c in pair]
        shares = pair_shares(self._last_patches[i], self._last_empty_patches[i], colours)
        if min(shares) >= self.config.pair_share:
            decided[i] = ("+".join(pair), decided[i][1])

    def read_spots(self, reading: BoardReading) -> dict[str, str]:
        """A reading as spot key -> token (for comparing with ``comparable``)."""
        out: dict[str, str] = {}
        for ids in self.groups:
            toks = [t for t in (reading.squares.get(sid, (None, 0.0))[0] for sid in ids) if t is not None]
            if toks:
                out[ids[0]] = toks[0] if len(toks) == 1 else pair_token(toks)  # the cat over a mouse
        return out


def _check(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise InvalidImageError("expected an 8-bit BGR image (H x W x 3)")
    return image


_READERS: dict[str, BoardReader] = {}


def read_board(image: np.ndarray, board: Board, model: PieceModel | None = None,
               config: PieceConfig | None = None) -> BoardReading:
    """One-shot reading of ``image`` (no tracking between calls)."""
    reader = BoardReader(board, model=model, config=config)
    return reader.read(image, track=False)
