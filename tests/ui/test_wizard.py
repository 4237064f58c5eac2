"""Issue 28's set-up wizard on the touchscreen, by simulated touches: Home's Set-up button and
the first start, printing the board (and a failure said in one sentence), the camera step on
the bundled demo feed (its guidance and the tick), learning the pieces and a test throw read
(Right / Not right, unsure dice said), the electronic die found by scanning the ports and tried
live through a pseudo-terminal, and the sound choices in words."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.ui.helpers import pump, screenshot, small_touch_targets, tap, wait_for, walk
from tests.ui.scenes import _cut_board


def _texts(widget: Any) -> list[str]:
    return [str(w.text) for w in walk(widget) if isinstance(getattr(w, "text", None), str) and w.text]


def _labelled_reader(sure: float = 0.97) -> Any:
    """The demo feed's own labels as a dice reader (frames told apart by their pixels)."""
    import cv2

    from ui.screens.camera import DEMO_FEED
    from vision.dice import DieReading

    by_frame: dict[bytes, list[Any]] = {}
    for label in json.loads((DEMO_FEED / "labels.json").read_text()):
        img = cv2.imread(str(DEMO_FEED / label["file"]))
        by_frame[img.tobytes()] = [DieReading(d["value"], tuple(d["box"]), sure, "red")
                                   for d in (label.get("dice") or [])]
    return lambda frame: by_frame.get(frame.tobytes(), [])


def _wizard(app: Any) -> Any:
    """Home's Set-up button, touched."""
    app.go("home")
    tap(app.screen("home").ids.setup_button)
    assert wait_for(lambda: app.sm.current == "wizard")
    return app.screen("wizard")


def test_home_button_opens_it_and_the_first_start_offers_it_once(make_app: Any, tmp_path: Any) -> None:
    db = tmp_path / "first.db"
    app = make_app(db=db)
    assert app.prefs.first_start
    app.on_start()  # what run() does: the very first start goes to the wizard
    assert app.sm.current == "wizard"
    wizard = app.screen("wizard")
    assert wizard.ids.pages.current == "print"  # the first step not done yet
    assert [b.text.split("\n")[1] for k, b in wizard.step_buttons.items() if k != "devices"] == ["not yet"] * 3
    tap(wizard.ids.print_skip)  # skipped: the next step, no tick
    assert wizard.ids.pages.current == "camera"
    assert app.prefs.get("ui.setup") == {"print": False, "camera": False, "learn": False}
    wizard.leave()
    assert app.sm.current == "home"
    app.shutdown()
    from ui.prefs import Prefs

    assert not Prefs(app.store).first_start  # offered once: the next start opens Home
    assert _wizard(app).name == "wizard"


def test_print_step_makes_the_pdf_and_says_where(make_app: Any) -> None:
    app = make_app()
    wizard = _wizard(app)
    chopchop = next(b for b in wizard.ids.print_games.children if b.text == "Chop! Chop!")
    tap(chopchop)
    tap(wizard.ids.print_make)
    assert wait_for(lambda: wizard.print_done, timeout=30), wizard.print_error
    pdf = wizard.pdf_path()
    assert pdf.name == "chopchop-board.pdf" and pdf.read_bytes()[:5] == b"%PDF-"
    assert str(pdf) in wizard.print_text and "A4" in wizard.print_text and "100 %" in wizard.print_text
    assert wizard.ids.print_make.text == "Make it again"
    screenshot(app.root, "wizard_print_done_800x480")
    assert small_touch_targets(app.sm.current_screen) == []
    tap(wizard.ids.print_ok)
    assert app.prefs.get("ui.setup")["print"] is True
    assert wizard.step_buttons["print"].icon == "check" and wizard.step_buttons["print"].text.endswith("done")
    assert wizard.ids.pages.current == "camera"
    wizard.leave()


def test_print_step_prints_on_letter_paper_at_true_size_or_says_why_not(make_app: Any) -> None:
    """Letter (US) is a choice beside A4: Chop! Chop!'s board fits there at its true size (a
    Letter page in the PDF); Kat en Muis's does not, and the wizard says so in one sentence."""
    import re

    app = make_app()
    wizard = _wizard(app)
    papers = {b.text: b for b in wizard.ids.print_papers.children}
    assert set(papers) == {"A4 paper", "Letter paper (US)"} and papers["A4 paper"].state == "down"
    tap(next(b for b in wizard.ids.print_games.children if b.text == "Chop! Chop!"))
    tap(next(b for b in wizard.ids.print_papers.children if b.text == "Letter paper (US)"))
    assert wizard.paper == "Letter"
    tap(wizard.ids.print_make)
    assert wait_for(lambda: wizard.print_done, timeout=30), wizard.print_error
    pdf = wizard.pdf_path()
    assert pdf.name == "chopchop-board-letter.pdf" and pdf.exists()
    box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)", pdf.read_bytes())
    assert box and abs(float(box.group(1)) - 792) < 1 and abs(float(box.group(2)) - 612) < 1
    assert "Letter paper at 100 %" in wizard.print_text and "fit to page" in wizard.print_text
    tap(next(b for b in wizard.ids.print_games.children if b.text == "Kat en Muis"))
    tap(wizard.ids.print_make)
    assert wait_for(lambda: bool(wizard.print_error), timeout=30)
    assert wizard.print_error.startswith("The Kat en Muis board is ") and "Print it on A4 paper." in wizard.print_error
    assert not wizard.print_done and not wizard.pdf_path().exists()
    screenshot(app.root, "wizard_print_letter_too_small_800x480")
    assert small_touch_targets(app.sm.current_screen) == []
    wizard.leave()


def test_a_print_that_fails_is_one_plain_sentence(make_app: Any) -> None:
    from ui.screens.wizard import print_folder

    app = make_app()
    print_folder(app).write_text("a file where the folder should be")
    wizard = _wizard(app)
    tap(wizard.ids.print_make)
    assert wait_for(lambda: bool(wizard.print_error), timeout=30)
    error = wizard.print_error
    assert error.startswith("The board could not be made in ") and error.count(".") == 1 + str(print_folder(app)).count(".")
    assert "Error" not in error and "Errno" not in error and not wizard.print_done
    assert app.prefs.get("ui.setup")["print"] is False
    wizard.leave()


def test_leaving_the_camera_step_while_the_camera_is_lost_stops_at_once(make_app: Any, tmp_path: Any) -> None:
    """The wizard's camera stops as the Camera screen's and the game's do (ui.camworker): a
    source waiting out a lost camera's backoff is woken, no thread is left behind."""
    import shutil
    import time

    from ui.screens.camera import DEMO_FEED

    feed = shutil.copytree(DEMO_FEED, tmp_path / "feed")
    app = make_app(demo=True)
    wizard = _wizard(app)
    cam = wizard.camera
    cam.feed_folder, cam.fps = feed, 20.0
    tap(wizard.step_buttons["camera"])
    try:
        source = cam._source
        assert wait_for(lambda: source.state == "running", timeout=10), source.state
        feed.rename(tmp_path / "unplugged")
        assert wait_for(lambda: source.state == "lost", timeout=5), source.state
        time.sleep(1.2)  # the source is now waiting out a backoff
        thread = cam._thread
        t0 = time.monotonic()
        cam.stop()
        assert thread is not None and not thread.is_alive()
        assert time.monotonic() - t0 < 1.0
        assert source.state == "closed"
    finally:
        wizard.leave()


def test_camera_step_guides_and_ticks_on_the_demo_feed(make_app: Any) -> None:
    app = make_app(demo=True)
    wizard = _wizard(app)
    wizard.camera.fps = 20.0
    tap(wizard.step_buttons["camera"])
    try:
        assert wizard.camera.running and wizard.camera.demo
        sources = [b.text for b in wizard.ids.cam_sources.children]
        assert "Demo pictures" in sources and not any("/dev/" in t for t in sources)
        assert wait_for(lambda: wizard.aim_text.startswith("4 of 4 corners seen"), timeout=15), wizard.aim_text
        assert wait_for(lambda: wizard.camera_done, timeout=15), wizard.aim_text
        assert app.prefs.get("ui.setup")["camera"] is True
        assert wizard.step_buttons["camera"].icon == "check"
        assert wizard.ids.camera_next.text == "Next"
        screenshot(app.root, "wizard_camera_demo_800x480")
        # every frame of the step shows the board, over more than a whole round of the feed
        # (its 25 pictures): the step stays found, as with a family's camera
        assert wait_for(lambda: wizard.steady >= 30, timeout=20), wizard.aim_text
        assert wizard.aim_text == "The board is found. Well done!"
    finally:
        wizard.leave()
    assert not wizard.camera.running


def test_camera_guidance_on_a_picture_with_one_corner_cut_off(make_app: Any) -> None:
    app = make_app()
    wizard = _wizard(app)
    from vision.aim import aim_at
    from vision.boarddefaults import board_for

    image = _cut_board()
    aim = aim_at(image, board_for("katenmuis"))
    wizard.on_frame(image, aim, None)
    assert wizard.aim_text == "3 of 4 corners seen: move the camera left"
    assert not wizard.camera_done


def test_learn_the_pieces_then_a_test_throw_right_and_not_right(make_app: Any) -> None:
    app = make_app(demo=True)
    wizard = _wizard(app)
    wizard.camera.fps = 20.0
    wizard.camera.reader = _labelled_reader()
    tap(wizard.step_buttons["learn"])
    try:
        assert wizard.ids.pages.current == "learn"
        tap(wizard.ids.learn_button)
        assert wait_for(lambda: wizard.learn_text.startswith("Learned the pieces"), timeout=20), wizard.learn_text
        from ui.screens.camera import model_path

        assert model_path("katenmuis").exists()  # the demo feed's board: Kat en Muis
        tap(wizard.ids.throw_button)
        assert wait_for(lambda: wizard.can_confirm, timeout=20), wizard.throw_text
        shown = [w.value for w in wizard.ids.dice_shown.children]
        assert len(shown) == 2 and all(1 <= v <= 6 for v in shown)
        assert wizard.throw_text == "I read {}. Is that right?".format(" + ".join(map(str, wizard.thrown)))
        screenshot(app.root, "wizard_throw_800x480")
        assert small_touch_targets(app.sm.current_screen) == []
        tap(wizard.ids.throw_wrong)
        assert wizard.throw_text.startswith("Then the camera needs a better view")
        assert app.prefs.get("ui.setup")["learn"] is False
        tap(wizard.ids.throw_button)
        assert wait_for(lambda: wizard.can_confirm, timeout=20), wizard.throw_text
        tap(wizard.ids.throw_right)
        assert app.prefs.get("ui.setup")["learn"] is True
        assert wizard.step_buttons["learn"].icon == "check"
    finally:
        wizard.leave()


def test_the_test_throw_counts_the_dice_as_the_camera_screen_does(make_app: Any, tmp_path: Any) -> None:
    """The wizard's test throw counts dice as the Camera screen does (ui.dicearea.seen): with
    the board found, a "die" on a printed corner marker and a box four times a die's size on the
    table's plane are not counted; a die-sized box is. A camera here is a folder of the demo
    feed's board pictures, read by a reader that reports all three on every picture."""
    import shutil

    import numpy as np

    from ui.screens.camera import DEMO_FEED
    from vision.boarddefaults import board_for
    from vision.boardlocate import locate_board
    from vision.dice import DieReading

    labels = [lb for lb in json.loads((DEMO_FEED / "labels.json").read_text()) if lb["kind"] == "board"]
    for lb in labels:
        shutil.copy(DEMO_FEED / lb["file"], tmp_path / lb["file"])
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    board = board_for("katenmuis")
    sq = list(board.squares.values())[len(board.squares) // 2]
    x, y = sq.centre

    def reader(frame: Any) -> list[Any]:
        pose = locate_board(frame, board)
        if not pose.found:
            return []

        def box(w_mm: float) -> tuple[float, float, float, float]:
            q = pose.to_pixels(np.float64([[x - w_mm / 2, y - w_mm / 2], [x + w_mm / 2, y + w_mm / 2],
                                           [x - w_mm / 2, y + w_mm / 2], [x + w_mm / 2, y - w_mm / 2]]))
            return (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))

        marker = next(iter(pose.corners.values())).reshape(-1, 2)
        on_marker = (float(marker[:, 0].min()), float(marker[:, 1].min()),
                     float(marker[:, 0].max()), float(marker[:, 1].max()))
        return [DieReading(4, box(16), 0.97, "white"), DieReading(6, box(64), 0.97, "white"),
                DieReading(5, on_marker, 0.97, "white")]

    app = make_app(demo=True)
    app.prefs.set("ui.dice_area", "anywhere")
    wizard = _wizard(app)
    wizard.camera.feed_folder = tmp_path
    wizard.camera.fps = 20.0
    wizard.camera.reader = reader
    tap(wizard.step_buttons["learn"])
    try:
        tap(wizard.ids.throw_button)
        assert wait_for(lambda: wizard.can_confirm, timeout=20), wizard.throw_text
        assert wizard.thrown == (4,)
        assert wizard.throw_text == "I read 4. Is that right?"
    finally:
        wizard.leave()


def test_unsure_dice_are_said_plainly(make_app: Any) -> None:
    app = make_app(demo=True)
    wizard = _wizard(app)
    wizard.camera.fps = 20.0
    wizard.camera.reader = _labelled_reader(sure=0.4)
    tap(wizard.step_buttons["learn"])
    try:
        tap(wizard.ids.throw_button)
        assert wait_for(lambda: bool(wizard.ids.dice_shown.children), timeout=20), wizard.throw_text
        assert wizard.throw_text == "I am not sure of every die: turn the camera light on or throw again."
        assert not wizard.can_confirm and all(w.dim for w in wizard.ids.dice_shown.children)
    finally:
        wizard.leave()


def test_port_scan_in_words() -> None:
    from serial.tools.list_ports_common import ListPortInfo

    from hardware.portscan import describe, scan, scan_sentence

    acm = ListPortInfo("/dev/ttyACM0")
    acm.vid, acm.pid = 0x2341, 0x0043
    uno = ListPortInfo("/dev/ttyUSB1")
    uno.vid, uno.product = 0x1A86, "Arduino Uno"
    pins = ListPortInfo("/dev/ttyAMA0")
    legacy = ListPortInfo("/dev/ttyS7")
    assert describe(acm) is not None and describe(acm).words == "USB serial device (ttyACM0)"
    assert describe(uno).words == "Arduino Uno, a USB device (ttyUSB1)"
    assert describe(pins).words == "The Pi's serial pins (ttyAMA0)"
    assert describe(legacy) is None  # one of Linux's 32 ports with nothing behind it
    found = scan(lambda: [pins, legacy, uno, acm])
    assert [p.device for p in found] == ["/dev/ttyACM0", "/dev/ttyUSB1", "/dev/ttyAMA0"]  # USB first
    assert scan(lambda: []) == []
    assert scan_sentence([]) == "No electronic die found: plug it in and touch Search again."
    assert scan_sentence(found[:1]) == "Found USB serial device (ttyACM0): touch it to use it."


def test_settings_names_the_ports_in_words_too() -> None:
    """Settings' line under the port box: the ports in words, or what to do; no bare path."""
    from serial.tools.list_ports_common import ListPortInfo

    from ui.screens.settings import ports_sentence

    acm = ListPortInfo("/dev/ttyACM0")
    acm.vid = 0x2341
    assert ports_sentence(lambda: [acm]) == "Found: USB serial device (ttyACM0)"
    assert ports_sentence(lambda: []) == "No electronic die found: plug it in and touch Test."

    def broken() -> list[Any]:
        raise OSError("no /sys")

    assert ports_sentence(broken) == "No electronic die found: plug it in and touch Test."


def test_the_die_found_by_search_works_live_through_a_pty(make_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from serial.tools.list_ports_common import ListPortInfo

    from hardware.virtualdie import VirtualDie
    from ui import wizardsound

    app = make_app()
    wizard = _wizard(app)
    tap(wizard.step_buttons["devices"])
    monkeypatch.setattr(wizardsound, "PORT_LISTER", lambda: [])
    tap(wizard.ids.die_search)
    assert wizard.die_text == "No electronic die found: plug it in and touch Search again."
    assert wizard.port_buttons == []
    with VirtualDie("katenmuis") as die:
        monkeypatch.setattr(wizardsound, "PORT_LISTER", lambda: [ListPortInfo(die.port)])
        tap(wizard.ids.die_search)
        assert len(wizard.port_buttons) == 1
        button = wizard.port_buttons[0]
        assert button.text.startswith("Serial device (") and die.port not in button.text
        tap(button)
        assert app.prefs.get("ui.serial_port") == die.port
        assert wait_for(lambda: wizard.die_text == "The die is connected: throw it to try it.", timeout=10), \
            wizard.die_text
        die.roll((3, 5))
        assert wait_for(lambda: wizard.die_text == "The die works: it threw 3 + 5.", timeout=10), wizard.die_text
        screenshot(app.root, "wizard_devices_800x480")
        assert small_touch_targets(app.sm.current_screen) == []
        app.shutdown()
    wizard.leave()


def test_a_die_that_does_not_answer_is_one_plain_sentence(make_app: Any, monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Any) -> None:
    from serial.tools.list_ports_common import ListPortInfo

    from ui import wizardsound

    app = make_app()
    wizard = _wizard(app)
    tap(wizard.step_buttons["devices"])
    gone = ListPortInfo(str(tmp_path / "ttyACM9"))  # listed, then pulled out before it was opened
    gone.vid = 0x2341
    monkeypatch.setattr(wizardsound, "PORT_LISTER", lambda: [gone])
    tap(wizard.ids.die_search)
    assert [b.text for b in wizard.port_buttons] == ["USB serial device (ttyACM9)"]
    tap(wizard.port_buttons[0])
    assert wait_for(lambda: wizard.die_text == "The die does not answer: unplug it, plug it in again and touch Search.",
                    timeout=10), wizard.die_text
    app.shutdown()
    wizard.leave()


@pytest.mark.parametrize("lang", ["en", "nl", "fr"])
def test_settings_and_the_wizard_name_the_voices_in_the_same_words(make_app: Any, lang: str) -> None:
    """One list of voice words (hardware.espeak.VARIANTS): Settings' buttons and the wizard's
    "English (woman)" say the same word for each voice, in each language."""
    from hardware.espeak import VARIANTS

    app = make_app(lang=lang)
    app.go("settings")
    pump(2)
    settings = {k: b.text for k, b in app.screen("settings").ids.voice.variant_buttons.items()}
    assert list(settings) == list(VARIANTS)
    wizard = _wizard(app)
    tap(wizard.step_buttons["devices"])
    shown = [b.text for b in reversed(wizard.ids.voices.children)]
    kinds = [t[t.index("(") + 1:t.rindex(")")] for t in shown]
    assert [s[:1].lower() + s[1:] for s in settings.values()] == kinds
    assert len(set(kinds)) == len(VARIANTS)
    assert (kinds[1] == "woman") == (lang == "en")  # translated in nl and fr
    wizard.leave()


def test_sound_choices_in_words(make_app: Any, tmp_path: Any) -> None:
    from hardware.soundchoice import OFF, outputs, voice_words

    cards = tmp_path / "cards"
    cards.write_text(" 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n                      vc4-hdmi-0\n"
                     " 1 [Headphones     ]: bcm2835_headphone - bcm2835 Headphones\n"
                     "                      bcm2835 Headphones\n")
    found = outputs(cards)
    assert [o.words for o in found] == ["HDMI screen", "Speaker on the Pi", "Sound off"]
    assert [o.device for o in found] == ["plughw:CARD=vc4hdmi0", "plughw:CARD=Headphones", OFF]
    assert [o.words for o in outputs(tmp_path / "missing")] == ["Speaker", "Sound off"]
    assert voice_words("en", "f3") == "English (woman)" and voice_words("en", "klatt") == "English (robot)"
    app = make_app()
    wizard = _wizard(app)
    tap(wizard.step_buttons["devices"])
    texts = _texts(wizard)
    assert "English (woman)" in texts and "English (man)" in texts
    assert not any(word in t for t in texts for word in ("klatt", "Klatt", "f3", "en+", "plughw", "aplay"))
    woman = next(b for b in wizard.ids.voices.children if b.text == "English (woman)")
    tap(woman)
    assert app.prefs.get("ui.speech_variant") == "f3"
    off = next(b for b in wizard.ids.sound_outputs.children if b.text == "Sound off")
    tap(off)
    assert app.voice.enabled is False and wizard.sound_text == "The voice is off."
    wizard.ids.devices_scroll.scroll_y = 0  # the page's foot, as a finger scrolls it
    pump(3)
    tap(wizard.ids.sound_test)
    assert wizard.sound_text == "The voice is off: choose where to hear it first."
    wizard.leave()


def test_cameras_are_named_in_words_in_the_wizard_and_settings(make_app: Any) -> None:
    app = make_app()
    app.hardware.camera.detail = "/dev/video0, /dev/video2"  # two USB cameras plugged in
    app.prefs.set("ui.camera", "none")  # no feed: only the choices are looked at
    app.go("settings")
    settings = [b.text for b in app.screen("settings").ids.cameras.children]
    assert "Camera 1 (USB)" in settings and "Camera 2 (USB)" in settings
    wizard = _wizard(app)
    tap(wizard.step_buttons["camera"])
    names = [b.text for b in wizard.ids.cam_sources.children][::-1]
    assert names == ["Camera 1 (USB)", "Camera 2 (USB)", "Pi camera", "Demo pictures"]
    assert not any("video" in t or "/dev/" in t for t in settings + names)
    assert wizard.camera_placeholder == "The camera is switched off in Settings."
    tap(wizard.ids.cam_sources.children[-2])  # Camera 2
    assert app.prefs.get("ui.camera") == "/dev/video2"
    # there is no such camera here: one sentence, no device error text
    assert wait_for(lambda: wizard.camera_placeholder == "The camera stopped: check its cable, then choose it again.",
                    timeout=15), wizard.camera_placeholder
    wizard.leave()
