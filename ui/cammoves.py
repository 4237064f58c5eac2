"""The camera proposes Chop! Chop!'s move (ui.camwatch): the players move a piece on the table,
the camera reads the board and the companion offers the one legal move that the reading shows,
naming the mouse ("Camera sees: Mouse 2 goes from C3 to D3 — Use"); one touch applies it.

While a move is due (the die was thrown: a piece must move), the watcher's worker reads the board
once the scene is still after the players moved (or after ``check_grace_s`` without movement) and
asks ``vision.chop_who.camera_moves`` which legal moves the reading shows, on a copy of the
state taken on the UI thread. Which mouse is which comes from the game, the last confirmed
position: the move that fits names its mouse. Two or more ways of one piece onto one slab square
(``vision.chop_who.one_move_paths``: the way matters only to a +1/+2 found there), the piece read
on that square at the threshold or more (``CameraMoves.paths``), are offered as that move, one
touch per way; two or three moves that fit otherwise (two mice that may have gone there, a
landing square read unsure) are asked about, "Which one was it?", one touch each, and "None of
these" (session 32; more than three: the players make the move by touch). **No move that fits** (session 31): the
likeliest legal moves by the reading (``vision.chop_near.nearest_moves``: up to three, none when
the reading shows nothing moved) are offered as a question, "The camera is not sure. Was it one
of these?", one touch each, and "None of these" (the players make the move by touch); the
watcher keeps looking. Nothing changes the game but the players' touch on the offer.

**Reading knowing the last confirmed position** (``know_position``): the reader is told the
position the players confirmed last (before the move due; after a confirmed move, that move's
result), so that a slab or a face-up cheese read where the rules no longer allow one is read
again, unsure (``vision.chop_known``).

**Learning the face-up cheese in play** (``learn_cheese``): a cheese the cat sat on stays face up
(C5); the start photo never shows one, so the board reader knows no cheese look. When the
cross-check reads the board after a confirmed move, each face-up cheese of that confirmed
position (new in this game) teaches the reader its look, in that frame's light, with the cat
where the game has it; the piece model is saved beside the database (``pieces-chopchop.json``),
so the next game starts with it.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import _, ngettext

MOVE_KIND = "camwatch_move"
MAX_CHEESE_LOOKS = 12
"""Face-up cheese looks kept in the learned piece model (the newest)."""


def move_due(state: Any) -> bool:
    """A Chop! Chop! state where a piece must be placed or moved now (C1: the cat on the table
    top; a Move or an arrow's Teleport)."""
    if state is None or getattr(state.game, "key", "") != "chopchop" or state.is_over() or state.is_chance():
        return False
    return any(type(a).__name__ in ("PlaceCat", "Move", "Teleport") for a in state.legal_actions())


def worker_check(watcher: Any, frame: Any, now: float, last_motion: float, read_board: Any, threshold: float,
                 post: Any) -> None:
    """Worker thread: read the board for the move due, once still; post what fits."""
    with watcher._lock:
        request = watcher._move_request
    if request is None:
        return
    gen, state, asked = request
    still = now - max(last_motion, asked)
    if not ((last_motion > asked and still >= watcher.check_still_s)
            or (now - asked >= watcher.check_grace_s and now - last_motion >= watcher.check_still_s)):
        return
    try:
        know_position(read_board, state.board_view())  # the last confirmed position: the move is not made yet
        reading = read_board(frame)
    except Exception:
        reading = None
    if reading is None or not getattr(reading, "found", False):
        return  # the board is not in view: try again
    from vision.chop_who import camera_moves, trials

    tried = trials(state)  # every legal move tried once, for both questions
    fits = camera_moves(state, reading.squares, threshold, tried)
    near: tuple[Any, ...] = ()
    if not fits.actions:
        from vision.chop_near import nearest_moves

        near = nearest_moves(state, reading.squares, tried=tried).moves
    with watcher._lock:
        if watcher._move_request is not request:
            return
        # nothing fits yet (the piece not moved, or misread): look again after the next movement
        watcher._move_request = None if fits.actions else (gen, state, now)
    if fits.actions:
        post(MOVE_KIND, gen, list(fits.actions), fits.paths)
    elif near:
        post(MOVE_KIND, gen, list(near), False, True)


SEVERAL_ASKED = 3
"""Up to this many moves that fit are asked about, one touch each (more: made by touch)."""


def offer(screen: Any, state: Any, moves: list[Any], paths: bool = False, near: bool = False) -> None:
    """UI thread: one move offered by one touch (the ways of one move, ``paths`` as
    ``CameraMoves.paths``: one touch per way); two or three that fit asked about, one touch each,
    and "None of these" (more: the players make it by touch); ``near``: none fits, these are the
    likeliest (a question, one touch each, "None of these")."""
    from companion.proposals import describe

    seats = getattr(screen.session, "seats", None)
    said = [describe(state, a, seats).sentence for a in moves]
    if near:
        heading = ngettext("The camera is not sure. Was it this move?",
                           "The camera is not sure. Was it one of these?", len(moves))
        screen.offer_camera_near(moves, said, heading)
        return
    if len(moves) == 1:
        screen.offer_camera_move(moves[0], said[0])
        return
    # one move, several ways onto its slab, its end read sure (CameraMoves.paths): pick the way
    if paths:
        words = screen.session.game.square_words
        screen.offer_camera_paths(moves, said, _("The camera sees a move onto {square} but not which way it "
                                                 "came: pick the way.").format(square=words(moves[0].to)))
        return
    # two or more moves fit (two mice that may have gone there, a square read unsure): asked, one
    # touch each, "None of these"; more than the panel holds: the players make it by touch
    if len(moves) <= SEVERAL_ASKED:
        screen.offer_camera_near(moves, said, _("The camera sees a move but cannot tell which. Which one was it?"))
        return
    screen.show_camera_note(_("The camera sees a move but cannot tell which one. Make it by touch."))


def know_position(read_board: Any, confirmed: Any) -> None:
    """The Chop! Chop! board reader behind ``read_board`` reads knowing the ``confirmed`` position
    (square -> engine token): a slab never comes back, a face-up cheese is a turned slab
    (``vision.chop_known``); it is the position before the move due or after the move just
    confirmed, so one piece moved since at most (``vision.chop_moved``). Nothing for another
    game's reader."""
    from vision.pieces import BoardReader

    reader = getattr(read_board, "__self__", None)
    if isinstance(reader, BoardReader) and reader.board.game == "chopchop" and isinstance(confirmed, dict):
        reader.confirmed = dict(confirmed)
        reader.confirmed_one_move = True


def learn_cheese(read_board: Any, frame: Any, confirmed: dict[str, str], done: set[str]) -> int:
    """Worker thread: the board reader behind ``read_board`` learns the look of each face-up
    cheese of the ``confirmed`` position not in ``done`` (then added to it) from ``frame``, and
    its model is saved. Returns the looks learned (0: not a Chop! Chop! reader, nothing new)."""
    from vision.chop_who import cheese_lesson
    from vision.pieces import BoardReader, PieceError

    reader = getattr(read_board, "__self__", None)
    if not isinstance(reader, BoardReader) or reader.board.game != "chopchop":
        return 0
    known = cheese_lesson(confirmed, done)
    if not known:
        return 0
    try:
        n = reader.learn(frame, known)
    except PieceError:
        return 0
    looks = reader.model.looks
    looks["cheese"] = looks.get("cheese", [])[-MAX_CHEESE_LOOKS:]
    from ui.screens.camera import model_path

    path = model_path("chopchop")
    path.parent.mkdir(parents=True, exist_ok=True)
    reader.model.save(path)
    return n
