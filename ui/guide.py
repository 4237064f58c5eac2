"""The first-game guide in the app: the "what to do next" line of the game screen.

The wording comes from :func:`companion.teach.guide.next_step` (pure, tested in companion); this
module only reads the preference ``ui.guide``, feeds the game screen's ``guide_text`` and turns
the guide on and off (Home's "First game: guide me", the How to play screen, the game screen's
"Stop guiding"). ``GameScreen.guide_text`` is a Kivy property; the game screen hands each new step to the
app's voice in place of the whose-turn banner.
"""

from __future__ import annotations

from typing import Any

from companion.teach.guide import next_step

PREF = "ui.guide"


def is_on(app: Any) -> bool:
    prefs = getattr(app, "prefs", None)
    return bool(prefs is not None and prefs.get(PREF))


def text_for(screen: Any) -> str:
    """The guide line for a game screen: empty when the guide is off or no game is open."""
    session = getattr(screen, "session", None)
    if session is None or not is_on(screen.app):
        return ""
    names = {p: session.name(p) for p in session.game.players}
    last = session.turns[-1].effects if session.turns else ()
    return next_step(session.game, session.state, names, last)


def set_guide(app: Any, on: bool) -> None:
    """Turn the guide on or off (stored in the preferences) and show it everywhere at once."""
    if app is None:
        return
    app.prefs.set(PREF, bool(on))
    screen = getattr(app, "game_screen", None)
    if screen is not None:
        screen.guide_text = text_for(screen)
    sm = getattr(app, "sm", None)
    if sm is not None:
        for name in ("home", "howto"):  # (a screen not built yet reads the setting when built)
            built = sm.built(name)
            if built is not None:
                sync_toggle(built.ids.get("guide_toggle"), bool(on))


def sync_toggle(toggle: Any, on: bool) -> None:
    if toggle is not None:
        toggle.state = "down" if on else "normal"
