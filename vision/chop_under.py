"""Chop! Chop!: a mouse gone under the table-top cat that stayed, one move back known (session 32, chopcat).

The table top ``top:r,c`` and the floor square ``r,c`` under it are one spot on the print: a
mouse that walks under the cat standing on the table top is hidden by it (on a real board the
table top hides it; in the renders the cat figure mostly does), so the camera reads the cat
alone there. ``vision.chop_who.pairs_by_rules`` keeps a mouse under the cat where the confirmed
position had one there; this module adds the mouse that came there in the move just made, with
the app's knowledge of that move (``BoardReader.confirmed_one_move``: the frame shows one turn
since the confirmed position, ``ui.cammoves``):

``came_under``: a table spot read as the cat where the cat stood in the confirmed position (the
cat did not move: the move was a mouse's), the floor square under it empty in that position,
exactly one mouse of that position read nowhere where it stood, no mouse read where none stood
(the mouse that moved is seen nowhere else), and that mouse could reach the floor square under
the cat in one move (``vision.chop_moved.mouse_could_reach``: the floor squares under the table
are the mice's, C3): the mouse is there, unsure (``vision.chop_known.UNSURE``: the players are
asked). Several such spots or several such mice: nothing (asked as before).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from vision.chop_known import base_token
from vision.chop_moved import mouse_could_reach


def came_under(decided: Sequence[tuple[str | None, float]], groups: Sequence[Sequence[str]],
               confirmed: Mapping[str, str]) -> list[int]:
    """The table spot (its index, in a list; empty for none) where a mouse came under the cat
    that stood on the table top in the ``confirmed`` position one move back (module doc).
    ``decided``: one reading per spot; ``groups``: each spot's squares."""
    if not confirmed:
        return []
    spot = {s: i for i, ids in enumerate(groups) for s in ids}
    cats = [i for i, ((token, _), ids) in enumerate(zip(decided, groups))
            if base_token(token) == "cat" and any(s.startswith("top:") and confirmed.get(s) == "cat" for s in ids)]
    if len(cats) != 1:
        return []
    i = cats[0]
    floor = [s for s in groups[i] if not s.startswith("top:")]
    if len(floor) != 1 or base_token(confirmed.get(floor[0])) == "mouse":  # that one: pairs_by_rules
        return []
    mice = [s for s, t in confirmed.items() if base_token(t) == "mouse"]
    away = [s for s in mice if s not in spot or base_token(decided[spot[s]][0]) != "mouse"]
    arrived = [j for j, ((t, _), ids) in enumerate(zip(decided, groups))
               if base_token(t) == "mouse" and not any(base_token(confirmed.get(s)) == "mouse" for s in ids)]
    if len(away) != 1 or arrived:
        return []
    read = {ids[0]: t for ids, (t, _) in zip(groups, decided)}
    return [i] if mouse_could_reach(confirmed, away[0], floor[0], read) else []
