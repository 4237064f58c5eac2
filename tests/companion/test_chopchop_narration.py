"""What Chop! Chop!'s effects say (history, toasts, speech): squares in words, the mice team in
the plural."""

from __future__ import annotations

from companion.games.chopchop import ChopChop
from companion.games.chopchop_actions import Moved, Thrown, ThrowsAgain


def test_the_narration_says_table_top_squares_in_words_not_their_ids() -> None:
    # chess-style, as printed around the board (issue 28): columns A… from the left, rows 1… from the bottom
    assert Moved("cat", "top:2,3", "1,3").describe() == "The cat moves from the table top at D4 to D5"
    assert Moved("cat", "", "top:3,4").describe() == "The cat starts on the table top at E3"
    assert Moved("mouse:2", "2,7", "2,6").describe() == "Mouse 2 moves from H4 to G4"


def test_the_narration_names_squares_on_the_games_own_board() -> None:
    game = ChopChop()
    assert game.narrate([Moved("mouse:2", "2,7", "2,6")]) == ["Mouse 2 moves from H4 to G4"]
    assert Moved("cat", "1,3", "1,4").describe(None, lambda sq: f"<{sq}>") == "The cat moves from <1,3> to <1,4>"


def test_the_mice_team_is_plural_and_a_named_seat_singular() -> None:
    assert Thrown("mice", 2).describe() == "The mice throw 2"
    assert Thrown("mice", 2).describe({"mice": "Mice"}) == "The mice throw 2"  # the seat's own name
    assert Thrown("mice", 2).describe({"mice": "Anna"}) == "Anna throws 2"
    assert Thrown("mice1", 4).describe() == "Mice 1 throws 4"  # one of several mice players
    assert Thrown("cat", 3).describe() == "Cat throws 3"
    assert ThrowsAgain("mice", "mouse:2").describe() == "The mice play again (mouse 2 again)"
    assert ThrowsAgain("mice").describe({"mice": "Bram"}) == "Bram plays again"
