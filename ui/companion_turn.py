"""The companion's turn on the game screen, and the Hint button for people.

:func:`update` runs at the end of every :meth:`GameScreen.refresh`. When one of the
companion's seats is due (``companion.companion_turn.CompanionSeats.due``):

- **a throw**: a panel "Throw the blue die for me" above the dice picker, with "Roll for me"
  (drawn here with the exact odds, like the virtual die); the people may instead throw its die
  for the camera or the serial die, or touch what it shows;
- **a reveal** under its piece: the panel says so above the usual tile picker;
- **a decision**: the banner says "Companion (Black) is thinking…" while a worker thread
  searches (the result comes back through ``app.bridge``); then the panel shows the move in
  words, the board lights its from/to squares, its turn LED lights, the sentence goes to the
  narration (and to every hook in :data:`NARRATION_HOOKS`, e.g. speech), and a big "Done"
  applies it (source ``"companion"``) once a person has made it on the board. With the
  camera watching, a still board showing the move confirms it too (``CameraWatcher.watch_for``).

For a person's decision a "Hint" button searches the same way and shows what the companion
would play: lit squares, the sentence and the winning chances where the player can say.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from typing import Any

from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.companion_turn import CompanionSeats, Hint, Proposal, StaleProposal, state_key
from companion.games.base import IllegalAction, State
from companion.i18n import _
from companion.store import StoreError

log = logging.getLogger(__name__)

PROPOSAL_KIND = "companion_proposal"
HINT_KIND = "companion_hint"

NARRATION_HOOKS: list[Callable[[str], None]] = []
"""Called with each sentence the companion says (its move, its request for a throw)."""


class CompanionPanel(BoxLayout):
    """The companion's panel: what it says, and its buttons (see game.kv)."""

    text = StringProperty("")
    chances = StringProperty("")


def say(screen: Any, sentence: str) -> None:
    """Narrate one sentence of the companion: the narration panel, the app's voice (queued after
    whatever is being said, so the move follows the whose-turn line) and the hooks."""
    line = sentence if sentence.endswith((".", "!", "?", "…")) else sentence + "."
    screen._add_narration([line])
    voice = getattr(screen.app, "voice", None)
    if voice is not None:
        voice.say(line)
    for hook in list(NARRATION_HOOKS):
        try:
            hook(sentence)
        except Exception:  # a speech engine failing must not stop the game
            pass


class CompanionTurn:
    """The companion's turn for one game screen (made on first use by :func:`of`)."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.session: Any = None
        self.seats: CompanionSeats | None = None
        self.proposal: Proposal | None = None
        self.hint: Hint | None = None
        self.thinking: str | None = None
        """The position a search runs for (None: none running)."""
        self.hinting: str | None = None
        self.said: str | None = None
        self.rng = random.Random()
        self.panel = CompanionPanel()
        self.hint_button: Any = None
        self._offs: list[Any] = []

    # -- wiring -------------------------------------------------------------------------------

    def _bind(self, session: Any) -> None:
        self.session = session
        self.seats = CompanionSeats(session)
        self.proposal = self.hint = None
        self.thinking = self.hinting = self.said = None
        self.rng = random.Random(f"roll:{session.game_id}")
        app = self.screen.app
        if not self._offs and app is not None:
            self._offs = [app.bridge.on(PROPOSAL_KIND, self.on_proposal), app.bridge.on(HINT_KIND, self.on_hint)]

    def _box(self) -> Any:
        return self.screen.ids.get("input_box")

    def _show(self, widget: Any, alone: bool) -> None:
        box = self._box()
        if box is None:
            return
        if alone:
            box.clear_widgets()
        if widget.parent is not None and widget.parent is not box:
            widget.parent.remove_widget(widget)
        if widget.parent is None:
            box.add_widget(widget, index=len(box.children))  # on top

    def _hide(self, widget: Any) -> None:
        if widget is not None and widget.parent is not None:
            widget.parent.remove_widget(widget)

    # -- every refresh ------------------------------------------------------------------------

    def update(self, state: State) -> None:
        screen = self.screen
        session = screen.session
        if session is None:
            return
        if session is not self.session:
            self._bind(session)
        assert self.seats is not None
        key = state_key(state)
        if self.proposal is not None and self.proposal.state_key != key:
            self.proposal = None
            self._stop_camera()
        if self.hint is not None and self.hint.seat != state.to_move():
            self.hint = None
        due = self.seats.due() if session.companions else None
        self._take_roll_button(False)
        if due is None:
            self._hide(self.panel)
            self._people(state, key)
            return
        self._hide(self.hint_button)
        side = session.game.player_label(due.seat)
        p = self.panel
        p.chances = ""
        ids = p.ids
        ids.done.opacity, ids.done.disabled = 0, True
        ids.roll_for_me.opacity, ids.roll_for_me.disabled = 0, True
        if due.kind == "decide":
            if self.proposal is None:
                p.text = due.sentence
                screen.banner = due.sentence
                screen.prompt = _("The companion is choosing its move.")
                self._think(state, key)
            else:
                screen.banner = _("Companion ({side}) plays").format(side=side)
                screen.prompt = _("Make the move, then touch Done.")
                p.text = self.proposal.sentence
                ids.done.opacity, ids.done.disabled = 1, False
                view = screen.ids.get("board")
                if view is not None:
                    view.highlights = list(self.proposal.squares)
                    view.selected = ""
            self._show(p, alone=True)
        else:  # its throw or its reveal: said in the prompt; "Roll for me" takes the picker's Roll
            p.text = ""
            screen.prompt = due.sentence
            if due.kind == "throw":
                ids.roll_for_me.opacity, ids.roll_for_me.disabled = 1, False
                self._take_roll_button(True)
                box = self._box()
                if box is not None and p.parent is None:
                    box.add_widget(p)  # at the bottom, where the picker's own Roll was
            else:
                self._hide(p)
            if self.said != key:
                self.said = key
                say(screen, due.sentence)
        self._led(due.seat)

    def _take_roll_button(self, take: bool) -> None:
        """While the companion's die is due its "Roll for me" stands in for the picker's Roll."""
        picker = self.screen.ids.get("picker")
        button = getattr(picker, "roll_button", None)
        if button is None:
            return
        if take and button.parent is picker:
            picker.remove_widget(button)
        elif not take and button.parent is None:
            picker.add_widget(button)

    def _people(self, state: State, key: str) -> None:
        """A person's turn: the Hint button under the move input; a shown hint lit."""
        screen = self.screen
        if state.is_over() or state.is_chance() or screen.input_mode != "move":
            self._hide(self.hint_button)
            return
        if self.hint_button is None:
            from ui.widgets.common import BigButton

            self.hint_button = BigButton(text=_("Hint"), size_hint_y=None, height=52)
            self.hint_button.bind(on_release=lambda *_a: self.ask_hint())
            screen.ids["hint_button"] = self.hint_button
        if self.hint is None:
            self._show(self.hint_button, alone=False)
            self._hide(self.panel)
        else:  # the hint answered takes the button's place (the side panel has no room for both)
            self._hide(self.hint_button)
            self.panel.text = self.hint.lines(state, screen.session.seats, top=0)[0]
            self.panel.chances = "\n".join(self.hint.lines(state, screen.session.seats, top=3)[1:])
            ids = self.panel.ids
            ids.done.opacity, ids.done.disabled = 0, True
            ids.roll_for_me.opacity, ids.roll_for_me.disabled = 0, True
            self._show(self.panel, alone=False)
            view = screen.ids.get("board")
            if view is not None and not screen.selected:
                view.hinted = list(self.hint.described.squares)  # the squares to touch stay marked

    def _led(self, seat: str) -> None:
        panel = getattr(self.screen.app, "panel", None)
        if panel is not None:
            try:
                panel.show_turn(seat)
            except Exception:
                pass

    # -- the search, off the UI thread --------------------------------------------------------

    def _think(self, state: State, key: str) -> None:
        if self.thinking == key:
            return
        self.thinking = key
        seats, post = self.seats, self.screen.app.bridge.post
        position = state.clone()
        assert seats is not None

        def work() -> None:
            try:
                post(PROPOSAL_KIND, key, seats.propose(position), None)
            except Exception as exc:  # told to the people in one plain sentence; the game goes on by touch
                log.warning("the companion could not choose a move: %s: %s", type(exc).__name__, exc)
                post(PROPOSAL_KIND, key, None, str(exc))

        threading.Thread(target=work, name="companion-think", daemon=True).start()

    def on_proposal(self, key: str, proposal: Proposal | None, error: str | None) -> None:
        if self.thinking == key:
            self.thinking = None
        screen = self.screen
        if screen.session is None or state_key(screen.session.state) != key:
            return  # the game moved on (an undo, a touch) while it thought
        if proposal is None:
            screen.app.toast(_("The companion could not choose a move; make one for it by touch."), "bad")
            return
        self.proposal = proposal
        say(screen, proposal.sentence)
        self.update(screen.session.state)
        self._watch_camera(proposal)

    def ask_hint(self) -> None:
        screen = self.screen
        if screen.session is None or self.seats is None:
            return
        state = screen.session.state
        key = state_key(state)
        if self.hinting == key:
            return
        self.hinting = key
        seats, post = self.seats, screen.app.bridge.post
        position = state.clone()
        self.panel.text, self.panel.chances = _("Thinking…"), ""
        self._show(self.panel, alone=False)

        def work() -> None:
            try:
                post(HINT_KIND, key, seats.hint(position), None)
            except Exception as exc:
                post(HINT_KIND, key, None, str(exc))

        threading.Thread(target=work, name="companion-hint", daemon=True).start()

    def on_hint(self, key: str, hint: Hint | None, error: str | None) -> None:
        if self.hinting == key:
            self.hinting = None
        screen = self.screen
        if screen.session is None or state_key(screen.session.state) != key:
            return
        if hint is None:
            screen.app.toast(_("No hint now: {error}").format(error=error), "info")
            self._hide(self.panel)
            return
        self.hint = hint
        self.update(screen.session.state)

    # -- confirming ---------------------------------------------------------------------------

    def done(self) -> None:
        """ "Done": a person made the companion's move on the board."""
        self.confirm("companion")

    def confirm(self, how: str) -> None:
        screen = self.screen
        if self.proposal is None or self.seats is None:
            return
        proposal = self.proposal
        self.proposal = None
        self._stop_camera()
        try:
            self.seats.confirm(proposal)
        except StaleProposal:
            screen.refresh()
        except (IllegalAction, StoreError) as exc:
            screen.app.toast(str(exc), "bad")
            screen.refresh()

    def roll_for_me(self) -> None:
        """ "Roll for me": the companion's throw drawn with its exact odds."""
        if self.seats is None:
            return
        try:
            self.seats.roll(self.rng)
        except (IllegalAction, StoreError) as exc:
            self.screen.app.toast(str(exc), "bad")

    # -- the camera ---------------------------------------------------------------------------

    def _watch_camera(self, proposal: Proposal) -> None:
        watch = getattr(self.screen.app, "camera_watch", None)
        if watch is None or not watch.running or not watch.checking or self.session is None:
            return
        after = self.session.state.clone()
        after.apply(proposal.action)
        bv = getattr(after, "board_view", None)
        if callable(bv):
            watch.watch_for(dict(bv()), proposal.state_key, self.on_camera)

    def _stop_camera(self) -> None:
        watch = getattr(self.screen.app, "camera_watch", None)
        if watch is not None:
            watch.watch_for(None, "", None)

    def on_camera(self, tag: str, mismatches: list[Any]) -> bool:
        """The camera read the board while a proposal waits: no disagreement with the position
        after the move confirms it. Returns whether to keep watching."""
        if self.proposal is None or self.proposal.state_key != tag:
            return False
        if any(m.kind != "unsure" for m in mismatches):
            return True  # not made yet (or not seen well): look again after the next movement
        self.confirm("camera")
        return False


def of(screen: Any) -> CompanionTurn:
    turn: CompanionTurn | None = getattr(screen, "_companion_turn", None)
    if turn is None:
        turn = CompanionTurn(screen)
        screen._companion_turn = turn
    return turn


def update(screen: Any, state: State) -> None:
    """Called at the end of every game-screen refresh."""
    of(screen).update(state)
