"""Settings of the board reader (``vision.pieces``): one dataclass for every stage, from the
top-down warp and occupancy evidence to the frame-wide checks and the game's piece counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.boardlocate import LocateConfig
from vision.qubism_pawns import PawnsBack, PawnShape
from vision.qubism_read import CubeTops


@dataclass(frozen=True)
class BehindRule:
    """A piece read on the square behind another read the same (``vision.piece_mix.behind_same``) must show its
    colour, at least ``read_share`` of it, in the plane of the pieces' heads: the highest of
    ``planes`` (square sides up) where the start's pieces showed at least ``learn_share``
    (``vision.piece_mix.head_plane``). A tall figure's body covers the square behind it in the raised plane
    where spots are read, but not up there, where the spot behind shows its own piece's head or,
    empty, the floor beyond it."""

    planes: tuple[float, ...] = (0.6, 0.75, 0.9)
    learn_share: float = 0.8
    read_share: float = 0.3


@dataclass(frozen=True)
class ShadedRule:
    """A piece has its own shading; tinted light has none (``vision.piece_mix.shaded_piece``,
    ``tinted_light``). The spread score (``SpotFeatures._scores``: how much the grey levels of a
    spot's middle spread more than the print's) rises on a figure's edges and shaded sides, and
    hardly under a shadow or a coloured light, which dim or tint the print evenly.

    - A spot taken for a shadow or for colourless whose colour lies at least ``share`` of the way
      from its print's to a learned piece's, within ``off`` of that line, and whose spread score
      is at least ``spread`` in both planes, is that piece: a small figure covering part of its
      square (seen from above, its colour is a third to a half of the spot's).
    - A spot read as a piece whose look is farther than ``tint_dist`` from that piece's, whose
      colour lies less than ``tint_share`` of the way to it, and whose spread score stays under
      ``tint_spread`` and whose chroma score (how far its chromaticity moved) stays under
      ``tint_chroma`` in both planes holds none: a shadow lit by one light of two (the warm lamp
      blocked, the cold window left) tints the paper part of the way to a blue cat (chroma scores
      0.7-1.5 measured), a cat darkened by a hand's shadow keeps its colour (2.4 and more).
    - A spot read as a piece whose structure score (how much the print's own lines no longer
      show as printed) stays under ``intact_struct``, whose spread score stays under
      ``intact_spread`` and whose chroma score stays under ``tint_chroma`` in both planes holds
      none, however near a cat's colour it lies: the print is all there, only its light changed
      (a hand's deep shadow lit by a bluish light alone: structure 0.3-0.9, spread 0.2-0.3,
      chroma 1.1-1.4). Real cats with so little spread hide the print (structure 1.28 or more,
      190 of 3,469 cats of six sets, three families) or, on a square with little print, keep
      their colour (a felt cat in a hand's shadow: structure 0.89, chroma 3.3).
    - A spot read as a piece on a square printed plain that lies on a shadow line learned at the
      start (within ``ShadowLooks.near``, however near the piece's look: ``SpotChecks._lit``),
      whose change from its print a change of light explains (a smooth field and one straight
      step: ``vision.katenmuis_read.light_share``) but for less than ``lit_share``, whose spread
      score stays under ``lit_spread`` and whose chroma score stays under ``tint_chroma`` in both
      planes holds none: the print is there, lit as the start's shadows were (a cast shadow lit
      by a bluish light read as faded blue cats 0.75-1.5 from their look, too near for
      ``tint_dist`` and ``ShadowLooks.far``). Measured on seven dev sets of three families
      (session 31, kilblue): cats read right that flat, that well explained and that colourless,
      none (cats that flat keep their colour: chroma 2.6 and more); empty squares read as cats,
      third family 4575 67 -> 35."""

    share: float = 0.3
    off: float = 0.2
    spread: float = 2.0
    tint_dist: float = 2.0
    tint_share: float = 0.7
    tint_spread: float = 1.2
    tint_chroma: float = 2.0
    intact_struct: float = 1.0
    intact_spread: float = 1.2
    lit_share: float = 0.2
    lit_spread: float = 0.8


@dataclass(frozen=True)
class ShadowLooks:
    """What the empty print looks like in this light's shadows, learned from a known position
    (``vision.piece_shadow``). A shadow darkens the paper and tints it with the light that is
    left, the same way wherever it falls under one light: its look relative to the print (chroma
    and log brightness moved) lies on a line from the print's own look (no shadow) to the
    darkest a shadow gets there. The known position's empty spots that would be read as
    occupied and changed at least ``least`` look units from their print (a figure's cast shadow,
    a hand's) are kept as such lines. A spot behind a known piece (that piece nearer the
    camera's foot, within 1.5 squares) may show the piece's body instead: it is not kept when its
    colour lies at least ``body_share`` of the way towards that piece's, within ``body_off`` of
    the line.

    A spot later read as a piece far from that piece's learned look (farther than ``far``),
    within ``near`` of a shadow line (up to ``reach`` times as deep as its example) and at most
    ``ratio`` times as far from that line as from the piece's look holds none: under a dim
    evening lamp a metal figure's long cast shadow is the colour of a dark blue cat, but lighter
    than one and just where the start's shadows lay (third family 4026: 15 of its 16 empty
    squares read as blue cats 0.03-0.45 from a learned shadow, 2.1-2.6 from the cat's look; real
    cats that near a learned shadow lie within 1.44 of their look). The latest ``most``
    examples are kept."""

    least: float = 1.0
    far: float = 1.5
    near: float = 0.6
    ratio: float = 0.5
    reach: float = 1.25
    body_share: float = 0.3
    body_off: float = 0.5
    most: int = 300


@dataclass(frozen=True)
class HandRule:
    """A hand, an arm or their shadow over many squares (``vision.piece_hand``): a spot read as
    a learned piece farther than ``far`` from its look, whose look's spread rose less than
    ``flat`` over its print's (look units: a piece shows its own edge inside its square; skin, a
    sleeve or a shadow over the whole square does not) and whose chroma score stays under
    ``tint`` (``ShadedRule.tint_chroma``: the print tinted, not a piece's colour) and whose log
    brightness fell less than ``deep`` look units below its print's (a shadow leaves some light:
    the hands' shadows measured -0.7 to -2.2; dark blue cats hiding the print, -5.1 to -5.8),
    among at least ``least`` touching spots that show something no learned look explains, with
    at least ``together`` such even spots among them (a hand's region changes several squares
    alike; figures leaning over their neighbours in a crowd of cats make large groups too, with
    a far, flat one here and there: second family 2027, three red cats), is asked: read as
    empty, unsure."""

    far: float = 1.2
    flat: float = 0.25
    tint: float = 2.0
    deep: float = -3.5
    least: int = 4
    together: int = 3
    smooth: float = 0.0
    around: float = 1.0
    """A spot read as a piece near its learned look (within ``far``) is asked too when its change
    from its print lies within ``smooth`` look units (chroma, brightness) of the paper's around it
    (``vision.piece_hand.apart_from_around``: the median change of its touching spots read as no
    piece, at least three, where that changed at least ``around``: a shadow over them; 0: not
    used) and it is even, in such a group, counted with the far ones (whose own hits stay as
    without it): a start's cat seen faded puts a learned look near a hand's tinted shadow
    (second family 3671, group 0: 0.8-1.5 from it), and a shadow changes the paper around it
    alike (0.3-1.5 from it there), a cat does not (its cats in that shadow 2.6 or more)."""


@dataclass(frozen=True)
class SolidRule:
    """A change of light, not a counter (``vision.katenmuis_read.lit``): a spot whose change from
    its print a smooth light field and one straight step explain but for less than ``share``
    (``vision.katenmuis_read.light_share``: a shadow's interior, its soft or straight edge, glare)
    and whose log brightness fell less than ``deep`` look units below its print's (a shadow leaves
    some light, as ``HandRule.deep``: a dark counter filling its square, which a smooth field
    explains as well, is darker). Measured on fifteen bench sets of three families (the step fitted
    after the field, not jointly as now): 11 of 879 real counters' spots lit, 529 of 3,189 empty
    spots read as a piece before the count. See docs/readme/board.md, session 21, katcount."""

    share: float = 0.05
    deep: float = -3.5


@dataclass
class PieceConfig:
    px_per_mm: float = 2.0
    min_confidence: float = 0.6
    ncc_scale: float = 0.6
    """1 - NCC with the empty print at which a spot counts as occupied."""
    chroma_scale: float = 0.1
    """Chromaticity change (L1) at which a spot counts as occupied."""
    dark_scale: float = 1.0
    """Drop of log brightness at which a spot counts as occupied on darkness alone."""
    light_scale: float = 0.35
    """Rise of log brightness at which a spot counts as occupied on brightness alone."""
    spread_scale: float = 0.15
    """Rise of the spread of grey levels in the middle of a spot (shading, edges of a piece)."""
    hidden_scale: float = 0.2
    """Drop of the spread of grey levels (the printed label or lines hidden under a piece)."""
    top_plane: dict[str, float] = field(default_factory=lambda: {"kilkenny": 0.45, "qubism": 0.4})
    """Games whose pieces are all figures at least about half a square tall: a spot is also
    read in the plane this many square sides above the board (found from the camera pose), so
    a piece leaning over from a neighbour, which does not reach up there above this spot, is
    not taken for a piece here; looks are read there too (no ground, no contact shadow)."""
    flat_structure: dict[str, float] = field(default_factory=lambda: {"qubism": 0.08})
    """Games whose squares are printed plain (no lines or labels inside): a spot's structure
    evidence there is the detrended grey energy of its middle (``CENTRE_WINDOW``, relative to
    its brightness) over this scale, instead of nothing (the print has nothing to correlate
    with): a white pawn on a light Qubism square shows only its rim and shading."""
    min_chroma: dict[str, float] = field(default_factory=lambda: {"kilkenny": 0.8})
    colourless_conf: float = 0.8
    """Games whose pieces all differ in colour from the print (Kilkenny's red, blue, green and
    yellow cats): a spot read as a piece with a confidence below ``colourless_conf`` whose
    chromaticity changed less than ``min_chroma`` (its chroma score, in the board's plane or
    the raised one) holds none: a hand's or an arm's shadow, a neighbour's edge. Measured on
    Kilkenny scenes of three renderers (main, alt, two seeds of the 3-D one): 176 of the 179
    empty squares read as cats are dropped, 1 of 2520 real cats (in a dim light real cats'
    chroma falls to 0.5, but their looks stay sure)."""
    standing_foot: dict[str, float] = field(default_factory=lambda: {"kilkenny": 0.33})
    """Games with ``min_chroma`` and ``shaded``: a spot the colourless check would empty that
    shows a figure standing on its square is kept as read: its spread score (a figure's shading)
    at least ``ShadedRule.spread`` in both planes and at least this share of its change on its
    footprint (``vision.katenmuis_solid.footprint_share``; an even change puts 0.28 there) in
    both planes (``SpotChecks._standing``). In a dim light a real cat's chroma falls under
    ``min_chroma``; its shading and its place do not. A spot with an occupied spot in front
    (a neighbour's body may lean over it: ``vision.piece_standing.front_occupied``) is left to
    the colourless check."""
    behind: dict[str, BehindRule] = field(default_factory=lambda: {"kilkenny": BehindRule()})
    """Games whose pieces are all figures of one height, each colour distinct from the print: a
    piece read behind one read the same is checked in the plane of the pieces' heads
    (``BehindRule``, ``PieceModel.head_plane``)."""
    top_weight: float = 2.0
    """The top-plane score counts this much more (it only has to show that something is there)."""
    cube_top: float = 0.8
    """Height of a cube's top face in square sides (where the arrow is read)."""
    pooled_lift: tuple[str, ...] = ("qubism",)
    """Games whose raised planes (``SpotFeatures._lift``) are placed by the camera pooled over the
    views of a camera that has not moved since the learned photo (``vision.stillcam``), not one
    frame's. Measured on Qubism; Chop! Chop! (third family, 4331) lost a square with it
    (docs/readme/board.md, session 27 qcam2)."""
    glyph_cube: float = 0.75
    """Qubism before any cube's look is learned (its start position has none): a spot whose
    look is nearest the white pawn's but whose top, seen at a cube's height, shows an arrow
    this clearly (``arrow_direction``'s confidence) is a cube. Measured: 3-D cubes 0.77 or
    more (5th percentile), white pawns 0.58 (3-D) to 0.77 (main renderer) at the 95th."""
    cube_glyph_min: float = 0.65
    """The same before any cube top is learned: a spot read as a cube whose top, seen at a
    cube's height, shows an arrow's shape less clearly than this (``arrow_direction``'s
    confidence) holds no cube (a neighbour leaning over it, an arm)."""
    count_glyph_margin: float = 0.15
    """The piece count (too many pawns: one demoted to the class its look is next nearest, a cube)
    keeps the demoted spot a cube by its shape alone only where the shape reads this much clearer
    than ``cube_glyph_min``; under that it reads the spot empty and the cube stage
    (``vision.qubism_read.settle_cubes``) adds the cube where its top shows one. The shape's
    confidence moves by up to 0.14 when the cube tops move 0.09 mm (the pooled camera's height
    x 1.005; docs/readme/board.md, session 28 qsettle), so a threshold with no margin flips the
    count's answer on a sub-pixel move. 0: no margin."""
    cube_tops: CubeTops | None = field(default_factory=CubeTops)
    """Qubism: a frame's cubes corrected from their top faces, seen in the plane of a cube's top
    (``vision.qubism_read``): a clear cube top over a spot read as empty is a cube, a spot read
    as a cube with no cube top is empty. None: not used."""
    pawn_shape: dict[str, PawnShape] = field(default_factory=lambda: {"qubism": PawnShape()})
    """Games whose pieces named there are told from shadows by their shape against the print,
    learned in known positions, when the count keeps one of several (``vision.qubism_pawns``)."""
    pawns_back: PawnsBack | None = field(default_factory=PawnsBack)
    """Qubism: a pawn read nowhere after the cube stage comes back on the unsure cube that stage read
    where the pawn's look was (``vision.qubism_pawns.pawns_back``; the game's ``always`` pieces).
    None: not done."""
    cube_top_match: float = 0.6
    """A spot read as a cube whose top face (seen in the plane of a cube's top) correlates
    less than this with every learned cube top, turned four ways, holds no cube: measured on
    both renderers' Qubism scenes, real cubes' tops match at 0.67 or more (2nd percentile),
    shadows, white pawns and neighbours' sides at 0.63 at most (median 0.40)."""
    combine: str = "l2"
    shadow_step_frac: float = 0.35
    """Games whose pieces are all figures (those with a ``top_plane``): a spot whose change
    from the empty print is explained but for this share by a straight shadow edge (see
    ``_step_fraction``) is a cast shadow on an empty square, not a piece."""
    shadow_edge: tuple[str, ...] = ("katenmuis",)
    """Games without a ``top_plane`` whose spots get the same straight-shadow-edge check
    (``shadow_step_frac``). Kat en Muis: a see-through counter's learned look is the print
    darkened, as a shadow's is; a shadow's edge across an empty square read as the mouse."""
    centre_share: float = 0.25
    """Games with a ``top_plane``: a spot whose middle, in the raised plane, changes less than
    this share of what the chosen piece's learned examples showed there is not that piece
    (a neighbour leaning over, a shadow): read as empty. Not applied before a piece is learned."""
    centre_shares: dict[str, float] = field(default_factory=lambda: {"kilkenny": 0.45})
    """``centre_share`` for these games instead. Kilkenny: at a steep camera a glossy cat's body
    covers the raised plane of the square behind it, whose middle changes 0.26-0.57 of a cat's
    there (measured on the second 3-D family, seed 2027: 13 of its 17 empty squares read as
    cats), real cats 0.52 or more (1st percentile over four 3-D sets, 0.64 on the first family)."""
    colour_share: dict[str, tuple[float, float]] = field(default_factory=lambda: {"kilkenny": (0.7, 0.8)})
    """Games whose pieces all differ in colour from the print: a spot with evidence (>= 1) taken
    for a shadow (``shadow_step_frac``) or for colourless (``min_chroma``) whose chromaticity lies
    at least this share of the way from its print's to one learned piece's, within this distance
    of that line (``vision.piece_mix``), is that piece when its middle changed like one
    (``centre_share``): a flat cut-out covering part of its square. Shadows lit by another
    light move part of the way to a blue or yellow cat (0.7 at most, measured on the first
    3-D family's warm-tinted scenes under a hand)."""
    shaded: dict[str, ShadedRule] = field(default_factory=lambda: {"kilkenny": ShadedRule()})
    """Games whose pieces all differ in colour from the print: a partly seen piece told from
    tinted light by its own shading (``ShadedRule``)."""
    shadow_looks: dict[str, ShadowLooks] = field(default_factory=lambda: {"kilkenny": ShadowLooks()})
    """Games whose shadows are learned from known positions and read as empty (``ShadowLooks``,
    ``vision.piece_shadow``). Not Kat en Muis: its see-through acrylic mice look like the print
    darkened, as near a learned shadow as the false ones (third family, 0.05-0.14 look units)."""
    hand: dict[str, HandRule] = field(default_factory=lambda: {"kilkenny": HandRule(smooth=1.5), "katenmuis": HandRule(together=1)})
    """Games whose spots under a hand, an arm or their shadow are asked, not read as pieces
    (``HandRule``, ``vision.piece_hand``). Kat en Muis: one even spot is enough (the game's two
    counters can make no crowd of pieces, and its counts leave at most one false cat or mouse
    under a hand). Not Chop! Chop! (its face-down slabs cover whole squares, flat, many side by
    side: 12 of the first family's held-out 2201 in a changed light would go) nor Qubism (a white
    pawn or a cube on light paper is flat and colourless)."""
    frame_min: int = 5
    frame_clear: float = 1.0
    frame_agree: int = 4
    crowd_dist: float = 0.3
    frame_weak: float = 0.3
    frame_look_dist: float = 1.0
    """See ``BoardReader._frame_looks`` and ``_crowds``: this frame's looks of its kinds of
    pieces (evidence >= ``frame_clear``), weak spots (evidence >= ``frame_weak``) near one of
    them when ``frame_agree`` spots agree, crowds of look-alikes (within ``crowd_dist``)."""
    hole_mouse_dist: float = 1.3
    """A Chop! Chop! hole holds a mouse or an opened hole slab (rule C3: nothing else). The
    mice's looks are learned on the holes themselves (they start there), so a hole spot whose
    look is farther than this (look-feature distance) from every learned mouse is an opened
    hole, unless opened holes' looks have been learned too (then the nearer wins)."""
    chop_slab_dist: float = 0.6
    chop_slab_share: float = 0.4
    """Chop! Chop!: a slab square too little changed to count as occupied on its own is a slab
    when its look is within ``chop_slab_dist`` of the learned slab look and nearer it than this
    share of its distance to its own empty print (``vision.chop_read``)."""
    chop_shade_max: float = 0.5
    """Chop! Chop!: a cat or mouse read off the holes where the print changed in brightness only
    (structure, chroma and spread each under this share of their occupancy scale) is a shadow."""
    chop_shade_mice: bool = True
    """Chop! Chop!: the chroma the table top and the floor share is the print's (a black-and-white
    print of the coloured table top), taken off in that shadow test, which also runs after the
    classifier on their mice (``vision.chop_read.shade_mice``); False: neither."""
    chop_hole_same: float = 0.8
    chop_open_mouse_dist: float = 0.3
    chop_same_camera_px: float = 6.0
    chop_ring_dist: float = 1.0
    chop_ring_mouse_dist: float = 0.8
    """Chop! Chop!'s holes (``vision.chop_read``). Under the start photo's camera (the board's
    corners within ``chop_same_camera_px``): a hole spot whose picture correlates at least
    ``chop_hole_same`` with its own picture at the start is the closed slab with its mouse;
    otherwise the hole is open and holds a mouse only when its middle is within
    ``chop_open_mouse_dist`` of a learned mouse. Under another camera: a mouse read on a hole
    whose ring is farther than ``chop_ring_dist`` from the start's rings is the opened hole,
    unless its middle is within ``chop_ring_mouse_dist`` of a learned mouse."""
    chop_classifier: bool = True
    """Chop! Chop!: read the squares with the learned classifier and the rules
    (``vision.chop_squares``) when its model file is there; False: the rules alone."""
    chop_classifier_sure: float = 0.5
    """The classifier's reading replaces the rules' where its probability is at least this
    (the rules read worse wherever it is more sure than not: ``docs/readme/board.md``, chop2)."""
    chop_classifier_sure_strict: float = 0.9
    """The same for a cat reading: there is one cat (C1), so a false one would also put the real
    one out."""
    chop_classifier_sure_hole: float = 0.85
    """The same on a hole, where the rules compare the spot with the start's own picture (C4):
    a mouse standing on an opened hole changes that picture as the opening did, so the rules
    read it as the hole. Lower than ``chop_classifier_sure_strict`` only as far as it held on a
    family the classifier never saw (leave-one-family-out, ``docs/readme/board.md``, chop3: at
    0.7 its first-family holes read as mice at 0.74-0.83 went wrong; from 0.85 none)."""
    chop_classifier_likelier: float | None = 0.05
    """Chop! Chop!: on a slab square or a hole where neither the rules nor the classifier is sure
    enough to decide (``chop_classifier_sure``, on a hole ``chop_classifier_sure_hole``), the
    classifier's reading when it is at least this much more sure than the rules'
    (``vision.chop_squares.likelier``); None: the rules'. At 0 two first-family holes in a
    shadow were lost (``docs/readme/board.md``, chopcat)."""
    chop_cat_ratio: float | None = 5.0
    """Chop! Chop!'s one cat (C1, C6): the cat moves to the spot with the classifier's highest
    cat probability when that is at least this many times the cat probability where the cat is
    read (``vision.chop_squares.cat_here``); None: never. 5: the smallest ratio that moved no
    cat wrongly on the first two families' bench sets (``docs/readme/board.md``, chopc)."""
    chop_slab_kept: tuple[float, float] | None = (0.95, 0.8)
    """Chop! Chop!: a spot the rules read as a face-down slab at least the first sure (its look
    the slab's learned at the start) is read as a face-up cheese only when the classifier is at
    least the second sure of it (``vision.chop_squares.merge``); None: its usual threshold."""
    chop_slab_flat: tuple[float, float] | None = (0.15, 0.3)
    """Chop! Chop!: where the start's slab backs show a pattern (their median texture at least the
    first), a slab read with under the second times its start texture is its likeliest other
    reading, unsure (``vision.chop_flat.flat_slabs``); None: never (``docs/readme/board.md``,
    session 26, chopc)."""
    chop_cheese_face: tuple[float, float, float] | None = (0.1, 0.4, 0.5)
    """Chop! Chop!: a slab square read as the floor is the face-up cheese, unsure, where the
    classifier's likeliest reading is the floor and its cheese at least the first times that,
    and the spot's chroma and spread evidence against the print at least the second and third
    (``vision.chop_cheese.cheese_faces``; where the confirmed position lets a cheese lie); None:
    never (``docs/readme/board.md``, session 28, chopcheese)."""
    chop_holes_alike: float | None = None
    """Chop! Chop!: hole spots whose pictures correlate at least this with another hole spot's
    are opened holes, a mouse read there the hole (``vision.chop_holes``); None: never, the
    default: at 0.9 it gained 2 squares on one dev set and lost 8 on the lead's held-out seed
    4231 (more false mice; ``docs/readme/board.md``, session 28, chopab)."""
    chop_hole_mouse_far: float | None = 1.0
    """Chop! Chop!: a mouse read on a hole whose look is farther than this from every learned
    mouse look is the opened hole (``vision.chop_squares.far_from_mice``); None: never. On the
    first two families no mouse read right on a hole was farther than 0.9 (``docs/readme/board.md``,
    chopc)."""
    chop_cat_empty: float | None = 0.8
    """Chop! Chop!: a cat read on a table or floor spot (figures only) where the classifier is at
    least this sure nothing stands moves to the mouse it finds most the cat's, unsure
    (``vision.chop_squares.cat_stands``); None: never. At 0.6-0.8 it moved no cat wrongly on
    the six bench sets and three held-out ones (``docs/readme/board.md``, chopcat)."""
    chop_cat_tall: float | None = 0.3
    """Chop! Chop!: the frame's tallest figure, standing at least this many square sides above
    every other one (seen up its body through the pose, ``vision.chop_tall``), is the cat,
    unsure; None: never."""
    chop_cat_body: bool = True
    """Chop! Chop!: a spot whose front neighbour (nearer the camera) is read as the cat and where
    the classifier finds the cat likeliest shows the cat's body leaning over it: not a mouse, and
    unsure (``vision.chop_body``); False: never."""
    counts: dict[str, dict[str, int]] = field(default_factory=lambda: {
        "qubism": {"pawn:white": 1, "pawn:black": 1, "cube": 9},
        "katenmuis": {"cat": 1, "mouse": 1},
        "chopchop": {"cat": 1, "mouse": 4}})
    """The game's own piece set: at most this many pieces of a look class can be on the board
    (Qubism: one pawn each, nine cubes; Kat en Muis: one cat, one mouse; Chop! Chop!: one cat,
    four mice). See ``count_games`` and ``BoardReader._crowds``."""
    count_games: tuple[str, ...] = ("qubism", "katenmuis")
    """Games whose readings are cut to ``counts`` spot by spot (not Chop! Chop!: there a mouse
    misread as the cat would cost the real cat; measured worse). Extra readings of a class
    keep the spots whose look is nearest it; the others take their next class with room, if
    near enough (``demote_dist``), or are read as empty."""
    always: dict[str, tuple[str, ...]] = field(default_factory=lambda: {
        "qubism": ("pawn:white", "pawn:black"), "katenmuis": ("cat", "mouse")})
    """Pieces that never leave the board (Qubism's pawns, Kat en Muis's cat and mouse): when no
    spot reads as one, it is the empty-read spot with evidence >= ``always_min_score`` (weak,
    or dropped by the middle check), no straight shadow edge, and that kind as its nearest
    look, that shows it best: evidence times how much nearer its look is to the kind's than to
    its own empty print. Low confidence (0.3-0.7), so the cross-check asks when unsure."""
    always_min_score: float = 0.5
    always_edge: float = 0.2
    """Games with ``shadow_edge``: the search for a missing piece skips the spots a straight
    shadow edge explains but for less than this share (``vision.katenmuis_read.beyond_edges``),
    not ``shadow_step_frac``: a counter standing in a shadow's edge leaves more unexplained (third
    family 4026: 0.25, 0.32) than the bare edge beside it (0.08-0.11)."""
    crowd: dict[str, int] = field(default_factory=lambda: {"katenmuis": 3})
    """Games of a few small pieces (Kat en Muis: two counters): a spot among this many or more
    touching occupied spots is under something larger (a hand, an arm). When the count
    chooses, a spot standing alone whose look is within ``demote_dist`` of the class's comes
    before it; a piece read there is unsure (half its confidence). A missing piece is looked
    for among the weak spots with its look counting only as far as it differs from the print's
    (``vision.katenmuis_read``)."""
    solid_light: dict[str, SolidRule] = field(default_factory=lambda: {"katenmuis": SolidRule()})
    """Games of a few solid counters (Kat en Muis): a spot a change of light explains holds no
    counter (``SolidRule``); the count keeps a kind's spot by its look distance per unit of
    evidence among the others, and the search for a missing counter skips it."""
    footprint_swap: tuple[str, ...] = ("katenmuis",)
    """Games of one counter of each kind, always: a dropped spot with more evidence and more of its
    change on a counter's footprint than a counter read takes its place
    (``vision.katenmuis_solid``)."""
    print_shift: dict[str, float] = field(default_factory=lambda: {"katenmuis": 2.0})
    """Games whose occupied spots are also measured against their print moved by up to this many
    millimetres (a folded print tented off the table, a lens model a pixel off): a spot whose
    evidence that takes under 1 holds the print displaced, not a piece (``vision.print_shift``)."""
    dropped_missing: tuple[str, ...] = ("katenmuis",)
    """Games whose ``always`` piece read nowhere is first the spot the count dropped for one
    piece of another kind too many (a solid counter is there; which kind goes where by the
    looks: ``vision.katenmuis_read.missing_from_dropped``), before the weak spots are searched."""
    pairs: dict[str, tuple[str, str]] = field(default_factory=lambda: {"katenmuis": ("cat", "mouse")})
    """Two pieces of a game that may share a square (Kat en Muis, rule K7: the engine's
    ``"cat+mouse"``). When one is read and the other nowhere, the read one's spot holds both
    if each colour fills at least ``pair_share`` of its middle (``vision.piece_pairs``)."""
    pair_share: float = 0.15
    demote_dist: float = 2.0
    """A reading dropped for the count takes its next-nearest class with room only within this
    look distance of that class's learned looks (any distance while only built-in guesses are
    known), else it is read as empty."""
    refine: bool = True
    """Refine poses fitted on fewer than all markers by aligning the print (see ``refine``)."""
    refine_px_per_mm: float = 1.0
    refine_max_cells: float = 0.45
    refine_highpass_mm: float = 4.0
    """The alignment compares the prints high-passed at this scale (mm): lines, not light."""
    refine_mask_log: float = 0.24
    """Left out of the alignment: where the blurred view's brightness differs from the blurred
    print's by more than this (log ratio, after the median): pieces, hands, hard shadows."""
    refine_iterations: int = 30
    """Largest correction accepted at any square, in square sides (under half a square, so a
    grid cannot slip by a whole cell)."""
    refine_sure_gain: float = 0.15
    refine_sure_cells: float = 0.8
    """An alignment that raises the correlation by ``refine_sure_gain`` or more may move a
    square by up to ``refine_sure_cells`` (a pose from three markers through a strong lens at a
    steep tilt is off by about half a square at the hidden marker's corner; a grid slipped by
    a whole cell would not correlate better than the pose it came from)."""
    locate: LocateConfig = field(default_factory=LocateConfig)
