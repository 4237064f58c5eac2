"""companion.dicecolour: which die is which by its body colour (pure Python)."""

from __future__ import annotations

from companion import dicecolour
from companion.games.chopchop import CAT, ChopChop, PlaceCat, Roll
from companion.games.kilkenny import KilkennyCats

BLUE = (170, 100, 40)  # BGR
GREY = (150, 150, 150)
RED = (40, 45, 200)
YELLOW = (40, 200, 230)


def _cast(bgr: tuple[int, int, int], gains: tuple[float, float, float]) -> tuple[int, int, int]:
    b, g, r = (min(255, int(v * k)) for v, k in zip(bgr, gains))
    return (b, g, r)


def test_likeness_of_plain_colours() -> None:
    assert dicecolour.likeness(BLUE, "blue") > 0.8 > 0.2 > dicecolour.likeness(BLUE, "grey")
    assert dicecolour.likeness(GREY, "grey") == 1.0 and dicecolour.likeness(GREY, "blue") == 0.0
    assert dicecolour.likeness(RED, "Red") > 0.8 and dicecolour.likeness(RED, "green") == 0.0
    assert dicecolour.likeness(BLUE, "tartan") is None and not dicecolour.known("tartan")


def test_pick_tells_the_cat_die_from_the_mouse_die_under_a_bluish_light() -> None:
    bluish = (1.12, 1.0, 0.88)
    bodies = [_cast(GREY, bluish), _cast(BLUE, bluish)]
    assert dicecolour.pick(bodies, "blue", ("blue", "grey")) == 1
    assert dicecolour.pick(bodies, "grey", ("blue", "grey")) == 0
    # a grey die alone under that light still does not count as the blue die
    assert dicecolour.looks_like(bodies[0], ("blue", "grey")) != "blue"


def test_pick_among_kilkenny_dice_and_cannot_tell_cases() -> None:
    colours = ("red", "blue", "green", "yellow")
    bodies = [YELLOW, RED, BLUE]
    assert dicecolour.pick(bodies, "red", colours) == 1
    assert dicecolour.pick(bodies, "yellow", colours) == 0
    assert dicecolour.pick(bodies, "green", colours) is None  # no green die among them
    assert dicecolour.pick([RED, (45, 40, 205)], "red", colours) is None  # two red dice: can't tell
    assert dicecolour.pick([RED, None], "red", colours) is None  # a die without a colour
    assert dicecolour.pick([RED, BLUE], "tartan", ("tartan", "blue")) is None
    assert dicecolour.looks_like(YELLOW, colours) == "yellow"
    assert dicecolour.looks_like((120, 120, 120), colours) is None  # grey is none of them


def test_games_say_which_die_the_throw_uses() -> None:
    game = ChopChop()
    state = game.new_state()
    assert state.die_colours() == ()  # the cat takes its place first: no throw due
    state.apply(next(a for a in state.legal_actions() if isinstance(a, PlaceCat)))
    assert state.die_colours() == ("grey",)  # the mice throw first, with the grey die
    state.apply(Roll(1))
    assert state.die_colours() == ()  # a move is due, not a throw
    assert game.dice_colours() == ("blue", "grey") and state.side != CAT

    kk = KilkennyCats(players=3)
    ks = kk.new_state()
    assert ks.die_colours() == (ks.turn,) and kk.dice_colours() == kk.players
    assert all(dicecolour.known(c) for c in kk.players)
