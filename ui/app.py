"""``companion app``: start the touchscreen app.

    companion app [--db PATH] [--demo] [--fullscreen] [--size 800x480] [--kiosk] [--lang nl]

Kivy reads its window configuration when ``kivy.core.window`` is first imported, so
:func:`configure` runs before anything Kivy-graphical is imported (this module imports no
Kivy at import time). On the Pi, ``--fullscreen`` (or ``COMPANION_FULLSCREEN=1``) fills the
screen and ``--kiosk`` (or ``COMPANION_KIOSK=1``) also hides the mouse cursor and ignores Escape.

With no hardware found (no serial die port, no camera, no GPIO panel) the app runs in demo
mode: a virtual die (tap to throw), touch for moves, and the camera screen plays a bundled
synthetic sample feed. ``--demo`` forces it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.limits import MAX_WINDOW_SIZE

DEFAULT_SIZE = (800, 480)


def _truthy(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 800x480, not {text!r}") from None
    if w < 320 or h < 240:
        raise argparse.ArgumentTypeError("the window must be at least 320x240")
    if w > MAX_WINDOW_SIZE[0] or h > MAX_WINDOW_SIZE[1]:
        raise argparse.ArgumentTypeError("the window can be at most {}x{}".format(*MAX_WINDOW_SIZE))
    return (w, h)


def parse_lang(text: str) -> str:
    from companion.i18n import LANGUAGES

    code = text.strip().split(".")[0].replace("-", "_").split("_")[0].lower()
    if code not in LANGUAGES:
        raise argparse.ArgumentTypeError(
            f"unknown language {text!r}: choose one of {', '.join(LANGUAGES)}")
    return code


def build_parser() -> argparse.ArgumentParser:
    from companion.cli import add_db_argument

    parser = argparse.ArgumentParser(
        prog="companion app",
        description="The touchscreen table companion (Kat en Muis, Chop! Chop!, Kilkenny Cats, Qubism).",
    )
    add_db_argument(parser)
    parser.add_argument("--demo", action="store_true", help="demo mode even if hardware is present")
    parser.add_argument(
        "--fullscreen", action="store_true", help="fill the screen (also COMPANION_FULLSCREEN=1)"
    )
    parser.add_argument(
        "--kiosk", action="store_true",
        help="fullscreen, no mouse cursor, Escape does not quit (also COMPANION_KIOSK=1)",
    )
    parser.add_argument("--size", type=parse_size, default=DEFAULT_SIZE, metavar="WxH",
                        help="window size (default 800x480, the Pi touchscreen)")
    parser.add_argument(
        "--lang", type=parse_lang, default=None, metavar="LANG",
        help="the app's language: en, nl or fr (default: the one chosen in Settings, else $LANG)",
    )
    parser.add_argument(
        "--verbose", action="store_true",
        help="show Kivy's own log on the console (it is always written to ~/.kivy/logs)",
    )
    return parser


def configure(size: tuple[int, int] = DEFAULT_SIZE, fullscreen: bool = False, kiosk: bool = False) -> None:
    """Set Kivy's configuration; must run before ``kivy.core.window`` is imported."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if "kivy.core.window" in sys.modules:
        return  # too late to change; tests configure once per process
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "resizable", "0" if (fullscreen or kiosk) else "1")
    Config.set("graphics", "fullscreen", "auto" if (fullscreen or kiosk) else "0")
    Config.set("graphics", "show_cursor", "0" if kiosk else "1")
    Config.set("kivy", "exit_on_escape", "0" if kiosk else "1")
    # a touchscreen has no keyboard: in kiosk mode names are typed on Kivy's docked keyboard
    Config.set("kivy", "keyboard_mode", "dock" if kiosk else "system")
    # right-click must not leave red multitouch dots on a desktop
    Config.set("input", "mouse", "mouse,multitouch_on_demand")


def say_error(sentence: str) -> None:
    """Print a start-up error on the real stderr: once Kivy is imported, ``sys.stderr`` is
    Kivy's log (off in the kiosk unit), so a plain ``print`` there would say nothing."""
    stream = sys.__stderr__ or sys.stderr
    print(f"companion: {sentence}", file=stream, flush=True)


def error_view(sentence: str, on_close: Callable[[], None]) -> Any:
    """The start-up error as a screen: the sentence, and a Close button (a kiosk has no
    keyboard and ignores Escape)."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    from companion.i18n import _
    from ui import theme

    box = BoxLayout(orientation="vertical", padding=32, spacing=24)
    title = Label(text=_("The table companion cannot start"), font_size=theme.FONT_BIG,
                  color=theme.BAD, size_hint_y=None, height=60)
    text = Label(text=sentence, font_size=theme.FONT, color=theme.TEXT, halign="center", valign="middle")
    text.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - 20, None)))
    close = Button(text=_("Close"), font_size=theme.FONT_BIG, size_hint=(None, None), size=(240, 72),
                   pos_hint={"center_x": 0.5})
    close.bind(on_release=lambda *_a: on_close())
    box.add_widget(title)
    box.add_widget(text)
    box.add_widget(close)
    return box


def show_error_screen(sentence: str, size: tuple[int, int], fullscreen: bool, kiosk: bool) -> None:
    """Show the start-up error on screen until Close is touched (the kiosk, where nobody reads
    stderr). After a few closes in a row the kiosk unit's start limit stops it."""
    configure(size, fullscreen, kiosk)
    from kivy.app import App

    class ErrorApp(App):  # type: ignore[misc]
        def build(self) -> Any:
            return error_view(sentence, self.stop)

    ErrorApp(title="Table companion").run()


def main(argv: Sequence[str] | None = None) -> int:
    """Start the app. Every start-up failure (a database that is damaged, newer, foreign, open
    in another program, on a read-only or full disk; or an internal error) is one sentence on
    stderr and exit status 2 (1 for an internal error), never only Kivy's log."""
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    # The board reader's small matrix fits (a 6-term light fit by least squares, three a read)
    # are quicker in one thread than through a BLAS thread pool, which waits for busy cores:
    # 12 ms against 0.23 ms a fit on a loaded 2-core machine. As ``companion board`` does;
    # it must be said before numpy is first imported (this module imports none).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if not args.verbose:
        # Kivy logs tracebacks for optional parts it probes and does not need (libmtdev,
        # xclip/xsel clipboards): alarming on a console, harmless. Its log file keeps them.
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    kiosk = args.kiosk or _truthy("COMPANION_KIOSK")
    fullscreen = args.fullscreen or kiosk or _truthy("COMPANION_FULLSCREEN")

    from companion.i18n import _
    from companion.store import Store, StoreError

    try:  # before Kivy is imported: its logger takes over sys.stderr
        store = Store.open(args.db)
    except StoreError as exc:
        say_error(str(exc))
        if kiosk:  # and on screen, where the family looks
            try:
                show_error_screen(str(exc), args.size, fullscreen, kiosk)
            except Exception:  # no display: stderr (the journal) has said it
                pass
        return 2
    try:
        configure(args.size, fullscreen, kiosk)
        from ui.application import CompanionApp

        app = CompanionApp(store=store, force_demo=args.demo, lang=args.lang)
    except Exception as exc:
        store.close()
        say_error(_("the app could not start ({error}). Run 'companion app --verbose' to see "
                    "the details, and report it.").format(error=f"{type(exc).__name__}: {exc}"))
        return 1
    for sentence in store.damaged.values():
        say_error(sentence)

    how = _("kiosk") if kiosk else _("{width}x{height} window").format(width=args.size[0], height=args.size[1])
    print(_("Table companion: starting ({how}; games are saved in {path}). Close the window to stop.").format(
        how=how, path=store.path), flush=True)
    try:
        app.run()
    except Exception as exc:
        say_error(_("the app stopped on an internal error ({error}). Run 'companion app --verbose' "
                    "to see the details, and report it.").format(error=f"{type(exc).__name__}: {exc}"))
        return 1
    finally:
        app.shutdown()
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
