"""The companion at the table, in the app: seats chosen on the home screen, a whole Qubism game
person against companion by touches (the companion's moves confirmed by "Done"), Undo back to
the person's last decision, the Hint button, "Roll for me", and a Chop! Chop! cat move
confirmed by the camera seeing it (a rendered frame through the cross-check)."""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from tests.ui.helpers import pump, screenshot, small_text, small_touch_targets, tap, tap_at, texts, wait_for


def _tap_square(screen: Any, square: str) -> None:
    pump()
    view = screen.ids.board
    x, y = view.square_centre(square)
    layer = view._overlaps().get(square, 0)
    if layer:
        bx, by, w, h = view.square_rect(square)
        x, y = (bx + w * 0.3, by + h * 0.7) if layer == 2 else (bx + w * 0.7, by + h * 0.3)
    tap_at(*view.to_window(x, y))


def _choice_views(app: Any) -> list[Any]:
    from ui.screens.game import ChoiceView

    return [w for w in app.root.get_root_window().children if isinstance(w, ChoiceView)]


def _touch_action(app: Any, screen: Any, action: Any) -> None:
    """Enter ``action`` as a person does: touch its squares, pick it if the app asks which."""
    from ui import actions

    before = len(app.session.turns)
    named = actions.squares_of(action, screen.board.squares, screen.pieces())
    _tap_square(screen, named[0])
    if len(named) > 1 and len(app.session.turns) == before and not _choice_views(app):
        _tap_square(screen, named[-1])
    pump()
    views = _choice_views(app)
    if views:
        wanted = views[0].sentence(action)  # a whole sentence ("Mouse 1 goes from … by way of …")
        button = next(b for b in views[0].buttons if b.text == wanted)
        tap(button)
        window = app.root.get_root_window()
        assert wait_for(lambda: not any(type(w).__name__ == "ChoiceView" for w in window.children))
    assert len(app.session.turns) == before + 1, (action, app.toaster.history[-2:])


def _goal_distance(state: Any, square: str, player: str) -> int:
    geo = state.game.geometry
    goal = state.game.goal_of[player]
    seen, todo = {square: 0}, deque([square])
    while todo:
        sq = todo.popleft()
        if sq in goal:
            return seen[sq]
        r, c = geo.cells[sq]
        for nxt in (geo.at.get((r + dr, c + dc)) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))):
            if nxt is not None and nxt not in seen and nxt not in state.cubes:
                seen[nxt] = seen[sq] + 1
                todo.append(nxt)
    return 99


def _person_move(state: Any) -> Any:
    from companion.games.qubism import PawnMove

    me = state.to_move()
    moves = [a for a in state.legal_actions() if isinstance(a, PawnMove)]
    return min(moves, key=lambda a: (_goal_distance(state, a.to, me), a.to))


def _start_from_home(app: Any, game: str, companions: dict[str, str]) -> Any:
    home = app.screen("home")
    app.go("home")
    tap(home.game_buttons[game])
    for role, strength in companions.items():
        choice = home.seat_choices[role]
        choice.who.text = "Companion"  # what picking "Companion" in the spinner does
        tap(choice.toggles[strength])
    pump(2)
    return home


def test_home_screen_seats_stored_with_the_game(make_app: Any) -> None:
    app = make_app()
    home = _start_from_home(app, "qubism", {"black": "strong"})
    black = home.seat_choices["black"]
    assert black.is_companion and black.strength == "strong"
    assert black.strength_box.parent is black.slot and black.inp.parent is None  # no name needed
    assert not home.seat_choices["white"].is_companion
    home.name_inputs["white"].text = "Ann"
    assert small_touch_targets(home) == [] and small_text(home) == []
    screenshot(app.root, "home_seats_800x480")
    tap(home.ids.start)
    assert app.session is not None and app.session.companions == {"black": "strong"}
    assert app.session.seats["white"] == "Ann"
    # remembered for the next game of Qubism
    app.go("home")
    tap(home.game_buttons["kilkenny"])
    tap(home.game_buttons["qubism"])
    assert home.seat_choices["black"].is_companion and home.seat_choices["black"].strength == "strong"


def test_whole_qubism_game_person_against_the_companion(make_app: Any) -> None:
    from companion.games.qubism import QubismState

    app = make_app()
    home = _start_from_home(app, "qubism", {"black": "easy"})
    home.name_inputs["white"].text = "Ann"
    tap(home.ids.start)
    screen = app.screen("qubism")
    session = app.session
    shot = False
    undone = False
    for _ in range(200):
        state = session.state
        assert isinstance(state, QubismState)
        if state.is_over():
            break
        player = state.current_player()
        if player == "white":
            if state.is_chance():
                raise AssertionError("White only moves the pawn: no tips in White's turn")
            assert "hint_button" in screen.ids and screen.ids.hint_button.parent is not None
            assert screen.banner.startswith("Ann")
            _touch_action(app, screen, _person_move(state))
            continue
        # the companion's turn
        if state.is_chance():  # its slid cube tipped: the people enter the arrow on top
            assert screen.prompt == "Companion (Black): what did my piece turn up?"
            tap(next(iter(screen.tile_picker.buttons.values())))
            continue
        turn = screen._companion_turn
        before = len(session.turns)
        assert wait_for(lambda: turn.proposal is not None, timeout=20)
        done = turn.panel.ids.done
        assert done.opacity == 1 and not done.disabled and done.height >= 48
        assert screen.banner == "Companion (Black) plays"
        assert screen.prompt == "Make the move, then touch Done."
        assert turn.panel.text == turn.proposal.sentence and turn.panel.text.startswith("Black ")
        assert screen.ids.board.highlights == turn.proposal.squares
        assert screen.narration[0].startswith(turn.proposal.sentence)
        assert len(session.turns) == before  # nothing changes until a person confirms
        if not shot:
            assert small_touch_targets(screen) == [] and small_text(screen) == []
            screenshot(app.root, "game_companion_turn_800x480")
            shot = True
        proposed = turn.proposal.action
        tap(done)
        assert len(session.turns) == before + 1
        assert session.turns[-1].source == "companion" and session.turns[-1].action == proposed
        if not undone and len(session.turns) >= 4 and not session.state.is_chance():
            # Undo takes back the companion's move and Ann's move before it
            tap(screen.ids.undo_button)
            assert len(session.turns) == before - 1 and session.state.current_player() == "white"
            undone = True
    assert session.state.is_over(), "the game did not end"
    assert undone
    record = app.store.finished_games("qubism")[0]
    assert record.companions == {"black": "easy"}
    sources = {t.source for t in session.turns if t.player == "black"}
    assert sources == {"companion"}


def test_hint_button_shows_what_the_companion_would_play(make_app: Any) -> None:
    app = make_app()
    app.start_game("qubism", {"white": "Ann"}, {}, {"black": "normal"})
    screen = app.screen("qubism")
    pump(2)
    button = screen.ids.hint_button
    assert button.text == "Hint" and button.height >= 48
    tap(button)
    turn = screen._companion_turn
    assert wait_for(lambda: turn.hint is not None, timeout=20)
    assert turn.panel.text.startswith("Suggested: Ann ")
    assert turn.panel.text in texts(screen)
    assert screen.ids.board.highlights == turn.hint.described.squares
    assert app.session.turns == []  # a hint changes nothing
    screenshot(app.root, "game_hint_800x480")
    _touch_action(app, screen, turn.hint.action)  # Ann takes the advice
    assert app.session.turns[-1].source == "touch"
    assert turn.hint is None


def test_roll_for_me_in_kilkenny(make_app: Any) -> None:
    app = make_app()
    app.start_game("kilkenny", {}, {}, {"red": "normal"})
    screen = app.screen("kilkenny")
    pump(2)
    panel = screen._companion_turn.panel
    assert screen.prompt == "Throw the red die for me (Red)"
    assert panel.parent == screen.ids.input_box and screen.picker.parent == screen.ids.input_box
    assert screen.picker.roll_button.parent is None  # "Roll for me" stands in for it
    assert screen.narration[0] == "Throw the red die for me (Red)."
    tap(panel.ids.roll_for_me)
    turn = app.session.turns[-1]
    assert turn.source == "companion" and turn.player == "chance"
    pump(2)
    assert screen.picker.roll_button.parent is not None or app.session.state.to_move() != "chance"


@pytest.fixture
def _own_db_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "home" / "companion.db"))


def _write_frame(folder: Path, board: Any, position: dict[str, str], look: Any, seed: int) -> None:
    import cv2
    import numpy as np

    from vision import synth_board

    folder.mkdir(parents=True, exist_ok=True)
    frame = synth_board.render_scene(board, position, look, np.random.default_rng(seed), clean=True).image
    for i in range(2):  # written aside, then moved in: the feed never reads half a file
        tmp = folder / f"tmp{i}.png.part"
        cv2.imwrite(str(tmp.with_suffix("")), frame)
        os.replace(tmp.with_suffix(""), folder / f"{i:03d}.png")


@pytest.mark.usefixtures("_own_db_dir")
def test_chopchop_companion_cat_move_confirmed_by_the_camera(make_app: Any, tmp_path: Path) -> None:
    import numpy as np

    from companion import games
    from companion.boards import load_board
    from ui import actions
    from ui.screens.camera import model_path
    from vision import synth_board
    from vision.pieces import BoardReader

    game = games.make("chopchop")
    board = load_board("chopchop")
    rng = np.random.default_rng(21)
    look = synth_board.random_look(board, rng)
    start = game.new_state()
    reader = BoardReader(board)
    learn = synth_board.render_scene(board, dict(start.board_view()), look, rng, clean=True)
    assert reader.learn(learn.image, dict(start.board_view())) > 0
    feed = tmp_path / "feed"
    _write_frame(feed, board, dict(start.board_view()), look, seed=22)

    app = make_app(demo=True)
    app.prefs.set("ui.camera", "demo")
    w = app.camera_watch
    w.reader = lambda frame: []
    w.feed_folder = feed
    for k, v in dict(demo_fps=8.0, max_fps=8.0, check_still_s=0.2, check_grace_s=0.4).items():
        setattr(w, k, v)
    model_path("chopchop").parent.mkdir(parents=True, exist_ok=True)
    reader.model.save(model_path("chopchop"))
    app.start_game("chopchop", {"mice1": "Ann"}, {}, {"cat": "normal"})
    screen = app.screen("chopchop")
    turn = screen._companion_turn
    try:
        assert wait_for(lambda: w.running and w.analysed > 0, timeout=10), w.source_text
        assert w.checking
        # the cat's first decision: where it takes its place on the table top
        assert wait_for(lambda: turn.proposal is not None, timeout=20)
        proposal = turn.proposal
        assert proposal.sentence.startswith("Cat puts the cat on the table top at ")
        # the camera reads the board as it is (no cat yet): that does not confirm the move
        seen = w.checks_done
        assert wait_for(lambda: w.checks_done > seen, timeout=20)
        pump(2)
        assert app.session.turns == [] and turn.proposal is proposal
        # the people put the cat there; the camera sees the board with the cat in place
        after = app.session.state.clone()
        after.apply(proposal.action)
        _write_frame(feed, board, dict(after.board_view()), look, seed=23)
        assert wait_for(lambda: len(app.session.turns) == 1, timeout=30), (w.checks_done, turn.proposal)
        assert app.session.turns[0].source == "companion" and app.session.turns[0].action == proposal.action
        assert actions.chance_kind(app.session.state) == "dice"  # now the mice throw
        assert turn.proposal is None
    finally:
        w.stop()


def test_kat_en_muis_companion_throws_and_the_engine_moves(make_app: Any) -> None:
    app = make_app()
    app.start_game("katenmuis", {"cat": "Ann"}, {}, {"mouse": "normal"})
    screen = app.screen("katenmuis")
    pump(2)
    screen.enter_throw((2, 5), "touch")  # Ann's throw
    pump(2)
    panel = screen._companion_turn.panel
    assert screen.prompt == "Throw the dice for me (Mouse)" and panel.parent == screen.ids.input_box
    assert small_touch_targets(screen) == [] and small_text(screen) == []
    screenshot(app.root, "katenmuis_companion_throw_800x480")
    narrated = len(screen.narration)
    tap(panel.ids.roll_for_me)
    turn = app.session.turns[-1]
    assert turn.source == "companion" and turn.turn_player == "mouse"
    assert len(screen.narration) > narrated  # the engine moved the mouse: narrated as any throw
    tap(screen.ids.undo_button)  # back to Ann's throw and before it
    assert app.session.turns == []
