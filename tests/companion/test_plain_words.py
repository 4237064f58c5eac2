"""No developer notation in any text a player reads or hears (issue 28).

Two sweeps: every message of the catalogue (``companion/locale/companion.pot``, what the app,
the terminal games and their ``--help`` can show), and what seeded games of all four games
actually say in English, Dutch and French: the narration, the companion's proposals (every
"Which one?" choice), the first-game guide, the Chop! Chop! tracker, How to play, the rules
interpretations and the camera's questions. None may carry a square id ("2,4", "top:2,4"), a
piece id ("mouse:3"), "via", a rule id ("(K5)"), "RULES.md", a snake_case word, a file name, an
action's repr or raw exception text. Rule ids stay in code, tests and RULES.md.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import crosscheck, games, i18n, proposals
from companion.games.base import Game, State
from companion.games.chopchop_tracker import tracker
from companion.teach import render_text
from companion.teach.guide import next_step

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "companion" / "locale" / "companion.pot"

NOTATION: dict[str, re.Pattern[str]] = {
    "a table-top id": re.compile(r"\btop:"),
    "a piece id": re.compile(r"\b(?:mouse|cat|pawn|cube):\d"),
    "'via'": re.compile(r"\bvia\b"),
    "a rule id": re.compile(r"\([KCLQ]\d+\)|^[KCLQ]\d+:|\brules? [KCLQ]\d"),
    "RULES.md": re.compile(r"RULES\.md"),
    "a snake_case word": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "a row,column square id": re.compile(r"(?<![\w.,])-?\d{1,2},-?\d{1,2}(?![\w,]|\s?%)"),  # not a decimal "51,4 %"
    "a file name or device path": re.compile(r"\w\.(?:py|toml|md|json)\b|/dev/\w"),
    "an action's repr": re.compile(r"\b[A-Z][a-zA-Z]+\(\w+="),
    "raw exception text": re.compile(r"Traceback|Error:|Exception|object at 0x|errno", re.I),
}


def notation(text: str) -> list[str]:
    """What internal notation ``text`` carries (placeholders such as ``{square}`` removed)."""
    bare = re.sub(r"\{[^{}]*\}", "", text)
    return [name for name, pattern in NOTATION.items() if pattern.search(bare)]


def test_the_detector_catches_every_kind_of_notation() -> None:
    caught = {
        "move cat 2,6 via top:2,5": {"a table-top id", "'via'", "a row,column square id"},
        "move mouse:3 4,4": {"a piece id", "a row,column square id"},
        "Roll-off (K1)": {"a rule id"},
        "K5: a double k goes to 11k": {"a rule id"},
        "RULES.md leaves this dead end open": {"RULES.md"},
        "Cube model: observed, shortcut_from": {"a snake_case word"},
        "port, e.g. /dev/ttyACM0": {"a file name or device path"},
        "Move(piece='cat', to='1,4')": {"an action's repr", "a row,column square id"},
        "aplay: main:831: audio open error: No such file or directory": set(),
        "ValueError: bad": {"raw exception text"},
    }
    for text, expected in caught.items():
        assert expected <= set(notation(text)), text
    for fine in ("The cat goes from B4 to C4", "the table top at D4", "Cat lands on 8 (square B2): pays 1 chip.",
                 "Double 1 takes Mouse straight to 11 (square J2)", "The cat turns the slab at C5: cheese", "{piece} cannot step onto {square} from {via}",
                 "51,4 %", "the red mouse beside G14"):
        assert notation(fine) == [], fine


def _messages() -> Iterator[tuple[str, str]]:
    with POT.open("rb") as fh:
        catalogue = read_po(fh)
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        where = ", ".join(sorted({loc[0] for loc in message.locations}))
        for text in ids:
            yield text, where


# Messages only a developer's tools show (dataset evaluation, training, the board calibration's
# file options), where the notation is the interface. Each entry: (where, why).
DEVELOPER_ONLY: dict[str, str] = {}


def test_no_catalogue_message_carries_internal_notation() -> None:
    found = []
    for text, where in _messages():
        bad = notation(text)
        if bad and text not in DEVELOPER_ONLY:
            found.append(f"{where}: {text!r} ({', '.join(bad)})")
    assert not found, "internal notation in player-visible messages:\n" + "\n".join(found)


def _play(game: Game, seed: int, turns: int) -> Iterator[tuple[State, list[str]]]:
    """A seeded game: each position before an action, with what the players read then."""
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(turns):
        if state.is_over():
            break
        said: list[str] = [next_step(game, state)]
        if state.is_chance():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _p in outcomes], [float(p) for _a, p in outcomes])[0]
        else:
            legal = state.legal_actions()
            said += [proposals.describe(state, a).sentence for a in legal[:60]]
            action = rng.choice(legal)
        said += game.narrate(state.apply(action))
        yield state, said


SETTINGS: dict[str, list[dict[str, object]]] = {
    "katenmuis": [{}, {"shortcut_from": "strictly_past"}],
    "chopchop": [{}, {"mice_players": 2, "out_of_cheese": "draw"}],
    "kilkenny": [{"players": 2}, {"players": 4}],
    "qubism": [{}, {"cube_model": "forward"}, {"cube_model": "back"}],
}


@pytest.mark.parametrize("lang", ["en", "nl", "fr"])
@pytest.mark.parametrize("key", list(games.GAMES))
def test_seeded_games_say_squares_chess_style_and_nothing_internal(key: str, lang: str) -> None:
    i18n.set_language(lang)
    try:
        found: list[str] = []
        squares_named = 0
        for n, settings in enumerate(SETTINGS[key]):
            game = games.make(key, settings)
            texts = list(game.interpretations()) + render_text(game).splitlines()
            for seed in (n, n + 10):
                for state, said in _play(game, seed, 160):
                    texts += said
                    if key == "chopchop":
                        texts += tracker(state).lines(game.square_words)
            for text in texts:
                bad = notation(text)
                if bad:
                    found.append(f"{text!r} ({', '.join(bad)})")
                squares_named += len(re.findall(r"\b[A-N]\d{1,2}\b", text))
        assert not found, f"{key} in {lang}:\n" + "\n".join(sorted(set(found))[:40])
        assert squares_named > 20  # the games do name squares, chess-style
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["en", "nl", "fr"])
def test_the_cameras_questions_name_squares_chess_style(lang: str) -> None:
    i18n.set_language(lang)
    try:
        state = games.get("chopchop").new_state()
        view = {"top:2,3": "cat", "0,3": "mouse:1"}
        seen = {"top:2,3": (None, 0.9), "1,3": ("cat", 0.95), "0,3": ("mouse", 0.2), "5,5": ("slab", 0.9)}
        asked = crosscheck.crosscheck(view, seen, 0.6, state.game.square_words)
        assert asked and all(notation(m.message) == [] for m in asked), [m.message for m in asked]
        assert any("D5" in m.message for m in asked) and any("D6" in m.message for m in asked)
        kat = games.get("katenmuis")
        moved = crosscheck.crosscheck({"17": "mouse"}, {"17": (None, 0.9), "16": ("mouse", 0.9)}, 0.6, kat.square_words)
        assert len(moved) == 1 and "17/50" in moved[0].message and "16/51" in moved[0].message
        assert notation(moved[0].message) == []
    finally:
        i18n.set_language("en")
