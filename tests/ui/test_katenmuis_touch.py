"""A whole Kat en Muis game played by simulated touches on the dice picker and the Roll
button, to a win; the chips on screen equal the engine's after every throw."""

from __future__ import annotations

import random
from typing import Any

from tests.ui.helpers import pump, screenshot, tap


def _ledger_matches(app: Any) -> None:
    from ui.screens.katenmuis import chips_text

    state = app.session.state
    screen = app.screen("katenmuis")
    for role in ("cat", "mouse"):
        row = screen.ledger.ids[f"{role}_row"]
        assert row.ids.bank.text == chips_text(state.bank[role]), role
        assert row.ids.pot.text == str(state.pot[role]), role
    assert state.total_chips() == 60


def test_whole_game_by_touch_to_a_win(make_app: Any) -> None:
    app = make_app()
    home = app.screen("home")
    # choose the game and names by touch
    tap(home.game_buttons["katenmuis"])
    home.name_inputs["cat"].text = "Anna"
    home.name_inputs["mouse"].text = "Ben"
    tap(home.ids.start)
    pump()
    assert app.sm.current == "katenmuis"
    screen = app.screen("katenmuis")
    rng = random.Random(8)
    throws = 0
    while not app.session.is_over():
        assert throws < 400, "game did not finish"
        picker = screen.picker
        if throws % 7 == 3:
            tap(picker.roll_button)
        else:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            tap(picker.rows[0][picker.faces.index(a)])
            tap(picker.rows[1][picker.faces.index(b)])
        throws += 1
        assert len(app.session.turns) == throws  # every touch pair made exactly one throw
        _ledger_matches(app)
        assert screen.banner  # whose turn / who won
    outcome = app.session.state.outcome()
    winner = app.session.name(outcome["winner"])
    assert screen.banner == f"{winner} wins!"
    assert any("wins" in line for line in screen.narration[:3])
    # the finished game is in the store and the history
    assert app.store.finished_games("katenmuis")
    screenshot(app.root, "katenmuis_won_800x480")
    # the end-of-game screen shows; back to the board for Undo
    assert app.sm.current == "gameover"
    tap(app.screen("gameover").ids.board_button)
    assert app.sm.current == "katenmuis"
    # undo reopens the game and the ledger follows
    tap(screen.ids.undo_button)
    assert not app.session.is_over()
    _ledger_matches(app)


def test_impossible_throw_is_a_toast_not_a_crash(make_app: Any) -> None:
    app = make_app()
    app.start_game("katenmuis", {}, {})
    screen = app.screen("katenmuis")
    screen.enter_throw((7, 1))
    assert app.toaster.history and "not possible" in app.toaster.history[-1]
    assert app.session.turns == []


def test_K1_roll_off_by_touch_decides_the_roles(make_app: Any) -> None:
    from ui.screens.home import RollOffView

    app = make_app()
    home = app.screen("home")
    tap(home.game_buttons["katenmuis"])
    home.name_inputs["cat"].text = "Anna"
    home.name_inputs["mouse"].text = "Ben"
    tap(home.role_buttons["rolloff"])
    assert home.roles_mode == "rolloff"
    tap(home.ids.start)
    pump(3)
    views = [w for w in app.root.get_root_window().children if isinstance(w, RollOffView)]
    assert views, "the roll-off opens"
    view = views[0]
    screenshot(app.root, "home_rolloff_800x480")
    p = view.picker
    # Anna throws 2 + 2, Ben 2 + 2: a tie, throw again; then Anna 1 + 1, Ben 6 + 5: Ben is Cat
    for a, b in ((2, 2), (2, 2), (1, 1), (6, 5)):
        tap(p.rows[0][p.faces.index(a)])
        tap(p.rows[1][p.faces.index(b)])
    pump(5)
    assert app.session is not None
    assert app.session.seats == {"cat": "Ben", "mouse": "Anna"}
    assert app.sm.current == "katenmuis"
