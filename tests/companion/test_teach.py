"""companion.teach: the how-to-play text (every section, every game, following the settings),
the squares it lights (real ids of the board file), ``companion rules GAME``, and the
first-game guide's next_step at chance, move, reveal and game-over states."""

from __future__ import annotations

import random
from collections.abc import Callable
import pytest

from companion import games
from companion.boards import load_board
from companion.cli import main as cli_main
from companion.games.base import CHANCE, State
from companion.teach import SECTION_KEYS, board_of, howto, render_text
from companion.teach.guide import next_step

KEYS = list(games.GAMES)


def _texts(game: games.Game) -> list[str]:
    return [p.text for s in howto(game) for p in s.pages]


@pytest.mark.parametrize("key", KEYS)
def test_every_game_has_every_section_with_text(key: str) -> None:
    sections = howto(games.get(key))
    assert [s.key for s in sections] == list(SECTION_KEYS)
    for s in sections:
        assert s.title and s.pages, (key, s.key)
        assert all(len(p.text) > 20 for p in s.pages)
    # the engine's own interpretation sentences travel with the last section
    assert sections[-1].notes == tuple(games.get(key).interpretations())


@pytest.mark.parametrize("key", KEYS)
def test_lit_squares_exist_on_the_board_and_every_section_lights_some(key: str) -> None:
    game = games.get(key)
    board = load_board(game.settings().get("board") or key)
    assert board_of(game).name == board.name
    lit_sections = 0
    for s in howto(game):
        for p in s.pages:
            unknown = [sq for sq in p.squares if sq not in board.squares]
            assert not unknown, (key, s.key, p.text[:40], unknown)
        lit_sections += bool(s.squares)
    assert lit_sections >= 3


def test_katenmuis_special_squares_light_both_numberings() -> None:
    special = howto(games.get("katenmuis"))[2]
    page = next(p for p in special.pages if p.text.startswith("Squares 11, 22"))
    assert set(page.squares) == {"11", "22", "33", "44", "55", "56", "45", "34", "23", "12"}
    marks = dict(page.marks)
    assert marks["11"] == "11" and marks["56"] == "11" and marks["12"] == "55"  # black 55 is red 12


def test_katenmuis_text_follows_shortcut_setting() -> None:
    reached = _texts(games.make("katenmuis", {"shortcut_from": "reached"}))
    strict = _texts(games.make("katenmuis", {"shortcut_from": "strictly_past"}))
    assert any("double 3 takes you straight to square 33" in t for t in reached)
    assert any("double 3 is just 6 and takes you to square 28" in t for t in strict)
    assert not any("square 28" in t for t in reached)
    assert any("from squares 12 to 21" in t for t in strict)
    assert any("from squares 11 to 21" in t for t in reached)


def test_katenmuis_text_follows_stake_and_bank() -> None:
    texts = _texts(games.make("katenmuis", {"stake": 3, "bank": 20}))
    assert any("puts 3 chips in a pot and keeps 17 chips" in t for t in texts)
    one = _texts(games.make("katenmuis", {"stake": 1, "bank": 2}))
    assert any("puts 1 chip in a pot and keeps 1 chip as a bank" in t for t in one)


def test_chopchop_text_follows_out_of_cheese_tiles_and_players() -> None:
    cat = _texts(games.make("chopchop", {"out_of_cheese": "cat"}))
    draw = _texts(games.make("chopchop", {"out_of_cheese": "draw"}))
    assert any("the game ends and the Cat wins" in t for t in cat)
    assert any("the game ends in a draw" in t for t in draw)
    assert not any("in a draw" in t for t in cat)
    tiles = {"cheese": 10, "crockery": 12, "plus1": 2, "plus2": 2, "arrow": 4, "fork": 4, "knife": 4}
    split = _texts(games.make("chopchop", {"tiles": tiles}))
    assert any("broken crockery: 12" in t and "+1: 2" in t for t in split)
    three = _texts(games.make("chopchop", {"mice_players": 3}))
    assert any("The other 3 players share the four mice" in t for t in three)


def test_chopchop_lights_table_top_holes_and_slabs() -> None:
    sections = howto(games.get("chopchop"))
    setup = sections[0]
    assert "top:2,3" in setup.pages[1].squares and "2,3" in setup.pages[1].squares
    assert setup.pages[2].squares == ("0,3", "2,7", "5,4", "3,0")
    assert len(setup.pages[3].squares) == 38
    assert set(sections[3].pages[2].squares) == {"1,3", "2,6", "4,4", "3,1"}  # in front of the holes


def test_kilkenny_text_follows_players_and_cats() -> None:
    two = howto(games.make("kilkenny", {"players": 2}))
    four = howto(games.make("kilkenny", {"players": 4, "cats": 4}))
    # one start page per colour, and the page on how squares are named (A1 … N14)
    assert len(two[0].pages) == 4 and len(four[0].pages) == 6
    assert "A1 is the bottom left square, N14 the top right one" in two[0].pages[-1].text
    assert two[0].pages[-1].squares == ("13,0", "0,13")
    yellow = four[0].pages[4]
    assert yellow.text.startswith("Yellow starts") and "6,-1" in yellow.squares and "5,9" in yellow.squares
    assert any("4 players, 4 cats each" in p.text for p in four[4].pages)
    assert len(four[0].pages[1].squares) == 4 + 2  # 4 start squares and the colour's 2 mice


def test_qubism_text_follows_cube_model_and_lights_goal_rows() -> None:
    observed = _texts(games.make("qubism", {"cube_model": "observed"}))
    forward = _texts(games.make("qubism", {"cube_model": "forward"}))
    assert any("show it to the camera" in t for t in observed)
    assert any("point the way the cube slid" in t for t in forward)
    win = howto(games.get("qubism"))[3]
    assert set(win.squares) == {f"0,{c}" for c in range(5)} | {f"4,{c}" for c in range(5)}


@pytest.mark.parametrize("key", KEYS)
def test_companion_rules_prints_every_section(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["rules", key]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"How to play {games.titles()[key]}")
    for number, title in enumerate(["Setup", "A turn", "", "How to win", "This companion's rules"], 1):
        assert f"\n{number}. {title}" in out
    assert out == render_text(games.get(key))


def test_companion_rules_settings_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["rules", "katenmuis", "--set", "shortcut_from=strictly_past", "--lang", "en"]) == 0
    assert "square 28" in capsys.readouterr().out
    assert cli_main(["rules", "katenmuis", "--set", "shortcut_from=sideways"]) == 2
    assert "not valid" in capsys.readouterr().err
    assert cli_main(["rules", "chess"]) == 2
    assert cli_main(["rules", "chopchop", "--set", "mice_players=2"]) == 0
    assert "The other 2 players share" in capsys.readouterr().out


# -- next_step ---------------------------------------------------------------------------------


def advance(state: State, until: Callable[[State], bool], seed: int = 1, limit: int = 3000) -> State:
    """Play seeded random legal actions and chance outcomes until ``until(state)``."""
    rng = random.Random(seed)
    for _ in range(limit):
        if until(state):
            return state
        if state.is_over():
            break
        if state.to_move() == CHANCE:
            outcomes = [a for a, p in state.chance_outcomes() if p > 0]
            state.apply(rng.choice(outcomes))
        else:
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("state not reached")


def test_next_step_katenmuis() -> None:
    from companion.games.katenmuis import Throw

    game = games.get("katenmuis")
    state = game.new_state()
    assert next_step(game, state) == "Cat, throw both dice."
    assert next_step(game, state, {"cat": "Anna", "mouse": "Ben"}) == "Anna (Cat), throw both dice."
    effects = state.apply(Throw((3, 4)))
    step = next_step(game, state, {"cat": "Anna"}, effects)
    assert step == "Anna (Cat), put your counter on your number 7 (square B1). Then: Mouse, throw both dice."
    over = advance(state, State.is_over)
    assert "has won" in next_step(game, over)


def test_next_step_chopchop_setup_roll_move_reveal_and_over() -> None:
    game = games.get("chopchop")
    state = game.new_state()
    assert next_step(game, state).startswith("Cat, put the cat on any square of the table top")
    state = advance(state, lambda s: getattr(s, "phase") == "roll")
    assert next_step(game, state) == "Mice, throw the grey mouse die."
    state = advance(state, lambda s: getattr(s, "phase") == "move" and getattr(s, "side") == "mice")
    n = getattr(state, "roll")
    assert next_step(game, state, {"mice1": "Ben"}).startswith(
        f"Ben (Mice), move one mouse exactly {n} square")
    state = advance(state, lambda s: getattr(s, "phase") == "reveal" and getattr(s, "piece") == "cat")
    assert next_step(game, state) == "Turn over the slab the cat landed on and tap what it shows."
    state = advance(state, lambda s: getattr(s, "phase") == "roll" and getattr(s, "side") == "cat")
    assert next_step(game, state) == "Cat, throw the blue cat die."
    state = advance(state, State.is_over, seed=3, limit=20000)
    assert "won" in next_step(game, state) or "nobody wins" in next_step(game, state)


def test_next_step_kilkenny_names_the_colour_and_its_die() -> None:
    game = games.make("kilkenny", {"players": 3})
    state = game.new_state()
    assert next_step(game, state) == "Red, throw the red die."
    state = advance(state, lambda s: s.to_move() == "red")
    n = getattr(state, "throw")
    assert next_step(game, state).startswith(f"Red, move one of your cats {n} square")
    state = advance(state, lambda s: s.current_player() == "green" and s.to_move() == CHANCE)
    assert next_step(game, state, {"green": "Cleo"}) == "Cleo (Green), throw the green die."
    odd = games.make("kilkenny", {"colours": ["purple", "blue"]})
    assert next_step(odd, odd.new_state()) == "Purple, throw your own die."


def test_next_step_qubism_move_tip_and_win() -> None:
    from companion.games.qubism import SlideCube

    game = games.get("qubism")
    state = game.new_state()
    assert next_step(game, state) == (
        "White, do one thing: move your pawn one square, place a cube, or slide a cube.")
    state = advance(state, lambda s: any(isinstance(a, SlideCube) for a in s.legal_actions()))
    slide = next(a for a in state.legal_actions() if isinstance(a, SlideCube))
    state.apply(slide)
    assert state.to_move() == CHANCE
    assert "touch the arrow now on top" in next_step(game, state)
    won = advance(game.new_state(), State.is_over, seed=5, limit=20000)
    assert "has won" in next_step(game, won)
