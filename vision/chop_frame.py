"""Chop! Chop!: a frame's tokens decided, once the board reader (``vision.pieces``) has read each
spot by its look. In order: the game's rules on the looks (``vision.chop_read.apply_rules``), hole
spots alike another read as opened holes, in the looks and the classifier's probabilities
(``vision.chop_holes``; off by default), the learned per-square classifier where it is sure
(``vision.chop_squares``), a mouse on the table top
or the floor where only the brightness changed (the print's shared chroma taken off) cleared
(``vision.chop_read.shade_mice``), the cat's body over the square behind it (``vision.chop_body``),
a mouse on a hole in the confirmed position kept there (``vision.chop_known.mouse_stays_on_hole``),
a "mouse" on a hole unlike every learned mouse read as the opened hole (``chop_squares.far_from_mice``),
what the last confirmed position lets each square hold (``vision.chop_known``), no cat on its
face-up cheese (``vision.chop_cat``), a slab read without its back's pattern (``vision.chop_flat``),
a slab square read as the floor whose face is not the print (``vision.chop_cheese``), the mice
missing now (``vision.chop_count``) and one cat, where the classifier finds it likeliest, where
two spots read as it (``vision.chop_cat.one_cat``); with the confirmed position one turn back,
the mice where one move leaves them (``vision.chop_moved``) and the mouse that moved where it
landed unseen (``vision.chop_landed``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.chop_body import cat_body, front_spots
from vision.chop_cat import cat_off_cheese, one_cat
from vision.chop_cheese import cheese_faces
from vision.chop_count import missing_mice
from vision.chop_flat import flat_slabs
from vision.chop_holes import alike_holes, opened
from vision.chop_known import follow_confirmed, mouse_stays_on_hole, new_game
from vision.chop_landed import landed_mouse
from vision.chop_moved import one_move
from vision.chop_read import HolePictures, apply_rules, shade_mice
from vision.chop_squares import (cat_stands, decide, far_from_mice, likelier, merge, spot_features,
                                 square_model)
from vision.chop_tall import tall_cat

Decided = list[tuple[str | None, float]]


def chop_decide(reader: Any, img: np.ndarray, pose: Any, score: np.ndarray, looks: np.ndarray,
                patches: np.ndarray, names: list[str], protos: np.ndarray, holes: HolePictures | None,
                decided: Decided) -> Decided:
    """The frame's Chop! Chop! tokens (``decided``: one per spot, by look) after the rules, the
    classifier and the confirmed position; ``reader.last_chop_features`` keeps the classifier's
    features of this frame."""
    cfg = reader.config
    kinds = reader._chop_kinds
    reader.last_chop_features = spot_features(reader, img, pose, looks, patches, names, protos, holes)
    apply_rules(kinds, score, looks, reader._last_look_empty, decided, names, protos, set(reader.model.looks),
                cfg.chop_slab_dist, cfg.chop_slab_share, parts=reader.last_scores, shade_max=cfg.chop_shade_max,
                print_chroma=cfg.chop_shade_mice)
    square = square_model() if cfg.chop_classifier else None
    probs = None
    alike = alike_holes(kinds, patches, cfg.chop_holes_alike) if cfg.chop_holes_alike is not None else []
    opened(decided, None, alike)  # two hole spots alike: opened holes (vision.chop_holes)
    if square is not None:  # the learned per-square classifier where it is sure (vision.chop_squares)
        probs = square.probs(reader.last_chop_features)
        if alike:
            probs = np.array(probs, np.float64)
            opened(decided, probs, alike)
        cats = [i for i, (t, _) in enumerate(decided) if t == "cat"]
        learned = decide(probs, kinds, cats[0] if cats else None)
        if cfg.chop_classifier_likelier is not None:  # neither sure: the more sure (vision.chop_squares.likelier)
            decided = likelier(decided, learned, kinds, cfg.chop_classifier_sure, cfg.chop_classifier_sure_hole,
                               cfg.chop_classifier_likelier)
        decided = merge(decided, learned, kinds, cfg.chop_classifier_sure, cfg.chop_classifier_sure_strict,
                        cfg.chop_classifier_sure_hole, probs, cfg.chop_cat_ratio, cfg.chop_slab_kept)
        if cfg.chop_shade_mice:  # a mouse where only the brightness changed (vision.chop_read.shade_mice)
            shade_mice(kinds, decided, reader.last_scores, probs, cfg.chop_shade_max, cfg.chop_classifier_sure_strict)
        if cfg.chop_cat_empty is not None:  # the cat stands where a figure is (vision.chop_squares.cat_stands)
            cat_stands(decided, kinds, probs, cfg.chop_cat_empty)
        if cfg.chop_cat_body and any(t == "cat" for t, _ in decided):  # its body behind it (vision.chop_body)
            cat_body(decided, kinds, probs, front_spots(reader, pose, (img.shape[1], img.shape[0])))
        if cfg.chop_cat_tall is not None:  # the cat is the one tallest figure (vision.chop_tall)
            tall_cat(reader, img, pose, decided, kinds, probs, cfg.chop_cat_tall)
    squares = [ids[0] for ids in reader.groups]
    # a new game (chop_known.new_game) told once: the steps up to the flat slabs never change it
    new = bool(reader.confirmed) and new_game(decided, squares, reader.confirmed, kinds)
    if reader.confirmed and cfg.chop_classifier_likelier is not None:  # its mouse stays on the hole (chop_known)
        mouse_stays_on_hole(decided, kinds, squares, reader.confirmed, probs, cfg.chop_classifier_likelier, new)
    if cfg.chop_hole_mouse_far is not None:  # a mouse on a hole unlike the learned mice: the opened hole
        far_from_mice(decided, kinds, reader.last_chop_features, cfg.chop_hole_mouse_far)
    if reader.confirmed:  # what the last confirmed position lets each square hold (vision.chop_known)
        follow_confirmed(decided, kinds, squares, reader.confirmed, probs, new)
        cat_off_cheese(decided, squares, reader.confirmed, probs, kinds, new)  # C3 (vision.chop_cat)
    # a slab read without its back's pattern (vision.chop_flat; after the confirmed position, which
    # knows a slab seen where none can be is something flat)
    flat = 0
    if cfg.chop_slab_flat is not None:
        flat = flat_slabs(decided, kinds, patches, reader.chop_slab_texture, probs, *cfg.chop_slab_flat)
    if cfg.chop_cheese_face is not None:  # the floor whose face is not the print: a cheese (vision.chop_cheese)
        cheese_faces(decided, kinds, squares, reader.last_scores, probs, reader.confirmed, new, *cfg.chop_cheese_face)
    if reader.confirmed:  # its mice missing now: asked where they stood (vision.chop_count; a new game
        # told again where a flat slab may have ended it)
        missing_mice(decided, reader.groups, reader.confirmed, probs, kinds=kinds, new=None if new and flat else new)
    one_cat(decided, kinds, probs)  # C1: one cat, where the classifier finds it likeliest (vision.chop_cat)
    if reader.confirmed and reader.confirmed_one_move:  # one piece moved since (vision.chop_moved)
        one_move(decided, kinds, reader.groups, reader.confirmed, probs, new)
        landed_mouse(decided, kinds, reader.groups, reader.confirmed, probs, new)  # vision.chop_landed
    return decided
