"""``companion rules GAME [--lang L]``: how to play a game, printed for the terminal."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

from companion import games
from companion.i18n import LANGUAGES, _, set_language
from companion.teach import render_text


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="companion rules",
        description=_("How to play a game: setup, a turn, special squares, how to win, and this "
                      "companion's rules, with the rules settings you give."),
    )
    parser.add_argument("game", choices=list(games.GAMES), help=_("the game"))
    parser.add_argument("--lang", metavar="L", help=_("language: {codes}").format(codes=", ".join(LANGUAGES)))
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE",
        help=_("a rules setting as NAME=VALUE, e.g. bank=40 (may be repeated)"),
    )
    args = parser.parse_args(list(argv))
    if args.lang:
        set_language(args.lang)
    settings: dict[str, object] = {}
    for item in args.set:
        name, eq, value = item.partition("=")
        if not eq or not name:
            parser.error(_("--set takes NAME=VALUE, not {item!r}").format(item=item))
        settings[name.strip()] = _value(value.strip())
    try:
        game = games.make(args.game, settings)
    except (TypeError, ValueError) as exc:
        parser.error(_("these rules settings are not valid: {error}").format(error=exc))
    print(render_text(game), end="")
    return 0


def _value(text: str) -> object:
    """``"3"`` -> 3, ``"true"`` -> True, anything else stays text."""
    if re.fullmatch(r"-?[0-9]{1,18}", text):  # ASCII digits only: "²" is isdigit() but not int()
        return int(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text
