"""The game screen's camera during play (ui.camwatch): the camera's offer of a throw it read
("Camera sees 3 + 5 — Use"), its unsure notes, its own trouble, and its disagreements with the
game (the players fix the board or ignore it), the Chop! Chop! move it sees (``ui.cammoves``),
shown in a column over the board. A mixin of :class:`ui.screens.game.GameScreen`; nothing here
changes the game but :meth:`use_camera_throw` and :meth:`use_camera_move`, which enter the throw
or the move as a touch would."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from companion import crosscheck
from companion.i18n import _, ngettext
from ui import actions, theme
from ui.screens.choice import as_sentence
from ui.widgets.common import BigButton, KeyLabel, Panel


class GameCamera:
    """The camera's part of the game screen (see the module's text)."""

    app: Any
    ids: Any
    session: Any
    crosscheck_shown: list[Any]
    state: Any
    enter_throw: Any
    """(GameScreen's: the game's state now, and a throw entered.)"""

    def on_enter(self, *args: Any) -> None:
        app = self.app
        if app is not None and app.session is not None and app.game_screen is self:
            app.camera_watch.start()

    def on_leave(self, *args: Any) -> None:
        app = self.app
        if app is not None and hasattr(app, "camera_watch"):
            app.camera_watch.stop()

    def _camera_box(self) -> Any:
        box = self.ids.get("camera_box")
        if box is None:
            area = self.ids.board_area
            box = BoxLayout(orientation="vertical", spacing=4, size_hint=(None, None))
            box.bind(minimum_height=box.setter("height"))
            area.bind(pos=lambda *_: setattr(box, "pos", area.pos), width=box.setter("width"))
            box.pos, box.width = area.pos, area.width
            area.add_widget(box)
            self.ids["camera_box"] = box
        return box

    def _camera_item(self, name: str, widget: Any) -> None:
        box = self._camera_box()
        old = self.ids.get(name)
        if old is not None and old.parent is box:
            box.remove_widget(old)
        self.ids[name] = widget
        box.add_widget(widget, index=0 if name == "camera_offer" else len(box.children))

    def _camera_drop(self, name: str) -> None:
        w = self.ids.get(name)
        if w is not None and w.parent is not None:
            w.parent.remove_widget(w)
        self.ids.pop(name, None)

    def offer_camera_throw(self, values: list[int], warning: str | None = None) -> None:
        """A settled, sure camera reading of the wanted dice: one touch enters it (below a
        ``warning`` when the die looks like another player's)."""
        text = _("Camera sees {throw} \u2014 Use").format(throw=" + ".join(map(str, values)))
        button = BigButton(text=text, size_hint_y=None, height=56, bg=list(theme.GOOD), font_size=theme.FONT)
        button.values = list(values)
        button.bind(on_release=lambda b: self.use_camera_throw(b.values))
        self._camera_drop("camera_note")
        if warning:
            self._camera_item("camera_note", self._message_panel(warning))
        self._camera_item("camera_offer", button)
        self.app.voice.say(_("The camera sees {dice}.").format(dice=" + ".join(map(str, values))))

    def use_camera_throw(self, values: list[int]) -> None:
        self._camera_drop("camera_offer")
        state = self.state
        if state is None or actions.chance_kind(state) != "dice":
            self.app.toast(_("No throw is due now."), "info")
            return
        self.enter_throw(values, "camera")

    def offer_camera_move(self, action: Any, sentence: str) -> None:
        """The one legal move the camera's reading shows (``ui.cammoves``): one touch applies it."""
        button = BigButton(text=_("Camera sees: {move} \u2014 Use").format(move=sentence), size_hint_y=None,
                           height=56, bg=list(theme.GOOD), font_size=theme.FONT, halign="center",
                           valign="middle")
        # a move's sentence is long ("Mouse 1 goes from D6 to B6 by way of C6 and turns the
        # slab"): wrapped to the button's width, the button as tall as its lines
        button.bind(width=lambda b, w: setattr(b, "text_size", (max(w - 24, 1), None)),
                    texture_size=lambda b, ts: setattr(b, "height", max(56, ts[1] + 16)))
        button.action = action
        button.bind(on_release=lambda b: self.use_camera_move(b.action))
        self._camera_drop("camera_note")
        self._camera_item("camera_move", button)
        self.app.voice.say(_("The camera sees: {move}.").format(move=sentence))

    def _move_buttons(self, panel: Any, moves: list[Any], texts: list[str], bg: Any) -> list[Any]:
        """One big button per move on ``panel`` (its text wrapped, the button as tall as it needs):
        a touch applies that move."""
        buttons = []
        for action, text in zip(moves, texts):
            button = BigButton(text=text, size_hint_y=None, height=56, bg=list(bg), font_size=theme.FONT,
                               halign="center", valign="middle")
            button.bind(width=lambda b, w: setattr(b, "text_size", (max(w - 24, 1), None)),
                        texture_size=lambda b, ts: setattr(b, "height", max(56, ts[1] + 16)))
            button.action = action
            button.bind(on_release=lambda b: self.use_camera_move(b.action))
            panel.add_widget(button)
            buttons.append(button)
        return buttons

    def offer_camera_paths(self, moves: list[Any], sentences: list[str], heading: str) -> None:
        """The ways of the one move the camera's reading shows (``ui.cammoves``: the camera cannot
        see which way it came onto its slab): one touch per way applies it."""
        panel = self._message_panel(heading)
        buttons = self._move_buttons(panel, moves, [_("{move} \u2014 Use").format(move=s) for s in sentences],
                                     theme.GOOD)
        self._camera_drop("camera_note")
        self._camera_item("camera_move", panel)
        self.ids["camera_paths"] = buttons
        self.app.voice.say(heading)

    def offer_camera_near(self, moves: list[Any], sentences: list[str], heading: str) -> None:
        """No legal move fits the camera's reading, or two or three fit (``ui.cammoves``): they
        are asked about (``heading``), one touch each, and "None of these" (closes it: the
        players make the move by touch). The same moves again in the same turn after "None of these" (the
        watcher looks again): not shown again."""
        turn = (len(self.session.turns) if self.session is not None else 0, tuple(moves))
        if turn == getattr(self, "camera_near_declined", None):
            return
        panel = self._message_panel(heading)
        buttons = self._move_buttons(panel, moves, sentences, theme.INFO)
        none = BigButton(text=_("None of these"), size_hint_y=None, height=56, bg=list(theme.PANEL),
                         font_size=theme.FONT)
        none.bind(on_release=lambda *_: self.decline_camera_near(turn))
        panel.add_widget(none)
        self._camera_drop("camera_note")
        self._camera_item("camera_move", panel)
        self.ids["camera_near"] = buttons
        self.ids["camera_near_none"] = none
        self.app.voice.say(heading)

    def decline_camera_near(self, turn: Any) -> None:
        """"None of these": the offer closes, nothing changes; the players move by touch."""
        self.camera_near_declined = turn
        self._camera_drop("camera_move")
        self.ids.pop("camera_near", None)
        self.ids.pop("camera_near_none", None)

    def use_camera_move(self, action: Any) -> None:
        self._camera_drop("camera_move")
        self.ids.pop("camera_near", None)
        self.ids.pop("camera_near_none", None)
        state = self.state
        if state is None or action not in state.legal_actions():
            self.app.toast(_("That move is not due now: make it by touch."), "info")
            return
        self.app.apply(action, "camera")

    def show_camera_note(self, text: str) -> None:
        """The camera saw dice but is not sure (never entered as a throw)."""
        note = self._message_panel(text)
        self._camera_drop("camera_offer")
        self._camera_item("camera_note", note)
        self.app.voice.say(text)

    def show_camera_status(self, text: str | None) -> None:
        """The camera's own trouble (lost, stopped) above the board until cleared (None)."""
        if text is None:
            self._camera_drop("camera_status")
        else:
            self._camera_item("camera_status", self._message_panel(text))

    def _message_panel(self, text: str) -> Any:
        panel = Panel(orientation="vertical", size_hint_y=None, padding=[10, 6, 10, 6], spacing=6,
                      bg=list(theme.PANEL_HI))
        label = KeyLabel(text=text, font_size=theme.FONT, color=theme.BAD, size_hint_y=None, halign="left")
        label.bind(width=lambda w, wd: setattr(w, "text_size", (wd, None)),
                   texture_size=lambda w, ts: setattr(w, "height", ts[1] + 4))
        panel.add_widget(label)
        panel.bind(minimum_height=panel.setter("height"))
        return panel

    def show_crosscheck(self, mismatches: list[Any]) -> None:
        """What the camera sees disagrees with the game: ask the players (no state change)."""
        first = mismatches[0]
        words = self.session.game.square_words if self.session else None
        text = as_sentence(crosscheck.phrase(first, words) if hasattr(first, "kind") else first.message)
        if len(mismatches) > 1:
            more = len(mismatches) - 1
            text += " " + ngettext("(and {n} more)", "(and {n} more)", more).format(n=more)
        panel = self._message_panel(text)
        row = BoxLayout(size_hint_y=None, height=52, spacing=8)
        fix = BigButton(text=_("I'll fix the board"), bg=list(theme.INFO))
        ignore = BigButton(text=_("Ignore"), size_hint_x=0.5, bg=list(theme.PANEL))
        fix.bind(on_release=lambda *_: self.dismiss_crosscheck(fixed=True))
        ignore.bind(on_release=lambda *_: self.dismiss_crosscheck(fixed=False))
        row.add_widget(fix)
        row.add_widget(ignore)
        panel.add_widget(row)
        self.crosscheck_shown = list(mismatches)
        self.ids["crosscheck_fix"] = fix
        self.ids["crosscheck_ignore"] = ignore
        self._camera_item("crosscheck", panel)
        self.app.voice.say(text)

    def dismiss_crosscheck(self, fixed: bool) -> None:
        self._camera_drop("crosscheck")
        self.crosscheck_shown = []
        self.ids.pop("crosscheck_fix", None)
        self.ids.pop("crosscheck_ignore", None)
        if fixed:
            self.app.toast(_("Thanks: put the pieces where the game shows them."), "info")

    def clear_camera(self) -> None:
        for name in ("camera_offer", "camera_note", "camera_move"):
            self._camera_drop(name)
        self.dismiss_crosscheck(fixed=False)
