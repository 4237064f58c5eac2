"""Chop! Chop!'s who-is-where: the cat on the table top over a mouse, and which mouse is which.

The board reader (``vision.pieces``) reads each spot on its own and ``vision.chop_read`` applies
the rules; this module adds what one spot's reading cannot say:

- **The cat on the table top and a mouse under it** (the table top ``top:r,c`` and the floor
  ``r,c`` under it are one spot on the print): a table spot read as the cat (or as a mouse, the
  cat read nowhere else) whose middle shows both the cat's and a mouse's colour, each on at least
  ``PAIR_SHARE`` of its pixels (``vision.piece_pairs.pair_shares``, as Kat en Muis's two counters
  on one square), holds both: the reading reports the cat on ``top:r,c`` and a mouse on ``r,c``
  (``board read --json`` lists both squares). A cat on the table top without a mouse seen under
  it leaves the floor square under it unsure (the cat hides it): the cross-check asks when a
  mouse should be there, never says it left.
- **The mouse under the table-top cat by the rules** (``pairs_by_rules``, with a confirmed
  position): a mouse under the table is out of the cat's reach (C3: the cat never goes under
  the table; C6: only the cat ending on a mouse catches it), so a mouse that stood on the floor
  square under the table in the last confirmed position leaves it only by its own move. Where
  the cat is now read on the table top above that square, having come there since (its move did
  not move the mouse), and fewer mice are read than the confirmed position has (the mouse is seen
  nowhere else) or every other mouse of that position is read where it stood (the move was the
  cat's; session 30), or having stood there already (the turns since were the mice's) and every
  other mouse of that position is read, or one other mouse of it is read away from where it
  stood and a mouse where none stood (the app confirms every move: that mouse made it; session
  30), it is still there: the pair is reported, the mouse unsure
  (``vision.chop_known.UNSURE``: the cross-check asks). The camera need not see it: the table
  top hides it on a real board, and a mouse beside a cat figurine is mostly hidden by it.
- **Which mouse is which** (the camera cannot tell mice apart): from the last confirmed position
  (``name_mice``): the mice seen are matched to the named mice so that the fewest mice moved
  (one piece moves per turn, C2); a mouse is named only when every matching that moves that few
  mice gives it the same name, otherwise it stays ``"mouse"`` and the players are asked. With the
  game's state at hand, the moves the rules allow decide (``camera_moves``): every legal move of
  the turn is tried on a copy of the state and kept when the camera's reading shows its result
  on every square that any of the moves would change (the floor square under the cat on the
  table top excepted: the cat hides it); one move is proposed (naming the mouse); two or more
  ways of one piece onto one slab square (``one_move_paths``: the way matters only to a +1/+2
  found there), the piece read there at ``min_confidence`` or more, are proposed as that move,
  the players asked only which way; two mice that may have gone there are asked about. A
  square a piece lands on that the reading is unsure of (``UNSURE`` or less) rules no move out,
  and a move is proposed only where that square shows it (session 32: ``camera_moves``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.chop_known import UNSURE, base_token, new_game
from vision.chop_under import came_under
from vision.piece_pairs import look_colour, pair_shares

PAIR_SHARE = 0.25
"""Each of the cat's and a mouse's colours on at least this share of a table spot's middle
pixels: both stand there (the cat on the table top, the mouse under it)."""

FIGURES = ("cat", "mouse")


def table_ids(ids: Sequence[str]) -> tuple[str, str] | None:
    """A spot's (table-top square, floor square under it), or None for any other spot."""
    tops = [s for s in ids if s.startswith("top:")]
    floor = [s for s in ids if not s.startswith("top:")]
    return (tops[0], floor[0]) if tops and floor else None


def cat_over_mouse(kinds: Sequence[str], decided: Sequence[tuple[str | None, float]],
                   patches: np.ndarray, empty_patches: np.ndarray, names: Sequence[str],
                   protos: np.ndarray, share: float = PAIR_SHARE, mouse_spots: bool = True) -> list[int]:
    """The table spots (indices) holding the cat on the table top and a mouse under it (see the
    module doc): read as the cat, or as a mouse while the cat is read nowhere (``mouse_spots``),
    their middle showing both colours."""
    if "cat" not in names or "mouse" not in names:
        return []
    cat_read = [i for i, (t, _) in enumerate(decided) if t == "cat"]
    colours = [look_colour(np.median(protos[[n == c for n in names]], axis=0)) for c in FIGURES]
    out = []
    for i, kind in enumerate(kinds):
        token = decided[i][0]
        if kind != "table" or token is None:
            continue
        base = token.split(":")[0]
        if not (base == "cat" or (base == "mouse" and not cat_read and mouse_spots)):
            continue
        shares = pair_shares(patches[i], empty_patches[i], colours)
        if min(shares) >= share:
            out.append(i)
    return out


def pairs_by_rules(decided: Sequence[tuple[str | None, float]], groups: Sequence[Sequence[str]],
                   confirmed: Mapping[str, str]) -> list[int]:
    """The table spots (indices) read as the cat whose floor square held a mouse in the
    ``confirmed`` position, the mouse still there by the count of mice read (``decided``, one per
    spot; ``groups``: each spot's squares) against that position's (module doc). Nothing
    without a confirmed position or in a new game (``vision.chop_known.new_game``)."""
    if not confirmed:
        return []
    cats = [(i, pair) for i, ((token, _), ids) in enumerate(zip(decided, groups))
            if base_token(token) == "cat" and (pair := table_ids(ids)) is not None
            and base_token(confirmed.get(pair[1])) == "mouse"]
    if not cats or new_game(decided, [ids[0] for ids in groups], confirmed):
        return []
    had = sum(1 for t in confirmed.values() if base_token(t) == "mouse")
    seen = sum(1 for t, _ in decided if base_token(t) == "mouse")
    spot = {s: i for i, ids in enumerate(groups) for s in ids}
    # the confirmed position's other mice not read where they stood (moved, or missed)
    away = {i: sum(1 for s, t in confirmed.items() if base_token(t) == "mouse" and s != floor
                   and base_token(decided[spot[s]][0] if s in spot else None) != "mouse") for i, (_, floor) in cats}
    # a mouse read on a spot where none stood
    arrived = sum(1 for (t, _), ids in zip(decided, groups)
                  if base_token(t) == "mouse" and not any(base_token(confirmed.get(s)) == "mouse" for s in ids))
    # the cat came onto the table top over the mouse: its move did not move the mouse, which is
    # there unless it is seen elsewhere (every mouse read), or every other mouse is read where it
    # stood (the move was the cat's); the cat stood there already: the turns since were the mice's,
    # so only when every other mouse is read is it the hidden one, or when one other mouse is
    # read away from where it stood and a mouse where none stood (one move back: that mouse moved)
    return [i for i, (top, _) in cats if (
        (seen < had or away[i] == 0) if confirmed.get(top) != "cat"
        else (seen == had - 1 or (away[i] == 1 and arrived > 0)))]


def chop_pairs(reader: Any, decided: Sequence[tuple[str | None, float]], names: Sequence[str],
               protos: np.ndarray) -> dict[int, float | bool]:
    """The reader's table spots holding the cat over a mouse -> how sure the mouse is: ``True``
    (as sure as the cat) where the spot shows both colours (``cat_over_mouse``), ``UNSURE`` where
    the rules alone put it there (``pairs_by_rules``; one move back known, also the mouse come under
    the cat that stayed, ``vision.chop_under.came_under``). ``reader``: the ``BoardReader`` right after
    reading the frame (its spot kinds, patches, groups and confirmed position)."""
    out: dict[int, float | bool] = {i: UNSURE for i in pairs_by_rules(decided, reader.groups, reader.confirmed)}
    # one move back known (vision.chop_moved), a cat read nowhere was judged there: no cat is
    # found again in a mouse's colours (the lead's 4631, session 31: a cat's arrow move proposed
    # to the table top over another mouse)
    judged = bool(reader.confirmed) and bool(getattr(reader, "confirmed_one_move", False))
    if judged:  # a mouse come under the table-top cat that stayed (vision.chop_under)
        out.update({i: UNSURE for i in came_under(decided, reader.groups, reader.confirmed) if i not in out})
    out.update({i: True for i in cat_over_mouse(reader._chop_kinds, decided, reader._last_patches,
                                                 reader._last_empty_patches, list(names), protos,
                                                 mouse_spots=not judged)})
    return out


def spot_squares(ids: Sequence[str], token: str | None, conf: float, both: bool | float,
                 hidden_conf: float = 0.5) -> dict[str, tuple[str | None, float]] | None:
    """A table spot's squares as the reading reports them, or None for the reader's usual way:
    both pieces (``both``: ``True``, or the mouse's confidence at most) on their squares; the cat
    alone on the table top with the floor under it unsure (``hidden_conf`` at most)."""
    pair = table_ids(ids)
    if pair is None or token is None:
        return None
    top, floor = pair
    if both is not False:
        return {top: ("cat", conf), floor: ("mouse", conf if both is True else min(conf, float(both)))}
    if token == "cat":
        return {top: ("cat", conf), floor: (None, min(conf, hidden_conf))}
    return None


def pair_token(tokens: Sequence[str]) -> str:
    """Tokens seen on one spot as one: ``"cat+mouse"`` for the cat over a mouse."""
    return "+".join(sorted(t.split(":")[0] if t.startswith("mouse") else t for t in tokens))


def cheese_lesson(confirmed: Mapping[str, str], done: set[str]) -> dict[str, str]:
    """What a confirmed position teaches about the face-up cheese (C5: a cheese the cat sat on
    stays face up; the start never shows one): each face-up cheese not in ``done`` (added to
    it), with the cat where the game has it (so ``BoardReader.learn`` does not take it for a
    start, C1), as a known position for ``BoardReader.learn``; empty when there is none."""
    new = sorted(s for s, t in confirmed.items() if t == "cheese" and s not in done)
    cat = [s for s, t in confirmed.items() if t == "cat"]
    if not new or not cat:
        return {}
    done.update(new)
    return {**{s: "cheese" for s in new}, cat[0]: "cat"}


# -- which mouse is which ------------------------------------------------------------------------

def name_mice(seen: Sequence[str], last: Mapping[str, str],
              allowed: Callable[[str, str], bool] | None = None) -> dict[str, str | None]:
    """Each square of ``seen`` (where the camera reads a mouse) -> the engine's name of the mouse
    there (``"mouse:2"``), from ``last`` (the last confirmed position: square -> engine token),
    or None where unsure (see the module doc). ``allowed(frm, to)``: whether a mouse may have
    gone from ``frm`` to ``to`` since (default: anywhere)."""
    named = sorted((t, s) for s, t in last.items() if t.startswith("mouse:"))
    squares = sorted(set(seen))
    out: dict[str, str | None] = {s: None for s in squares}
    if not named or not squares:
        return out
    best: list[dict[str, str]] = []
    best_cost = len(named) + len(squares) + 1
    # each named mouse goes to one seen square or is not seen (caught, hidden): None
    slots: list[str | None] = [*squares, *([None] * len(named))]
    for pick in set(itertools.permutations(slots, len(named))):
        where = {name: sq for (name, _), sq in zip(named, pick)}
        if any(sq is not None and allowed is not None and sq != frm and not allowed(frm, sq)
               for (name, frm), sq in zip(named, pick)):
            continue
        unnamed = len(squares) - sum(sq is not None for sq in pick)
        cost = sum(sq != frm for (name, frm), sq in zip(named, pick)) + unnamed
        if cost < best_cost:
            best_cost, best = cost, []
        if cost == best_cost:
            best.append({sq: name for name, sq in where.items() if sq is not None})
    for s in squares:
        names = {b.get(s) for b in best}
        if len(names) == 1:
            out[s] = names.pop()
    return out


# -- the moves the rules allow, against the camera ----------------------------------------------

@dataclass(frozen=True)
class CameraMoves:
    """What the camera's reading says about the move due: ``actions`` whose result it shows
    (one result: propose it; several: ask which), each with the squares its piece ends on."""

    actions: tuple[Any, ...]
    results: tuple[dict[str, str], ...]
    """Per action, the figures after it (square -> engine token: ``"mouse:2"``, ``"cat"``)."""
    paths: bool = False
    """The moves that fit are the ways of one move (``one_move_paths``) and the camera reads its
    piece on the square it ends on at ``min_confidence`` or more: the app proposes that move and
    asks only which way it came (an unsure end square: asked, as two moves)."""

    @property
    def sure(self) -> bool:
        """Exactly one move fits (two paths to one square, or two mice that may have gone there,
        are asked about)."""
        return len(self.actions) == 1


def one_move_paths(actions: Sequence[Any]) -> bool:
    """Two or more moves of one piece onto one square that differ only in the square it stepped
    on from (``Move.via``): the same pieces end on the same squares, and passing over slabs,
    holes or cheese does nothing (C5: only landing turns a slab; a path over a face-up cheese is
    not legal; an unopened hole holds its own mouse), so the way matters only to a +1/+2 found
    there (its follow-up may not step straight back): the engine lists one move per way onto a
    face-down slab, and the players say which."""
    if len(actions) < 2 or any(type(a).__name__ != "Move" for a in actions):
        return False
    return len({(a.piece, a.to) for a in actions}) == 1 and len({a.via for a in actions}) == len(actions)


def figures(view: Mapping[str, str]) -> dict[str, str]:
    """The cat and the mice of an engine's board_view (a Kat en Muis-like ``"cat+mouse"`` apart)."""
    return {s: t for s, t in view.items() if t.split(":")[0] in FIGURES}


def figure_kind(token: str | None) -> str | None:
    """A reading's or an engine token's figure kind (``"mouse:2"`` -> ``"mouse"``; ``"cat"``), None
    for anything else (no figure: a hole, a slab, the floor)."""
    base = token.split(":")[0] if token else None
    return base if base in FIGURES else None


def changed_squares(before: Mapping[str, str], after: Mapping[str, str]) -> set[str]:
    """The squares whose figure differs between two ``figures`` maps."""
    return {s for s in set(before) | set(after) if before.get(s) != after.get(s)}


def hidden_by_cat(after: Mapping[str, str]) -> set[str]:
    """The floor square under the cat on the table top (``figures`` after a move): hidden by it,
    it need not be seen."""
    return {s[4:] for s, t in after.items() if t == "cat" and s.startswith("top:")}


Trials = tuple[dict[str, str], list[tuple[Any, dict[str, str]]]]


def trials(state: Any) -> Trials:
    """The figures of ``state`` (a Chop! Chop! state) and, per legal piece move (the cat placed,
    a move, an arrow's teleport), the figures after it (tried on a copy); none when no player
    is to move."""
    if state.is_chance() or state.is_over():
        return {}, []
    tried: list[tuple[Any, dict[str, str]]] = []
    for action in state.legal_actions():
        if type(action).__name__ not in ("PlaceCat", "Move", "Teleport"):
            continue
        trial = state.clone()
        trial.apply(action)
        tried.append((action, figures(trial.board_view())))
    return figures(state.board_view()), tried


def camera_moves(state: Any, observation: Mapping[str, tuple[str | None, float]],
                 min_confidence: float = 0.6, tried: Trials | None = None) -> CameraMoves:
    """The legal moves of ``state`` (a Chop! Chop! state whose player must move a piece) whose
    result the camera's ``observation`` (square -> (token, confidence), as
    ``vision.pieces.BoardReading.squares``) shows: the squares the move itself changes are read
    as it leaves them (a mouse as any mouse; a hole or a slab as no figure), at any confidence
    (the players confirm the proposal), and no confident reading of a square another of the
    moves would change disagrees. Nothing is applied. ``tried``: ``trials(state)`` if already made.

    A square a piece lands on read at ``UNSURE`` or less (the reader's own mark of a square it
    is unsure of, one move back known, or the classifier's doubt) that disagrees does not rule
    the move out: it stays possible if some other square of it shows it (session 32; the square
    a piece left, read unsure, still rules it out: on held-out 3855 a mouse read unsure where it
    stood and a phantom mouse read where it could go made two wrong proposals). A possible move is
    *seen* when the square its piece lands on shows it (at any confidence; hidden under the
    table-top cat: as its other squares show); the cat landing where no figure stood, read as a
    mouse while the cat is read nowhere else (at any confidence), shows the cat. The moves that
    fit are the seen ones; one seen move with others possible (their end square unsure) is not
    proposed but asked about with them; a move possible only by every other move being ruled out
    (its end square unsure) is never proposed."""
    before, tries = tried if tried is not None else trials(state)
    if not tries:
        return CameraMoves((), ())
    everywhere = set().union(*(changed_squares(before, a) for _, a in tries))
    read = {s: (figure_kind(t), c) for s, (t, c) in observation.items()}

    cat_read = {s for s, (k, _) in read.items() if k == "cat"}

    def shows(s: str, after: Mapping[str, str]) -> bool:
        return read[s][0] == figure_kind(after.get(s))

    def shown(s: str, after: Mapping[str, str], own: set[str]) -> bool:
        # as shows, and the cat landing where no figure stood read as a mouse, the cat read
        # nowhere else (the classifier takes the cat for a mouse)
        return shows(s, after) or (read[s][0] == "mouse" and after.get(s) == "cat" and s not in before
                                   and not cat_read - own)

    seen: list[tuple[Any, dict[str, str]]] = []
    unseen: list[tuple[Any, dict[str, str]]] = []
    for action, after in tries:
        hidden = hidden_by_cat(after)
        own = changed_squares(before, after) - hidden
        lands = {s for s in own if figure_kind(after.get(s))}  # where its piece ends
        if not (own and all(s in read and (shown(s, after, own) or (s in lands and read[s][1] <= UNSURE))
                            for s in own)
                and any(shown(s, after, own) for s in own)
                and all(shows(s, after) for s in everywhere - own - hidden
                        if s in read and read[s][1] >= min_confidence)):
            continue
        (seen if all(shown(s, after, own) for s in lands) else unseen).append((action, after))
    fits = seen + unseen if len(seen) == 1 and unseen else seen
    actions = tuple(a for a, _ in fits)
    paths = one_move_paths(actions) and read.get(actions[0].to, (None, 0.0))[1] >= min_confidence
    return CameraMoves(actions, tuple(r for _, r in fits), paths)
