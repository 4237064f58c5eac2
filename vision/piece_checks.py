"""A single spot's reading checked, a layer of the board reader (``vision.pieces``): a piece's
colour missing from a spot (``_colourless``), a piece seen partly or only tinted towards
(``_partly_seen``, ``_tinted``: ``vision.piece_mix``), a learned shadow (``_shadowed``:
``vision.piece_shadow``), the raised plane's middle against a class's learned examples
(``_centre_support``, ``_centre_weak_for``, ``_centre_too_weak``) and Chop! Chop!'s hole spots
(``_hole_or_mouse``, ``_chop_hole``: ``vision.chop_read``). Split from ``vision.pieces`` along
the reader's seam between reading a frame and checking one spot."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.chop_read import HolePictures, hole_reading, ring_reading
from vision.piece_looks import _look_distance
from vision.katenmuis_read import light_share
from vision.piece_mix import lit_print, partly_seen, print_intact, shaded_piece, tinted_light
from vision.piece_shadow import in_shadow, shadow_distance
from vision.piece_spots import SpotFeatures
from vision.piece_standing import standing_figure

if TYPE_CHECKING:
    from vision.piece_looks import PieceModel
    from vision.read_fast import MedianMemo


class SpotChecks(SpotFeatures):
    """The board reader's checks of one spot ``i`` (the frame's evidence and looks kept by
    ``SpotFeatures``, the learned ``model``)."""

    model: PieceModel
    _medians: MedianMemo
    _front: set[int] | frozenset[int] = frozenset()  # spots with an occupied spot in front (vision.piece_standing.front_occupied), per read

    def _colourless(self, i: int) -> bool:
        """Games whose pieces all differ in colour from the print (``PieceConfig.min_chroma``):
        spot ``i``'s chromaticity changed less than the game's minimum in the board's plane or
        the raised one."""
        least = self.config.min_chroma.get(self.board.game)
        if not least:
            return False
        chroma = [float(self.last_base_scores[i][1])]
        if self.config.top_plane.get(self.board.game):
            chroma.append(float(self.last_top_scores[i][1]))
        return min(chroma) < least

    def _standing(self, i: int) -> bool:
        """Spot ``i`` shows a figure standing on its square (``PieceConfig.standing_foot``): a
        figure's shading (spread score at least ``ShadedRule.spread``) and more of its change
        on its footprint than an even change puts there, in the board's plane and the raised
        one, and no occupied spot in front whose body may lean over it. A shadow dims the print
        evenly and crosses the square."""
        foot = self.config.standing_foot.get(self.board.game)
        rule = self.config.shaded.get(self.board.game)
        if foot is None or rule is None or not self.config.top_plane.get(self.board.game) or i in self._front:
            return False
        return standing_figure(np.stack([self._last_patches[i], self._last_top_patches[i]]),
                               np.stack([self._last_empty_patches[i], self._last_top_empty[i]]),
                               self._spreads(i), rule.spread, foot)

    def _partly_seen(self, i: int, look: np.ndarray, names: list[str], protos: np.ndarray,
                     occ_conf: float) -> tuple[str, float] | None:
        """Spot ``i``, taken for a shadow, as a piece seen partly (``PieceConfig.colour_share``,
        ``vision.piece_mix``): (token, confidence), or None."""
        rule = self.config.colour_share.get(self.board.game)
        if not rule:
            return None
        token = partly_seen(look, self._last_look_empty[i], names, protos, *rule)
        if token is None and (shaded := self.config.shaded.get(self.board.game)) is not None:
            token = shaded_piece(look, self._last_look_empty[i], names, protos, self._spreads(i), shaded)
        if token is None or self._centre_weak_for(i, token) or self._lit(i, look):
            return None
        if self._shadowed(i, look, float(_look_distance(protos[[n == token for n in names]], look).min())):
            return None  # where this light's learned shadows lie (vision.piece_shadow)
        return token, 0.8 * occ_conf

    def _spreads(self, i: int, part: int = 3) -> tuple[float, float]:
        """Spot ``i``'s spread scores (or another evidence ``part``: 1 chroma) in the board's
        plane and the raised one (the board's twice without a raised plane)."""
        base = float(self.last_base_scores[i][part])
        return base, float(self.last_top_scores[i][part]) if self.config.top_plane.get(self.board.game) else base

    def _tinted(self, i: int, look: np.ndarray, token: str, dist: float, names: list[str], protos: np.ndarray) -> bool:
        """Spot ``i``, read as ``token`` at look distance ``dist``, only tinted towards its colour
        or on a print seen intact (``PieceConfig.shaded``, ``vision.piece_mix.tinted_light``, ``print_intact``)."""
        rule = self.config.shaded.get(self.board.game)
        if rule is None:
            return False
        spreads, chromas = self._spreads(i), self._spreads(i, 1)
        return (tinted_light(look, self._last_look_empty[i], token, dist, names, protos, spreads, chromas, rule)
                or print_intact(self._spreads(i, 0), spreads, chromas, rule) or self._lit(i, look))

    def _lit(self, i: int, look: np.ndarray) -> bool:
        """Spot ``i`` (its ``look``) lies where this light's learned shadows lie (within
        ``ShadowLooks.near`` of a shadow line, however near a cat's look) and its change from its
        print is a change of light, with no piece's shading or colour, in both planes
        (``PieceConfig.shaded``, ``vision.piece_mix.lit_print``)."""
        rule = self.config.shaded.get(self.board.game)
        shade = self.config.shadow_looks.get(self.board.game)
        if rule is None or shade is None or not self.model.shadows or not self._plain_print()[i]:
            return False  # a cat on a square printed in a colour like its own moves no colour
        rel = look - self._last_look_empty[i]
        if shadow_distance(rel, np.asarray(self.model.shadows, np.float64), shade.reach) > shade.near:
            return False
        shares = [float(light_share(self._last_patches[[i]], self._last_empty_patches[[i]])[0])]
        if self.config.top_plane.get(self.board.game):
            shares.append(float(light_share(self._last_top_patches[[i]], self._last_top_empty[[i]])[0]))
        return lit_print((min(shares), max(shares)), self._spreads(i), self._spreads(i, 1), rule)

    def _shadowed(self, i: int, look: np.ndarray, dist: float) -> bool:
        """Spot ``i``, read as a piece at look distance ``dist``, lies on a shadow line learned
        from a known position (``PieceConfig.shadow_looks``, ``vision.piece_shadow.in_shadow``)."""
        rule = self.config.shadow_looks.get(self.board.game)
        return rule is not None and in_shadow(look - self._last_look_empty[i], dist, self.model.shadows, rule)

    def _plain_print(self) -> np.ndarray:
        """[spots] bool: the spot's print is the board's plain paper colour, not a coloured square
        (its chromaticity within a quarter of ``chroma_scale`` of the spots' median: the Kilkenny
        print's white squares lie within 0.013 of it, its coloured mice squares 0.042 off)."""
        if getattr(self, "_plain", None) is None:
            chroma = self.empty_looks[:, :2]
            self._plain = np.abs(chroma - np.median(chroma, axis=0)).sum(axis=1) < 0.25 * self.config.chroma_scale
        return self._plain

    def _centre_support(self, i: int, cls: str) -> float:
        """How fully the raised plane's middle of spot ``i`` changed, as a share (0.2 to 1) of
        what class ``cls``'s learned examples showed there (1 without a raised plane or
        examples): a piece standing there fills it, a shadow or a neighbour's edge hardly."""
        centre = float(self.last_centre[i])
        ref = self.model.centre.get(cls)
        if not np.isfinite(centre) or not ref:
            return 1.0
        return float(np.clip(centre / max(self._medians(cls, ref), 1e-6), 0.2, 1.0))

    def _centre_weak_for(self, i: int, cls: str) -> bool:
        """The raised plane's middle of spot ``i`` changed much less than class ``cls``'s
        learned examples did there (see ``PieceConfig.centre_share``)."""
        centre = float(self.last_centre[i])
        ref = self.model.centre.get(cls)
        if not np.isfinite(centre) or not ref:
            return False
        return centre < self.config.centre_shares.get(self.board.game, self.config.centre_share) * self._medians(cls, ref)

    def _centre_too_weak(self, i: int, look: np.ndarray, names: list[str], protos: np.ndarray,
                         dist: np.ndarray | None = None) -> bool:
        """The raised plane's middle of spot ``i`` changed much less than the nearest piece
        look's learned examples did there (see ``PieceConfig.centre_share``); ``dist``: the
        look's distances to ``protos`` when the caller has them."""
        d = _look_distance(protos, look) if dist is None else dist
        return self._centre_weak_for(i, names[int(np.argmin(d))])

    def _chop_hole(self, i: int, token: str, conf: float, look: np.ndarray, names: list[str], protos: np.ndarray,
                   holes: HolePictures) -> tuple[str, float]:
        """A Chop! Chop! hole spot against the start photo (``vision.chop_read``)."""
        cfg, m = self.config, self.model
        d_mouse = min((float(_look_distance(p_, look)) for n_, p_ in zip(names, protos) if n_ == "mouse"), default=1e9)
        r = holes.row(i)
        if holes.faces is not None and r >= 0:  # a mouse that never left stands where it stood
            return hole_reading(holes.faces[r], [m.hole_starts[holes.holes[r]]], token, conf, d_mouse,
                                cfg.chop_hole_same, cfg.chop_open_mouse_dist)
        if holes.rings is None or r < 0:
            return token, conf  # no start rings learned (ring_reading would say the same)
        return ring_reading(holes.rings[r], m.rings, token, conf, d_mouse, cfg.chop_ring_dist,
                            cfg.chop_ring_mouse_dist)

    def _hole_or_mouse(self, look: np.ndarray, names: list[str], protos: np.ndarray) -> tuple[str, float]:
        """A Chop! Chop! hole spot: a mouse or an opened hole slab (rule C3), with a confidence."""
        d_all = _look_distance(protos, look)
        learned = set(self.model.looks)
        d_mouse = min((float(d) for n, d in zip(names, d_all) if n == "mouse"), default=1e9)
        d_hole = min((float(d) for n, d in zip(names, d_all) if n == "hole"), default=1e9)
        if "mouse" in learned and "hole" not in learned:
            t = self.config.hole_mouse_dist
            token = "mouse" if d_mouse < t else "hole"
            return token, float(np.clip(0.5 + abs(d_mouse - t) / t, 0.0, 1.0))
        token = "mouse" if d_mouse <= d_hole else "hole"
        a, b = sorted((d_mouse, d_hole))
        return token, float(np.clip(0.4 + (b - a) / (b + 1e-6), 0.0, 1.0))
