"""Qubism's cubes read from their top faces, a layer of the board reader (``vision.pieces``):
where a 28-31 mm cube's top face shows at this camera's tilt, its crop is read for a cube's top
(``vision.qubism_read``, ``vision.qubism_glyph``) and its arrow (learned cube tops turned four
ways, else the glyph's shape: ``vision.arrows``). Split from ``vision.pieces`` along the
reader's seam between the games' shared reading and this game's own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np

from vision.arrows import arrow_correlations, arrow_direction, arrow_from_correlations
from vision.boardlocate import BoardPose
from vision.piece_spots import SpotFeatures
from vision.qubism_bare import ask_cubes, bare_asked, given_back
from vision.qubism_ink import TopInks
from vision.qubism_needle import asked_arrows, needle_checked
from vision.qubism_pawns import (PawnShape, cubes_back, hidden_by_cubes, likeness, pawns_again, pawns_back,
                                 pawns_off_tops, pawns_swapped, pawns_unhidden, spot_shape)
from vision.qubism_plates import plate_cubes
from vision.qubism_read import (FACE_MIDDLE, TopFace, crop_marker_share, faint_rule, moved_tops, settle_cubes, small_rule,
                                small_tops, top_crops, top_faces, with_arrow, with_glyphs_small, with_rings)
from vision.qubism_shift import shifted_arrows
from vision.read_fast import ArrayMemo

if TYPE_CHECKING:
    from vision.piece_looks import PieceModel


class CubeSpots(SpotFeatures):
    """The board reader's Qubism layer: ``_settle_cubes`` corrects a frame's cubes from their
    top faces; ``_arrow`` reads a cube's arrow and keeps how clearly (``_arrow_support``,
    ``_no_cube_top``); ``_pawn_shaped`` and ``_shapes_here`` compare a spot with a pawn's learned
    shape (``vision.qubism_pawns``)."""

    model: PieceModel
    _top_match: dict[int, float]
    _arrow_conf: dict[int, float]
    _arrows: dict[int, tuple[str | None, float]]
    _margin_empty: set[int]
    """This frame's spots the piece count read empty by ``PieceConfig.count_glyph_margin`` alone (``_no_count_cube``)."""
    _shapes_seen: tuple[BoardPose, tuple[float, ...], bool] | None = None
    """``_shapes_here``'s last answer: the pose and learned corners it was for (a read asks once a spot)."""
    _shape_arrays: ArrayMemo | None = None
    """The learned shapes as arrays (``_learned_shapes``)."""
    _missing: Callable[[str, list[tuple[str | None, float]]], tuple[int, float] | None] | None = None
    """This frame's search for a piece that never leaves the board among the spots read empty (the piece
    count's ``always`` rule, set by ``BoardReader._counts``): run again after the cube stage (``pawns_again``)."""
    _count_dist: tuple[dict[str, np.ndarray], np.ndarray] | None = None
    """This frame's look distance of every spot to each class's learned looks and to its own empty print, as
    the piece count measured them (set by ``BoardReader._counts``; ``pawns_off_tops``)."""

    def _settle_cubes(self, img: np.ndarray, pose: BoardPose, score: np.ndarray,
                      decided: list[tuple[str | None, float]], looked: list[tuple[str | None, float]] | None = None
                      ) -> list[tuple[int, tuple[str | None, float]]]:
        """Qubism's cubes corrected from their top faces (``vision.qubism_read``; ``looked``: the readings before
        the piece count); returns the cubes the nine-cube cap took off (``settle_cubes``)."""
        rule = self.config.cube_tops
        assert rule is not None and pose.homography is not None
        look = [i for i, (t, _) in enumerate(decided) if t is not None or score[i] >= rule.min_score]
        cell, s = self.cell_mm, self.config.px_per_mm
        lift = self._lift(pose, (img.shape[1], img.shape[0]), self.config.cube_top * cell)
        centres = self._spot_centres_px[look] / s
        to_image, lens = pose.sampling()  # through the lens when the pose has one
        to_top = to_image @ lift  # board mm at the cubes' top height -> image
        tops = top_crops(img, to_top, centres, cell, lens=lens)
        seen = set(pose.markers)  # a marker seen is no cube's top; one hidden may be under one
        marks = [(m.x_mm, m.y_mm, m.size_mm) for m in self.board.printed_as(seen).markers if m.id in seen]
        faces: dict[int, TopFace] = {}
        blocked: set[int] = set()
        square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * cell * FACE_MIDDLE / 2  # what top_face measures
        faces.update(zip(look, top_faces(tops)))  # top_face(tops[k], arrow=False) of each, at once
        fused = rule.glyphs is not None and 0 < rule.small_share <= rule.glyphs.share[0]
        hits = [False] * len(look)  # small_tops' answers, from the glyphs' own labelling where it may (fused)
        faint = [False] * len(look)  # ... and those only CubeTops.small_band's lower cuts take (faint_rule)
        if rule.glyphs is not None:  # a cube's top whatever its print (vision.qubism_glyph), every spot's at once
            ask = [fused and decided[i][0] is None and score[i] >= 1 and not rule.glyph_like(faces[i]) for i in look]
            found, hits = with_glyphs_small([faces[i] for i in look], tops, rule.glyphs,
                                            small_rule(rule) if fused else rule.glyphs, ask,
                                            (faint_rule(rule), faint) if fused and rule.small_band > 0 else None)
            faces.update(zip(look, found))
        with_rings(faces, look, tops, decided, score, rule, looked)  # a closed ring on a top (vision.qubism_ring)
        # a spot the count read empty by its margin alone shows an arrow's shape at its place: not searched off it
        near = [k for k, i in enumerate(look) if i not in self._margin_empty]
        moved = moved_tops(img, to_top, [look[k] for k in near], centres[near], decided, faces, self.cell_mm, rule, lens)
        bare = [k for k, i in enumerate(look) if decided[i][0] is None and i not in moved and score[i] >= 1
                and not (rule.glyph_like(faces[i]) or rule.is_top(faces[i]))]  # occupied, by its evidence
        if not fused:  # no glyphs, or a small share no lower than theirs: labelled on its own
            for k, ok in zip(bare, small_tops(tops[bare], [faces[look[k]] for k in bare], rule)):
                hits[k] = ok
        small = {look[k] for k in bare if hits[k]}  # small_tops(tops[bare], ...)
        weak = {look[k] for k in bare if faint[k]}  # a cube only if the ink stages below read its arrow
        for k, i in enumerate(look):
            face = faces[i]
            if i in moved:
                centres[k] = moved[i]
            if str(decided[i][0]).startswith("cube") or not (rule.glyph_like(face) or rule.is_top(face) or i in small | weak):
                continue
            if rule.glyph_like(face):
                faces[i] = with_arrow(face, tops[k])  # a shaft-and-head arrow's shape
            corners = np.column_stack([centres[k] + square, np.ones(4)]) @ lift.T
            if crop_marker_share(corners[:, :2] / corners[:, 2:], marks) > rule.marker_share:
                blocked.add(i)

        def arrow_of(i: int) -> tuple[str | None, float]:
            g = faces[i].glyph  # a top seen off its place: its glyph, not the crop at the spot
            return (g.direction, 1.0) if i in moved and g is not None else self._arrow(img, pose, i)

        counted = list(decided)
        capped = settle_cubes(decided, faces, blocked, rule, arrow_of if self.model.arrows else None,
                              frozenset(moved), frozenset(small))
        if looked is not None and self.config.pawns_back is not None:  # a pawn the count kept on a cube (vision.qubism_pawns)
            self._pawns_moved(decided, looked, counted, faces, blocked, lift)
        if rule.plates is not None and rule.glyphs is not None:  # a cube's top by its plate (vision.qubism_plates)
            self._plate_cubes(decided, score, look, tops, centres, lift, marks)
        if looked is not None and (pawns := self.config.pawns_back) is not None and pawns.off_top and self._count_dist:
            # a pawn the count kept on a cube's glyph, once the plates have taken their cubes (vision.qubism_pawns)
            kinds = self.config.always.get(self.board.game, ())
            ask = [i for i, ((seen, _), (was, _), (now, _)) in enumerate(zip(looked, counted, decided)) if i in faces
                   and ((now is not None and now == was and now in kinds) or (seen in kinds and was is None and now is None))]
            on_top = {i for i in ask if rule.is_top(faces[i]) and i not in blocked}  # only the kept pawns' and
            no_top = {i for i in ask if not (rule.is_top(faces[i]) or rule.glyph_like(faces[i]))}  # their rivals' faces
            pawns_off_tops(decided, looked, counted, on_top, no_top, *self._count_dist, self.last_centre, kinds,
                           rule.most, pawns)
        # the faint tops (vision.qubism_read.faint_rule) still read empty after the cube and plate stages
        empty = ask_cubes(decided, sorted(weak - blocked), rule.most, rule.weak_conf)
        if rule.needles is not None and rule.glyphs is not None:  # a cube still asked (vision.qubism_needle)
            masks = {i: f.glyph.mask if f.glyph is not None else None for i, f in faces.items()}
            inks = TopInks(tops, rule.needles)  # each crop's ink found once for both (vision.qubism_ink)
            asked_arrows(decided, look, tops, masks, frozenset(moved), rule.glyphs, rule.needles, inks)
            own = {i: f.glyph.direction if f.glyph is not None else None for i, f in faces.items()}
            needle_checked(decided, look, tops, own, frozenset(moved), rule.needles, inks=inks)  # a needle's end, not a guess
        # a faint top whose arrow its crop's ink did not read: left as it was, not asked (before
        # shifted_arrows: no crop more is cut for a faint top)
        given_back(decided, empty)
        if rule.bare_asked > 0 and rule.needles is not None and rule.glyphs is not None:
            # occupied by its evidence, no top seen, once the stages above have read the frame (vision.qubism_bare)
            asked = bare_asked(decided, look, score, rule.bare_asked, moved.keys() | blocked, rule.most, rule.weak_conf)
            if asked:  # its arrow read by its own crop's ink, else as it was (no crop more cut: shifted_arrows)
                asked_arrows(decided, look, tops, masks, frozenset(moved), rule.glyphs, rule.needles, inks)
                given_back(decided, asked)
        if rule.needles is not None and rule.glyphs is not None and rule.shifted is not None:
            # a cube still asked, its top cut a little off its place (vision.qubism_shift)
            shifted_arrows(decided, look, centres, cell, lambda at: top_crops(img, to_top, at, cell, lens=lens),
                           frozenset(moved), rule.glyphs, rule.needles, rule.shifted)
        return capped

    def _cube_stage(self, img: np.ndarray, pose: BoardPose, score: np.ndarray,
                    looked: list[tuple[str | None, float]], decided: list[tuple[str | None, float]]) -> None:
        """Qubism after the piece count: the cubes settled (``_settle_cubes``), then a pawn that
        stage took put back (``_pawns_back``; ``looked``: the readings before the count), a cube
        the nine-cube cap took off for it brought back (``vision.qubism_pawns.cubes_back``) and a
        pawn still read nowhere looked for again among the spots read empty (``pawns_again``)."""
        counted = list(decided)
        capped = self._settle_cubes(img, pose, score, decided, looked)
        back = self._pawns_back(looked, counted, decided)
        rule, pawns = self.config.cube_tops, self.config.pawns_back
        if rule is not None and pawns is not None and pawns.cubes:
            cubes_back(decided, capped, back, rule.most)
        if pawns is not None and pawns.again and self._missing is not None:
            pawns_again(decided, self.config.always.get(self.board.game, ()), self._missing)

    def _pawns_back(self, looked: list[tuple[str | None, float]], counted: list[tuple[str | None, float]],
                    decided: list[tuple[str | None, float]]) -> list[int]:
        """A pawn read nowhere after the cube stage put back (in place) where that stage took it
        (``vision.qubism_pawns.pawns_back``): ``looked`` the frame's readings before the piece count,
        ``counted`` after it. Returns the spots changed."""
        rule = self.config.pawns_back
        if rule is None:
            return []
        return pawns_back(looked, counted, decided, self.config.always.get(self.board.game, ()), rule)

    def _pawns_moved(self, decided: list[tuple[str | None, float]], looked: list[tuple[str | None, float]],
                     counted: list[tuple[str | None, float]], faces: dict[int, TopFace], blocked: set[int],
                     lift: np.ndarray) -> None:
        """A pawn the piece count kept where a cube is moved (``vision.qubism_pawns``): off a spot whose
        top shows a clean top plate with a glyph, to a spot it took the pawn from that shows no top
        (``pawns_swapped``); then off a spot a neighbouring cube's box hides, as the camera sees it, to
        one it took the pawn from that no cube hides (``hidden_by_cubes``, ``pawns_unhidden``)."""
        rule, pawns = self.config.cube_tops, self.config.pawns_back
        assert rule is not None and pawns is not None
        kinds = self.config.always.get(self.board.game, ())
        if pawns.swap:
            topped = {i for i, f in faces.items()
                      if rule.is_top(f) and rule.glyph_like(f) and f.border <= rule.pawn_border and i not in blocked}
            bare = {i for i, f in faces.items() if not (rule.is_top(f) or rule.glyph_like(f))}
            pawns_swapped(decided, looked, counted, topped, bare, kinds, rule.most, pawns)
        if not pawns.unhide:
            return
        asked = [i for i, ((seen, _), (was, _), (now, _)) in enumerate(zip(looked, counted, decided))
                 if (now is not None and now == was and now in kinds) or (seen in kinds and was is None and now is None)]
        if asked:  # the kept pawns and the spots the count took them from
            sure = [i for i, (t, _) in enumerate(decided) if t is not None and t.startswith("cube") and t != "cube:?"]
            hidden = hidden_by_cubes(self._spot_centres_px / self.config.px_per_mm, sure,
                                     self.config.cube_top * self.cell_mm, lift, asked)
            pawns_unhidden(decided, looked, counted, hidden, kinds, pawns)

    def _plate_cubes(self, decided: list[tuple[str | None, float]], score: np.ndarray, look: list[int],
                     tops: np.ndarray, centres: np.ndarray, lift: np.ndarray,
                     marks: list[tuple[float, float, float]]) -> None:
        """Spots of ``look`` still read as empty with an occupied spot's evidence (score 1 or more) whose
        top crop (``tops``, centred at ``centres``, board mm, in the plane ``lift`` takes to the board's)
        lies off the printed markers and shows a cube's plate are cubes (``vision.qubism_plates``)."""
        rule = self.config.cube_tops
        assert rule is not None and rule.plates is not None and rule.glyphs is not None
        square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * self.cell_mm * FACE_MIDDLE / 2
        ks = []
        for k, i in enumerate(look):
            if decided[i][0] is not None or score[i] < 1:
                continue
            corners = np.column_stack([centres[k] + square, np.ones(4)]) @ lift.T
            if crop_marker_share(corners[:, :2] / corners[:, 2:], marks) <= rule.marker_share:
                ks.append(k)
        plate_cubes(decided, [look[k] for k in ks], tops[ks], rule.plates, rule.glyphs, rule.most, rule.weak_conf)

    def _arrow(self, image: np.ndarray, pose: BoardPose, i: int) -> tuple[str | None, float]:
        """A cube's arrow: nearest learned cube top turned four ways, else the glyph's shape.
        Keeps how well the top matched a learned cube top at all (``_no_cube_top``); read once a
        frame (``_arrows``, emptied by ``BoardReader.read``), however often a stage asks."""
        known = self._arrows.get(i)
        if known is not None:
            return known
        top = self.cube_top(image, pose, i)
        if self.model.arrows:
            corr = arrow_correlations(top, self.model.arrows)
            self._top_match[i] = max(corr.values())
            arrow, conf = arrow_from_correlations(corr)
        else:
            arrow, conf = arrow_direction(top)
        self._arrow_conf[i] = conf
        self._arrows[i] = (arrow, conf)
        return arrow, conf

    def _arrow_support(self, i: int, cls: str) -> float:
        """How clearly spot ``i`` shows a cube's arrow (0.2 to 1; 1 for other classes or
        before its arrow was read): a cube's top more than an arm or a leaning side."""
        if cls != "cube" or i not in self._arrow_conf:
            return 1.0
        return float(np.clip(self._arrow_conf[i], 0.2, 1.0))

    def _no_cube_top(self, i: int) -> bool:
        """Where a cube's top face would be seen above spot ``i`` nothing matches a learned
        cube top (best correlation below ``PieceConfig.cube_top_match``): a hand's shadow, a
        white pawn, a neighbouring cube's side. With no cube top learned, an arrow's shape
        read less clearly than ``PieceConfig.cube_glyph_min`` there."""
        match = self._top_match.get(i)
        if match is not None:
            return match < self.config.cube_top_match
        shape = self._arrow_conf.get(i)  # nothing learned: the arrow's shape (vision.arrows.arrow_direction)
        return shape is not None and shape < self.config.cube_glyph_min

    def _no_count_cube(self, i: int) -> bool:
        """The piece count's ``_no_cube_top``: with no cube top learned, the arrow's shape must read
        ``PieceConfig.count_glyph_margin`` clearer than ``cube_glyph_min`` for the count to make a
        demoted spot a cube (under it the spot is read empty: the cube stage decides by the top)."""
        shape = self._arrow_conf.get(i)
        if self._top_match.get(i) is not None or shape is None or shape < self.config.cube_glyph_min:
            return self._no_cube_top(i)
        if shape < self.config.cube_glyph_min + self.config.count_glyph_margin:
            self._margin_empty.add(i)  # its top shows a shape at its place: not searched off it (_settle_cubes)
            return True
        return False

    def _pawn_shape(self, cls: str) -> PawnShape | None:
        """This game's ``PieceConfig.pawn_shape`` where it names ``cls`` (games with a raised plane)."""
        rule = self.config.pawn_shape.get(self.board.game)
        return rule if rule is not None and cls in rule.classes and self.config.top_plane.get(self.board.game) else None

    def _pawn_shaped(self, i: int, cls: str, pose: BoardPose) -> bool:
        """Spot ``i``'s change from the print is as like ``cls``'s learned shape as
        ``PawnShape.keep``: that piece, whatever a neighbour's side shows at a cube's height."""
        shape = self._pawn_shape(cls)
        learned = self.model.shapes.get(cls)
        return bool(shape is not None and learned and self._shapes_here(pose)
                    and float(likeness(self._spot_shapes([i]), self._learned_shapes(cls))[0]) >= shape.keep)

    def _learned_shapes(self, cls: str) -> np.ndarray:
        """``model.shapes[cls]`` as a float64 array (what ``likeness`` makes of the lists), converted once
        while the learned list stays the same (``vision.read_fast.ArrayMemo``), not for every spot asked about."""
        if self._shape_arrays is None:
            self._shape_arrays = ArrayMemo()
        return self._shape_arrays(cls, self.model.shapes[cls])

    def _shapes_here(self, pose: BoardPose) -> bool:
        """The learned shapes were seen by this camera: the board's corners moved less than
        ``PawnShape.same_camera`` of a square's side (another camera sees a figure lean another way)."""
        learned = tuple(self.model.shape_corners)
        seen = self._shapes_seen
        if seen is not None and seen[0] is pose and seen[1] == learned:
            return seen[2]
        rule = self.config.pawn_shape.get(self.board.game)
        if rule is None or len(learned) != 8:
            return False
        now = self._corners(pose)
        side_px = float(np.mean(np.linalg.norm(now - np.roll(now, 1, axis=0), axis=1)))
        side_mm = (self.board.width_mm + self.board.height_mm) / 2
        moved = float(np.abs(now - np.asarray(self.model.shape_corners).reshape(4, 2)).max())
        here = moved <= rule.same_camera * self.cell_mm * side_px / side_mm
        self._shapes_seen = (pose, learned, here)
        return here

    def _spot_shapes(self, spots: list[int]) -> np.ndarray:
        """The last frame's ``spot_shape`` of ``spots`` (board plane and raised plane)."""
        return spot_shape(self._last_patches[spots], self._last_empty_patches[spots],
                          self._last_top_patches[spots], self._last_top_empty[spots])

    def _corners(self, pose: BoardPose) -> np.ndarray:
        """The board's four corners in the picture (pixels), [4, 2]."""
        w, h = self.board.width_mm, self.board.height_mm
        return pose.to_pixels(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
