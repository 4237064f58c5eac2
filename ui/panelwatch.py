"""The GPIO panel during play: its loss and return told to the players (no Kivy logic here
beyond a clock interval).

``hardware.panel.Panel`` notices a failing pin itself (on any LED, buzzer or button call) and
reconnects by itself; :func:`check_panel` reads its pins every :data:`CHECK_EVERY_S` so a loss
is noticed even when nothing is lit or pressed. :func:`on_panel_state` (on the UI thread, through
the bridge) shows a toast and the status line; the game goes on by touch meanwhile.
"""

from __future__ import annotations

from typing import Any

from companion.i18n import _

STATE_KIND = "panel_state"
CHECK_EVERY_S = 3.0


def check_panel(app: Any, *_args: Any) -> None:
    """Clock callback: a quick read of every pin of the app's panel (if one is connected)."""
    panel = getattr(app, "panel", None)
    if panel is not None and getattr(panel, "state", "") == "connected":
        panel.check()


def on_panel_state(app: Any, state: str, detail: str = "") -> None:
    """The panel was lost (pins failing) or came back: tell the players."""
    if state == "lost":
        app.status = _("Button panel lost ({why}): use the screen; it reconnects by itself.").format(why=detail)
        app.toast(_("Button panel lost: use the screen; it reconnects by itself."), "bad")
    elif state == "connected":
        app.status = _("Button panel back.")
        app.toast(_("Button panel back."), "good")
        turn = getattr(app, "_panel_turn", None)
        if callable(turn):
            turn()
